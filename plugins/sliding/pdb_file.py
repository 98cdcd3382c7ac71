"""Pattern-database files: a small checked container around one numpy array.

Layout: the magic line ``PZLPDB2\\n``, a 4-byte little-endian header length, a JSON header
(``dtype``, ``shape``, ``crc32`` of the data, and the caller's ``meta`` such as the board and the
pattern), zero padding to a multiple of 64 bytes, then the array's bytes.

Loading checks the magic, the header, that ``meta`` is what the caller expects, that the file has
exactly the announced size, and the CRC-32 of the data. Anything wrong (a truncated download, a
flipped bit, a file of another version) makes :func:`load` answer None, and the caller rebuilds
the table. The array is memory-mapped read-only, so loading a big table costs no copy and
several processes share one copy in the page cache.

Files are written to a temporary file in the same directory, flushed, then renamed into place:
a reader never sees a half-written file, and a failed or cancelled build leaves nothing behind.
Each file is reported to the engine's table cache (:func:`engine.table_cache`), which keeps the
cache folder within its size budget: it may evict a file later (a process that has it mapped
keeps its data; the next load finds no file and the table is rebuilt).
"""

from __future__ import annotations

import json
import logging
import mmap
import os
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from engine import table_cache

MAGIC = b"PZLPDB2\n"
_ALIGN = 64
#: CRC-32 is computed over slices of this many bytes (zlib takes at most 4 GiB at once anyway).
_SLICE = 1 << 26

log = logging.getLogger("puzzle_engine.sliding")


def crc32(data) -> int:
    """CRC-32 of a bytes-like object or a numpy array's memory."""
    view = memoryview(data).cast("B")
    crc = 0
    for start in range(0, len(view), _SLICE):
        crc = zlib.crc32(view[start:start + _SLICE], crc)
    return crc


def save(path: Path, array: np.ndarray, meta: Mapping[str, Any]) -> None:
    """Write ``array`` (C-contiguous) with ``meta`` to ``path`` atomically.

    Raises OSError when the directory cannot be created or written, or the file would not fit
    the cache's budget (callers fall back to keeping the table in memory).
    """
    array = np.ascontiguousarray(array)
    budget = table_cache().budget
    if array.nbytes > budget:
        raise OSError(f"the table ({array.nbytes / 2**20:.0f} MiB) is larger than the cache budget "
                      f"({budget / 2**20:.0f} MiB; PUZZLE_ENGINE_CACHE_BUDGET)")
    header = json.dumps({"dtype": array.dtype.str, "shape": list(array.shape),
                         "crc32": crc32(array), "meta": dict(meta)}, sort_keys=True).encode()
    head = MAGIC + struct.pack("<I", len(header)) + header
    head += b"\0" * (-len(head) % _ALIGN)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file private (0600); give it the permissions of a normal file.
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            f.write(head)
            f.write(memoryview(array).cast("B"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    table_cache().stored(path)


def load(path: Path, meta: Mapping[str, Any]) -> np.ndarray | None:
    """The array saved at ``path`` (memory-mapped, read-only), or None if the file is missing,
    of another format, saved for other ``meta``, or damaged (wrong size or checksum)."""
    try:
        with open(path, "rb") as f:
            if f.read(len(MAGIC)) != MAGIC:
                return _damaged(path, "not a pattern-database file of this version")
            (length,) = struct.unpack("<I", f.read(4))
            if length > 1 << 16:
                return _damaged(path, "header too long")
            header = json.loads(f.read(length))
            offset = len(MAGIC) + 4 + length
            offset += -offset % _ALIGN
            dtype = np.dtype(header["dtype"])
            shape = tuple(int(s) for s in header["shape"])
            nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
            if header.get("meta") != json.loads(json.dumps(dict(meta))):
                return _damaged(path, "made for another table")
            size = os.fstat(f.fileno()).st_size
            if size != offset + nbytes:
                return _damaged(path, f"{size} bytes where {offset + nbytes} were expected")
            if nbytes == 0:
                return np.zeros(shape, dtype=dtype)
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, struct.error) as exc:
        # NotADirectoryError etc. (an unusable cache directory) is "no file", not damage.
        if isinstance(exc, OSError) and not os.path.isfile(path):
            return None
        return _damaged(path, f"{type(exc).__name__}: {exc}")
    array = np.frombuffer(mm, dtype=dtype, count=int(np.prod(shape, dtype=np.int64)),
                          offset=offset).reshape(shape)
    if crc32(array) != header["crc32"]:
        return _damaged(path, "checksum mismatch")
    table_cache().used(path)
    return array


def _damaged(path: Path, why: str) -> None:
    log.warning("ignoring damaged pattern database %s (%s); it will be rebuilt", path.name, why)
    return None


def _umask() -> int:
    """The process umask, read without os.umask (which would briefly change it for every
    thread); 0o022 where /proc is not available."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022
