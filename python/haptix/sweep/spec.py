"""The sweep file: TOML read, checked and expanded into trials.

Everything is checked before anything starts: unknown keys, wrong
types, empty grids, expressions naming no parameter.  An error names
the file and the line (``gain.toml:12: [trial] steps: must be a
positive integer, not "500"``); tomllib gives no positions, so
:class:`Lines` finds each key's line in the text.
"""

import itertools
import os
import re
import tomllib

import numpy as np

from ..suggest import nearest
from . import expr

__all__ = ["SweepError", "Sweep", "Trial", "load", "loads"]

RECORD_FIELDS = ("qpos", "qvel", "act", "ctrl", "mocap", "sensordata",
                 "qfrc_applied", "xfrc_applied", "body", "geom", "site")
SUMMARIES = ("min", "max", "mean", "std", "first", "last")
DISTRIBUTIONS = ("uniform", "loguniform", "normal", "integers", "choice")
EDIT_OPS = ("add", "remove", "set", "unset")

_TOP = ("name", "model", "model_dirs", "legacy", "seed", "repeats", "grid",
        "random", "trial")
_TRIAL = ("keyframe", "noise", "set", "edit", "ctrl", "schedule", "steps",
          "time", "record", "every", "keep", "summary", "command")
_EDIT = ("op", "type", "name", "parent", "attrs")
_SCHEDULE = ("step", "time", "ctrl")
_RESERVED = ("trial", "seed", "repeat", "pi", "e")
_PARAM = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class SweepError(Exception):
    """A sweep file that cannot be run, with the file and line."""


class Lines:
    """Where each key of a TOML text is, by its path: ("trial",
    "steps") -> 12; ("trial", "edit", 1, "op") for arrays of tables."""

    _HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    _KEY = re.compile(r"\s*((?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)"
                      r"(?:\s*\.\s*(?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+))*)"
                      r"\s*=")

    def __init__(self, text):
        self.at = {}
        table = ()
        counts = {}
        depth = 0
        for n, line in enumerate(text.splitlines(), 1):
            if depth == 0:
                h = self._HEADER.match(line)
                if h:
                    path = self._split(h.group(2))
                    if h.group(1) == "[[":
                        i = counts.get(path, -1) + 1
                        counts[path] = i
                        self.at.setdefault(path, n)
                        path = path + (i,)
                    table = path
                    self.at.setdefault(table, n)
                    continue
                k = self._KEY.match(line)
                if k:
                    self.at.setdefault(table + self._split(k.group(1)), n)
            depth += self._depth(line)

    @staticmethod
    def _split(key):
        parts = re.findall(r"\"([^\"]*)\"|'([^']*)'|([^.\s]+)", key)
        return tuple(a or b or c for a, b, c in parts)

    @staticmethod
    def _depth(line):
        """The change in bracket depth over a line (multi-line arrays),
        strings and comments left out."""
        line = re.sub(r"\"(\\.|[^\"\\])*\"|'[^']*'", "", line)
        line = line.split("#", 1)[0]
        return (line.count("[") + line.count("{") - line.count("]")
                - line.count("}"))

    def line(self, path):
        """The line of a key, else of the nearest enclosing one (1)."""
        path = tuple(path)
        while path:
            if path in self.at:
                return self.at[path]
            path = path[:-1]
        return 1


class Trial:
    """One trial: ``id`` (its place in the sweep, from 0), ``params``
    (a dict), ``seed`` (from the sweep's seed and the id) and
    ``repeat``."""

    __slots__ = ("id", "params", "seed", "repeat")

    def __init__(self, id, params, seed, repeat):
        self.id = id
        self.params = params
        self.seed = seed
        self.repeat = repeat

    def env(self):
        """The names an expression may use."""
        e = dict(self.params)
        e.update(trial=self.id, seed=self.seed, repeat=self.repeat)
        return e

    def __repr__(self):
        return "Trial(%d, %r, seed=%d)" % (self.id, self.params, self.seed)


class Sweep:
    """A checked sweep file: ``name``, ``model`` (a bare name, or an
    absolute path), ``model_dirs``, ``legacy``, ``seed``, ``repeats``,
    ``grid``, ``random``, ``samples``, ``trial`` (the [trial] table),
    ``path`` and ``base`` (the directory relative paths start from),
    ``trials`` (every Trial, in order) and ``params`` (their names)."""

    def __init__(self, doc, path, base):
        self.path = path
        self.base = base
        self.name = doc["name"]
        self.model = doc["model"]
        self.model_dirs = doc["model_dirs"]
        self.legacy = doc["legacy"]
        self.seed = doc["seed"]
        self.repeats = doc["repeats"]
        self.grid = doc["grid"]
        self.random = doc["random"]
        self.samples = doc["samples"]
        self.trial = doc["trial"]
        self.params = list(self.grid) + list(self.random)
        self.trials = self._expand()

    def _expand(self):
        """Every trial: grid points, then samples, then repeats."""
        rng = np.random.default_rng(self.seed)
        draws = []
        for _ in range(self.samples if self.random else 1):
            d = {}
            for name, (kind, args) in self.random.items():
                d[name] = _draw(rng, kind, args)
            draws.append(d)
        trials = []
        keys = list(self.grid)
        for point in itertools.product(*self.grid.values()):
            for d in draws:
                for r in range(self.repeats):
                    params = dict(zip(keys, point))
                    params.update(d)
                    i = len(trials)
                    trials.append(Trial(i, params, trial_seed(self.seed, i),
                                        r))
        return trials

    @property
    def declarative(self):
        """True when the trial is run by hxsweep, not by a command."""
        return "command" not in self.trial

    def runs(self):
        """Raise SweepError unless [trial] runs something: steps, time
        or a command (a sweep run with a function per trial needs none:
        its [trial] may only prepare)."""
        t = self.trial
        if "command" not in t and "steps" not in t and "time" not in t:
            raise SweepError("%s:%d: [trial]: give steps or time, or a "
                             "command (only a function per trial, from "
                             "Python, runs a trial without them)"
                             % (self.path, self.trial_line))


def trial_seed(seed, i):
    """A trial's seed: from the sweep's seed and its id alone, so that
    it does not depend on where or when the trial runs."""
    return int(np.random.SeedSequence([seed, i]).generate_state(1)[0])


def _draw(rng, kind, args):
    """One random sample of a parameter."""
    if kind == "uniform":
        return float(rng.uniform(args[0], args[1]))
    if kind == "loguniform":
        return float(np.exp(rng.uniform(np.log(args[0]), np.log(args[1]))))
    if kind == "normal":
        return float(rng.normal(args[0], args[1]))
    if kind == "integers":
        return int(rng.integers(args[0], args[1], endpoint=True))
    return args[int(rng.integers(len(args)))]


class _Checker:
    """Checks a parsed document, raising SweepError at the first fault
    with its line."""

    def __init__(self, where, lines):
        self.where = where
        self.lines = lines

    def fail(self, path, msg):
        raise SweepError("%s:%d: %s" % (self.where, self.lines.line(path),
                                        msg))

    @staticmethod
    def _name(path):
        head = [p for p in path[:-1] if not isinstance(p, int)]
        last = path[-1]
        if isinstance(last, int):
            return "[%s] item %d" % (".".join(head), last + 1)
        return "[%s] %s" % (".".join(head), last) if head else str(last)

    @staticmethod
    def _where(path):
        if not path:
            return "the top level"
        head = ".".join(p for p in path if not isinstance(p, int))
        if isinstance(path[-1], int):
            return "[%s] item %d" % (head, path[-1] + 1)
        return "[%s]" % head

    def keys(self, table, allowed, path):
        for k in table:
            if k not in allowed:
                near = nearest(k, allowed)
                self.fail(path + (k,), "unknown key '%s' in %s%s" % (
                    k, self._where(path),
                    " (did you mean '%s'?)" % near if near else
                    " (known: %s)" % ", ".join(allowed)))

    def typed(self, value, types, path, what):
        if isinstance(value, bool) and bool not in types:
            ok = False
        else:
            ok = isinstance(value, types)
        if not ok:
            self.fail(path, "%s: must be %s, not %s" % (
                self._name(path), what, _show(value)))
        return value

    def positive_int(self, value, path, zero=False):
        self.typed(value, (int,), path, "a%s integer" % (
            " non-negative" if zero else " positive"))
        if value < (0 if zero else 1):
            self.fail(path, "%s: must be %s, not %d" % (
                self._name(path), ">= 0" if zero else ">= 1", value))
        return value

    def number(self, value, path, what="a number or a \"{...}\" expression"):
        if isinstance(value, str):
            return value
        return self.typed(value, (int, float), path, what)

    def expression(self, value, params, path):
        try:
            expr.check(value, params)
        except expr.ExprError as e:
            self.fail(path, "%s: %s" % (self._name(path), e))


def _show(v):
    """A value as an error message shows it."""
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "a table"
    if isinstance(v, list):
        return "an array"
    return repr(v)


def _check(raw, c, stem):
    """The checked top level of a parsed file, with defaults filled in."""
    c.keys(raw, _TOP, ())
    doc = {}
    doc["name"] = c.typed(raw.get("name", stem), (str,), ("name",),
                          "a string")
    if "model" not in raw:
        c.fail((), "no model: say model = \"NAME.xml\" (from the model "
               "directories) or a file's path")
    doc["model"] = c.typed(raw["model"], (str,), ("model",), "a string")
    if not doc["model"]:
        c.fail(("model",), "model: empty")
    dirs = c.typed(raw.get("model_dirs", []), (list,), ("model_dirs",),
                   "an array of directories")
    for i, d in enumerate(dirs):
        c.typed(d, (str,), ("model_dirs", i), "a directory")
    doc["model_dirs"] = dirs
    doc["legacy"] = c.typed(raw.get("legacy", False), (bool,), ("legacy",),
                            "true or false")
    doc["seed"] = c.positive_int(raw.get("seed", 0), ("seed",), zero=True)
    doc["repeats"] = c.positive_int(raw.get("repeats", 1), ("repeats",))

    grid = c.typed(raw.get("grid", {}), (dict,), ("grid",), "a table")
    for k, v in grid.items():
        p = ("grid", k)
        if not _PARAM.match(k) or k in _RESERVED:
            c.fail(p, "[grid] %s: a parameter's name is a word (letters, "
                   "digits, _) and not one of %s" % (k, ", ".join(_RESERVED)))
        c.typed(v, (list,), p, "an array of values")
        if not v:
            c.fail(p, "[grid] %s: an empty grid: give at least one value" % k)
        for i, x in enumerate(v):
            c.typed(x, (int, float, str, bool), p + (i,),
                    "a number, a string or true/false")
    doc["grid"] = grid

    rnd = dict(c.typed(raw.get("random", {}), (dict,), ("random",),
                       "a table"))
    samples = 0
    if rnd:
        if "samples" not in rnd:
            c.fail(("random",), "[random]: say how many samples "
                   "(samples = N)")
        samples = c.positive_int(rnd.pop("samples"), ("random", "samples"))
    random = {}
    for k, v in rnd.items():
        p = ("random", k)
        if not _PARAM.match(k) or k in _RESERVED or k in grid:
            c.fail(p, "[random] %s: a parameter's name is a word, not one "
                   "of %s, and not also in [grid]" % (k, ", ".join(_RESERVED)))
        c.typed(v, (dict,), p, "a table such as { uniform = [0, 1] }")
        if len(v) != 1 or next(iter(v)) not in DISTRIBUTIONS:
            c.fail(p, "[random] %s: one of %s, such as { uniform = [0, 1] }"
                   % (k, ", ".join(DISTRIBUTIONS)))
        kind, args = next(iter(v.items()))
        c.typed(args, (list,), p + (kind,), "an array")
        if kind == "choice":
            if not args:
                c.fail(p, "[random] %s: an empty choice" % k)
        else:
            if len(args) != 2:
                c.fail(p, "[random] %s: %s takes two numbers" % (k, kind))
            for x in args:
                c.typed(x, (int,) if kind == "integers" else (int, float),
                        p + (kind,), "integers" if kind == "integers"
                        else "numbers")
            if kind == "loguniform" and min(args) <= 0:
                c.fail(p, "[random] %s: loguniform needs positive bounds" % k)
        random[k] = (kind, args)
    doc["random"] = random
    doc["samples"] = samples

    params = list(grid) + list(random)
    doc["trial"] = _check_trial(c.typed(raw.get("trial", {}), (dict,),
                                        ("trial",), "a table"), c, params)
    return doc


def _check_trial(t, c, params):
    """The checked [trial] table."""
    c.keys(t, _TRIAL, ("trial",))
    P = ("trial",)
    if "keyframe" in t:
        c.typed(t["keyframe"], (str, int), P + ("keyframe",),
                "a keyframe's name or number")
    if "noise" in t:
        c.number(t["noise"], P + ("noise",))
        c.expression(t["noise"], params, P + ("noise",))
    sets = c.typed(t.get("set", {}), (dict,), P + ("set",),
                   "a table of arrays by name")
    for k, v in sets.items():
        if not re.fullmatch(r"[a-z_0-9]+(\[[^\],]+(,\s*\d+)?\])?", k):
            c.fail(P + ("set", k), "[trial.set] '%s': an array's MuJoCo "
                   "name, with [ROW] or [ROW, COL] (ROW an object's name "
                   "or number)" % k)
        vs = v if isinstance(v, list) else [v]
        if not vs:
            c.fail(P + ("set", k), "[trial.set] '%s': no values" % k)
        for x in vs:
            c.number(x, P + ("set", k))
        c.expression(v, params, P + ("set", k))
    edits = c.typed(t.get("edit", []), (list,), P + ("edit",),
                    "an array of tables ([[trial.edit]])")
    for i, e in enumerate(edits):
        p = P + ("edit", i)
        c.typed(e, (dict,), p, "a table")
        c.keys(e, _EDIT, p)
        if e.get("op") not in EDIT_OPS:
            c.fail(p + ("op",), "[trial.edit] op: one of %s"
                   % ", ".join(EDIT_OPS))
        c.typed(e.get("type"), (str,), p + ("type",), "an element type")
        for k in ("name", "parent"):
            if k in e:
                c.typed(e[k], (str,), p + (k,), "a string")
        attrs = c.typed(e.get("attrs", {}), (dict,), p + ("attrs",),
                        "a table")
        if e["op"] == "unset":
            c.typed(attrs, (dict,), p + ("attrs",), "a table")
        c.expression(e, params, p)
    ctrl = c.typed(t.get("ctrl", {}), (dict,), P + ("ctrl",),
                   "a table of controls by actuator name")
    for k, v in ctrl.items():
        c.number(v, P + ("ctrl", k))
    c.expression(ctrl, params, P + ("ctrl",))
    sched = c.typed(t.get("schedule", []), (list,), P + ("schedule",),
                    "an array of tables ([[trial.schedule]])")
    for i, s in enumerate(sched):
        p = P + ("schedule", i)
        c.typed(s, (dict,), p, "a table")
        c.keys(s, _SCHEDULE, p)
        if ("step" in s) == ("time" in s):
            c.fail(p, "[trial.schedule] item %d: give step or time" % (i + 1))
        if "step" in s:
            c.positive_int(s["step"], p + ("step",), zero=True)
        else:
            c.typed(s["time"], (int, float), p + ("time",), "seconds")
        sc = c.typed(s.get("ctrl", {}), (dict,), p + ("ctrl",),
                     "a table of controls")
        for k, v in sc.items():
            c.number(v, p + ("ctrl", k))
        c.expression(sc, params, p + ("ctrl",))
    if "command" in t:
        cmd = c.typed(t["command"], (str, list), P + ("command",),
                      "a command line (a string for sh -c, or an array)")
        if isinstance(cmd, list):
            if not cmd:
                c.fail(P + ("command",), "[trial] command: empty")
            for x in cmd:
                c.typed(x, (str, int, float), P + ("command",),
                        "an array of strings")
        c.expression(cmd, params, P + ("command",))
        for k in ("steps", "time", "record", "every", "keep", "summary",
                  "schedule"):
            if k in t:
                c.fail(P + (k,), "[trial] %s: a command trial runs itself; "
                       "%s is for trials hxsweep runs" % (k, k))
        return t
    if "steps" in t and "time" in t:
        c.fail(P + ("time",), "[trial]: give steps or time, not both")
    if "steps" in t:
        c.positive_int(t["steps"], P + ("steps",))
    elif "time" in t:
        c.typed(t["time"], (int, float), P + ("time",), "seconds")
        if t["time"] <= 0:
            c.fail(P + ("time",), "[trial] time: must be > 0")
    rec = c.typed(t.get("record", []), (list,), P + ("record",),
                  "an array of fields")
    for i, f in enumerate(rec):
        c.typed(f, (str,), P + ("record", i), "a field's name")
        if f not in RECORD_FIELDS and not re.fullmatch(
                r"(sensor|joint):.+", f):
            near = nearest(f, RECORD_FIELDS)
            c.fail(P + ("record",), "[trial] record: unknown field '%s'%s "
                   "(fields: %s, sensor:NAME, joint:NAME)" % (
                       f, " (did you mean '%s'?)" % near if near else "",
                       ", ".join(RECORD_FIELDS)))
    if "every" in t:
        c.positive_int(t["every"], P + ("every",))
    keep = c.typed(t.get("keep", "last"), (str,), P + ("keep",),
                   '"last", "series" or "summary"')
    if keep not in ("last", "series", "summary"):
        c.fail(P + ("keep",), '[trial] keep: "last", "series" or '
               '"summary", not "%s"' % keep)
    summ = c.typed(t.get("summary", ["min", "max", "mean", "last"]), (list,),
                   P + ("summary",), "an array")
    if not summ:
        c.fail(P + ("summary",), "[trial] summary: empty")
    for s in summ:
        if s not in SUMMARIES:
            c.fail(P + ("summary",), "[trial] summary: '%s' is not one of "
                   "%s" % (s, ", ".join(SUMMARIES)))
    return t


def loads(text, where="<sweep>", base=".", stem="sweep"):
    """Read a sweep from TOML text; ``where`` names it in errors and
    ``base`` is the directory its relative paths start from."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        raise SweepError("%s:%s: %s" % (where, m.group(1) if m else "1",
                                        msg)) from None
    c = _Checker(where, Lines(text))
    doc = _check(raw, c, stem)
    base = os.path.abspath(base)
    model = doc["model"]
    if "/" in model:
        model = os.path.normpath(os.path.join(base, model))
    doc["model"] = model
    doc["model_dirs"] = [os.path.normpath(os.path.join(base, d))
                         for d in doc["model_dirs"]]
    s = Sweep(doc, where, base)
    s.text = text
    s.trial_line = c.lines.line(("trial",))
    if not s.trials:
        c.fail((), "the sweep has no trials")
    return s


def load(path):
    """Read a sweep file (see docs/sweeps.md); raises SweepError."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SweepError("%s: %s" % (path, e.strerror)) from None
    except UnicodeDecodeError as e:
        raise SweepError("%s: not UTF-8 text: %s" % (path, e)) from None
    stem = os.path.splitext(os.path.basename(path))[0]
    return loads(text, path, os.path.dirname(os.path.abspath(path)), stem)
