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
from .struct import decode_parts

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


_BATCH = pb.Response.DESCRIPTOR.fields_by_name["batch"].number
_RESULT = pb.BatchResult.DESCRIPTOR.fields_by_name
_TIME, _SENSOR, _TRAJECTORY, _RESETS = (
    _RESULT[n].number for n in ("time", "sensor", "trajectory", "resets"))
_STEPS = _RESULT["steps"].number
_SENSORDATA = pb.Sensor.DESCRIPTOR.fields_by_name["sensordata"].number
_FRAME = pb.StreamFrame.DESCRIPTOR.fields_by_name
_FSTEP, _FTIME = _FRAME["step"].number, _FRAME["time"].number
_POS, _MAT = (pb.Poses.DESCRIPTOR.fields_by_name[n].number
              for n in ("pos", "mat"))


def frame_numbers(keys):
    """The field numbers of the StreamFrame members ``keys``, for
    :func:`step_answer`."""
    return tuple(_FRAME[k].number for k in keys)


def step_answer(body, numbers, top=None):
    """A Batch answer read from its Response's bytes for an environment's
    step, its arrays as NumPy takes them from the wire (haptix.wire):
    ``(time, resets, sensordata, obs)``, obs the last frame's members of
    field ``numbers`` (:func:`frame_numbers`) as one flat array (None if
    it recorded no frame).  ``top``: the Response's fields' runs, when
    read already.  Raises ValueError for bytes that are no such
    answer."""
    got = _answer(body, top, {_TIME, _SENSOR, _TRAJECTORY, _RESETS})
    sensordata = wire.doubles(body, _members(body, got.get(_SENSOR, ()),
                                             _SENSORDATA))
    obs = None
    if _TRAJECTORY in got:
        last = got[_TRAJECTORY][-1]
        if last[0] != wire.LEN:
            raise ValueError("a frame of wire type %d" % last[0])
        members = wire.runs(body, last[1:], numbers)
        obs = wire.doubles(body, [r for n in numbers
                                  for r in members.get(n, ())])
    return (_double(body, got, _TIME), _varint(got, _RESETS), sensordata,
            obs)


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
    conn = sim.conn
    body, top = conn.wait(conn.send("batch", msg), "batch", None, raw=True)
    return result(sim, body, record, top)


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


def result(sim, body, record, top=None):
    """The BatchResult of a Batch answer (its Response's bytes) that
    recorded ``record``, its arrays read from the bytes as NumPy takes
    them (haptix.wire): a frame's members, a few microseconds, where
    their decoded values came a Python float at a time."""
    got = _answer(body, top, {_STEPS, _TIME, _SENSOR, _TRAJECTORY, _RESETS})
    out = BatchResult()
    out.steps = _varint(got, _STEPS)
    out.end_time = _double(body, got, _TIME)
    out.resets = _varint(got, _RESETS)
    out.sensordata = wire.doubles(body, _members(body, got.get(_SENSOR, ()),
                                                 _SENSORDATA))
    frames = got.get(_TRAJECTORY, ())
    rows = len(frames)
    if not record:
        return out
    if rows == 0:
        return _empty(sim, out, record)
    keys = frame_keys(record)
    numbers = {_FRAME[k].number: k for k in keys}
    runs = {k: [] for k in keys}
    steps, times = [], []
    wanted = set(numbers) | {_FSTEP, _FTIME}
    for kind, a, b in frames:
        if kind != wire.LEN:
            raise ValueError("a frame of wire type %d" % kind)
        m = wire.runs(body, (a, b), wanted)
        steps.append(_varint(m, _FSTEP))
        times.append(_double(body, m, _FTIME))
        for number, key in numbers.items():
            runs[key].append(m.get(number, []))
    out["step"] = np.array(steps, np.uint64)
    out["time"] = np.array(times, np.float64)
    for key in keys:
        per = runs[key]
        if key in ("body", "geom", "site"):
            out[key + "_pos"] = _rows(body, [_members(body, r, _POS)
                                             for r in per]).reshape(
                                                 rows, -1, 3)
            out[key + "_mat"] = _rows(body, [_members(body, r, _MAT)
                                             for r in per]).reshape(
                                                 rows, -1, 3, 3)
        elif key in ("contacts", "status"):
            sub = _FRAME[key].message_type
            out[key] = [decode_parts(sub, body, r) for r in per]
        else:
            a = _rows(body, per)
            if key in _ROW:
                a = a.reshape((rows,) + _ROW[key])
            out[key] = a
    return out


def _answer(body, top, numbers):
    """The fields ``numbers`` of the BatchResult in a Response's bytes
    (``top``: its fields' runs, None: not read yet)."""
    if top is None:
        top = wire.runs(body, (0, len(body)), {_BATCH})
    if len(top.get(_BATCH, ())) != 1 or top[_BATCH][0][0] != wire.LEN:
        raise ValueError("not one Batch answer")
    return wire.runs(body, top[_BATCH][0][1:], numbers)


def _varint(got, number):
    """The last value of a varint field of ``got`` (0 when absent)."""
    value = 0
    for kind, a, b in got.get(number, ()):
        if kind != wire.VARINT:
            raise ValueError("field %d of wire type %d" % (number, kind))
        value = a
    return value


def _double(body, got, number):
    """The last value of a double field of ``got`` (0 when absent)."""
    value = 0.0
    for kind, a, b in got.get(number, ()):
        if kind != wire.I64:
            raise ValueError("field %d of wire type %d" % (number, kind))
        value = wire.double(body, a)
    return value


def _members(body, parts, number):
    """The runs of field ``number`` in a message given as its parts'
    runs (protobuf merges a message sent in parts)."""
    out = []
    for kind, a, b in parts:
        if kind != wire.LEN:
            raise ValueError("a message of wire type %d" % kind)
        out += wire.runs(body, (a, b), {number}).get(number, [])
    return out


def _rows(body, per_frame):
    """A repeated double of every frame (each its runs) as a (rows, n)
    array; ValueError when the frames differ in n."""
    flat_runs = [r for runs in per_frame for r in runs]
    flat = wire.doubles(body, flat_runs)
    rows = len(per_frame)
    n = flat.size // rows
    # The usual answer, one run a frame and all of a size, needs no count.
    one_each = len(flat_runs) == rows and \
        len({b - a for _, a, b in flat_runs}) <= 1
    if not one_each and (flat.size != rows * n or any(
            sum((b - a) // 8 if k == wire.LEN else 1 for k, a, b in runs)
            != n for runs in per_frame)):
        raise ValueError("frames of different sizes")
    return flat.reshape(rows, n)
