"""Build hook for pip: generate haptix_pb2.py from the protocol's .proto.

The .proto is the single source (proto/haptix.proto beside this
directory, or $HAPTIX_PROTO); the generated module is written into the
build, never into the source tree.  protoc is Debian's
protobuf-compiler ($PROTOC to name another).
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPyWithProto(build_py):
    """build_py, then protoc --python_out into the built package."""

    def run(self):
        super().run()
        proto = os.environ.get("HAPTIX_PROTO") or os.path.join(
            HERE, "..", "proto", "haptix.proto")
        if not os.path.exists(proto):
            raise SystemExit("haptix: %s not found: build from the haptixd "
                             "tree, or set HAPTIX_PROTO" % proto)
        protoc = os.environ.get("PROTOC") or shutil.which("protoc")
        if protoc is None:
            raise SystemExit("haptix: protoc not found: apt-get install "
                             "protobuf-compiler")
        out = os.path.join(self.build_lib, "haptix")
        os.makedirs(out, exist_ok=True)
        subprocess.check_call([protoc, "-I", os.path.dirname(proto),
                               "--python_out", out, proto])


setup(cmdclass={"build_py": BuildPyWithProto})
