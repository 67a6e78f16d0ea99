"""hxsweep: run a sweep of trials over a pool of local daemons, or over
a Slurm cluster as a job array (docs/sweeps.md, hxsweep(1)).

Exit status: 0 every trial ok; 1 some trial failed, or the sweep
stopped (a model that does not load, no haptixd, Slurm refusing);
2 a bad command line or sweep file; 130 interrupted (Ctrl-C)."""

import argparse
import json
import os
import shlex
import shutil
import sys
import tempfile

from . import run as _run
from . import slurm
from . import trial as _trial
from ..errors import Denied, LoadFailed
from .daemon import Daemon, DaemonError, find_haptixd
from .pool import Stopped, model_failure
from .spec import SweepError, load

USAGE = """\
usage: hxsweep run SWEEP [-o OUT] [-j N] [--retries N] [--trial-timeout S]
                         [--resume] [-M DIR]... [--haptixd PATH] [-q]
       hxsweep check SWEEP [--list] [-M DIR]... [--haptixd PATH]
                         [--slurm [-o OUT] [--tasks K] [--partition P] ...]
       hxsweep submit SWEEP --slurm [-o OUT] [--tasks K] [--cpus-per-task C]
                         [--partition P] [--time T] [--array-max M]
                         [--sbatch-arg ARG]... [--retries N]
                         [--trial-timeout S] [-M DIR]... [--haptixd PATH]
                         [--dry-run]
       hxsweep status OUT
       hxsweep gather OUT
       hxsweep resubmit OUT [--tasks LIST]
       hxsweep --version

Run a grid of trials, each on a haptixd prepared for it (docs/sweeps.md).
  run       on N private daemons here (default: one per core); results in
            OUT (default: SWEEP's name + .out): results.jsonl, results.csv,
            npy/FIELD.npy
  check     read the sweep file, compile its model on a daemon, check
            every name and index it gives, and say how many trials it makes;
            with --slurm, also print what submit would submit
  submit    on a Slurm cluster: write OUT/job.sh and submit a job array
  status    how far a submitted sweep is (squeue/sacct, the results)
  gather    merge a submitted sweep's results into OUT/results.jsonl, ...
  resubmit  submit again the tasks that did not finish
hxsweep COMMAND --help lists that command's options.
"""

# What each command does, for its --help.
_ABOUT = {
    "run": "Run the sweep's trials on a pool of private daemons here, "
           "one trial at a time on each; the results go to OUT as they "
           "finish.",
    "check": "Read the sweep file, compile its model on a daemon as run "
             "does, check every name and index the file gives (actuators, "
             "joints, bodies, sensors, keyframes, arrays, rows, columns; "
             "the edits compiled), and say how many trials it makes; "
             "nothing is stepped.  With --slurm and submit's options, "
             "print the sbatch command and the batch script submit would "
             "write, writing and submitting nothing.",
    "submit": "Run the sweep on a Slurm cluster as a job array: write "
              "OUT/job.sh and submit it.",
    "status": "How far a submitted sweep is: its tasks in squeue and "
              "sacct, and the trials done.",
    "gather": "Merge a submitted sweep's task results into "
              "OUT/results.jsonl, results.csv and npy/.",
    "resubmit": "Submit again the tasks of a submitted sweep that did "
                "not finish.",
}


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its errors in hxsweep's words with exit 2."""
    def error(self, message):
        bad = "unrecognized arguments: "
        if message.startswith(bad):
            words = message[len(bad):].split()
            message = "%s %s" % ("unknown option" if words[0][:1] == "-"
                                 else "unexpected argument", words[0])
        sys.stderr.write("%s: %s\n" % (self.prog, message))
        if self.prog == "hxsweep":
            sys.stderr.write(USAGE)
        else:
            self.print_usage(sys.stderr)
            sys.stderr.write("%s --help lists its options\n" % self.prog)
        sys.exit(2)


def _common(p):
    """The options run and submit share."""
    p.add_argument("--retries", type=int, default=0, metavar="N",
                   help="attempts after a failed one (default 0)")
    p.add_argument("--trial-timeout", type=float, default=None,
                   metavar="S", help="seconds an attempt may take; past "
                   "it the attempt fails and its daemon restarts")
    _daemon_options(p)


def _daemon_options(p):
    """The options of the daemons run, submit and check start."""
    p.add_argument("-M", "--model-dir", action="append", default=[],
                   metavar="DIR", help="a model directory of the daemons "
                   "(repeat for more)")
    p.add_argument("--haptixd", metavar="PATH",
                   help="the haptixd to start (default: $HAPTIXD, else "
                   "the one on the PATH)")


def _slurm_options(p):
    """The options of a Slurm submission, submit's and check's."""
    p.add_argument("-o", "--out", metavar="OUT", help="the results "
                   "directory, on a file system the nodes share (default: "
                   "SWEEP's name + .out)")
    p.add_argument("--tasks", type=int, default=None, metavar="K",
                   help="array tasks (default: one per 50 trials, at "
                   "most 1000)")
    p.add_argument("--cpus-per-task", type=int, default=1, metavar="C",
                   help="CPUs of each task, and its daemons (default 1)")
    p.add_argument("--partition", metavar="P", help="sbatch --partition")
    p.add_argument("--time", metavar="T", help="sbatch --time of a task")
    p.add_argument("--array-max", type=int, default=None, metavar="M",
                   help="tasks running at once (sbatch --array=...%%M)")
    p.add_argument("--sbatch-arg", action="append", default=[],
                   metavar="ARG", help="one more sbatch argument, given to "
                   "sbatch as one word (repeat)")


def _parser():
    """The command line: one subparser per command, each with --help."""
    from .. import __version__
    p = _Parser(prog="hxsweep", usage=USAGE, add_help=False)
    p.add_argument("-h", "--help", action="store_true")
    p.add_argument("-V", "--version", action="version",
                   version="hxsweep (haptixd) %s" % __version__)
    sub = p.add_subparsers(dest="cmd", parser_class=_Parser)

    def command(name):
        return sub.add_parser(name, description=_ABOUT.get(name),
                              prog="hxsweep " + name)

    r = command("run")
    r.add_argument("sweep", metavar="SWEEP", help="the sweep file (TOML)")
    r.add_argument("-o", "--out", metavar="OUT", help="the results "
                   "directory (default: SWEEP's name + .out)")
    r.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help="daemons at once (default: one per core)")
    r.add_argument("--resume", action="store_true", help="go on in OUT, "
                   "running the trials not yet ok there")
    r.add_argument("-q", "--quiet", action="store_true",
                   help="print nothing but errors")
    _common(r)
    c = command("check")
    c.add_argument("sweep", metavar="SWEEP", help="the sweep file (TOML)")
    c.add_argument("--list", action="store_true", help="print each "
                   "trial's parameters and seed as a JSON line")
    c.add_argument("--slurm", action="store_true", help="print the sbatch "
                   "command and job.sh that submit --slurm would submit")
    _slurm_options(c)
    _common(c)
    s = command("submit")
    s.add_argument("sweep", metavar="SWEEP", help="the sweep file (TOML)")
    s.add_argument("--slurm", action="store_true", help="submit to Slurm "
                   "(the one scheduler hxsweep knows)")
    _slurm_options(s)
    s.add_argument("--dry-run", action="store_true", help="write OUT and "
                   "job.sh, submit nothing")
    _common(s)
    for name, what in (("status", "a submitted sweep's directory"),
                       ("gather", "a submitted sweep's directory")):
        command(name).add_argument("out", metavar="OUT", help=what)
    rs = command("resubmit")
    rs.add_argument("out", metavar="OUT",
                    help="a submitted sweep's directory")
    rs.add_argument("--tasks", metavar="LIST", help="these tasks only "
                    "(3,7), finished or not")
    # One array task of a submitted sweep: job.sh's own command.
    t = sub.add_parser("task", add_help=False)
    t.add_argument("out")
    t.add_argument("index", type=int)
    return p


def _out(a):
    """The results directory: -o, else the sweep file's name with .out."""
    if a.out:
        return a.out
    return os.path.splitext(os.path.basename(a.sweep))[0] + ".out"


def _numbers(a):
    """Refuse counts and times out of range before anything starts."""
    if getattr(a, "jobs", None) is not None and a.jobs < 1:
        raise SweepError("--jobs must be at least 1")
    if a.retries < 0:
        raise SweepError("--retries must be at least 0")
    if a.trial_timeout is not None and not a.trial_timeout > 0:
        raise SweepError("--trial-timeout must be more than 0 seconds")


def _cmd_run(a):
    """hxsweep run: the local pool, then the summary line."""
    _numbers(a)
    sweep = load(a.sweep)
    out = _out(a)
    rows = _run(sweep, out, a.jobs, a.retries, a.trial_timeout, a.resume,
                haptixd=a.haptixd, model_dirs=a.model_dir,
                log=None if a.quiet else sys.stderr)
    total = len(sweep.trials)
    ok = sum(r["status"] == "ok" for r in rows)
    if not a.quiet:
        sys.stderr.write(
            "hxsweep: %d of %d trials ok, %d failed%s; this run: %d in "
            "%.1f s (%.1f trials/s); results in %s\n" % (
                ok, total, len(rows) - ok,
                ", %d not run" % (total - len(rows)) if len(rows) < total
                else "", rows.ok + rows.failed, rows.seconds, rows.rate,
                os.path.join(out, "results.jsonl")))
    if rows.interrupted:
        sys.stderr.write("hxsweep: interrupted; hxsweep run --resume %s "
                         "-o %s goes on\n" % (a.sweep, out))
        return 130
    return 0 if ok == total else 1


def _cmd_check(a):
    """hxsweep check: the trials a file makes, its names checked against
    the model on a daemon, nothing run."""
    sweep = load(a.sweep)
    sweep.runs()
    check_names(sweep, a.haptixd, a.model_dir)
    kind = ("a command" if not sweep.declarative else
            "%s steps" % sweep.trial["steps"] if "steps" in sweep.trial
            else "%g s" % sweep.trial["time"])
    print("%s: %d trials (parameters: %s), each %s, on %s" % (
        a.sweep, len(sweep.trials), ", ".join(sweep.params) or "none",
        kind, sweep.model))
    if a.list:
        for t in sweep.trials:
            print(json.dumps({"trial": t.id, "repeat": t.repeat,
                              "seed": t.seed, "params": t.params}))
    if a.slurm:
        s = _slurm_settings(a, sweep)
        cmd = " ".join(shlex.quote(w) for w in slurm.sbatch_command(s))
        script = slurm.batch_script(sweep, s["out"], s)
        print("hxsweep submit --slurm would run:\n  %s\nwith %s:" % (
            cmd, os.path.join(s["out"], "job.sh")))
        sys.stdout.write(script)
    return 0


def _slurm_settings(a, sweep):
    """A Slurm submission's settings from the command line, checked."""
    _numbers(a)
    for n, what in ((a.tasks, "--tasks"), (a.cpus_per_task,
                                           "--cpus-per-task"),
                    (a.array_max, "--array-max")):
        if n is not None and n < 1:
            raise SweepError("%s must be at least 1" % what)
    return slurm.settings(sweep, _out(a), a.tasks, a.cpus_per_task,
                          a.partition, a.time, a.array_max, a.sbatch_arg,
                          a.retries, a.trial_timeout, a.haptixd,
                          a.model_dir)


def check_names(sweep, haptixd=None, model_dirs=()):
    """Compile the sweep's model on a private daemon and check the names
    and indices of its [trial] (trial.check); SweepError says which is
    not there, Stopped that the model did not load."""
    exe = find_haptixd(haptixd)
    dirs = list(dict.fromkeys(list(model_dirs) + list(sweep.model_dirs)))
    scratch = tempfile.mkdtemp(prefix="hxsweep-check.")
    d = Daemon(exe, scratch, sweep.model, dirs, sweep.legacy)
    try:
        try:
            d.start()
        except (LoadFailed, Denied) as e:
            raise Stopped(model_failure(sweep.model, e)) from None
        if sweep.trials:
            _trial.check(d, sweep, sweep.trials[0])
    except _trial.TrialError as e:
        raise SweepError(str(e)) from None
    finally:
        d.kill()
        shutil.rmtree(scratch, ignore_errors=True)


def _cmd_submit(a):
    """hxsweep submit --slurm: write the batch script and submit it."""
    if not a.slurm:
        raise SweepError("submit: say where: --slurm (the one scheduler "
                         "hxsweep knows)")
    sweep = load(a.sweep)
    _slurm_settings(a, sweep)
    out = _out(a)
    s = slurm.submit(sweep, out, a.tasks, a.cpus_per_task, a.partition,
                     a.time, a.array_max, a.sbatch_arg, a.retries,
                     a.trial_timeout, a.haptixd, a.model_dir, a.dry_run)
    if a.dry_run:
        print("hxsweep: wrote %s (not submitted)"
              % os.path.join(os.path.abspath(out), "job.sh"))
    else:
        print("hxsweep: submitted %d trials as job %s, an array of %d "
              "tasks; hxsweep status %s" % (s["trials"], s["jobs"][-1],
                                           s["tasks"], out))
    return 0


def main(argv):
    """Run hxsweep with the arguments ``argv``; returns the exit status."""
    p = _parser()
    a = p.parse_args(argv)
    if a.help or not a.cmd:
        sys.stdout.write(USAGE) if a.help else sys.stderr.write(USAGE)
        return 0 if a.help else 2
    try:
        if a.cmd == "run":
            return _cmd_run(a)
        if a.cmd == "check":
            return _cmd_check(a)
        if a.cmd == "submit":
            return _cmd_submit(a)
        if a.cmd == "status":
            ok, n, _ = slurm.status(a.out)
            return 0 if ok == n else 1
        if a.cmd == "gather":
            ok, failed, missing = slurm.gather(a.out)
            return 0 if not failed and not missing else 1
        if a.cmd == "resubmit":
            tasks = None
            if a.tasks:
                try:
                    tasks = [int(x) for x in a.tasks.split(",")]
                except ValueError:
                    raise SweepError("--tasks: a list such as 3,7") from None
            slurm.resubmit(a.out, tasks)
            return 0
        return slurm.run_task(a.out, a.index)
    except SweepError as e:
        sys.stderr.write("hxsweep: %s\n" % e)
        return 2
    except (Stopped, DaemonError) as e:
        sys.stderr.write("hxsweep: %s\n" % e)
        return 1
