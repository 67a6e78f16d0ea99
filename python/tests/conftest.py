"""Real haptixd daemons for the tests, started as tests/harness.c starts
them: a temporary directory with the Unix socket, the log and the state
directory, TCP on an ephemeral loopback port, the test and bundled model
directories, stopped at the end with SIGTERM (it must exit 0).  The
environment comes from make check (tests/local.mk): $HAPTIXD,
$HX_MODELS, $HX_TEST_MODELS."""

import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

import haptix

READY_SECONDS = 30


def _env(name):
    v = os.environ.get(name)
    if not v:
        pytest.fail("%s is not set: run by make check (tests/python.sh)" % name)
    return v


class Server:
    """One haptixd: ``unix`` and ``tcp`` addresses, ``dir``, ``log``."""

    def __init__(self, args, env=None):
        self.dir = tempfile.mkdtemp(prefix="hxpy.")
        self.sock = os.path.join(self.dir, "hx.sock")
        self.unix = "unix:" + self.sock
        self.log = os.path.join(self.dir, "haptixd.log")
        argv = [_env("HAPTIXD"), "--config", "none", "--state-dir", self.dir,
                "--unix", self.sock, "--tcp", "127.0.0.1:0",
                "-M", _env("HX_TEST_MODELS"), "-M", _env("HX_MODELS"),
                "-v"] + list(args)
        e = dict(os.environ)
        for v in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "LISTEN_FDS",
                  "LISTEN_PID", "JOURNAL_STREAM"):
            e.pop(v, None)
        e.update(env or {})
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL,
                                         stderr=log, env=e)
        end = time.monotonic() + READY_SECONDS
        while True:
            text = self.log_text()
            if "ready (" in text:
                break
            if self.proc.poll() is not None or time.monotonic() > end:
                self.proc.kill()
                pytest.fail("haptixd did not become ready:\n" + text)
            time.sleep(0.01)
        # HOST:PORT, or tls:HOST:PORT for a TLS listener (--tcp tls:...).
        if "listening on tls:" in text:
            at = text.index("listening on tls:") + len("listening on ")
        else:
            at = text.index("listening on tcp:") + len("listening on tcp:")
        self.tcp = text[at:].split()[0]

    def log_text(self):
        with open(self.log, errors="replace") as f:
            return f.read()

    def connect(self, **kw):
        return haptix.connect(self.unix, **kw)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        status = self.proc.returncode
        text = self.log_text()
        shutil.rmtree(self.dir, ignore_errors=True)
        assert status == 0, "haptixd exited with %s:\n%s" % (status, text)


@pytest.fixture
def start_server():
    """start_server(*args, env=None): a haptixd of the test's own."""
    started = []

    def start(*args, env=None):
        s = Server(args, env)
        started.append(s)
        return s
    yield start
    for s in started:
        s.stop()


@pytest.fixture(scope="module")
def fixture_server():
    """A paused haptixd on models/test/fixture.xml, for a module."""
    s = Server(["-m", "fixture.xml", "--paused"])
    yield s
    s.stop()


@pytest.fixture(scope="module")
def mpl_server():
    """A paused haptixd on the bundled MPL scene, for a module."""
    s = Server(["-m", "mpl_scene.xml", "--paused"])
    yield s
    s.stop()


@pytest.fixture
def sim(fixture_server):
    """A connection to the fixture's daemon, paused and reset."""
    with fixture_server.connect(name="pytest") as s:
        s.pause()
        s.reset()
        yield s
