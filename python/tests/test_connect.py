"""Connecting as libhaptix does: addresses, $HAPTIX_SERVER, the default
socket, tokens; errors named after result codes with the server's
words; timeouts and lost connections raise; nothing is printed."""

import os
import socket
import threading

import numpy as np
import pytest

import haptix


@pytest.mark.parametrize("transport", ["unix", "tcp"])
def test_connects_over_unix_and_tcp(fixture_server, transport):
    addr = getattr(fixture_server, transport)
    with haptix.connect(addr, name="pytest-" + transport) as sim:
        assert sim.connected and sim.session_id > 0
        assert sim.server_version
        assert sim.model.nq == 9 and sim.model.nv == 8 and sim.model.nu == 2
        names = [c.name for c in sim.clients() if c.you]
        assert names == ["pytest-" + transport]
    assert not sim.connected
    with pytest.raises(haptix.NoConnection, match="not connected"):
        sim.get_state()


def test_haptix_server_and_the_default_socket(start_server, monkeypatch,
                                              tmp_path):
    s = start_server("-m", "fixture.xml")
    monkeypatch.setenv("HAPTIX_SERVER", s.unix)
    with haptix.connect() as sim:
        assert sim.model.name == "fixture"
    # No address and no $HAPTIX_SERVER: $XDG_RUNTIME_DIR/haptixd.sock.
    monkeypatch.delenv("HAPTIX_SERVER")
    monkeypatch.setenv("XDG_RUNTIME_DIR", s.dir)
    os.rename(s.sock, os.path.join(s.dir, "haptixd.sock"))
    with haptix.connect() as sim:
        assert sim.model.name == "fixture"
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    with pytest.raises(haptix.NoConnection, match="no server at unix:%s"
                       % tmp_path):
        haptix.connect()


def test_a_token_on_tcp(start_server, monkeypatch, tmp_path):
    token = tmp_path / "token"
    token.write_text("s3cret\n")
    s = start_server("-m", "fixture.xml", "--token-file", str(token))
    monkeypatch.delenv("HAPTIX_TOKEN_FILE", raising=False)
    with pytest.raises(haptix.Denied, match="token"):
        haptix.connect(s.tcp)
    with pytest.raises(haptix.Denied, match="wrong token"):
        haptix.connect(s.tcp, token="guess")
    with haptix.connect(s.tcp, token="s3cret") as sim:
        assert sim.model.nq == 9
    monkeypatch.setenv("HAPTIX_TOKEN_FILE", str(token))
    with haptix.connect(s.tcp) as sim:
        assert sim.model.nq == 9
    monkeypatch.setenv("HAPTIX_TOKEN_FILE", str(tmp_path / "none"))
    with pytest.raises(haptix.NoConnection, match="HAPTIX_TOKEN_FILE"):
        haptix.connect(s.tcp)


def test_errors_are_named_after_result_codes(sim):
    with pytest.raises(haptix.BadSize) as e:
        sim.set_state(qpos=np.zeros(7), qvel=np.zeros(8), act=[])
    assert str(e.value) == "nq is 7 but the model has nq = 9"
    assert e.value.code == -1 and e.value.name == "mjCOM_BADSIZE"
    assert isinstance(e.value, haptix.Error)
    assert type(e.value).__module__ + "." + type(e.value).__name__ == \
        "haptix.BadSize"
    with pytest.raises(haptix.BadValue, match="finite|NaN|nan"):
        sim.set_control([np.nan, 0])
    with pytest.raises(haptix.BadIndex):
        sim.joint("no_such_joint")
    with pytest.raises(haptix.LoadFailed):
        sim.load(data="<mujoco><worldbody><geom type='nonsense'/>"
                      "</worldbody></mujoco>")
    with pytest.raises(haptix.Denied):
        sim.load(path="/etc/passwd")
    # The connection goes on after each.
    assert sim.get_state().qpos.shape == (9,)


def _listener(tmp_path, answer=None):
    """A Unix socket that accepts and says nothing, or answer."""
    path = str(tmp_path / "quiet.sock")
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(path)
    srv.listen(1)

    def serve():
        c, _ = srv.accept()
        if answer:
            c.sendall(answer)
        c.recv(1 << 16)
        threading.Event().wait(2)
        c.close()
    threading.Thread(target=serve, daemon=True).start()
    return srv, "unix:" + path


def test_a_timeout_raises(tmp_path):
    srv, addr = _listener(tmp_path)
    with pytest.raises(haptix.Timeout, match="no answer to Hello"):
        haptix.connect(addr, timeout=0.3)
    srv.close()


def test_a_foreign_server_is_named(tmp_path):
    srv, addr = _listener(tmp_path, b"HTTP/1.1 400 Bad Request\r\n\r\n")
    with pytest.raises(haptix.BadProtocol, match="does not speak the haptixd "
                       'protocol: it sent "HTTP/1.1 400 Bad Request"'):
        haptix.connect(addr)
    srv.close()


def test_a_lost_connection_raises(start_server):
    s = start_server("-m", "fixture.xml")
    sim = s.connect()
    sim.get_state()
    s.proc.kill()
    s.proc.wait()
    with pytest.raises((haptix.CannotRecv, haptix.CannotSend)) as e:
        sim.get_state()
    assert isinstance(e.value, ConnectionError)
    with pytest.raises(haptix.NoConnection, match="not connected: "):
        sim.get_state()
    s.proc.returncode = 0       # killed by the test


def test_bad_addresses():
    for bad, words in (("unix:", "empty"), ("host:99999", "bad port"),
                       ("[::1", "missing ']'"), ("host:0", "port 0")):
        with pytest.raises(haptix.NoConnection, match=words):
            haptix.connect(bad)


def test_the_library_never_prints(sim, capfd, tmp_path):
    for call in (lambda: sim.set_control([1, 2, 3]),
                 lambda: sim.reset("no such key"),
                 lambda: haptix.connect("unix:" + str(tmp_path / "x"))):
        with pytest.raises(haptix.Error):
            call()
    sim.step(5)
    out, err = capfd.readouterr()
    assert out == "" and err == ""
