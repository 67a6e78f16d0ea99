"""Plain records with attribute and key access, made from the protocol's
messages: numbers stay numbers, repeated numbers become NumPy arrays in
the model's shapes (3 per body becomes (nbody, 3)), as the HAPTIX
manual's MATLAB structs hold them.
"""

import struct as _bin

import numpy as np
from google.protobuf.descriptor import FieldDescriptor as _FD

from . import wire
from .proto import pb

# Shapes of per-object arrays, by message and field: the row's shape.
ROWS = {
    "Poses": {"pos": (3,), "mat": (3, 3)},
    "Applied": {"xfrc_applied": (6,)},
    "Mocap": {"pos": (3,), "quat": (4,)},
    "Contacts": {"pos": (3,), "frame": (3, 3), "force": (3,)},
    "Info": {"jnt_range": (2,), "actuator_trnid": (2,),
             "actuator_ctrlrange": (2,)},
    "RobotInfo": {"motor_limit": (2,), "joint_limit": (2,)},
    "RobotSensor": {"imu_linear_acc": (3,), "imu_angular_vel": (3,)},
    "StreamFrame": {"mocap_pos": (3,), "mocap_quat": (4,),
                    "xfrc_applied": (6,)},
}
class Struct(dict):
    """A record: ``s.qpos`` and ``s["qpos"]`` are the same field.

    Made like MATLAB's ``struct``: ``Struct(nq=7, qpos=np.zeros(7))``.
    """

    __slots__ = ()

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        self[name] = value

    def __delattr__(self, name):
        del self[name]

    def __dir__(self):
        return list(self.keys())

    def __repr__(self):
        if not self:
            return "Struct()"
        w = max(len(k) for k in self)
        lines = []
        for k, v in self.items():
            if isinstance(v, np.ndarray):
                shape = "x".join(str(d) for d in v.shape) or "1"
                d = "[%s %s]" % (shape, v.dtype) if v.size > 6 or v.ndim > 1 \
                    else np.array2string(v, separator=" ")
            elif isinstance(v, Struct):
                d = "[struct]"
            else:
                d = repr(v)
            lines.append("%*s: %s" % (w + 4, k, d))
        return "\n".join(lines)


# How each message type's fields read from the wire, worked out once
# per type: by field number, in the message's order.
_PLANS = {}
(_VARINT, _SIGNED, _ZIGZAG, _BOOL, _FIXED, _STRING, _BYTES, _MESSAGE, _ARRAY,
 _INTS, _BOOLS, _STRINGS, _MESSAGES) = range(13)
_FIXED_TYPES = {  # a fixed-size number: its struct code, dtype, wire type
    _FD.TYPE_DOUBLE: ("<d", "<f8", wire.I64),
    _FD.TYPE_FIXED64: ("<Q", "<u8", wire.I64),
    _FD.TYPE_SFIXED64: ("<q", "<i8", wire.I64),
    _FD.TYPE_FLOAT: ("<f", "<f4", wire.I32),
    _FD.TYPE_FIXED32: ("<I", "<u4", wire.I32),
    _FD.TYPE_SFIXED32: ("<i", "<i4", wire.I32),
}
_SIGNED_TYPES = {_FD.TYPE_INT32, _FD.TYPE_INT64, _FD.TYPE_ENUM}
_ZIGZAG_TYPES = {_FD.TYPE_SINT32, _FD.TYPE_SINT64}


def _plan(descriptor):
    """Each field: (name, kind, extra, shape, default); extra is a fixed
    number's (unpacker, dtype, wire type), an integer's conversion, a
    message's descriptor."""
    rows = ROWS.get(descriptor.name, {})
    plan = {}
    for f in descriptor.fields:
        t, repeated = f.type, f.label == _FD.LABEL_REPEATED
        extra, default = None, None
        if t == _FD.TYPE_MESSAGE:
            kind, extra = (_MESSAGES if repeated else _MESSAGE), \
                f.message_type
        elif t in (_FD.TYPE_STRING, _FD.TYPE_BYTES):
            extra = t == _FD.TYPE_BYTES
            kind = _STRINGS if repeated else _BYTES if extra else _STRING
            default = b"" if extra else ""
        elif t in _FIXED_TYPES:
            code, dtype, w = _FIXED_TYPES[t]
            extra = (_bin.Struct(code).unpack_from,
                     wire.F8 if dtype == "<f8" else np.dtype(dtype), w)
            kind = _ARRAY if repeated else _FIXED
            default = 0.0 if dtype[1] == "f" else 0
        elif t == _FD.TYPE_BOOL:
            kind, default = (_BOOLS if repeated else _BOOL), False
        else:
            kind = _INTS if repeated else _VARINT
            extra = _SIGNED if t in _SIGNED_TYPES else (
                _ZIGZAG if t in _ZIGZAG_TYPES else _VARINT)
            default = 0
        plan[f.number] = (f.name, kind, extra, rows.get(f.name), default)
    _PLANS[descriptor] = plan
    return plan


def _int(conv, v):
    """A varint's value as its field's type has it."""
    if conv == _ZIGZAG:
        return (v >> 1) ^ -(v & 1)
    if conv == _SIGNED and v >= 1 << 63:
        return v - (1 << 64)
    return v


def _empty(kind, extra, shape):
    """A repeated field's value when absent."""
    if kind in (_STRINGS, _MESSAGES):
        return []
    if kind == _BOOLS:
        return np.zeros(0, bool)
    if kind == _INTS or extra[1].kind != "f":
        return np.zeros(0, np.int64)
    a = np.zeros(0)
    return a.reshape((-1,) + shape) if shape else a


def decode(descriptor, buf, span=None):
    """The message of type ``descriptor`` in buf[a:b] (``span``, default
    all of buf), as it travels (its bytes, not a decoded message), as a
    Struct: every field present, recursively; arrays of fixed-size
    numbers as NumPy takes them from the bytes (haptix.wire).  ValueError
    for bytes that are no such message."""
    plan = _PLANS.get(descriptor) or _plan(descriptor)
    got = wire.runs(buf, span or (0, len(buf)), plan)
    out = Struct()
    for number, (name, kind, extra, shape, default) in plan.items():
        runs = got.get(number)
        if runs is None:
            out[name] = default if kind < _MESSAGE else None \
                if kind == _MESSAGE else _empty(kind, extra, shape)
            continue
        w, a, b = runs[-1]
        if kind == _VARINT or kind == _BOOL:
            if w != wire.VARINT:
                raise ValueError("field %s of wire type %d" % (name, w))
            out[name] = (a != 0) if kind == _BOOL else _int(extra, a)
        elif kind == _FIXED:
            if w != extra[2]:
                raise ValueError("field %s of wire type %d" % (name, w))
            out[name] = extra[0](buf, a)[0]
        elif kind == _ARRAY:
            v = wire.fixed(buf, runs, extra[1], extra[2])
            if extra[1] is not wire.F8:
                v = v.astype(np.float64 if v.dtype.kind == "f" else np.int64)
            out[name] = v.reshape((-1,) + shape) if shape else v
        elif kind == _MESSAGE:
            out[name] = decode_parts(extra, buf, runs)
        elif kind == _MESSAGES:
            out[name] = [decode(extra, buf, _span(r)) for r in runs]
        elif kind == _STRING or kind == _BYTES:
            a, b = _span(runs[-1])
            out[name] = buf[a:b].decode("utf-8") if kind == _STRING \
                else bytes(buf[a:b])
        elif kind == _STRINGS:
            v = [bytes(buf[slice(*_span(r))]) for r in runs]
            out[name] = v if extra else [x.decode("utf-8") for x in v]
        else:
            v = [_int(extra, x) for x in wire.varints(buf, runs)]
            out[name] = np.array(v, bool if kind == _BOOLS else np.int64)
    return out


def _span(run):
    """A length-delimited run's span; ValueError for another wire type."""
    if run[0] != wire.LEN:
        raise ValueError("wire type %d where bytes were due" % run[0])
    return run[1], run[2]


def decode_parts(descriptor, buf, runs):
    """The message of type ``descriptor`` given as the runs of its field
    in buf, as a Struct: protobuf merges a message sent in parts, as
    their bytes put end to end (none: the message's defaults)."""
    if len(runs) == 1:
        return decode(descriptor, buf, _span(runs[0]))
    return decode(descriptor, b"".join(buf[a:b] for a, b in map(_span, runs)))


def answer(body, payload, top=None):
    """The member ``payload`` (a name: "state", "info"...) of the Response
    in ``body`` (its bytes; ``top`` its fields' runs, when read already)
    as a Struct (its defaults when absent)."""
    field = pb.Response.DESCRIPTOR.fields_by_name[payload]
    if top is None:
        top = wire.runs(body, (0, len(body)), {field.number})
    return decode_parts(field.message_type, body, top.get(field.number, []))


def to_struct(msg):
    """A protobuf message as a Struct, every field present, recursively
    (read from its bytes: :func:`decode`)."""
    return decode(msg.DESCRIPTOR, msg.SerializeToString())
