"""Admissible lower bounds for sliding-tile boards: Manhattan distance plus linear conflict.

Both work for any goal. *Manhattan*: each tile needs at least its row distance plus column
distance in moves. *Linear conflict* (Hansson, Mayer and Yung, 1992): in a row, the tiles that
belong to that row but stand in the wrong order must pass each other, which takes two extra moves
per tile that has to leave the row; the fewest tiles to remove is the row's length minus its
longest increasing subsequence of goal columns. Columns likewise. The two kinds of extra moves are
vertical and horizontal respectively, so they add up without overlap.

:class:`Heuristic` keeps the tables for one board shape and goal and updates the bound after one
slide in O(line length), which is what the searches use; :func:`lower_bound` is the one-shot form.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Sequence

from .board import Board


def _removals(goal_coords: Sequence[int]) -> int:
    """Fewest entries to drop so the rest increase strictly: len - longest increasing subsequence."""
    tails: list[int] = []
    for x in goal_coords:
        i = bisect_left(tails, x)
        if i == len(tails):
            tails.append(x)
        else:
            tails[i] = x
    return len(goal_coords) - len(tails)


class Heuristic:
    """Manhattan + linear conflict tables for one (rows, cols, goal).

    ``md[tile * n + cell]`` is the Manhattan distance of ``tile`` standing on ``cell``; the blank's
    entries are 0. Line conflicts are memoised by line contents (each memo is bounded).
    """

    CACHE_LIMIT = 200_000
    TABLE_LIMIT = 64

    def __init__(self, rows: int, cols: int, goal: Sequence[int]):
        self.rows, self.cols, self.n = rows, cols, rows * cols
        n = self.n
        self.goal_cell = [0] * n
        for cell, tile in enumerate(goal):
            self.goal_cell[tile] = cell
        self.goal_row = [c // cols for c in self.goal_cell]
        self.goal_col = [c % cols for c in self.goal_cell]
        # The n x n table is for the searches on small boards; big boards compute distances directly.
        md = [0] * (n * n) if n <= self.TABLE_LIMIT else []
        for tile in range(1, n if md else 0):
            gr, gc = self.goal_row[tile], self.goal_col[tile]
            base = tile * n
            for cell in range(n):
                md[base + cell] = abs(cell // cols - gr) + abs(cell % cols - gc)
        self.md = md
        # One memo per line, keyed by the line's contents (a bytes or tuple slice of the board).
        self._row_memo: list[dict] = [{} for _ in range(rows)]
        self._col_memo: list[dict] = [{} for _ in range(cols)]

    # -- per line ----------------------------------------------------------------------------

    def row_conflict(self, r: int, line) -> int:
        """Extra moves (2 per tile that must leave) forced by row ``r`` holding ``line``."""
        memo = self._row_memo[r]
        value = memo.get(line)
        if value is None:
            gr, gc = self.goal_row, self.goal_col
            value = 2 * _removals([gc[t] for t in line if t and gr[t] == r])
            if len(memo) > self.CACHE_LIMIT:
                memo.clear()
            memo[line] = value
        return value

    def col_conflict(self, c: int, line) -> int:
        """Extra moves forced by column ``c`` holding ``line`` (top to bottom)."""
        memo = self._col_memo[c]
        value = memo.get(line)
        if value is None:
            gr, gc = self.goal_row, self.goal_col
            value = 2 * _removals([gr[t] for t in line if t and gc[t] == c])
            if len(memo) > self.CACHE_LIMIT:
                memo.clear()
            memo[line] = value
        return value

    # -- whole boards --------------------------------------------------------------------------

    def manhattan(self, tiles: Sequence[int]) -> int:
        cols, gr, gc = self.cols, self.goal_row, self.goal_col
        return sum(abs(cell // cols - gr[t]) + abs(cell % cols - gc[t])
                   for cell, t in enumerate(tiles) if t)

    def conflicts(self, tiles: Sequence[int]) -> int:
        cols, rows = self.cols, self.rows
        tiles = tuple(tiles)
        total = sum(self.row_conflict(r, tiles[r * cols:(r + 1) * cols]) for r in range(rows))
        total += sum(self.col_conflict(c, tiles[c::cols]) for c in range(cols))
        return total

    def value(self, tiles: Sequence[int]) -> int:
        """Manhattan + linear conflict: a lower bound on the moves to the goal."""
        return self.manhattan(tiles) + self.conflicts(tiles)

    def after_slide(self, tiles: tuple[int, ...], h: int, tile_cell: int, blank: int,
                    new_tiles: tuple[int, ...]) -> int:
        """The bound of ``new_tiles``: ``tiles`` (bound ``h``) after the tile on ``tile_cell``
        slid into ``blank`` (boards of at most TABLE_LIMIT cells)."""
        n, cols = self.n, self.cols
        t = tiles[tile_cell]
        h += self.md[t * n + blank] - self.md[t * n + tile_cell]
        if tile_cell - blank in (1, -1):  # horizontal: two columns change
            for c in (tile_cell % cols, blank % cols):
                memo = self._col_memo[c]
                old, new = tiles[c::cols], new_tiles[c::cols]
                a, b = memo.get(new), memo.get(old)
                h += (self.col_conflict(c, new) if a is None else a) - \
                    (self.col_conflict(c, old) if b is None else b)
        else:  # vertical: two rows change
            for r in (tile_cell // cols, blank // cols):
                memo = self._row_memo[r]
                lo = r * cols
                old, new = tiles[lo:lo + cols], new_tiles[lo:lo + cols]
                a, b = memo.get(new), memo.get(old)
                h += (self.row_conflict(r, new) if a is None else a) - \
                    (self.row_conflict(r, old) if b is None else b)
        return h


def manhattan(board: Board) -> int:
    """Sum over tiles of row distance + column distance to the goal cell."""
    return Heuristic(board.rows, board.cols, board.goal).manhattan(board.tiles)


def lower_bound(board: Board) -> int:
    """Manhattan distance + linear conflict: no solution is shorter."""
    return Heuristic(board.rows, board.cols, board.goal).value(board.tiles)
