"""haptix.wire and batch.step_answer: an environment step's answer read
from its bytes gives what protobuf's own decoding gives, for every
encoding protobuf allows (packed arrays in several runs, unpacked
values, a message in several parts, unknown fields, long lengths), and
ValueError, never a wrong array, for bytes that are broken."""

import struct

import numpy as np
import pytest

from haptix import batch, wire
from haptix.proto import pb

QPOS_QVEL = batch.frame_numbers(["qpos", "qvel"])
BATCH = pb.Response.DESCRIPTOR.fields_by_name["batch"].number


def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _key(number, kind):
    return _varint(number << 3 | kind)


def _len(number, data):
    return _key(number, wire.LEN) + _varint(len(data)) + data


def _packed(number, values):
    return _len(number, np.asarray(values, "<f8").tobytes())


def _unpacked(number, values):
    return b"".join(_key(number, wire.I64) + struct.pack("<d", v)
                    for v in values)


def _answer(rng, frames=2, nsensor=132, nq=40):
    r = pb.Response(id=7)
    b = r.batch
    b.steps, b.time, b.resets = 10, 0.25, 3
    b.sensor.nsensordata = nsensor
    b.sensor.sensordata.extend(rng.standard_normal(nsensor))
    for _ in range(frames):
        f = b.trajectory.add()
        f.qpos.extend(rng.standard_normal(nq))
        f.qvel.extend(rng.standard_normal(nq - 1))
        f.sensordata.extend(rng.standard_normal(5))
    return r


def test_the_same_as_protobuf_decodes():
    rng = np.random.default_rng(1)
    for frames in (0, 1, 3):
        r = _answer(rng, frames)
        time, resets, sensordata, obs = batch.step_answer(
            r.SerializeToString(), QPOS_QVEL)
        assert (time, resets) == (0.25, 3)
        assert np.array_equal(sensordata, r.batch.sensor.sensordata)
        if frames == 0:
            assert obs is None
        else:
            last = r.batch.trajectory[-1]
            assert np.array_equal(obs, list(last.qpos) + list(last.qvel))
        # Arrays of their own, which the caller may change.
        sensordata[0] = 1e9
        assert sensordata.flags.writeable


def test_every_encoding_protobuf_allows():
    # The sensor data in two packed runs and two unpacked values, the
    # Sensor message in two parts (protobuf merges them), unknown
    # fields of every wire type between, a frame of 300 values (a
    # length of two bytes), the members out of order.
    rng = np.random.default_rng(2)
    sd = rng.standard_normal(7)
    qpos, qvel = rng.standard_normal(300), rng.standard_normal(3)
    frame = (_packed(6, qvel[:1]) + _key(99, wire.VARINT) + _varint(300)
             + _packed(5, qpos) + _unpacked(6, qvel[1:]))
    result = (_len(4, _packed(5, [9.0]))         # an earlier frame
              + _len(3, _packed(3, sd[:3]) + _key(77, wire.I32) + b"1234")
              + _key(2, wire.I64) + struct.pack("<d", 1.5)
              + _len(3, _unpacked(3, sd[3:5]) + _packed(3, sd[5:]))
              + _len(88, b"unknown") + _len(4, frame)
              + _key(5, wire.VARINT) + _varint(2 ** 40))
    body = _key(1, wire.VARINT) + _varint(7) + _len(BATCH, result)
    parsed = pb.Response.FromString(body)
    time, resets, sensordata, obs = batch.step_answer(body, QPOS_QVEL)
    assert time == parsed.batch.time == 1.5
    assert resets == parsed.batch.resets == 2 ** 40
    assert np.array_equal(sensordata, parsed.batch.sensor.sensordata)
    assert np.array_equal(sensordata, sd)
    last = parsed.batch.trajectory[-1]
    assert np.array_equal(obs, list(last.qpos) + list(last.qvel))
    assert np.array_equal(obs, np.concatenate([qpos, qvel]))


def test_broken_bytes_raise():
    good = _answer(np.random.default_rng(3)).SerializeToString()
    batch.step_answer(good, QPOS_QVEL)
    cases = {
        "cut short": good[:-5],
        "a varint without end": good[:1] + b"\xff" * 11,
        "a varint past its message": _key(1, wire.VARINT) + b"\x07" + _len(
            BATCH, _len(3, _key(1, wire.VARINT)) + b"\x05"),
        "a group": _key(1, 3) + good,
        "an array of 7 bytes": _key(1, wire.VARINT) + b"\x07" + _len(
            BATCH, _len(3, _len(3, b"1234567"))),
        "no batch": _key(1, wire.VARINT) + b"\x07",
        "two batches": good + _len(BATCH, b""),
        "a time of wire type 0": _len(BATCH, _key(2, wire.VARINT) + b"\x01"),
        "a count of wire type 1": _len(BATCH, _key(5, wire.I64) + bytes(8)),
    }
    for why, body in cases.items():
        with pytest.raises(ValueError):
            batch.step_answer(body, QPOS_QVEL)
            pytest.fail(why)
