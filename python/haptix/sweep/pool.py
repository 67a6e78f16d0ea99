"""The local pool: N private daemons, one worker thread each, taking
the next trial until none is left.  The daemons do the physics; the
threads wait on their sockets and write the results, so one Python
process keeps N daemons busy.

A failed attempt is retried on the same worker (its daemon started
again when the attempt broke it); a daemon that cannot load the model
stops the sweep; Ctrl-C (SIGINT, SIGTERM) stops it, keeping every trial
finished so far and dropping those in flight."""

import collections
import os
import shutil
import signal
import sys
import tempfile
import threading
import time

from ..errors import Error, LoadFailed, Denied
from . import table as _table
from . import trial as _trial
from .daemon import Daemon, DaemonError

__all__ = ["Pool", "Stopped"]


def model_failure(model, e):
    """Why the sweep's model did not load, in the server's words, with
    what to do when no model directory has it."""
    why = str(e).strip()
    if "in the model directories" in why:
        why += ("; name the model by its path, or its directory with "
                "hxsweep -M DIR or model_dirs = [DIR] in the sweep file")
    return "the model %s did not load: %s" % (model, why)


class Stopped(Exception):
    """The sweep was stopped: a model that does not load, a daemon that
    does not start."""


class _Progress:
    """The progress line on a terminal: done/total, failures, trials per
    second, time left; updated at most 5 times a second."""

    def __init__(self, total, skipped, stream):
        self.total = total
        self.skipped = skipped
        self.done = 0
        self.failed = 0
        self.stream = stream
        self.live = stream is not None and stream.isatty()
        self.start = time.monotonic()
        self.shown = 0.0
        self.lock = threading.Lock()

    def add(self, ok):
        with self.lock:
            self.done += 1
            self.failed += not ok
            now = time.monotonic()
            if self.live and (now - self.shown >= 0.2 or
                              self.done + self.skipped == self.total):
                self.shown = now
                self.stream.write("\r\033[K" + self.line(now))
                self.stream.flush()

    def rate(self, now=None):
        el = (now or time.monotonic()) - self.start
        return self.done / el if el > 0 else 0.0

    def line(self, now):
        rate = self.rate(now)
        left = self.total - self.skipped - self.done
        eta = "%d:%02d left" % divmod(int(left / rate), 60) if rate else ""
        return "hxsweep: %d/%d trials, %s%.1f trials/s, %s" % (
            self.done + self.skipped, self.total,
            "%d failed, " % self.failed if self.failed else "", rate, eta)

    def end(self):
        if self.live:
            self.stream.write("\r\033[K")
            self.stream.flush()


class Pool:
    """Run trials of a sweep on ``jobs`` daemons into a results table.

    ``fn`` (sim, trial) -> dict runs each trial in place of the sweep
    file's; ``timeout`` bounds an attempt (a command is killed, a
    daemon stepping past it killed and started again); ``retries`` more
    attempts follow a failed one; ``log`` gets one line per failed
    attempt and the progress line (None: silent)."""

    def __init__(self, sweep, haptixd, jobs=1, retries=0, timeout=None,
                 model_dirs=(), fn=None, log=sys.stderr):
        self.sweep = sweep
        self.haptixd = haptixd
        self.jobs = max(1, int(jobs))
        self.retries = max(0, int(retries))
        self.timeout = timeout
        self.fn = fn
        self.log = log
        dirs = list(model_dirs) + list(sweep.model_dirs)
        if os.path.isabs(sweep.model):
            dirs.append(os.path.dirname(sweep.model))
        self.model_dirs = list(dict.fromkeys(dirs))
        self.stop = threading.Event()
        self.fatal = None
        self.lock = threading.Lock()
        self.daemons = []
        self.procs = set()
        self.queue = collections.deque()
        self.ready = threading.Barrier(1)

    def _say(self, msg):
        """One line on the log, over the progress line."""
        if self.log is not None:
            with self.lock:
                if self.progress.live:
                    self.log.write("\r\033[K")
                self.log.write("hxsweep: %s\n" % msg)
                self.log.flush()

    def _daemon(self, scratch, i):
        """A worker's daemon, known to interrupt()."""
        d = Daemon(self.haptixd, os.path.join(scratch, "w%d" % i),
                   self.sweep.model, self.model_dirs, self.sweep.legacy)
        with self.lock:
            self.daemons.append(d)
        return d

    def _start(self, d):
        """Start a worker's daemon; a failure stops the sweep."""
        try:
            d.start()
            return True
        except (LoadFailed, Denied) as e:
            self._fail(model_failure(self.sweep.model, e))
        except (DaemonError, Error) as e:
            self._fail(str(e).strip())
        return False

    def _fail(self, msg):
        """Stop the sweep for a reason of its own (the first one wins)."""
        with self.lock:
            if self.fatal is None:
                self.fatal = msg
        self.interrupt()

    def _attempt(self, d, t, edited):
        """One attempt of a trial; returns its result."""
        fired = threading.Event()
        timer = None
        if self.timeout and (self.fn is not None or self.sweep.declarative):
            proc = d.proc

            def expire():
                # The process only: closing the connection here raced
                # with the worker, which could find it gone mid-call, or
                # (its restart done first) lose the new one.
                fired.set()
                d.kill_process(proc)
            timer = threading.Timer(self.timeout, expire)
            timer.daemon = True
            timer.start()
        try:
            if not self.sweep.declarative and self.fn is None:
                # The command may have edited or replaced the model.
                d.load()
            ctrl = _trial.prepare(d, self.sweep, t, edited)
            if self.fn is not None:
                return _trial.run_function(d, self.fn, t)
            if self.sweep.declarative:
                return _trial.run_declared(d, self.sweep, t, ctrl)
            return _trial.run_command(d, self.sweep, t, self.timeout,
                                      self.procs)
        except Error as e:
            if fired.is_set():
                raise _trial.TrialError(
                    "did not finish within %g s (--trial-timeout): its "
                    "daemon was killed and started again" % self.timeout)
            raise _trial.TrialError("%s: %s" % (type(e).__name__, e))
        finally:
            if timer is not None:
                timer.cancel()

    def _worker(self, scratch, i, tab):
        """A worker: its daemon, then trial after trial from the queue."""
        d = self._daemon(scratch, i)
        if not self._start(d):
            self.ready.abort()
            return
        # Every daemon takes part from the first trial on, as --jobs says.
        try:
            self.ready.wait()
        except threading.BrokenBarrierError:
            return
        edited = False
        while not self.stop.is_set():
            with self.lock:
                if not self.queue:
                    break
                t = self.queue.popleft()
            errors = []
            result = None
            for attempt in range(1, self.retries + 2):
                # A daemon lost with the last attempt (or killed by its
                # timer as it ended) is started again first.
                if not d.up():
                    d.kill()
                    if not self._start(d):
                        return
                try:
                    result = self._attempt(d, t, edited)
                    edited = bool(self.sweep.trial.get("edit"))
                    break
                except Exception as e:      # noqa: BLE001: a user's function
                    if self.stop.is_set():
                        return
                    reason = str(e) if isinstance(
                        e, _trial.TrialError) else "%s: %s" % (
                        type(e).__name__, e)
                    errors.append(reason)
                    self._say("trial %d failed (attempt %d of %d): %s" % (
                        t.id, attempt, self.retries + 1, reason))
                    edited = True
            if self.stop.is_set() and result is None:
                return
            ok = result is not None
            tab.append(_table.record(t, "ok" if ok else "failed",
                                     len(errors) + ok, errors, result))
            self.progress.add(ok)
        d.stop()

    def interrupt(self):
        """Stop: no new trials, the running ones killed with their
        daemons (a signal handler may call this)."""
        self.stop.set()
        self.ready.abort()
        for p in list(self.procs):
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
        for d in list(self.daemons):
            d.kill_process()

    def run(self, results, todo, skipped=0, total=None):
        """Run the trials ``todo``, appending their lines to the file
        ``results``; ``skipped`` of ``total`` were done before.  Returns
        a summary dict: ok, failed, interrupted, seconds, rate."""
        self.queue.extend(todo)
        self.progress = _Progress(total or len(self.sweep.trials), skipped,
                                  self.log)
        scratch = tempfile.mkdtemp(prefix="hxsweep.")
        tab = _table.Table(results)
        old = {}
        if threading.current_thread() is threading.main_thread():
            for s in (signal.SIGINT, signal.SIGTERM):
                old[s] = signal.signal(s, lambda *a: self.interrupt())
        n = min(self.jobs, len(todo))
        self.ready = threading.Barrier(max(n, 1))
        workers = [threading.Thread(target=self._worker,
                                    args=(scratch, i, tab), daemon=True)
                   for i in range(n)]
        start = time.monotonic()
        try:
            for w in workers:
                w.start()
            for w in workers:
                while w.is_alive():
                    w.join(0.1)
        finally:
            for s, h in old.items():
                signal.signal(s, h)
            self.interrupt() if self.stop.is_set() else None
            for d in self.daemons:
                d.stop()
            tab.close()
            self.progress.end()
            shutil.rmtree(scratch, ignore_errors=True)
        if self.fatal is not None:
            raise Stopped(self.fatal)
        return {"ok": self.progress.done - self.progress.failed,
                "failed": self.progress.failed,
                "interrupted": self.stop.is_set(),
                "seconds": time.monotonic() - start,
                "rate": self.progress.rate()}
