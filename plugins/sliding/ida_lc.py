"""IDA* guided by Manhattan distance plus linear conflict, for any board and any goal.

The kernel :func:`run_lc` has the shape of the others in :mod:`.ida` (which holds the
resumable driver :class:`.ida.Search` and explains the shape); this heuristic needs no table,
so it serves every board size and goal: the optimal solver beyond the 4x4, a 4x4 quick try
before tables are built, and the windows of :mod:`.shorten`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import kernel_checks as kc
from .ida import BUDGET, FOUND, GROW, INF, R_BOUND, R_DEPTH, R_EXPANDED, R_ITERS, R_NEXT, R_NODES, Search


@njit(cache=True)
def _line_conflict(tiles, goal_cell, start, step, length, along_row, cols, buf):
    """Tiles to take out of one row/column so the rest of its home tiles are in goal order.

    Only tiles whose goal is in this line count; ``length - LIS`` of their goal offsets is the
    minimum number that must leave the line (each such tile costs two extra moves).
    """
    n = 0
    line = start // cols if along_row else start % cols
    for i in range(length):
        t = tiles[start + i * step]
        if t == 0:
            continue
        g = goal_cell[t]
        if along_row:
            if g // cols == line:
                buf[n] = g % cols
                n += 1
        else:
            if g % cols == line:
                buf[n] = g // cols
                n += 1
    if n < 2:
        return 0
    # Longest increasing subsequence by O(n^2) dynamic programming (lines are short).
    best = 0
    for i in range(n):
        li = 1
        for j in range(i):
            if buf[j] < buf[i] and buf[length + j] + 1 > li:
                li = buf[length + j] + 1
        buf[length + i] = li
        if li > best:
            best = li
    return n - best


@njit(cache=True)
def lc_lines(tiles, goal_cell, rows, cols):
    """Linear-conflict counts of every row (first ``rows``) then every column."""
    buf = np.zeros(2 * max(rows, cols), dtype=np.int64)
    out = np.zeros(rows + cols, dtype=np.int64)
    for r in range(rows):
        out[r] = _line_conflict(tiles, goal_cell, r * cols, 1, cols, True, cols, buf)
    for c in range(cols):
        out[rows + c] = _line_conflict(tiles, goal_cell, c, cols, rows, False, cols, buf)
    return out


@njit(cache=True)
def manhattan(tiles, goal_cell, cols):
    total = 0
    for cell in range(tiles.shape[0]):
        t = tiles[cell]
        if t != 0:
            g = goal_cell[t]
            total += abs(cell // cols - g // cols) + abs(cell % cols - g % cols)
    return total


@njit(cache=True, nogil=True)
def run_lc(tiles, nbr, regs, bpos, dirs, md, lcsum, lines, goal_cell, rows, cols, budget):
    """Resume an IDA* search guided by Manhattan distance plus linear conflict.

    ``md[d]`` and ``lcsum[d]`` are the Manhattan sum and the total line-conflict count at depth
    d; ``lines`` the current per-line counts (rows, then columns). A move changes the tile's
    Manhattan term by one and only the conflicts of the two lines it leaves and enters across
    its direction of travel (its order along its own line does not change).

    Buffer bounds: the stacks as in :func:`.ida.run_pdb`; ``buf`` has ``2 * max(rows, cols)``
    entries, a line's tiles and their subsequence lengths; ``lines`` one per row and column.
    """
    depth = regs[R_DEPTH]
    bound = regs[R_BOUND]
    nxt = regs[R_NEXT]
    nodes = 0
    expanded = 0
    cap = bpos.shape[0]
    buf = np.zeros(2 * max(rows, cols), dtype=np.int64)
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
            tiles[b] = tiles[p]
            tiles[p] = 0
            # Restore the two line counts the move had changed.
            if b // cols == p // cols:  # the move was horizontal
                lines[rows + p % cols] = _line_conflict(tiles, goal_cell, p % cols, cols, rows, False, cols, buf)
                lines[rows + b % cols] = _line_conflict(tiles, goal_cell, b % cols, cols, rows, False, cols, buf)
            else:
                lines[p // cols] = _line_conflict(tiles, goal_cell, (p // cols) * cols, 1, cols, True, cols, buf)
                lines[b // cols] = _line_conflict(tiles, goal_cell, (b // cols) * cols, 1, cols, True, cols, buf)
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
        g = goal_cell[t]
        # Manhattan change of tile t moving from q to b.
        if k >= 2:  # horizontal move: the tile changes column
            gc = g % cols
            dm = abs(b % cols - gc) - abs(q % cols - gc)
        else:
            gr = g // cols
            dm = abs(b // cols - gr) - abs(q // cols - gr)
        tiles[b] = t
        tiles[q] = 0
        if k >= 2:
            l1 = rows + q % cols
            l2 = rows + b % cols
            n1 = _line_conflict(tiles, goal_cell, q % cols, cols, rows, False, cols, buf)
            n2 = _line_conflict(tiles, goal_cell, b % cols, cols, rows, False, cols, buf)
        else:
            l1 = q // cols
            l2 = b // cols
            n1 = _line_conflict(tiles, goal_cell, l1 * cols, 1, cols, True, cols, buf)
            n2 = _line_conflict(tiles, goal_cell, l2 * cols, 1, cols, True, cols, buf)
        nm = md[d] + dm
        nl = lcsum[d] - lines[l1] - lines[l2] + n1 + n2
        h = nm + 2 * nl
        nodes += 1
        f = d + 1 + h
        if f > bound:
            if f < nxt:
                nxt = f
            tiles[q] = t
            tiles[b] = 0
            continue
        lines[l1] = n1
        lines[l2] = n2
        depth = d + 1
        bpos[depth] = q
        dirs[depth] = 0
        md[depth] = nm
        lcsum[depth] = nl
        if nm == 0:
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


class LinearConflictSearch(Search):
    """IDA* with Manhattan distance plus linear conflict, for any board and any goal."""

    stack_arrays = (("md", np.int64), ("lcsum", np.int64))

    def __init__(self, tiles, rows, cols, goal):
        super().__init__(tiles, rows, cols)
        goal = np.asarray(goal, dtype=np.int64)
        self.goal_cell = np.zeros(rows * cols, dtype=np.int64)
        self.goal_cell[goal] = np.arange(rows * cols)

    def root_h(self) -> int:
        self.lines = lc_lines(self.tiles, self.goal_cell, self.rows, self.cols)
        self._h0 = (int(manhattan(self.tiles, self.goal_cell, self.cols)), int(self.lines.sum()))
        return self._h0[0] + 2 * self._h0[1]

    def _set_root(self, h0):
        self.md[0], self.lcsum[0] = self._h0

    def _check(self) -> None:
        super()._check()
        n = self.rows * self.cols
        kc.per_tile("LinearConflictSearch", n, goal_cell=self.goal_cell)
        kc.require(np.array_equal(np.sort(self.goal_cell), np.arange(n)), "LinearConflictSearch",
                   "the goal is not a permutation of the cells")
        kc.require(self.lines.shape[0] == self.rows + self.cols, "LinearConflictSearch",
                   "a line count per row and column")

    def _call(self, budget):
        return run_lc(self.tiles, self.nbr, self.regs, self.bpos, self.dirs, self.md, self.lcsum,
                      self.lines, self.goal_cell, self.rows, self.cols, budget)
