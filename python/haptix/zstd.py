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


class _InBuffer(ctypes.Structure):
    _fields_ = [("src", ctypes.c_void_p), ("size", ctypes.c_size_t),
                ("pos", ctypes.c_size_t)]


class _OutBuffer(ctypes.Structure):
    _fields_ = [("dst", ctypes.c_void_p), ("size", ctypes.c_size_t),
                ("pos", ctypes.c_size_t)]


_D_WINDOW_LOG_MAX = 100      # ZSTD_d_windowLogMax


class StreamFrames:
    """The zstd frames of a file, one at a time, as the recording
    library reads them (lib/recording.c, reader_frame): through one
    decompression stream that refuses windows past 2^window_log_max,
    so that a frame is whole before it is given, a file that ends inside
    one ends there (``truncated``, ``dropped`` its bytes read), and a
    damaged one is a ValueError naming its byte offset.  Only the frame
    being read is held, and it may not pass the size asked for."""

    def __init__(self, f, window_log_max=23, data=b""):
        lib = _zstd()
        if not hasattr(lib, "_stream_set"):
            size_t, p = ctypes.c_size_t, ctypes.c_void_p
            lib.ZSTD_createDStream.restype = p
            lib.ZSTD_createDStream.argtypes = []
            lib.ZSTD_freeDStream.restype = size_t
            lib.ZSTD_freeDStream.argtypes = [p]
            lib.ZSTD_DCtx_setParameter.restype = size_t
            lib.ZSTD_DCtx_setParameter.argtypes = [p, ctypes.c_int,
                                                   ctypes.c_int]
            lib.ZSTD_decompressStream.restype = size_t
            lib.ZSTD_decompressStream.argtypes = [
                p, ctypes.POINTER(_OutBuffer), ctypes.POINTER(_InBuffer)]
            lib.ZSTD_DStreamInSize.restype = size_t
            lib.ZSTD_DStreamInSize.argtypes = []
            lib._stream_set = True
        self._lib = lib
        self._f = f
        self._ds = lib.ZSTD_createDStream()
        if not self._ds or lib.ZSTD_isError(lib.ZSTD_DCtx_setParameter(
                self._ds, _D_WINDOW_LOG_MAX, window_log_max)):
            raise MemoryError("zstd: no decompression stream")
        self._chunk = max(int(lib.ZSTD_DStreamInSize()), 1 << 16)
        self._in = bytearray(data)
        self._in_pos = 0
        self._in_off = 0             # the file offset of _in[0]
        self.ended = False
        self.truncated = False
        self.dropped = 0
        self.offset = 0              # where the last frame given starts

    def close(self):
        if self._ds:
            self._lib.ZSTD_freeDStream(self._ds)
            self._ds = None

    def __del__(self):
        self.close()

    def next(self, max_len):
        """The next frame's content (bytes), or None at the end of the
        file; ValueError if it is damaged or holds more than max_len."""
        lib = self._lib
        start = self._in_off + self._in_pos
        out = bytearray()
        filled = 0
        while True:
            if self._in_pos == len(self._in):
                self._in_off += len(self._in)
                self._in = bytearray(self._f.read(self._chunk))
                self._in_pos = 0
                if not self._in:
                    if filled == max_len:
                        break
                    # A writer killed mid-write: not an error.
                    self.ended = True
                    if self._in_off > start:
                        self.truncated = True
                        self.dropped = self._in_off - start
                    return None
            if filled == len(out) and len(out) < max_len:
                out.extend(bytes(min(max_len, max(2 * len(out), 1 << 16))
                                 - len(out)))
            src = (ctypes.c_char * len(self._in)).from_buffer(self._in)
            dst = (ctypes.c_char * max(len(out), 1)).from_buffer(
                out if out else bytearray(1))
            ib = _InBuffer(ctypes.addressof(src), len(self._in),
                           self._in_pos)
            ob = _OutBuffer(ctypes.addressof(dst), len(out), filled)
            ret = lib.ZSTD_decompressStream(self._ds, ctypes.byref(ob),
                                            ctypes.byref(ib))
            del src, dst
            self._in_pos = ib.pos
            filled = ob.pos
            if lib.ZSTD_isError(ret):
                raise ValueError("corrupt frame at byte %d: %s" % (
                    start, lib.ZSTD_getErrorName(ret).decode()))
            if ret == 0:
                self.offset = start
                return bytes(out[:filled])
            # Stopped with input left: for want of room.
            if filled == max_len and ib.pos < ib.size:
                break
        raise ValueError("the frame at byte %d holds more than %d bytes"
                         % (start, max_len))
