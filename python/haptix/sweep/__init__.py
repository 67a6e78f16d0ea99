"""Sweeps: a grid (and random samples) of trials run over a pool of
private daemons, or over a Slurm cluster as a job array (docs/sweeps.md).

From Python, with a function per trial::

    import haptix.sweep

    def trial(sim, t):                      # sim: prepared for the trial
        out = sim.run(steps=500, record=["sensordata"])
        return {"final": out.sensordata[0], "kp": t.params["kp"]}

    rows = haptix.sweep.run("gain.toml", trial=trial, jobs=2)
    rows[0]["result"]["final"]

The sweep file names the model, the parameters and the preparation of
each trial (keyframe, arrays, edits, controls); without ``trial=`` its
[trial] table says what to run.  ``hxsweep`` is this module's command
line (``python3 -m haptix.sweep`` runs it too).
"""

import os
import shutil
import sys
import tempfile

from .spec import SweepError, Sweep, Trial, load, loads
from .pool import Pool, Stopped
from .daemon import DaemonError, find_haptixd
from . import table as _table

__all__ = ["run", "load", "loads", "Sweep", "Trial", "SweepError",
           "Stopped", "DaemonError", "prepare_out", "Summary"]


class Summary(list):
    """The rows of the results table in the order of the trials (each a
    dict: trial, repeat, seed, params, status, attempts, errors,
    result), with ``ok``, ``failed``, ``interrupted``, ``seconds`` and
    ``rate`` (trials per second) of this run, and ``out``."""

    ok = failed = 0
    interrupted = False
    seconds = rate = 0.0
    out = None


def prepare_out(sweep, out, resume):
    """Make OUT for a sweep's results; with resume, the trials already
    done there (by id).  Never mixes two sweeps' results, nor writes over
    results without resume."""
    saved = os.path.join(out, "sweep.toml")
    results = os.path.join(out, _table.RESULTS)
    # A run that stopped before its first trial blocks nothing, whatever
    # sweep it was.
    held = _table.held(out)
    if held and not resume:
        raise SweepError("%s holds results already: --resume goes on "
                         "with them, or remove it" % out)
    if held and os.path.exists(saved):
        with open(saved, encoding="utf-8") as f:
            if f.read() != sweep.text:
                raise SweepError("%s holds the results of another sweep "
                                 "(its sweep.toml differs)" % out)
    os.makedirs(out, exist_ok=True)
    with open(saved + ".tmp", "w", encoding="utf-8") as f:
        f.write(sweep.text)
    os.replace(saved + ".tmp", saved)
    done = {}
    if resume:
        done = {i: r for i, r in _table.read(results).items()
                if r.get("status") == "ok" and i < len(sweep.trials)}
    return done


def run(sweep, out=None, jobs=None, retries=0, timeout=None, resume=False,
        trial=None, haptixd=None, model_dirs=(), log=None):
    """Run a sweep on a pool of ``jobs`` private daemons (default: one
    per core) and return its :class:`Summary`.

    ``sweep``: a sweep file's path or a :class:`Sweep`.  ``out``: the
    results directory (results.jsonl, results.csv, npy/); None keeps
    them in a temporary one, removed after.  ``trial(sim, t)``: a
    function per trial, on the daemon prepared for it (``t.id``,
    ``t.params``, ``t.seed``), returning a dict of numbers and arrays;
    None runs the sweep file's [trial].  ``retries``: attempts after a
    failed one; ``timeout``: seconds an attempt may take; ``resume``:
    skip the trials already ``ok`` in ``out``.  ``log``: a stream for
    failures and progress (None: quiet).  Raises SweepError (a bad
    file), Stopped (a model that does not load: MuJoCo's words) or
    DaemonError (no haptixd)."""
    if not isinstance(sweep, Sweep):
        sweep = load(sweep)
    if trial is None:
        sweep.runs()
    exe = find_haptixd(haptixd)
    tmp = None
    if out is None:
        tmp = out = tempfile.mkdtemp(prefix="hxsweep-out.")
    try:
        done = prepare_out(sweep, out, resume)
        todo = [t for t in sweep.trials if t.id not in done]
        pool = Pool(sweep, exe, jobs or os.cpu_count() or 1, retries,
                    timeout, model_dirs, trial, log)
        s = pool.run(os.path.join(out, _table.RESULTS), todo,
                     skipped=len(done))
        rows = Summary(_table.finish(out, sweep))
        rows.ok, rows.failed = s["ok"], s["failed"]
        rows.interrupted = s["interrupted"]
        rows.seconds, rows.rate = s["seconds"], s["rate"]
        rows.out = None if tmp else out
        return rows
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def main(argv=None):
    """hxsweep's command line."""
    from .cli import main as _main
    return _main(argv if argv is not None else sys.argv[1:])
