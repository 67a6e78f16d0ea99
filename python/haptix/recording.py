"""Recordings (``.hxr``, docs/recording.md) read into NumPy arrays.

    rec = haptix.read_recording("MPL_table_1.hxr")
    rec["qpos"]          # (records, nq)
    rec.time, rec.step, rec.segment
    rec.journal, rec.hashes, rec.truncated
    rec.parts, rec.changes       # a recording across edits of the model

A bare file name not in the current directory is looked for where
haptixd writes recordings, as hxplay does: ``$XDG_STATE_HOME/haptixd``,
``~/.local/state/haptixd``, then ``/var/lib/haptixd``.
"""

import os
import struct

import numpy as np

from . import zstd

FIELDS = ["qpos", "qvel", "act", "ctrl", "mocap_pos", "mocap_quat",
          "sensordata", "qfrc_applied", "xfrc_applied"]
_HEADER = struct.Struct("<6sH10IdQqII")
_ROW = {"mocap_pos": 3, "mocap_quat": 4, "xfrc_applied": 6}
_CHANGE = struct.Struct("<Qd7IIdQIIII")      # a model change's head (tag 4)


def find(path):
    """A recording's path: as given, or a bare name in the state
    directories hxplay searches."""
    if os.path.exists(path) or os.sep in path:
        return path
    dirs = []
    xdg = os.environ.get("XDG_STATE_HOME", "")
    if xdg.startswith("/"):
        dirs.append(os.path.join(xdg, "haptixd"))
    home = os.environ.get("HOME", "")
    if home:
        dirs.append(os.path.join(home, ".local", "state", "haptixd"))
    dirs.append("/var/lib/haptixd")
    for d in dirs:
        p = os.path.join(d, path)
        if os.path.exists(p):
            return p
    return path


class Recording(dict):
    """A recording's state records, a dict of arrays by field (``"qpos"``
    (records, nq), ``"mocap_pos"`` (records, nmocap, 3), ...), and:

    ``name``, ``header`` (sizes, ``timestep``, ``every``, ``fields``,
    ``model_hash``, ``created_ns``), ``step``, ``time`` and ``segment``
    (records,), ``journal`` (a list of (step, kind, bytes)), ``hashes``
    (H, 2) of step and state hash, ``truncated`` and ``dropped_bytes``
    (a file cut inside a frame).

    Across edits of the model (docs/recording.md, tag 4) the records
    change sizes: ``parts`` holds one Recording per model, the first
    being this one's records up to the first edit, and ``changes`` one
    Struct per edit (``step``, ``time``, ``sizes``, ``timestep``,
    ``model_hash``, ``operations``, ``removed``, ``mjb``).  Where every
    part has the same widths (an edit of attributes only), this
    recording's arrays hold all of the records; else the first part's.
    """

    @property
    def time(self):
        """The simulated time of each record."""
        return self["time"]

    @property
    def step(self):
        """The step index of each record."""
        return self["step"]

    @property
    def segment(self):
        """Each record's segment, from 1: a time going back begins one."""
        return self["segment"]


def _fill(rec, states, size, recorded):
    """A part's state records (all of one model's sizes) as arrays."""
    dtype = np.dtype([("step", "<u8"), ("time", "<f8")] +
                     [(f, "<f8", (size[f],)) for f in recorded])
    table = np.frombuffer(b"".join(states), dtype)
    rec["step"] = table["step"].copy()
    rec["time"] = table["time"].copy()
    t = rec["time"]
    rec["segment"] = np.cumsum(np.r_[len(t) > 0, t[1:] < t[:-1]]
                               ).astype(np.uint64)[:len(t)]
    for f in recorded:
        a = table[f].copy()
        if f in _ROW:
            a = a.reshape(len(table), size[f] // _ROW[f], _ROW[f])
        rec[f] = a


def _model_change(path, item):
    """A model change (tag 4) as a Struct."""
    from .struct import Struct
    if len(item) < _CHANGE.size:
        raise ValueError("%s: a model change of %d bytes" % (path, len(item)))
    (step, time, nq, nv, na, nu, nmocap, nsensordata, nbody, _, timestep,
     model_hash, o, r, m, _) = _CHANGE.unpack_from(item)
    if _CHANGE.size + o + r + m != len(item):
        raise ValueError("%s: a model change whose lengths do not add up"
                         % path)
    text = item[_CHANGE.size:]
    sizes = dict(nq=nq, nv=nv, na=na, nu=nu, nmocap=nmocap,
                 nsensordata=nsensordata, nbody=nbody)
    c = Struct(step=step, time=time, sizes=sizes, timestep=timestep,
               model_hash=model_hash,
               operations=text[:o].decode("utf-8", "replace").splitlines(),
               removed=text[o:o + r].decode("utf-8", "replace").splitlines(),
               mjb=bytes(text[o + r:o + r + m]))
    c.sizes_by_field = dict(qpos=nq, qvel=nv, act=na, ctrl=nu,
                            mocap_pos=3 * nmocap, mocap_quat=4 * nmocap,
                            sensordata=nsensordata, qfrc_applied=nv,
                            xfrc_applied=6 * nbody)
    return c


def read_recording(path):
    """Read a ``.hxr`` file; see :class:`Recording`.  Raises ValueError
    for a file that is not a version 1 recording or is damaged."""
    path = find(path)
    with open(path, "rb") as f:
        data = f.read()
    rec = Recording()
    rec.path = path
    rec.truncated = False
    rec.dropped_bytes = 0
    it = zstd.frames(data)
    try:
        _, head = next(it)
    except (StopIteration, zstd.Truncated):
        raise ValueError("%s: not a haptixd recording (no header)" % path)
    if len(head) < 80 or head[:6] != b"HXREC\0":
        raise ValueError("%s: not a haptixd recording" % path)
    (_, version, hsize, fields, every, nq, nv, na, nu, nmocap, nsensordata,
     nbody, timestep, model_hash, created, name_len, _) = _HEADER.unpack_from(
        head)
    if version != 1 or fields >> 9:
        raise ValueError("%s: version %d, fields %#x: not a version 1 "
                         "recording" % (path, version, fields))
    size = dict(qpos=nq, qvel=nv, act=na, ctrl=nu, mocap_pos=3 * nmocap,
                mocap_quat=4 * nmocap, sensordata=nsensordata,
                qfrc_applied=nv, xfrc_applied=6 * nbody)
    recorded = [f for i, f in enumerate(FIELDS) if fields >> i & 1]
    rec.name = head[80:80 + name_len].decode("utf-8", "replace")
    rec.header = dict(version=version, fields=recorded, every=every, nq=nq,
                      nv=nv, na=na, nu=nu, nmocap=nmocap,
                      nsensordata=nsensordata, nbody=nbody,
                      timestep=timestep, model_hash=model_hash,
                      created_ns=created)
    states, journal, hashes = [[]], [], []
    sizes = [size]
    changes = []
    try:
        for at, frame in it:
            pos = 0
            while pos < len(frame):
                tag, n = struct.unpack_from("<II", frame, pos)
                item = frame[pos + 8:pos + 8 + n]
                if len(item) != n:
                    raise ValueError("%s: an item cut across the frame at "
                                     "byte %d" % (path, at))
                pos += 8 + n
                if tag == 1:
                    states[-1].append(item)
                elif tag == 2:
                    step, kind, d = struct.unpack_from("<QII", item)
                    journal.append((step, kind, item[16:16 + d]))
                elif tag == 3:
                    hashes.append(struct.unpack("<QQ", item))
                elif tag == 4:
                    changes.append(_model_change(path, item))
                    sizes.append(changes[-1].sizes_by_field)
                    states.append([])
    except zstd.Truncated as t:
        rec.truncated = True
        rec.dropped_bytes = len(data) - t.args[0]
    parts = []
    for k, (part, sz) in enumerate(zip(states, sizes)):
        r = Recording()
        _fill(r, part, sz, recorded)
        r.name, r.path, r.truncated, r.dropped_bytes = rec.name, path, False, 0
        r.header = dict(rec.header, **(changes[k - 1].sizes if k else {}))
        r.journal, r.hashes = [], np.zeros((0, 2), np.uint64)
        parts.append(r)
    rec.update(parts[0])
    if len(parts) > 1 and all(p[f].shape[1:] == parts[0][f].shape[1:]
                              for p in parts for f in recorded):
        base, segments = 0, []
        for p in parts:
            segments.append(p["segment"] + np.uint64(base))
            base += int(p["segment"].max()) if len(p["segment"]) else 0
        for key in ["step", "time"] + recorded:
            rec[key] = np.concatenate([p[key] for p in parts])
        rec["segment"] = np.concatenate(segments)
    rec.parts = parts
    rec.changes = changes
    rec.journal = journal
    rec.hashes = np.array(hashes, dtype=np.uint64).reshape(-1, 2)
    return rec
