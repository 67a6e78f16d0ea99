#!/usr/bin/env python3
"""Learn to grasp the cube with the MPL hand: augmented random search
(Mania, Guy and Recht, 2018: "Simple random search provides a
competitive approach to reinforcement learning", its V2-t) of a linear
policy over a haptix.VectorEnv, with NumPy alone.

The task is haptix.tasks' MPL grasp: 13 motors, episodes of 50 steps of
10 physics steps, a reward for each finger segment that presses on
something (up to 1 N each), less the controls' effort.  The policy is
ctrl = M (obs - mean) / std + b, M and b starting at zero (the zero
policy: the hand open, return 0); each iteration tries --directions
random directions both ways, each rollout on its own daemon of the
vector, and moves along the best ones.  The same --seed gives the same
run, bit for bit.

usage: learn_grasp.py [--envs N] [--iterations K] [--directions D]
                      [--best B] [--step-size A] [--noise NU] [--seed S]
                      [--save FILE.npz] [--haptixd PATH] [-M DIR]

Prints one line per iteration: the mean return of the policy so far,
over --envs episodes, and the time.  --save writes the policy (M, b,
mean, std), which learn_grasp_eval.py runs over many seeds with hxsweep.
"""

import argparse
import sys
import time

import numpy as np

from haptix import tasks


def policy_actions(policies, obs, mean, std, low, high):
    """Each environment's controls from its own policy (M, b)."""
    x = (obs - mean) / std
    return np.stack([np.clip(M @ xi + b, low, high)
                     for (M, b), xi in zip(policies, x)])


def rollouts(venv, policies, mean, std, seed, steps, seen):
    """One episode on each environment, environment i run by
    policies[i]; returns the returns, and adds the observations seen
    to ``seen`` (for the normalization)."""
    low = venv.single_action_space.low
    high = venv.single_action_space.high
    obs, _ = venv.reset(seed=seed)
    total = np.zeros(venv.num_envs)
    for _ in range(steps):
        seen.append(obs)
        a = policy_actions(policies, obs, mean, std, low, high)
        obs, reward, terminated, truncated, _ = venv.step(a)
        total += reward
        if np.any(terminated):
            break           # no task of this file terminates early
    return total


def run_all(venv, policies, mean, std, seed, steps, seen):
    """The returns of many policies, --envs at a time."""
    n = venv.num_envs
    out = []
    for k in range(0, len(policies), n):
        batch = policies[k:k + n]
        pad = batch + [batch[-1]] * (n - len(batch))
        out += list(rollouts(venv, pad, mean, std, seed, steps,
                             seen)[:len(batch)])
    return np.array(out)


def train(venv, iterations, directions, best, step_size, noise, seed,
          log=sys.stdout):
    """ARS V2-t; returns (M, b, mean, std, history of mean returns)."""
    rng = np.random.default_rng(seed)
    dim = venv.single_observation_space.shape[0]
    nu = venv.single_action_space.shape[0]
    steps = venv.envs[0].max_episode_steps
    M, b = np.zeros((nu, dim)), np.zeros(nu)
    mean, std = np.zeros(dim), np.ones(dim)
    history = []
    start = time.monotonic()
    for it in range(iterations + 1):
        seen = []
        ret = run_all(venv, [(M, b)] * venv.num_envs, mean, std, seed,
                      steps, seen).mean()
        history.append(ret)
        print("iteration %d: return %.2f (%.1f s)"
              % (it, ret, time.monotonic() - start), file=log, flush=True)
        if it == iterations:
            break
        dM = rng.standard_normal((directions, nu, dim))
        db = rng.standard_normal((directions, nu))
        plus = [(M + noise * dM[k], b + noise * db[k])
                for k in range(directions)]
        minus = [(M - noise * dM[k], b - noise * db[k])
                 for k in range(directions)]
        r = run_all(venv, plus + minus, mean, std, seed, steps, seen)
        rp, rm = r[:directions], r[directions:]
        top = np.argsort(-np.maximum(rp, rm))[:best]
        sigma = np.concatenate([rp[top], rm[top]]).std() or 1.0
        M = M + step_size / (best * sigma) * np.tensordot(
            rp[top] - rm[top], dM[top], axes=1)
        b = b + step_size / (best * sigma) * (rp[top] - rm[top]) @ db[top]
        # The observations' statistics, from everything seen so far.
        x = np.concatenate(seen)
        mean = 0.9 * mean + 0.1 * x.mean(axis=0) if it else x.mean(axis=0)
        std = np.maximum(np.sqrt(0.9 * std ** 2 + 0.1 * x.var(axis=0))
                         if it else x.std(axis=0), 1e-3)
    return M, b, mean, std, history


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--envs", type=int, default=2)
    p.add_argument("--iterations", type=int, default=30)
    p.add_argument("--directions", type=int, default=8)
    p.add_argument("--best", type=int, default=4)
    p.add_argument("--step-size", type=float, default=0.05)
    p.add_argument("--noise", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--save", metavar="FILE.npz")
    p.add_argument("--haptixd")
    p.add_argument("-M", "--model-dir", action="append", default=[])
    a = p.parse_args(argv)
    venv = tasks.mpl_grasp_vector(num_envs=a.envs, haptixd=a.haptixd,
                                  model_dirs=a.model_dir)
    try:
        M, b, mean, std, history = train(
            venv, a.iterations, a.directions, min(a.best, a.directions),
            a.step_size, a.noise, a.seed)
    finally:
        venv.close()
    print("return: %.2f at the start (the zero policy), %.2f at the end"
          % (history[0], history[-1]))
    if a.save:
        np.savez(a.save, M=M, b=b, mean=mean, std=std)
        print("saved the policy to %s" % a.save)
    return 0


if __name__ == "__main__":
    sys.exit(main())
