"""Weighted A* for sliding-tile boards: compiled (:mod:`.fast_kernel`) or in Python.

``f = g + w * h`` with h = Manhattan distance + linear conflict (:mod:`.heuristics`), for boards
of at most 25 cells in the `fast` solver (:mod:`.fast`) and for the last cells of its row-and-
column reduction (:mod:`.reduction`). The compiled search runs with numba; a pure-Python one
with the same results, about 8 times slower, is used if the compiled one cannot run, or when a
deadline leaves no time for numba to compile it (:func:`use_compiled`).
"""

from __future__ import annotations

import heapq
import time
from functools import lru_cache
from typing import Sequence

from engine import SolveContext

from . import kernel_checks
from .board import neighbours
from .heuristics import Heuristic
from .i18n import _

try:  # The compiled search; without numba the pure-Python one below does the same, slower.
    from . import fast_kernel
except Exception:  # pragma: no cover - numba is a dependency, but a broken install must not hurt
    fast_kernel = None

#: Expanded nodes per second assumed when sizing a compiled call to the time left.
KERNEL_RATE = 600_000
#: A solve with less time than this left uses the Python search rather than wait for numba to
#: compile the kernel (a first call without numba's on-disk cache takes a few seconds).
COMPILE_SECONDS = 15.0
CHECK_EVERY = 2048


class Stop(Exception):
    """Raised inside a search when the context says stop (deadline or cancellation)."""


def neighbour_lists(rows: int, cols: int) -> list[tuple[int, ...]]:
    """For every cell, the cells next to it (as :func:`.board.neighbours` gives them)."""
    return [tuple(neighbours(rows, cols, cell)) for cell in range(rows * cols)]


def weighted_astar(rows: int, cols: int, tiles: Sequence[int], goal: Sequence[int], weight: float,
                   budget: int, ctx: SolveContext | None = None, stats: dict | None = None,
                   give_up_at: float | None = None) -> list[int] | None:
    """Moves (tile numbers) from ``tiles`` to ``goal`` by A* with f = g + weight * h, or None if
    ``budget`` nodes are expanded first or the clock passes ``give_up_at`` (time.monotonic).
    Weight 1 gives a shortest solution. Raises Stop when the context says stop."""
    heur = Heuristic(rows, cols, goal)
    nbrs = neighbour_lists(rows, cols)
    # States are bytes: their hash is cached, unlike a tuple's, which matters in the dicts below.
    start, target = bytes(tiles), bytes(goal)
    h0 = heur.value(start)
    stats = stats if stats is not None else {}
    # state -> (g, parent state, tile moved to get here)
    seen: dict[bytes, tuple[int, bytes | None, int]] = {start: (0, None, 0)}
    counter = 0
    # Ties on f go to the deeper node (larger g), which finishes weighted searches sooner.
    heap = [(weight * h0, 0, counter, start, start.index(0), h0)]
    expanded = 0
    after_slide = heur.after_slide
    heappush, heappop = heapq.heappush, heapq.heappop
    while heap:
        _f, neg_g, _tie, state, blank, h = heappop(heap)
        g = -neg_g
        if seen[state][0] < g:
            continue  # a shorter way here was found after this entry was queued
        if state == target:
            moves = []
            while True:
                _g, prev, tile = seen[state]
                if prev is None:
                    break
                moves.append(tile)
                state = prev
            stats["nodes"] = stats.get("nodes", 0) + expanded
            return moves[::-1]
        expanded += 1
        if expanded % CHECK_EVERY == 0 and ctx is not None:
            ctx.progress(nodes=stats.get("nodes", 0) + expanded, bound=round(g + h),
                         phase=_("weighted A* (w={weight})").format(weight=f"{weight:g}"))
            if ctx.should_stop():
                stats["nodes"] = stats.get("nodes", 0) + expanded
                raise Stop
            if give_up_at is not None and time.monotonic() > give_up_at:
                stats["nodes"] = stats.get("nodes", 0) + expanded
                return None
        if expanded > budget:
            stats["nodes"] = stats.get("nodes", 0) + expanded
            return None
        g1 = g + 1
        for cell in nbrs[blank]:
            new = bytearray(state)
            tile = new[cell]
            new[blank], new[cell] = tile, 0
            new_s = bytes(new)
            old = seen.get(new_s)
            if old is not None and old[0] <= g1:
                continue
            seen[new_s] = (g1, state, tile)
            h1 = after_slide(state, h, cell, blank, new_s)
            counter += 1
            heappush(heap, (g1 + weight * h1, -g1, counter, new_s, cell, h1))
    stats["nodes"] = stats.get("nodes", 0) + expanded
    return None


def compiled_astar(rows: int, cols: int, tiles: Sequence[int], goal: Sequence[int], weight: float,
                   budget: int, stats: dict) -> list[int] | None:
    """:func:`weighted_astar` by the compiled kernel (boards of at most 127 cells)."""
    import numpy as np

    tables = _kernel_tables(rows, cols, tuple(goal))
    h0 = Heuristic(rows, cols, goal).value(tiles)
    out = np.zeros(1, dtype=np.int64)
    max_nodes = min(3_000_000, 3 * budget + 16)
    start, end = np.asarray(tiles, dtype=np.int8), np.asarray(goal, dtype=np.int8)
    kernel_checks.wastar(rows * cols, start, end, tables.nbr, tables.md, tables.zobrist,
                         tables.goal_row, tables.goal_col, max_nodes, out)
    node, parent, blank_of = fast_kernel.wastar(
        start, end, tables.nbr, tables.md,
        tables.zobrist, tables.goal_row, tables.goal_col, rows, cols, h0, float(weight), budget,
        max_nodes, out)
    stats["nodes"] = stats.get("nodes", 0) + int(out[0])
    if node < 0:
        return None
    cells = []
    while parent[node] >= 0:
        cells.append(int(blank_of[node]))
        node = parent[node]
    board = list(tiles)
    blank = board.index(0)
    moves = []
    for cell in reversed(cells):
        moves.append(board[cell])
        board[blank], board[cell] = board[cell], 0
        blank = cell
    return moves


@lru_cache(maxsize=16)
def _kernel_tables(rows: int, cols: int, goal: tuple[int, ...]):
    return fast_kernel.Tables(rows, cols, goal)


_kernel_broken = False


def search(rows: int, cols: int, tiles: Sequence[int], goal: Sequence[int], weight: float,
           budget: int, ctx: SolveContext | None, stats: dict, give_up_at: float | None = None,
           compiled: bool = True) -> list[int] | None:
    """Weighted A*: compiled if ``compiled`` and numba works, else in Python; None when the budget
    or the time (``give_up_at``) runs out. Raises Stop when the context says stop."""
    global _kernel_broken
    if compiled and fast_kernel is not None and not _kernel_broken and rows * cols <= 127:
        if ctx is not None and ctx.should_stop():
            raise Stop
        if give_up_at is not None:
            # A compiled call cannot be interrupted: size it to the time left.
            budget = min(budget, int((give_up_at - time.monotonic()) * KERNEL_RATE))
            if budget <= 0:
                return None
        try:
            moves = compiled_astar(rows, cols, tiles, goal, weight, budget, stats)
        except Exception:  # pragma: no cover - e.g. a numba that cannot compile here
            _kernel_broken = True
        else:
            if ctx is not None:
                ctx.progress(nodes=stats.get("nodes", 0),
                             phase=_("weighted A* (w={weight})").format(weight=f"{weight:g}"))
            return moves
    return weighted_astar(rows, cols, tiles, goal, weight, budget, ctx, stats, give_up_at)


def kernel_usable() -> bool:
    """Whether the compiled search can run here (numba imports and has not failed)."""
    return fast_kernel is not None and not _kernel_broken


def use_compiled(ctx: SolveContext | None = None) -> bool:
    """Whether to use the compiled search: numba works, and either this process has the kernel
    already (compiled, or loaded from numba's cache) or the deadline leaves time to compile."""
    if fast_kernel is None or _kernel_broken:
        return False
    if fast_kernel.wastar.signatures:
        return True
    remaining = ctx.remaining() if ctx is not None else None
    return remaining is None or remaining > COMPILE_SECONDS
