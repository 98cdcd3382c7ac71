"""Compiled weighted IDA* (numba) for the `fast` solver on boards of up to 5 x 5.

Weighted IDA* (Korf 1993) is depth-first search bounded by f = g + w * h, with the bound raised
to the smallest f that exceeded it after each iteration; w > 1 trades solution length for far
fewer nodes. h is Manhattan distance plus linear conflict (see :mod:`.heuristics`), updated
incrementally: a slide changes one tile's distance and the conflicts of the two lines it crosses.

One kernel call runs one iteration under a node budget, so the Python driver can check the
solve context between calls and give up cleanly.
"""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit


@njit(cache=True)
def _line_conflict(tiles, start, step, length, line_index, goal_line, goal_pos, buf):
    """2 x (tiles to remove so the rest are in goal order) for one row or column."""
    m = 0
    for i in range(length):
        t = tiles[start + i * step]
        if t != 0 and goal_line[t] == line_index:
            buf[m] = goal_pos[t]
            m += 1
    if m < 2:
        return 0
    # Longest increasing subsequence, O(m^2): lines are at most 5 long here.
    best = 0
    lis = np.empty(m, dtype=np.int32)
    for i in range(m):
        lis[i] = 1
        for j in range(i):
            if buf[j] < buf[i] and lis[j] + 1 > lis[i]:
                lis[i] = lis[j] + 1
        if lis[i] > best:
            best = lis[i]
    return 2 * (m - best)


@njit(cache=True)
def _lines_around(tiles, a, b, rows, cols, goal_row, goal_col, buf):
    """Conflicts of the two lines a slide between cells a and b changes."""
    if a // cols == b // cols:  # horizontal slide: the two columns
        ca, cb = a % cols, b % cols
        return (_line_conflict(tiles, ca, cols, rows, ca, goal_col, goal_row, buf)
                + _line_conflict(tiles, cb, cols, rows, cb, goal_col, goal_row, buf))
    ra, rb = a // cols, b // cols
    return (_line_conflict(tiles, ra * cols, 1, cols, ra, goal_row, goal_col, buf)
            + _line_conflict(tiles, rb * cols, 1, cols, rb, goal_row, goal_col, buf))


@njit(cache=True)
def wastar(start, goal, nbr, md, zobrist, goal_row, goal_col, rows, cols, h0, weight, budget,
           max_nodes, out):
    """Weighted A* (f = g + weight * h) from ``start`` to ``goal``.

    Returns the index of the goal node in the arrays it also returns (parent, blank), or -1 if
    ``budget`` expansions or ``max_nodes`` stored nodes come first. ``out[0]`` = expansions.
    Duplicates are found through 64-bit Zobrist hashes in an open-addressing table; two positions
    sharing a hash would only make the search skip one of them (each stored node is derived from
    its parent by a real slide), so a collision can never produce a wrong path.

    Buffer bounds (inputs checked by :func:`.kernel_checks.wastar`): the node arrays hold
    ``max_nodes`` nodes and ``stored`` is tested before each store; the hash table has at least
    twice as many slots, so a probe always ends at a free one; ``buf`` holds one line.
    """
    n = rows * cols
    states = np.empty((max_nodes, n), dtype=np.int8)
    parent = np.empty(max_nodes, dtype=np.int32)
    blank_of = np.empty(max_nodes, dtype=np.int32)
    g_of = np.empty(max_nodes, dtype=np.int32)
    h_of = np.empty(max_nodes, dtype=np.int32)
    hash_of = np.empty(max_nodes, dtype=np.int64)
    buf = np.empty(max(rows, cols), dtype=np.int32)
    # Open-addressing hash table (linear probing) from Zobrist key to node; -1 = empty slot.
    size = 1
    while size < 2 * max_nodes:
        size *= 2
    mask = size - 1
    slots = np.full(size, -1, dtype=np.int32)

    key = np.int64(0)
    blank = 0
    for cell in range(n):
        states[0, cell] = start[cell]
        key ^= zobrist[start[cell] * n + cell]
        if start[cell] == 0:
            blank = cell
    goal_key = np.int64(0)
    for cell in range(n):
        goal_key ^= zobrist[goal[cell] * n + cell]
    parent[0] = -1
    blank_of[0] = blank
    g_of[0] = 0
    h_of[0] = h0
    hash_of[0] = key
    slots[key & mask] = 0
    stored = 1
    heap = [(weight * h0, 0, 0)]
    expanded = 0
    while len(heap) > 0:
        f, neg_g, node = heapq.heappop(heap)
        if -neg_g > g_of[node]:
            continue  # reached again more cheaply after this entry was queued
        if h_of[node] == 0 and hash_of[node] == goal_key:
            out[0] = expanded
            return node, parent[:stored].copy(), blank_of[:stored].copy()
        expanded += 1
        if expanded > budget:
            break
        b = blank_of[node]
        g1 = g_of[node] + 1
        for k in range(4):
            c = nbr[b, k]
            if c < 0 or (parent[node] >= 0 and c == blank_of[parent[node]]):
                continue
            row = states[node]
            t = row[c]
            new_key = hash_of[node] ^ zobrist[t * n + c] ^ zobrist[t * n + b] \
                ^ zobrist[b] ^ zobrist[c]
            slot = new_key & mask
            other = slots[slot]
            while other >= 0 and hash_of[other] != new_key:
                slot = (slot + 1) & mask
                other = slots[slot]
            if other >= 0:
                if g_of[other] <= g1:
                    continue
                # A shorter way to a known position: re-parent it and queue it again.
                g_of[other] = g1
                parent[other] = node
                heapq.heappush(heap, (g1 + weight * h_of[other], -g1, np.int64(other)))
                continue
            if stored >= max_nodes:
                out[0] = expanded
                return -1, parent[:1].copy(), blank_of[:1].copy()
            new = states[stored]
            new[:] = row
            before = _lines_around(row, b, c, rows, cols, goal_row, goal_col, buf)
            new[b] = t
            new[c] = 0
            after = _lines_around(new, b, c, rows, cols, goal_row, goal_col, buf)
            h = h_of[node] + md[t * n + b] - md[t * n + c] + after - before
            parent[stored] = node
            blank_of[stored] = c
            g_of[stored] = g1
            h_of[stored] = h
            hash_of[stored] = new_key
            slots[slot] = stored
            heapq.heappush(heap, (g1 + weight * h, -g1, np.int64(stored)))
            stored += 1
    out[0] = expanded
    return -1, parent[:1].copy(), blank_of[:1].copy()


class Tables:
    """The arrays the kernel needs for one board shape and goal."""

    def __init__(self, rows: int, cols: int, goal):
        n = rows * cols
        self.rows, self.cols = rows, cols
        self.nbr = np.full((n, 4), -1, dtype=np.int32)
        for cell in range(n):
            r, c = divmod(cell, cols)
            for k, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    self.nbr[cell, k] = (r + dr) * cols + c + dc
        self.goal_row = np.zeros(n, dtype=np.int32)
        self.goal_col = np.zeros(n, dtype=np.int32)
        for cell, tile in enumerate(goal):
            self.goal_row[tile], self.goal_col[tile] = divmod(cell, cols)
        self.zobrist = np.random.default_rng(20241129).integers(
            -(2 ** 63), 2 ** 63 - 1, size=n * n, dtype=np.int64)
        self.md = np.zeros(n * n, dtype=np.int32)
        for tile in range(1, n):
            for cell in range(n):
                self.md[tile * n + cell] = (abs(cell // cols - self.goal_row[tile])
                                            + abs(cell % cols - self.goal_col[tile]))
