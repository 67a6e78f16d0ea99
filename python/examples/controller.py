#!/usr/bin/env python3
"""A closed-loop controller in lock-step: an integral controller on top
of the index finger's position servo holds the finger's measured angle
at a target while the simulation waits for it, one mj_update per step.

Each update sends the controls and returns the sensors after the step
(paused, the server steps once per update), so the loop is exactly
step, read, decide, step.

usage: controller.py [--server ADDR] [--target RAD] [--steps N]
"""

import argparse

import haptix


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--server", help="haptixd address (default: the local one)")
    p.add_argument("--target", type=float, default=0.8)
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--gain", type=float, default=20.0)
    a = p.parse_args()
    with haptix.connect(a.server, name="controller") as sim:
        sim.pause()
        sim.reset()
        m = sim.model
        act = m.id("actuator", "A_index_MCP")
        pos = m.sensor_index("A_index_MCP_pos")[0]
        ctrl = sim.get_control().ctrl
        lo, hi = m.ctrl_bounds()
        sensors = sim.get_sensor()
        for i in range(a.steps):
            error = a.target - sensors.sensordata[pos]
            ctrl[act] = min(hi[act], max(lo[act], ctrl[act] + a.gain *
                                         error * m.timestep))
            sensors = sim.update(ctrl)
            if i % (a.steps // 5 or 1) == 0:
                print("t %.3f  angle %.4f  control %.4f" % (
                    sensors.time, sensors.sensordata[pos], ctrl[act]))
        final = sensors.sensordata[pos]
        print("final angle %.4f, error %.4f rad" % (final, a.target - final))


if __name__ == "__main__":
    main()
