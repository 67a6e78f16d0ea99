"""The results of a sweep: one JSON line per finished trial, appended
as trials finish (a line is written whole, so a runner killed midway
leaves whole lines behind), read back to resume, and at the end
rewritten in the order of the trials, with the same table as CSV and
one NumPy ``.npy`` per field.  None of it depends on where, when or in
which order the trials ran."""

import csv
import io
import json
import math
import os
import threading

import numpy as np

__all__ = ["Table", "record", "read", "finish"]

RESULTS = "results.jsonl"


def held(out):
    """True if the directory ``out`` holds results: a results.jsonl with
    something in it (a run that stopped before its first trial leaves
    an empty one, which holds nothing)."""
    path = os.path.join(out, RESULTS)
    return os.path.exists(path) and os.path.getsize(path) > 0


def record(t, status, attempts, errors, result=None):
    """A trial's line: its id, repeat, seed and parameters, ``ok`` or
    ``failed``, the attempts it took, the reasons of the failed ones,
    and its result."""
    r = {"trial": t.id, "repeat": t.repeat, "seed": t.seed,
         "params": t.params, "status": status, "attempts": attempts}
    if errors:
        r["errors"] = list(errors)
    if result is not None:
        r["result"] = result
    return r


def _line(r):
    """A row as one line of JSON."""
    return json.dumps(r, separators=(", ", ": ")) + "\n"


def read(path):
    """The trials of a results file by id: the last whole line of each
    (a trial run again after a failure, on --resume, is written again)."""
    out = {}
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return out
    with f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break               # cut short by a kill: run it again
            try:
                r = json.loads(raw)
                out[int(r["trial"])] = r
            except (ValueError, KeyError, TypeError):
                continue
    return out


class Table:
    """A results file trials are appended to as they finish."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND,
                          0o644)
        # A line cut short by a kill would join the next: end it.
        if os.fstat(self.fd).st_size:
            with open(path, "rb") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    os.write(self.fd, b"\n")

    def append(self, r):
        """Write one trial's line, whole, in one write."""
        data = _line(r).encode()
        with self.lock:
            os.write(self.fd, data)

    def close(self):
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _flat(result, prefix=""):
    """A result's fields as (name, value): tables joined with dots,
    arrays kept whole."""
    for k, v in result.items():
        name = prefix + str(k)
        if isinstance(v, dict):
            yield from _flat(v, name + ".")
        else:
            yield name, v


def _cells(name, v):
    """A field as CSV cells: a number as one, an array of numbers one
    per element (name[i]); deeper arrays are left to the .npy files."""
    if isinstance(v, list):
        if all(not isinstance(x, (list, dict)) for x in v):
            return [("%s[%d]" % (name, i), x) for i, x in enumerate(v)]
        return []
    if isinstance(v, dict):
        return []
    return [(name, v)]


def _text(v):
    """A value in a CSV cell, floats exactly."""
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return ""
    return str(v)


def _write(path, data):
    """Write a file whole: to a temporary name, then renamed."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _npy(path, a):
    """Write an array as a .npy file, whole."""
    buf = io.BytesIO()
    np.save(buf, a, allow_pickle=False)
    _write(path, buf.getvalue())


def _numeric(values):
    """An array of the values when all are numbers of one shape: int64
    when every one is an integer (a count of steps, a grid of ints),
    else float64."""
    try:
        arrs = [np.asarray(v) for v in values]
    except (TypeError, ValueError):
        return None
    if not arrs or any(a.shape != arrs[0].shape for a in arrs):
        return None
    if all(a.dtype.kind in "iu" for a in arrs):
        return np.stack(arrs).astype(np.int64)
    if not all(a.dtype.kind in "iufb" for a in arrs):
        return None
    return np.stack(arrs).astype(np.float64)


def finish(dir, sweep, rows=None):
    """Rewrite DIR's results.jsonl in the order of the trials, and write
    results.csv and npy/ from it; returns the rows, sorted."""
    path = os.path.join(dir, RESULTS)
    if rows is None:
        rows = read(path)
    order = sorted(rows)
    _write(path, "".join(_line(rows[i]) for i in order).encode())

    params = sweep.params if sweep is not None else sorted(
        {k for r in rows.values() for k in r["params"]})
    cols = []
    seen = set()
    for i in order:
        for name, v in _flat(rows[i].get("result", {})):
            for c, _ in _cells(name, v):
                if c not in seen:
                    seen.add(c)
                    cols.append(c)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["trial", "repeat", "seed"] + params +
               ["status", "attempts"] + cols + ["error"])
    for i in order:
        r = rows[i]
        cells = {}
        for name, v in _flat(r.get("result", {})):
            cells.update(_cells(name, v))
        errs = r.get("errors", [])
        w.writerow([r["trial"], r["repeat"], r["seed"]] +
                   [_text(r["params"].get(p)) for p in params] +
                   [r["status"], r["attempts"]] +
                   [_text(cells.get(c)) for c in cols] +
                   [errs[-1] if errs and r["status"] != "ok" else ""])
    _write(os.path.join(dir, "results.csv"), out.getvalue().encode())

    npy = os.path.join(dir, "npy")
    os.makedirs(os.path.join(npy, "params"), exist_ok=True)
    _npy(os.path.join(npy, "trial.npy"), np.array(order, dtype=np.int64))
    _npy(os.path.join(npy, "seed.npy"),
         np.array([rows[i]["seed"] for i in order], dtype=np.int64))
    ok = np.array([rows[i]["status"] == "ok" for i in order], dtype=bool)
    _npy(os.path.join(npy, "ok.npy"), ok)
    for p in params:
        a = _numeric([rows[i]["params"].get(p) for i in order])
        if a is not None:
            _npy(os.path.join(npy, "params", p + ".npy"), a)
    fields = []
    for i in order:
        for name, _ in _flat(rows[i].get("result", {})):
            if name not in fields:
                fields.append(name)
    for name in fields:
        got = [dict(_flat(rows[i].get("result", {}))).get(name)
               if rows[i]["status"] == "ok" else None for i in order]
        present = [v for v in got if v is not None]
        a = _numeric(present)
        if a is None:
            continue
        if len(present) == len(got):
            _npy(os.path.join(npy, name.replace("/", "_") + ".npy"), a)
            continue
        # A trial that failed has no value: NaN, so floats.
        full = np.full((len(order),) + a.shape[1:], math.nan)
        full[[k for k, v in enumerate(got) if v is not None]] = a
        _npy(os.path.join(npy, name.replace("/", "_") + ".npy"), full)
    return [rows[i] for i in order]
