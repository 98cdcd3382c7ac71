"""Peg table files that prove their own integrity.

Every table pegs keeps on disk (the backward levels, the filter of the level above, the pagoda
libraries) is written by :func:`save_arrays` as one ``.npz`` holding the arrays and a digest of
their contents *and* of the parameters they were built for (board, goal, size, format
version). :func:`load_arrays` returns None unless the digest matches: a truncated or bit-flipped
file, one rewritten with other contents, or another board's table is rebuilt, never trusted,
since a table missing live positions would turn into a wrong "unsolvable".

The files go through the engine's :class:`engine.TableCache`: it keeps the cache folder within
its size budget (least recently used files evicted), keeps tables built for one-off web
requests in memory rather than on disk, and may evict a file at any time, which here reads as
a missing file: the table is built again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from engine import table_cache

DIGEST = "digest"
"""The name of the entry holding the digest (array names must differ from it)."""


def table_digest(params: str, arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 of ``params`` and of each array's name, dtype, shape and bytes, in name order."""
    h = hashlib.sha256(params.encode())
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"\0{name}\0{a.dtype.str}\0{a.shape}\0".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def save_arrays(path: Path, params: str, arrays: dict[str, np.ndarray]) -> None:
    """Store ``arrays`` with their digest as ``path`` through the table cache (on disk,
    atomically, or in memory); a read-only or full cache only costs a rebuild next time."""
    assert DIGEST not in arrays
    digest = np.array(table_digest(params, arrays))
    table_cache().write(path, lambda out: np.savez(out, **arrays, **{DIGEST: digest}))


def load_arrays(path: Path, params: str) -> dict[str, np.ndarray] | None:
    """The arrays saved at ``path`` for ``params``, or None when the file is missing (never
    built, or evicted), unreadable (a truncated zip, an end of file, another format) or its
    digest does not match."""
    f = table_cache().read(path)
    if f is None:
        return None
    try:
        with f, np.load(f, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files if name != DIGEST}
            stored = str(data[DIGEST][()]) if DIGEST in data.files else ""
    except Exception:  # noqa: BLE001 - any damage at all means: build it again
        return None
    return arrays if stored == table_digest(params, arrays) else None
