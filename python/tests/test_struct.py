"""haptix.struct: a message read from its bytes (struct.decode, which
every call's answer goes through) is the record protobuf's own decoding
gives, for every message of the protocol filled at random, every field
type and encoding included; and bytes that are no message raise
ValueError."""

import numpy as np
import pytest
from google.protobuf.descriptor import FieldDescriptor as FD

from haptix import struct
from haptix.proto import pb

_INTS = {FD.TYPE_INT32: (-2 ** 31, 2 ** 31), FD.TYPE_INT64: (-2 ** 63, 2 ** 63),
         FD.TYPE_UINT32: (0, 2 ** 32), FD.TYPE_UINT64: (0, 2 ** 63),
         FD.TYPE_SINT32: (-2 ** 31, 2 ** 31),
         FD.TYPE_SINT64: (-2 ** 63, 2 ** 63),
         FD.TYPE_FIXED32: (0, 2 ** 32), FD.TYPE_FIXED64: (0, 2 ** 63),
         FD.TYPE_SFIXED32: (-2 ** 31, 2 ** 31),
         FD.TYPE_SFIXED64: (-2 ** 63, 2 ** 63)}


def _value(rng, f):
    t = f.type
    if t == FD.TYPE_DOUBLE:
        return float(rng.standard_normal() * 10.0 ** rng.integers(-3, 6))
    if t == FD.TYPE_FLOAT:
        return float(np.float32(rng.standard_normal()))
    if t == FD.TYPE_BOOL:
        return bool(rng.integers(2))
    if t == FD.TYPE_STRING:
        return "".join(chr(c) for c in rng.integers(32, 0x3000, 4))
    if t == FD.TYPE_BYTES:
        return rng.bytes(int(rng.integers(0, 6)))
    if t == FD.TYPE_ENUM:
        return int(rng.choice([v.number for v in f.enum_type.values]))
    lo, hi = _INTS[t]
    return int(rng.integers(lo, hi, dtype=np.int64 if lo < 0 else np.uint64))


def _fill(rng, msg, depth=0):
    for f in msg.DESCRIPTOR.fields:
        if rng.random() < 0.3:
            continue                    # absent: its default
        if f.type == FD.TYPE_MESSAGE:
            if depth > 2:
                continue
            if f.label == FD.LABEL_REPEATED:
                for _ in range(int(rng.integers(0, 3))):
                    _fill(rng, getattr(msg, f.name).add(), depth + 1)
            else:
                sub = getattr(msg, f.name)
                sub.SetInParent()
                _fill(rng, sub, depth + 1)
        elif f.label == FD.LABEL_REPEATED:
            row = struct.ROWS.get(msg.DESCRIPTOR.name, {}).get(f.name, ())
            n = int(rng.integers(0, 4)) * int(np.prod(row)) if row else \
                int(rng.integers(0, 7))
            getattr(msg, f.name).extend(_value(rng, f) for _ in range(n))
        else:
            setattr(msg, f.name, _value(rng, f))
    return msg


def _reference(msg):
    """The record as protobuf's decoded message gives it."""
    rows = struct.ROWS.get(msg.DESCRIPTOR.name, {})
    out = {}
    for f in msg.DESCRIPTOR.fields:
        v = getattr(msg, f.name)
        if f.label == FD.LABEL_REPEATED:
            if f.type == FD.TYPE_MESSAGE:
                v = [_reference(m) for m in v]
            elif f.type in (FD.TYPE_STRING, FD.TYPE_BYTES):
                v = list(v)
            elif f.type == FD.TYPE_BOOL:
                v = np.array(v, dtype=bool)
            elif f.type in (FD.TYPE_DOUBLE, FD.TYPE_FLOAT):
                v = np.array(v, dtype=np.float64)
                if f.name in rows:
                    v = v.reshape((-1,) + rows[f.name])
            else:
                v = np.array(v, dtype=np.int64)
        elif f.type == FD.TYPE_MESSAGE:
            v = _reference(v) if msg.HasField(f.name) else None
        out[f.name] = v
    return out


def _same(a, b, where):
    if isinstance(b, dict):
        assert isinstance(a, dict) and list(a) == list(b), where
        for k in b:
            _same(a[k], b[k], where + "." + k)
    elif isinstance(b, list):
        assert isinstance(a, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, "%s[%d]" % (where, i))
    elif isinstance(b, np.ndarray):
        assert isinstance(a, np.ndarray) and a.dtype == b.dtype and \
            a.shape == b.shape and np.array_equal(a, b), where
    else:
        assert type(a) is type(b) and a == b, (where, a, b)


def test_every_message_as_protobuf_decodes_it():
    rng = np.random.default_rng(7)
    names = sorted(pb.DESCRIPTOR.message_types_by_name)
    assert len(names) > 50
    for name in names:
        cls = getattr(pb, name)
        for _ in range(8):
            msg = _fill(rng, cls())
            body = msg.SerializeToString()
            _same(struct.decode(cls.DESCRIPTOR, body),
                  _reference(cls.FromString(body)), name)
            _same(struct.to_struct(msg), _reference(msg), name)


def test_encodings_protobuf_allows():
    # A message in two parts (merged), a packed array in two runs and
    # unpacked values, fields out of order, unknown fields.
    st = pb.State(nq=2, time=1.5)
    st.qpos.extend([1.0, 2.0])
    body = st.SerializeToString()
    extra = pb.State(nq=3)
    extra.qpos.extend([3.0])
    unknown = bytes([0x98, 0x06, 5])      # field 99, a varint
    unpacked = bytes([5 << 3 | 1]) + np.float64(4.0).tobytes()
    both = unknown + body + extra.SerializeToString() + unpacked
    got = struct.decode(pb.State.DESCRIPTOR, both)
    _same(got, _reference(pb.State.FromString(both)), "State")
    assert got.nq == 3 and list(got.qpos) == [1.0, 2.0, 3.0, 4.0]
    w = pb.Response()
    w.state.CopyFrom(st)
    w.state.MergeFrom(extra)
    parts = pb.Response(id=4).SerializeToString() + bytes(
        [12 << 3 | 2, len(body)]) + body + bytes(
        [12 << 3 | 2, len(extra.SerializeToString())]) + \
        extra.SerializeToString()
    _same(struct.decode(pb.Response.DESCRIPTOR, parts),
          _reference(pb.Response.FromString(parts)), "Response")


def test_bytes_that_are_no_message_raise():
    body = pb.State(nq=2, qpos=[1.0, 2.0], time=3.0).SerializeToString()
    for bad in (body[:-3], body + b"\x80", bytes([5 << 3 | 2, 7]) + bytes(7),
                bytes([4 << 3 | 0, 1]), bytes([1 << 3 | 2, 1, 0])):
        with pytest.raises(ValueError):
            struct.decode(pb.State.DESCRIPTOR, bad)
