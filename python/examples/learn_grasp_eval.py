#!/usr/bin/env python3
"""Evaluate a grasp policy of learn_grasp.py over many seeded starts,
as a sweep: each trial one episode of the MPL grasp from a start with
--noise on qpos and qvel drawn from the trial's seed, its return the
result.  haptix.sweep runs the trials on a pool of private daemons;
the same sweep file runs on a Slurm cluster with hxsweep submit.

usage: learn_grasp_eval.py POLICY.npz [--seeds N] [--noise X] [--seed S]
                           [--jobs N] [-o OUT] [-M DIR] [--haptixd PATH]
       learn_grasp_eval.py POLICY.npz --write-sweep FILE.toml [...]
       learn_grasp_eval.py POLICY.npz --trial

--write-sweep writes the sweep file and stops, for hxsweep run or
hxsweep submit --slurm; --trial is what each trial runs (the daemon
in $HAPTIX_SERVER, the seed in $HX_SEED): one episode, its return
printed as JSON.
"""

import argparse
import json
import os
import sys

import numpy as np

import haptix
import haptix.sweep
from haptix import tasks


def episode(sim, policy, seed, noise):
    """One episode of the policy from the seeded start; its return."""
    env = tasks.mpl_grasp(sim, reset_noise=noise)
    M, b, mean, std = (policy[k] for k in ("M", "b", "mean", "std"))
    low, high = env.action_space.low, env.action_space.high
    obs, _ = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        a = np.clip(M @ ((obs - mean) / std) + b, low, high)
        obs, reward, terminated, truncated, _ = env.step(a)
        total += reward
        done = terminated or truncated
    return total


def sweep_text(policy, seeds, noise, seed, model_dirs):
    """The sweep: one trial per seed, each this script's --trial."""
    cmd = [sys.executable, os.path.abspath(__file__),
           os.path.abspath(policy), "--trial", "--noise", repr(noise)]
    return "\n".join([
        "# %d episodes of the MPL grasp under %s" % (seeds, policy),
        'name = "grasp-eval"',
        'model = "mpl_scene.xml"',
        "model_dirs = %s" % json.dumps([os.path.abspath(d)
                                        for d in model_dirs]),
        "seed = %d" % seed,
        "repeats = %d" % seeds,
        "[trial]",
        "command = %s" % json.dumps(cmd),
        ""])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("policy")
    p.add_argument("--seeds", type=int, default=100)
    p.add_argument("--noise", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int)
    p.add_argument("-o", "--out")
    p.add_argument("-M", "--model-dir", action="append", default=[])
    p.add_argument("--haptixd")
    p.add_argument("--write-sweep", metavar="FILE.toml")
    p.add_argument("--trial", action="store_true")
    a = p.parse_args(argv)
    policy = np.load(a.policy)
    if a.trial:
        with haptix.connect(name="learn_grasp_eval") as sim:
            r = episode(sim, policy, int(os.environ["HX_SEED"]), a.noise)
        print(json.dumps({"return": r}))
        return 0
    text = sweep_text(a.policy, a.seeds, a.noise, a.seed, a.model_dir)
    if a.write_sweep:
        with open(a.write_sweep, "w", encoding="utf-8") as f:
            f.write(text)
        return 0
    rows = haptix.sweep.run(haptix.sweep.loads(text, "grasp-eval", ".",
                                               "grasp-eval"),
                            out=a.out, jobs=a.jobs, haptixd=a.haptixd,
                            log=sys.stderr)
    returns = np.array([r["result"]["return"] for r in rows
                        if r["status"] == "ok"])
    print("%d of %d episodes: return mean %.2f, std %.2f, min %.2f, "
          "max %.2f" % (returns.size, len(rows), returns.mean(),
                        returns.std(), returns.min(), returns.max()))
    return 0 if returns.size == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
