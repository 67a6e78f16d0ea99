"""The environment class: Gymnasium's conventions, frame_skip in one
request, spaces from the model, seeded runs reproducible."""

import numpy as np
import pytest

import haptix


def test_spaces_reset_and_step(sim):
    env = haptix.Env(sim, obs=("qpos", "qvel", "sensordata"), frame_skip=5,
                     reward=lambda obs, a, info: -abs(obs[0] - 0.5),
                     terminated=lambda obs, info: info["time"] >= 0.1,
                     max_episode_steps=20)
    assert env.observation_space.shape == (9 + 8 + 11,)
    assert list(env.action_space.low) == [-1, -2]
    assert list(env.action_space.high) == [1, 2]
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and info["time"] == 0
    obs, reward, terminated, truncated, info = env.step([0.5, 0])
    assert info["time"] == pytest.approx(5 * 0.002)
    assert reward == -abs(obs[0] - 0.5) and not terminated and not truncated
    assert np.array_equal(obs[17:], info["sensordata"])
    env.step([9, 9])                    # clipped to the ranges
    assert list(sim.get_control().ctrl) == [1, 2]
    n = 2
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(
            env.action_space.sample())
        n += 1
    assert n == 10 and not truncated


def test_seeds_make_runs_reproducible(sim):
    env = haptix.Env(sim, frame_skip=3, reset_noise=0.05,
                     max_episode_steps=4)

    def episode(seed):
        obs, _ = env.reset(seed=seed)
        out = [obs]
        truncated = False
        while not truncated:
            obs, _, _, truncated, _ = env.step(env.action_space.sample())
            out.append(obs)
        return np.array(out)

    a, b, c = episode(7), episode(7), episode(8)
    assert a.shape == (5, 17)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_reset_options(sim):
    env = haptix.Env(sim, obs="qpos")
    obs, _ = env.reset(options={"key": "raised"})
    assert obs[0] == 0.5
    with pytest.raises(ValueError):
        haptix.Env(sim, obs=("nonsense",))
