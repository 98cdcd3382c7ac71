"""The buffer bounds of the compiled sliding kernels, checked in Python before a kernel runs.

The kernels (:mod:`.ida`, :mod:`.ida_lc`, :mod:`.ida_compact`, :mod:`.fast_kernel`,
:mod:`.pdb`, :mod:`.pdb_build`, :mod:`.ranking`) index their arrays without bounds checks and,
the searches and builds, without the GIL: an index past the end of a buffer corrupts memory
instead of raising. Each kernel's docstring says how big its buffers must be and why that
suffices; what depends on the caller's arguments is checked here, raising
:class:`KernelInputError` (a bug in the caller, never the user's input) before the kernel runs.
The search stacks are the one buffer whose need grows while searching: the IDA* driver sizes
them from the threshold before every call (:func:`.ida.deepest_index`) and the kernels return
``GROW`` before an iteration that would not fit.

``tests/test_kernel_safety.py`` runs the kernels' tests once more under
``NUMBA_BOUNDSCHECK=1``, where every index is checked by numba itself.
"""

from __future__ import annotations

import numpy as np


class KernelInputError(ValueError):
    """The arguments of a compiled kernel break its documented buffer bounds."""


def require(ok: bool, kernel: str, what: str) -> None:
    """Raise :class:`KernelInputError` naming ``kernel`` unless ``ok``."""
    if not ok:
        raise KernelInputError(f"{kernel}: {what}")


def board(kernel: str, tiles: np.ndarray, nbr: np.ndarray) -> int:
    """A board the kernels may index by tile and by cell: ``tiles`` a permutation of
    ``0..n-1`` (each tile indexes the per-tile arrays, each cell the per-cell ones) and
    ``nbr`` an ``(n, 4)`` table of cells or -1. Returns ``n``."""
    n = int(tiles.shape[0])
    require(n >= 2, kernel, f"a board of {n} cells")
    require(np.array_equal(np.sort(np.asarray(tiles, dtype=np.int64)), np.arange(n)), kernel,
            "the tiles are not a permutation of 0..n-1")
    require(nbr.shape == (n, 4) and int(nbr.min()) >= -1 and int(nbr.max()) < n, kernel,
            f"a neighbour table of shape {nbr.shape} for {n} cells")
    return n


def per_tile(kernel: str, n: int, **arrays: np.ndarray) -> None:
    """Arrays indexed by tile or by cell have (at least) ``n`` entries."""
    for name, arr in arrays.items():
        require(arr.shape[0] >= n, kernel, f"{name} has {arr.shape[0]} entries for {n} cells")


def stack(kernel: str, cap: int, deepest: int, *arrays: np.ndarray) -> None:
    """Every per-depth array has ``cap`` entries, more than the deepest index written plus
    the kernels' margin of two (:func:`.ida.deepest_index`)."""
    for arr in arrays:
        require(arr.shape[0] == cap, kernel, f"a stack array of {arr.shape[0]}, not {cap}")
    require(deepest + 2 < cap, kernel, f"stacks of {cap} for a search to depth {deepest}")


def dense_tables(kernel: str, n: int, t) -> None:
    """:class:`.pdb.PatternTables`: pattern ``p``'s table starts at ``offs[p]`` and holds
    ``n ** k`` entries for its ``k`` tiles (the largest index is below that), all inside
    ``table``."""
    per_tile(kernel, n, pat=t.pat, pw=t.pw, mpat=t.mpat, mpw=t.mpw, refl=t.refl)
    # The tiles of each pattern, from the per-tile ids: the normal lookup's (``pat``) or the
    # second one's (``mpat``: the reflection's, or the second partition's of the small boards).
    partition = getattr(t, "partition", None)
    pat, mpat = np.asarray(t.pat)[1:], np.asarray(t.mpat)[1:]  # tile 0, the blank, is no pattern's
    for p in range(len(t.offs)):
        tiles = len(partition[p]) if partition is not None else \
            max(int(np.count_nonzero(pat == p)), int(np.count_nonzero(mpat == p)))
        end = int(t.offs[p]) + n ** tiles
        require(end <= t.table.shape[0], kernel,
                f"pattern {p} ends at {end}, past its table of {t.table.shape[0]}")


def wastar(n: int, start, goal, nbr, md, zobrist, goal_row, goal_col, max_nodes, out) -> None:
    """:func:`.fast_kernel.wastar`: tiles and cells below ``n`` index ``md`` and ``zobrist``
    (``tile * n + cell``), ``goal_row``/``goal_col`` (per tile) and ``nbr``; its own arrays
    hold ``max_nodes`` nodes (checked before each store), its hash table twice as many."""
    k = "fast_kernel.wastar"
    board(k, np.asarray(start), nbr)
    board(k, np.asarray(goal), nbr)
    require(n <= 127, k, f"{n} cells do not fit the int8 boards")
    per_tile(k, n * n, md=md, zobrist=zobrist)
    per_tile(k, n, goal_row=goal_row, goal_col=goal_col)
    require(max_nodes >= 1 and out.shape[0] >= 1, k, "no room for the start node or the count")


def multi_tables(kernel: str, n: int, t) -> None:
    """:class:`.small_boards.PartitionTables`: ``pat``/``pw`` have a row per partition and a
    column per tile; every tile but the blank names a pattern id below ``npat`` in every row;
    pattern ``p`` (of ``k`` tiles, the same count in every row that uses it) starts at
    ``offs[p]`` and its ``n ** k`` entries lie inside ``table``."""
    pat = np.asarray(t.pat)
    require(pat.ndim == 2 and pat.shape[1] >= n and np.asarray(t.pw).shape == pat.shape, kernel,
            f"per-tile arrays of shape {pat.shape} for {n} cells")
    require(int(pat[:, 1:n].min()) >= 0 and int(pat[:, 1:n].max()) < t.npat == len(t.offs),
            kernel, "a tile without a pattern")
    sizes: dict[int, int] = {}
    for row in pat[:, 1:n]:
        ids, counts = np.unique(row, return_counts=True)
        for p, k in zip(ids.tolist(), counts.tolist()):
            require(sizes.setdefault(p, k) == k, kernel, f"pattern {p} has two sizes")
    for p, k in sizes.items():
        end = int(t.offs[p]) + n ** k
        require(end <= t.table.shape[0], kernel,
                f"pattern {p} ends at {end}, past its table of {t.table.shape[0]}")
