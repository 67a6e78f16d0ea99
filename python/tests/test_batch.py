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
