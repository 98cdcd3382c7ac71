"""Independent reference facts for the sliding-tile tests: true distances by breadth-first search.

Written from the rules alone (slide a neighbour into the blank), sharing no code with the plugin,
so solvers and heuristics are checked against something they could not have influenced.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

import numpy as np


def bfs_distances(rows: int, cols: int, goal) -> dict[tuple[int, ...], int]:
    """Every board reachable from ``goal`` with its distance in moves (small boards only).

    Cached per (rows, cols, goal): the 3x3 table (181,440 boards) is used by several tests.
    Do not mutate the returned dict.
    """
    return _bfs(rows, cols, tuple(goal))


def bfs_within(rows: int, cols: int, goal, depth: int) -> dict[tuple[int, ...], int]:
    """Every board within ``depth`` moves of ``goal``, with its distance (boards too big for
    :func:`bfs_distances`, such as 2 x 5 and 3 x 4)."""
    return _bfs(rows, cols, tuple(goal), depth)


@lru_cache(maxsize=None)
def _bfs(rows: int, cols: int, goal: tuple[int, ...],
         max_depth: int | None = None) -> dict[tuple[int, ...], int]:
    cells = rows * cols
    nbrs = []
    for cell in range(cells):
        r, c = divmod(cell, cols)
        nbrs.append([x for x, ok in ((cell - cols, r > 0), (cell + cols, r < rows - 1),
                                      (cell - 1, c > 0), (cell + 1, c < cols - 1)) if ok])
    dist = {goal: 0}
    frontier = [goal]
    depth = 0
    while frontier and (max_depth is None or depth < max_depth):
        depth += 1
        following = []
        for state in frontier:
            blank = state.index(0)
            for cell in nbrs[blank]:
                nxt = list(state)
                nxt[blank], nxt[cell] = nxt[cell], 0
                key = tuple(nxt)
                if key not in dist:
                    dist[key] = depth
                    following.append(key)
        frontier = following
    return dist


def brute_force_pattern(rows, cols, pattern, goal=None):
    """0-1 breadth-first search over (pattern tile cells, blank cell): moving a pattern tile
    costs 1, moving any other tile 0. Returns {cells of the pattern tiles: distance}, the
    distance to the tiles' and the blank's places in ``goal`` (default: the standard goal)."""
    n = rows * cols
    if goal is None:
        start = (tuple(t - 1 for t in pattern), n - 1)
    else:
        start = (tuple(goal.index(t) for t in pattern), goal.index(0))
    best = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        cells, blank = state
        d = best[state]
        r, c = divmod(blank, cols)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if not (0 <= rr < rows and 0 <= cc < cols):
                continue
            q = rr * cols + cc
            if q in cells:
                nxt = (tuple(blank if x == q else x for x in cells), q)
                cost = 1
            else:
                nxt, cost = (cells, q), 0
            if d + cost < best.get(nxt, 1 << 30):
                best[nxt] = d + cost
                (queue.appendleft if cost == 0 else queue.append)(nxt)
    out = {}
    for (cells, _), d in best.items():
        out[cells] = min(d, out.get(cells, 1 << 30))
    return out


def bfs_codes(rows: int, cols: int, goal, max_depth: int | None = None):
    """Every board within ``max_depth`` moves of ``goal`` (all of them without a limit), as
    ``(codes, dist)``: each board packed in an int64, 4 bits per cell, cell 0 lowest, and its
    distance. The same breadth-first search as :func:`bfs_distances`, a level at a time over
    whole arrays (numpy), for boards of up to 15 cells where a dict of tuples is too slow
    (2 x 5: 1.8 million boards)."""
    n = rows * cols
    if n > 15:
        raise ValueError("4 bits a cell: at most 15 cells")
    start = np.int64(sum(int(t) << (4 * c) for c, t in enumerate(goal)))
    frontier = np.array([start], dtype=np.int64)
    before = np.zeros(0, dtype=np.int64)
    levels = [frontier]
    depth = 0
    while frontier.size and (max_depth is None or depth < max_depth):
        depth += 1
        blank = np.zeros(frontier.size, dtype=np.int64)
        for c in range(n):
            blank[((frontier >> (4 * c)) & 15) == 0] = c
        children = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = blank // cols + dr, blank % cols + dc
            ok = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
            q = (r * cols + c)[ok]
            b = blank[ok]
            state = frontier[ok]
            tile = (state >> (4 * q)) & 15
            children.append((state & ~(np.int64(15) << (4 * q))) | (tile << (4 * b)))
        fresh = np.unique(np.concatenate(children))
        # A slide moves the blank to a cell of the other colour of a chessboard, so a board's
        # neighbours are one level nearer or one level farther: only the level before the
        # frontier can hold boards already seen.
        fresh = fresh[~np.isin(fresh, before, assume_unique=True)]
        before, frontier = frontier, fresh
        if fresh.size:
            levels.append(fresh)
    codes = np.concatenate(levels)
    dist = np.concatenate([np.full(level.size, d, dtype=np.int16) for d, level in enumerate(levels)])
    return codes, dist


def decode(codes, n: int):
    """``tiles[i, cell]`` of packed boards (:func:`bfs_codes`)."""
    return np.stack([(codes >> (4 * c)) & 15 for c in range(n)], axis=1)
