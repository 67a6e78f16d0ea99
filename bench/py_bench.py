"""make bench: the Python package's side of the python figure.

Run by hxbench with Debian's python3 and the package on PYTHONPATH:

    py_bench.py rtt ADDR N      time N get_state calls (after 200 more
                                to warm up); prints "rtt" and each
                                call's seconds
    py_bench.py batch ADDR N    one batch run of N steps recording qpos
                                and sensordata after every step, as
                                arrays; prints "batch STEPS SECONDS"
"""
import sys
import time

import haptix


def main():
    what, addr, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with haptix.connect(addr, name="hxbench-python") as sim:
        if what == "rtt":
            for _ in range(200):
                sim.get_state()
            times = []
            clock = time.perf_counter
            for _ in range(n):
                t0 = clock()
                sim.get_state()
                times.append(clock() - t0)
            print("rtt " + " ".join("%.9f" % t for t in times))
        elif what == "batch":
            sim.reset()
            t0 = time.perf_counter()
            out = sim.run(steps=n, record=["qpos", "sensordata"], every=1)
            t = time.perf_counter() - t0
            if out["qpos"].shape[0] != n:
                sys.exit("py_bench: %d rows of qpos, not %d"
                         % (out["qpos"].shape[0], n))
            print("batch %d %.9f" % (n, t))
        else:
            sys.exit("py_bench: rtt or batch")


if __name__ == "__main__":
    main()
