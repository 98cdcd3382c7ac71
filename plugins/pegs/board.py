"""Peg solitaire boards: geometries, hole names, the instance value and jump tables.

A board is drawn on a grid of ``rows`` x ``cols`` cells; cell ``(r, c)`` is bit ``r * cols + c``
of the ``holes``, ``pegs`` and ``goal`` bitboards (Python ints). The three geometries differ
only in the directions a peg may jump along:

``square``
    rows and columns (the English, European and Wiegleb boards).
``diagonal``
    rows, columns and both diagonals (the "square grid with diagonal jumps" variant).
``triangular``
    the triangular lattice drawn left-justified: row ``r`` of a triangle has ``r`` holes, and a peg
    jumps along rows, columns and the down-right diagonal (six directions in all).

Hole names are a column letter (``a`` = leftmost column of the drawing) and a row number
(``1`` = top row), so the English centre is ``d4``.

:class:`Board` holds everything derived from a hole layout (compact hole numbering, jump
tables as bitmasks, lattice symmetries); it is cached, so asking for it is cheap.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import lru_cache

from engine import N_, InputError

from .i18n import _

GEOMETRIES = ("square", "diagonal", "triangular")

#: Jump directions (row step, column step) per geometry; each comes with its opposite.
DIRECTIONS = {
    "square": ((0, 1), (1, 0), (0, -1), (-1, 0)),
    "diagonal": ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)),
    "triangular": ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, -1)),
}

#: Size limits: the drawing's bounding grid and the number of holes.
MAX_SIDE = 12
MAX_HOLES = 100
# Written out (one whole message to translate); the assert keeps it true.
LIMITS_TEXT = N_("boards up to 12 x 12 cells with at most 100 holes")
assert (MAX_SIDE, MAX_HOLES) == (12, 100), "LIMITS_TEXT names the old limits"

COLUMN_LETTERS = string.ascii_lowercase[:MAX_SIDE]


@dataclass(frozen=True)
class PegInstance:
    """One peg solitaire problem, also used as the state while playing.

    ``holes``/``pegs``/``goal`` are bitboards over the ``rows`` x ``cols`` grid (bit
    ``r * cols + c``). ``goal`` is 0 for "one peg left anywhere"; otherwise it is the exact
    target pattern of pegs (a single bit: one peg at that hole).
    """

    geometry: str
    rows: int
    cols: int
    holes: int
    pegs: int
    goal: int = 0

    @property
    def board(self) -> "Board":
        return board_for(self.geometry, self.rows, self.cols, self.holes)

    @property
    def peg_count(self) -> int:
        return self.pegs.bit_count()

    @property
    def goal_kind(self) -> str:
        """``"any"`` (one peg anywhere), ``"hole"`` (one peg at a hole) or ``"pattern"``."""
        if self.goal == 0:
            return "any"
        return "hole" if self.goal.bit_count() == 1 else "pattern"

    def is_solved(self) -> bool:
        if self.goal == 0:
            return self.pegs.bit_count() == 1
        return self.pegs == self.goal


def cell_name(r: int, c: int) -> str:
    return f"{COLUMN_LETTERS[c]}{r + 1}"


def parse_cell_name(name: str, rows: int, cols: int) -> tuple[int, int]:
    """``"d4"`` -> (3, 3); InputError if malformed or outside the rows x cols grid."""
    text = name.strip().lower()
    if (len(text) < 2 or len(text) > 4 or text[0] not in string.ascii_lowercase
            or not text[1:].isdigit() or not text[1:].isascii()):
        raise InputError(_("{name} is not a hole name; write a column letter and a row "
                           "number, like d4").format(name=repr(name[:20])))
    r, c = int(text[1:]) - 1, string.ascii_lowercase.index(text[0])
    if not (0 <= r < rows and 0 <= c < cols):
        raise InputError(_("{name} is off the board, which has columns a-{last_column} "
                           "and rows 1-{rows}").format(name=repr(name), last_column=COLUMN_LETTERS[cols - 1],
                                                       rows=rows))
    return r, c


class Board:
    """A hole layout with its derived tables.

    Holes get compact indices 0..n-1 in reading order; the solver works on compact bitboards
    (bit i = hole i) because they are smaller and make symmetry maps simple.
    """

    def __init__(self, geometry: str, rows: int, cols: int, holes: int):
        self.geometry, self.rows, self.cols, self.holes = geometry, rows, cols, holes
        self.cells = [i for i in range(rows * cols) if holes >> i & 1]  # compact -> grid cell
        self.index = {cell: k for k, cell in enumerate(self.cells)}  # grid cell -> compact
        self.coords = [divmod(cell, cols) for cell in self.cells]
        self.n = len(self.cells)
        self.full = (1 << self.n) - 1
        self.names = [cell_name(r, c) for r, c in self.coords]
        # Every jump as (from, over, to) compact indices, in a fixed order.
        jumps = []
        for k, (r, c) in enumerate(self.coords):
            for dr, dc in DIRECTIONS[geometry]:
                over = self._compact(r + dr, c + dc)
                to = self._compact(r + 2 * dr, c + 2 * dc)
                if over is not None and to is not None:
                    jumps.append((k, over, to))
        self.jumps = tuple(jumps)
        # Grid-cell jump lookup for move parsing: (from cell, to cell) -> over cell.
        self.jump_by_cells = {(self.cells[f], self.cells[t]): self.cells[o] for f, o, t in jumps}
        # Every line of three holes (a jump and its reverse give the same line).
        self.lines = tuple(sorted({tuple(sorted((f, o, t))) for f, o, t in jumps}))

    def _compact(self, r: int, c: int) -> int | None:
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return self.index.get(r * self.cols + c)
        return None

    # -- conversions between grid bitboards and compact bitboards ---------------------------

    def to_compact(self, grid_bits: int) -> int:
        out = 0
        for k, cell in enumerate(self.cells):
            if grid_bits >> cell & 1:
                out |= 1 << k
        return out

    def to_grid(self, compact_bits: int) -> int:
        out = 0
        k = 0
        while compact_bits:
            if compact_bits & 1:
                out |= 1 << self.cells[k]
            compact_bits >>= 1
            k += 1
        return out

    def compact_names(self, compact_bits: int) -> list[str]:
        return [self.names[k] for k in range(self.n) if compact_bits >> k & 1]

    # -- symmetries ---------------------------------------------------------------------------

    def symmetries(self) -> list[tuple[int, ...]]:
        """Lattice symmetries mapping the hole set onto itself, as compact permutations.

        Each is a tuple ``perm`` with ``perm[k]`` the image of hole ``k``; the identity is first.
        They map jumps to jumps because the linear maps used permute the jump directions.
        """
        return list(_symmetries(self.geometry, self.rows, self.cols, self.holes))


def _lattice_maps(geometry: str) -> list[tuple[int, int, int, int]]:
    """The 2x2 integer matrices (a, b, c, d): (r, c) -> (a r + b c, c' = c r + d c) that permute
    the geometry's jump directions: the point group of its lattice (8 or 12 elements)."""
    dirs = set(DIRECTIONS[geometry])
    maps = []
    for a in (-1, 0, 1):
        for b in (-1, 0, 1):
            for c in (-1, 0, 1):
                for d in (-1, 0, 1):
                    if a * d - b * c not in (1, -1):
                        continue
                    if {(a * x + b * y, c * x + d * y) for x, y in dirs} == dirs:
                        maps.append((a, b, c, d))
    maps.sort(key=lambda m: m != (1, 0, 0, 1))  # identity first
    return maps


@lru_cache(maxsize=256)
def _symmetries(geometry: str, rows: int, cols: int, holes: int) -> tuple[tuple[int, ...], ...]:
    board = board_for(geometry, rows, cols, holes)
    coords = board.coords
    if not coords:
        return ((),)
    where = {rc: k for k, rc in enumerate(coords)}
    min_r = min(r for r, _c in coords)
    min_c = min(c for _r, c in coords)
    found = []
    for a, b, c, d in _lattice_maps(geometry):
        images = [(a * r + b * col, c * r + d * col) for r, col in coords]
        shift_r = min_r - min(r for r, _c in images)
        shift_c = min_c - min(col for _r, col in images)
        perm = []
        for r, col in images:
            k = where.get((r + shift_r, col + shift_c))
            if k is None:
                break
            perm.append(k)
        else:
            perm_t = tuple(perm)
            if perm_t not in found:
                found.append(perm_t)
    return tuple(found)


@lru_cache(maxsize=256)
def board_for(geometry: str, rows: int, cols: int, holes: int) -> Board:
    """The (cached) :class:`Board` for a hole layout."""
    return Board(geometry, rows, cols, holes)


def permute(bits: int, perm: tuple[int, ...]) -> int:
    """Apply a compact permutation to a compact bitboard."""
    out = 0
    k = 0
    while bits:
        if bits & 1:
            out |= 1 << perm[k]
        bits >>= 1
        k += 1
    return out
