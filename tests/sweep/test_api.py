"""haptix.sweep.run from Python: a function per trial on the daemon
prepared for it, failures recorded with their exception."""

import os

import numpy as np

import haptix.sweep

from conftest import HERE, env


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
