"""The shared-memory transport, the client's side (docs/protocol.md,
"Shared memory"), as libhaptix's lib/conn_shm.c, shmlink.c, shmring.c.

After the Welcome, requests go into the request ring and answers come
from the answer ring, in chunks (a 4-byte big-endian length, at most
65536, and that many bytes) of the byte stream the socket would carry.
A wait spins a little (the daemon usually answers within microseconds),
then sleeps in poll() on the wake pipe and the socket, whose end says
the daemon has gone.

Memory ordering.  CPython cannot emit fences, and the protocol needs
two orders:

- the bytes of a chunk before the ``head`` that publishes them, and
  ``tail`` after the bytes read (release and acquire).  Each field is
  read and written whole, as an item of a memoryview of format ``I``
  over the control block: CPython's memoryview reads and writes an item
  with one 4-byte memcpy, one aligned load or store, which cannot tear.
  Not ``struct.pack_into``, which clears the bytes it packs before it
  writes them: the daemon, reading between the two, saw a head of 0
  and closed the connection for a broken ring (one call in some ten
  thousand).
  On x86 (total store order) stores are seen in the order made and
  loads are not reordered with other loads, so program order is
  enough.  A weakly ordered CPU (ARM) would need real fences: this
  client asks for shared memory on x86 only (:data:`SUPPORTED`).
- a full barrier (StoreLoad) between storing ``waiting = 1`` and looking
  at ``head`` again, and between publishing ``head`` and reading
  ``waiting`` (and the same with ``wants`` and ``tail``): without it
  each side may read the other's flag from before its store, and a
  wake-up is lost.  :func:`_barrier` takes and releases a
  ``threading.Lock``: in CPython that is an atomic read-modify-write on
  the lock's word (a ``lock``-prefixed instruction on x86-64, which is a
  full barrier).  Should a wake-up be missed anyway, every sleep lasts
  at most :data:`SLICE` and then looks at the ring again: a miss costs
  one slice, never a hang.
"""

import fcntl
import mmap
import os
import platform
import select
import socket
import stat
import struct
import threading
import time

# The CPUs whose memory order this module relies on (see above).
SUPPORTED = platform.machine().lower() in (
    "x86_64", "amd64", "i386", "i486", "i586", "i686", "x86") and \
    struct.calcsize("@I") == 4

NFDS = 3                # the memfd, the daemon's wake pipe, ours
CHUNK_MAX = 65536       # a chunk's largest payload
RING_MIN = 2 * CHUNK_MAX
RING_MAX = 64 * 1024 * 1024
CTL = 256               # a ring's control block: head, tail, waiting, wants
HEAD, TAIL, WAITING, WANTS = 0, 64, 128, 192
SLICE = 0.010           # the longest sleep before the ring is looked at again
SPIN_US = 50            # the spin before a sleep, by default
SPIN_LONG_NS = 500000   # answers taking up to this long: spin twice that;
                        # longer ones: no spin (see conn_shm.c)
YIELD_TAKEN_NS = 50000  # a yield this long gave the CPU away: stop spinning
READ_CHUNKS = 64        # chunks read at once at most

F_GET_SEALS = getattr(fcntl, "F_GET_SEALS", 1034)
F_SEAL_SEAL, F_SEAL_SHRINK, F_SEAL_GROW = 1, 2, 4
SEALS = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW

_LEN = struct.Struct(">I")      # a chunk's length: big-endian
_MASK = 0xFFFFFFFF

_lock = threading.Lock()


def _barrier():
    """A full memory barrier: a locked read-modify-write (see above)."""
    _lock.acquire()
    _lock.release()


def spin_ns():
    """How long a wait spins: ``$HAPTIX_SHM_SPIN_US``, else 50 us."""
    v = os.environ.get("HAPTIX_SHM_SPIN_US", "")
    if v.isdigit() and int(v) <= 1000000:
        return int(v) * 1000
    return SPIN_US * 1000


class Broken(Exception):
    """The shared memory holds something impossible: a position beyond
    the ring, or a chunk too long.  The connection must go."""


class Refused(Exception):
    """The shared memory offered cannot be taken: why."""


class Ring:
    """One ring in the region at ``base``: ``cap`` data bytes.  ``pos``
    is this side's own position (head for the producer, tail for the
    consumer), kept here and only published to the ring."""

    def __init__(self, mem, base, cap):
        self.mem = mem
        self.base = base
        # The control block's fields, each read and written whole.
        self.ctl = memoryview(mem)[base:base + CTL].cast("I")
        self.data = base + CTL
        self.cap = cap
        self.pos = 0

    def get(self, field):
        return self.ctl[field >> 2]

    def set(self, field, value):
        self.ctl[field >> 2] = value

    def copy_in(self, at, b):
        """Write bytes b at position at, wrapping at the data's end."""
        off = at & (self.cap - 1)
        first = min(len(b), self.cap - off)
        mem, d = self.mem, self.data
        mem[d + off:d + off + first] = b[:first] if first < len(b) else b
        if first < len(b):
            mem[d:d + len(b) - first] = b[first:]

    def copy_out(self, at, n):
        """n bytes from position at, wrapping at the data's end."""
        off = at & (self.cap - 1)
        d = self.data
        if off + n <= self.cap:
            return self.mem[d + off:d + off + n]
        first = self.cap - off
        return self.mem[d + off:d + self.cap] + self.mem[d:d + n - first]

    def ready(self):
        """True when the producer has published bytes not read yet."""
        return self.ctl[0] != self.pos

    def room(self):
        """Bytes a chunk put now could carry (its header apart); raises
        Broken for an impossible tail."""
        used = (self.pos - self.get(TAIL)) & _MASK
        if used > self.cap:
            raise Broken("its tail is beyond the ring")
        return max(self.cap - used - 4, 0)

    def put(self, b):
        """Put one chunk of b (at most room()); publish it."""
        n, pos, mem = len(b), self.pos, self.mem
        off = pos & (self.cap - 1)
        if off + 4 + n <= self.cap:
            at = self.data + off
            _LEN.pack_into(mem, at, n)
            mem[at + 4:at + 4 + n] = b
        else:
            self.copy_in(pos, _LEN.pack(n))
            self.copy_in(pos + 4, b)
        self.pos = pos = (pos + 4 + n) & _MASK
        self.ctl[0] = pos

    def get_chunks(self, out):
        """Append the chunks published to bytearray out (those before the
        head read once, at most READ_CHUNKS, so that a writer of empty
        chunks cannot hold the reader); the bytes appended.  Raises
        Broken for an impossible head or chunk."""
        mem, cap, data = self.mem, self.cap, self.data
        start = pos = self.pos
        avail = (self.ctl[0] - pos) & _MASK
        if avail < 4:
            return 0
        if avail > cap:
            raise Broken("its head is beyond the ring")
        done = chunks = 0
        while avail >= 4 and chunks < READ_CHUNKS:
            # Read once: what is checked is what is used.
            off = pos & (cap - 1)
            if off + 4 <= cap:
                (n,) = _LEN.unpack_from(mem, data + off)
            else:
                (n,) = _LEN.unpack(self.copy_out(pos, 4))
            if n > CHUNK_MAX:
                raise Broken("a chunk of %d bytes, more than %d"
                             % (n, CHUNK_MAX))
            if avail - 4 < n:
                break
            if off + 4 + n <= cap:
                out += mem[data + off + 4:data + off + 4 + n]
            else:
                out += self.copy_out(pos + 4, n)
            pos = (pos + 4 + n) & _MASK
            avail -= 4 + n
            done += n
            chunks += 1
        if pos != start:
            self.pos = pos
            self.ctl[TAIL >> 2] = pos
        return done

    def sleep(self):
        """Say the consumer sleeps, then look again: True when bytes came
        meanwhile (it is awake again), False when it may sleep."""
        self.set(WAITING, 1)
        _barrier()
        if self.ready():
            self.set(WAITING, 0)
            return True
        return False

    def wake_needed(self):
        """After publishing head: True (and the flag cleared) when the
        consumer sleeps and must be woken."""
        _lock.acquire()     # _barrier(), without the call
        _lock.release()
        if self.ctl[WAITING >> 2] == 0:
            return False
        self.set(WAITING, 0)
        return True

    def wait_room(self, n):
        """Say the producer waits for room for n bytes, then look again:
        True when it is there (awake again)."""
        self.set(WANTS, 1)
        _barrier()
        used = (self.pos - self.get(TAIL)) & _MASK
        if used > self.cap or 4 + n <= self.cap - used:
            self.set(WANTS, 0)
            return True
        return False

    def room_wake_needed(self):
        """After publishing tail: True (and the flag cleared) when the
        producer waits for room and must be woken."""
        _lock.acquire()     # _barrier(), without the call
        _lock.release()
        if self.ctl[WANTS >> 2] == 0:
            return False
        self.set(WANTS, 0)
        return True


def _ring_ok(cap):
    return RING_MIN <= cap <= RING_MAX and cap & (cap - 1) == 0


class Link:
    """A connection's shared memory: the region's two rings (``out``, the
    requests; ``inp``, the answers), the daemon's wake pipe (written to
    wake it) and ours (read, woken by it), and the socket (its end says
    the daemon has gone).

    Made from the Welcome's descriptors, all taken (closed on failure,
    Refused says why).
    """

    def __init__(self, fds, request_ring, answer_ring, sock):
        self.mem = None
        self.closed = False
        self._guard = threading.Lock()  # closed and users
        self._users = 0                 # threads in a read, write or wait
        self.wake_out = fds[1]
        self.wake_in = fds[2]
        self.sock = sock
        self.sent_ns = 0        # when the last request went, 0: answered
        self.wait_ns = 0        # how long answers took lately
        self.spin = spin_ns()
        memfd = fds[0]
        try:
            if not _ring_ok(request_ring) or not _ring_ok(answer_ring):
                raise Refused("the server offered rings of %d and %d bytes"
                              % (request_ring, answer_ring))
            size = 2 * CTL + request_ring + answer_ring
            try:
                seals = fcntl.fcntl(memfd, F_GET_SEALS)
            except OSError:
                seals = 0
            if seals & SEALS != SEALS:
                raise Refused("the shared memory offered is not sealed at "
                              "its size")
            st = os.fstat(memfd)
            if not stat.S_ISREG(st.st_mode) or st.st_size != size:
                raise Refused("the shared memory offered is not of the size "
                              "announced (%d bytes)" % size)
            try:
                self.mem = mmap.mmap(memfd, size)
            except (OSError, ValueError) as e:
                raise Refused("mmap %d bytes: %s"
                              % (size, getattr(e, "strerror", None) or e))
            self.out = Ring(self.mem, 0, request_ring)
            self.inp = Ring(self.mem, CTL + request_ring, answer_ring)
            for r in (self.out, self.inp):
                if r.get(HEAD) != 0 or r.get(TAIL) != 0:
                    raise Refused("the shared memory offered is not new")
        except BaseException:
            self.close()
            raise
        finally:
            os.close(memfd)     # the mapping keeps the memory

    def enter(self):
        """Begin a use of the link (a read, a write, a wait), which
        holds the memory and the pipes until leave(); False when the
        link is closed."""
        with self._guard:
            if self.closed:
                return False
            self._users += 1
            return True

    def leave(self):
        """End a use; the last one out of a closed link lets it go."""
        with self._guard:
            self._users -= 1
            last = self.closed and self._users == 0
        if last:
            self._release()

    def close(self):
        """Close the link.  A thread using it meanwhile (enter()) wakes:
        the socket is shut down under its poll, and each sleep looks at
        ``closed``; it fails its call, and the last one out unmaps the
        region and closes the pipes, whose descriptors no other thread
        can then be using (nor a new file have taken their numbers)."""
        with self._guard:
            if self.closed:
                return
            self.closed = True
            busy = self._users
        if not busy:
            self._release()
            return
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _release(self):
        for r in (getattr(self, "out", None), getattr(self, "inp", None)):
            if r is not None:
                r.ctl.release()     # an export would keep the map open
        if self.mem is not None:
            self.mem.close()    # kept: the rings' accesses now fail
        for fd in (self.wake_out, self.wake_in):
            if fd != -1:
                os.close(fd)
        self.wake_out = self.wake_in = -1

    # Waking.

    def kick(self):
        """Wake the daemon: one byte into its pipe (a full pipe has woken
        it already)."""
        try:
            os.write(self.wake_out, b"\0")
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            pass        # its end is gone: the socket will say so

    def drain(self):
        """Empty our wake pipe without blocking; False when the daemon's
        end of it is closed (the daemon has gone)."""
        while True:
            try:
                b = os.read(self.wake_in, 4096)
            except (BlockingIOError, InterruptedError):
                return True
            if not b:
                return False
            if len(b) < 4096:
                return True

    def _poll(self, timeout):
        """Sleep in poll() on our wake pipe and the socket, timeout in
        seconds: 1 woken or timed out, -1 the daemon has gone."""
        p = select.poll()
        p.register(self.wake_in, select.POLLIN)
        p.register(self.sock, select.POLLIN)
        try:
            got = p.poll(max(int(timeout * 1000 + 0.999), 0))
        except InterruptedError:
            return 1
        gone = False
        for fd, ev in got:
            if fd == self.wake_in:
                if not self.drain():
                    gone = True
            elif ev:
                gone = True
        return -1 if gone else 1

    def _spin(self, ready, spin):
        """Look at ready() until it is true or spin (ns) is over: True
        when ready.  Later turns yield the CPU, so that a daemon on the
        same CPU gets it at once; a yield that took long shows others
        want the CPU, and the spin ends."""
        if ready():
            return True
        if spin == 0:
            return False
        clock = time.monotonic_ns
        until = clock() + spin
        i = 0
        while True:
            if ready():
                return True
            now = clock()
            if now >= until:
                return False
            i += 1
            if i > 8:
                os.sched_yield()
                if clock() - now > YIELD_TAKEN_NS:
                    return ready()

    def _budget(self, deadline):
        """How long to spin: nothing past the deadline (a look without
        waiting); for an answer, twice as long as the last ones took when
        that was up to SPIN_LONG_NS, nothing when longer (the spin could
        not meet it, and takes a CPU from the daemons stepping); for an
        event, the ordinary spin."""
        if deadline is not None and deadline <= time.monotonic():
            return 0
        if self.spin == 0 or self.sent_ns == 0:
            return self.spin
        if self.wait_ns > SPIN_LONG_NS:
            return 0
        return max(2 * self.wait_ns, self.spin)

    def _sleep(self, ring_ready, arm, disarm, deadline):
        """Sleep until ring_ready(), in slices: arm() says we sleep and
        looks again (True: ready already).  1 ready (or woken), 0 at the
        deadline, -1 the daemon has gone."""
        while True:
            if arm():
                return 1
            left = SLICE
            if deadline is not None:
                left = min(left, deadline - time.monotonic())
            rc = self._poll(max(left, 0))
            disarm()
            if rc < 0 or self.closed:
                return -1
            if ring_ready():
                return 1
            if deadline is not None and time.monotonic() >= deadline:
                return 0

    # Reading.

    def read(self, out):
        """Append what the answer ring holds to bytearray out: the bytes
        appended.  Wakes the daemon should it wait for room.  Raises
        Broken."""
        n = self.inp.get_chunks(out)
        if n:
            if self.inp.room_wake_needed():
                self.kick()
            if self.sent_ns:
                took = time.monotonic_ns() - self.sent_ns
                self.sent_ns = 0
                self.wait_ns = (3 * self.wait_ns + took) // 4
        return n

    def wait_readable(self, deadline):
        """Wait until the answer ring has bytes: 1 when it has, 0 at the
        deadline (time.monotonic(), None: none), -1 when the daemon has
        gone (what it wrote before is still in the ring)."""
        inp = self.inp
        if self._spin(inp.ready, self._budget(deadline)):
            return 1
        if deadline is not None and deadline <= time.monotonic():
            return 0
        return self._sleep(inp.ready, inp.sleep,
                           lambda: inp.set(WAITING, 0), deadline)

    def pending(self):
        """True when the answer ring holds bytes, or the daemon has gone;
        else arm the wake-up first, so that the wake pipe becomes readable
        for what comes next (see Connection.fileno)."""
        inp = self.inp
        if inp.ready():
            return True
        if not self.drain():
            return True
        return inp.sleep()

    def arm(self):
        """Say we sleep, so that the daemon writes our wake pipe for what
        comes next; True when something came meanwhile."""
        return self.inp.sleep()

    # Writing.

    def _roomy(self):
        return self.out.room() >= CHUNK_MAX

    def write(self, b):
        """Write all of bytes b into the request ring, waiting for room:
        True, or False when the daemon has gone.  Raises Broken."""
        out = self.out
        n = len(b)
        used = (out.pos - out.ctl[TAIL >> 2]) \
            & _MASK
        if n <= CHUNK_MAX and used <= out.cap and n + 4 <= out.cap - used:
            # The common case, a small frame and room for it.
            out.put(b)
            if out.wake_needed():
                self.kick()
            self.sent_ns = time.monotonic_ns()
            return True
        view = memoryview(b)
        done, total = 0, len(b)
        try:
            while done < total:
                room = out.room()
                n = min(total - done, CHUNK_MAX)
                if n > room:
                    # Fill what room there is, unless the chunk is small.
                    n = room if n > 1024 else 0
                if n:
                    out.put(view[done:done + n])
                    done += n
                    if out.wake_needed():
                        self.kick()
                    continue
                if self._spin(self._roomy, self.spin):
                    continue
                rc = self._sleep(self._roomy,
                                 lambda: out.wait_room(CHUNK_MAX),
                                 lambda: out.set(WANTS, 0), None)
                if rc < 0:
                    return False
        finally:
            view.release()
        self.sent_ns = time.monotonic_ns()
        return True
