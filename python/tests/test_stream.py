"""Subscriptions and events as iterators."""

import itertools

import pytest

import haptix


def test_frames_of_a_subscription(sim):
    with sim.subscribe(["qpos", "ctrl"], every=5) as sub:
        first = next(sub)            # the state as it is
        assert first.kind == "frame" and first.subscription == sub.id
        assert first.qpos.shape == (9,) and first.ctrl.shape == (2,)
        sim.step(20)
        steps = [f.step for f in itertools.islice(sub, 4)]
        assert [b - a for a, b in zip(steps, steps[1:])] == [5, 5, 5]
    assert [c.subscriptions for c in sim.clients() if c.you] == [0]


def test_events_by_kind(sim):
    with sim.subscribe(events=["reset", "run"]) as sub:
        sim.reset("raised")
        e = sub.next(timeout=5)
        assert e.kind == "reset" and e.name == "raised"
        sim.run()
        sim.pause()
        assert [sub.next(5).paused, sub.next(5).paused] == [False, True]
        with pytest.raises(haptix.Timeout, match="subscription"):
            sub.next(timeout=0.2)


def test_two_subscriptions_on_one_connection(sim):
    a = sim.subscribe(["qpos"], every=2)
    b = sim.subscribe(events=True)
    next(a)
    sim.message("hi")
    sim.step(4)
    # b's event waits while a's frames are read, and the other way round.
    assert [next(a).step % 2 for _ in range(2)] == [0, 0]
    e = b.next(5)
    assert e.kind == "message" and e.text == "hi"
    sim.step(2)
    ev = sim.next_event(timeout=5)
    assert ev.kind == "frame" and ev.qpos.shape == (9,)
    a.close()
    b.close()


def test_a_model_event_refreshes_the_model(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    with s.connect() as sim, s.connect() as other:
        assert sim.model.nq == 9
        sub = sim.subscribe(events=["model"])
        other.load("mpl_scene.xml")
        assert sub.next(10).kind == "model"
        assert sim.model.nu == 13
