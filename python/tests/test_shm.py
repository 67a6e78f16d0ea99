"""The shared-memory transport (haptix/shm.py; protocol.md, "Shared
memory") through real daemons: it is taken on a Unix address and the
socket then carries no frame; HAPTIX_SHM=0 and --no-shm keep the socket;
shm: requires it; large frames both ways, streams, the daemon's end, and
results equal to the socket's."""

import fcntl
import os
import select
import signal
import struct
import threading
import time

import numpy as np
import pytest

import haptix
from haptix import shm

pytestmark = pytest.mark.skipif(not shm.SUPPORTED,
                                reason="shared memory: x86 only")


class CountingSocket:
    """A connection's socket, counting the calls that move bytes."""

    def __init__(self, sock):
        self.sock = sock
        self.moved = 0

    def fileno(self):
        return self.sock.fileno()

    def __getattr__(self, name):
        attr = getattr(self.sock, name)
        if name in ("send", "sendall", "sendmsg", "recv", "recv_into",
                    "recvmsg"):
            def counted(*a, **kw):
                self.moved += 1
                return attr(*a, **kw)
            return counted
        return attr


def _peer(sim):
    return [c.peer for c in sim.clients() if c.you][0]


def _some_calls(sim):
    """A sequence of calls, their answers in comparable form."""
    out = []
    sim.reset()
    sim.set_ctrl([0.3, -0.2])
    sim.step(25)
    st = sim.get_state()
    out += [st.time, st.qpos.copy(), st.qvel.copy()]
    out.append(sim.get_sensor().sensordata.copy())
    rec = sim.run(steps=200, record=["qpos", "sensordata"])
    out += [rec["qpos"].copy(), rec["sensordata"].copy()]
    out.append(sim.state_hash())
    out.append(sim.get_model_xml())
    sim.reset()
    return out


def test_shm_is_taken_and_the_socket_is_left_alone(fixture_server):
    with fixture_server.connect(name="shm") as sim:
        assert sim.conn.shm
        counting = CountingSocket(sim.conn._sock)
        sim.conn._sock = counting
        assert _peer(sim).endswith(", shm")
        for _ in range(50):
            sim.get_state()
        sim.step(3)
        assert counting.moved == 0
        # Nothing waits on the socket either: the frames went elsewhere.
        r, _, _ = select.select([counting.fileno()], [], [], 0)
        assert r == []


def test_haptix_shm_0_stays_on_the_socket(fixture_server, monkeypatch):
    monkeypatch.setenv("HAPTIX_SHM", "0")
    with fixture_server.connect(name="socket") as sim:
        assert not sim.conn.shm
        counting = CountingSocket(sim.conn._sock)
        sim.conn._sock = counting
        assert not _peer(sim).endswith(", shm")
        sim.get_state()
        assert counting.moved >= 2


def test_shm_address_requires_it(start_server, monkeypatch):
    s = start_server("-m", "fixture.xml", "--paused")
    # shm: asks even when HAPTIX_SHM=0, as libhaptix.
    monkeypatch.setenv("HAPTIX_SHM", "0")
    with haptix.connect("shm:" + s.sock) as sim:
        assert sim.conn.shm and _peer(sim).endswith(", shm")
    monkeypatch.delenv("HAPTIX_SHM")
    no = start_server("-m", "fixture.xml", "--paused", "--no-shm")
    with pytest.raises(haptix.NoConnection) as e:
        haptix.connect("shm:" + no.sock)
    assert str(e.value) == (
        "shm:%s: the server offers no shared memory (it runs with --no-shm, "
        "or predates it): use unix:%s" % (no.sock, no.sock))
    with haptix.connect(no.unix) as sim:
        assert not sim.conn.shm and sim.get_state().qpos.shape == (9,)


def test_never_over_tcp(fixture_server):
    with haptix.connect(fixture_server.tcp) as sim:
        assert not sim.conn.shm and not _peer(sim).endswith(", shm")


def test_large_frames_both_ways(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    with s.connect(name="large") as sim:
        assert sim.conn.shm
        # A request of several MB: a model with a long comment.
        with open(os.path.join(os.environ["HX_TEST_MODELS"],
                               "fixture.xml"), "rb") as f:
            xml = f.read()
        pad = b"<!-- " + os.urandom(3 * 1024 * 1024).hex().encode() + b" -->\n"
        big = pad + xml
        assert len(big) > 6 * 1024 * 1024
        assert sim.load(data=big, format="mjcf").nq == 9
        # An answer of several MB: a recorded batch, through a 1 MiB ring.
        rec = sim.run(steps=40000, record=["qpos", "qvel"])
        assert rec["qpos"].shape == (40000, 9)
        assert rec["qvel"].shape == (40000, 8)
        assert rec["qpos"].nbytes + rec["qvel"].nbytes > 5 * 1024 * 1024
        # The connection still works, the rings wrapped many times.
        assert sim.get_state().qpos.shape == (9,)
        assert _peer(sim).endswith(", shm")


def test_results_equal_the_sockets(fixture_server, monkeypatch):
    with fixture_server.connect(name="shm") as a:
        assert a.conn.shm
        a.pause()
        over_shm = _some_calls(a)
    monkeypatch.setenv("HAPTIX_SHM", "0")
    with fixture_server.connect(name="socket") as b:
        assert not b.conn.shm
        over_socket = _some_calls(b)
    assert len(over_shm) == len(over_socket)
    for x, y in zip(over_shm, over_socket):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)
        else:
            assert x == y


def test_streams_and_events_come_over_shm(fixture_server):
    with fixture_server.connect(name="stream") as sim:
        assert sim.conn.shm
        sim.pause()
        sim.reset()
        counting = CountingSocket(sim.conn._sock)
        sim.conn._sock = counting
        with sim.subscribe(["qpos"], every=2, events=["message"]) as sub:
            first = next(sub)
            assert first.kind == "frame" and first.qpos.shape == (9,)
            sim.step(40)
            steps = [next(sub).step for _ in range(20)]
            assert steps == list(range(2, 41, 2))
            sim.message("over shared memory")
            e = sub.next(timeout=5)
            assert e.kind == "message" and e.text == "over shared memory"
            with pytest.raises(haptix.Timeout):
                sub.next(timeout=0.05)
        assert counting.moved == 0


def test_select_on_fileno_wakes_for_an_event(fixture_server):
    with fixture_server.connect(name="select") as sim, \
            fixture_server.connect(name="other") as other:
        assert sim.conn.shm
        conn = sim.conn
        sim.subscribe(events=["message"])
        # Wake-ups of earlier waits may sit in the pipe: pending() empties
        # it, and when it says False a select() sleeps until an event.
        assert not conn.pending()
        r, _, _ = select.select([conn], [], [], 0.2)
        assert r == []
        later = threading.Timer(0.2, other.message, ("wake up",))
        later.start()
        t0 = time.monotonic()
        assert not conn.pending()
        r, _, _ = select.select([conn], [], [], 5)
        assert r == [conn] and time.monotonic() - t0 < 4
        later.join()
        ev = conn.next_event(timeout=0)
        assert ev.event.message.text == "wake up"
        # Something already in the ring: pending() says so at once.
        other.message("queued")
        end = time.monotonic() + 5
        while not conn.pending() and time.monotonic() < end:
            time.sleep(0.01)
        assert conn.pending()
        assert conn.next_event(timeout=0).event.message.text == "queued"


def test_the_daemons_end_is_reported(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    sim = s.connect(name="left")
    assert sim.conn.shm
    sim.subscribe(events=["message"])
    # Waiting for an event for ever: the daemon's end wakes it.
    threading.Timer(0.3, s.proc.send_signal, (signal.SIGTERM,)).start()
    t0 = time.monotonic()
    with pytest.raises(haptix.CannotRecv,
                       match="the server closed the connection"):
        sim.conn.next_event(timeout=None)
    assert time.monotonic() - t0 < 10
    assert s.proc.wait(20) == 0
    with pytest.raises(haptix.NoConnection):
        sim.get_state()
    sim.close()


def test_a_call_to_a_gone_daemon_fails(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    sim = s.connect(name="left")
    assert sim.conn.shm
    s.proc.send_signal(signal.SIGTERM)
    assert s.proc.wait(20) == 0
    t0 = time.monotonic()
    with pytest.raises((haptix.CannotRecv, haptix.CannotSend)):
        sim.get_state()
    assert time.monotonic() - t0 < 5
    sim.close()


def test_a_broken_ring_drops_the_connection(fixture_server):
    for bad in ("head", "chunk"):
        with fixture_server.connect(name="broken") as sim:
            conn = sim.conn
            assert conn.shm
            sim.get_state()
            ring = conn._shm.inp
            if bad == "head":
                # More bytes in flight than the ring holds.
                ring.set(shm.HEAD, (ring.pos + ring.cap + 64) & 0xFFFFFFFF)
                words = "head is beyond the ring"
            else:
                # A chunk longer than 65536.
                ring.copy_in(ring.pos, struct.pack(">I", 70000))
                ring.set(shm.HEAD, (ring.pos + 8) & 0xFFFFFFFF)
                words = "a chunk of 70000 bytes"
            with pytest.raises(haptix.CannotRecv, match=words):
                conn.read_event(timeout=0)
            assert not conn.connected


def _offer(size, seals):
    """Descriptors as a daemon would pass them: a memfd of size bytes
    with seals, and two pipes' ends."""
    fd = os.memfd_create("test", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    os.ftruncate(fd, size)
    if seals:
        fcntl.fcntl(fd, 1033, seals)        # F_ADD_SEALS
    a = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    b = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    others = [a[0], b[1]]
    return [fd, a[1], b[0]], others


def test_the_region_is_checked_before_it_is_mapped():
    ring = 256 * 1024
    size = 2 * 256 + 2 * ring
    for seals, got, words in (
            (shm.SEALS, size, None),
            (shm.F_SEAL_SHRINK | shm.F_SEAL_GROW, size, "not sealed"),
            (shm.SEALS, size + 4096, "not of the size announced"),
            (shm.SEALS, size - 4096, "not of the size announced")):
        fds, others = _offer(got, seals)
        try:
            if words is None:
                link = shm.Link(fds, ring, ring, None)
                assert link.out.cap == ring and link.inp.base == 256 + ring
                link.close()
            else:
                with pytest.raises(shm.Refused, match=words):
                    shm.Link(fds, ring, ring, None)
            # All three taken, whatever the outcome.
            for fd in fds:
                with pytest.raises(OSError):
                    os.fstat(fd)
        finally:
            for fd in others:
                os.close(fd)
    fds, others = _offer(size, shm.SEALS)
    with pytest.raises(shm.Refused, match="rings of 1000"):
        shm.Link(fds, 1000, ring, None)
    for fd in others:
        os.close(fd)


def test_a_close_from_another_thread_ends_a_wait(fixture_server):
    # A watchdog (hxsweep's --trial-timeout) closes a connection that
    # another thread waits on: the wait ends within a sleep's slice.
    sim = fixture_server.connect(name="watched")
    assert sim.conn.shm
    sim.subscribe(events=["message"])
    watchdog = threading.Timer(0.2, sim.close)
    watchdog.start()
    t0 = time.monotonic()
    with pytest.raises(haptix.CannotRecv, match="the connection was closed"):
        sim.conn.next_event(timeout=None)
    assert time.monotonic() - t0 < 5
    watchdog.join()
    assert not sim.connected


def test_the_daemon_wakes_a_sleeping_client(fixture_server, monkeypatch):
    # No spin, and calls that take the daemon a while (20 steps): every
    # answer is waited for asleep, and the daemon must wake the client
    # through its pipe.  Were the wake-ups lost, each call would wait for
    # a sleep's 10 ms slice to end: 100 calls, a second at least.
    monkeypatch.setenv("HAPTIX_SHM_SPIN_US", "0")
    with fixture_server.connect(name="asleep") as sim:
        assert sim.conn.shm and sim.conn._shm.spin == 0
        sim.pause()
        sim.step(20)
        t0 = time.monotonic()
        for _ in range(100):
            sim.step(20)
        took = time.monotonic() - t0
        sim.reset()
        assert took < 0.5


def test_a_close_keeps_the_memory_while_a_wait_holds_it(fixture_server):
    # A close from another thread while a call is inside the link: the
    # region and the pipes stay until that call leaves, so that its next
    # access fails cleanly rather than reading an unmapped region or a
    # descriptor number some new file has taken.
    sim = fixture_server.connect(name="held")
    link = sim.conn._shm
    pipes = (link.wake_in, link.wake_out)
    assert link.enter()
    sim.close()
    assert link.closed and not link.enter()
    for fd in pipes:
        os.fstat(fd)                # still ours
    assert link.inp.ready() in (True, False)   # still mapped
    link.leave()
    for fd in pipes:
        with pytest.raises(OSError):
            os.fstat(fd)
    with pytest.raises(ValueError):
        link.inp.ready()


def test_a_hundred_thousand_calls_keep_the_rings_whole(fixture_server):
    # The rings' positions were stored with struct.pack_into, which
    # clears the bytes before it writes them: a daemon reading between
    # the two saw a head of 0 and closed the connection, "it broke its
    # shared-memory ring", about once in ten thousand calls.  Each call
    # here moves both rings on; they wrap many times.
    with fixture_server.connect(name="many") as sim:
        assert sim.conn.shm
        sim.pause()
        call = sim.conn.call
        for _ in range(100000):
            call("get_state")
        assert sim.conn._shm.out.pos > 4 * sim.conn._shm.out.cap


def test_a_wait_spins_only_for_an_answer_it_can_meet(fixture_server):
    # The spin before a sleep: twice the last answers' time when they
    # came within SPIN_LONG_NS; none when they took longer (a spin could
    # not meet them and would take a CPU from the daemons of a
    # VectorEnv); the ordinary spin for an event; none past a deadline.
    with fixture_server.connect(name="budget") as sim:
        link = sim.conn._shm
        link.spin = 50000
        link.sent_ns = 1                # an answer is awaited
        link.wait_ns = 100000
        assert link._budget(None) == 200000
        link.wait_ns = 10000
        assert link._budget(None) == 50000
        link.wait_ns = shm.SPIN_LONG_NS + 1
        assert link._budget(None) == 0
        link.sent_ns = 0                # an event
        assert link._budget(None) == 50000
        assert link._budget(time.monotonic() - 1) == 0
