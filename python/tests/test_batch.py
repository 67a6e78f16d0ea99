"""Batch runs: one request, a dict of arrays, the same steps bit for bit
as steps taken one by one."""

import numpy as np
import pytest

import haptix


def test_a_batch_returns_a_dict_of_arrays(sim):
    out = sim.run(steps=100, ctrl=[0.5, -0.5],
                  record=["qpos", "sensordata", "mocap", "body"], every=10)
    assert isinstance(out, dict) and out.steps == 100
    assert out["qpos"].shape == (10, 9)
    assert out["sensordata"].shape == (10, 11)
    assert out["mocap_pos"].shape == (10, 1, 3)
    assert out["body_mat"].shape == (10, 5, 3, 3)
    assert list(out["step"][1:] - out["step"][:-1]) == [10] * 9
    assert np.allclose(np.diff(out["time"]), 0.02)
    assert out.end_time == pytest.approx(out["time"][-1])
    assert np.array_equal(out.sensordata, out["sensordata"][-1])
    assert list(sim.get_control().ctrl) == [0.5, -0.5]


def test_a_batch_is_the_steps_bit_for_bit(sim):
    sim.reset("raised")
    a = sim.run(steps=50, record=["qpos", "qvel"])
    sim.reset("raised")
    rows = []
    for _ in range(50):
        sim.step(1)
        rows.append(sim.get_state().qpos)
    assert np.array_equal(a["qpos"], np.array(rows))


def test_a_batch_until_a_time(sim):
    out = sim.run(until=0.5, record="qpos", every=25)
    assert out.end_time == pytest.approx(0.5)
    assert out["qpos"].shape == (10, 9)
    assert sim.run(steps=5).steps == 5 and "qpos" not in sim.run(steps=1)


def test_a_batch_refused_while_running(sim):
    sim.run()
    try:
        with pytest.raises(haptix.Denied):
            sim.run(steps=10)
    finally:
        sim.pause()
    with pytest.raises(haptix.BadValue):
        sim.run(steps=1, until=1)


def test_every_field_read_from_the_bytes_as_protobuf_decodes_it(sim):
    # The trajectory is read straight from the answer's bytes
    # (haptix.wire); protobuf's own decoding of the same bytes is the
    # reference, for every field a batch records.
    from haptix import batch
    from haptix.proto import pb
    from haptix.struct import to_struct
    record = list(haptix.stream.FIELDS)
    sim.set_mocap(pos=[[0.1, 0.2, 0.3]])
    msg, record = batch.request(30, None, [0.3, -0.2], record, 3)
    conn = sim.conn
    body, top = conn.wait(conn.send("batch", msg), "batch", None, raw=True)
    out = batch.result(sim, body, record)
    assert _same(batch.result(sim, body, record, top), out)
    ref = pb.Response.FromString(body).batch
    traj = ref.trajectory
    assert len(traj) == 10 and out.steps == ref.steps == 30
    assert out.end_time == ref.time and out.resets == ref.resets
    assert np.array_equal(out.sensordata, ref.sensor.sensordata)
    assert list(out["step"]) == [f.step for f in traj]
    assert list(out["time"]) == [f.time for f in traj]
    shapes = {"mocap_pos": 3, "mocap_quat": 4, "xfrc_applied": 6}
    for key in ("qpos", "qvel", "act", "ctrl", "sensordata", "mocap_pos",
                "mocap_quat", "qfrc_applied", "xfrc_applied"):
        want = np.array([list(getattr(f, key)) for f in traj])
        if key in shapes:
            want = want.reshape(len(traj), -1, shapes[key])
        assert out[key].shape == want.shape and \
            np.array_equal(out[key], want), key
    for key in ("body", "geom", "site"):
        pos = np.array([list(getattr(f, key).pos) for f in traj])
        mat = np.array([list(getattr(f, key).mat) for f in traj])
        assert pos.size and np.array_equal(
            out[key + "_pos"], pos.reshape(len(traj), -1, 3)), key
        assert np.array_equal(out[key + "_mat"],
                              mat.reshape(len(traj), -1, 3, 3)), key
    for key in ("contacts", "status"):
        assert _same(out[key], [to_struct(getattr(f, key)) for f in traj]), \
            key
    assert out["status"][0].steps == traj[0].status.steps > 0


def _same(a, b):
    """Records, lists and arrays equal all the way down."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            _same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(
            _same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return a == b
