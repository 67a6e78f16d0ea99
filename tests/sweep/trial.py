#!/usr/bin/env python3
"""A command trial for tests/sweep: the gain sweep's trial written as a
program.  The parameters come in the environment (HX_PARAM_kp, ...) and
$HAPTIX_SERVER names the daemon prepared for the trial (gain and
damping already set by the sweep file); the result goes out as JSON.

--fail-once DIR: fail (exit 3) the first time each trial runs, marking
it in DIR.  --fail-if-kp KP: always fail when kp is KP."""

import json
import os
import sys

import haptix


def main():
    args = sys.argv[1:]
    trial = os.environ["HX_TRIAL"]
    if "--fail-once" in args:
        mark = os.path.join(args[args.index("--fail-once") + 1], trial)
        if not os.path.exists(mark):
            open(mark, "w").close()
            sys.stderr.write("trial %s: failing once on purpose\n" % trial)
            sys.exit(3)
    if "--fail-if-kp" in args:
        if float(os.environ["HX_PARAM_kp"]) == float(
                args[args.index("--fail-if-kp") + 1]):
            sys.stderr.write("this gain always fails\n")
            sys.exit(4)
    with haptix.connect() as sim:
        m = sim.model
        act = m.id("actuator", "A_index_MCP")
        ctrl = sim.get_control().ctrl
        ctrl[act] = float(os.environ["HX_PARAM_target"])
        out = sim.run(steps=150, ctrl=ctrl, record=["sensordata"])
        q = out["sensordata"][:, m.sensor_index("A_index_MCP_pos")[0]]
        gain = sim.get_array("actuator_gainprm")[act, 0]
    print(json.dumps({"max": float(q.max()), "last": float(q[-1]),
                      "gain": float(gain),
                      "params": json.loads(os.environ["HX_PARAMS"])}))


if __name__ == "__main__":
    main()
