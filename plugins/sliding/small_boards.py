"""Pattern databases for every board shape of 10 to 16 cells other than the 4x4.

Thin boards (2 x 5 up to 2 x 8, 3 x 4, 3 x 5, and their transposes) have long optimal
solutions, 60 to 100 moves, and Manhattan distance plus linear conflict is too weak there:
IDA* with it runs for minutes on a random 2 x 8. Additive pattern databases of at most six
tiles are built for such a shape in seconds, so the ``optimal`` solver builds them per shape
when a board of that shape first needs them, and caches them like the 4x4 tables (same files,
checksums and fallbacks, see :mod:`.pdb`).

One partition leaves a long tail of hard boards. Two partitions whose borders fall in different
places do much better, because a board that one of them underestimates the other usually does
not: the heuristic is the larger of the two additive sums, each admissible on its own, so the
maximum is admissible too. It reuses the search kernel's second ("mirrored") lookup, which for
these non-square boards has no mirror to look up: the second lookup indexes the second
partition's tables instead.

Both partitions cut the tiles into strips along the board's long side, in goal order: the
first into groups of at most five (balanced), the second into groups of six from the start
(6, 6, rest). Measured on 20 random 2 x 8 boards each (``bench/sliding_small.py``): one 5-5-5
partition averaged 3.1 s with a worst case of 24 s; the pair 5-5-5 and 6-6-3 averages 0.6 s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from . import pdb
from .board import Board
from .ida import PdbSearch, pdb_indices

#: Shapes with this many cells or fewer (and at least :data:`MIN_CELLS`) get these tables.
MAX_CELLS = 16
#: Smaller boards are solved in milliseconds by linear conflict; no table needed.
MIN_CELLS = 10

#: Seconds per dense table entry when building, measured on a busy 2-core machine (about
#: 0.4-0.9 us); used to say how long a missing build would take and whether it fits.
BUILD_SECONDS_PER_ENTRY = 1.0e-6

#: A build is started inside a solve only if the time left is this many times its estimate.
BUILD_MARGIN = 1.5

#: The shapes ``puzzle prepare sliding`` builds: every wide shape covered (tall boards are
#: searched transposed, so they use these too).
PREPARED_SHAPES = ((2, 5), (2, 6), (3, 4), (2, 7), (3, 5), (2, 8))

Partition = tuple[tuple[int, ...], ...]


def covers(rows: int, cols: int) -> bool:
    """True for the shapes this module builds tables for."""
    return MIN_CELLS <= rows * cols <= MAX_CELLS and (rows, cols) != (4, 4)


def wide(board: Board) -> Board:
    """The board itself if it is at least as wide as tall, else its transpose (tiles and goal
    mirrored in the main diagonal). Transposing keeps adjacency, so a solution of one is a
    solution of the other, move for move: moves name tiles, not cells."""
    rows, cols = board.rows, board.cols
    if cols >= rows:
        return board

    def flip(cells: Sequence[int]) -> tuple[int, ...]:
        return tuple(cells[r * cols + c] for c in range(cols) for r in range(rows))

    return Board(cols, rows, flip(board.tiles), flip(board.goal))


def build_fits(rows: int, cols: int, seconds_left: float | None) -> bool:
    """Whether building the shape's missing tables fits in the time left (None: no limit)."""
    return seconds_left is None or seconds_left >= BUILD_MARGIN * build_seconds(rows, cols)


def _strip_order(rows: int, cols: int) -> list[int]:
    """The tiles of the standard goal in strips along the long side: column by column on a wide
    board, row by row on a tall one (tile t's home is cell t - 1; the blank's is the last)."""
    if cols >= rows:
        cells = [r * cols + c for c in range(cols) for r in range(rows)]
    else:
        cells = [r * cols + c for r in range(rows) for c in range(cols)]
    last = rows * cols - 1
    return [cell + 1 for cell in cells if cell != last]


def _cut(tiles: Sequence[int], sizes: Sequence[int]) -> Partition:
    groups, start = [], 0
    for size in sizes:
        groups.append(tuple(sorted(tiles[start:start + size])))
        start += size
    return tuple(groups)


def partitions(rows: int, cols: int) -> tuple[Partition, Partition]:
    """The two partitions of the shape's tiles (see the module doc), for the standard goal."""
    tiles = _strip_order(rows, cols)
    n = len(tiles)
    groups = -(-n // 5)
    base, extra = divmod(n, groups)
    balanced = [base + (1 if g < extra else 0) for g in range(groups)]
    sixes = [min(6, n - start) for start in range(0, n, 6)]
    return _cut(tiles, balanced), _cut(tiles, sixes)


def build_entries(rows: int, cols: int) -> int:
    """Dense table entries still to build for this shape (0 when all are on disk)."""
    n = rows * cols
    return sum(n ** len(p) for partition in partitions(rows, cols) for p in partition
               if not pdb.pattern_path(rows, cols, p).exists())


def build_seconds(rows: int, cols: int) -> float:
    """About how long building this shape's missing tables takes."""
    return build_entries(rows, cols) * BUILD_SECONDS_PER_ENTRY


def available(rows: int, cols: int) -> bool:
    """True if the shape's tables are loaded or on disk (no build needed)."""
    return all(pdb.available(rows, cols, p) for p in partitions(rows, cols))


@dataclass
class TwoPartitionTables:
    """Two partitions' tables laid out for :func:`ida.run_pdb`: the normal lookup reads the
    first partition's patterns (ids ``0 .. first - 1``), the second lookup the second's
    (ids ``first .. npat - 1``), with the identity as the "reflection"."""

    rows: int
    cols: int
    table: np.ndarray
    offs: np.ndarray
    pat: np.ndarray
    pw: np.ndarray
    mpat: np.ndarray
    mpw: np.ndarray
    refl: np.ndarray
    npat: int
    first: int

    @property
    def nbytes(self) -> int:
        return int(self.table.nbytes)

    @classmethod
    def join(cls, a: pdb.PatternTables, b: pdb.PatternTables) -> "TwoPartitionTables":
        first = a.npat
        mpat = b.pat + first
        mpat[0] = 0     # the blank has no pattern; the kernel never looks it up
        return cls(a.rows, a.cols, np.concatenate([a.table, b.table]),
                   np.concatenate([a.offs, b.offs + a.table.shape[0]]), a.pat.copy(),
                   a.pw.copy(), mpat, b.pw.copy(),
                   np.arange(a.rows * a.cols, dtype=np.int64), first + b.npat, first)


def get_tables(rows: int, cols: int, progress: Callable[[int, int, str], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> TwoPartitionTables:
    """The shape's tables: loaded, or built and saved (``pdb.BuildCancelled`` if stopped).

    ``progress(done, total, pattern)`` counts placements over both partitions."""
    first, second = partitions(rows, cols)
    n = rows * cols
    first_total = sum(pdb.placements(n, len(p)) for p in first)
    total = first_total + sum(pdb.placements(n, len(p)) for p in second)
    report_first = report_second = None
    if progress is not None:
        report_first = lambda done, _t, label: progress(done, total, label)
        report_second = lambda done, _t, label: progress(first_total + done, total, label)
    a = pdb.get_tables(rows, cols, first, report_first, should_stop)
    b = pdb.get_tables(rows, cols, second, report_second, should_stop)
    return TwoPartitionTables.join(a, b)


class TwoPartitionSearch(PdbSearch):
    """IDA* whose heuristic is the larger of the two partitions' additive sums."""

    def root_h(self) -> int:
        t = self.t
        self.idx = pdb_indices(self.tiles, t.pat, t.pw, t.mpat, t.mpw, t.refl, t.npat)
        a = sum(int(t.table[t.offs[p] + self.idx[p]]) for p in range(t.first))
        b = sum(int(t.table[t.offs[p] + self.idx[t.npat + p]]) for p in range(t.first, t.npat))
        self._h0 = (a, b)
        return max(a, b)


def label(rows: int, cols: int) -> str:
    """The heuristic's name for stats: ``pattern databases 5-5-5 | 6-6-3``."""
    return "pattern databases " + " | ".join(
        "-".join(str(len(p)) for p in partition) for partition in partitions(rows, cols))
