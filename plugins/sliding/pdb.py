"""Additive disjoint pattern databases for sliding-tile boards: build, save, load.

A *pattern* is a set of tiles. Its database gives, for every placement of those tiles, the
fewest moves **of pattern tiles** needed to bring them home, whatever the other tiles do. Moves
of other tiles cost nothing, so databases over disjoint patterns can be added and the sum is
still a lower bound (Korf & Felner 2002). The 4x4 uses the 6-6-3 partition below.

Table layout: dense, ``table[sum(cell_j * cells**j)]`` for the pattern's tiles j = 0, 1, ...
(one byte each; unused entries, where two tiles share a cell, hold 255). Dense indexing makes
the search's lookups incremental (a move adds ``(to - from) * cells**j``) at the price of some
unused bytes: 16**6 = 16.8 MB for a 6-tile pattern instead of 5.8 MB.

Building is a breadth-first search over (placement, region of the blank): between two moves of
pattern tiles the blank wanders freely (cost 0) through the connected region of cells not
occupied by pattern tiles, so a state is a placement plus which region holds the blank, stored
as a bit for the region's lowest cell. The search runs level by level in compiled chunks so the
caller can show progress and cancel between chunks.

Databases assume a goal in *home order*: tile t's home is the t-th cell other than the blank's
home, counting row by row. The standard goal (tiles 1..N-1 in order, blank last) is the case
``blank = N - 1``; a table for another blank home (``blank=``, the thin boards' goals with the
blank away from a corner) has that home in its file name. Other goals are mapped onto one of
these by the solver (a symmetry of the board and a renaming of the tiles, :mod:`.goals`).

Files live in the user cache directory (see :func:`cache_dir`), written atomically: a cancelled
or failed build never leaves a file behind.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
from numba import njit

from engine import cache_dir, table_cache

from . import pdb_file

#: Bump when the file format or the build changes, so old files are not trusted.
FORMAT_VERSION = 2
UNSET = 255

#: The 6-6-3 partition for the 4x4 with the standard goal (Korf & Felner's shape, with the
#: blank in the bottom-right corner).
PARTITION_4X4 = ((1, 5, 6, 9, 10, 13), (7, 8, 11, 12, 14, 15), (2, 3, 4))

ProgressFn = Callable[[int, int], None]   # (done, total)
StopFn = Callable[[], bool]


class BuildCancelled(Exception):
    """Raised when ``should_stop`` said stop during a build; nothing was saved."""


def standard_blank(rows: int, cols: int, blank: int | None) -> int:
    """The blank's home cell: ``blank``, or the last cell when None."""
    return rows * cols - 1 if blank is None else blank


def home(tile: int, blank: int) -> int:
    """Tile ``tile``'s home cell in home order (see the module doc) with the blank's home at
    ``blank``: the tile-th cell other than ``blank``."""
    return tile - 1 if tile - 1 < blank else tile


def pattern_path(rows: int, cols: int, pattern: Sequence[int], blank: int | None = None) -> Path:
    """A table's file. Tables for the standard goal keep their names; another blank home is
    named (``-b9-``), so each goal has files of its own."""
    where = "" if standard_blank(rows, cols, blank) == rows * cols - 1 else f"b{blank}-"
    name = f"sliding-pdb-v{FORMAT_VERSION}-{rows}x{cols}-{where}{'.'.join(map(str, pattern))}.pdb"
    return cache_dir() / name


# --------------------------------------------------------------------------------------------
# Building (compiled)
# --------------------------------------------------------------------------------------------

@njit(cache=True)
def flood_region(seed, free, cols, not_first_col, not_last_col):
    """The connected set of ``free`` cells reachable from the ``seed`` bit(s)."""
    r = seed
    while True:
        g = r | ((r << 1) & not_first_col) | ((r >> 1) & not_last_col) | (r << cols) | (r >> cols)
        g &= free
        if g == r:
            return r
        r = g


@njit(cache=True, nogil=True)
def _expand_chunk(cur, nxt, seen, dist, depth, lo, hi, k, ncells, cols, weights, nbr_mask,
                  full, not_first_col, not_last_col):
    """Expand the frontier entries in ``cur[lo:hi]`` into ``nxt``; return how many placements
    got their distance (``depth + 1``) for the first time.

    Buffer bounds: ``cur``, ``nxt``, ``seen`` and ``dist`` have ``ncells ** k`` entries, and a
    move of slot j from p to q (both cells) changes the index by ``(q - p) * ncells ** j``,
    staying below that; region masks need ``ncells`` bits of the mask type
    (:func:`build_pattern` picks it, and refuses boards over 62 cells, the int64 masks)."""
    pos = np.zeros(k, dtype=np.int64)
    fresh = 0
    for idx in range(lo, hi):
        m = np.int64(cur[idx])
        if m == 0:
            continue
        occ = np.int64(0)
        rest = idx
        for j in range(k):
            pos[j] = rest % ncells
            rest //= ncells
            occ |= np.int64(1) << pos[j]
        free = full & ~occ
        while m != 0:
            low = m & -m
            m ^= low
            region = flood_region(low, free, cols, not_first_col, not_last_col)
            for j in range(k):
                p = pos[j]
                adj = nbr_mask[p] & region
                while adj != 0:
                    qbit = adj & -adj
                    adj ^= qbit
                    q = 0
                    while (np.int64(1) << q) != qbit:
                        q += 1
                    nidx = idx + (q - p) * weights[j]
                    nfree = (free | (np.int64(1) << p)) & ~qbit
                    nreg = flood_region(np.int64(1) << p, nfree, cols, not_first_col, not_last_col)
                    canon = nreg & -nreg
                    if (np.int64(seen[nidx]) & canon) == 0:
                        seen[nidx] = np.int64(seen[nidx]) | canon
                        nxt[nidx] = np.int64(nxt[nidx]) | canon
                        if dist[nidx] == UNSET:
                            dist[nidx] = depth + 1
                            fresh += 1
    return fresh


#: Boards up to this many cells build with a table of blank regions (:func:`region_masks`,
#: ``2 ** cells`` rows: 2 MB on 16 cells) instead of flooding the board at every move.
REGION_TABLE_CELLS = 16


@njit(cache=True)
def _fill_region_masks(out, n, cols, full, not_first_col, not_last_col):
    for occ in range(1 << n):
        free = full & ~np.int64(occ)
        rem = free
        while rem != 0:
            comp = flood_region(rem & -rem, free, cols, not_first_col, not_last_col)
            rem &= ~comp
            c = comp
            for cell in range(n):
                if (c >> cell) & 1:
                    out[occ, cell] = comp


def region_masks(rows: int, cols: int) -> np.ndarray:
    """``M[occ, cell]``: the free region (a mask of cells) holding ``cell`` when the cells of
    ``occ`` are occupied, for every ``occ`` (0 for occupied cells). Boards of at most
    :data:`REGION_TABLE_CELLS` cells."""
    n = rows * cols
    if n > REGION_TABLE_CELLS:
        raise ValueError(f"region tables are for boards of at most {REGION_TABLE_CELLS} cells")
    full, nfirst, nlast, _ = board_masks(rows, cols)
    out = np.zeros((1 << n, n), dtype=np.uint16 if n <= 16 else np.uint32)
    _fill_region_masks(out, n, cols, np.int64(full), np.int64(nfirst), np.int64(nlast))
    return out


@njit(cache=True, nogil=True)
def _expand_chunk_regions(cur, nxt, lo, hi, k, ncells, weights, nbr, regions):
    """Expand the frontier entries in ``cur[lo:hi]`` into ``nxt``: :func:`_expand_chunk` with
    the blank regions read from ``regions`` (:func:`region_masks`) instead of flooded, and
    with what was seen before left to :func:`_merge_level`. Each child then costs one random
    memory access instead of three, which is most of a build's time.

    Buffer bounds: as :func:`_expand_chunk`; ``regions`` has a row per set of occupied cells
    (``2 ** ncells``) and a column per cell, ``nbr`` is the ``(ncells, 4)`` neighbour table
    (-1 off the board), and ``cur`` is padded to whole 64-bit words."""
    pos = np.zeros(k, dtype=np.int64)
    cur64 = cur.view(np.uint64)
    per_word = 8 // cur.itemsize
    for w in range(lo // per_word, (hi + per_word - 1) // per_word):
        if cur64[w] == 0:
            continue
        for idx in range(max(lo, w * per_word), min(hi, (w + 1) * per_word)):
            m = np.int64(cur[idx])
            if m == 0:
                continue
            occ = np.int64(0)
            rest = idx
            for j in range(k):
                pos[j] = rest % ncells
                rest //= ncells
                occ |= np.int64(1) << pos[j]
            while m != 0:
                low = m & -m
                m ^= low
                cell = 0
                while (np.int64(1) << cell) != low:
                    cell += 1
                region = np.int64(regions[occ, cell])
                for j in range(k):
                    p = pos[j]
                    pbit = np.int64(1) << p
                    for d in range(4):
                        q = nbr[p, d]
                        if q < 0 or ((region >> q) & 1) == 0:
                            continue
                        nreg = np.int64(regions[(occ & ~pbit) | (np.int64(1) << q), p])
                        nidx = idx + (q - p) * weights[j]
                        nxt[nidx] = np.int64(nxt[nidx]) | (nreg & -nreg)


@njit(cache=True, nogil=True)
def _merge_level(nxt, seen, dist, value, lo, hi):
    """Keep in ``nxt[lo:hi]`` only the region bits not seen before, add them to ``seen``, and
    give placements seen for the first time their distance ``value``; how many those were.

    Buffer bounds: ``nxt`` and ``seen`` are padded to whole 64-bit words, ``dist`` is
    indexed only below ``hi`` (at most its length)."""
    nxt64 = nxt.view(np.uint64)
    per_word = 8 // nxt.itemsize
    fresh = 0
    for w in range(lo // per_word, (hi + per_word - 1) // per_word):
        if nxt64[w] == 0:
            continue
        for idx in range(w * per_word, min(hi, (w + 1) * per_word)):
            a = nxt[idx]
            if a == 0:
                continue
            s = seen[idx]
            new = a & ~s
            nxt[idx] = new
            if new != 0:
                seen[idx] = s | new
                if dist[idx] == UNSET:
                    dist[idx] = value
                    fresh += 1
    return fresh


def board_masks(rows: int, cols: int):
    n = rows * cols
    full = (1 << n) - 1
    first = sum(1 << (r * cols) for r in range(rows))
    last = sum(1 << (r * cols + cols - 1) for r in range(rows))
    nbr_mask = np.zeros(n, dtype=np.int64)
    for cell in range(n):
        r, c = divmod(cell, cols)
        m = 0
        if r > 0:
            m |= 1 << (cell - cols)
        if r < rows - 1:
            m |= 1 << (cell + cols)
        if c > 0:
            m |= 1 << (cell - 1)
        if c < cols - 1:
            m |= 1 << (cell + 1)
        nbr_mask[cell] = m
    return full, full & ~first, full & ~last, nbr_mask


def build_bytes(rows: int, cols: int, pattern: Sequence[int]) -> int:
    """Peak bytes :func:`build_pattern` allocates for a pattern: the distances (a byte per
    dense entry), the seen set and two frontiers (a blank-region mask per entry) and, on
    boards of at most :data:`REGION_TABLE_CELLS` cells, the region table."""
    n = rows * cols
    size = n ** len(pattern)
    mask = 2 if n <= 16 else 4 if n <= 32 else 8
    regions = (1 << n) * n * mask if n <= REGION_TABLE_CELLS else 0
    return size * (1 + 3 * mask) + regions


def placements(ncells: int, k: int) -> int:
    """How many ways k distinct tiles can stand on ncells cells."""
    out = 1
    for i in range(k):
        out *= ncells - i
    return out


def build_pattern(rows: int, cols: int, pattern: Sequence[int],
                  progress: ProgressFn | None = None, should_stop: StopFn | None = None,
                  chunk: int = 1 << 21, region_table: bool | None = None,
                  blank: int | None = None) -> np.ndarray:
    """The dense distance table of one pattern for the goal in home order whose blank's home
    is ``blank`` (default: the last cell, the standard goal; see the module doc).

    Calls ``progress(done, total)`` (placements with a known distance) between chunks and
    raises :class:`BuildCancelled` if ``should_stop()`` turns true. ``region_table`` (default:
    on boards of at most :data:`REGION_TABLE_CELLS` cells) reads the blank's regions from
    :func:`region_masks` instead of flooding the board for every move; the table is the same.
    """
    n = rows * cols
    if n > 62:
        raise ValueError("pattern databases need a board of at most 62 cells")
    k = len(pattern)
    size = n ** k
    weights = np.array([n ** j for j in range(k)], dtype=np.int64)
    full, nfirst, nlast, nbr_mask = board_masks(rows, cols)
    # Masks of blank regions: one bit per cell, so the frontier and seen arrays need n bits.
    mask_type = np.uint16 if n <= 16 else np.uint32 if n <= 32 else np.uint64
    dist = np.full(size, UNSET, dtype=np.uint8)
    seen = np.zeros(size, dtype=mask_type)
    # The frontiers are read a 64-bit word at a time: padded to whole words.
    padded = size + (-size % (8 // np.dtype(mask_type).itemsize))
    cur = np.zeros(padded, dtype=mask_type)
    nxt = np.zeros(padded, dtype=mask_type)

    b = standard_blank(rows, cols, blank)
    if not 0 <= b < n:
        raise ValueError(f"the blank's home must be a cell of the board, not {b}")
    goal_idx = sum(home(t, b) * n ** j for j, t in enumerate(pattern))
    occ = sum(1 << home(t, b) for t in pattern)
    # The goal's blank region: the free cells connected to the blank's home.
    region = flood_region(np.int64(1 << b), np.int64(full & ~occ), cols, np.int64(nfirst), np.int64(nlast))
    canon = region & -region
    dist[goal_idx] = 0
    seen[goal_idx] = canon
    cur[goal_idx] = canon
    total = placements(n, k)
    done = 1
    if region_table is None:
        region_table = n <= REGION_TABLE_CELLS
    regions = region_masks(rows, cols) if region_table else None
    nbr = _neighbours(rows, cols)
    depth = 0
    while True:
        for lo in range(0, size, chunk):
            if should_stop is not None and should_stop():
                raise BuildCancelled()
            hi = min(size, lo + chunk)
            if regions is not None:
                _expand_chunk_regions(cur, nxt, lo, hi, k, n, weights, nbr, regions)
            else:
                done += _expand_chunk(cur, nxt, seen, dist, depth, lo, hi, k, n, cols, weights,
                                      nbr_mask, np.int64(full), np.int64(nfirst),
                                      np.int64(nlast))
            if progress is not None:
                progress(done, total)
        if regions is not None:
            for lo in range(0, size, chunk):
                done += _merge_level(nxt, seen, dist, depth + 1, lo, min(size, lo + chunk))
            if progress is not None:
                progress(done, total)
        if not nxt.any():
            break
        cur, nxt = nxt, cur
        nxt.fill(0)
        depth += 1
    return dist


def _neighbours(rows: int, cols: int) -> np.ndarray:
    """``nbr[cell, d]``: the cell up, down, left and right of ``cell``, or -1 off the board."""
    nbr = np.full((rows * cols, 4), -1, dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                nbr[cell, d] = (r + dr) * cols + c + dc
    return nbr


# --------------------------------------------------------------------------------------------
# Saving and loading
# --------------------------------------------------------------------------------------------

def _meta(rows: int, cols: int, pattern: Sequence[int], blank: int | None = None) -> dict:
    meta = {"kind": "dense", "rows": rows, "cols": cols, "pattern": list(pattern)}
    if standard_blank(rows, cols, blank) != rows * cols - 1:
        meta["blank"] = blank
    return meta


def save_table(rows: int, cols: int, pattern: Sequence[int], table: np.ndarray,
               blank: int | None = None) -> bool:
    """Save a built table in the cache directory; False (after one warning per process) if the
    directory cannot be written, in which case the caller keeps the table in memory only."""
    try:
        pdb_file.save(pattern_path(rows, cols, pattern, blank), table,
                      _meta(rows, cols, pattern, blank))
        return True
    except OSError as exc:
        warn_unwritable(exc)
        return False


_warned: list[bool] = []


def warn_unwritable(exc: OSError) -> None:
    """One warning line per process: the cache directory cannot be written."""
    if not _warned:
        _warned.append(True)
        pdb_file.log.warning("warning: cannot write pattern databases to %s (%s); keeping them "
                             "in memory for this process only", cache_dir(),
                             exc.strerror or type(exc).__name__)


def load_pattern(rows: int, cols: int, pattern: Sequence[int],
                 blank: int | None = None) -> np.ndarray | None:
    """The saved table of a pattern, or None if there is none (or it is damaged)."""
    table = pdb_file.load(pattern_path(rows, cols, pattern, blank),
                          _meta(rows, cols, pattern, blank))
    n = rows * cols
    if table is None or table.dtype != np.uint8 or table.shape != (n ** len(pattern),):
        return None
    return table


def load_or_build(rows: int, cols: int, pattern: Sequence[int],
                  progress: ProgressFn | None = None, should_stop: StopFn | None = None,
                  on_wait: Callable[[], None] | None = None,
                  blank: int | None = None) -> np.ndarray:
    """A pattern's table from the cache folder, else built and saved, once across processes.

    The build holds the table's lock (:meth:`engine.TableCache.building`): a solver worker, the
    background preparer and ``puzzle prepare`` that need the same missing table build it once;
    the others wait (``on_wait()`` is called when that starts) and load the file it wrote.
    :class:`BuildCancelled` if ``should_stop`` turns true while building or waiting.
    ``blank``: the goal's blank home (:func:`build_pattern`)."""
    table = load_pattern(rows, cols, pattern, blank)
    if table is not None:
        return table
    path = pattern_path(rows, cols, pattern, blank)
    with table_cache().building(path, should_stop, on_wait) as held:
        if not held:
            raise BuildCancelled()
        table = load_pattern(rows, cols, pattern, blank)  # finished while this process waited?
        if table is None:
            table = build_pattern(rows, cols, pattern, progress, should_stop, blank=blank)
            save_table(rows, cols, pattern, table, blank)
    return table


# --------------------------------------------------------------------------------------------
# A partition's tables, ready for the search kernel
# --------------------------------------------------------------------------------------------

@dataclass
class PatternTables:
    """Everything :func:`ida.run_pdb` needs: the tables laid end to end plus, per tile, its
    pattern and index weight, for the normal and the mirrored lookup."""

    rows: int
    cols: int
    partition: tuple[tuple[int, ...], ...]
    table: np.ndarray
    offs: np.ndarray
    pat: np.ndarray
    pw: np.ndarray
    mpat: np.ndarray
    mpw: np.ndarray
    refl: np.ndarray
    npat: int

    @property
    def nbytes(self) -> int:
        return int(self.table.nbytes)

    @classmethod
    def from_tables(cls, rows, cols, partition, tables) -> "PatternTables":
        n = rows * cols
        offs = np.zeros(len(partition), dtype=np.int64)
        acc = 0
        for p, t in enumerate(tables):
            offs[p] = acc
            acc += t.shape[0]
        flat = np.concatenate(tables)
        pat = np.zeros(n, dtype=np.int64)
        pw = np.zeros(n, dtype=np.int64)
        for p, tiles in enumerate(partition):
            for j, t in enumerate(tiles):
                pat[t] = p
                pw[t] = n ** j
        # Mirror in the main diagonal (square boards): cell (r, c) -> (c, r). In the standard
        # goal tile t sits in cell t-1, so tile t's mirror image is the tile whose home is the
        # mirrored cell; the blank's home (the last cell) is on the diagonal. Non-square boards
        # use the identity, so the "mirrored" lookup repeats the normal one.
        refl = np.arange(n, dtype=np.int64)
        if rows == cols:
            refl = np.array([(i % cols) * cols + i // cols for i in range(n)], dtype=np.int64)
        mpat = np.zeros(n, dtype=np.int64)
        mpw = np.zeros(n, dtype=np.int64)
        for t in range(1, n):
            image = int(refl[t - 1]) + 1
            mpat[t] = pat[image]
            mpw[t] = pw[image]
        return cls(rows, cols, tuple(tuple(p) for p in partition), flat, offs, pat, pw, mpat,
                   mpw, refl, len(partition))


#: Loaded tables by key: a partition's (here) or a thin shape's (:mod:`.small_boards`).
_loaded: dict[tuple, Any] = {}
_lock = threading.Lock()


def get_tables(rows: int, cols: int, partition: Sequence[Sequence[int]],
               progress: Callable[[int, int, str], None] | None = None,
               should_stop: StopFn | None = None) -> PatternTables:
    """The partition's tables: from memory, else from the cache directory, else built (and
    saved). ``progress(done, total, pattern_text)`` reports building; :class:`BuildCancelled`
    propagates if ``should_stop`` says stop, and then nothing is saved."""
    key = (rows, cols, tuple(tuple(p) for p in partition))
    with _lock:
        if key in _loaded:
            return _loaded[key]
        n = rows * cols
        covered = sorted(t for p in partition for t in p)
        if covered != list(range(1, n)):
            raise ValueError("a partition must cover every tile exactly once")
        total = sum(placements(n, len(p)) for p in partition)
        before = 0
        tables = []
        for pattern in key[2]:
            report = None
            if progress is not None:
                label = "-".join(map(str, pattern))
                report = lambda done, _t, _b=before, _l=label: progress(_b + done, total, _l)
            table = load_or_build(rows, cols, pattern, report, should_stop)
            before += placements(n, len(pattern))
            tables.append(table)
        result = PatternTables.from_tables(rows, cols, key[2], tables)
        _loaded[key] = result
        return result


def available(rows: int, cols: int, partition: Sequence[Sequence[int]]) -> bool:
    """True if the partition's tables are loaded or can be loaded without building."""
    key = (rows, cols, tuple(tuple(p) for p in partition))
    return key in _loaded or cached_on_disk(rows, cols, partition)


def cached_on_disk(rows: int, cols: int, partition: Sequence[Sequence[int]]) -> bool:
    """True if every pattern of the partition has a file in the cache directory."""
    return all(pattern_path(rows, cols, p).exists() for p in partition)


def forget_loaded() -> None:
    """Drop the in-memory tables (tests and the bench use this to measure loading)."""
    with _lock:
        _loaded.clear()


def _main() -> None:
    """``python -m plugins.sliding.pdb``: build (or load) the 4x4 tables now, with progress."""
    import sys
    import time

    def show(done: int, total: int, pattern: str) -> None:
        print(f"\rbuilding pattern {pattern}: {100 * done / total:5.1f}% of all placements",
              end="", file=sys.stderr, flush=True)

    started = time.perf_counter()
    tables = get_tables(4, 4, PARTITION_4X4, show)
    print(f"\r4x4 6-6-3 tables ready in {cache_dir()} ({tables.nbytes / 1e6:.1f} MB, "
          f"{time.perf_counter() - started:.1f} s)" + " " * 20, file=sys.stderr)


if __name__ == "__main__":
    _main()
