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
"""

from __future__ import annotations

import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from engine import available_memory

from . import pdb, pdb_build
from .board import Board
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


def partitions(rows: int, cols: int) -> tuple[Partition, ...]:
    """The partitions of the shape's tiles (see the module doc), for the standard goal."""
    tiles = _strip_order(rows, cols)
    n = len(tiles)
    if (rows, cols) == (2, 8):
        return tuple(_cut(tiles, sizes) for sizes in ((6, 6, 3), (6, 3, 6), (3, 6, 6)))
    groups = -(-n // 5)
    base, extra = divmod(n, groups)
    balanced = [base + (1 if g < extra else 0) for g in range(groups)]
    sixes = [min(6, n - start) for start in range(0, n, 6)]
    return _cut(tiles, balanced), _cut(tiles, sixes)


def patterns(rows: int, cols: int) -> list[tuple[int, ...]]:
    """The distinct patterns of the shape's partitions, each once, in order."""
    return list(dict.fromkeys(p for partition in partitions(rows, cols) for p in partition))


def build_entries(rows: int, cols: int) -> int:
    """Dense table entries still to build for this shape (0 when all are on disk)."""
    n = rows * cols
    return sum(n ** len(p) for p in patterns(rows, cols)
               if not pdb.pattern_path(rows, cols, p).exists())


def build_seconds(rows: int, cols: int) -> float:
    """About how long building this shape's missing tables takes (on :func:`build_threads`
    threads at once, the largest tables first)."""
    n = rows * cols
    sizes = sorted((n ** len(p) for p in patterns(rows, cols)
                    if not pdb.pattern_path(rows, cols, p).exists()), reverse=True)
    if not sizes:
        return 0.0
    lanes = [0] * build_threads(rows, cols, [p for p in patterns(rows, cols)])
    for size in sizes:          # the longest builds first, each on the least loaded thread
        lanes[lanes.index(min(lanes))] += size
    return max(lanes) * BUILD_SECONDS_PER_ENTRY


def _key(rows: int, cols: int) -> tuple:
    return ("partitions", rows, cols, partitions(rows, cols))


def available(rows: int, cols: int) -> bool:
    """True if the shape's tables are loaded or on disk (no build needed)."""
    return _key(rows, cols) in pdb._loaded or all(
        pdb.pattern_path(rows, cols, p).exists() for p in patterns(rows, cols))


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
               should_stop: Callable[[], bool] | None = None) -> PartitionTables:
    """The shape's tables: loaded, or built and saved (``pdb.BuildCancelled`` if stopped;
    the tables finished before that stay saved).

    Missing tables are built side by side on :func:`build_threads` threads (the build kernel
    runs without the GIL); ``progress(done, total, pattern)`` counts placements over the
    distinct patterns and is called from this thread only."""
    key = _key(rows, cols)
    with pdb._lock:
        found = pdb._loaded.get(key)
        if found is not None:
            return found
        todo = patterns(rows, cols)
        tables: dict[tuple[int, ...], np.ndarray | None] = {
            p: pdb.load_pattern(rows, cols, p) for p in todo}
        missing = [p for p in todo if tables[p] is None]
        if missing:
            _build_missing(rows, cols, missing, tables, progress, should_stop)
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


def _build_missing(rows, cols, missing, tables, progress, should_stop) -> None:
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
                                 lambda d, _t, _p=pattern: done.__setitem__(_p, d), halt)

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


def label(rows: int, cols: int) -> str:
    """The heuristic's name for stats: ``pattern databases 5-5-5 | 6-6-3``."""
    return _("pattern databases {sizes}").format(sizes=" | ".join(
        "-".join(str(len(p)) for p in partition) for partition in partitions(rows, cols)))
