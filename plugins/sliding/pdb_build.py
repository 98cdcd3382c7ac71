"""Building a compact pattern database (:mod:`.pdb_compact`): a threaded breadth-first search.

Building is the breadth-first search of :mod:`.pdb` over (placement, region of the blank),
level by level, with the region recorded as a bit for its *ordinal* among the free cells'
connected regions (ordered by their lowest cell), so byte arrays of one byte per placement
suffice: seen, this level, the value, and one next level per thread (about 2.6 GB for the
8-tile pattern with two threads). Threads expand separate ranges of the frontier, each into its
own next level, and those are folded together after the level: bits set by two threads in one
shared byte could be lost, and a lost bit would make the table inadmissible. The table is the
same byte for byte whatever the number of threads. The region a move leaves the blank in is
read from a table over every set of occupied cells (:func:`region_tables`) rather than found by
a flood fill, and each frontier is walked by increasing rank, unranking each placement from the
last one (:func:`.ranking.unrank_next`). Between pieces the build honours cancellation;
progress is reported once per level.

Each entry takes 4 bits: ``(distance - manhattan) / 2``, clamped to :data:`CLAMP` (see
:mod:`.pdb_compact`). A change here that changes the tables must bump
``pdb_compact.FORMAT_VERSION``, so that files built before are not trusted.
"""

from __future__ import annotations

import os
import queue
from concurrent.futures import ThreadPoolExecutor, wait
from concurrent.futures import TimeoutError as FuturesTimeout
from typing import Any, Callable, Sequence

import numpy as np
from numba import njit

from engine import available_memory

from .pdb import BuildCancelled, board_masks, flood_region, placements
from .ranking import (
    binomials,
    moved_rank,
    popcount32,
    rank,
    rank_factors,
    subset_index,
    unrank_next,
)

#: The largest value an entry holds: a larger one is stored as this, lower than the truth, so
#: still admissible (the build counts them; none for the partitions used here).
CLAMP = 15

ProgressFn = Callable[[int, int], None]
StopFn = Callable[[], bool]


@njit(cache=True)
def _ordinal(target, free, cols, nfirst, nlast):
    """Ordinal (by lowest cell) of the connected free region containing bit ``target``."""
    comp = flood_region(target, free, cols, nfirst, nlast)
    low = comp & -comp
    # Only regions whose lowest cell is below ours come first; usually there are none.
    rem = free & (low - 1) & ~comp
    o = 0
    while rem != 0:
        other = flood_region(rem & -rem, free, cols, nfirst, nlast)
        o += 1
        rem &= ~other
    return o


@njit(cache=True)
def _fill_regions(table, masks, n, k, cols, nfirst, nlast, binom):
    occ = (np.int64(1) << k) - 1
    full = (np.int64(1) << n) - 1
    while occ <= full:
        free = full & ~occ
        row = subset_index(occ, n, binom)
        o = 0
        rem = free
        while rem != 0:
            comp = flood_region(rem & -rem, free, cols, nfirst, nlast)
            rem &= ~comp
            if o < 8:
                masks[row, o] = comp
            c = comp
            while c != 0:
                low = c & -c
                table[row, popcount32(low - 1)] = min(o, 8)
                c ^= low
            o += 1
        if k == 0:
            break
        # The next larger set of k cells (Gosper's hack).
        low = occ & -occ
        ripple = occ + low
        occ = (((ripple ^ occ) >> 2) // low) | ripple


def region_tables(rows: int, cols: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """For every set of k occupied cells (row: :func:`subset_index`), the regions of free
    cells, ordered by lowest cell: ``(O, M)`` where ``O[row, cell]`` is the ordinal of the
    region that holds ``cell`` (8 for eight or more, too many for the one-byte frontier, and
    for occupied cells) and ``M[row, o]`` the cells of region o < 8 (0 past the last).

    Tables, so that the build never floods a board: one look-up instead of a dozen shifts per
    move. 1 MiB + 2 MiB on the 4x4, 4.4 MB + 5.7 MB for six tiles on the 5x5.
    """
    n = rows * cols
    full, nfirst, nlast, _ = board_masks(rows, cols)
    binom = binomials(n)
    count = 1 << n if n <= 16 else int(binom[n, k])
    table = np.full((count, n), 8, dtype=np.uint8)
    masks = np.zeros((count, 8), dtype=np.int32)
    _fill_regions(table, masks, n, k, cols, np.int64(nfirst), np.int64(nlast), binom)
    return table, masks


#: Children gathered before they are marked together (see :func:`_mark`).
BATCH = 256


@njit(cache=True, nogil=True)
def _mark(cs, bits, nb, nxt, touched, shift):
    """Or the gathered children's region bits into ``nxt``, and flag the pieces (of
    ``2**shift`` entries) they fall in, so that folding skips the untouched ones.

    The children are spread over the whole table and nearly every one misses the caches: in a
    loop with nothing else, the processor has many of them in flight at once instead of one
    after another.
    """
    for i in range(nb):
        nxt[cs[i]] |= bits[i]
        touched[cs[i] >> shift] = 1


@njit(cache=True, nogil=True)
def _expand(cur, nxt, touched, shift, lo, hi, k, n, fac, inv, nbr_mask, ordinals,
            region_masks, binom, out):
    """Expand the frontier entries in [lo, hi) (multiples of 8) into ``nxt``, clearing them.

    Touches nothing another thread writes, so threads expanding other ranges into their own
    ``nxt`` may run at the same time. Whether a child was seen before is left to
    :func:`_merge`: looking it up here would cost a second cache miss per child. ``inv``:
    ``1 / fac``; ``ordinals``, ``region_masks``: :func:`region_tables` (``binom`` for their
    index). ``out[0]``: 1 on an error (too many blank regions).

    Buffer bounds: a placement has at most ``4 * k`` children (each tile's at most four
    neighbours lie in one region each) and the batch is flushed once it holds :data:`BATCH`,
    so ``cs``/``bits`` (``BATCH + 4 * k * n``) never fill; a child's rank is below the
    placements, the length of ``nxt``; ``touched`` has a flag per piece of ``2**shift``.
    """
    pos = np.zeros(k, dtype=np.int64)
    cur64 = cur.view(np.uint64)
    room = BATCH + 4 * k * n           # more than one placement's children
    cs = np.zeros(room, dtype=np.int64)
    bits = np.zeros(room, dtype=np.uint8)
    digits = np.zeros(k, dtype=np.int64)
    before = np.zeros(k, dtype=np.int64)
    nb = 0
    prev = np.int64(-1)
    for w in range(lo >> 3, hi >> 3):
        if cur64[w] == 0:
            continue
        for idx in range(w << 3, (w << 3) + 8):
            m = np.int64(cur[idx])
            if m == 0:
                continue
            cur[idx] = 0
            occ = unrank_next(np.int64(idx), prev, k, n, fac, inv, pos, digits, before)
            prev = np.int64(idx)
            row = subset_index(occ, n, binom)
            for o in range(8):
                if not (m >> o) & 1:
                    continue
                comp = np.int64(region_masks[row, o])
                for j in range(k):
                    p = pos[j]
                    pbit = np.int64(1) << p
                    adj = nbr_mask[p] & comp
                    while adj != 0:
                        qbit = adj & -adj
                        adj ^= qbit
                        q = popcount32(qbit - 1)
                        co = ordinals[subset_index((occ & ~pbit) | qbit, n, binom), p]
                        if co >= 8:
                            out[0] = 1
                            return
                        cs[nb] = moved_rank(np.int64(idx), j, p, q, k, fac, pos, digits, before)
                        bits[nb] = 1 << co
                        nb += 1
            if nb >= BATCH:
                _mark(cs, bits, nb, nxt, touched, shift)
                nb = 0
    _mark(cs, bits, nb, nxt, touched, shift)


@njit(cache=True, nogil=True)
def _merge(nxts, seen, cur, packed, depth, lo, hi, k, n, fac, inv, dist, out):
    """Fold the threads' next frontiers (``nxts``: one row each, as 64-bit words) over
    [lo, hi) (multiples of 8) into the new frontier ``cur`` (only what was not seen before)
    and into ``seen``, and clear them. A placement seen for the first time gets its value in
    ``packed``, from the depth and its Manhattan distance (``dist[j, cell]`` for slot j).
    Returns how many placements were seen for the first time; ``out[0]`` counts values
    clamped to 15.

    Buffer bounds: ``[lo, hi)`` lies inside the padded size (a multiple of 8) of every array,
    and ``packed`` holds two entries per byte of it.
    """
    seen64 = seen.view(np.uint64)
    cur64 = cur.view(np.uint64)
    pos = np.zeros(k, dtype=np.int64)
    digits = np.zeros(k, dtype=np.int64)
    before = np.zeros(k, dtype=np.int64)
    fresh = 0
    prev = np.int64(-1)
    for w in range(lo >> 3, hi >> 3):
        a = np.uint64(0)
        for t in range(nxts.shape[0]):
            x = nxts[t, w]
            if x != 0:
                a |= x
                nxts[t, w] = 0
        if a == 0:
            continue
        s = seen64[w]
        new = a & ~s
        if new == 0:
            continue
        seen64[w] = s | new
        cur64[w] = new
        for b in range(8):
            shift = np.uint64(8 * b)
            if (new >> shift) & np.uint64(0xFF) == 0 or (s >> shift) & np.uint64(0xFF) != 0:
                continue
            fresh += 1
            c = (w << 3) + b
            unrank_next(np.int64(c), prev, k, n, fac, inv, pos, digits, before)
            prev = np.int64(c)
            md = 0
            for j in range(k):
                md += dist[j, pos[j]]
            v = (depth + 1 - md) >> 1
            if v > CLAMP:
                v = CLAMP
                out[0] += 1
            packed[c >> 1] |= np.uint8(v << ((c & 1) << 2))
    return fresh


def build_threads() -> int:
    """Threads a build uses: ``$PUZZLE_ENGINE_BUILD_THREADS``, else one per core, at most 4
    (each adds a byte per placement, and more compete for memory bandwidth)."""
    explicit = os.environ.get("PUZZLE_ENGINE_BUILD_THREADS", "").strip()
    if explicit:
        try:
            return max(1, min(16, int(explicit)))
        except ValueError:
            raise ValueError("PUZZLE_ENGINE_BUILD_THREADS must be a whole number, "
                             f"not {explicit!r}") from None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(4, cores or 1))


def build_compact(rows: int, cols: int, pattern: Sequence[int],
                  progress: ProgressFn | None = None, should_stop: StopFn | None = None,
                  chunk: int = 1 << 20, threads: int | None = None) -> tuple[np.ndarray, int]:
    """The packed table of one pattern (standard goal) and how many entries were clamped.

    ``progress(done, total)`` counts placements with a known value, once per level;
    :class:`BuildCancelled` if ``should_stop()`` turns true. ``threads`` (default
    :func:`build_threads`, fewer when memory is short) expand the frontier in parallel, each
    into a next frontier of its own, folded together after each level, so the table is the
    same byte for byte whatever the number of threads.
    """
    n = rows * cols
    if n > 30:
        raise ValueError("compact pattern databases need a board of at most 30 cells")
    size = (placements(n, len(pattern)) + 7) & ~7
    threads = build_threads() if threads is None else max(1, threads)
    mem = available_memory()
    if mem is not None:
        # Each thread past the first needs one more byte per placement: use fewer rather
        # than swap.
        threads = max(1, min(threads, (mem - build_bytes(rows, cols, pattern)) // size + 1))
    chunk = 1 << max(3, chunk.bit_length() - 1)      # a power of two, at least 8
    ranges = [(lo, min(size, lo + chunk)) for lo in range(0, size, chunk)]
    with ThreadPoolExecutor(threads, thread_name_prefix="pdb-build") as pool:
        return _breadth_first(rows, cols, pattern, pool, threads, ranges, progress, should_stop)


def _breadth_first(rows, cols, pattern, pool, threads, ranges, progress, should_stop):
    """(packed table, clamped entries); the frontiers are freed on return."""
    n, k = rows * cols, len(pattern)
    total = placements(n, k)
    size = (total + 7) & ~7
    fac = rank_factors(n, k)
    inv = 1.0 / fac
    home = np.array([t - 1 for t in pattern], dtype=np.int64)
    dist = np.array([[abs(c // cols - h // cols) + abs(c % cols - h % cols) for c in range(n)]
                     for h in home], dtype=np.int64)
    full, nfirst, nlast, nbr_mask = board_masks(rows, cols)
    ordinals, region_masks = region_tables(rows, cols, k)
    binom = binomials(n)
    # NumPy asks for huge memory pages for big arrays: the build writes them at random, and
    # with 4 KiB pages most of those writes would also miss the address translation cache.
    seen = np.zeros(size, dtype=np.uint8)
    cur = np.zeros(size, dtype=np.uint8)
    nxts = np.zeros((threads, size), dtype=np.uint8)
    nxts64 = nxts.view(np.uint64)
    packed = np.zeros((size + 1) // 2, dtype=np.uint8)
    goal = rank(home.copy(), k, fac)
    occ = sum(1 << int(h) for h in home)
    o = _ordinal(np.int64(1 << (n - 1)), np.int64(full & ~occ), cols, np.int64(nfirst),
                 np.int64(nlast))
    seen[goal] = cur[goal] = 1 << o        # its value, 0, is already in ``packed``
    errors = np.zeros((threads, 1), dtype=np.int64)
    clamped = np.zeros((len(ranges), 1), dtype=np.int64)
    shift = (ranges[0][1] - ranges[0][0]).bit_length() - 1 if len(ranges) > 1 else 62
    touched = np.zeros((threads, len(ranges)), dtype=np.uint8)   # pieces each thread wrote
    free_buffers: queue.SimpleQueue[int] = queue.SimpleQueue()   # next frontiers not in use
    for t in range(threads):
        free_buffers.put(t)
    depth = 0

    def expand(lo: int, hi: int) -> None:
        t = free_buffers.get()
        try:
            _expand(cur, nxts[t], touched[t], shift, lo, hi, k, n, fac, inv, nbr_mask,
                    ordinals, region_masks, binom, errors[t])
        finally:
            free_buffers.put(t)

    def merge(lo: int, hi: int) -> int:
        piece = lo >> shift if len(ranges) > 1 else 0
        if not touched[:, piece].any():
            return 0
        touched[:, piece] = 0
        # Pieces start at multiples of 8: no two threads write the same byte of ``packed``.
        return int(_merge(nxts64, seen, cur, packed, depth, lo, hi, k, n, fac, inv, dist,
                          clamped[piece]))

    done = 1
    while True:
        _run_all(pool, expand, ranges, should_stop)
        if errors.any():
            raise ValueError("too many separate blank regions for this pattern")
        fresh = sum(_run_all(pool, merge, ranges, should_stop))
        done += fresh
        if progress is not None:
            progress(done, total)
        # Nothing new at all ends it (a level can reach new blank regions of placements seen
        # before, and nothing else).
        if fresh == 0 and not cur.view(np.uint64).any():
            # Placements never reached (only when the pattern holds every tile, so parity
            # bites) keep 0: the Manhattan distance alone, still a lower bound.
            return packed, int(clamped.sum())
        depth += 1


def _run_all(pool: ThreadPoolExecutor, work: Callable[[int, int], Any],
             ranges: list[tuple[int, int]], should_stop: StopFn | None) -> list:
    """``work(lo, hi)`` for every range, on the pool; the results in order. Looks at
    ``should_stop`` while pieces run and raises :class:`BuildCancelled` once the running
    pieces have ended (the pending ones are dropped)."""
    futures = [pool.submit(work, lo, hi) for lo, hi in ranges]
    try:
        for f in futures:
            while True:
                if should_stop is not None and should_stop():
                    raise BuildCancelled()
                try:
                    f.result(timeout=0.2)
                    break
                except FuturesTimeout:
                    pass
        return [f.result() for f in futures]
    except BaseException:
        for f in futures:
            f.cancel()
        wait(futures)
        raise


def build_bytes(rows: int, cols: int, pattern: Sequence[int], threads: int = 1) -> int:
    """Peak bytes a build of this pattern allocates with ``threads`` threads: a byte per
    placement for seen, this level and each thread's next level, and the packed table."""
    size = (placements(rows * cols, len(pattern)) + 7) & ~7
    return (2 + threads) * size + size // 2


