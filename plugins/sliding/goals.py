"""Goals mapped onto the ones the pattern databases are built for.

A table is built for a goal in *home order* (:mod:`.pdb`): tile t's home is the t-th cell other
than the blank's home, counting row by row. The standard goal (blank bottom-right) is the one
with the blank's home in the last cell. Any other goal is brought to one of these by a symmetry
of the board (flips, and on a square board the transposes) followed by a renaming of the tiles
after their homes. Both keep adjacency, so a solution found on the mapped board maps back move
for move (moves name tiles) and has the same length: optimality is kept.

:func:`goal_mapping` reaches the standard goal when the goal's blank is in a corner;
:func:`home_mapping` reaches a home-order goal for any goal, picking the symmetry that takes the
blank's home to the highest-numbered cell it can reach (a corner goes to the last cell, so it
is the standard goal again), so that goals which are mirror images share one set of tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .board import Board


@dataclass(frozen=True)
class GoalMapping:
    """A board symmetry plus tile relabelling that turns an instance's goal into a home-order
    goal (:mod:`.pdb`), by default the standard one.

    ``cell_map[i]`` is where cell i goes; ``to_std[t]`` is tile t's new name and ``from_std``
    the inverse (both keep the blank as 0).
    """

    cell_map: tuple[int, ...]
    to_std: tuple[int, ...]
    from_std: tuple[int, ...]

    def tiles(self, tiles: Sequence[int]) -> list[int]:
        out = [0] * len(tiles)
        for i, t in enumerate(tiles):
            out[self.cell_map[i]] = self.to_std[t]
        return out

    def moves_back(self, moves: Sequence[int]) -> list[str]:
        return [str(self.from_std[m]) for m in moves]


def symmetries(rows: int, cols: int) -> list[tuple[int, ...]]:
    """The cell maps of the board's symmetries that keep its shape: the identity first, then
    the flips of rows, of columns and of both, and on a square board the same four followed by
    the transpose."""
    n = rows * cols
    maps = []
    for transpose in ((False, True) if rows == cols else (False,)):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                cells = []
                for i in range(n):
                    r, c = divmod(i, cols)
                    if flip_rows:
                        r = rows - 1 - r
                    if flip_cols:
                        c = cols - 1 - c
                    if transpose:
                        r, c = c, r
                    cells.append(r * cols + c)
                maps.append(tuple(cells))
    return maps


def _mapping(board: Board, cell_map: Sequence[int], blank: int) -> GoalMapping:
    n = board.rows * board.cols
    to_std = [0] * n
    for i, t in enumerate(board.goal):
        if t != 0:
            cell = cell_map[i]
            to_std[t] = cell + 1 if cell < blank else cell      # home order (pdb.home)
    from_std = [0] * n
    for t, s in enumerate(to_std):
        from_std[s] = t
    return GoalMapping(tuple(cell_map), tuple(to_std), tuple(from_std))


def goal_mapping(board: Board) -> GoalMapping | None:
    """A mapping onto the standard goal, or None if the goal's blank is not in a corner."""
    rows, cols = board.rows, board.cols
    r, c = divmod(board.goal.index(0), cols)
    if r not in (0, rows - 1) or c not in (0, cols - 1):
        return None
    flip_rows, flip_cols = r != rows - 1, c != cols - 1
    cell_map = [(rows - 1 - ri if flip_rows else ri) * cols + (cols - 1 - ci if flip_cols else ci)
                for ri, ci in (divmod(i, cols) for i in range(rows * cols))]
    return _mapping(board, cell_map, rows * cols - 1)


def home_mapping(board: Board) -> tuple[GoalMapping, int]:
    """A mapping onto a home-order goal, for any goal, and that goal's blank home: the
    symmetry that takes the goal's blank to the highest-numbered cell it can reach (the last
    cell for a corner: then this is :func:`goal_mapping`)."""
    b = board.goal.index(0)
    best = max(symmetries(board.rows, board.cols), key=lambda cells: cells[b])
    return _mapping(board, best, best[b]), best[b]
