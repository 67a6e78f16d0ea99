"""Plain records with attribute and key access, made from the protocol's
messages: numbers stay numbers, repeated numbers become NumPy arrays in
the model's shapes (3 per body becomes (nbody, 3)), as the HAPTIX
manual's MATLAB structs hold them.
"""

import numpy as np
from google.protobuf.descriptor import FieldDescriptor as _FD

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
_INTS = {_FD.TYPE_INT32, _FD.TYPE_INT64, _FD.TYPE_UINT32, _FD.TYPE_UINT64,
         _FD.TYPE_SINT32, _FD.TYPE_SINT64, _FD.TYPE_FIXED32,
         _FD.TYPE_FIXED64, _FD.TYPE_SFIXED32, _FD.TYPE_SFIXED64,
         _FD.TYPE_ENUM}


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


def _array(field, values):
    if field.type == _FD.TYPE_DOUBLE or field.type == _FD.TYPE_FLOAT:
        return np.fromiter(values, np.float64, len(values))
    if field.type == _FD.TYPE_BOOL:
        return np.array(values, dtype=bool)
    if field.type in _INTS:
        return np.fromiter(values, np.int64, len(values))
    return list(values)


# How each message type's fields convert, worked out once per type.
_PLANS = {}
_SCALAR, _REPEATED, _MESSAGES, _MESSAGE = range(4)


def _plan(descriptor):
    rows = ROWS.get(descriptor.name, {})
    plan = []
    for f in descriptor.fields:
        if f.label == _FD.LABEL_REPEATED:
            kind = _MESSAGES if f.type == _FD.TYPE_MESSAGE else _REPEATED
        elif f.type == _FD.TYPE_MESSAGE:
            kind = _MESSAGE
        else:
            kind = _SCALAR
        plan.append((f.name, kind, f, rows.get(f.name)))
    _PLANS[descriptor] = plan
    return plan


def to_struct(msg):
    """A protobuf message as a Struct, every field present, recursively."""
    d = msg.DESCRIPTOR
    plan = _PLANS.get(d) or _plan(d)
    out = Struct()
    for name, kind, f, shape in plan:
        v = getattr(msg, name)
        if kind == _SCALAR:
            out[name] = v
        elif kind == _REPEATED:
            a = _array(f, v)
            out[name] = a.reshape((-1,) + shape) if shape else a
        elif kind == _MESSAGES:
            out[name] = [to_struct(m) for m in v]
        else:
            out[name] = to_struct(v) if msg.HasField(name) else None
    return out
