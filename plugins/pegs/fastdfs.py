"""The exact search's inner loop compiled with numba, for boards of at most 64 holes.

Same algorithm as :func:`plugins.pegs.solver._exact_dfs` (dead-position table holding every
symmetric image, pagoda pruning, meeting test), on ``uint64`` bitboards with an explicit stack so
that it can stop after a budget of positions and be resumed: the Python side checks the deadline
and reports progress between calls. The dead table is a fixed-size open-addressing hash table;
when a probe run finds no free slot it overwrites one, which only forgets a dead position (costs
time, never correctness).

Used only for the long, uncapped last stage of the search; compiled on first use and cached on
disk by numba.
"""

from __future__ import annotations

import numpy as np

try:
    from numba import njit
except ImportError:  # numba is a dependency, but the plugin still works without it
    njit = None

#: Entries of the dead table (a power of two): 2**22 entries = 32 MB.
TABLE_BITS = 22
#: Slots probed before overwriting one.
PROBES = 8
#: Positions expanded per kernel call between deadline checks.
BUDGET = 100_000

FOUND, EXHAUSTED, BUDGET_USED = 1, 0, 2

AVAILABLE = njit is not None

if AVAILABLE:

    @njit(cache=True)
    def _slot(x, mask):
        h = x * np.uint64(0x9E3779B97F4A7C15)
        return np.int64((h >> np.uint64(64 - TABLE_BITS)) & mask)

    @njit(cache=True)
    def _lookup(table, x):
        mask = np.uint64(table.shape[0] - 1)
        i = _slot(x, mask)
        for _ in range(PROBES):
            v = table[i]
            if v == x:
                return True
            if v == 0:
                return False
            i = (i + 1) & (table.shape[0] - 1)
        return False

    @njit(cache=True)
    def _insert(table, x):
        mask = np.uint64(table.shape[0] - 1)
        first = _slot(x, mask)
        i = first
        for _ in range(PROBES):
            v = table[i]
            if v == x:
                return
            if v == 0:
                table[i] = x
                return
            i = (i + 1) & (table.shape[0] - 1)
        table[first] = x  # full run: forget whatever was there

    @njit(cache=True)
    def insert_all(table, values):
        for k in range(values.shape[0]):
            _insert(table, values[k])

    @njit(cache=True)
    def _insert_images(table, pos, perms, n):
        for s in range(perms.shape[0]):
            image = np.uint64(0)
            for k in range(n):
                if (pos >> np.uint64(k)) & np.uint64(1):
                    image |= np.uint64(1) << np.uint64(perms[s, k])
            _insert(table, image)

    @njit(cache=True)
    def _arrived(meet_sorted, x):
        i = np.searchsorted(meet_sorted, x)
        return i < meet_sorted.shape[0] and meet_sorted[i] == x

    @njit(cache=True)
    def run(start_count, meet, need, to, flip, loss0, loss1, need0, need1, perms, n, table,
            meet_sorted, stack_pos, stack_next, stack_v0, stack_v1, state, budget):
        """Resume the search held in the stack arrays; ``state`` = [depth, expanded, prunes,
        dead]. Returns FOUND (the path is stack_next[0..depth] - 1), EXHAUSTED or BUDGET_USED."""
        jumps = need.shape[0]
        d = state[0]
        while d >= 0:
            pos = stack_pos[d]
            j = stack_next[d]
            count = start_count - d
            last = count - 1 == meet
            pushed = False
            while j < jumps:
                if (pos & need[j]) == need[j] and (pos & to[j]) == 0:
                    child = pos ^ flip[j]
                    if last:
                        if _arrived(meet_sorted, child):
                            stack_next[d] = j + 1
                            state[0] = d
                            return 1
                        j += 1
                        continue
                    c0 = stack_v0[d] - loss0[j]
                    c1 = stack_v1[d] - loss1[j]
                    if c0 < need0 or c1 < need1:
                        state[2] += 1
                        j += 1
                        continue
                    if _lookup(table, child):
                        j += 1
                        continue
                    stack_next[d] = j + 1
                    d += 1
                    stack_pos[d] = child
                    stack_next[d] = 0
                    stack_v0[d] = c0
                    stack_v1[d] = c1
                    state[1] += 1
                    pushed = True
                    break
                j += 1
            if pushed:
                budget -= 1
                if budget <= 0:
                    state[0] = d
                    return 2
                continue
            _insert_images(table, pos, perms, n)
            state[3] += 1
            d -= 1
        state[0] = d
        return 0
