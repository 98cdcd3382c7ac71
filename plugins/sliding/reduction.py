"""Row-and-column reduction: the `fast` solver's method for big boards (and its fallback).

Place the tiles of one outer row or column, tile by tile, never disturbing placed ones, which
leaves a smaller board; repeat until at most 4 x 4 cells are left and finish with weighted A*
(:mod:`.wastar`), or, if that runs over its budget (or the rest is 2 cells wide), go on down to
3 x 3 and finish with exact A*. Rows and columns are peeled from the sides away from the goal's
blank, so any goal works.

Placing a tile: walk it along a shortest path to its cell; before each step the blank is routed
(breadth-first, around the tile and the placed cells) to the cell ahead of it. The last two tiles
of a line cannot be placed that way (placing one blocks the other), so: put the last tile on the
next-to-last cell, bring the other tile into the 3 x 2 window at the end of the line, and finish
the pair with a breadth-first search over (tile A, tile B, blank) positions inside that window.
"""

from __future__ import annotations

from collections import deque
from typing import Sequence

from engine import SolveContext

from .board import Board
from .i18n import _
from .wastar import Stop, neighbour_lists, search


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
            self.ctx.progress(nodes=self.nodes, moves=len(self.moves), phase=_("row/column reduction"))
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
