"""Pictures of a simulation for environments, drawn by MuJoCo's renderer
through hxview's EGL path in a process the environment owns.

    frames = Frames("unix:/run/user/1000/haptixd.sock", size=(128, 128))
    rgb = frames.grab()         # (128, 128, 3) uint8, the state right now
    frames.close()

``Frames`` runs ``hxview frames`` (hxview(1)): each picture is asked for
on its standard input and comes back on its standard output as binary
PPM, of the daemon's state at the moment it was asked, so an environment
stepping in lock-step gets the picture of exactly its step.  ``Viewer``
runs ``hxview serve`` (the workbench, read-only) and gives its URL.
Neither needs anything in Python beyond NumPy.
"""

import subprocess
import tempfile

import numpy as np

from .errors import Error
from .programs import find_program

__all__ = ["Frames", "Viewer", "RenderError", "find_hxview"]

class RenderError(Error):
    """hxview is missing, did not start, or stopped."""


def find_hxview(given=None):
    """The hxview to run: ``given``, else ``$HXVIEW``, else the one on
    the PATH, else the system's."""
    p = find_program("hxview", given, "HXVIEW",
                     ("/usr/local/bin", "/usr/bin"))
    if p:
        return p
    raise RenderError("no hxview: install haptixd-clients, set $HXVIEW, "
                      "or put the build's clients on the PATH (eval "
                      "\"$(./quickstart env)\")")


def _argv(hxview, server, size, camera, command):
    argv = [find_hxview(hxview), "-s", server]
    if size is not None:
        argv += ["--size", "%dx%d" % (int(size[0]), int(size[1]))]
    if camera is not None:
        argv += ["--camera", str(camera)]
    return argv + command


class _Process:
    """An hxview of ours: its standard error kept in a file, read back
    when it fails; ended with the owner."""

    def __init__(self, argv, stdin=None, stdout=None):
        self._err = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(argv, stdin=stdin, stdout=stdout,
                                         stderr=self._err, bufsize=0)
        except OSError as e:
            self._err.close()
            raise RenderError("cannot run %s: %s" % (argv[0], e)) from None

    def why(self):
        """What hxview said, and how it ended."""
        self._err.seek(0)
        text = self._err.read().decode(errors="replace").strip()
        rc = self.proc.poll()
        end = "" if rc is None else " (exit %d)" % rc
        return (text or "hxview said nothing") + end

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None:
                f.close()
        self._err.close()


class Frames:
    """Pictures on request: ``grab()`` returns an (height, width, 3)
    uint8 array of the server's state when it is called.

    ``server``: the daemon's address (``unix:PATH``, ...).  ``size``:
    (width, height).  ``camera``: one of the model's cameras by name
    (None: the free camera, as the model sets it).  ``hxview``: its
    path (None: see :func:`find_hxview`).
    """

    def __init__(self, server, size=(640, 480), camera=None, hxview=None):
        self._p = _Process(_argv(hxview, server, size, camera, ["frames"]),
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def _line(self):
        line = self._p.proc.stdout.readline()
        if not line.endswith(b"\n"):
            raise RenderError("hxview frames stopped: " + self._p.why())
        return line

    def grab(self):
        """One picture of the state now, as an RGB array, top row first."""
        self.ask()
        return self.read()

    def ask(self):
        """Ask for a picture of the state now, not waiting for it (many
        hxviews then draw at once); :meth:`read` returns it."""
        try:
            self._p.proc.stdin.write(b"\n")
        except (BrokenPipeError, ValueError):
            raise RenderError("hxview frames stopped: "
                              + self._p.why()) from None

    def read(self):
        """The picture :meth:`ask` asked for."""
        out = self._p.proc.stdout
        if self._line() != b"P6\n":
            raise RenderError("hxview frames wrote no PPM picture")
        w, h = (int(x) for x in self._line().split())
        if self._line() != b"255\n":
            raise RenderError("hxview frames wrote a PPM of other depth")
        n = w * h * 3
        data = bytearray(n)
        view, got = memoryview(data), 0
        while got < n:
            k = out.readinto(view[got:])
            if not k:
                raise RenderError("hxview frames stopped in a picture: "
                                  + self._p.why())
            got += k
        return np.frombuffer(data, np.uint8).reshape(h, w, 3)

    def close(self):
        """End the hxview process."""
        if self._p is not None:
            self._p.close()
            self._p = None


class Viewer:
    """The workbench (``hxview serve --read-only``) on a free loopback
    port, for a person to watch: its address is ``url``."""

    def __init__(self, server, hxview=None):
        self._p = _Process(_argv(hxview, server, None, None,
                                 ["serve", "--http", "127.0.0.1:0",
                                  "--read-only"]),
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
        line = self._p.proc.stdout.readline().decode(errors="replace")
        words = line.split()
        if len(words) < 3 or words[1] != "serving":
            why = self._p.why()
            self._p.close()
            raise RenderError("hxview serve did not start: " + why)
        self.url = words[2]

    def close(self):
        """End the hxview process."""
        if self._p is not None:
            self._p.close()
            self._p = None
