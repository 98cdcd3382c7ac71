"""Compiled IDA* search loops for sliding-tile boards (numba), and their Python driver.

Three kernels share one shape, each with a :class:`Search` subclass beside it:

* :func:`run_pdb` (here, :class:`PdbSearch`) - heuristic = max(additive pattern databases, the
  same databases looked up on the board mirrored in its main diagonal). Used for the 4x4 with
  the standard goal and the 6-6-3 tables of :mod:`.pdb`.
* :func:`.ida_lc.run_lc` (:class:`.ida_lc.LinearConflictSearch`) - heuristic = Manhattan
  distance + linear conflict, for any board and any goal.
* :func:`.ida_compact.run_compact` (:class:`.ida_compact.CompactSearch`) - the compact tables
  of :mod:`.pdb_compact`, exact or weighted.

The loops repeat the same IDA* bookkeeping on purpose: each updates its heuristic
incrementally in the middle of that bookkeeping, and passing the heuristic in as a function
would cost the compiled loop most of its speed (numba cannot inline a function argument).

Numba code cannot poll a Python cancellation flag, so the search is *resumable*: the depth-first
stack lives in numpy arrays owned by the caller, a kernel call expands at most ``budget`` nodes
and returns, and the Python driver (:class:`Search`) polls the context between calls. One IDA*
iteration may span many calls; one call may finish several (cheap) iterations.

Board encoding: ``tiles[cell]`` is the tile number in that cell (0 = blank), cells row-major.
``nbr[cell, k]`` (k = up, down, left, right) is the neighbouring cell or -1.

The kernels release the GIL (``nogil``), so solves in several threads run in parallel.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numba import njit

from . import kernel_checks as kc

# Kernel results.
FOUND = 1          # a solution is on the stack (depth = regs[R_DEPTH])
BUDGET = 2         # the node budget is spent; call again to go on
GROW = 3           # the stack arrays are too short for the next bound; grow them and call again

# Slots of the ``regs`` int64 array that carries the search state between calls.
R_DEPTH, R_BOUND, R_NEXT, R_NODES, R_EXPANDED, R_ITERS = 0, 1, 2, 3, 4, 5
INF = 1 << 30


def neighbour_table(rows: int, cols: int) -> np.ndarray:
    """``nbr[cell, k]``: the cell up/down/left/right of ``cell``, or -1 off the board."""
    nbr = np.full((rows * cols, 4), -1, dtype=np.int32)
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            if r > 0:
                nbr[i, 0] = i - cols
            if r < rows - 1:
                nbr[i, 1] = i + cols
            if c > 0:
                nbr[i, 2] = i - 1
            if c < cols - 1:
                nbr[i, 3] = i + 1
    return nbr


# --------------------------------------------------------------------------------------------
# Pattern-database kernel
# --------------------------------------------------------------------------------------------

@njit(cache=True)
def pdb_indices(tiles, pat, pw, mpat, mpw, refl, npat):
    """The normal and mirrored database indices of a board (``idx[p]``, ``idx[npat + p]``)."""
    idx = np.zeros(2 * npat, dtype=np.int64)
    for cell in range(tiles.shape[0]):
        t = tiles[cell]
        if t != 0:
            idx[pat[t]] += cell * pw[t]
            idx[npat + mpat[t]] += refl[cell] * mpw[t]
    return idx


@njit(cache=True, nogil=True)
def run_pdb(tiles, nbr, regs, bpos, dirs, hn, hm, idx,
            table, offs, pat, pw, mpat, mpw, refl, npat, budget):
    """Resume an IDA* search guided by additive pattern databases with the mirrored lookup.

    ``idx`` holds the current database indices (normal then mirrored), ``hn[d]``/``hm[d]`` the
    normal/mirrored sums at depth d, ``bpos[d]`` the blank's cell and ``dirs[d]`` the next
    direction to try there. ``pat[t]``/``pw[t]`` give tile t's pattern and its index weight
    (cells ** slot); ``mpat``/``mpw`` the same for the mirrored lookup, where tile t stands at
    ``refl[cell]`` as its mirror-image tile. ``table[offs[p] + i]`` is pattern p's value.

    Buffer bounds: the stacks (``bpos``, ``dirs``, ``hn``, ``hm``) are written at depths up to
    the threshold (:func:`deepest_index`), which the driver keeps two below their length, and
    the kernel returns ``GROW`` before an iteration whose threshold would not fit; a pattern's
    index is below ``cells ** k`` inside its table (:func:`.kernel_checks.dense_tables`).
    """
    depth = regs[R_DEPTH]
    bound = regs[R_BOUND]
    nxt = regs[R_NEXT]
    nodes = 0
    expanded = 0
    cap = bpos.shape[0]
    while nodes < budget:
        d = depth
        k = dirs[d]
        if k == 4:
            # Every child of this node is done: step back to the parent.
            if d == 0:
                # Iteration over: raise the bound to the smallest f that exceeded it.
                regs[R_ITERS] += 1
                bound = nxt
                nxt = INF
                if bound + 2 >= cap:
                    regs[R_BOUND] = bound
                    regs[R_NEXT] = nxt
                    regs[R_DEPTH] = 0
                    regs[R_NODES] += nodes
                    regs[R_EXPANDED] += expanded
                    return GROW
                dirs[0] = 0
                continue
            b = bpos[d]
            p = bpos[d - 1]
            t = tiles[p]
            tiles[b] = t
            tiles[p] = 0
            idx[pat[t]] += (b - p) * pw[t]
            idx[npat + mpat[t]] += (refl[b] - refl[p]) * mpw[t]
            depth = d - 1
            continue
        dirs[d] = k + 1
        if k == 0:
            expanded += 1  # count each node whose children are generated once
        b = bpos[d]
        q = nbr[b, k]
        if q < 0 or (d > 0 and q == bpos[d - 1]):
            continue
        t = tiles[q]
        # Tile t slides from q into the blank at b.
        pn = pat[t]
        old_n = table[offs[pn] + idx[pn]]
        idx[pn] += (b - q) * pw[t]
        new_n = table[offs[pn] + idx[pn]]
        pm = npat + mpat[t]
        old_m = table[offs[mpat[t]] + idx[pm]]
        idx[pm] += (refl[b] - refl[q]) * mpw[t]
        new_m = table[offs[mpat[t]] + idx[pm]]
        sn = hn[d] - old_n + new_n
        sm = hm[d] - old_m + new_m
        h = sn if sn > sm else sm
        nodes += 1
        f = d + 1 + h
        if f > bound:
            if f < nxt:
                nxt = f
            idx[pn] -= (b - q) * pw[t]
            idx[pm] -= (refl[b] - refl[q]) * mpw[t]
            continue
        tiles[b] = t
        tiles[q] = 0
        depth = d + 1
        bpos[depth] = q
        dirs[depth] = 0
        hn[depth] = sn
        hm[depth] = sm
        if h == 0:
            regs[R_DEPTH] = depth
            regs[R_BOUND] = bound
            regs[R_NEXT] = nxt
            regs[R_NODES] += nodes
            regs[R_EXPANDED] += expanded
            return FOUND
    regs[R_DEPTH] = depth
    regs[R_BOUND] = bound
    regs[R_NEXT] = nxt
    regs[R_NODES] += nodes
    regs[R_EXPANDED] += expanded
    return BUDGET


# --------------------------------------------------------------------------------------------
# Python driver
# --------------------------------------------------------------------------------------------

class Search:
    """One resumable IDA* search: set up the stack, run the kernel in chunks, read the path.

    Subclasses say how to compute the root heuristic and call their kernel, and name their
    per-depth arrays in ``stack_arrays``. ``run`` takes a ``poll`` callable, called between
    chunks with the stats so far; it returns True to stop.

    Thresholds are on ``f = wden * g + wnum * h``, and ``ub`` prunes every node whose ``g + h``
    reaches it; a search whose thresholds run out (``INF``) has ``exhausted`` set: no solution
    shorter than ``ub`` exists. The kernels here and in :mod:`.ida_lc` are exact (both weights
    1, no ``ub``); :class:`.ida_compact.CompactSearch` sets them.
    """

    #: Nodes per kernel call: a few hundredths of a second, so cancellation is prompt.
    chunk = 300_000
    #: The per-depth arrays besides ``bpos`` and ``dirs``: (attribute, dtype) pairs.
    stack_arrays: tuple[tuple[str, type], ...] = ()
    #: The threshold's weights (see the class doc) and the length every answer must be below.
    wnum = wden = 1
    ub = INF

    def __init__(self, tiles, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self.start = np.asarray(tiles, dtype=np.int32)
        self.tiles = self.start.copy()
        self.nbr = neighbour_table(rows, cols)
        self.regs = np.zeros(8, dtype=np.int64)
        self.cap = 0
        self.exhausted = False

    # Subclass hooks -------------------------------------------------------------------------
    def root_h(self) -> int:
        raise NotImplementedError

    def _set_root(self, h0: int) -> None:
        """Fill depth 0 of the per-depth arrays."""
        raise NotImplementedError

    def _call(self, budget: int) -> int:
        raise NotImplementedError

    def _check(self) -> None:
        """Check the kernel's per-tile arrays and tables (:mod:`.kernel_checks`), once."""

    # Shared driver ---------------------------------------------------------------------------
    def _grow(self, needed: int) -> None:
        cap = max(64, 2 * needed)
        old = self.cap
        self.cap = cap
        for name, dtype in (("bpos", np.int32), ("dirs", np.int32), *self.stack_arrays):
            setattr(self, name, _resize(getattr(self, name, None), cap, dtype, old))

    def _ensure_stack(self) -> None:
        """Grow the stack so the next kernel call cannot write past it.

        A weighted threshold is ``wnum * h0`` at the root, so an iteration may go about
        ``wnum / wden`` times deeper than ``h0``: the stack is sized from the threshold
        (:func:`deepest_index`), not from ``h0``, before every call.
        """
        deepest = deepest_index(int(self.regs[R_BOUND]), self.wden, self.ub)
        if deepest + 2 >= self.cap:
            self._grow(deepest + 8)
        kc.stack(type(self).__name__, self.cap, deepest, self.bpos, self.dirs,
                 *(getattr(self, name) for name, _ in self.stack_arrays))

    def stats(self) -> dict:
        return {"nodes": int(self.regs[R_NODES]), "expanded": int(self.regs[R_EXPANDED]),
                "bound": int(self.regs[R_BOUND]), "iterations": int(self.regs[R_ITERS])}

    def run(self, poll: Callable[[dict], bool] | None = None) -> list[int] | None:
        """Search to the end: the solution as the list of tiles moved, or None if stopped or
        ``exhausted``."""
        # The board first: the root heuristic's kernels index by tile already.
        kc.board(type(self).__name__, self.tiles, self.nbr)
        h0 = self.root_h()
        if h0 == 0:
            return []
        if h0 >= self.ub:
            self.exhausted = True
            return None
        self._check()
        self._grow(h0 + 8)
        self.bpos[0] = int(np.flatnonzero(self.tiles == 0)[0])
        self.dirs[0] = 0
        self._set_root(h0)
        self.regs[R_DEPTH] = 0
        self.regs[R_BOUND] = self.wnum * h0   # f of the root (g = 0)
        self.regs[R_NEXT] = INF
        while True:
            self._ensure_stack()
            status = self._call(self.chunk)
            if status == FOUND:
                return self._path()
            if status == GROW:
                if int(self.regs[R_BOUND]) >= INF:
                    self.exhausted = True
                    return None
                self._grow(int(self.regs[R_BOUND]) // self.wden + 8)
                self.dirs[0] = 0
            if poll is not None and poll(self.stats()):
                return None

    def _path(self) -> list[int]:
        depth = int(self.regs[R_DEPTH])
        board = self.start.copy()
        moves = []
        for i in range(depth):
            b, q = self.bpos[i], self.bpos[i + 1]
            moves.append(int(board[q]))
            board[b], board[q] = board[q], 0
        return moves


def deepest_index(bound: int, wden: int = 1, ub: int = INF) -> int:
    """The deepest stack index a kernel writes while searching threshold ``bound``.

    A child at depth g is pushed only if ``wden * g + wnum * h <= bound`` with ``h >= 0``, so
    ``g <= bound // wden``; and only if ``g + h < ub``. This is the documented bound of the
    stack arrays (``bpos``, ``dirs`` and the per-depth heuristic arrays): every driver makes
    them longer than it *before* each kernel call, because the kernels run without bounds
    checks (and without the GIL) and a write past the end corrupts the heap.
    """
    deepest = bound // wden
    if ub < INF:
        deepest = min(deepest, ub - 1)
    return int(deepest)


def _resize(arr, cap, dtype, old):
    new = np.zeros(cap, dtype=dtype)
    if arr is not None and old:
        new[:old] = arr[:old]
    return new


class PdbSearch(Search):
    """IDA* with additive pattern databases and the mirrored lookup (see :mod:`.pdb`)."""

    stack_arrays = (("hn", np.int64), ("hm", np.int64))

    def __init__(self, tiles, rows, cols, tables):
        super().__init__(tiles, rows, cols)
        self.t = tables  # a pdb.PatternTables

    def root_h(self) -> int:
        t = self.t
        self.idx = pdb_indices(self.tiles, t.pat, t.pw, t.mpat, t.mpw, t.refl, t.npat)
        n = sum(int(t.table[t.offs[p] + self.idx[p]]) for p in range(t.npat))
        m = sum(int(t.table[t.offs[p] + self.idx[t.npat + p]]) for p in range(t.npat))
        self._h0 = (n, m)
        return max(n, m)

    def _set_root(self, h0):
        self.hn[0], self.hm[0] = self._h0

    def _check(self) -> None:
        super()._check()
        kc.dense_tables("PdbSearch", self.rows * self.cols, self.t)

    def _call(self, budget):
        t = self.t
        return run_pdb(self.tiles, self.nbr, self.regs, self.bpos, self.dirs, self.hn, self.hm,
                       self.idx, t.table, t.offs, t.pat, t.pw, t.mpat, t.mpw, t.refl, t.npat,
                       budget)
