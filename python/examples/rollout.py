#!/usr/bin/env python3
"""An environment rollout: the MPL scene as a haptix.Env, a seeded
random policy around the open hand, reward for closing the fingers
(the sum of the finger motors' positions), 10 steps of the physics per
action in one request each.

usage: rollout.py [--server ADDR] [--steps N] [--seed S]
"""

import argparse

import numpy as np

import haptix


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--server", help="haptixd address (default: the local one)")
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    with haptix.connect(a.server, name="rollout") as sim:
        m = sim.model
        fingers = [i for i, n in enumerate(m.names["actuator"])
                   if "wrist" not in n]
        pos = np.concatenate([m.sensor_index(m.names["actuator"][i] + "_pos")
                              for i in fingers])
        env = haptix.Env(sim, obs="sensordata", frame_skip=10,
                         reward=lambda obs, act, info: float(obs[pos].sum()),
                         max_episode_steps=a.steps)
        obs, info = env.reset(seed=a.seed)
        rng = np.random.default_rng(a.seed)
        total, truncated, n = 0.0, False, 0
        while not truncated:
            action = np.clip(rng.normal(0.5, 0.3, env.action_space.shape),
                             env.action_space.low, env.action_space.high)
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            n += 1
            if terminated:
                break
        print("%d steps, %.2f s simulated, return %.3f" % (
            n, info["time"], total))
        env.close()


if __name__ == "__main__":
    main()
