#!/usr/bin/env python3
"""make bench's sweep figures (issue 21): hxsweep's local pool and a
Slurm job array, timed through haptix.sweep, the engine hxsweep runs.

- trials per second with --jobs 2 against --jobs 1: MPL trials of 1000
  steps, rounds alternating the two, medians (target >= 1.8x);
- the overhead of a trial beyond its own steps, --jobs 1: the wall time
  per trial (the slope between sweeps of N1 and N2 trials of 10 steps,
  so that the daemon's start and the model's load fall out) less the
  time of those 10 steps in one long batch on the same model (target
  <= 5 ms);
- a sweep of 10,000 trials of 10 steps as a Slurm job array, submit to
  gathered, when a cluster answers (sinfo through $SLURM_CONF), else
  skipped and said so.

usage: sweep.py [--quick] [--rounds N] [-f local,slurm] [--slurm-trials N]
                [--slurm-tasks K]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import haptix
import haptix.sweep as hs
from haptix.sweep import slurm as hslurm

MODELS = os.environ.get("HX_MODELS", "")


def sweep(n, steps):
    """A sweep of n trials of the MPL scene's index finger servo."""
    return hs.loads("""model = "mpl_scene.xml"
[grid]
i = [%s]
[trial]
set = { "actuator_gainprm[A_index_MCP]" = "{5 + i %% 40}", "actuator_biasprm[A_index_MCP, 1]" = "{-(5 + i %% 40)}" }
ctrl = { A_index_MCP = 1.2 }
steps = %d
record = ["sensor:A_index_MCP_pos"]
""" % (", ".join(str(i) for i in range(n)), steps), "bench", ".", "bench")


RUNNER_CPU = []


def timed(s, jobs):
    """Seconds a sweep takes on `jobs` daemons, from start to table; the
    runner's own CPU time per trial goes to RUNNER_CPU."""
    c0 = time.process_time()
    t0 = time.monotonic()
    rows = hs.run(s, jobs=jobs, model_dirs=[MODELS])
    dt = time.monotonic() - t0
    RUNNER_CPU.append((time.process_time() - c0) / len(s.trials))
    assert rows.failed == 0
    return dt


def steps_cost(steps, trials):
    """Seconds that `steps` steps take inside one long batch (the MPL
    scene, the same control), per trial."""
    d = tempfile.mkdtemp(prefix="hxbench.")
    p = subprocess.Popen([os.environ["HAPTIXD"], "--config", "none",
                          "--paused", "-M", MODELS, "-m", "mpl_scene.xml",
                          "--unix", d + "/s", "--tcp", "none",
                          "--state-dir", d], stderr=subprocess.DEVNULL)
    try:
        for _ in range(500):
            if os.path.exists(d + "/s"):
                break
            time.sleep(0.01)
        time.sleep(0.2)
        with haptix.connect("unix:" + d + "/s") as sim:
            sim.reset()
            ctrl = sim.get_control().ctrl
            ctrl[sim.model.id("actuator", "A_index_MCP")] = 1.2
            t0 = time.monotonic()
            sim.run(steps=steps * trials, ctrl=ctrl)
            return (time.monotonic() - t0) / trials
    finally:
        p.terminate()
        p.wait()
        shutil.rmtree(d, ignore_errors=True)


def row(figure, measured, baseline, ratio, target, met):
    """One row of the figures' table."""
    print("| %s | %s | %s | %s | %s | %s |" % (figure, measured, baseline,
                                               ratio, target, met))


def slurm_figure(n, tasks):
    """The Slurm figure: n trials submitted, waited for, gathered."""
    try:
        ok = subprocess.run(["sinfo", "-h"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    if not ok:
        print("\nhxsweep on Slurm: skipped: no Slurm cluster answers (sinfo "
              "failed; set SLURM_CONF, or start tests/slurm_cluster.sh)")
        return
    s = sweep(n, 10)
    d = tempfile.mkdtemp(prefix="hxbench-slurm.")
    try:
        t0 = time.monotonic()
        hslurm.submit(s, d + "/out", tasks=tasks, model_dirs=[MODELS])
        null = open(os.devnull, "w")
        while hslurm.status(d + "/out", null)[0] < n:
            time.sleep(0.5)
        ok, failed, missing = hslurm.gather(d + "/out", null)
        dt = time.monotonic() - t0
        assert ok == n, (ok, failed, missing)
        print("\nhxsweep on Slurm (nodes: %s): %d trials of 10 steps as "
              "an array of %d tasks, submitted to gathered: %.1f s, %.0f "
              "trials/s" % (subprocess.run(
                  ["sinfo", "-h", "-o", "%N, %c CPUs"],
                  stdout=subprocess.PIPE, text=True).stdout.strip(), n,
                  tasks, dt, n / dt))
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    """The figures asked for, as a table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("-f", "--figures", default="local,slurm")
    p.add_argument("--slurm-trials", type=int, default=10000)
    p.add_argument("--slurm-tasks", type=int, default=100)
    a = p.parse_args()
    rounds = 1 if a.quick else a.rounds
    n_long = 8 if a.quick else 60
    figs = a.figures.split(",")
    if "local" in figs:
        local(a, rounds, n_long)
    if "slurm" in figs and not a.quick:
        slurm_figure(a.slurm_trials, a.slurm_tasks)
    elif "slurm" in figs:
        print("\nSlurm figure skipped: --quick")


BUSY = ("import time\nt = time.monotonic(); c = time.process_time()\n"
        "while time.monotonic() - t < 1: pass\n"
        "print(time.process_time() - c)")


def free_cpus():
    """CPUs the machine gives now: the CPU time two busy loops get in a
    second of wall time, side by side (2.0 on an idle 2-CPU machine)."""
    ps = [subprocess.Popen([sys.executable, "-c", BUSY],
                           stdout=subprocess.PIPE, text=True)
          for _ in range(2)]
    return sum(float(p.communicate()[0]) for p in ps)


def bare_rate(n, seconds=2.0):
    """Steps per second of n bare mj_step loops side by side on the MPL
    scene (bench/baseline_mujoco, as hxbench runs it), summed."""
    exe = os.environ.get("HXBENCH_MUJOCO")
    if not exe:
        return None
    ps = [subprocess.Popen([exe, os.path.join(MODELS, "mpl_scene.xml"),
                            "--seconds", str(seconds)],
                           stdout=subprocess.PIPE, text=True)
          for _ in range(n)]
    total = 0.0
    for p in ps:
        f = p.communicate()[0].split()
        total += float(f[f.index("steps") + 1]) / float(
            f[f.index("seconds") + 1])
    return total


def local(a, rounds, n_long):
    """The local pool's figures: the --jobs ratio and the overhead."""
    print("hxsweep: the local pool (MPL scene), %d CPUs, load average "
          "%.2f at the start; two busy loops got %.2f CPUs\n" % (
              os.cpu_count(), os.getloadavg()[0], free_cpus()))
    print("| figure | measured | baseline in the same run | ratio | "
          "target | met? |")
    print("| --- | ---: | ---: | ---: | --- | --- |")
    big = sweep(n_long, 1000)
    one, two, bare = [], [], []
    for _ in range(rounds):
        one.append(n_long / timed(big, 1))
        two.append(n_long / timed(big, 2))
        b1, b2 = bare_rate(1), bare_rate(2)
        if b1:
            bare.append(b2 / b1)
    r1, r2 = statistics.median(one), statistics.median(two)
    runner = statistics.median(RUNNER_CPU)
    row("trials/s, %d trials of 1000 steps, `--jobs 2`" % n_long,
        "%.2f trials/s" % r2, "%.2f trials/s (`--jobs 1`)" % r1,
        "%.2f×" % (r2 / r1), "≥ 1.8×", "yes" if r2 / r1 >= 1.8 else
        "**no**")
    if bare:
        rb = statistics.median(bare)
        row("the same ratio for bare `mj_step` loops: 2 side by side "
            "against 1", "%.2f×" % rb, "", "pool %.2f× of bare %.2f×: "
            "%.0f %%" % (r2 / r1, rb, 100 * (r2 / r1) / rb), "", "")
    row("the runner's own CPU per trial of 1000 steps (Python)",
        "%.2f ms" % (runner * 1e3), "%.1f ms per trial (`--jobs 1`)"
        % (1e3 / r1), "%.3f×" % (runner * r1), "", "")
    n1, n2 = (20, 60) if a.quick else (100, 600)
    slopes = []
    for _ in range(rounds):
        t1 = timed(sweep(n1, 10), 1)
        t2 = timed(sweep(n2, 10), 1)
        slopes.append((t2 - t1) / (n2 - n1))
    per = statistics.median(slopes)
    cost = steps_cost(10, 2000)
    over = per - cost
    row("overhead per trial beyond its steps, `--jobs 1`",
        "%.2f ms" % (over * 1e3), "%.2f ms per trial of 10 steps, of "
        "which the steps %.2f ms" % (per * 1e3, cost * 1e3), "",
        "≤ 5 ms", "yes" if over <= 0.005 else "**no**")
    print("\nload average %.2f at the end; two busy loops got %.2f CPUs"
          % (os.getloadavg()[0], free_cpus()))


if __name__ == "__main__":
    main()
