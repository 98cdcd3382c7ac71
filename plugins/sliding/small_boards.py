"""Pattern databases for every board shape of 10 to 16 cells other than the 4x4.

Thin boards (2 x 5 up to 2 x 8, 3 x 4, 3 x 5, and their transposes) have long optimal
solutions, 60 to 100 moves, and Manhattan distance plus linear conflict is too weak there:
IDA* with it runs for minutes on a random 2 x 8. Additive pattern databases of at most six
tiles are built for such a shape in seconds, so the ``optimal`` solver builds them per shape
when a board of that shape first needs them, and caches them like the 4x4 tables (same files,
checksums and fallbacks, see :mod:`.pdb`).

One partition leaves a long tail of hard boards. Several partitions whose borders fall in
different places do much better, because a board that one of them underestimates another
usually does not: the heuristic is the largest of the additive sums, each admissible on its
own, so the maximum is admissible too (:mod:`.ida_multi` keeps one running sum per partition).

The partitions cut the tiles into strips along the board's long side, in goal order. Most
shapes get two: groups of at most five (balanced) and groups of six from the start (6, 6,
rest). The 2 x 8 gets three partitions of six-tile strips instead, 6-6-3, 6-3-6 and 3-6-6
(five distinct six-tile tables, 84 MB; a table two partitions share is stored and built
once). Measured on 100 random 2 x 8 boards (seed 2026, IDA* alone, warm tables): 5-5-5 with
6-6-3 averaged 1.49 s with a worst case of 105 s (34 M nodes on average); the three six-tile
partitions average 0.12 s with a worst case of 1.9 s (2.3 M nodes). ``bench/sliding_small.py``
prints the figures of the default solver.

Any goal: the tables are built for a goal in home order (:mod:`.pdb`) with the blank's home at
``blank``; :func:`target` maps a board's goal onto one (:func:`.goals.home_mapping`). A goal
with the blank in a corner is the standard goal (``blank`` None here); a goal with the blank
elsewhere gets tables of its own, built the same way on first use and cached under names that
say the blank's home. The 4x4 with its blank away from a corner is served here too (its corner
goals have the 6-6-3 and 7-8 tables of :mod:`.pdb` and :mod:`.pdb_compact`).
"""

from __future__ import annotations

import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from engine import available_memory, build_room

from . import pdb, pdb_build
from .board import Board
from .goals import GoalMapping, home_mapping
from .i18n import _
from .ida_multi import MultiPartitionSearch

#: Shapes with this many cells or fewer (and at least :data:`MIN_CELLS`) get these tables.
MAX_CELLS = 16
#: Smaller boards are solved in milliseconds by linear conflict; no table needed.
MIN_CELLS = 10

#: Seconds per dense table entry when building on one thread, measured on a busy 2-core
#: machine (0.17-0.26 us on 2 x 8); used to say how long a missing build would take and
#: whether it fits.
BUILD_SECONDS_PER_ENTRY = 0.35e-6

#: A build is started inside a solve only if the time left is this many times its estimate.
BUILD_MARGIN = 1.5

#: The shapes ``puzzle prepare sliding`` builds: every wide shape covered (tall boards are
#: searched transposed, so they use these too).
PREPARED_SHAPES = ((2, 5), (2, 6), (3, 4), (2, 7), (3, 5), (2, 8))

Partition = tuple[tuple[int, ...], ...]


def covers(rows: int, cols: int) -> bool:
    """True for the shapes this module builds tables for, whatever the goal."""
    return MIN_CELLS <= rows * cols <= MAX_CELLS and (rows, cols) != (4, 4)


def handles(board: Board) -> bool:
    """True for the boards this module's tables serve: every covered shape, and the 4x4 whose
    goal has its blank away from the corners."""
    if covers(board.rows, board.cols):
        return True
    if (board.rows, board.cols) != (4, 4):
        return False
    r, c = divmod(board.goal.index(0), 4)
    return r not in (0, 3) or c not in (0, 3)


@dataclass(frozen=True)
class Target:
    """What a board is solved as: ``board`` (itself, or its transpose when it is taller than
    wide), the ``mapping`` of that board's goal onto a home-order goal, and the tables' key,
    ``rows`` x ``cols`` with the blank's home at ``blank`` (None: the standard goal)."""

    board: Board
    mapping: GoalMapping
    rows: int
    cols: int
    blank: int | None


def target(board: Board) -> Target:
    """The board as these tables see it (see :class:`Target`)."""
    flat = wide(board)
    mapping, blank = home_mapping(flat)
    n = flat.rows * flat.cols
    return Target(flat, mapping, flat.rows, flat.cols, None if blank == n - 1 else blank)


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


def build_fits(rows: int, cols: int, seconds_left: float | None, blank: int | None = None) -> bool:
    """Whether building the missing tables fits in the time left (None: no limit) and in the
    memory and disk there are now (:func:`room`)."""
    if room(rows, cols, blank) is not None:
        return False
    return seconds_left is None or seconds_left >= BUILD_MARGIN * build_seconds(rows, cols, blank)


def room(rows: int, cols: int, blank: int | None = None) -> str | None:
    """Why the missing tables cannot be built here now (memory or disk, in words), or None."""
    if not missing(rows, cols, blank):
        return None
    return build_room(build_memory(rows, cols, blank), build_entries(rows, cols, blank))


def build_memory(rows: int, cols: int, blank: int | None = None) -> int:
    """The peak bytes of building the missing tables: one build per thread at once, each of
    the largest (:func:`.pdb.build_bytes`). 0 when none is missing."""
    todo = missing(rows, cols, blank)
    if not todo:
        return 0
    return build_threads(rows, cols, todo) * max(pdb.build_bytes(rows, cols, p) for p in todo)


def _strip_order(rows: int, cols: int, blank: int | None = None) -> list[int]:
    """The tiles of the home-order goal (:mod:`.pdb`) in strips along the long side, in goal
    order: column by column on a wide board, row by row on a tall one; the blank's home
    (default the last cell) is left out."""
    if cols >= rows:
        cells = [r * cols + c for c in range(cols) for r in range(rows)]
    else:
        cells = [r * cols + c for r in range(rows) for c in range(cols)]
    b = pdb.standard_blank(rows, cols, blank)
    return [cell + 1 if cell < b else cell for cell in cells if cell != b]


def _cut(tiles: Sequence[int], sizes: Sequence[int]) -> Partition:
    groups, start = [], 0
    for size in sizes:
        groups.append(tuple(sorted(tiles[start:start + size])))
        start += size
    return tuple(groups)


def partitions(rows: int, cols: int, blank: int | None = None) -> tuple[Partition, ...]:
    """The partitions of the shape's tiles (see the module doc), for the home-order goal with
    the blank's home at ``blank`` (default: the standard goal)."""
    tiles = _strip_order(rows, cols, blank)
    n = len(tiles)
    if (rows, cols) == (2, 8):
        return tuple(_cut(tiles, sizes) for sizes in ((6, 6, 3), (6, 3, 6), (3, 6, 6)))
    groups = -(-n // 5)
    base, extra = divmod(n, groups)
    balanced = [base + (1 if g < extra else 0) for g in range(groups)]
    sixes = [min(6, n - start) for start in range(0, n, 6)]
    return _cut(tiles, balanced), _cut(tiles, sixes)


def patterns(rows: int, cols: int, blank: int | None = None) -> list[tuple[int, ...]]:
    """The distinct patterns of the shape's partitions, each once, in order."""
    return list(dict.fromkeys(p for partition in partitions(rows, cols, blank)
                              for p in partition))


def missing(rows: int, cols: int, blank: int | None = None) -> list[tuple[int, ...]]:
    """The patterns whose tables are not on disk."""
    return [p for p in patterns(rows, cols, blank)
            if not pdb.pattern_path(rows, cols, p, blank).exists()]


def build_entries(rows: int, cols: int, blank: int | None = None) -> int:
    """Dense table entries still to build for this shape (0 when all are on disk)."""
    n = rows * cols
    return sum(n ** len(p) for p in missing(rows, cols, blank))


def build_seconds(rows: int, cols: int, blank: int | None = None) -> float:
    """About how long building this shape's missing tables takes (on :func:`build_threads`
    threads at once, the largest tables first)."""
    n = rows * cols
    sizes = sorted((n ** len(p) for p in missing(rows, cols, blank)), reverse=True)
    if not sizes:
        return 0.0
    lanes = [0] * build_threads(rows, cols, patterns(rows, cols, blank))
    for size in sizes:          # the longest builds first, each on the least loaded thread
        lanes[lanes.index(min(lanes))] += size
    return max(lanes) * BUILD_SECONDS_PER_ENTRY


def _key(rows: int, cols: int, blank: int | None = None) -> tuple:
    key: tuple = ("partitions", rows, cols, partitions(rows, cols, blank))
    return key if blank is None else key + (blank,)


def available(rows: int, cols: int, blank: int | None = None) -> bool:
    """True if the tables are loaded or on disk (no build needed)."""
    return _key(rows, cols, blank) in pdb._loaded or not missing(rows, cols, blank)


@dataclass
class PartitionTables:
    """The partitions' tables laid out for :func:`.ida_multi.run_multi`: each distinct
    pattern's table once, end to end. Each group of each partition has an id of its own (its
    running index is its own), ``table[offs[id] + i]`` its value: two groups with the same
    tiles share one table. ``pat[j, t]``/``pw[j, t]``: tile t's group id in partition j and its
    index weight; ``ids[j]``: partition j's group ids."""

    rows: int
    cols: int
    partitions: tuple[Partition, ...]
    table: np.ndarray
    offs: np.ndarray
    pat: np.ndarray
    pw: np.ndarray
    ids: tuple[tuple[int, ...], ...]
    npat: int

    @property
    def nbytes(self) -> int:
        return int(self.table.nbytes)

    @classmethod
    def join(cls, rows: int, cols: int, parts: Sequence[Partition],
             tables: dict[tuple[int, ...], np.ndarray]) -> "PartitionTables":
        n = rows * cols
        order = list(tables)
        start = dict(zip(order, np.cumsum([0] + [tables[p].shape[0] for p in order[:-1]])))
        pat = np.zeros((len(parts), n), dtype=np.int64)
        pw = np.zeros((len(parts), n), dtype=np.int64)
        offs, ids = [], []
        for j, partition in enumerate(parts):
            row = []
            for group in partition:
                row.append(len(offs))
                for slot, t in enumerate(group):
                    pat[j, t] = len(offs)
                    pw[j, t] = n ** slot
                offs.append(int(start[group]))
            ids.append(tuple(row))
        return cls(rows, cols, tuple(parts), np.concatenate([tables[p] for p in order]),
                   np.array(offs, dtype=np.int64), pat, pw, tuple(ids), len(offs))


def get_tables(rows: int, cols: int, progress: Callable[[int, int, str], None] | None = None,
               should_stop: Callable[[], bool] | None = None,
               blank: int | None = None) -> PartitionTables:
    """The tables of a shape and goal (``blank``: the blank's home, None for the standard
    goal): loaded, or built and saved (``pdb.BuildCancelled`` if stopped; the tables finished
    before that stay saved, and one stopped midway is never written).

    Missing tables are built side by side on :func:`build_threads` threads (the build kernel
    runs without the GIL); ``progress(done, total, pattern)`` counts placements over the
    distinct patterns and is called from this thread only."""
    key = _key(rows, cols, blank)
    with pdb._lock:
        found = pdb._loaded.get(key)
        if found is not None:
            return found
        todo = patterns(rows, cols, blank)
        tables: dict[tuple[int, ...], np.ndarray | None] = {
            p: pdb.load_pattern(rows, cols, p, blank) for p in todo}
        absent = [p for p in todo if tables[p] is None]
        if absent:
            _build_missing(rows, cols, absent, tables, progress, should_stop, blank)
        result = PartitionTables.join(rows, cols, key[3], tables)
        pdb._loaded[key] = result
        return result


def build_threads(rows: int, cols: int, patterns: Sequence[tuple[int, ...]]) -> int:
    """Threads for building these patterns at once: one per core (at most four, and one when
    ``$PUZZLE_ENGINE_BUILD_THREADS`` says so, as in the background preparer), fewer when
    memory is short (a six-tile build on 16 cells holds about 120 MB)."""
    threads = min(len(patterns), pdb_build.build_threads())
    need = max((pdb.build_bytes(rows, cols, p) for p in patterns), default=0)
    memory = available_memory()
    if memory is not None and need:
        threads = min(threads, max(1, memory // (2 * need)))
    return max(1, threads)


def _build_missing(rows, cols, missing, tables, progress, should_stop, blank=None) -> None:
    n = rows * cols
    total = sum(pdb.placements(n, len(p)) for p in tables)
    before = total - sum(pdb.placements(n, len(p)) for p in missing)
    done = {p: 0 for p in missing}
    stop = threading.Event()

    def halt() -> bool:
        return stop.is_set() or (should_stop is not None and should_stop())

    def build(pattern):
        # Once across processes (the table's lock): another one building it makes this wait.
        return pdb.load_or_build(rows, cols, pattern,
                                 lambda d, _t, _p=pattern: done.__setitem__(_p, d), halt,
                                 blank=blank)

    with ThreadPoolExecutor(build_threads(rows, cols, missing),
                            thread_name_prefix="sliding-pdb") as pool:
        futures = {pool.submit(build, p): p for p in missing}
        pending = set(futures)
        try:
            while pending:
                finished, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                for future in finished:
                    pattern = futures[future]
                    table = future.result()       # saved; BuildCancelled propagates
                    tables[pattern] = table
                    done[pattern] = pdb.placements(n, len(pattern))
                if should_stop is not None and should_stop():
                    raise pdb.BuildCancelled()
                if progress is not None:
                    busy = [p for p in missing if done[p] < pdb.placements(n, len(p))]
                    label = "-".join(map(str, busy[0])) if busy else ""
                    progress(before + sum(done.values()), total, label)
        except BaseException:
            stop.set()
            raise


class PartitionSearch(MultiPartitionSearch):
    """IDA* whose heuristic is the largest of the partitions' additive sums."""


def label(rows: int, cols: int, blank: int | None = None) -> str:
    """The heuristic's name for stats: ``pattern databases 5-5-5 | 6-6-3``."""
    return _("pattern databases {sizes}").format(sizes=" | ".join(
        "-".join(str(len(p)) for p in partition) for partition in partitions(rows, cols, blank)))
