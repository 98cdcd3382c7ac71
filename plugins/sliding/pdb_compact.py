"""Compact additive pattern databases for big patterns: 7-8 on the 4x4, 6-6-6-6 on the 5x5.

The dense tables of :mod:`.pdb` index a k-tile pattern by ``sum(cell_j * cells**j)``: 16**8 =
4.3 G entries for an 8-tile pattern, far too many. Here a placement is *ranked* instead
(lexicographic rank of a partial permutation: ``16!/8! = 519 M`` entries for 8 tiles on the
4x4, ``25!/19! = 128 M`` for 6 tiles on the 5x5), and each entry takes **4 bits**.

What the 4 bits hold: a pattern's distance (the fewest moves of its tiles that bring them home,
other tiles moving for free) is at least the Manhattan distance of its tiles and has the same
parity, because each of those moves moves one pattern tile by one cell. So the table stores
``(distance - manhattan) / 2``, which stays small; the search adds back the Manhattan distance it
keeps anyway. A value that does not fit in 4 bits is stored as 15, which is lower than the truth:
still admissible (the build reports how many were clamped; none for the partitions used here).

Building is :mod:`.pdb_build` (a threaded breadth-first search) and ranking :mod:`.ranking`;
this module holds the partitions, the files and the in-memory cache of loaded tables, ready
for the search kernel (:mod:`.ida_compact`).

Lookup tables can be shared through the diagonal mirror: when a partition contains a pattern
and its mirror image (as on the 5x5), only one of the two is built, and the other's value is
read from it on the mirrored board.
"""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from engine import PrepareCost, cache_dir, table_cache

from . import pdb_file
from .pdb import BuildCancelled, placements, warn_unwritable
from .pdb_build import StopFn, available_memory, build_bytes, build_compact, build_threads
from .ranking import rank_factors

#: Bump when the file format or the build (:mod:`.pdb_build`) changes, so old files are not trusted.
FORMAT_VERSION = 1

#: 7-8 for the 4x4 (standard goal, blank bottom-right): the top two rows (8 tiles) and the
#: bottom two rows (7 tiles), Korf and Felner's split turned to this goal.
PARTITION_4X4_78 = ((1, 2, 3, 4, 5, 6, 7, 8), (9, 10, 11, 12, 13, 14, 15))

#: 6-6-6-6 for the 5x5 (standard goal). Cells (= tile - 1) of the 5x5:
#:
#:      0  1  2  3  4        A A A C C
#:      5  6  7  8  9        A A C C C
#:     10 11 12 13 14        A D B B C
#:     15 16 17 18 19        D D B B B
#:     20 21 22 23 24        D D D B .
#:
#: A and B are their own mirror images in the main diagonal, D is C's, so three tables serve
#: the four patterns and the mirrored lookup.
PARTITION_5X5 = ((1, 2, 3, 6, 7, 11), (13, 14, 18, 19, 20, 24), (4, 5, 8, 9, 10, 15),
                 (12, 16, 17, 21, 22, 23))


def nibble(packed: np.ndarray, i: int) -> int:
    """Entry i of a packed table."""
    return (int(packed[i >> 1]) >> ((i & 1) * 4)) & 15


# --------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------

def pattern_path(rows: int, cols: int, pattern: Sequence[int]) -> Path:
    name = (f"sliding-cpdb-v{FORMAT_VERSION}-{rows}x{cols}-"
            f"{'.'.join(map(str, pattern))}.pdb")
    return cache_dir() / name


def _meta(rows, cols, pattern) -> dict:
    return {"kind": "compact-nibble-delta", "rows": rows, "cols": cols, "pattern": list(pattern)}


def load_pattern(rows: int, cols: int, pattern: Sequence[int]) -> np.ndarray | None:
    table = pdb_file.load(pattern_path(rows, cols, pattern), _meta(rows, cols, pattern))
    want = (((placements(rows * cols, len(pattern)) + 7) & ~7) + 1) // 2
    if table is None or table.dtype != np.uint8 or table.shape != (want,):
        return None
    return table


def file_bytes(rows: int, cols: int, pattern: Sequence[int]) -> int:
    return ((placements(rows * cols, len(pattern)) + 7) & ~7) // 2


#: Seconds per placement of a compact build on two threads (the 4x4 7-8 tables: 576 million
#: placements in 155-161 s; the 5x5 6-6-6-6: 382 million in 135-142 s), rounded up.
SECONDS_PER_PLACEMENT = 0.4e-6

#: Bytes a build holds beyond its arrays (:func:`.pdb_build.build_bytes`): the blank-region
#: tables, the threads' buffers, the compiled kernels. Measured: `puzzle prepare sliding` into
#: an empty cache peaked at 2.60 GiB (``/usr/bin/time -v``), of which 2.17 GiB are the 8-tile
#: pattern's arrays on two threads, 0.17 GiB the process before it and 0.08 GiB the thin
#: boards' tables built before; the rest, rounded up.
BUILD_OVERHEAD = 200 * 2**20


def missing_cost(rows: int, cols: int, partition: Sequence[Sequence[int]]) -> tuple[float, int, int]:
    """(seconds, peak memory bytes, disk bytes) of building the partition's tables that are not
    on disk; zeros when none is missing. Looks at the files only (nothing is loaded). The
    memory is the build's own, on :func:`.pdb_build.build_threads` threads (fewer when memory
    is short, :func:`.pdb_build.build_compact`)."""
    missing = [p for p in table_patterns(rows, cols, partition)
               if not pattern_path(rows, cols, p).exists()]
    if not missing:
        return 0.0, 0, 0
    n = rows * cols
    threads = build_threads()
    return (SECONDS_PER_PLACEMENT * sum(placements(n, len(p)) for p in missing),
            max(build_bytes(rows, cols, p, threads=threads) for p in missing) + BUILD_OVERHEAD,
            sum(file_bytes(rows, cols, p) for p in missing))


def prepare_cost(rows: int, cols: int, partition: Sequence[Sequence[int]],
                 what: str) -> PrepareCost:
    """:func:`missing_cost` as ``puzzle prepare`` counts it: once built, all the partition's
    tables stay loaded in the process (``kept``)."""
    seconds, memory, disk = missing_cost(rows, cols, partition)
    if not seconds:
        return PrepareCost()
    kept = sum(file_bytes(rows, cols, p) for p in table_patterns(rows, cols, partition))
    return PrepareCost(seconds, memory, disk, (what,), kept=kept)


def shortfall(rows: int, cols: int, partition: Sequence[Sequence[int]]) -> str | None:
    """Why the missing tables of a partition cannot be built here now (memory or disk), or
    None if they can."""
    missing = [p for p in table_patterns(rows, cols, partition)
               if load_pattern(rows, cols, p) is None]
    if not missing:
        return None
    need_mem = max(build_bytes(rows, cols, p) for p in missing)
    mem = available_memory()
    if mem is not None and mem < need_mem + (256 << 20):
        return (f"not enough memory (the build needs about {need_mem / 2**30:.1f} GiB, "
                f"{mem / 2**30:.1f} GiB is available)")
    need_disk = sum(file_bytes(rows, cols, p) for p in missing)
    try:
        d = cache_dir()
        probe = d if d.exists() else next((a for a in d.parents if a.exists()), Path("/"))
        disk = shutil.disk_usage(probe).free
    except OSError:
        disk = None
    if disk is not None and disk < need_disk + (64 << 20):
        return (f"not enough disk in {cache_dir()} (the tables need {need_disk / 2**20:.0f} MiB, "
                f"{disk / 2**20:.0f} MiB is free)")
    return None


# --------------------------------------------------------------------------------------------
# A partition's tables, ready for the search kernel
# --------------------------------------------------------------------------------------------

def mirror_cells(rows: int, cols: int) -> list[int]:
    """Cell (r, c) -> (c, r) on a square board."""
    return [(i % cols) * cols + i // cols for i in range(rows * cols)]


def mirror_tile(rows: int, cols: int, t: int) -> int:
    """The tile whose home is the mirror image of tile t's home (standard goal)."""
    return mirror_cells(rows, cols)[t - 1] + 1


def table_patterns(rows, cols, partition) -> list[tuple[int, ...]]:
    """The patterns that need a table of their own (the others are mirror images)."""
    own: list[tuple[int, ...]] = []
    for p in partition:
        image = {mirror_tile(rows, cols, t) for t in p}
        if not any(set(q) == image and set(q) != set(p) for q in own):
            own.append(tuple(p))
    return own


@dataclass
class CompactTables:
    """Tables and lookup recipes for :func:`ida_compact.run_compact`.

    Lookups 0..npat-1 give the partition's values on the board, npat..2*npat-1 on the mirrored
    board. Lookup l reads table ``packed[tid[l]]`` (plus ``toff[tid[l]]`` entries), whose slot j
    holds tile ``slot[l, j]`` at its cell, or at its mirrored cell when ``rf[l]`` is 1.
    ``ln[t]``/``lm[t]`` are the two lookups that contain tile t.
    """

    rows: int
    cols: int
    partition: tuple[tuple[int, ...], ...]
    patterns: tuple[tuple[int, ...], ...]
    packed: tuple
    toff: np.ndarray
    tk: np.ndarray
    fac: np.ndarray
    tid: np.ndarray
    slot: np.ndarray
    rf: np.ndarray
    ln: np.ndarray
    lm: np.ndarray
    refl: np.ndarray
    npat: int
    clamped: int = 0

    @property
    def nbytes(self) -> int:
        return int(sum(t.nbytes for t in self.packed))

    @classmethod
    def from_tables(cls, rows, cols, partition, patterns, tables, clamped=0) -> "CompactTables":
        n = rows * cols
        refl = np.array(mirror_cells(rows, cols), dtype=np.int64)
        m = [0] + [mirror_tile(rows, cols, t) for t in range(1, n)]
        kmax = max(len(p) for p in patterns)
        toff = np.zeros(len(patterns), dtype=np.int64)
        tk = np.zeros(len(patterns), dtype=np.int64)
        fac = np.zeros((len(patterns), kmax), dtype=np.int64)
        for i, p in enumerate(patterns):
            tk[i] = len(p)
            fac[i, :len(p)] = rank_factors(n, len(p))
        # A tuple of the (memory-mapped) tables, not one concatenated copy: loading stays cheap
        # and the page cache is shared between processes.
        packed = tuple(tables)
        npat = len(partition)
        tid = np.zeros(2 * npat, dtype=np.int64)
        rf = np.zeros(2 * npat, dtype=np.int64)
        slot = np.zeros((2 * npat, kmax), dtype=np.int64)
        ln = np.zeros(n, dtype=np.int64)
        lm = np.zeros(n, dtype=np.int64)
        for i, p in enumerate(partition):
            if tuple(p) in patterns:
                own = patterns.index(tuple(p))
                recipes = ((own, [t for t in p], 0), (own, [m[t] for t in p], 1))
            else:
                image = {m[t] for t in p}
                q = next(q for q in patterns if set(q) == image)
                own = patterns.index(q)
                recipes = ((own, [m[t] for t in q], 1), (own, list(q), 0))
            for g, (table_id, tiles, flag) in enumerate(recipes):
                lk = g * npat + i
                tid[lk] = table_id
                rf[lk] = flag
                slot[lk, :len(tiles)] = tiles
                for t in tiles:
                    (ln if g == 0 else lm)[t] = lk
        return cls(rows, cols, tuple(map(tuple, partition)), tuple(patterns), packed, toff, tk,
                   fac, tid, slot, rf, ln, lm, refl, npat, clamped)


_loaded: dict[tuple, CompactTables] = {}
_lock = threading.Lock()


def get_tables(rows: int, cols: int, partition: Sequence[Sequence[int]], build: bool = True,
               progress: Callable[[int, int, str], None] | None = None,
               should_stop: StopFn | None = None) -> CompactTables | None:
    """The partition's compact tables: from memory, else from the cache directory, else built
    and saved (only if ``build``; otherwise None when a table is missing).

    ``progress(done, total, pattern_text)`` reports building; :class:`BuildCancelled` if
    ``should_stop`` says stop (finished patterns stay saved). Without ``build``, a partition
    with a file missing costs a look at the disk, not a load of the others: solvers ask on
    every solve, so a table that another process finishes later is used from then on.
    """
    if rows != cols:
        raise ValueError("compact pattern databases are for square boards")
    key = (rows, cols, tuple(tuple(p) for p in partition))
    with _lock:
        if key in _loaded:
            return _loaded[key]
        n = rows * cols
        if sorted(t for p in partition for t in p) != list(range(1, n)):
            raise ValueError("a partition must cover every tile exactly once")
        patterns = table_patterns(rows, cols, key[2])
        if not build and not all(pattern_path(rows, cols, p).exists() for p in patterns):
            return None
        total = sum(placements(n, len(p)) for p in patterns)
        before = 0
        tables = []
        clamped = 0
        for pattern in patterns:
            table = load_pattern(rows, cols, pattern)
            if table is None:
                if not build:
                    return None
                label = "-".join(map(str, pattern))
                report = None
                if progress is not None:
                    report = lambda done, _t, _b=before, _l=label: progress(_b + done, total, _l)
                path = pattern_path(rows, cols, pattern)
                # Once across processes: whoever holds the table's lock builds it, the others
                # wait and load it (engine.TableCache.building).
                with table_cache().building(path, should_stop) as held:
                    if not held:
                        raise BuildCancelled()
                    table = load_pattern(rows, cols, pattern)
                    if table is None:
                        table, c = build_compact(rows, cols, pattern, report, should_stop)
                        clamped += c
                        try:
                            pdb_file.save(path, table, _meta(rows, cols, pattern))
                        except OSError as exc:
                            warn_unwritable(exc)
                        # Read-only like the tables loaded from files (memory-mapped): the
                        # search kernel takes them as one tuple, and numba cannot index a
                        # tuple that mixes read-only and writable arrays (a partition partly
                        # on disk, partly built now).
                        table.flags.writeable = False
            before += placements(n, len(pattern))
            tables.append(table)
        result = CompactTables.from_tables(rows, cols, key[2], tuple(patterns), tables, clamped)
        _loaded[key] = result
        return result


def cached_on_disk(rows: int, cols: int, partition: Sequence[Sequence[int]]) -> bool:
    """True if every table the partition needs has a file in the cache directory."""
    return all(pattern_path(rows, cols, p).exists()
               for p in table_patterns(rows, cols, partition))


def loaded(rows: int, cols: int, partition: Sequence[Sequence[int]]) -> bool:
    return (rows, cols, tuple(tuple(p) for p in partition)) in _loaded


def forget_loaded() -> None:
    """Drop the in-memory tables (tests and the bench use this to measure loading)."""
    with _lock:
        _loaded.clear()


def _main() -> None:
    """``python -m plugins.sliding.pdb_compact [4|5]``: build the 7-8 (4) or 6-6-6-6 (5) tables."""
    import sys
    import time

    size = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    partition = PARTITION_4X4_78 if size == 4 else PARTITION_5X5
    started = time.perf_counter()

    def show(done: int, total: int, pattern: str) -> None:
        print(f"\rbuilding pattern {pattern}: {100 * done / total:5.1f}% "
              f"({time.perf_counter() - started:.0f} s)", end="", file=sys.stderr, flush=True)

    tables = get_tables(size, size, partition, True, show)
    print(f"\r{size}x{size} tables ready in {cache_dir()} ({tables.nbytes / 2**20:.0f} MiB, "
          f"{time.perf_counter() - started:.1f} s, {tables.clamped} clamped)" + " " * 20,
          file=sys.stderr)


if __name__ == "__main__":
    _main()
