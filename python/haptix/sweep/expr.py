"""Parameter expressions in a sweep file's strings: ``"{kp}"``,
``"-{kp}"``, ``"{2 * kp} 0 0"``.

A string is a template: each ``{...}`` holds an arithmetic expression
over the trial's parameters (and ``trial``, ``seed``, ``pi``, ``e``),
read with Python's own parser but evaluated here, node by node, so that
a sweep file can compute nothing but numbers.  A string that is one
whole ``{...}`` gives the value itself (a number stays a number); any
other is the text with each expression's value written in.
"""

import ast
import math
import operator
import re

__all__ = ["ExprError", "names", "evaluate", "number", "check"]

_BRACES = re.compile(r"\{([^{}]*)\}")
_BIN = {ast.Add: operator.add, ast.Sub: operator.sub,
        ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
        ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_FUNCS = {"sin": math.sin, "cos": math.cos, "tan": math.tan,
          "sqrt": math.sqrt, "exp": math.exp, "log": math.log,
          "abs": abs, "min": min, "max": max, "round": round,
          "floor": math.floor, "ceil": math.ceil}
_CONSTS = {"pi": math.pi, "e": math.e}


class ExprError(ValueError):
    """A template that does not read or does not compute."""


class _Arithmetic(ExprError):
    """A template that reads but does not compute with these values."""


def _eval(node, env):
    """The value of one parsed node: numbers, names, arithmetic, a few functions."""
    if isinstance(node, ast.Expression):
        return _eval(node.body, env)
    if isinstance(node, ast.Constant) and isinstance(node.value,
                                                     (int, float)):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in _CONSTS:
            return _CONSTS[node.id]
        raise ExprError("unknown name '%s' (known: %s)"
                        % (node.id, ", ".join(sorted(env))))
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        return _BIN[type(node.op)](_eval(node.left, env),
                                   _eval(node.right, env))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand, env))
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCS and not node.keywords):
        return _FUNCS[node.func.id](*[_eval(a, env) for a in node.args])
    raise ExprError("only numbers, parameters, + - * / // %% ** and %s "
                    "may appear in an expression"
                    % ", ".join(sorted(_FUNCS)))


def _one(text, env):
    """The value of the text of one {...}."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise ExprError("'{%s}' is not an expression" % text) from None
    try:
        return _eval(tree, env)
    except ExprError:
        raise
    except (ArithmeticError, ValueError, TypeError) as e:
        raise _Arithmetic("'{%s}': %s" % (text, e)) from None


def evaluate(value, env):
    """A value of the sweep file with its templates filled in from env
    (lists and tables element by element)."""
    if isinstance(value, str):
        m = _BRACES.fullmatch(value.strip())
        if m:
            return _one(m.group(1), env)
        return _BRACES.sub(lambda m: _fmt(_one(m.group(1), env)), value)
    if isinstance(value, list):
        return [evaluate(v, env) for v in value]
    if isinstance(value, dict):
        return {k: evaluate(v, env) for k, v in value.items()}
    return value


def _fmt(v):
    """A value written into a template's text, floats exactly."""
    if isinstance(v, float):
        return "%.17g" % v
    return str(v)


def number(value, env, what):
    """A value that must be a number (or numbers): templates filled in,
    text read as numbers."""
    v = evaluate(value, env)
    if isinstance(v, list):
        return [number(x, env, what) for x in v]
    if isinstance(v, bool):
        raise ExprError("%s: true/false is not a number" % what)
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(v)
    except (TypeError, ValueError):
        raise ExprError("%s: '%s' is not a number" % (what, v)) from None


def names(value):
    """Whether a value holds templates: True when any string has one."""
    if isinstance(value, str):
        return bool(_BRACES.search(value))
    if isinstance(value, list):
        return any(names(v) for v in value)
    if isinstance(value, dict):
        return any(names(v) for v in value.values())
    return False


def check(value, params):
    """Raise ExprError when a template names no parameter or does not
    read; each parameter stands in as 1, and what does not compute with
    that (a division by zero) is left to the trial."""
    env = dict.fromkeys(params, 1.0)
    env.update(trial=1, seed=1, repeat=1)
    try:
        evaluate(value, env)
    except _Arithmetic:
        pass
