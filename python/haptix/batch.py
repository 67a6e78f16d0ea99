"""Batch runs: many steps in one request, the recorded trajectory
returned as a dict of arrays, with no Python work per step.

The server steps while paused, applying the controls first and
recording the fields after every ``every``-th step (docs/protocol.md,
"Batch runs"); the frames come back in one answer and are stacked here
into one array per field.
"""

import numpy as np

from . import wire
from .errors import BadValue
from .proto import pb
from .stream import field_number, frame_keys
from .struct import to_struct

# Per-object shapes of the frame's members, per row.
_ROW = {"mocap_pos": (-1, 3), "mocap_quat": (-1, 4),
        "xfrc_applied": (-1, 6)}


class BatchResult(dict):
    """The recorded trajectory, a dict of arrays (``"step"``, ``"time"``,
    ``"qpos"``...), and what the run ended with: ``steps`` taken,
    ``end_time``, ``sensordata`` after the last step, ``resets``
    (times MuJoCo reset a diverging simulation on the way)."""

    steps = 0
    end_time = 0.0
    sensordata = None
    resets = 0


def _stack(traj, name, rows):
    """One repeated double member of every frame, as a (rows, n) array."""
    if rows == 0:
        return np.zeros((0, 0))
    n = len(getattr(traj[0], name))
    flat = np.fromiter((x for f in traj for x in getattr(f, name)),
                       dtype=np.float64, count=rows * n)
    return flat.reshape(rows, n)


_BATCH = pb.Response.DESCRIPTOR.fields_by_name["batch"].number
_RESULT = pb.BatchResult.DESCRIPTOR.fields_by_name
_TIME, _SENSOR, _TRAJECTORY, _RESETS = (
    _RESULT[n].number for n in ("time", "sensor", "trajectory", "resets"))
_SENSORDATA = pb.Sensor.DESCRIPTOR.fields_by_name["sensordata"].number
_FRAME = pb.StreamFrame.DESCRIPTOR.fields_by_name


def frame_numbers(keys):
    """The field numbers of the StreamFrame members ``keys``, for
    :func:`step_answer`."""
    return tuple(_FRAME[k].number for k in keys)


def step_answer(body, numbers):
    """A Batch answer read from its Response's bytes for an environment's
    step, its arrays as NumPy takes them from the wire (haptix.wire):
    ``(time, resets, sensordata, obs)``, obs the last frame's members of
    field ``numbers`` (:func:`frame_numbers`) as one flat array (None if
    it recorded no frame).  Raises ValueError for bytes that are no such
    answer."""
    top = wire.runs(body, (0, len(body)), {_BATCH})
    if len(top.get(_BATCH, ())) != 1 or top[_BATCH][0][0] != wire.LEN:
        raise ValueError("not one Batch answer")
    got = wire.runs(body, top[_BATCH][0][1:],
                    {_TIME, _SENSOR, _TRAJECTORY, _RESETS})
    time = resets = 0
    for kind, a, b in got.get(_TIME, ()):
        if kind != wire.I64:
            raise ValueError("a time of wire type %d" % kind)
        time = wire.double(body, a)
    for kind, a, b in got.get(_RESETS, ()):
        if kind != wire.VARINT:
            raise ValueError("a count of wire type %d" % kind)
        resets = a
    sensordata = []
    for kind, a, b in got.get(_SENSOR, ()):
        sensordata += wire.runs(body, (a, b), {_SENSORDATA}).get(
            _SENSORDATA, [])
    obs = None
    if _TRAJECTORY in got:
        last = got[_TRAJECTORY][-1]
        members = wire.runs(body, last[1:], set(numbers))
        obs = wire.doubles(body, [r for n in numbers
                                  for r in members.get(n, ())])
    return time, resets, wire.doubles(body, sensordata), obs


def _empty(sim, out, record):
    """A trajectory of no rows, each array with the model's widths."""
    m = sim.model
    width = {"qpos": m.nq, "qvel": m.nv, "act": m.na, "ctrl": m.nu,
             "sensordata": m.nsensordata, "qfrc_applied": m.nv}
    out["step"] = np.zeros(0, np.uint64)
    out["time"] = np.zeros(0)
    for key in frame_keys(record):
        if key in ("body", "geom", "site"):
            n = {"body": m.nbody, "geom": m.ngeom, "site": m.nsite}[key]
            out[key + "_pos"] = np.zeros((0, n, 3))
            out[key + "_mat"] = np.zeros((0, n, 3, 3))
        elif key in ("contacts", "status"):
            out[key] = []
        elif key in _ROW:
            n = m.nbody if key == "xfrc_applied" else m.nmocap
            out[key] = np.zeros((0, n, _ROW[key][1]))
        else:
            out[key] = np.zeros((0, width[key]))
    return out


def run(sim, steps, until, ctrl, record, every):
    """Run one batch; see Sim.batch."""
    msg, record = request(steps, until, ctrl, record, every)
    return result(sim, sim._call("batch", msg, "batch", timeout=None),
                  record)


def request(steps, until, ctrl, record, every):
    """The Batch message of a run, and the fields it records."""
    if (steps is None) == (until is None):
        raise BadValue("a batch run takes steps or until, not both")
    msg = pb.Batch(steps=int(steps or 0), until_time=float(until or 0.0),
                   record_every=int(every or 1))
    if ctrl is not None:
        c = np.ascontiguousarray(ctrl, dtype=np.float64).ravel()
        msg.control.CopyFrom(pb.Control(nu=c.size, ctrl=c))
    if isinstance(record, str):
        record = [f for f in record.split(",") if f]
    record = list(record or [])
    msg.record.extend(field_number(f) for f in record)
    return msg, record


def result(sim, r, record):
    """The BatchResult of a Batch answer r that recorded ``record``."""
    out = BatchResult()
    out.steps = r.steps
    out.end_time = r.time
    out.sensordata = np.array(r.sensor.sensordata)
    out.resets = r.resets
    traj = r.trajectory
    rows = len(traj)
    if not record:
        return out
    if rows == 0:
        return _empty(sim, out, record)
    out["step"] = np.fromiter((f.step for f in traj), np.uint64, rows)
    out["time"] = np.fromiter((f.time for f in traj), np.float64, rows)
    for key in frame_keys(record):
        if key in ("body", "geom", "site"):
            pos = _stack([f.__getattribute__(key) for f in traj], "pos", rows)
            mat = _stack([f.__getattribute__(key) for f in traj], "mat", rows)
            out[key + "_pos"] = pos.reshape(rows, -1, 3)
            out[key + "_mat"] = mat.reshape(rows, -1, 3, 3)
        elif key in ("contacts", "status"):
            out[key] = [to_struct(getattr(f, key)) for f in traj]
        else:
            a = _stack(traj, key, rows)
            if key in _ROW:
                a = a.reshape((rows,) + _ROW[key])
            out[key] = a
    return out
