#!/usr/bin/env python3
"""make bench's figures of haptix.VectorEnv (issue 42), on the MPL scene
with 10 physics steps per environment step (the grasp task's):

- steps per second of a VectorEnv of 2 environments on 2 cores against
  one environment's (a VectorEnv of 1), in blocks alternating the two,
  medians (target >= 1.8x): with the daemons placed one a CPU
  (cpus="auto", the default of a vector that fills the CPUs, against
  the faster of the two placements of one), and where the kernel puts
  them (cpus=False);
- a step's time through a VectorEnv of 1 against the raw lock-step call
  it makes, sim.batch of the same 10 steps, controls and recorded
  observation on a connection of its own to the same daemon, in blocks
  alternating the two, medians (target <= 1.2x);
- beside them, the machine's own ceiling in the same rounds: two bare
  mj_step loops of the MPL scene side by side against one
  (bench/baseline_mujoco, as bench/sweep.py measures it), since a
  shared machine may not give two whole cores.

usage: vector.py [--quick] [--rounds N] [--steps N]
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

from haptix import tasks
import haptix
from sweep import bare_rate

MODELS = os.environ.get("HX_MODELS", "")


def vector(n, cpus=False):
    return tasks.mpl_grasp_vector(num_envs=n, model_dirs=[MODELS],
                                  max_episode_steps=None, cpus=cpus)


def rate(venv, steps):
    """Environment steps per second, summed over the vector."""
    a = np.zeros(venv.action_space.shape)
    venv.reset(seed=0)
    t = time.perf_counter()
    for _ in range(steps):
        venv.step(a)
    return steps * venv.num_envs / (time.perf_counter() - t)


def raw_step(sim, steps, obs):
    """Seconds per raw lock-step call: sim.batch of 10 steps."""
    a = np.zeros(sim.model.nu)
    t = time.perf_counter()
    for _ in range(steps):
        sim.batch(steps=10, ctrl=a, record=obs, every=10)
    return (time.perf_counter() - t) / steps


def row(figure, measured, baseline, ratio, target, met):
    print("| %s | %s | %s | %s | %s | %s |" % (figure, measured, baseline,
                                               ratio, target, met))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--steps", type=int, default=400)
    a = p.parse_args()
    rounds = 1 if a.quick else a.rounds
    steps = 50 if a.quick else a.steps
    print("haptix.VectorEnv (MPL scene, 10 physics steps a step), %d CPUs, "
          "load average %.2f at the start\n" % (os.cpu_count(),
                                                 os.getloadavg()[0]))
    print("| figure | measured | baseline in the same run | ratio | target "
          "| met? |")
    print("| --- | ---: | ---: | ---: | --- | --- |")
    one, two = vector(1), vector(2)
    pone, ptwo = vector(1, "auto"), vector(2, "auto")
    try:
        r1, r2, p1, p2, env_s, raw_s, bare = [], [], [], [], [], [], []
        obs = list(one.envs[0].obs_fields)
        raw = haptix.connect(one.servers()[0], name="bench raw")
        try:
            raw.pause()
            for _ in range(rounds):
                r1.append(rate(one, steps))
                r2.append(rate(two, steps))
                p1.append(rate(pone, steps))
                p2.append(rate(ptwo, steps))
                env_s.append(1 / rate(one, steps))
                raw_s.append(raw_step(raw, steps, obs))
                b1, b2 = bare_rate(1, 1.0), bare_rate(2, 1.0)
                if b1:
                    bare.append(b2 / b1)
        finally:
            raw.close()
    finally:
        for v in (one, two, pone, ptwo):
            v.close()
    m1, m2 = statistics.median(r1), statistics.median(r2)
    q1, q2 = statistics.median(p1), statistics.median(p2)
    ratio = q2 / max(q1, m1)
    row("steps/s, `VectorEnv` of 2, `cpus=\"auto\"` (the default)",
        "%.0f" % q2,
        "%.0f (of 1; %.0f unplaced)" % (q1, m1), "%.2fx" % ratio,
        ">= 1.8x", "yes" if ratio >= 1.8 else "**no**")
    ratio = m2 / m1
    row("steps/s, `VectorEnv` of 2, `cpus=False`", "%.0f" % m2,
        "%.0f (of 1)" % m1, "%.2fx" % ratio, ">= 1.8x",
        "yes" if ratio >= 1.8 else "**no**")
    if bare:
        b = statistics.median(bare)
        row("steps/s, 2 bare `mj_step` loops (the machine's ceiling)",
            "", "", "%.2fx" % b, "", "")
    e, r = statistics.median(env_s), statistics.median(raw_s)
    over = e / r
    row("a step, `VectorEnv` of 1", "%.0f us" % (e * 1e6),
        "%.0f us (`sim.batch`)" % (r * 1e6), "%.2fx" % over, "<= 1.2x",
        "yes" if over <= 1.2 else "**no**")
    return 0


if __name__ == "__main__":
    sys.exit(main())
