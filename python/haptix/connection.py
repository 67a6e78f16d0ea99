"""One connection to haptixd: the socket, framing, the handshake, calls.

Every frame is a 4-byte big-endian length and one protobuf message
(docs/protocol.md).  The client says Hello first, with the token read
from ``$HAPTIX_TOKEN_FILE`` (or given) and the lease token of
``$HAPTIX_LEASE``, as libhaptix does.  Answers come in the order of the
requests; frames with id 0 are events, kept in a queue until read, or
errors about the connection, raised by the call that meets them.

On a Unix socket the frames travel in shared memory when the daemon
offers it (haptix/shm.py; docs/protocol.md, "Shared memory"): asked for
on every Unix address unless ``$HAPTIX_SHM=0``, required by ``shm:``.

A ``tls:`` address speaks the same over TLS (haptix/tls.py).  A token
never goes in the clear over TCP to a peer beyond loopback unless
``$HAPTIX_ALLOW_CLEARTEXT_TOKEN=1``, as libhaptix.
"""

import array
import collections
import os
import socket
import ssl
import struct
import time

from . import address, shm, tls, wire
from .errors import (BadProtocol, CannotRecv, CannotSend, NoConnection,
                     Timeout, BadSize, error_for)
from .proto import pb

PROTOCOL_VERSION = pb.PROTOCOL_VERSION_CURRENT

# What a call says when another thread closed the connection under it.
_CLOSED_RECV = "cannot receive from the server: the connection was closed"
_CLOSED_SEND = "cannot send to the server: the connection was closed"

MAX_FRAME = 256 * 1024 * 1024   # as libhaptix: checked before allocating
MAX_EVENTS = 4096               # kept unread; the oldest goes beyond
TOKEN_MAX = 4096
_HEADER = struct.Struct(">I")
_ID, _RESULT = (pb.Response.DESCRIPTOR.fields_by_name[n].number
                for n in ("id", "result"))
_FIELDS = {f.number for f in pb.Response.DESCRIPTOR.fields}
_TIMEVAL = struct.Struct("@ll")     # struct timeval, for SO_RCVTIMEO
# Calls after which the server works before answering: no timeout.
_WORKS = {"batch", "load_model", "edit_model", "hold", "release"}
# Room for the descriptors that come beside the Welcome (and a few more,
# to be closed).
_FDS_ROOM = socket.CMSG_SPACE(16 * array.array("i").itemsize)
# The varints of one byte (request ids and small lengths), made once.
_SMALL = [bytes((n,)) for n in range(0x80)]


def _varint(n):
    """n as a protobuf varint."""
    if n < 0x80:
        return _SMALL[n]
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


_TAGS = {}


def _call_tag(call):
    """The key of the Request field named call (length-delimited)."""
    tag = _TAGS.get(call)
    if tag is None:
        number = pb.Request.DESCRIPTOR.fields_by_name[call].number
        tag = _TAGS[call] = _varint(number << 3 | 2)
    return tag


def _answered(body, rid):
    """The Response in body read from its bytes (haptix.wire) without
    decoding it: its fields' runs by number when it answers request rid
    without an error; else None (decode it)."""
    try:
        top = wire.runs(body, (0, len(body)), _FIELDS)
    except ValueError:
        return None
    ids, results = top.get(_ID, ()), top.get(_RESULT, ())
    if len(ids) == 1 and ids[0][:2] == (wire.VARINT, rid) and all(
            r[:2] == (wire.VARINT, 0) for r in results):
        return top
    return None


def read_token_file(path):
    """A token file's content without trailing white space (bytes)."""
    try:
        with open(path, "rb") as f:
            data = f.read(TOKEN_MAX)
    except OSError as e:
        raise NoConnection("cannot read the token file %s ($HAPTIX_TOKEN_FILE):"
                           " %s" % (path, e.strerror)) from None
    return data.rstrip(b" \t\r\n")


class Connection:
    """A framed, handshaken connection; see :func:`haptix.connect`."""

    def __init__(self, server=None, name="python", token=None, timeout=10.0,
                 lease_token=None, tls_ca=None, tls_pin=None, tls_cert=None,
                 tls_key=None):
        self.timeout = timeout
        self.address = address.parse(server)
        self._tls = tls.Settings(tls_ca, tls_pin, tls_cert, tls_key)
        self.welcome = None
        self.events = collections.deque()
        self.events_lost = 0
        self._rbuf = bytearray()
        self._rcvtimeo = 0.0            # the socket's SO_RCVTIMEO, 0: none
        self._next_id = 0
        self._sock = None
        self._want_shm = self._wants_shm()
        self._fds = []                  # came beside the Welcome
        self._shm = None                # shm.Link: frames in shared memory
        self.error = ""
        self.model_changed = False      # a model event came: see Sim.model
        self._open()
        try:
            self.welcome = self._hello(name, token, lease_token)
        except BaseException:
            self._drop()
            raise

    # The socket.

    def _wants_shm(self):
        """Shared memory is asked for by shm:, and on a unix: address
        unless $HAPTIX_SHM is 0; never over TCP; and only on a CPU whose
        memory order haptix/shm.py relies on."""
        if self.address[0] not in ("unix", "shm") or not shm.SUPPORTED:
            return False
        return self.address[0] == "shm" or \
            os.environ.get("HAPTIX_SHM") != "0"

    def _open(self):
        where = address.format(self.address)
        if self.address[0] == "shm" and not shm.SUPPORTED:
            raise NoConnection(
                "%s: this client has no shared-memory transport on this "
                "CPU (%s): use unix:%s"
                % (where, shm.platform.machine(), self.address[1]))
        try:
            if self.address[0] in ("unix", "shm"):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(self.timeout)
                try:
                    s.connect(self.address[1])
                except OSError:
                    s.close()
                    raise
            else:
                s = socket.create_connection(self.address[1:],
                                             timeout=self.timeout)
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except socket.timeout:
            raise NoConnection("no server at %s: timed out" % where) from None
        except OSError as e:
            raise NoConnection("no server at %s: %s"
                               % (where, e.strerror or e)) from None
        if self.address[0] == "tls":
            s = tls.start(s, self.address[1], self._tls, where)
        s.settimeout(None)
        self._sock = s

    def _drop(self):
        if self._shm is not None:
            self._shm.close()
            self._shm = None
        self._close_fds()
        if self.tls:
            tls.goodbye(self._sock)
        if self._sock is not None:
            self._sock.close()
        self._sock = None
        self._rbuf.clear()

    def close(self):
        """Close the connection; later calls raise NoConnection."""
        self._drop()
        self.error = "closed"

    @property
    def connected(self):
        """True while the connection is up."""
        return self._sock is not None

    def fileno(self):
        """The descriptor for select(): the socket's, or over shared
        memory the read end of our wake pipe.

        What select() cannot see: events already queued, bytes read and
        not yet a frame, (over TLS) records decrypted and not yet read,
        and (over shared memory) what the answer ring holds already;
        :meth:`pending` says when any is there.  Call pending() before
        each select(): when it says False, select() wakes for whatever
        comes next.  Over shared memory the daemon writes the wake pipe
        only to a client that said it sleeps: pending() (and fileno())
        say so, after looking at the ring once more; what was in the
        ring before is not announced, hence pending() first.  The pipe
        may be readable with nothing to read (a wake-up meant for a
        wait that has ended): read with a timeout, or call pending()
        again, which empties it.
        """
        if self._shm is not None:
            self._shm.arm()
            return self._shm.wake_in
        return self._sock.fileno() if self._sock is not None else -1

    def pending(self):
        """True when something is read and waiting, which select() on
        :meth:`fileno` would not show: events queued, a frame begun, TLS
        records decrypted, bytes in the answer ring (or, over shared
        memory, the daemon gone: the next read reports it).  False means
        select() on fileno() will wake when something comes."""
        if self.events or self._rbuf:
            return True
        if self._shm is not None:
            return self._shm.pending()
        return bool(self.tls and self._sock.pending())

    @property
    def shm(self):
        """True when the frames travel in shared memory."""
        return self._shm is not None

    @property
    def tls(self):
        """True when the connection is TLS."""
        return isinstance(self._sock, ssl.SSLSocket)

    def _hello(self, name, token, lease_token):
        if token is None:
            path = os.environ.get("HAPTIX_TOKEN_FILE", "")
            token = read_token_file(path) if path else b""
        elif isinstance(token, str):
            token = token.encode()
        if token:
            self._token_in_clear()
        if lease_token is None:
            lease_token = os.environ.get("HAPTIX_LEASE", "")
        hello = pb.Hello(protocol_version=PROTOCOL_VERSION,
                         client_name=name or "", token=token,
                         http_stop=b"\r\n\r\n", lease_token=lease_token,
                         shm=self._want_shm)
        r = self.call("hello", hello)
        if r.WhichOneof("payload") != "welcome":
            self._drop()
            raise BadProtocol("the server did not answer Hello with Welcome")
        try:
            if r.welcome.HasField("shm"):
                self._shm_start(r.welcome.shm)
            elif self.address[0] == "shm":
                raise NoConnection(
                    "%s: the server offers no shared memory (it runs with "
                    "--no-shm, or predates it): use unix:%s"
                    % (address.format(self.address), self.address[1]))
        finally:
            self._close_fds()
        return r.welcome

    def _shm_start(self, offer):
        """Take the shared memory offered with the Welcome's descriptors."""
        if len(self._fds) != shm.NFDS:
            raise BadProtocol("the server offered shared memory without its "
                              "%d descriptors" % shm.NFDS)
        fds, self._fds = self._fds, []
        try:
            self._shm = shm.Link(fds, offer.request_ring, offer.answer_ring,
                                 self._sock)
        except shm.Refused as e:
            raise BadProtocol("cannot take the shared memory offered: %s"
                              % e) from None
        if self._rbuf:
            raise BadProtocol("the server wrote to the socket after its "
                              "Welcome")

    def _close_fds(self):
        for fd in self._fds:
            os.close(fd)
        self._fds = []

    def _recv_fds(self, size):
        """One recvmsg() before the Welcome of a connection that asked for
        shared memory, keeping the descriptors that come beside it."""
        data, anc, flags, _ = self._sock.recvmsg(
            size, _FDS_ROOM, getattr(socket, "MSG_CMSG_CLOEXEC", 0))
        for level, kind, fdata in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds = array.array("i")
                fds.frombytes(fdata[:len(fdata) - len(fdata) % fds.itemsize])
                self._fds.extend(fds)
        if flags & socket.MSG_CTRUNC:
            self._close_fds()       # some lost: the offer is refused
        return data

    def _token_in_clear(self):
        """Refuse to send a token over plain TCP beyond loopback.

        The peer the socket reached is judged, not the name given;
        ``$HAPTIX_ALLOW_CLEARTEXT_TOKEN=1`` allows it.
        """
        if self.address[0] != "tcp":
            return
        try:
            peer = self._sock.getpeername()[0]
        except OSError:
            peer = ""
        if address.is_loopback(peer) or \
                os.environ.get("HAPTIX_ALLOW_CLEARTEXT_TOKEN") == "1":
            return
        where = address.format(self.address)
        raise NoConnection(
            "refusing to send the token in the clear to %s (not loopback): "
            "use tls:%s, or set HAPTIX_ALLOW_CLEARTEXT_TOKEN=1"
            % (where, where[4:]))

    def _tls_hint(self):
        """Before Welcome, a plain TCP server that broke the connection
        may be a TLS port: a hint for the error, as libhaptix."""
        if self.welcome is None and self.address[0] == "tcp":
            return " (or a TLS port: then use tls:HOST:PORT)"
        return ""

    def _fail_tls(self, e, what, exc):
        """A TLS error after the handshake: before Welcome the server
        refused us (our client certificate), a NoConnection; after it,
        exc (CannotRecv, CannotSend)."""
        if what == "write" and self.welcome is None:
            # Refused after the handshake: the server's alert says why.
            try:
                self._sock.settimeout(1)
                self._sock.recv(1)
            except ssl.SSLError as alert:
                e = alert if alert.reason else e
            except OSError:
                pass
        why = tls.failure(e, self._tls, what)
        if self.welcome is None:
            self._fail_recv(NoConnection("TLS with %s: %s" % (
                address.format(self.address), why)))
        verb = "receive from" if what == "read" else "send to"
        self._fail_recv(exc("cannot %s the server: %s" % (verb, why)))

    # Reading frames.

    def _fail_recv(self, exc):
        self._drop()
        self.error = str(exc)
        raise exc

    def _foreign(self):
        """Raise when what came is text: another protocol, not haptixd."""
        head = bytes(self._rbuf[:4])
        if not all(32 <= b < 127 or b in b"\t\r\n" for b in head):
            return
        line = bytes(self._rbuf[:80]).split(b"\r")[0].split(b"\n")[0]
        text = "".join(chr(b) if 32 <= b < 127 else "?" for b in line)
        hint = (" (an HTTP server; haptixd listens on 5790 by default)"
                if text.startswith("HTTP/") or text.startswith("<") else "")
        self._fail_recv(BadProtocol(
            'the server does not speak the haptixd protocol: it sent "%s"%s'
            % (text, hint)))

    def _read_frame(self, deadline, what):
        """Read one whole frame and decode it as a Response."""
        return self._decode(self._read_body(deadline, what))

    def _decode(self, body):
        """A frame's bytes as a Response."""
        r = pb.Response()
        try:
            r.ParseFromString(body)
        except Exception:
            self._fail_recv(CannotRecv(
                "the server sent a message that does not decode "
                "(%d bytes)" % len(body)))
        return r

    def _read_body(self, deadline, what):
        """Read one whole frame: its bytes."""
        while True:
            if len(self._rbuf) >= 4:
                (n,) = _HEADER.unpack_from(self._rbuf)
                if n > MAX_FRAME:
                    self._foreign()
                    self._fail_recv(CannotRecv(
                        "the server sent a %d-byte frame, more than the "
                        "%d-byte limit" % (n, MAX_FRAME)))
                if len(self._rbuf) >= 4 + n:
                    body = bytes(self._rbuf[4:4 + n])
                    del self._rbuf[:4 + n]
                    return body
            link = self._shm
            if link is not None:
                self._recv_shm(link, deadline, what)
                continue
            if self._sock is None:
                # Closed by another thread meanwhile.
                raise CannotRecv(_CLOSED_RECV)
            self._recv_timeout(deadline, what)
            size = (max(65536, 4 + n - len(self._rbuf))
                    if len(self._rbuf) >= 4 else 65536)
            try:
                if self._want_shm and self.welcome is None:
                    chunk = self._recv_fds(size)
                else:
                    chunk = self._sock.recv(size)
            except InterruptedError:
                continue
            except (BlockingIOError, socket.timeout):
                raise Timeout(what) from None
            except ssl.SSLError as e:
                self._fail_tls(e, "read", CannotRecv)
            except OSError as e:
                self._fail_recv(CannotRecv("cannot receive from the server: "
                                           "%s%s" % (e.strerror or e,
                                                     self._tls_hint())))
            if not chunk:
                self._fail_recv(CannotRecv(
                    "the server closed the connection%s" % self._tls_hint()
                    if self._next_id > 1 else
                    "the server closed the connection without answering "
                    "Hello: is this a haptixd%s?" % self._tls_hint()))
            self._rbuf += chunk

    def _recv_shm(self, link, deadline, what):
        """Read what the answer ring of link holds into the buffer,
        waiting for it until deadline (None: for ever).  When the socket
        says the daemon has gone, what it wrote before is still read
        first.  A close from another thread ends the wait."""
        if not link.enter():
            raise CannotRecv(_CLOSED_RECV)
        try:
            self._recv_shm_held(link, deadline, what)
        finally:
            link.leave()

    def _recv_shm_held(self, link, deadline, what):
        while True:
            try:
                if link.read(self._rbuf):
                    return
                rc = link.wait_readable(deadline)
                if rc == 1:
                    continue
                if link.read(self._rbuf):
                    return
            except shm.Broken as e:
                self._fail_recv(CannotRecv(
                    "cannot receive from the server: its answer ring is "
                    "broken (%s)" % e))
            except (OSError, ValueError, TypeError):
                if not link.closed:
                    raise
                # Closed by another thread (a watchdog that killed the
                # daemon, say) while this one waited.
                raise CannotRecv(_CLOSED_RECV) from None
            if link.closed:
                raise CannotRecv(_CLOSED_RECV)
            if rc == 0:
                raise Timeout(what)
            self._fail_recv(CannotRecv("the server closed the connection"))

    def _recv_timeout(self, deadline, what):
        """Let the next recv wait until deadline (None: for ever).

        The kernel keeps the wait (SO_RCVTIMEO), so that waiting for an
        answer is one recv, not a select and a recv; it is set again only
        when it changes: a new timeout, or a frame that comes in parts.
        Over TLS the SSLSocket's own timeout holds it instead: SSL reads
        what it holds decrypted first and waits on the socket only for
        more (SO_RCVTIMEO under a blocking SSLSocket would retry for
        ever).
        """
        if deadline is None:
            want = 0.0
        else:
            want = deadline - time.monotonic()
            if want <= 0:
                raise Timeout(what)
            if self._rcvtimeo and abs(want - self._rcvtimeo) < 0.001:
                return
        if want == self._rcvtimeo:
            return
        if self.tls:
            self._sock.settimeout(want or None)
            self._rcvtimeo = want
            return
        sec = int(want)
        usec = int((want - sec) * 1e6)
        if want > 0 and sec == 0 and usec == 0:
            usec = 1
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO,
                              _TIMEVAL.pack(sec, usec))
        self._rcvtimeo = want

    def _saw_event(self, r):
        if r.event.WhichOneof("kind") == "model":
            self.model_changed = True
        return r

    def _queue_event(self, r):
        self._saw_event(r)
        if len(self.events) == MAX_EVENTS:
            self.events.popleft()
            self.events_lost += 1
        self.events.append(r)

    # Calls.

    def _check_open(self):
        if self._sock is None:
            why = self.error
            raise NoConnection("not connected" + (": " + why if why and
                                                  why != "closed" else ""))

    def send(self, call, msg):
        """Send one request (a message, or its bytes); return its id.

        The Request is written here as protobuf encodes it (its id, field
        1, then the call's field holding the serialized message), rather
        than made and serialized as a message: the copy of the payload
        into it was a fifth of a small call's time in Python.
        """
        self._check_open()
        self._next_id += 1
        payload = msg if isinstance(msg, (bytes, bytearray)) \
            else msg.SerializeToString()
        head = b"".join((b"\x08", _varint(self._next_id), _call_tag(call),
                         _varint(len(payload))))
        size = len(head) + len(payload)
        if size > MAX_FRAME:
            raise BadSize("request of %d bytes is larger than the %d-byte "
                          "frame limit" % (size, MAX_FRAME))
        frame = b"".join((_HEADER.pack(size), head, payload))
        link = self._shm
        if link is not None:
            self._send_shm(link, frame)
            return self._next_id
        if self._rcvtimeo and self.tls:
            # A read's timeout would bound the send too: none, as in
            # the clear.
            self._sock.settimeout(None)
            self._rcvtimeo = 0.0
        try:
            self._sock.sendall(frame)
        except ssl.SSLError as e:
            self._fail_tls(e, "write", CannotSend)
        except OSError as e:
            self._drop()
            self.error = "cannot send to the server: %s" % (e.strerror or e)
            raise CannotSend(self.error) from None
        return self._next_id

    def _send_shm(self, link, frame):
        """Write a frame into the request ring of link, waiting for
        room.  A close from another thread ends the wait."""
        closed = CannotSend(_CLOSED_SEND)
        if not link.enter():
            raise closed
        try:
            if link.write(frame):
                return
            if link.closed:
                raise closed
            why = "it closed the connection"
        except shm.Broken as e:
            why = "its request ring is broken (%s)" % e
        except (OSError, ValueError, TypeError):
            if not link.closed:
                raise
            # Closed by another thread while this one waited for room.
            raise closed from None
        finally:
            link.leave()
        self._drop()
        self.error = "cannot send to the server: " + why
        raise CannotSend(self.error)

    def call(self, call, msg=None, timeout=-1):
        """Send a request and return its Response; raise on failure.

        ``timeout`` in seconds, ``None`` for none; by default the
        connection's, and none for calls that work before answering
        (batch runs, loads, edits).
        """
        if msg is None:
            msg = pb.Empty()
        return self.wait(self.send(call, msg), call, timeout)

    def wait(self, rid, call, timeout=-1, raw=False):
        """The Response to request ``rid`` (from :meth:`send`) of
        ``call`` (``raw``: its bytes and their fields' runs by number, as
        haptix.wire reads them); raise on failure.
        Events that come first are queued; answers to other requests are
        dropped, so one request at a time may wait on a connection.
        ``timeout`` as for :meth:`call`."""
        if timeout == -1:
            timeout = None if call in _WORKS else self.timeout
        deadline = None if not timeout else time.monotonic() + timeout
        what = ("no answer to Hello within %g s: is this a haptixd?"
                % (timeout or 0) if call == "hello" else
                "no answer from the server within %g s" % (timeout or 0))
        while True:
            body = self._read_body(deadline, what)
            if raw:
                top = _answered(body, rid)
                if top is not None:
                    return body, top
            r = self._decode(body)
            if r.id == rid:
                break
            if r.id == 0 and r.result != 0:
                break       # about the connection: report it
            if r.id == 0 and r.WhichOneof("payload") == "event":
                self._queue_event(r)
            # else the late answer to a call that timed out
        if r.result != 0:
            raise error_for(r.result, r.error)
        return (body, wire.runs(body, (0, len(body)), _FIELDS)) if raw \
            else r

    def next_event(self, timeout=None):
        """The next event Response (id 0), waiting at most timeout seconds
        (None: as long as it takes; 0: not at all).  Raises Timeout."""
        if self.events:
            return self.events.popleft()
        return self.read_event(timeout)

    def read_event(self, timeout=None):
        """Read the next event from the socket, past the queue."""
        self._check_open()
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            r = self._read_frame(deadline, "no event within %g s" %
                                 (timeout or 0))
            if r.id == 0 and r.result == 0 and \
                    r.WhichOneof("payload") == "event":
                return self._saw_event(r)
            if r.id == 0 and r.result != 0:
                raise error_for(r.result, r.error)
