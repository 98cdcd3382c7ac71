"""IDA* whose heuristic is the largest of several additive pattern-database sums (numba).

The thin boards' tables (:mod:`.small_boards`) come as two or three partitions of the tiles,
each partition's sum admissible on its own, so their maximum is too. :func:`run_multi` keeps
one running sum per partition and updates each incrementally when a tile moves, as
:func:`.ida.run_pdb` does for its two lookups; the bookkeeping is the same resumable IDA* as
there (see :mod:`.ida` for why the loops are written out per kernel).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import kernel_checks as kc
from .ida import (
    BUDGET,
    FOUND,
    GROW,
    INF,
    R_BOUND,
    R_DEPTH,
    R_EXPANDED,
    R_ITERS,
    R_NEXT,
    R_NODES,
    Search,
)


@njit(cache=True)
def multi_indices(tiles, pat, pw, npat):
    """Every pattern's database index for a board (``idx[pattern id]``)."""
    idx = np.zeros(npat, dtype=np.int64)
    for cell in range(tiles.shape[0]):
        t = tiles[cell]
        if t != 0:
            for j in range(pat.shape[0]):
                idx[pat[j, t]] += cell * pw[j, t]
    return idx


@njit(cache=True, nogil=True)
def run_multi(tiles, nbr, regs, bpos, dirs, hs, idx, table, offs, pat, pw, budget):
    """Resume an IDA* search guided by the largest of ``K = pat.shape[0]`` additive sums.

    ``pat[j, t]``/``pw[j, t]``: the id of tile t's pattern in partition j and its index weight
    (cells ** slot); ``table[offs[p] + idx[p]]`` is pattern p's value; ``hs[d, j]`` the sum of
    partition j at depth d; ``bpos``/``dirs`` as in :func:`.ida.run_pdb`.

    Buffer bounds: the stacks (``bpos``, ``dirs``, rows of ``hs``) are written at depths up to
    the threshold, which the driver keeps two below their length (:func:`.ida.deepest_index`),
    and the kernel returns ``GROW`` before an iteration whose threshold would not fit; ``hs``
    has ``K`` columns; a pattern's index stays below ``cells ** k`` inside its table
    (:func:`.kernel_checks.multi_tables`).
    """
    K = pat.shape[0]
    depth = regs[R_DEPTH]
    bound = regs[R_BOUND]
    nxt = regs[R_NEXT]
    nodes = 0
    expanded = 0
    cap = bpos.shape[0]
    sums = np.zeros(K, dtype=np.int64)
    while nodes < budget:
        d = depth
        k = dirs[d]
        if k == 4:
            if d == 0:
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
            for j in range(K):
                idx[pat[j, t]] += (b - p) * pw[j, t]
            depth = d - 1
            continue
        dirs[d] = k + 1
        if k == 0:
            expanded += 1
        b = bpos[d]
        q = nbr[b, k]
        if q < 0 or (d > 0 and q == bpos[d - 1]):
            continue
        t = tiles[q]
        h = 0
        for j in range(K):
            pn = pat[j, t]
            old = table[offs[pn] + idx[pn]]
            idx[pn] += (b - q) * pw[j, t]
            s = hs[d, j] - old + table[offs[pn] + idx[pn]]
            sums[j] = s
            if s > h:
                h = s
        nodes += 1
        f = d + 1 + h
        if f > bound:
            if f < nxt:
                nxt = f
            for j in range(K):
                idx[pat[j, t]] -= (b - q) * pw[j, t]
            continue
        tiles[b] = t
        tiles[q] = 0
        depth = d + 1
        bpos[depth] = q
        dirs[depth] = 0
        for j in range(K):
            hs[depth, j] = sums[j]
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


class MultiPartitionSearch(Search):
    """IDA* with :func:`run_multi`; ``tables`` is a :class:`.small_boards.PartitionTables`."""

    def __init__(self, tiles, rows, cols, tables):
        super().__init__(tiles, rows, cols)
        self.t = tables

    def sums(self) -> list[int]:
        """Each partition's additive sum for the current board."""
        t = self.t
        self.idx = multi_indices(self.tiles, t.pat, t.pw, t.npat)
        return [sum(int(t.table[t.offs[p] + self.idx[p]]) for p in ids) for ids in t.ids]

    def root_h(self) -> int:
        self._h0 = self.sums()
        return max(self._h0)

    def _grow(self, needed: int) -> None:
        super()._grow(needed)
        hs = np.zeros((self.cap, self.t.pat.shape[0]), dtype=np.int64)
        old = getattr(self, "hs", None)
        if old is not None:
            hs[:old.shape[0]] = old
        self.hs = hs

    def _ensure_stack(self) -> None:
        super()._ensure_stack()
        kc.require(self.hs.shape[0] == self.cap, "MultiPartitionSearch",
                   f"a sums stack of {self.hs.shape[0]}, not {self.cap}")

    def _set_root(self, h0):
        self.hs[0, :] = self._h0

    def _check(self) -> None:
        kc.multi_tables("MultiPartitionSearch", self.rows * self.cols, self.t)

    def _call(self, budget):
        t = self.t
        return run_multi(self.tiles, self.nbr, self.regs, self.bpos, self.dirs, self.hs,
                         self.idx, t.table, t.offs, t.pat, t.pw, budget)
