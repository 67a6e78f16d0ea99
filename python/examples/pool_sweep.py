#!/usr/bin/env python3
"""The gain sweep of sweep.py on a pool of private daemons: haptix.sweep
runs a function per trial on each daemon prepared for it, the trials
shared by --jobs daemons, and returns the table in the order of the
trials, whatever order they finished in.

The sweep file (here as text) sets each trial's servo gain and target;
the function runs the steps and measures the rise time.  hxsweep(1) runs
the same file from the shell, on a Slurm cluster too.

usage: pool_sweep.py [--jobs N] [-M MODELDIR] [KP ...]
"""

import argparse

import numpy as np

import haptix.sweep

SWEEP = """model = "mpl_scene.xml"
[grid]
kp = [%s]
[trial]
set = { "actuator_gainprm[A_index_MCP]" = "{kp}", "actuator_biasprm[A_index_MCP, 1]" = "{-kp}" }
ctrl = { A_index_MCP = 1.2 }
"""


def rise(sim, t):
    """One trial: 500 steps from the prepared start; the rise time."""
    m = sim.model
    out = sim.run(steps=500, record=["sensordata"])
    q = out["sensordata"][:, m.sensor_index("A_index_MCP_pos")[0]]
    reached = np.nonzero(q >= 0.9 * 1.2)[0]
    return {"rise": float(out["time"][reached[0]]) if reached.size
            else float("nan"), "final": float(q[-1])}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("-M", dest="model_dirs", action="append", default=[])
    p.add_argument("kp", type=float, nargs="*", default=[2, 5, 10, 20, 50])
    a = p.parse_args()
    sweep = haptix.sweep.loads(SWEEP % ", ".join(map(repr, a.kp)))
    rows = haptix.sweep.run(sweep, trial=rise, jobs=a.jobs,
                            model_dirs=a.model_dirs)
    print("kp      rise (s)  final (rad)")
    for r in rows:
        print("%-7g %-9.3f %.3f" % (r["params"]["kp"], r["result"]["rise"],
                                    r["result"]["final"]))


if __name__ == "__main__":
    main()
