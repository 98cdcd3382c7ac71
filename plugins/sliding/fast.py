"""The `fast` sliding-tile solver: short solutions quickly, on any solvable board up to 32 x 32.

Two methods:

* **Weighted A*** (f = g + w * h, h = Manhattan + linear conflict) for boards of at most 25
  cells (not 2 cells wide beyond 2 x 6, which A* finds hard). It tries a small weight first
  (short solutions) under a node budget, then larger weights. The search is compiled with numba
  (:mod:`.fast_kernel`); a pure-Python version with the same results, about 8 times slower, is
  used if the compiled one cannot run.
* **Row-and-column reduction** for bigger boards (and as the fallback): place the tiles of one
  outer row or column, tile by tile, never disturbing placed ones, which leaves a smaller board;
  repeat until at most 4 x 4 cells are left and finish with weighted A*, or, if that runs over
  its budget (or the rest is 2 cells wide), go on down to 3 x 3 and finish with exact A*. Rows
  and columns are peeled from the sides away from the goal's blank, so any goal works.

  Placing a tile: walk it along a shortest path to its cell; before each step the blank is routed
  (breadth-first, around the tile and the placed cells) to the cell ahead of it. The last two tiles
  of a line cannot be placed that way (placing one blocks the other), so: put the last tile on the
  next-to-last cell, bring the other tile into the 3 x 2 window at the end of the line, and finish
  the pair with a breadth-first search over (tile A, tile B, blank) positions inside that window.
"""

from __future__ import annotations

import heapq
import time
from collections import deque
from functools import lru_cache
from typing import Sequence

from engine import GaveUp, SolveContext, Solved, Solver, Unsolvable

from .board import Board, neighbours, unsolvable_detail, unsolvable_reason
from .heuristics import Heuristic, lower_bound

try:  # The compiled search; without numba the pure-Python one below does the same, slower.
    from . import fast_kernel
except Exception:  # pragma: no cover - numba is a dependency, but a broken install must not hurt
    fast_kernel = None

#: (weight, budget of expanded nodes) pairs tried in turn by weighted A*, by board area: small
#: weights first (short solutions), larger ones when the budget runs out. Boards above 25 cells
#: (and any board the schedule fails on) go to the reduction, which finishes its last <= 16
#: cells with the FINISH schedule. The compiled search expands about 0.7 M nodes/s, the
#: Python one about 60,000.
KERNEL_SCHEDULES = (
    (9, ((1.0, 200_000),)),
    (12, ((1.0, 300_000), (1.5, 300_000), (2.0, 500_000))),
    (16, ((1.0, 100_000), (1.25, 400_000), (1.5, 600_000), (2.0, 800_000))),
    (25, ((1.5, 500_000), (1.75, 600_000), (2.0, 800_000), (3.0, 800_000))),
)
KERNEL_FINISH = ((1.25, 50_000), (1.5, 100_000), (2.0, 150_000))
PY_SCHEDULES = (
    (9, ((1.0, 400_000),)),
    (12, ((1.0, 20_000), (1.5, 40_000), (2.0, 60_000))),
    (16, ((1.25, 15_000), (1.5, 40_000), (2.0, 60_000), (3.0, 100_000))),
    (25, ((2.0, 80_000), (2.5, 60_000), (4.0, 100_000))),
)
PY_FINISH = ((1.5, 15_000), (2.0, 25_000))
#: Expanded nodes per second assumed when sizing a compiled call to the time left.
KERNEL_RATE = 600_000
#: Seconds the weighted searches may take in all before the reduction (always quick) answers.
SEARCH_SECONDS = 5.0
#: Seconds kept back from the deadline for the reduction.
RESERVE = 1.0
#: A solve with less time than this left uses the Python search rather than wait for numba to
#: compile the kernel (a first call without numba's on-disk cache takes a few seconds).
COMPILE_SECONDS = 15.0
CHECK_EVERY = 2048


class Stop(Exception):
    """Raised inside a search when the context says stop (deadline or cancellation)."""


# -- weighted A* -----------------------------------------------------------------------------------

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
        _, neg_g, _, state, blank, h = heappop(heap)
        g = -neg_g
        if seen[state][0] < g:
            continue  # a shorter way here was found after this entry was queued
        if state == target:
            moves = []
            while True:
                _, prev, tile = seen[state]
                if prev is None:
                    break
                moves.append(tile)
                state = prev
            stats["nodes"] = stats.get("nodes", 0) + expanded
            return moves[::-1]
        expanded += 1
        if expanded % CHECK_EVERY == 0 and ctx is not None:
            ctx.progress(nodes=stats.get("nodes", 0) + expanded, bound=round(g + h),
                         phase=f"weighted A* (w={weight:g})")
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
    node, parent, blank_of = fast_kernel.wastar(
        np.asarray(tiles, dtype=np.int8), np.asarray(goal, dtype=np.int8), tables.nbr, tables.md,
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
                ctx.progress(nodes=stats.get("nodes", 0), phase=f"weighted A* (w={weight:g})")
            return moves
    return weighted_astar(rows, cols, tiles, goal, weight, budget, ctx, stats, give_up_at)


def use_compiled(ctx: SolveContext | None = None) -> bool:
    """Whether to use the compiled search: numba works, and either this process has the kernel
    already (compiled, or loaded from numba's cache) or the deadline leaves time to compile."""
    if fast_kernel is None or _kernel_broken:
        return False
    if fast_kernel.wastar.signatures:
        return True
    remaining = ctx.remaining() if ctx is not None else None
    return remaining is None or remaining > COMPILE_SECONDS


def schedules(compiled: bool) -> tuple[tuple, tuple]:
    """(schedules by area, finishing schedule) for the compiled or the Python search."""
    return (KERNEL_SCHEDULES, KERNEL_FINISH) if compiled else (PY_SCHEDULES, PY_FINISH)


# -- row-and-column reduction ------------------------------------------------------------------------

class Reducer:
    """Solves a board by placing outer rows and columns one tile at a time (see the module doc).

    Works in place on ``tiles`` and records every slide in ``moves`` (tile numbers).
    """

    def __init__(self, board: Board, ctx: SolveContext | None = None, compiled: bool = False):
        self.rows, self.cols, self.n = board.rows, board.cols, board.size
        self.tiles = list(board.tiles)
        self.goal = board.goal
        self.pos = [0] * self.n
        for cell, tile in enumerate(self.tiles):
            self.pos[tile] = cell
        self.nbrs = neighbour_lists(self.rows, self.cols)
        self.fixed = bytearray(self.n)  # 1 = a placed cell (or outside the remaining region)
        self.moves: list[int] = []
        self.ctx = ctx
        self.compiled = compiled  # finish with the compiled search
        self.placed = 0
        self.nodes = 0

    # -- primitive moves ------------------------------------------------------------------------

    def slide_from(self, cell: int) -> None:
        """The tile on ``cell`` (next to the blank) slides into the blank."""
        blank = self.pos[0]
        tile = self.tiles[cell]
        self.tiles[blank], self.tiles[cell] = tile, 0
        self.pos[tile], self.pos[0] = blank, cell
        self.moves.append(tile)

    def blank_path(self, targets: set[int], avoid: int = -1) -> list[int] | None:
        """Shortest blank path (cells after the blank's) to any of ``targets``, around fixed cells
        and ``avoid``; None if there is none."""
        start = self.pos[0]
        if start in targets:
            return []
        fixed, nbrs = self.fixed, self.nbrs
        came = {start: -1}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for nb in nbrs[cell]:
                if nb in came or fixed[nb] or nb == avoid:
                    continue
                came[nb] = cell
                if nb in targets:
                    path = [nb]
                    while came[path[-1]] != start:
                        path.append(came[path[-1]])
                    self.nodes += len(came)
                    return path[::-1]
                queue.append(nb)
        self.nodes += len(came)
        return None

    def route_blank(self, targets: set[int], avoid: int = -1) -> None:
        path = self.blank_path(targets, avoid)
        if path is None:  # pragma: no cover - the reduction keeps the free area connected
            raise RuntimeError(f"blank cannot reach {sorted(targets)} around cell {avoid}")
        for cell in path:
            self.slide_from(cell)

    def distances_to(self, target: int) -> dict[int, int]:
        """Breadth-first distances from ``target`` over the free (unfixed) cells."""
        dist = {target: 0}
        queue = deque([target])
        fixed, nbrs = self.fixed, self.nbrs
        while queue:
            cell = queue.popleft()
            d = dist[cell] + 1
            for nb in nbrs[cell]:
                if nb not in dist and not fixed[nb]:
                    dist[nb] = d
                    queue.append(nb)
        self.nodes += len(dist)
        return dist

    def move_tile(self, tile: int, target: int) -> None:
        """Walk ``tile`` to ``target`` over free cells; each step takes the neighbour closer to the
        target that the blank reaches soonest, then slides the tile into it."""
        if self.pos[tile] == target:
            return
        dist = self.distances_to(target)
        while self.pos[tile] != target:
            here = self.pos[tile]
            closer = {nb for nb in self.nbrs[here] if dist.get(nb, 1 << 30) == dist[here] - 1}
            self.route_blank(closer, avoid=here)
            self.slide_from(here)

    # -- lines -----------------------------------------------------------------------------------

    def place_line(self, line: list[int], inward: int) -> None:
        """Place the goal tiles of ``line`` (cells in order); ``inward`` is the cell offset from a
        line cell towards the rest of the region."""
        goal = self.goal
        for cell in line[:-2]:
            self.check()
            self.move_tile(goal[cell], cell)
            self.fixed[cell] = 1
        self.place_pair(line[-2], line[-1], inward)

    def place_pair(self, cell_a: int, cell_b: int, inward: int) -> None:
        """Place the last two tiles of a line (A on ``cell_a``, B on the end cell ``cell_b``)."""
        self.check()
        a, b = self.goal[cell_a], self.goal[cell_b]
        pos = self.pos
        if pos[a] == cell_a and pos[b] == cell_b:
            self.fixed[cell_a] = self.fixed[cell_b] = 1
            return
        window = [cell_a, cell_b, cell_a + inward, cell_b + inward,
                  cell_a + 2 * inward, cell_b + 2 * inward]
        # B goes on A's cell first; A then only needs to get into the window.
        self.move_tile(b, cell_a)
        if pos[a] not in window:
            self.fixed[cell_a] = 1  # B stays put ...
            if pos[0] == cell_b:    # ... and the end cell is off limits, so leave it first
                self.slide_from(cell_b + inward)
            self.fixed[cell_b] = 1
            self.move_tile(a, cell_a + inward)
            self.fixed[cell_a] = self.fixed[cell_b] = 0
        free = set(window) - {pos[a], pos[b]}
        self._blank_into(free, a, b)
        for cell in self.window_solution(window, cell_a, cell_b, a, b):
            self.slide_from(cell)
        self.fixed[cell_a] = self.fixed[cell_b] = 1

    def _blank_into(self, cells: set[int], a: int, b: int) -> None:
        """Route the blank into ``cells`` without touching tiles ``a`` and ``b``."""
        saved = (self.fixed[self.pos[a]], self.fixed[self.pos[b]])
        self.fixed[self.pos[a]] = self.fixed[self.pos[b]] = 1
        try:
            self.route_blank(cells)
        finally:
            self.fixed[self.pos[a]], self.fixed[self.pos[b]] = saved

    def window_solution(self, window: list[int], cell_a: int, cell_b: int, a: int, b: int
                        ) -> list[int]:
        """Blank moves (cells) inside ``window`` that bring A to ``cell_a`` and B to ``cell_b``:
        breadth-first over (A, B, blank) positions, the window's other tiles being any."""
        inside = set(window)
        start = (self.pos[a], self.pos[b], self.pos[0])
        came = {start: None}
        queue = deque([start])
        while queue:
            state = queue.popleft()
            pa, pb, blank = state
            if pa == cell_a and pb == cell_b:
                path = []
                while came[state] is not None:
                    prev = came[state]
                    path.append(state[2])
                    state = prev
                self.nodes += len(came)
                return path[::-1]
            for nb in self.nbrs[blank]:
                if nb not in inside:
                    continue
                na = blank if nb == pa else pa
                nb_b = blank if nb == pb else pb
                nxt = (na, nb_b, nb)
                if nxt not in came:
                    came[nxt] = state
                    queue.append(nxt)
        raise RuntimeError("the last two tiles of a line could not be placed")  # pragma: no cover

    # -- the whole board ---------------------------------------------------------------------------

    def check(self) -> None:
        if self.ctx is not None:
            self.ctx.progress(nodes=self.nodes, moves=len(self.moves), phase="row/column reduction")
            if self.ctx.should_stop():
                raise Stop

    def solve(self, schedule: Sequence[tuple[float, int]] = ()) -> list[int]:
        """All moves to the goal. With a weighted-A* ``schedule``, stop peeling at 4 x 4 (16 cells)
        and try the schedule on what is left, peeling on to 3 x 3 only if it fails."""
        rows, cols = self.rows, self.cols
        self.region = (0, rows, 0, cols)
        if schedule and min(rows, cols) >= 3:  # a thin 2 x 8 rest is slow for A*: peel it down
            self.peel_until(16)
            for weight, budget in schedule:
                if self.area() <= 9 or self.finish(weight, budget):
                    break
        self.peel_until(9)
        if self.area():
            self.finish(1.0, 10_000_000)
        return self.moves

    def area(self) -> int:
        r0, r1, c0, c1 = self.region
        return (r1 - r0) * (c1 - c0)

    def peel_until(self, area: int) -> None:
        """Place outer rows and columns until the region left has at most ``area`` cells."""
        cols = self.cols
        blank_row, blank_col = divmod(self.goal.index(0), cols)
        r0, r1, c0, c1 = self.region
        while (r1 - r0) * (c1 - c0) > area:
            h, w = r1 - r0, c1 - c0
            if h >= w and h >= 3:
                r = r0 if blank_row != r0 else r1 - 1
                line = [r * cols + c for c in range(c0, c1)]
                self.place_line(line, cols if r == r0 else -cols)
                if r == r0:
                    r0 += 1
                else:
                    r1 -= 1
            else:
                c = c0 if blank_col != c0 else c1 - 1
                line = [r * cols + c for r in range(r0, r1)]
                self.place_line(line, 1 if c == c0 else -1)
                if c == c0:
                    c0 += 1
                else:
                    c1 -= 1
            self.region = (r0, r1, c0, c1)

    def finish(self, weight: float, budget: int) -> bool:
        """Solve the region left (it holds the goal's blank) by weighted A*; False if the budget
        ran out (nothing is moved then). The region is empty afterwards."""
        self.check()
        r0, r1, c0, c1 = self.region
        cells = [r * self.cols + c for r in range(r0, r1) for c in range(c0, c1)]
        goal_tiles = [self.goal[c] for c in cells]
        label = {tile: i for i, tile in enumerate(sorted(goal_tiles))}  # blank (0) keeps label 0
        back = {i: tile for tile, i in label.items()}
        local = [label[self.tiles[c]] for c in cells]
        local_goal = [label[t] for t in goal_tiles]
        stats: dict = {}
        try:
            moves = search(r1 - r0, c1 - c0, local, local_goal, weight, budget, self.ctx, stats,
                           compiled=self.compiled)
        finally:
            self.nodes += stats.get("nodes", 0)
        if moves is None:
            return False
        for tile in moves:
            self.slide_from(self.pos[back[tile]])
        self.region = (r0, r0, c0, c0)
        return True


def reduction_solve(board: Board, ctx: SolveContext | None = None,
                    schedule: Sequence[tuple[float, int]] = (), compiled: bool = False
                    ) -> tuple[list[int], int]:
    """(moves, work counter) of the row-and-column reduction; raises Stop."""
    reducer = Reducer(board, ctx, compiled)
    moves = reducer.solve(schedule)
    return moves, reducer.nodes


def schedule_for(rows: int, cols: int, compiled: bool) -> tuple[tuple[float, int], ...]:
    """The weighted-A* schedule for a board (empty: use the reduction). Long thin boards (2 x 7
    and up) are hard for A* and easy for the reduction."""
    area = rows * cols
    if area > 12 and min(rows, cols) < 3:
        return ()
    for limit, schedule in schedules(compiled)[0]:
        if area <= limit:
            return schedule
    return ()


def cancel_pairs(moves: list[int]) -> list[int]:
    """Drop a move immediately undone by the next (the same tile sliding back)."""
    out: list[int] = []
    for tile in moves:
        if out and out[-1] == tile:
            out.pop()
        else:
            out.append(tile)
    return out


class FastSolver(Solver):
    """Short solutions for small boards (weighted A*), any board up to 32 x 32 in about a second
    (row-and-column reduction). Not optimal."""

    puzzle_id = "sliding"
    name = "fast"
    optimal = False
    description = ("Weighted A* (Manhattan + linear conflict) on boards up to 5 x 5, row-and-column "
                   "reduction on bigger ones; short but not always shortest solutions.")

    def prepare(self, ctx: SolveContext) -> bool:
        """Compile (or load from numba's disk cache) the compiled search now.

        Without this, a process's first solve under a deadline shorter than the compile time
        takes the slower pure-Python search, because it cannot know the compile would be quick.
        """
        if fast_kernel is None or _kernel_broken:
            return True
        ctx.progress(phase="compiling the weighted A* search")
        search(2, 2, (1, 2, 0, 3), (1, 2, 3, 0), 1.0, 100, None, {"nodes": 0})
        return True

    def solve(self, instance: Board, ctx: SolveContext) -> Solved | Unsolvable | GaveUp:
        reason = unsolvable_reason(instance)
        if reason:
            return Unsolvable(reason, detail=unsolvable_detail(instance))
        if instance.is_solved():
            return Solved((), optimal=True, stats={"nodes": 0})
        stats: dict = {"nodes": 0}
        try:
            give_up_at = time.monotonic() + SEARCH_SECONDS
            remaining = ctx.remaining()
            if remaining is not None:
                give_up_at = min(give_up_at, time.monotonic() + remaining - RESERVE)
            compiled = use_compiled(ctx)
            for weight, budget in schedule_for(instance.rows, instance.cols, compiled):
                moves = search(instance.rows, instance.cols, instance.tiles, instance.goal,
                               weight, budget, ctx, stats, give_up_at, compiled)
                if moves is not None:
                    stats["method"] = f"weighted A* (w={weight:g})"
                    return self._solved(instance, moves, stats)
            moves, work = reduction_solve(instance, ctx, schedules(compiled)[1], compiled)
            stats["nodes"] += work
            stats["method"] = "row/column reduction"
            return self._solved(instance, cancel_pairs(moves), stats)
        except Stop:
            return ctx.gave_up(**stats)

    @staticmethod
    def _solved(instance: Board, moves: list[int], stats: dict) -> Solved:
        stats["lower_bound"] = lower_bound(instance)
        # Weight-1 answers happen to be shortest, but this solver does not promise it.
        return Solved(tuple(str(t) for t in moves), optimal=False, stats=stats)
