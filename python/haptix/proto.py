"""The protocol's messages, generated from proto/haptix.proto.

``haptix_pb2`` is made by ``protoc --python_out`` when the package is
built (make, or pip's build), never kept in the source tree.  In the
build tree it lives in build/python/haptix/, a second directory of this
package (see __init__.py).
"""

try:
    from . import haptix_pb2 as pb
except ImportError as e:        # pragma: no cover - a build step missing
    raise ImportError(
        "haptix: haptix_pb2 is missing: build it (make in the build tree, "
        "with build/python on PYTHONPATH; or pip install ./python): %s"
        % e) from None

__all__ = ["pb"]
