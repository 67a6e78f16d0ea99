"""haptix.sweep.run from Python: a function per trial on the daemon
prepared for it, failures recorded with their exception."""

import os

import numpy as np

import haptix.sweep

HERE = os.path.dirname(os.path.abspath(__file__))


def env(name):
    """A variable make check sets (tests/sweep.sh checks them)."""
    return os.environ[name]


def test_a_function_per_trial(tmp_path):
    seen = []

    def trial(sim, t):
        seen.append(t.id)
        act = sim.model.id("actuator", "A_index_MCP")
        # The sweep file's [trial.set] and [trial.ctrl] were applied.
        gain = sim.get_array("actuator_gainprm")[act, 0]
        assert gain == t.params["kp"]
        assert sim.get_control().ctrl[act] == t.params["target"]
        out = sim.run(steps=100, record=["sensordata"], every=50)
        if t.params["kp"] == 20 and t.params["target"] == 0.6:
            raise ValueError("no good: %g" % gain)
        return {"q": out["sensordata"][:, sim.model.sensor_index(
            "A_index_MCP_pos")[0]], "gain": gain}

    rows = haptix.sweep.run(os.path.join(HERE, "gain.toml"), trial=trial,
                            jobs=2, out=str(tmp_path / "o"),
                            model_dirs=[env("HX_MODELS")])
    assert sorted(seen) == list(range(12))
    assert [r["trial"] for r in rows] == list(range(12))
    assert rows.ok == 10 and rows.failed == 2
    bad = [r for r in rows if r["status"] == "failed"]
    assert [r["params"]["kp"] for r in bad] == [20, 20]
    assert bad[0]["errors"] == ["ValueError: no good: 20"]
    good = rows[0]["result"]
    assert good["gain"] == 5 and np.array(good["q"]).shape == (2,)
    q = np.load(str(tmp_path / "o" / "npy" / "q.npy"))
    assert q.shape == (12, 2) and np.isnan(q[4:6]).all()


def test_a_sweep_from_text_into_no_directory():
    s = haptix.sweep.loads('model = "mpl_scene.xml"\n[grid]\nx = [1, 2, 3]\n'
                           '[trial]\nsteps = 5\nrecord = ["qpos"]\n')
    rows = haptix.sweep.run(s, jobs=1, model_dirs=[env("HX_MODELS")])
    assert rows.out is None
    assert [r["result"]["steps"] for r in rows] == [5, 5, 5]
    assert len(rows[0]["result"]["qpos"]) == 50


def test_random_samples_are_the_seeds_and_only_the_seeds():
    text = """model = "mpl_scene.xml"
seed = %d
repeats = 2
[grid]
g = ["a", "b"]
[random]
samples = 3
u = { uniform = [1, 2] }
l = { loguniform = [0.01, 100] }
n = { normal = [5, 0.1] }
i = { integers = [3, 4] }
c = { choice = ["x", "y", 7] }
[trial]
steps = 1
"""
    a = haptix.sweep.loads(text % 1)
    b = haptix.sweep.loads(text % 1)
    c = haptix.sweep.loads(text % 2)
    assert len(a.trials) == 2 * 3 * 2
    key = [(t.params, t.seed) for t in a.trials]
    assert key == [(t.params, t.seed) for t in b.trials]
    assert key != [(t.params, t.seed) for t in c.trials]
    # Each sample goes with every grid point; repeats differ by seed.
    assert a.trials[0].params["u"] == a.trials[6].params["u"]
    assert a.trials[0].params == a.trials[1].params
    assert a.trials[0].seed != a.trials[1].seed
    for t in a.trials:
        p = t.params
        assert 1 <= p["u"] <= 2 and 0.01 <= p["l"] <= 100
        assert 4 < p["n"] < 6 and p["i"] in (3, 4) and p["c"] in ("x", "y", 7)
    assert a.params == ["g", "u", "l", "n", "i", "c"]


def test_a_late_timer_kills_only_the_daemon_it_was_set_for(tmp_path):
    # A trial's timer fires as its trial ends; the worker has already
    # started the next daemon.  The timer once ran Daemon.kill(), which
    # closed whatever connection was current: the new one, under the
    # worker's feet ("'NoneType' object has no attribute 'load'").
    from haptix.sweep.daemon import Daemon, find_haptixd
    d = Daemon(find_haptixd(), str(tmp_path / "w0"), "mpl_scene.xml",
               [env("HX_MODELS")])
    d.start()
    try:
        old = d.proc
        d.kill()
        d.start()
        assert d.proc is not old
        d.kill_process(old)         # the late timer
        assert d.up()
        d.sim.step(1)
        d.kill_process(d.proc)      # a timer on time: the process goes,
        d.proc.wait(10)             # the connection is the worker's
        assert d.sim is not None and not d.up()
    finally:
        d.kill()
