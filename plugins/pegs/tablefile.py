"""Peg table files that prove their own integrity.

Every table pegs keeps on disk (the backward levels, the filter of the level above, the pagoda
libraries) is written by :func:`save_arrays` as one ``.npz`` holding the arrays and a digest of
their contents *and* of the parameters they were built for (board, goal, size, format
version). :func:`load_arrays` returns None unless the digest matches: a truncated or bit-flipped
file, one rewritten with other contents, or another board's table is rebuilt, never trusted,
since a table missing live positions would turn into a wrong "unsolvable".
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

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
    """Write ``arrays`` with their digest to ``path`` atomically; a read-only or full cache
    only costs a rebuild next time."""
    assert DIGEST not in arrays
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as out:  # a file object: numpy adds no suffix of its own
            np.savez(out, **arrays, **{DIGEST: np.array(table_digest(params, arrays))})
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


def load_arrays(path: Path, params: str) -> dict[str, np.ndarray] | None:
    """The arrays saved at ``path`` for ``params``, or None when the file is missing, unreadable
    (a truncated zip, an end of file, another format) or its digest does not match."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files if name != DIGEST}
            stored = str(data[DIGEST][()]) if DIGEST in data.files else ""
    except Exception:  # noqa: BLE001 - any damage at all means: build it again
        return None
    return arrays if stored == table_digest(params, arrays) else None
