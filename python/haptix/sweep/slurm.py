"""Sweeps on a Slurm cluster, through Slurm's commands (sbatch, squeue,
sacct), never libslurm, whose ABI changes with every release.

``submit`` writes OUT/job.sh and submits it as a job array: task N runs
the trials N, N+K, N+2K, ... of K tasks on a haptixd of its own on its
node, appending to OUT/tasks/task_N.jsonl (OUT must be on a file system
the nodes share).  ``status`` tells where the tasks are, ``gather``
merges their files into the same table ``hxsweep run`` writes, and
``resubmit`` submits again the tasks whose trials are not all done."""

import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys

from .. import __path__ as _haptix_path
from . import table as _table
from .daemon import find_haptixd
from .pool import Pool
from .spec import SweepError, loads

__all__ = ["submit", "run_task", "status", "gather", "resubmit",
           "batch_script", "sbatch_command", "settings"]

SETTINGS = "slurm.json"
MAX_TASKS = 1000            # Slurm's default MaxArraySize is 1001


def _sq(s):
    """A word quoted for sh."""
    return shlex.quote(str(s))


def _settings(out):
    """OUT/slurm.json, written by submit."""
    try:
        with open(os.path.join(out, SETTINGS), encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        raise SweepError("%s: no Slurm sweep was submitted there (no %s)"
                         % (out, SETTINGS)) from None


def _save_settings(out, s):
    """Write OUT/slurm.json whole."""
    path = os.path.join(out, SETTINGS)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(s, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)


def _sweep(out, s):
    """The sweep as submitted (OUT/sweep.toml, paths from the original's directory)."""
    with open(os.path.join(out, "sweep.toml"), encoding="utf-8") as f:
        text = f.read()
    return loads(text, s["sweep"], s["base"], s["name"])


def _plain(what, v):
    """v, refused if it holds a control character (a newline, CR, NUL...):
    every value that reaches the batch script or sbatch's command line
    goes through here, so that none can end a line of the script."""
    v = str(v)
    m = re.search(r"[\x00-\x1f\x7f]", v)
    if m:
        raise SweepError("%s holds the control character %r: refused, as "
                         "it would reach the batch script" % (what,
                                                               m.group()))
    return v


def sbatch_options(s):
    """The options sbatch is given on its command line, one argument
    each, never through the shell: the values a user chose (the name,
    the output path, the partition, the time, --sbatch-arg) go there and
    not into #SBATCH lines, which sbatch splits at blanks whatever the
    quotes.  Slurm expands % in --output, so OUT's own % are doubled."""
    out = _plain("OUT", s["out"])
    if "\\" in out:
        raise SweepError("OUT %s holds a backslash, which makes Slurm "
                         "leave --output's %%a unexpanded: use another "
                         "directory" % out)
    opts = ["--job-name=" + _plain("the sweep's name",
                                   "hxsweep-" + s["name"]),
            "--output=" + os.path.join(out.replace("%", "%%"), "logs",
                                       "task_%a.log")]
    if s["partition"]:
        opts.append("--partition=" + _plain("--partition", s["partition"]))
    if s["time"]:
        opts.append("--time=" + _plain("--time", s["time"]))
    for a in s["sbatch_args"]:
        opts.append(_plain("--sbatch-arg", a))
    return opts


def sbatch_command(s, extra=()):
    """The whole sbatch command line, as argv."""
    return (["sbatch", "--parsable"] + sbatch_options(s) + list(extra) +
            [os.path.join(s["out"], "job.sh")])


def batch_script(sweep, out, s):
    """The batch script of a sweep: the array and the resources, numbers
    all, and one line that runs a task, every word of it quoted; then,
    as a comment, the sbatch command that submits it."""
    k = s["tasks"]
    name = _plain("the sweep's name", sweep.name)
    argv = sbatch_command(s)
    cmd = " ".join(_sq(w) for w in argv[:1] + argv[2:])
    lines = ["#!/bin/sh",
             "# hxsweep's batch script for the sweep %s (%d trials):" % (
                 name, len(sweep.trials)),
             "# task N of %d runs the trials N, N+%d, N+%d, ... on a "
             "haptixd of its own," % (k, k, 2 * k),
             "# appending to tasks/task_N.jsonl; hxsweep gather merges "
             "them.  Submitted as:",
             "#   " + cmd,
             "#SBATCH --array=0-%d%s" % (k - 1, "%%%d" % s["array_max"]
                                         if s["array_max"] else ""),
             "#SBATCH --ntasks=1",
             "#SBATCH --cpus-per-task=%d" % s["cpus"]]
    lines += ["export PYTHONPATH=%s" % _sq(os.pathsep.join(
                  _plain("PYTHONPATH", p) for p in s["pythonpath"])),
              "export HAPTIXD=%s" % _sq(_plain("haptixd", s["haptixd"])),
              "exec %s -m haptix.sweep task %s \"$SLURM_ARRAY_TASK_ID\"" % (
                  _sq(_plain("python", s["python"])), _sq(out)), ""]
    return "\n".join(lines)


def _sbatch(s, extra):
    """Submit OUT/job.sh with its options and extra; returns the job id."""
    sb = shutil.which("sbatch")
    if sb is None:
        raise SweepError("sbatch is not on the PATH: is this a Slurm "
                         "login node? (Debian: slurm-client)")
    p = subprocess.run([sb] + sbatch_command(s, extra)[1:],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        raise SweepError("sbatch failed: %s" % (p.stderr.strip() or
                                                "exit %d" % p.returncode))
    return p.stdout.strip().split(";")[0]


def settings(sweep, out, tasks=None, cpus=1, partition=None, time=None,
             array_max=None, sbatch_args=(), retries=0, timeout=None,
             haptixd=None, model_dirs=()):
    """What submit keeps in OUT/slurm.json, and the batch script and
    sbatch's options are made of."""
    n = len(sweep.trials)
    k = tasks or min(MAX_TASKS, math.ceil(n / 50))
    k = max(1, min(k, n))
    return {"name": sweep.name, "sweep": os.path.abspath(sweep.path),
            "base": sweep.base, "out": os.path.abspath(out), "trials": n,
            "tasks": k, "cpus": cpus, "partition": partition, "time": time,
            "array_max": array_max, "sbatch_args": list(sbatch_args),
            "retries": retries, "timeout": timeout,
            "model_dirs": [_plain("a model directory", os.path.abspath(d))
                           for d in model_dirs],
            "haptixd": find_haptixd(haptixd),
            "python": sys.executable or "/usr/bin/python3",
            "pythonpath": [os.path.dirname(os.path.abspath(p))
                           for p in _haptix_path], "jobs": []}


def submit(sweep, out, tasks=None, cpus=1, partition=None, time=None,
           array_max=None, sbatch_args=(), retries=0, timeout=None,
           haptixd=None, model_dirs=(), dry_run=False):
    """Write OUT (the sweep, slurm.json, job.sh) and submit the array;
    returns the settings (``jobs``: the job ids)."""
    sweep.runs()
    out = os.path.abspath(out)
    if os.path.exists(os.path.join(out, SETTINGS)):
        raise SweepError("%s was submitted already: hxsweep status, "
                         "gather or resubmit it, or remove it" % out)
    if _table.held(out):
        raise SweepError("%s holds results already: remove it" % out)
    s = settings(sweep, out, tasks, cpus, partition, time, array_max,
                 sbatch_args, retries, timeout, haptixd, model_dirs)
    # Refused before anything is written: a value that cannot be sent.
    batch_script(sweep, out, s)
    os.makedirs(os.path.join(out, "tasks"), exist_ok=True)
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    with open(os.path.join(out, "sweep.toml"), "w", encoding="utf-8") as f:
        f.write(sweep.text)
    script = batch_script(sweep, out, s)
    with open(os.path.join(out, "job.sh"), "w", encoding="utf-8") as f:
        f.write(script)
    os.chmod(os.path.join(out, "job.sh"), 0o755)
    _save_settings(out, s)
    if not dry_run:
        s["jobs"].append(_sbatch(s, []))
        _save_settings(out, s)
    return s


def _task_file(out, i):
    """Where task i appends its trials."""
    return os.path.join(out, "tasks", "task_%d.jsonl" % i)


def run_task(out, i, log=sys.stderr):
    """Run task ``i`` of a submitted sweep (what job.sh runs on a node):
    its trials not yet ok in its file.  Returns 0 when all are ok."""
    s = _settings(out)
    sweep = _sweep(out, s)
    k = s["tasks"]
    if not 0 <= i < k:
        raise SweepError("task %d: the sweep has tasks 0 to %d" % (i, k - 1))
    mine = [t for t in sweep.trials if t.id % k == i]
    path = _task_file(out, i)
    done = {j for j, r in _table.read(path).items() if r["status"] == "ok"}
    todo = [t for t in mine if t.id not in done]
    pool = Pool(sweep, find_haptixd(s["haptixd"]), s["cpus"], s["retries"],
                s["timeout"], s["model_dirs"], None, log)
    r = pool.run(path, todo, skipped=len(mine) - len(todo), total=len(mine))
    if log is not None:
        log.write("hxsweep: task %d: %d trials, %d ok before, %d ok, %d "
                  "failed\n" % (i, len(mine), len(mine) - len(todo),
                                r["ok"], r["failed"]))
    return 0 if r["failed"] == 0 and not r["interrupted"] else 1


def _rows(out, s):
    """Every task's lines by trial: an ok one wins over a failure."""
    rows = {}
    for i in range(s["tasks"]):
        for j, r in _table.read(_task_file(out, i)).items():
            if j not in rows or r["status"] == "ok":
                rows[j] = r
    return rows


def _slurm_states(jobs):
    """Array task states by task id from squeue (pending and running)
    and sacct (finished, where accounting is kept)."""
    states = {}
    if not jobs:
        return states, "no job submitted"
    ids = ",".join(jobs)
    how = []
    if shutil.which("sacct"):
        p = subprocess.run(["sacct", "-n", "-X", "-P", "-j", ids, "-o",
                            "JobID,State"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode == 0:
            how.append("sacct")
            for line in p.stdout.splitlines():
                jid, _, st = line.partition("|")
                m = re.fullmatch(r"\d+_(\d+)", jid.strip())
                if m:
                    states[int(m.group(1))] = st.split()[0]
    if shutil.which("squeue"):
        p = subprocess.run(["squeue", "-h", "-r", "-j", ids, "-o",
                            "%K %T"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode == 0:
            how.append("squeue")
            for line in p.stdout.split("\n"):
                parts = line.split()
                if len(parts) == 2 and parts[0].isdigit():
                    states[int(parts[0])] = parts[1]
    return states, " and ".join(how) or "neither squeue nor sacct"


def status(out, stream=sys.stdout):
    """Print where a submitted sweep is: trials done, each unfinished
    task's state.  Returns (trials ok, trials in all, tasks to
    resubmit)."""
    out = os.path.abspath(out)
    s = _settings(out)
    k = s["tasks"]
    rows = _rows(out, s)
    states, how = _slurm_states(s["jobs"])
    ok = sum(r["status"] == "ok" for r in rows.values())
    failed = sum(r["status"] != "ok" for r in rows.values())
    stream.write("sweep %s: %d trials in %d tasks (job %s): %d ok, %d "
                 "failed, %d to run\n" % (
                     s["name"], s["trials"], k,
                     ", ".join(s["jobs"]) or "not submitted", ok, failed,
                     s["trials"] - ok - failed))
    stream.write("tasks' states from %s and the results directory\n" % how)
    redo = []
    for i in range(k):
        mine = range(i, s["trials"], k)
        n_ok = sum(1 for j in mine if rows.get(j, {}).get("status") == "ok")
        n_failed = sum(1 for j in mine if j in rows and
                       rows[j]["status"] != "ok")
        st = states.get(i)
        if st is None:
            st = "finished" if n_ok + n_failed == len(mine) else (
                "not started" if n_ok + n_failed == 0 else "stopped")
        if n_ok < len(mine) and st not in ("PENDING", "RUNNING",
                                           "CONFIGURING", "COMPLETING"):
            redo.append(i)
        if n_ok < len(mine) or st not in ("COMPLETED", "finished"):
            stream.write("task %d: %d/%d ok%s, %s\n" % (
                i, n_ok, len(mine), ", %d failed" % n_failed if n_failed
                else "", st))
    if redo:
        stream.write("to submit again: hxsweep resubmit %s (tasks %s)\n"
                     % (out, ",".join(map(str, redo))))
    return ok, s["trials"], redo


def gather(out, stream=sys.stdout):
    """Merge the tasks' files into OUT/results.jsonl, results.csv and
    npy/, as hxsweep run writes them; returns (ok, failed, missing)."""
    out = os.path.abspath(out)
    s = _settings(out)
    sweep = _sweep(out, s)
    rows = _rows(out, s)
    _table.finish(out, sweep, rows)
    ok = sum(r["status"] == "ok" for r in rows.values())
    failed = len(rows) - ok
    missing = [t.id for t in sweep.trials if t.id not in rows]
    stream.write("hxsweep: gathered %d of %d trials: %d ok, %d failed; "
                 "results in %s\n" % (len(rows), len(sweep.trials), ok,
                                       failed,
                                       os.path.join(out, _table.RESULTS)))
    if missing:
        k = s["tasks"]
        tasks = sorted({j % k for j in missing})
        stream.write("hxsweep: %d trials missing, of tasks %s: hxsweep "
                     "status %s\n" % (len(missing),
                                      ",".join(map(str, tasks)), out))
    return ok, failed, missing


def resubmit(out, tasks=None, stream=sys.stdout):
    """Submit again the given tasks, else those whose trials are not all
    ok and that are not pending or running; returns the job id."""
    out = os.path.abspath(out)
    s = _settings(out)
    if tasks is None:
        _, _, tasks = status(out, open(os.devnull, "w"))
    if not tasks:
        stream.write("hxsweep: every task is done or still queued\n")
        return None
    arr = ",".join(map(str, sorted(tasks)))
    if s["array_max"]:
        arr += "%%%d" % s["array_max"]
    s.setdefault("out", out)
    job = _sbatch(s, ["--array=" + arr])
    s["jobs"].append(job)
    _save_settings(out, s)
    stream.write("hxsweep: submitted tasks %s again as job %s\n"
                 % (",".join(map(str, sorted(tasks))), job))
    return job
