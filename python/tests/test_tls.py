"""TLS as libhaptix does it: tls: and shm: addresses; the client verifies
the server (CA and name, or a pinned fingerprint) against a Python TLS
server serving hx-test-certs' certificates, before any haptixd frame;
reads and timeouts over TLS; a client certificate; the token never sent
in the clear beyond loopback; then all of it against a real haptixd."""

import fcntl
import os
import socket
import struct
import ssl
import subprocess
import threading

import pytest

import haptix
from haptix import address, tls
from haptix.proto import pb

_TLS_VARS = ("HAPTIX_TLS_CA", "HAPTIX_TLS_PIN", "HAPTIX_TLS_CERT",
             "HAPTIX_TLS_KEY", "HAPTIX_ALLOW_CLEARTEXT_TOKEN",
             "HAPTIX_TOKEN_FILE")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    """Each test sets the client's TLS variables it wants."""
    for v in _TLS_VARS:
        monkeypatch.delenv(v, raising=False)


class Certs:
    """hx-test-certs' files in a directory: certs.path("server.pem"),
    certs.pin("server") (AB:CD:...)."""

    def __init__(self, dir):
        self.dir = dir

    def path(self, name):
        return os.path.join(self.dir, name)

    def pin(self, name):
        with open(self.path(name + ".sha256")) as f:
            return f.read().strip()


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    build = os.environ.get("HX_BUILD")
    if not build:
        pytest.fail("HX_BUILD is not set: run by make check (tests/python.sh)")
    tool = os.path.join(build, "tests", "hx-test-certs")
    if not os.access(tool, os.X_OK):
        pytest.fail("%s is missing: make tests/hx-test-certs in the build "
                    "tree (make check builds it)" % tool)
    dir = str(tmp_path_factory.mktemp("certs"))
    subprocess.run([tool, dir], check=True, stdout=subprocess.DEVNULL)
    return Certs(dir)


def _frame(msg):
    body = msg.SerializeToString()
    return len(body).to_bytes(4, "big") + body


WELCOME = _frame(pb.Response(id=1, welcome=pb.Welcome(session_id=7)))
EVENT = _frame(pb.Response(id=0, event=pb.Event()))


class TlsServer:
    """A TLS listener on 127.0.0.1 serving certs' name.pem; after each
    handshake it answers as told (``answer``: bytes sent as separate
    TLS records, a list) or not at all.  ``client_ca``: require a client
    certificate signed by it.  ``got`` holds what clients sent."""

    def __init__(self, certs, name, answer=(WELCOME,), client_ca=None):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(certs.path(name + ".pem"),
                            certs.path(name + ".key"))
        if client_ca:
            ctx.verify_mode = ssl.CERT_REQUIRED
            ctx.load_verify_locations(certs.path(client_ca))
        self.ctx, self.answer, self.got = ctx, answer, []
        self.srv = socket.socket()
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(8)
        self.port = self.srv.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                c, _ = self.srv.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(c,), daemon=True).start()

    def _one(self, c):
        c.settimeout(5)
        try:
            s = self.ctx.wrap_socket(c, server_side=True)
            self.got.append(s.recv(65536))
            for record in self.answer:
                s.sendall(record)
            s.recv(65536)       # until the client goes
        except OSError:
            pass
        finally:
            c.close()

    def addr(self, host="127.0.0.1"):
        return "tls:%s:%d" % (host, self.port)

    def close(self):
        self.srv.close()


@pytest.fixture
def tls_server(certs):
    """tls_server(name, ...): a TlsServer of the test's own."""
    started = []

    def start(name, **kw):
        s = TlsServer(certs, name, **kw)
        started.append(s)
        return s
    yield start
    for s in started:
        s.close()


def _served(addr, **kw):
    """Connect (the fake server's Welcome), check it is TLS, close."""
    with haptix.connect(addr, timeout=5, **kw) as sim:
        assert sim.conn.tls and sim.session_id > 0


def _refused(addr, words, **kw):
    """Expect NoConnection at connect, its text holding words."""
    with pytest.raises(haptix.NoConnection) as e:
        haptix.connect(addr, timeout=5, **kw)
    assert words in str(e.value)
    return str(e.value)


# The address grammar (lib/address.c, tests/test_address.c).

def test_tls_and_shm_addresses():
    assert address.parse("tls:sim.lab") == ("tls", "sim.lab", 5790)
    assert address.format(address.parse("tls:sim.lab")) == "tls:sim.lab:5790"
    assert address.parse("tls:[::1]:6000") == ("tls", "::1", 6000)
    assert address.format(("tls", "::1", 6000)) == "tls:[::1]:6000"
    assert address.parse("tls:10.0.0.2:6001") == ("tls", "10.0.0.2", 6001)
    assert address.parse("tcp:sim.lab:7") == ("tcp", "sim.lab", 7)
    assert address.parse("sim.lab") == ("tcp", "sim.lab", 5790)
    assert address.parse("shm:/tmp/x.sock") == ("shm", "/tmp/x.sock")
    assert address.format(("shm", "/tmp/x.sock")) == "shm:/tmp/x.sock"
    assert address.parse("unix:/tmp/x.sock") == ("unix", "/tmp/x.sock")
    for bad, words in (("shm:", "empty"), ("tls:", "bad host"),
                       ("tls:host:0", "port 0"), ("tls:h:99999", "bad port"),
                       ("tls:[::1", "missing ']'")):
        with pytest.raises(haptix.NoConnection, match=words):
            address.parse(bad)


def test_loopback_is_judged_by_address():
    for host in ("127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"):
        assert address.is_loopback(host), host
    for host in ("10.0.0.1", "::ffff:10.0.0.1", "fe80::1%eth0", "localhost",
                 "sim.lab", ""):
        assert not address.is_loopback(host), host


def test_pins_are_read_as_openssl_prints_them(certs):
    fp = certs.pin("server")
    raw = bytes.fromhex(fp.replace(":", ""))
    with open(certs.path("server.pem")) as f:
        der = ssl.PEM_cert_to_DER_cert(f.read())
    assert tls.fingerprint(der) == fp
    for form in (fp, fp.lower(), fp.replace(":", ""), "sha256:" + fp,
                 "SHA256:" + fp.replace(":", "").lower()):
        assert tls.parse_pin(form) == raw, form
    for bad in ("sha256:12:34", fp + ":00", fp[1:], "md5:" + fp,
                fp.replace(":", "", 1)[:2] + ":" + fp[1:], ""):
        with pytest.raises(haptix.NoConnection,
                           match=r"\$HAPTIX_TLS_PIN is not a SHA-256"):
            tls.parse_pin(bad)


# Verifying the server, before any haptixd frame.

def test_the_server_is_verified_by_ca_and_name(certs, tls_server,
                                               monkeypatch):
    good = tls_server("server")
    monkeypatch.setenv("HAPTIX_TLS_CA", certs.path("ca.pem"))
    _served(good.addr())                # by its IP address
    _served(good.addr("localhost"))     # by its DNS name
    assert good.got and good.got[0][4:]  # the Hello went, over TLS
    monkeypatch.delenv("HAPTIX_TLS_CA")
    _refused(good.addr(), "TLS with %s: the server's certificate is not "
             "signed by a CA we trust (the system's CAs; set "
             "$HAPTIX_TLS_CA or $HAPTIX_TLS_PIN)" % good.addr())
    _served(good.addr(), tls_ca=certs.path("ca.pem"))   # as a keyword
    _refused(good.addr(), "cannot read the CAs of tls_ca (/nonexistent)",
             tls_ca="/nonexistent")

    monkeypatch.setenv("HAPTIX_TLS_CA", certs.path("ca.pem"))
    wrong = tls_server("wrongname")
    _refused(wrong.addr(), "the server's certificate does not name 127.0.0.1")
    _refused(wrong.addr("localhost"),
             "the server's certificate does not name localhost")
    _refused(tls_server("expired").addr(),
             "the server's certificate has expired")
    _refused(tls_server("selfsigned").addr(),
             "the server's certificate is self-signed, not by a CA we "
             "trust (the CAs of %s ($HAPTIX_TLS_CA))" % certs.path("ca.pem"))
    # Another CA's certificate.
    monkeypatch.setenv("HAPTIX_TLS_CA", certs.path("other-ca.pem"))
    _refused(good.addr(), "not signed by a CA we trust")


def test_a_pin_is_the_trust(certs, tls_server, monkeypatch):
    good, self_signed = tls_server("server"), tls_server("selfsigned")
    monkeypatch.setenv("HAPTIX_TLS_PIN", certs.pin("server"))
    _served(good.addr())
    _served(good.addr("localhost"))
    plain = certs.pin("server").replace(":", "").lower()
    monkeypatch.setenv("HAPTIX_TLS_PIN", "sha256:" + plain)
    _served(good.addr())
    # Pinned, a self-signed certificate is trusted as itself; the CA, the
    # name and the dates do not count.
    _served(self_signed.addr(), tls_pin=certs.pin("selfsigned"))
    _served(tls_server("wrongname").addr(), tls_pin=certs.pin("wrongname"))
    _served(tls_server("expired").addr(), tls_pin=certs.pin("expired"))
    # Any other certificate is refused, even one the CA signed.
    monkeypatch.setenv("HAPTIX_TLS_CA", certs.path("ca.pem"))
    monkeypatch.setenv("HAPTIX_TLS_PIN", certs.pin("selfsigned"))
    _refused(good.addr(), "TLS with %s: the server's certificate is not the "
             "pinned one ($HAPTIX_TLS_PIN): its SHA-256 is %s"
             % (good.addr(), certs.pin("server")))
    _refused(good.addr(), "not the pinned one (tls_pin)",
             tls_pin=certs.pin("client"))
    monkeypatch.setenv("HAPTIX_TLS_PIN", "sha256:12:34")
    _refused(good.addr(), "TLS with %s: $HAPTIX_TLS_PIN is not a SHA-256 "
             "fingerprint" % good.addr())
    assert len([g for g in good.got if g]) == 3, \
        "a refused client sent a Hello"


def test_a_client_certificate(certs, tls_server, monkeypatch):
    s = tls_server("server", client_ca="ca.pem")
    monkeypatch.setenv("HAPTIX_TLS_CA", certs.path("ca.pem"))
    _refused(s.addr(), "the server requires a client certificate: set "
             "$HAPTIX_TLS_CERT (and $HAPTIX_TLS_KEY)")
    monkeypatch.setenv("HAPTIX_TLS_CERT", certs.path("stranger.pem"))
    monkeypatch.setenv("HAPTIX_TLS_KEY", certs.path("stranger.key"))
    _refused(s.addr(), "the server does not take our client certificate "
             "($HAPTIX_TLS_CERT)")
    monkeypatch.setenv("HAPTIX_TLS_CERT", certs.path("client.pem"))
    monkeypatch.setenv("HAPTIX_TLS_KEY", certs.path("client.key"))
    _served(s.addr())
    monkeypatch.delenv("HAPTIX_TLS_CERT")
    monkeypatch.delenv("HAPTIX_TLS_KEY")
    _served(s.addr(), tls_cert=certs.path("client.pem"),
            tls_key=certs.path("client.key"))
    # The key is not in the certificate's file: said so.
    _refused(s.addr(), "cannot use the client certificate %s and key %s "
             "(tls_cert, $HAPTIX_TLS_KEY)" % ((certs.path("client.pem"),) * 2),
             tls_cert=certs.path("client.pem"))


def test_tls_to_a_port_in_the_clear(tmp_path):
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def serve():
        c, _ = srv.accept()
        c.recv(65536)
        c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        c.close()
    threading.Thread(target=serve, daemon=True).start()
    _refused("tls:127.0.0.1:%d" % srv.getsockname()[1],
             "(is this a TLS port?)")
    srv.close()
    # A port that says nothing: the handshake is bounded by the timeout.
    quiet = socket.socket()
    quiet.bind(("127.0.0.1", 0))
    quiet.listen(1)
    with pytest.raises(haptix.NoConnection, match="no TLS handshake within "
                       "the timeout: is this a TLS port?"):
        haptix.connect("tls:127.0.0.1:%d" % quiet.getsockname()[1],
                       timeout=0.3)
    quiet.close()


# Reads and timeouts over TLS.

def test_reads_and_timeouts_over_tls(certs, tls_server, monkeypatch):
    monkeypatch.setenv("HAPTIX_TLS_CA", certs.path("ca.pem"))
    # Three records at once: what SSL holds decrypted is read without
    # waiting on the socket.
    s = tls_server("server", answer=(WELCOME, EVENT, EVENT))
    with haptix.connect(s.addr(), timeout=5) as sim:
        conn = sim.conn
        assert conn.read_event(timeout=2).WhichOneof("payload") == "event"
        assert conn.read_event(timeout=2).WhichOneof("payload") == "event"
        with pytest.raises(haptix.Timeout, match="no event within 0.2 s"):
            conn.read_event(timeout=0.2)
        assert sim.connected
    quiet = tls_server("server", answer=())
    with pytest.raises(haptix.Timeout, match="no answer to Hello within 0.3"):
        haptix.connect(quiet.addr(), timeout=0.3)


# The token never in the clear beyond loopback.

def outside_address():
    """An IPv4 address of this machine that is not loopback, as the
    kernel gives each interface's (SIOCGIFADDR, what getifaddrs() reads:
    no iproute2 needed); the test fails when there is none (the rule
    cannot be tested without)."""
    siocgifaddr = 0x8915
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            req = struct.pack("256s", name.encode()[:15])
            try:
                got = fcntl.ioctl(s.fileno(), siocgifaddr, req)
            except OSError:
                continue            # down, or no IPv4 address
            ip = socket.inet_ntoa(got[20:24])
            if not address.is_loopback(ip):
                return ip
    pytest.fail("this machine has no IPv4 address beyond loopback to "
                "test the token's rule with (SIOCGIFADDR on each of "
                "socket.if_nameindex())")


def test_no_token_in_the_clear_beyond_loopback(monkeypatch):
    out = outside_address()
    srv = socket.socket()
    srv.bind((out, 0))
    srv.listen(4)
    got = []

    def serve():
        while True:
            try:
                c, _ = srv.accept()
            except OSError:
                return
            c.settimeout(2)
            try:
                data = c.recv(65536)
                got.append(data)
                if data:
                    c.sendall(WELCOME)
                    c.recv(65536)
            except OSError:
                pass
            c.close()
    threading.Thread(target=serve, daemon=True).start()
    addr = "tcp:%s:%d" % (out, srv.getsockname()[1])
    _refused(addr, "refusing to send the token in the clear to %s (not "
             "loopback): use tls:%s, or set HAPTIX_ALLOW_CLEARTEXT_TOKEN=1"
             % (addr, addr[4:]), token="s3cret")
    monkeypatch.setenv("HAPTIX_ALLOW_CLEARTEXT_TOKEN", "yes")
    _refused(addr, "refusing to send the token", token="s3cret")
    assert not any(got), "the token went out: %r" % got
    # Told to, it goes; no token, nothing to refuse.
    monkeypatch.setenv("HAPTIX_ALLOW_CLEARTEXT_TOKEN", "1")
    haptix.connect(addr, token="s3cret", timeout=5).close()
    assert any(b"s3cret" in g for g in got)
    monkeypatch.delenv("HAPTIX_ALLOW_CLEARTEXT_TOKEN")
    haptix.connect(addr, timeout=5).close()
    srv.close()


# Against a real haptixd.

def _tls_daemon(start_server, certs, name="server", *more):
    s = start_server("-m", "fixture.xml", "--paused",
                     "--tcp", "tls:127.0.0.1:0",
                     "--tls-cert", certs.path(name + ".pem"),
                     "--tls-key", certs.path(name + ".key"), *more)
    assert s.tcp.startswith("tls:127.0.0.1:"), s.tcp
    return s


def test_a_real_haptixd_over_tls(start_server, certs, monkeypatch):
    s = _tls_daemon(start_server, certs)
    port = s.tcp.rsplit(":", 1)[1]
    monkeypatch.setenv("HAPTIX_TLS_CA", certs.path("ca.pem"))
    for addr in (s.tcp, "tls:localhost:" + port):
        with haptix.connect(addr, name="pytest-tls") as sim:
            assert sim.conn.tls and sim.model.nq == 9
            assert [c.name for c in sim.clients() if c.you] == ["pytest-tls"]
            sim.step(5)
            assert sim.get_state().time == pytest.approx(0.01)
            sim.reset()
            for _ in range(200):        # many small frames over TLS
                assert sim.get_state().qpos.shape == (9,)
    monkeypatch.delenv("HAPTIX_TLS_CA")
    with haptix.connect(s.tcp, tls_pin=certs.pin("server")) as sim:
        assert sim.model.nq == 9
    _refused(s.tcp, "not signed by a CA we trust")
    _refused(s.tcp, "not the pinned one", tls_pin=certs.pin("selfsigned"))
    # Plain TCP to the TLS port: the hint; TLS to a plain port.
    _refused_any("tcp:" + s.tcp[4:], "(or a TLS port: then use tls:HOST:PORT)")
    plain = start_server("-m", "fixture.xml", "--paused")
    _refused("tls:" + plain.tcp, "is this a TLS port?")
    assert "disconnected: TLS error" not in s.log_text(), \
        "the client left without TLS's goodbye"


def test_hx_connect_joins_its_port_to_a_tls_host(start_server, certs,
                                                 monkeypatch):
    from haptix import compat
    s = _tls_daemon(start_server, certs)
    monkeypatch.setenv("HAPTIX_TLS_CA", certs.path("ca.pem"))
    compat.hx_connect("tls:127.0.0.1", int(s.tcp.rsplit(":", 1)[1]))
    try:
        assert compat.hx_robot_info().motor_count == 2
    finally:
        compat.hx_close()


def _refused_any(addr, words):
    """Expect any haptix.Error at connect, its text holding words."""
    with pytest.raises(haptix.Error) as e:
        haptix.connect(addr, timeout=5)
    assert words in str(e.value)


def test_a_real_haptixd_wants_a_client_certificate_and_the_token(
        start_server, certs, monkeypatch, tmp_path):
    token = tmp_path / "token"
    token.write_text("s3cret\n")
    s = _tls_daemon(start_server, certs, "server", "--tls-client-ca",
                    certs.path("ca.pem"), "--token-file", str(token))
    monkeypatch.setenv("HAPTIX_TLS_CA", certs.path("ca.pem"))
    monkeypatch.setenv("HAPTIX_TOKEN_FILE", str(token))
    _refused(s.tcp, "the server requires a client certificate")
    _refused(s.tcp, "the server does not take our client certificate",
             tls_cert=certs.path("stranger.pem"),
             tls_key=certs.path("stranger.key"))
    monkeypatch.setenv("HAPTIX_TLS_CERT", certs.path("client.pem"))
    monkeypatch.setenv("HAPTIX_TLS_KEY", certs.path("client.key"))
    with haptix.connect(s.tcp) as sim:
        assert sim.get_state().qpos.shape == (9,)
    # The certificate does not replace the token.
    monkeypatch.delenv("HAPTIX_TOKEN_FILE")
    with pytest.raises(haptix.Denied, match="token"):
        haptix.connect(s.tcp)


def test_a_real_haptixd_never_gets_the_token_in_the_clear(
        start_server, monkeypatch, tmp_path):
    out = outside_address()
    token = tmp_path / "token"
    token.write_text("s3cret\n")
    s = start_server("-m", "fixture.xml", "--paused", "--tcp", "0.0.0.0:0",
                     "--token-file", str(token), "--allow-cleartext-token")
    port = s.tcp.rsplit(":", 1)[1]
    far, near = "tcp:%s:%s" % (out, port), "tcp:127.0.0.1:" + port
    monkeypatch.setenv("HAPTIX_TOKEN_FILE", str(token))
    _refused(far, "refusing to send the token in the clear to %s (not "
             "loopback): use tls:%s, or set HAPTIX_ALLOW_CLEARTEXT_TOKEN=1"
             % (far, far[4:]))
    with haptix.connect(near) as sim:        # loopback is fine
        assert sim.model.nq == 9
    monkeypatch.setenv("HAPTIX_ALLOW_CLEARTEXT_TOKEN", "1")
    with haptix.connect(far) as sim:
        assert sim.model.nq == 9


def test_a_vector_env_over_tls(start_server, certs, monkeypatch):
    # haptix.VectorEnv over the user's daemons, one of them over TLS with
    # the CA from $HAPTIX_TLS_CA: the step's request goes out on each
    # before either answer is read, whichever the transport.
    import numpy as np
    s = _tls_daemon(start_server, certs)
    plain = start_server("-m", "fixture.xml", "--paused")
    monkeypatch.setenv("HAPTIX_TLS_CA", certs.path("ca.pem"))
    venv = haptix.VectorEnv(servers=[s.tcp, plain.unix], frame_skip=5)
    try:
        assert venv.envs[0].sim.conn.tls and not venv.envs[1].sim.conn.tls
        obs, _ = venv.reset(seed=2)
        for _ in range(3):
            obs, rewards, terminated, truncated, infos = venv.step(
                np.full(venv.action_space.shape, 0.4))
        # The same model, the same actions: the same state either way.
        assert np.array_equal(obs[0], obs[1])
        assert list(infos["steps"]) == [3, 3]
    finally:
        venv.close()
