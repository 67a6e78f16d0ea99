"""zstd frames, through the system's libzstd by ctypes (no compiled
extension, no new package: Debian's dpkg itself needs libzstd1).

Used for recordings (docs/recording.md) and ``get_model``'s MJB.
"""

import ctypes
import ctypes.util
import struct

_lib = None
_UNKNOWN = (1 << 64) - 1
_ERROR = (1 << 64) - 2


def _zstd():
    global _lib
    if _lib is None:
        name = ctypes.util.find_library("zstd") or "libzstd.so.1"
        lib = ctypes.CDLL(name)
        size_t, p = ctypes.c_size_t, ctypes.c_void_p
        lib.ZSTD_findFrameCompressedSize.restype = size_t
        lib.ZSTD_findFrameCompressedSize.argtypes = [p, size_t]
        lib.ZSTD_getFrameContentSize.restype = ctypes.c_ulonglong
        lib.ZSTD_getFrameContentSize.argtypes = [p, size_t]
        lib.ZSTD_decompress.restype = size_t
        lib.ZSTD_decompress.argtypes = [p, size_t, p, size_t]
        lib.ZSTD_isError.restype = ctypes.c_uint
        lib.ZSTD_isError.argtypes = [size_t]
        lib.ZSTD_getErrorName.restype = ctypes.c_char_p
        lib.ZSTD_getErrorName.argtypes = [size_t]
        _lib = lib
    return _lib


class Truncated(Exception):
    """The data ends inside a frame."""


def frames(data, max_content=65 << 20):
    """Yield (offset, content) for each zstd frame of data, passing over
    skippable frames.  Raises Truncated at a frame cut short and
    ValueError at a damaged one (naming its offset)."""
    lib = _zstd()
    buf = (ctypes.c_char * len(data)).from_buffer_copy(data) if data else None
    base = ctypes.addressof(buf) if buf is not None else 0
    pos = 0
    while pos < len(data):
        left = len(data) - pos
        if left >= 8:
            magic, n = struct.unpack_from("<II", data, pos)
            if 0x184D2A50 <= magic <= 0x184D2A5F:
                if 8 + n > left:
                    raise Truncated(pos)
                pos += 8 + n
                continue
        size = lib.ZSTD_findFrameCompressedSize(base + pos, left)
        if lib.ZSTD_isError(size):
            raise Truncated(pos)
        want = lib.ZSTD_getFrameContentSize(base + pos, size)
        if want in (_UNKNOWN, _ERROR) or want > max_content:
            raise ValueError("zstd frame at byte %d: content size %s"
                             % (pos, "unknown" if want >= _ERROR else want))
        out = ctypes.create_string_buffer(max(want, 1))
        got = lib.ZSTD_decompress(out, want, base + pos, size)
        if lib.ZSTD_isError(got) or got != want:
            raise ValueError("zstd frame at byte %d: %s" % (
                pos, lib.ZSTD_getErrorName(got).decode()
                if lib.ZSTD_isError(got) else "short"))
        yield pos, out.raw[:want]
        pos += size


def decompress(data, max_content=1 << 30):
    """The content of data holding one zstd frame."""
    for _, content in frames(data, max_content):
        return content
    return b""
