"""haptix.VectorEnv over real daemons: Gymnasium 1.x's vector conventions
checked by a checker of our own (Debian 12 has no Gymnasium), every
request sent before any answer is waited for, NEXT_STEP autoreset,
seeds, a daemon killed or hung restarted and its environment truncated,
daemons the user runs, pictures, and Gymnasium's registry."""

import os
import signal
import time

import numpy as np
import pytest

import haptix
from haptix import tasks
from haptix.env import Env
from haptix.render import RenderError


def _vector(n=2, **kw):
    kw.setdefault("frame_skip", 5)
    kw.setdefault("max_episode_steps", 4)
    return haptix.VectorEnv("fixture.xml", num_envs=n,
                            haptixd=os.environ["HAPTIXD"],
                            model_dirs=[os.environ["HX_TEST_MODELS"]], **kw)


def check_vector_env(venv, seed=3):
    """Gymnasium's vector API, as gymnasium.utils.env_checker would ask
    it of a VectorEnv: the spaces batched, reset's and step's shapes and
    types, observations in their space, infos as arrays with masks."""
    n = venv.num_envs
    assert venv.observation_space.shape == \
        (n,) + venv.single_observation_space.shape
    assert venv.action_space.shape == (n,) + venv.single_action_space.shape
    assert np.array_equal(venv.action_space.low[1],
                          venv.single_action_space.low)
    assert venv.metadata["autoreset_mode"] == haptix.vector.AUTORESET_NEXT_STEP
    obs, infos = venv.reset(seed=seed)
    assert obs.shape == venv.observation_space.shape
    assert obs.dtype == np.float64
    assert venv.observation_space.contains(obs)
    for k in [k for k in infos if not k.startswith("_")]:
        assert infos[k].shape[0] == n and infos["_" + k].dtype == bool
    actions = np.stack([venv.single_action_space.sample() for _ in range(n)])
    obs, rewards, terminated, truncated, infos = venv.step(actions)
    assert obs.shape == venv.observation_space.shape
    assert rewards.shape == (n,) and rewards.dtype == np.float64
    assert terminated.shape == (n,) and terminated.dtype == bool
    assert truncated.shape == (n,) and truncated.dtype == bool
    assert np.all(infos["_steps"]) and list(infos["steps"]) == [1] * n


def test_conventions():
    venv = _vector(3, reward=lambda obs, a, info: float(obs[0]))
    try:
        check_vector_env(venv)
    finally:
        venv.close()
    assert venv.closed


def test_sends_every_request_before_waiting(monkeypatch):
    calls = []
    send, wait = Env.step_send, Env.step_wait
    monkeypatch.setattr(Env, "step_send", lambda self, a: (
        calls.append("send"), send(self, a))[1])
    monkeypatch.setattr(Env, "step_wait", lambda self, s, t=None: (
        calls.append("wait"), wait(self, s, t))[1])
    with _vector(3) as venv:
        venv.reset(seed=0)
        venv.step(np.zeros(venv.action_space.shape))
    assert calls == ["send"] * 3 + ["wait"] * 3


def test_next_step_autoreset_and_seeds():
    with _vector(2, reset_noise=0.05, max_episode_steps=3) as venv:
        first, _ = venv.reset(seed=7)
        a = np.full(venv.action_space.shape, 0.3)
        trail = [venv.step(a) for _ in range(3)]
        assert list(trail[-1][3]) == [True, True]       # truncated
        obs, rewards, terminated, truncated, infos = venv.step(a)
        # The step after the end is the reset: no reward, no flags.
        assert list(rewards) == [0, 0] and not terminated.any() \
            and not truncated.any() and list(infos["steps"]) == [0, 0]
        again, _ = venv.reset(seed=7)
        # The same seed: the same start, bit for bit; environment i is
        # seeded with seed + i, so the two start apart.
        assert np.array_equal(first, again)
        assert not np.array_equal(first[0], first[1])
        replay = [venv.step(a) for _ in range(3)]
        for x, y in zip(trail, replay):
            assert np.array_equal(x[0], y[0])
        listed, _ = venv.reset(seed=[8, 7])
        assert np.array_equal(listed[1], first[0])


def test_a_killed_daemon_is_restarted_and_truncated():
    with _vector(2, max_episode_steps=100) as venv:
        venv.reset(seed=1)
        a = np.zeros(venv.action_space.shape)
        venv.step(a)
        victim = venv._slots[1].daemon
        pid = victim.proc.pid
        os.kill(pid, signal.SIGKILL)
        obs, rewards, terminated, truncated, infos = venv.step(a)
        assert list(truncated) == [False, True]
        assert list(infos["_restarted"]) == [False, True]
        assert victim.proc.pid != pid and victim.up()
        # Both step on: the restarted one from its reset (NEXT_STEP: the
        # step after its truncation is the reset).
        obs, rewards, terminated, truncated, infos = venv.step(a)
        assert list(infos["steps"]) == [3, 0] and not truncated.any()
        assert list(venv.step(a)[4]["steps"]) == [4, 1]


def _cpus_of(pid):
    """The CPUs each thread of a process may run on."""
    return [os.sched_getaffinity(int(t))
            for t in os.listdir("/proc/%d/task" % pid)]


def test_cpus_places_our_daemons():
    allowed = sorted(os.sched_getaffinity(0))
    with _vector(3, cpus="auto", max_episode_steps=100) as venv:
        for i, s in enumerate(venv._slots):
            want = {allowed[i % len(allowed)]}
            threads = _cpus_of(s.daemon.proc.pid)
            assert threads and all(c == want for c in threads), \
                (i, threads)
        # A daemon started again keeps its place.
        victim = venv._slots[1].daemon
        os.kill(victim.proc.pid, signal.SIGKILL)
        a = np.zeros(venv.action_space.shape)
        assert venv.step(a)[3][1]
        assert all(c == {allowed[1 % len(allowed)]}
                   for c in _cpus_of(victim.proc.pid))
    with _vector(2, cpus=[allowed[-1]]) as venv:
        for s in venv._slots:
            assert all(c == {allowed[-1]} for c in _cpus_of(s.daemon.proc.pid))
    if len(allowed) > 1:
        with _vector(1) as venv:        # fewer than the CPUs: the kernel's
            assert all(c == set(allowed)
                       for c in _cpus_of(venv._slots[0].daemon.proc.pid))
    with _vector(len(allowed)) as venv:     # as many: placed
        assert [_cpus_of(s.daemon.proc.pid)[0] for s in venv._slots] == \
            [{c} for c in allowed]
    with _vector(len(allowed), cpus=False) as venv:
        assert all(c == set(allowed) for s in venv._slots
                   for c in _cpus_of(s.daemon.proc.pid))
    for bad in ("all", [], True):
        with pytest.raises(ValueError, match="cpus"):
            _vector(1, cpus=bad)
    with pytest.raises(ValueError, match="not the servers given"):
        haptix.VectorEnv(servers=["unix:/nonexistent"], cpus="auto")


def test_a_hung_daemon_is_restarted_not_waited_for():
    with _vector(2, max_episode_steps=100, step_timeout=1.0) as venv:
        venv.reset(seed=1)
        a = np.zeros(venv.action_space.shape)
        victim = venv._slots[0].daemon
        os.kill(victim.proc.pid, signal.SIGSTOP)
        t = time.monotonic()
        obs, rewards, terminated, truncated, infos = venv.step(a)
        took = time.monotonic() - t
        assert list(truncated) == [True, False] and infos["_restarted"][0]
        assert took < 30, "the step waited %.1f s" % took
        assert list(venv.step(a)[4]["steps"]) == [0, 2]


def test_daemons_the_user_runs(start_server):
    a, b = start_server("--paused"), start_server("--paused")
    venv = haptix.VectorEnv("fixture.xml", servers=[a.unix, b.tcp],
                            frame_skip=2)
    try:
        assert venv.num_envs == 2
        check_vector_env(venv)
    finally:
        venv.close()
    # Theirs, not ours: still running.
    with a.connect() as s:
        assert s.model.name == "fixture"
    assert b.proc.poll() is None


def test_rgb_array_pictures():
    venv = _vector(2, render_mode="rgb_array", render_size=(96, 64))
    try:
        venv.reset(seed=0)
        try:
            before = venv.render()
        except RenderError as e:
            pytest.skip("hxview cannot draw here: %s" % e)
        assert len(before) == 2
        assert all(f.shape == (64, 96, 3) and f.dtype == np.uint8
                   for f in before)
        # The box moved in environment 0 alone: its picture changes at
        # once (the state when asked), the other's does not.
        venv.envs[0].sim.set_joint("box", qpos=[0, 0, 0.6, 1, 0, 0, 0])
        after = venv.render()
        assert not np.array_equal(before[0], after[0])
        assert np.array_equal(before[1], after[1])
    finally:
        venv.close()


def test_gymnasium_registry():
    class Registry(dict):
        pass

    class Stub:
        """gymnasium's register(), as far as haptix uses it."""
        registry = Registry()

        def register(self, id, entry_point, vector_entry_point=None,
                     **kw):
            self.registry[id] = (entry_point, vector_entry_point)
    stub = Stub()
    assert tasks.register_gymnasium(stub)
    assert set(stub.registry) == {"haptix/Env-v0", "haptix/MPLGrasp-v0"}
    # Each entry point names what Gymnasium will import and call.
    for entry, vector in stub.registry.values():
        for spec in (entry, vector):
            mod, name = spec.split(":")
            assert callable(getattr(__import__(mod, fromlist=[name]), name))
    assert tasks.register_gymnasium(stub)       # twice is harmless
    if haptix.env._gym is None:
        assert not tasks.register_gymnasium()


def test_mpl_grasp_task(mpl_server):
    with mpl_server.connect() as sim:
        env = tasks.mpl_grasp(sim)
        obs, _ = env.reset(seed=0)
        _, zero, *_ = env.step(np.zeros(env.action_space.shape))
        lo, hi = env.action_space.low, env.action_space.high
        total = 0.0
        for _ in range(20):
            total += env.step(lo + (hi - lo) * 2 / 3)[1]
        # Open, nothing touches; closed on the cube, segments press.
        assert zero == 0.0 and total > 20


def test_human_mode_serves_the_workbench():
    import json
    import urllib.request
    try:
        venv = _vector(2, render_mode="human")
    except RenderError as e:
        pytest.skip("hxview cannot serve here: %s" % e)
    try:
        url = venv.render_url
        assert url.startswith("http://127.0.0.1:") and venv.render() is None
        # The first environment's daemon, watched: its steps, not the
        # second's (which takes more); the second has no workbench.
        venv.reset(seed=0)
        a = np.zeros(venv.action_space.shape)
        for _ in range(3):
            venv.step(a)
        venv.envs[1].sim.step(7)
        want = venv.envs[0].sim.status().steps
        end, status = time.monotonic() + 10, {}
        while time.monotonic() < end and status.get("step") != want:
            with urllib.request.urlopen(url + "status.json",
                                        timeout=10) as r:
                status = json.load(r)
            time.sleep(0.05)
        assert status.get("step") == want and status["paused"], status
        assert venv.envs[1].render_url is None
    finally:
        venv.close()
