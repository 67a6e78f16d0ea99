"""haptix.read_recording against the recording library (lib/recording.c,
through hxplay info): the same files accepted and refused, the same
header, records and segments, over damaged and crafted recordings
(mutations of a real one, as the fuzzer mutates the wire), and a file
that asks for more memory than it may have."""

import ctypes
import ctypes.util
import os
import random
import re
import struct
import subprocess

import numpy as np
import pytest

import haptix
from haptix import edit

_lib = ctypes.CDLL(ctypes.util.find_library("zstd") or "libzstd.so.1")
_lib.ZSTD_compress.restype = ctypes.c_size_t
_lib.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                               ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_lib.ZSTD_compressBound.restype = ctypes.c_size_t
_lib.ZSTD_compressBound.argtypes = [ctypes.c_size_t]


def compress(data):
    """One zstd frame of data (its content size in the header)."""
    cap = _lib.ZSTD_compressBound(len(data))
    out = ctypes.create_string_buffer(cap)
    src = ctypes.create_string_buffer(bytes(data), len(data))
    n = _lib.ZSTD_compress(out, cap, src, len(data), 1)
    assert n < (1 << 63), "ZSTD_compress failed"
    return out.raw[:n]


def frames_of(path):
    """A recording's frames, decompressed, as a list of bytes."""
    from haptix import zstd
    with open(path, "rb") as f:
        data = f.read()
    return [c for _, c in zstd.frames(data)]


def hxplay_info(path):
    """What hxplay info says of path: None if it refuses it."""
    p = subprocess.run([os.environ["HXPLAY"], "info", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=60)
    if p.returncode != 0:
        return None
    got = dict(re.findall(r"^([a-z ]+): (.*)$", p.stdout, re.M))
    return got


def python_read(path):
    """What read_recording makes of path: None if it refuses it
    (ValueError); any other exception fails the test."""
    try:
        return haptix.read_recording(path)
    except ValueError as e:
        assert path in str(e), e
        return None


def same(path):
    """hxplay and read_recording agree on path; returns whether read."""
    c = hxplay_info(path)
    p = python_read(path)
    assert (c is None) == (p is None), (
        path, "hxplay " + ("refuses" if c is None else "reads"),
        "python " + ("refuses" if p is None else "reads"))
    if c is None:
        return False
    n = sum(len(q["time"]) for q in p.parts)
    assert int(c["records"]) == n, (path, c["records"], n)
    assert int(c["segments"]) == p.segments, (path, c["segments"],
                                              p.segments)
    assert c["model"] == p.name, (path, c["model"], p.name)
    h = p.header
    sizes = "nq %d nv %d na %d nu %d nmocap %d nsensordata %d nbody %d" % (
        h["nq"], h["nv"], h["na"], h["nu"], h["nmocap"], h["nsensordata"],
        h["nbody"]) if h["format"] == "hxr" else \
        "nq %d nv %d nu %d nmocap %d nsensordata %d" % (
            h["nq"], h["nv"], h["nu"], h["nmocap"], h["nsensordata"])
    assert c["sizes"] == sizes, (path, c["sizes"], sizes)
    assert c["end"].startswith("cut inside") == p.truncated, (path, c["end"])
    return True


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    """A recording of every kind of item: states across a reset and an
    edit that changes the sizes, the journal, hashes."""
    from conftest import Server
    s = Server(["-m", "fixture.xml", "--paused"])
    try:
        with s.connect() as sim:
            rec = sim.record_start(journal=True)
            sim.set_ctrl(servo1=0.5)
            sim.step(20)
            sim.reset()
            sim.step(10)
            sim.edit(edit.add("body", "ball", pos=(0, 0, 2)),
                     edit.add("geom", parent="body:ball", size=0.1),
                     edit.add("freejoint", parent="body:ball"))
            sim.step(10)
            sim.record_stop()
        d = tmp_path_factory.mktemp("rec")
        path = str(d / "real.hxr")
        with open(rec.path, "rb") as f, open(path, "wb") as g:
            g.write(f.read())
    finally:
        s.stop()
    return path


def test_the_real_recording_reads_alike(real):
    assert same(real)
    r = haptix.read_recording(real)
    assert [len(p["time"]) for p in r.parts] == [30, 10]
    assert list(r.parts[0].segment) == [1] * 20 + [2] * 10
    assert r.hashes.shape[0] >= 40 and r.journal


def test_mutations_of_the_file_are_read_alike(real, tmp_path):
    # Bytes of the compressed file changed, cut or repeated: mostly
    # damaged frames, and files cut short.
    with open(real, "rb") as f:
        data = f.read()
    rng = random.Random(31)
    read = 0
    for i in range(150):
        b = bytearray(data)
        kind = i % 3
        if kind == 0:
            for _ in range(rng.randint(1, 4)):
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        elif kind == 1:
            del b[rng.randrange(len(b)):]
        else:
            at = rng.randrange(len(b))
            b[at:at] = b[at:at + rng.randint(1, 64)]
        path = str(tmp_path / ("m%d.hxr" % i))
        with open(path, "wb") as f:
            f.write(b)
        read += same(path)
    assert read > 20     # the cuts read: the test compared values


def test_mutations_inside_the_frames_are_read_alike(real, tmp_path):
    # The items changed and the frames compressed again: well-formed zstd
    # around malformed items, sizes, lengths, tags and headers.
    frames = frames_of(real)
    rng = random.Random(7)
    read = 0
    for i in range(200):
        fs = [bytearray(x) for x in frames]
        k = rng.randrange(len(fs))
        f = fs[k]
        for _ in range(rng.randint(1, 3)):
            how = rng.randrange(4)
            at = rng.randrange(len(f)) if f else 0
            if how == 0 and f:
                f[at] = rng.randrange(256)
            elif how == 1 and len(f) >= 4:
                at = rng.randrange(0, len(f) - 3) & ~3
                f[at:at + 4] = struct.pack("<I", rng.choice(
                    [0, 1, 3, 4, 8, 0xffffffff, 0x7fffffff, 1 << 24,
                     (1 << 24) + 1, rng.randrange(1 << 32)]))
            elif how == 2:
                del f[at:at + rng.randint(1, 24)]
            else:
                f[at:at] = bytes(rng.randrange(256)
                                 for _ in range(rng.randint(1, 24)))
        path = str(tmp_path / ("i%d.hxr" % i))
        with open(path, "wb") as out:
            for x in fs:
                out.write(compress(x))
        read += same(path)
    assert read > 20


def _header(nq=3, name=b"crafted", size=None, name_len=None):
    h = bytearray(80)
    h[0:6] = b"HXREC\0"
    h[6:8] = struct.pack("<H", 1)
    struct.pack_into("<IIIIIIIIII", h, 8, 0, 1, 1, nq, 0, 0, 0, 0, 0, 0)
    struct.pack_into("<I", h, 72, len(name) if name_len is None else name_len)
    h += name
    struct.pack_into("<I", h, 8, len(h) if size is None else size)
    return bytes(h)


def test_what_hxplay_refuses_python_refuses(tmp_path):
    # Each was read by the Python reader as garbage, or raised
    # struct.error, where hxplay refuses it.
    state24 = struct.pack("<II", 1, 24) + struct.pack("<Qdd", 4, 0.0, 1.0)
    cases = {
        "short_record": [_header(), state24],
        "short_journal": [_header(), struct.pack("<II", 2, 8) + bytes(8)],
        "short_hash": [_header(), struct.pack("<II", 3, 4) + bytes(4)],
        "journal_length": [_header(), struct.pack("<II", 2, 20) +
                           struct.pack("<QII", 0, 1, 99) + bytes(4)],
        "header_size_8": [_header(size=8)],
        "name_len_huge": [_header(name_len=0xffffffff)],
        "nq_huge": [_header(nq=1 << 25)],
        "item_overruns": [_header(), struct.pack("<II", 1, 400) + bytes(40)],
    }
    for name, fs in cases.items():
        path = str(tmp_path / (name + ".hxr"))
        with open(path, "wb") as f:
            for x in fs:
                f.write(compress(x))
        assert hxplay_info(path) is None, name
        with pytest.raises(ValueError):
            haptix.read_recording(path)


def test_a_file_that_asks_for_gigabytes_is_refused_at_the_limit(tmp_path):
    # 202 KB of zstd frames, each 60 MB of records within the frame
    # limit: the reader held them all, 3 GB after 20 s.  It stops at
    # max_bytes, naming it, having held about that much.
    rec = struct.pack("<II", 1, 16 + 8 * 1000) + bytes(16 + 8 * 1000)
    frame = compress(rec * (60 * (1 << 20) // len(rec)))
    path = str(tmp_path / "bomb.hxr")
    with open(path, "wb") as f:
        f.write(compress(_header(nq=1000)))
        for _ in range(40):
            f.write(frame)
    assert os.path.getsize(path) < 1 << 20
    with pytest.raises(ValueError, match=r"max_bytes=100000000"):
        haptix.read_recording(path, max_bytes=100 * 1000 * 1000)
    assert haptix.recording.MAX_BYTES == 1 << 30


def test_a_haptix_mjl_reads_as_hxplay_reads_it(tmp_path):
    nq, nv, nu, nm, ns = 2, 2, 1, 1, 1
    vals = np.arange(10 * (1 + nq + nv + nu + 7 * nm + ns),
                     dtype="<f4").reshape(10, -1) / 7
    vals[:, 0] = [0, .1, .2, .3, 0, .1, .2, .3, .4, .5]
    path = str(tmp_path / "MuJoCoModel_1.mjl")
    with open(path, "wb") as f:
        f.write(struct.pack("<6i", nq, nv, nu, nm, ns, 5) + b"arm\0\0")
        f.write(vals.tobytes())
        f.write(b"\1\2")
    assert same(path)
    r = haptix.read_recording(path)
    assert r.header["format"] == "mjl" and r.name == "arm" and r.truncated
    assert np.array_equal(r["qpos"], vals[:, 1:3].astype(np.float64))
    assert r["mocap_quat"].shape == (10, 1, 4)
    assert list(r.segment) == [1] * 4 + [2] * 6
