"""Exact search between two boards with the compact pattern databases, by relabelling.

The tables of :mod:`.pdb_compact` measure distances to the standard goal. A window of an
answer, from board ``s`` to board ``t``, is re-solved with them by *relabelling*: turn the
board by a symmetry ``sigma`` of the square, then give the tile that sits at cell ``p`` of the
turned ``t`` the label of the standard goal's tile of ``p``. Then ``t`` reads as the standard
goal and ``s`` as some board, and the kernel of :mod:`.ida_compact` searches from it as usual;
the moves are named back with the original tiles.

When ``t``'s blank is in a corner, a symmetry takes it to the goal's blank cell and the
relabelling is complete: the full 6-6-6-6 heuristic with its mirrored lookup, exact. Otherwise
two things differ from the standard goal, and the lookups they touch count 0 instead (the
heuristic is then Manhattan distance for their tiles, still admissible: the lookups are over
disjoint patterns and each move moves one tile):

* the goal's tile of the cell where ``t`` has its blank has no tile (the tile at the goal's
  blank cell takes its label, with its Manhattan distance towards the blank cell), so the
  patterns that hold that label are incomplete;
* a table's distances are to its pattern at home *with the blank in the region of the goal's
  blank cell* (:mod:`.pdb_build` starts its search there). On the 5x5, pattern
  13-14-18-19-20-24 at home walls that cell in, and a goal with the blank elsewhere is not one
  of its goals: its values may exceed the true distance, so it counts 0 too.

:func:`window_heuristic` says which symmetry gives the larger heuristic at ``s``; the search
(:func:`solve_window`) is exact IDA* cut at an upper bound (only shorter ways are looked for).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

import numpy as np

from .ida_compact import CompactSearch
from .pdb import board_masks, flood_region
from .pdb_compact import CompactTables
from .shorten import TiedSolver, WindowSolver


def symmetries(side: int) -> list[list[int]]:
    """The 8 symmetries of a ``side`` x ``side`` board as cell maps (``sigma[cell]``)."""
    out = []
    for transpose in (False, True):
        for flip_r in (False, True):
            for flip_c in (False, True):
                sigma = []
                for cell in range(side * side):
                    r, c = divmod(cell, side)
                    if transpose:
                        r, c = c, r
                    if flip_r:
                        r = side - 1 - r
                    if flip_c:
                        c = side - 1 - c
                    sigma.append(r * side + c)
                out.append(sigma)
    return out


def relabel(start: Sequence[int], end: Sequence[int],
            sigma: Sequence[int]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """``(board, goal_cell, names)``: ``start`` turned by ``sigma`` and relabelled so that
    ``end`` reads as the standard goal (see the module doc); ``goal_cell[label]`` is each
    label's home (the tile at the goal's blank cell takes the label that has no tile, homed
    there); ``names[label]`` is the original tile."""
    n = len(end)
    blank_home = n - 1
    lost = sigma[list(end).index(0)] + 1      # the label no tile of ``end`` takes
    label = [0] * n
    for cell, tile in enumerate(end):
        if tile:
            p = sigma[cell]
            label[tile] = p + 1 if p != blank_home else lost
    board = np.zeros(n, dtype=np.int32)
    for cell, tile in enumerate(start):
        board[sigma[cell]] = label[tile]
    goal_cell = np.array([blank_home] + list(range(n - 1)), dtype=np.int64)
    if lost != n:
        goal_cell[lost] = blank_home
    names = [0] * n
    for tile in range(1, n):
        names[label[tile]] = tile
    return board, goal_cell, names


def broken_lookups(tables: CompactTables, goal_blank: int) -> list[int]:
    """The lookups that must count 0 when the relabelled goal has its blank at ``goal_blank``:
    those holding the label without a tile, and those whose pattern at home walls
    ``goal_blank`` off from the cell where their table's goal has the blank."""
    t = tables
    n = t.rows * t.cols
    if goal_blank == n - 1:
        return []
    lost = goal_blank + 1
    _, nfirst, nlast, _ = board_masks(t.rows, t.cols)
    full = (1 << n) - 1
    broken = []
    for lookup in range(2 * t.npat):
        tiles = [tile for tile in range(1, n) if t.ln[tile] == lookup or t.lm[tile] == lookup]
        if lost in tiles:
            broken.append(lookup)
            continue
        homes = sum(1 << (tile - 1) for tile in tiles)
        region = flood_region(1 << (n - 1), full & ~homes, t.cols, nfirst, nlast)
        if not region >> goal_blank & 1:
            broken.append(lookup)
    return broken


_ZERO = np.zeros(1, dtype=np.uint8)
_ZERO.flags.writeable = False


def without(tables: CompactTables, lookups: Sequence[int]) -> CompactTables:
    """``tables`` with ``lookups`` reading 0: they read an extra one-entry table of zeros,
    ranked with zero factors (the kernel is the same)."""
    if not lookups:
        return tables
    zero_id = len(tables.packed)
    kmax = tables.fac.shape[1]
    tid = tables.tid.copy()
    tid[list(lookups)] = zero_id
    return replace(tables, packed=tables.packed + (_ZERO,),
                   toff=np.append(tables.toff, 0), tk=np.append(tables.tk, kmax),
                   fac=np.vstack([tables.fac, np.zeros((1, kmax), dtype=np.int64)]), tid=tid)


#: What :func:`window_setups` gives per symmetry: the root heuristic, the relabelled board, each
#: label's home, the original tile of each label and the tables for that goal.
Setup = tuple[int, np.ndarray, np.ndarray, list[int], CompactTables]


class WindowSearch(CompactSearch):
    """Exact IDA* over compact tables towards a relabelled goal: the standard one except that
    ``goal_cell`` gives each label's home (:func:`relabel`); ``tables`` as :func:`without`
    leaves them for that goal."""

    def __init__(self, board: np.ndarray | Sequence[int], tables: CompactTables,
                 goal_cell: np.ndarray, ub: int) -> None:
        super().__init__(board, tables, ub=ub)
        self.goal_cell = goal_cell
        md = 0
        cols = self.cols
        for cell, tile in enumerate(self.tiles):
            if tile:
                g = int(goal_cell[tile])
                md += abs(cell // cols - g // cols) + abs(cell % cols - g % cols)
        _, sn, sm = self._root
        self._root = (md, sn, sm)
        self.h0 = int(md + 2 * max(sn, sm))


def window_setups(start: Sequence[int], end: Sequence[int],
                  tables: CompactTables) -> list[Setup]:
    """For each symmetry: ``(h, board, goal_cell, names, tables)``, the relabelled search's
    root heuristic and what it needs (:class:`WindowSearch`)."""
    out = []
    blank = list(end).index(0)
    for sigma in symmetries(tables.rows):
        board, goal_cell, names = relabel(start, end, sigma)
        tabs = without(tables, broken_lookups(tables, sigma[blank]))
        h = WindowSearch(board, tabs, goal_cell, ub=1 << 30).h0
        out.append((h, board, goal_cell, names, tabs))
    return out


def window_heuristic(start: Sequence[int], end: Sequence[int], tables: CompactTables) -> int:
    """A lower bound on the moves from ``start`` to ``end``: the best symmetry's heuristic."""
    return max(s[0] for s in window_setups(start, end, tables))


def solve_window(start: Sequence[int], end: Sequence[int], tables: CompactTables, ub: int,
                 stop: Callable[[], bool], node_cap: int,
                 variant: int = 0) -> tuple[list[int] | None, int, bool]:
    """``(path, nodes, exhausted)``: a shortest way from ``start`` to ``end`` (the tiles
    moved) if one shorter than ``ub`` exists, else None; ``exhausted`` is True when the search
    proved that none shorter than ``ub`` exists (not stopped by ``stop()`` or the node cap).

    ``variant`` picks one of the symmetries with the best heuristic (modulo their number):
    each tries the moves in another order, so different variants may find different shortest
    ways (:func:`.shorten.polish` uses that to move along plateaus)."""
    setups = window_setups(start, end, tables)
    best = max(s[0] for s in setups)
    tied = [s for s in setups if s[0] == best]
    _, board, goal_cell, names, tabs = tied[variant % len(tied)]
    search = WindowSearch(board, tabs, goal_cell, ub)
    search.chunk = 50_000
    path = search.run(lambda st: st["nodes"] >= node_cap or stop())
    nodes = search.stats()["nodes"]
    if path is None:
        return None, nodes, search.exhausted
    return [names[label] for label in path], nodes, True


def pdb_window(tables: CompactTables) -> WindowSolver:
    """:func:`solve_window` as a :data:`.shorten.WindowSolver`: looks only for ways shorter
    than the stretch."""

    def solve(start: list[int], end: list[int], length: int, stop: Callable[[], bool],
              node_cap: int) -> tuple[list[int] | None, int]:
        path, nodes, _ = solve_window(start, end, tables, length, stop, node_cap)
        return path, nodes
    return solve


def tied_window(tables: CompactTables) -> TiedSolver:
    """:func:`solve_window` as a :data:`.shorten.TiedSolver`: a shortest way of at most the
    stretch's length."""

    def solve(start: list[int], end: list[int], length: int, stop: Callable[[], bool],
              node_cap: int, variant: int) -> tuple[list[int] | None, int]:
        path, nodes, _ = solve_window(start, end, tables, length + 1, stop, node_cap, variant)
        return path, nodes
    return solve
