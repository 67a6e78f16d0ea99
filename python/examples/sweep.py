#!/usr/bin/env python3
"""A parameter sweep: the index finger's step response for servo gains.

For each position gain kp, reset the MPL scene, set the gain of the
A_index_MCP servo (actuator_gainprm and the matching biasprm, as MuJoCo's
position actuator keeps them), command 1.2 rad and run a batch of steps
in one request, recording the finger's position sensor; print the time
it took to reach 90 % of the way and where it ended.

usage: sweep.py [--server ADDR] [--steps N] [KP ...]
"""

import argparse

import numpy as np

import haptix


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--server", help="haptixd address (default: the local one)")
    p.add_argument("--steps", type=int, default=500)
    p.add_argument("kp", type=float, nargs="*", default=[2, 5, 10, 20, 50])
    a = p.parse_args()
    with haptix.connect(a.server, name="sweep") as sim:
        sim.pause()
        m = sim.model
        act = m.id("actuator", "A_index_MCP")
        pos = m.sensor_index("A_index_MCP_pos")[0]
        print("kp      rise (s)  final (rad)")
        for kp in a.kp:
            sim.reset()                     # also undoes the last gain
            sim.set_array("actuator_gainprm", [kp], offset=act * 10)
            sim.set_array("actuator_biasprm", [0, -kp], offset=act * 10)
            ctrl = sim.get_control().ctrl
            ctrl[act] = 1.2
            out = sim.run(steps=a.steps, ctrl=ctrl, record=["sensordata"])
            q = out["sensordata"][:, pos]
            reached = np.nonzero(q >= 0.9 * 1.2)[0]
            rise = out["time"][reached[0]] if reached.size else float("nan")
            print("%-7g %-9.3f %.3f" % (kp, rise, q[-1]))


if __name__ == "__main__":
    main()
