"""A private haptixd for one worker of a sweep: paused, on a Unix
socket of its own in the run's scratch directory, no TCP, its own
settings file left out; started once and reused from trial to trial."""

import ctypes
import os
import signal
import subprocess
import time

from .. import connect
from ..errors import Error
from ..programs import find_program

__all__ = ["DaemonError", "Daemon", "find_haptixd", "die_with_parent"]

READY_SECONDS = 30


_libc = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1


def die_with_parent():
    """In a child before exec: a new session (the terminal's Ctrl-C
    reaches the runner alone, which saves the results and then stops
    its children), and SIGKILL when the runner dies, even by kill -9,
    so that nothing of a killed sweep is left running."""
    os.setsid()
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class DaemonError(Exception):
    """haptixd did not start, or the model did not load."""


def find_haptixd(given=None):
    """The haptixd to start: ``given``, else ``$HAPTIXD``, else the one
    on the PATH, else the system's."""
    p = find_program("haptixd", given, "HAPTIXD",
                     ("/usr/local/sbin", "/usr/sbin"))
    if p:
        return p
    raise DaemonError("no haptixd: give --haptixd PATH or set $HAPTIXD "
                      "(eval \"$(./quickstart env)\" puts the build's on "
                      "the PATH)")


class Daemon:
    """One haptixd in ``dir`` (``sock``, ``log``), loading ``model``."""

    def __init__(self, haptixd, dir, model, model_dirs=(), legacy=False,
                 name="hxsweep", cpus=None):
        self.haptixd = haptixd
        self.dir = dir
        self.model = model
        self.model_dirs = list(model_dirs)
        self.legacy = legacy
        self.name = name
        self.cpus = cpus                # the CPUs it may run on (None: any)
        self.sock = os.path.join(dir, "hx.sock")
        self.log = os.path.join(dir, "haptixd.log")
        self.proc = None
        self.sim = None

    def start(self):
        """Start haptixd, connect, load the model; returns the Sim.
        DaemonError says why not (for a model: MuJoCo's words)."""
        self.spawn()
        return self.attach()

    def spawn(self):
        """The first half of :meth:`start`: the process started.  In
        the thread that will outlive it: the kernel ends the daemon when
        the thread that started it ends (PR_SET_PDEATHSIG)."""
        os.makedirs(self.dir, exist_ok=True)
        argv = [self.haptixd, "--config", "none", "--no-model", "--paused",
                "--unix", self.sock, "--tcp", "none", "--state-dir",
                self.dir]
        for d in self.model_dirs:
            argv += ["-M", d]
        env = dict(os.environ)
        for v in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "LISTEN_FDS",
                  "LISTEN_PID", "LISTEN_FDNAMES"):
            env.pop(v, None)
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL,
                                         stderr=log, env=env,
                                         preexec_fn=self._child)

    def _child(self):
        """In the child before exec: die with the parent, and keep to
        the CPUs given, which every thread of the daemon inherits."""
        die_with_parent()
        if self.cpus is not None:
            os.sched_setaffinity(0, self.cpus)

    def attach(self):
        """The second half of :meth:`start`: wait for the daemon to be
        ready, connect, load the model; returns the Sim.  Any thread."""
        end = time.monotonic() + READY_SECONDS
        while "ready (" not in self._log_text():
            if self.proc.poll() is not None or time.monotonic() > end:
                self.kill()
                raise DaemonError("haptixd did not start:\n"
                                  + self._log_text().strip())
            time.sleep(0.005)
        try:
            self.sim = connect("unix:" + self.sock, name=self.name,
                               timeout=60)
            self.load()
        except Error:
            self.kill()
            raise
        return self.sim

    def load(self):
        """Load (again) the sweep's model; LoadFailed and Denied raise
        with the server's words."""
        self.sim.load(path=self.model, legacy=self.legacy)
        self.sim.pause()

    def _log_text(self):
        """The daemon's log so far (its errors, and 'ready')."""
        try:
            with open(self.log, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def up(self):
        """True while its process runs and the connection holds."""
        return (self.proc is not None and self.proc.poll() is None
                and self.sim is not None and self.sim.connected)

    def kill_process(self, proc=None):
        """Kill the process (``proc``, if given: that one only, not one
        started since), and nothing else: safe from another thread, a
        trial's timer or a signal handler.  A call waiting on the
        connection wakes to the daemon's end; the connection itself is
        left to the thread that uses it, which kill() closes."""
        p = self.proc if proc is None else proc
        if p is not None and p.poll() is None:
            try:
                p.kill()
            except OSError:
                pass

    def kill(self):
        """Stop it at once (a trial that timed out may have left it
        stepping); the connection goes with it."""
        # The process first: its end wakes a call waiting on the socket
        # in another thread, which closing our end would not.
        self.kill_process()
        if self.proc is not None:
            self.proc.wait()
        if self.sim is not None:
            self.sim.close()
            self.sim = None

    def stop(self):
        """Stop it as a service is stopped (SIGTERM), then kill it if it
        lingers."""
        if self.sim is not None:
            self.sim.close()
            self.sim = None
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
