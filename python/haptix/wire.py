"""Protobuf's wire format read directly, for the answers whose arrays
Python needs fastest (an environment's step, haptix.Env).

A repeated double travels packed, 8 bytes a value in little-endian
order, which NumPy takes as it is (``np.frombuffer``, a fraction of a
microsecond); the decoded message hands the same values over one Python
float at a time (10 us for the MPL scene's 132 sensor values).  Only
what protobuf's encoding guarantees is assumed: fields in any order, a
field repeated (a packed array in several runs, a message merged from
several), an array unpacked (one value per field), unknown fields
skipped.  Anything impossible raises ValueError.
"""

import struct

import numpy as np

VARINT, I64, LEN, I32 = 0, 1, 2, 5
F8 = np.dtype("<f8")                # a packed double's
_DOUBLE = struct.Struct("<d").unpack_from


def varint(buf, pos):
    """The varint at buf[pos]: (value, position after it)."""
    value = shift = 0
    while True:
        try:
            b = buf[pos]
        except IndexError:
            raise ValueError("a varint runs past the end") from None
        pos += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7
        if shift >= 70:
            raise ValueError("a varint longer than 10 bytes")


def double(buf, a):
    """The double at buf[a]."""
    return _DOUBLE(buf, a)[0]


def doubles(buf, runs):
    """A repeated double from its runs ``(wire type, a, b)``, packed or
    not, as one new array."""
    return fixed(buf, runs, F8, I64)


def fixed(buf, runs, dtype, single):
    """A repeated number of fixed size (dtype, little-endian; ``single``
    the wire type of one value unpacked) from its runs, packed or not,
    as one new array."""
    size = dtype.itemsize
    if len(runs) == 1:                  # the usual case: one packed run
        kind, a, b = runs[0]
        if kind == LEN and (b - a) % size == 0:
            return np.frombuffer(buf, dtype, (b - a) // size, a).copy()
    if not runs:
        return np.zeros(0, dtype)
    parts = []
    for kind, a, b in runs:
        if kind == LEN and (b - a) % size == 0:
            parts.append(np.frombuffer(buf, dtype, (b - a) // size, a))
        elif kind == single:
            parts.append(np.frombuffer(buf, dtype, 1, a))
        else:
            raise ValueError("a repeated %s of wire type %d and %d bytes"
                             % (dtype, kind, b - a))
    return parts[0].copy() if len(parts) == 1 else np.concatenate(parts)


def varints(buf, runs):
    """A repeated varint's values from its runs, packed or not."""
    out = []
    for kind, a, b in runs:
        if kind == VARINT:
            out.append(a)
        elif kind == LEN:
            pos = a
            while pos < b:
                v, pos = varint(buf, pos)
                out.append(v)
            if pos != b:
                raise ValueError("a packed varint runs past its field")
        else:
            raise ValueError("a repeated varint of wire type %d" % kind)
    return out


def runs(buf, span, numbers):
    """The fields ``numbers`` (a set) of the message at ``span`` (a, b),
    as a dict by number of their runs ``(wire type, a, b)`` in order: a
    varint's value as ``a``; else the span of its bytes, ``buf[a:b]`` (a
    double's 8, a string's, a message's or a packed array's contents).
    Keys and lengths of one byte are taken without a call: this loop is
    most of the reading's time."""
    out = {}
    pos, end = span
    while pos < end:
        key = buf[pos]
        if key < 0x80:
            pos += 1
        else:
            key, pos = varint(buf, pos)
        number, kind = key >> 3, key & 7
        if kind == VARINT or kind == LEN:
            v = buf[pos] if pos < end else 0x80
            if v < 0x80:
                pos += 1
            else:
                v, pos = varint(buf, pos)
            # A varint's value and nothing to skip; a length, then bytes.
            a, b = (v, pos) if kind == VARINT else (pos, pos + v)
        elif kind == I64:
            a, b = pos, pos + 8
        elif kind == I32:
            a, b = pos, pos + 4
        else:
            raise ValueError("wire type %d of field %d is not read here"
                             % (kind, number))
        if b > end:
            raise ValueError("field %d runs past the end" % number)
        if number in numbers:
            if number in out:
                out[number].append((kind, a, b))
            else:
                out[number] = [(kind, a, b)]
        pos = b
    return out
