"""Recordings (``.hxr``, docs/recording.md, and HAPTIX's ``.mjl``) read
into NumPy arrays.

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
    (a file cut inside a frame), ``segments`` (how many in the file, as
    hxplay counts them: across edits too).

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


def _fill(rec, raw, size, recorded):
    """A part's state records (all of one model's sizes) as arrays."""
    dtype = np.dtype([("step", "<u8"), ("time", "<f8")] +
                     [(f, "<f8", (size[f],)) for f in recorded])
    table = np.frombuffer(raw, dtype)
    rec["step"] = table["step"].copy()
    rec["time"] = table["time"].copy()
    for f in recorded:
        a = table[f].copy()
        if f in _ROW:
            a = a.reshape(len(table), size[f] // _ROW[f], _ROW[f])
        rec[f] = a


def _model_change(path, item, h, recorded):
    """A model change (tag 4) as a Struct, checked as the library checks
    it (reader_model): its lengths, and its sizes as a header's."""
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
    nvalues = _check_sizes(dict(h, **sizes), recorded)
    c = Struct(step=step, time=time, sizes=sizes, timestep=timestep,
               model_hash=model_hash,
               operations=text[:o].decode("utf-8", "replace").splitlines(),
               removed=text[o:o + r].decode("utf-8", "replace").splitlines(),
               mjb=bytes(text[o + r:o + r + m]))
    c.sizes_by_field = _field_sizes(sizes)
    c.nvalues = nvalues
    return c


# The recording library's limits (lib/recording.h), checked as it does.
NAME_MAX = 255
HEADER_MAX = 4096
SIZE_MAX = 1 << 24
ITEM_MAX = 64 << 20
FRAME_MAX = ITEM_MAX + (1 << 20)
MJL_NAME_MAX = 65536
MAX_BYTES = 1 << 30        # read_recording's default bound
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_SIZES = ("nq", "nv", "na", "nu", "nmocap", "nsensordata", "nbody")


def _field_sizes(h):
    return dict(qpos=h["nq"], qvel=h["nv"], act=h["na"], ctrl=h["nu"],
                mocap_pos=3 * h["nmocap"], mocap_quat=4 * h["nmocap"],
                sensordata=h["nsensordata"], qfrc_applied=h["nv"],
                xfrc_applied=6 * h["nbody"])


def _check_sizes(h, recorded):
    """What the library checks of a header (header_check): the sizes,
    the fields, every; returns a record's values.  ValueError if not."""
    for k in _SIZES:
        if h[k] > SIZE_MAX:
            raise ValueError("%s is %d (limit %d)" % (k, h[k], SIZE_MAX))
    if h["fields_bits"] >> len(FIELDS):
        raise ValueError("unknown fields %#x" % (h["fields_bits"] &
                                                 ~((1 << len(FIELDS)) - 1)))
    if h["every"] == 0:
        raise ValueError("a record every 0 steps")
    size = _field_sizes(h)
    n = sum(size[f] for f in recorded)
    if 8 + 16 + 8 * n > ITEM_MAX:
        raise ValueError("a record of %d bytes (limit %d)"
                         % (8 + 16 + 8 * n, ITEM_MAX))
    return n


class _Reader:
    """A recording read item by item, as lib/recording.c reads it; what
    it keeps is counted against max_bytes."""

    def __init__(self, path, max_bytes):
        self.path = path
        self.max_bytes = max_bytes
        self.held = 0
        self.states = [bytearray()]       # raw records, part by part
        self.journal = []
        self.hashes = []
        self.changes = []
        self.sizes = []
        self.segments = []                # every record's, as hxplay's
        self.last_time = -np.inf
        self.new_model = False
        self.nseg = 0

    def hold(self, n):
        self.held += n
        if self.held > self.max_bytes:
            raise ValueError("%s: holds more than max_bytes=%d bytes of "
                             "records (read_recording holds a recording "
                             "whole; pass a larger max_bytes, or hxplay "
                             "export writes it out)"
                             % (self.path, self.max_bytes))

    def state(self, time, raw):
        # Time going back (a reset) or a new model begins a segment; NaN
        # does not count as a time.
        if self.nseg == 0 or time < self.last_time or self.new_model:
            self.nseg += 1
        self.new_model = False
        if not np.isnan(time):
            self.last_time = time
        self.hold(len(raw) + 8)
        self.segments.append(self.nseg)
        self.states[-1] += raw


def _read_hxr(r, frames, rec):
    """A .hxr: the header frame, then the items of every frame."""
    head = frames.next(HEADER_MAX)
    if head is None:
        raise ValueError("the file ends before its header")
    if len(head) < 80 or head[:6] != b"HXREC\0":
        raise ValueError("not a haptixd recording")
    (_, version, hsize, fields, every, nq, nv, na, nu, nmocap, nsensordata,
     nbody, timestep, model_hash, created, name_len, _) = _HEADER.unpack_from(
        head)
    if version != 1:
        raise ValueError("a recording of format version %d (this reader "
                         "knows 1)" % version)
    if hsize != len(head) or name_len > NAME_MAX or name_len > hsize - 80:
        raise ValueError("a header of %d bytes that says %d, with a name "
                         "of %d" % (len(head), hsize, name_len))
    name = head[80:80 + name_len]
    if b"\0" in name:
        raise ValueError("a model name with a NUL in it")
    h = dict(fields_bits=fields, every=every, nq=nq, nv=nv, na=na, nu=nu,
             nmocap=nmocap, nsensordata=nsensordata, nbody=nbody)
    recorded = [f for i, f in enumerate(FIELDS) if fields >> i & 1]
    nvalues = _check_sizes(h, recorded)
    rec.name = name.decode("utf-8", "replace")
    rec.header = dict(version=version, fields=recorded, every=every, nq=nq,
                      nv=nv, na=na, nu=nu, nmocap=nmocap,
                      nsensordata=nsensordata, nbody=nbody,
                      timestep=timestep, model_hash=model_hash,
                      created_ns=created, format="hxr")
    r.sizes.append(_field_sizes(h))
    while True:
        frame = frames.next(FRAME_MAX)
        if frame is None:
            break
        at, pos = frames.offset, 0
        while pos < len(frame):
            if len(frame) - pos < 8:
                raise ValueError("the frame at byte %d ends inside an item"
                                 % at)
            tag, n = struct.unpack_from("<II", frame, pos)
            if n > len(frame) - pos - 8:
                raise ValueError("an item of %d bytes at byte %d of the "
                                 "frame at byte %d overruns it" % (n, pos, at))
            item = frame[pos + 8:pos + 8 + n]
            pos += 8 + n
            bad = False
            if tag == 1:
                bad = n != 16 + 8 * nvalues
                if not bad:
                    r.state(struct.unpack_from("<d", item, 8)[0], item)
            elif tag == 2:
                bad = n < 16 or struct.unpack_from("<I", item, 12)[0] != n - 16
                if not bad:
                    step, kind = struct.unpack_from("<QI", item)
                    r.hold(n + 64)
                    r.journal.append((step, kind, item[16:]))
            elif tag == 3:
                bad = n != 16
                if not bad:
                    r.hold(16)
                    r.hashes.append(struct.unpack("<QQ", item))
            elif tag == 4:
                try:
                    c = _model_change(r.path, item, h, recorded)
                except ValueError:
                    bad = True
                else:
                    r.hold(n)
                    nvalues = c.nvalues
                    r.changes.append(c)
                    r.sizes.append(c.sizes_by_field)
                    r.states.append(bytearray())
                    r.new_model = True
            if bad:
                raise ValueError("an item of tag %d and %d bytes at byte %d "
                                 "of the frame at byte %d" % (
                                     tag, n, pos - 8 - n, at))
    return recorded


def _read_mjl(r, f, data, rec):
    """HAPTIX's .mjl (lib/mjl.h): six int32, the name, float records."""
    data += f.read(24 - len(data)) if len(data) < 24 else b""
    if len(data) < 24:
        raise ValueError("not a haptixd recording (.hxr) nor a HAPTIX log "
                         "(.mjl): too short")
    v = struct.unpack_from("<6i", data)
    names = ("nq", "nv", "nu", "nmocap", "nsensordata", "the name's length")
    for i, (k, x) in enumerate(zip(names, v)):
        limit = SIZE_MAX if i < 5 else MJL_NAME_MAX
        if x < 0 or x > limit:
            raise ValueError("not a haptixd recording (.hxr) nor a HAPTIX "
                             "log (.mjl): %s is %d (limit %d)" % (k, x, limit))
    nq, nv, nu, nmocap, ns, name_len = v
    floats = 1 + nq + nv + nu + 7 * nmocap + ns
    if 4 * floats > ITEM_MAX:
        raise ValueError("not a haptixd recording (.hxr) nor a HAPTIX log "
                         "(.mjl): a record of %d bytes (limit %d)"
                         % (4 * floats, ITEM_MAX))
    rest = data[24:]
    if len(rest) < name_len:
        rest += f.read(name_len - len(rest))
    if len(rest) < name_len:
        raise ValueError("a HAPTIX log (.mjl) that ends in its model name")
    name = rest[:name_len].split(b"\0")[0][:NAME_MAX]
    rest = rest[name_len:]
    rec.name = name.decode("utf-8", "replace")
    recorded = ["qpos", "qvel", "ctrl", "mocap_pos", "mocap_quat",
                "sensordata"]
    rec.header = dict(version=0, fields=recorded, every=1, nq=nq, nv=nv,
                      na=0, nu=nu, nmocap=nmocap, nsensordata=ns, nbody=0,
                      timestep=0.0, model_hash=0, created_ns=0,
                      format="mjl")
    r.sizes.append(_field_sizes(dict(rec.header)))
    size = 4 * floats
    step = 0
    buf = bytearray(rest)
    while True:
        while len(buf) < size:
            more = f.read(max(size - len(buf), 1 << 16))
            if not more:
                break
            buf += more
        if len(buf) < size:
            if buf:
                rec.truncated = True
                rec.dropped_bytes = len(buf)
            break
        vals = np.frombuffer(bytes(buf[:size]), "<f4").astype("<f8")
        del buf[:size]
        r.state(float(vals[0]), struct.pack("<Q", step) + vals.tobytes())
        step += 1
    return recorded


def read_recording(path, max_bytes=MAX_BYTES):
    """Read a ``.hxr`` file, or MuJoCo HAPTIX's ``.mjl`` log (told apart
    by its first bytes, as hxplay tells them; its floats widened to
    double exactly, ``header["format"]`` "mjl"); see :class:`Recording`.

    The file is read frame by frame, and what it holds is kept: at most
    ``max_bytes`` of records, journal and hashes (1 GiB by default;
    arranging them into arrays takes as much again for a moment), past
    which it raises ValueError naming the limit.  Raises ValueError for a
    file that is neither, or is damaged, as hxplay refuses it (the same
    checks: lib/recording.c); a file cut short reads up to its last whole
    frame or record (``truncated``)."""
    path = find(path)
    rec = Recording()
    rec.path = path
    rec.truncated = False
    rec.dropped_bytes = 0
    with open(path, "rb") as f:
        r = _Reader(path, max_bytes)
        first = f.read(4)
        try:
            if len(first) == 4 and first != _ZSTD_MAGIC:
                recorded = _read_mjl(r, f, first, rec)
            else:
                frames = zstd.StreamFrames(f, data=first)
                try:
                    recorded = _read_hxr(r, frames, rec)
                finally:
                    frames.close()
                rec.truncated = frames.truncated
                rec.dropped_bytes = frames.dropped
        except ValueError as e:
            if str(e).startswith(path + ":"):
                raise
            raise ValueError("%s: %s" % (path, e)) from None
    return _arrange(rec, r, recorded)


def _arrange(rec, r, recorded):
    """The records as arrays, part by part (one per model)."""
    parts, at = [], 0
    changes = r.changes
    for k, (raw, sz) in enumerate(zip(r.states, r.sizes)):
        p = Recording()
        count = len(raw) // (16 + 8 * sum(sz[f] for f in recorded)) \
            if recorded else len(raw) // 16
        _fill(p, raw, sz, recorded)
        seg = np.array(r.segments[at:at + count], dtype=np.uint64)
        at += count
        p["segment"] = seg - seg[0] + np.uint64(1) if len(seg) else seg
        p.name, p.path, p.truncated, p.dropped_bytes = (rec.name, rec.path,
                                                        False, 0)
        p.header = dict(rec.header, **(changes[k - 1].sizes if k else {}))
        p.journal, p.hashes = [], np.zeros((0, 2), np.uint64)
        parts.append(p)
        r.states[k] = None
    rec.update(parts[0])
    rec["segment"] = np.array(r.segments[:len(parts[0]["time"])],
                              dtype=np.uint64)
    if len(parts) > 1 and all(p[f].shape[1:] == parts[0][f].shape[1:]
                              for p in parts for f in recorded):
        for key in ["step", "time"] + recorded:
            rec[key] = np.concatenate([p[key] for p in parts])
        rec["segment"] = np.array(r.segments, dtype=np.uint64)
    rec.parts = parts
    rec.segments = r.nseg
    rec.changes = changes
    rec.journal = r.journal
    rec.hashes = np.array(r.hashes, dtype=np.uint64).reshape(-1, 2)
    return rec
