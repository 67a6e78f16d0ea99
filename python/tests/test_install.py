"""pip install ./python, offline, into a venv that sees Debian's
packages: the command docs/python.md gives.  The tree is copied first,
so that setuptools' leavings stay out of the source."""

import os
import shutil
import subprocess
import sys


SRC = os.path.join(os.path.dirname(__file__), "..", "..")


def test_pip_install_offline(tmp_path):
    tree = tmp_path / "haptixd"
    shutil.copytree(os.path.join(SRC, "python"), tree / "python",
                    ignore=shutil.ignore_patterns("__pycache__", "build",
                                                  "*.egg-info",
                                                  "haptix_pb2.py"))
    (tree / "proto").mkdir()
    shutil.copy(os.path.join(SRC, "proto", "haptix.proto"), tree / "proto")
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages",
                    str(env)], check=True)
    p = subprocess.run([str(env / "bin" / "pip"), "install", "-q",
                        "--no-build-isolation", "--no-index",
                        str(tree / "python")], capture_output=True,
                       text=True, cwd=str(tmp_path), timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    e = dict(os.environ)
    e.pop("PYTHONPATH", None)
    p = subprocess.run([str(env / "bin" / "python"), "-c",
                        "import haptix, haptix.proto; "
                        "print(haptix.__file__); print(haptix.proto.pb.__file__)"],
                       capture_output=True, text=True, env=e,
                       cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr
    mod, pb = p.stdout.split()
    assert mod.startswith(str(env)) and pb.startswith(str(env))
    # hxsweep comes along, as a script running haptix.sweep.
    p = subprocess.run([str(env / "bin" / "hxsweep"), "--help"],
                       capture_output=True, text=True, env=e,
                       cwd=str(tmp_path))
    assert p.returncode == 0 and "hxsweep run SWEEP" in p.stdout, p.stderr
