"""The project's programs, found as the Python package's users expect:
the path given, else an environment variable, else the PATH, else where
make install and the Debian packages put them."""

import os
import shutil

__all__ = ["find_program"]


def find_program(name, given=None, variable=None, dirs=()):
    """The path of ``name``: ``given``, else ``$variable``, else the one
    on the PATH, else the first of ``dirs`` that has it; None if none is
    executable."""
    candidates = [given, os.environ.get(variable) if variable else None,
                  shutil.which(name)] + [os.path.join(d, name) for d in dirs]
    for p in candidates:
        if p and os.access(p, os.X_OK):
            return os.path.abspath(p)
    return None
