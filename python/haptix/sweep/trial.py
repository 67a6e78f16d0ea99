"""One trial on a prepared daemon: the preparation every trial gets
(the model as loaded, a keyframe, seeded noise, arrays set by name,
model edits, controls), then a run declared in the sweep file, a
command, or a Python function.  Each result is a dict that JSON can
hold, and depends on the trial's parameters and seed alone."""

import json
import os
import re
import signal
import subprocess

import numpy as np

from .. import edit as _edit
from ..errors import Error
from ..suggest import did_you_mean
from . import expr
from .daemon import die_with_parent

__all__ = ["TrialError", "prepare", "run_declared", "run_command",
           "run_function"]

_SUMMARY = {"min": lambda a: a.min(axis=0), "max": lambda a: a.max(axis=0),
            "mean": lambda a: a.mean(axis=0),
            "std": lambda a: a.std(axis=0), "first": lambda a: a[0],
            "last": lambda a: a[-1]}


class TrialError(Exception):
    """A trial that failed, with the reason to record."""


def _plain(v):
    """A value as JSON holds it: arrays as (nested) lists."""
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _array_target(sim, key, arrays):
    """An entry of [trial.set] as (array, offset, count of columns)."""
    m = re.fullmatch(r"([a-z_0-9]+)(?:\[([^\],]+)(?:,\s*(\d+))?\])?", key)
    name, row, col = m.group(1), m.group(2), m.group(3)
    if name not in arrays:
        try:
            a = sim.get_array(name)
        except Error as e:
            if "no array named" not in e.message:
                raise
            raise type(e)("%s%s" % (e.message, did_you_mean(
                name, [x.name for x in sim.list_arrays()]))) from None
        arrays[name] = a.shape
    rows, cols = arrays[name]
    if row is None:
        return name, 0
    row = row.strip()
    if re.fullmatch(r"\d+", row):
        r = int(row)
    else:
        otype = name.split("_", 1)[0]
        otype = {"jnt": "joint", "dof": "joint", "cam": "camera",
                 "mat": "material", "eq": "equality", "tex": "texture",
                 "key": "key"}.get(otype, otype)
        if name.startswith("dof_"):
            r = sim.model.joint_qvel(row).start
        else:
            r = sim.model.id(otype, row)
    if r >= rows:
        raise TrialError("[trial.set] %s: row %d but %s has %d rows"
                         % (key, r, name, rows))
    if int(col or 0) >= cols:
        raise TrialError("[trial.set] %s: column %s but %s has %d columns"
                         % (key, col, name, cols))
    return name, r * cols + int(col or 0)


def _edit_op(e, env):
    """A [[trial.edit]] table as a haptix.edit operation."""
    e = expr.evaluate(e, env)
    attrs = e.get("attrs", {})
    if e["op"] == "add":
        return _edit.add(e["type"], e.get("name", ""),
                         parent=e.get("parent", "worldbody"), attrs=attrs)
    if e["op"] == "remove":
        return _edit.remove(e["type"], e.get("name", ""))
    if e["op"] == "set":
        return _edit.set(e["type"], e.get("name", ""),
                         parent=e.get("parent"), attrs=attrs)
    return _edit.unset(e["type"], e.get("name", ""), *attrs.keys(),
                       parent=e.get("parent"))


def _ctrl(sim, base, table, env, what):
    """Controls with those of a table set by actuator name."""
    c = np.array(base, dtype=np.float64)
    for name, v in table.items():
        c[sim.model.id("actuator", name)] = expr.number(v, env, what)
    return c


def prepare(daemon, spec, t, edited):
    """Bring the daemon to the trial's start; returns the controls to
    start with.  ``edited`` says the last trial edited the model, which
    a reload undoes."""
    sim = daemon.sim
    tr = spec.trial
    env = t.env()
    if tr.get("edit") or edited:
        daemon.load()
    if tr.get("edit"):
        sim.edit([_edit_op(e, env) for e in tr["edit"]])
    sim.pause()
    # A reset puts back the model's parameters the last trial changed
    # before it computes the state, so nothing of that trial is left.
    sim.reset(tr.get("keyframe"))
    noise = expr.number(tr.get("noise", 0), env, "[trial] noise")
    if noise:
        rng = np.random.default_rng(t.seed)
        s = sim.get_state()
        sim.set_state(qpos=s.qpos + rng.uniform(-noise, noise, s.qpos.size),
                      qvel=s.qvel + rng.uniform(-noise, noise, s.qvel.size),
                      act=s.act)
    arrays = {}
    for key, v in tr.get("set", {}).items():
        name, offset = _array_target(sim, key, arrays)
        vals = expr.number(v, env, "[trial.set] " + key)
        sim.set_array(name, vals if isinstance(vals, list) else [vals],
                      offset=offset)
    base = sim.get_control().ctrl
    ctrl = _ctrl(sim, base, tr.get("ctrl", {}), env, "[trial] ctrl")
    sim.set_control(ctrl)
    return ctrl


def _segments(sim, spec, env, ctrl, steps):
    """The run cut at the schedule's points: (first step, steps, ctrl)."""
    ts = sim.model.timestep
    points = []
    for s in spec.trial.get("schedule", []):
        at = s["step"] if "step" in s else int(round(s["time"] / ts))
        points.append((min(at, steps), s.get("ctrl", {})))
    points.sort(key=lambda p: p[0])
    segs = []
    at = 0
    for p, table in points:
        if p > at:
            segs.append((at, p - at, ctrl))
            at = p
        ctrl = _ctrl(sim, ctrl, table, env, "[trial.schedule] ctrl")
    if steps > at:
        segs.append((at, steps - at, ctrl))
    return segs


def _columns(sim, rec):
    """What to keep of each recorded field: (result key, batch key,
    columns or None for all)."""
    out = []
    for f in rec:
        if f.startswith("sensor:"):
            name = f[7:]
            out.append(("sensor." + name, "sensordata",
                        np.asarray(sim.model.sensor_index(name))))
        elif f.startswith("joint:"):
            name = f[6:]
            sl = sim.model.joint_qpos(name)
            out.append(("joint." + name, "qpos",
                        np.arange(sl.start, sl.stop)))
        elif f in ("mocap", "body", "geom", "site"):
            for part in (("pos", "quat") if f == "mocap" else ("pos", "mat")):
                out.append((f + "_" + part, f + "_" + part, None))
        else:
            out.append((f, f, None))
    return out


def check(daemon, spec, t):
    """Every name and index the sweep file gives, against the model the
    daemon compiled, with trial ``t``'s parameters: the edits (compiled:
    the names after them count), the keyframe, the arrays, rows and
    columns of [trial.set], the actuators of ctrl and the schedule, the
    sensors and joints recorded.  Nothing is stepped.  Raises TrialError
    naming the first that is not there, with "did you mean"."""
    sim = daemon.sim
    tr = spec.trial
    env = t.env()
    where = "[[trial.edit]]"
    try:
        if tr.get("edit"):
            sim.edit([_edit_op(e, env) for e in tr["edit"]])
        where = "[trial] keyframe"
        key = tr.get("keyframe")
        if isinstance(key, str):
            sim.model.id("keyframe", key)
        elif key is not None and not 0 <= key < sim.model.nkey:
            raise TrialError("[trial] keyframe: %d, but the model has %d "
                             "keyframes" % (key, sim.model.nkey))
        arrays = {}
        for k in tr.get("set", {}):
            where = "[trial.set] " + k
            _array_target(sim, k, arrays)
        tables = [("[trial] ctrl", tr.get("ctrl", {}))]
        tables += [("[trial.schedule] item %d ctrl" % (i + 1),
                    s.get("ctrl", {}))
                   for i, s in enumerate(tr.get("schedule", []))]
        for where, table in tables:
            for name in table:
                sim.model.id("actuator", name)
        where = "[trial] record"
        _columns(sim, tr.get("record", []))
    except Error as e:
        raise TrialError("%s: %s" % (where, e.message)) from None


def run_declared(daemon, spec, t, ctrl):
    """The trial of the sweep file's [trial]: steps or time, the
    controls and their schedule, the fields kept (last, series or a
    summary)."""
    sim = daemon.sim
    tr = spec.trial
    env = t.env()
    steps = tr["steps"] if "steps" in tr else int(round(
        tr["time"] / sim.model.timestep))
    rec = tr.get("record", [])
    batch_fields = sorted({"sensordata" if f.startswith("sensor:") else
                           "qpos" if f.startswith("joint:") else f
                           for f in rec})
    keep = tr.get("keep", "last")
    every = tr.get("every", 1)
    rows = {}
    times = []
    taken = 0
    end = 0.0
    for first, n, c in _segments(sim, spec, env, ctrl, steps):
        final = first + n == steps
        if not batch_fields or (keep == "last" and not final):
            out = sim.batch(steps=n, ctrl=c)
            taken += out.steps
            end = out.end_time
            continue
        # "last" records one row, after the last stretch's last step.
        aligned = keep == "last" or first % every == 0
        out = sim.batch(steps=n, ctrl=c, record=batch_fields,
                        every=n if keep == "last" else
                        every if aligned else 1)
        taken += out.steps
        end = out.end_time
        pick = slice(None)
        if not aligned:
            pick = (out["step"].astype(np.int64) + first) % every == 0
        times.append(out["time"][pick])
        for k, v in out.items():
            if k not in ("step", "time"):
                rows.setdefault(k, []).append(np.asarray(v)[pick])
    result = {}
    if keep == "series" and times:
        result["time"] = np.concatenate(times)
    for key, src, cols in _columns(sim, rec):
        a = np.concatenate(rows[src]) if rows.get(src) else np.zeros((0,))
        if cols is not None:
            a = a[:, cols]
        if a.shape[0] == 0 and keep != "series":
            raise TrialError("no row recorded: every = %d is more than the "
                             "%d steps" % (every, steps))
        if keep == "series":
            result[key] = a
        elif keep == "last":
            result[key] = a[-1]
        else:
            result[key] = {s: _SUMMARY[s](a) for s in tr.get(
                "summary", ["min", "max", "mean", "last"])}
    result["steps"] = int(taken)
    result["sim_time"] = float(end)
    return _plain(result)


def run_command(daemon, spec, t, timeout, procs):
    """Run the trial's command with $HAPTIX_SERVER at the daemon and the
    parameters in its environment; its standard output, JSON, is the
    result.  ``procs`` holds it while it runs, for Ctrl-C."""
    env = dict(os.environ)
    tenv = t.env()
    for k in ("HAPTIX_TOKEN_FILE", "HAPTIX_LEASE"):
        env.pop(k, None)
    env.update(HAPTIX_SERVER="unix:" + daemon.sock,
               HX_TRIAL=str(t.id), HX_SEED=str(t.seed),
               HX_REPEAT=str(t.repeat),
               HX_PARAMS=json.dumps(t.params, sort_keys=True))
    for k, v in t.params.items():
        env["HX_PARAM_" + k] = str(v)
    cmd = expr.evaluate(spec.trial["command"], tenv)
    if isinstance(cmd, list):
        argv = [str(x) for x in cmd]
    else:
        argv = ["/bin/sh", "-c", cmd]
    try:
        p = subprocess.Popen(argv, cwd=spec.base, env=env,
                             stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=die_with_parent)
    except OSError as e:
        raise TrialError("cannot run %s: %s" % (argv[0], e.strerror))
    procs.add(p)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise TrialError("the command did not finish within %g s "
                         "(--trial-timeout): killed" % timeout)
    finally:
        procs.discard(p)
    if p.returncode != 0:
        tail = err.decode(errors="replace").strip().splitlines()[-3:]
        how = ("killed by signal %d" % -p.returncode if p.returncode < 0
               else "exit status %d" % p.returncode)
        raise TrialError("the command failed (%s)%s" % (
            how, ": " + " / ".join(tail) if tail else ""))
    text = out.decode(errors="replace").strip()
    try:
        result = json.loads(text)
    except ValueError:
        lines = text.splitlines()
        try:
            result = json.loads(lines[-1]) if lines else None
        except ValueError:
            result = None
        if result is None:
            raise TrialError("the command printed no JSON on its standard "
                             "output (%s)" % (repr(text[:60]) if text
                                              else "nothing"))
    if not isinstance(result, dict):
        result = {"value": result}
    return result


def run_function(daemon, fn, t):
    """A Python function's trial: ``fn(sim, trial)`` returns a dict."""
    r = fn(daemon.sim, t)
    if r is None:
        r = {}
    if not isinstance(r, dict):
        r = {"value": r}
    return _plain(r)
