"""hxsweep from the build tree, run as a user runs it, in a scratch
directory; the environment comes from make check (tests/local.mk,
python/local.mk): $HXSWEEP, $HAPTIXD, $HX_MODELS, $HX_TEST_MODELS."""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def env(name):
    """A variable make check sets, or the test fails."""
    v = os.environ.get(name)
    if not v:
        pytest.fail("%s is not set: run by make check (tests/sweep.sh)"
                    % name)
    return v


class Runner:
    """Runs hxsweep in ``dir`` (where the sweep files are written)."""

    def __init__(self, dir):
        self.dir = dir
        self.exe = env("HXSWEEP")
        self.models = env("HX_MODELS")
        self.test_models = env("HX_TEST_MODELS")
        env("HAPTIXD")

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(text)
        return name

    def copy(self, name):
        shutil.copy(os.path.join(HERE, name), self.dir)
        return name

    def argv(self, *args):
        return [self.exe] + list(args)

    def models_args(self):
        return ["-M", self.models, "-M", self.test_models]

    def __call__(self, *args, timeout=120, models=True):
        a = list(args)
        if models and a and a[0] in ("run", "submit", "check"):
            a += self.models_args()
        p = subprocess.run(self.argv(*a), cwd=self.dir,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
        sys.stderr.write(p.stderr)
        return p

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def read(self, *parts):
        with open(self.path(*parts), "rb") as f:
            return f.read()


@pytest.fixture
def hxsweep(tmp_path):
    """hxsweep(*args) in a scratch directory; .write(), .copy(), .path()."""
    return Runner(str(tmp_path))
