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
last one (:func:`_unrank_next`). Between pieces the build honours cancellation; progress is
reported once per level.

Lookup tables can be shared through the diagonal mirror: when a partition contains a pattern
and its mirror image (as on the 5x5), only one of the two is built, and the other's value is
read from it on the mirrored board.
"""

from __future__ import annotations

import os
import queue
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from concurrent.futures import TimeoutError as FuturesTimeout
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from engine import cache_dir

from . import pdb_file
from .pdb import BuildCancelled, _flood, _masks, placements, warn_unwritable

#: Bump when the file format or the build changes, so old files are not trusted.
FORMAT_VERSION = 1
CLAMP = 15

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

ProgressFn = Callable[[int, int], None]
StopFn = Callable[[], bool]


# --------------------------------------------------------------------------------------------
# Ranking (compiled)
# --------------------------------------------------------------------------------------------

@intrinsic
def _ctpop(typingctx, x):
    """The processor's population count instruction (LLVM's ctpop) on an integer."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, inline="always")
def popcount32(x):
    """Set bits of a non-negative int below 2**32 (one instruction: the build and the search
    count bits for every move)."""
    return _ctpop(np.int64(x))


def rank_factors(n: int, k: int) -> np.ndarray:
    """``F[j] = (n-1-j)! / (n-k)!``: the weight of slot j in the rank of a k-tile placement."""
    f = np.ones(k, dtype=np.int64)
    for j in range(k):
        v = 1
        for i in range(j + 1, k):
            v *= n - i
        f[j] = v
    return f


@njit(cache=True)
def rank(pos, k, fac):
    """Lexicographic rank of the placement ``pos[0..k)`` (distinct cells)."""
    r = 0
    before = 0
    for j in range(k):
        p = pos[j]
        r += (p - popcount32(before & ((1 << p) - 1))) * fac[j]
        before |= 1 << p
    return r


def _select_table() -> np.ndarray:
    """``SEL[b, d]``: the position of the d-th set bit of byte b (8 when there is none)."""
    sel = np.full((256, 8), 8, dtype=np.int64)
    for b in range(256):
        bits = [i for i in range(8) if b >> i & 1]
        sel[b, :len(bits)] = bits
    return sel


SEL = _select_table()


def _fast_pdep() -> bool:
    """True on x86 processors with BMI2 whose PDEP instruction is quick: Intel's, and AMD's from
    Zen 3 (family 25) on; earlier AMD processors run it as slow microcode."""
    import platform

    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    fields = dict(line.split(":", 1) for line in info.split("\n\n")[0].splitlines()
                  if ":" in line)
    fields = {key.strip(): value.strip() for key, value in fields.items()}
    if "bmi2" not in fields.get("flags", "").split():
        return False
    if fields.get("vendor_id") == "AuthenticAMD":
        return fields.get("cpu family", "0").isdigit() and int(fields["cpu family"]) >= 25
    return fields.get("vendor_id") == "GenuineIntel"


#: Whether :func:`_nth_free` uses the PDEP instruction (decided once, for this processor).
FAST_PDEP = _fast_pdep()


@intrinsic
def _pdep(typingctx, source, mask):
    """x86 BMI2 PDEP: deposit the low bits of ``source`` at the set bits of ``mask``."""
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=fnty)
        return builder.call(fn, args)

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    """Trailing zero bits of a non-zero int64 (one instruction)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@njit(cache=True, inline="always")
def _nth_free_pdep(free, d):
    """The cell of the d-th set bit of ``free`` (from 0), with PDEP."""
    return _cttz(_pdep(np.int64(1) << d, free))


@njit(cache=True, inline="always")
def _nth_free_bytes(free, d):
    """The cell of the d-th set bit of ``free`` (from 0), a byte at a time."""
    base = 0
    while True:
        byte = (free >> base) & 0xFF
        cnt = popcount32(byte)
        if d < cnt:
            return base + SEL[byte, d]
        d -= cnt
        base += 8


#: The kernels are compiled against this one (unranking runs for every entry of every frontier
#: and PDEP halves its cost where it is quick).
_nth_free = _nth_free_pdep if FAST_PDEP else _nth_free_bytes


@njit(cache=True)
def unrank(r, k, n, fac, pos):
    """Fill ``pos`` with the placement of rank r; return its occupancy mask."""
    scratch = np.zeros(k, dtype=np.int64)
    return _unrank_digits(r, k, n, fac, 1.0 / fac, pos, scratch, scratch.copy())


@njit(cache=True, inline="always")
def _unrank_digits(r, k, n, fac, inv, pos, digits, before):
    """:func:`unrank`, also filling ``digits`` (slot j's cell counted among the cells not taken
    by slots before it) and ``before`` (the cells of the slots before slot j).

    ``inv`` holds ``1 / fac``: a multiplication and a correction cost far less than an integer
    division, and this runs for every entry of every frontier.
    """
    return _unrank_from(r, 0, np.int64(0), k, n, fac, inv, pos, digits, before)


@njit(cache=True, inline="always")
def _unrank_from(low, j, used, k, n, fac, inv, pos, digits, before):
    """Fill slots j..k-1 from ``low`` (the part of the rank they hold), the cells of the slots
    before them being ``used``; return the occupancy mask."""
    free_all = (np.int64(1) << n) - 1
    for i in range(j, k):
        d = np.int64(low * inv[i])
        if d * fac[i] > low:
            d -= 1
        elif (d + 1) * fac[i] <= low:
            d += 1
        low -= d * fac[i]
        digits[i] = d
        before[i] = used
        c = _nth_free(free_all & ~used, d)
        pos[i] = c
        used |= np.int64(1) << c
    return used


@njit(cache=True, inline="always")
def _unrank_next(r, prev, k, n, fac, inv, pos, digits, before):
    """:func:`_unrank_digits` for rank r, given that ``pos``, ``digits`` and ``before`` hold the
    placement of rank ``prev`` (< r; -1 for none). Ranks are visited in increasing order, and
    neighbours share all but their last slot or two: only the slots that change are redone.
    """
    if prev < 0:
        return _unrank_digits(r, k, n, fac, inv, pos, digits, before)
    low = r - prev
    j = k - 1
    while True:
        low += digits[j] * fac[j]
        if j == 0 or low < fac[j - 1]:
            break
        j -= 1
    return _unrank_from(low, j, before[j], k, n, fac, inv, pos, digits, before)


@njit(cache=True, inline="always")
def _moved_rank(r, j, p, q, k, fac, pos, digits, before):
    """The rank of the placement of rank r (cells ``pos``, from :func:`_unrank_digits`) after
    slot j's tile moves from p to q, without ranking it afresh: slot j's digit changes, and so
    does the digit of each later slot whose cell lies between p and q (by one: the cells before
    it that are lower changed by one)."""
    r += (q - popcount32(before[j] & ((np.int64(1) << q) - 1)) - digits[j]) * fac[j]
    lo, hi = (p, q) if p < q else (q, p)
    if hi - lo > 1:
        step = 1 if p < q else -1
        for i in range(j + 1, k):
            x = pos[i]
            if lo < x < hi:
                r += step * fac[i]
    return r


@njit(cache=True)
def _ordinal(target, free, cols, nfirst, nlast):
    """Ordinal (by lowest cell) of the connected free region containing bit ``target``."""
    comp = _flood(target, free, cols, nfirst, nlast)
    low = comp & -comp
    # Only regions whose lowest cell is below ours come first; usually there are none.
    rem = free & (low - 1) & ~comp
    o = 0
    while rem != 0:
        other = _flood(rem & -rem, free, cols, nfirst, nlast)
        o += 1
        rem &= ~other
    return o


# --------------------------------------------------------------------------------------------
# Building (compiled)
# --------------------------------------------------------------------------------------------

@njit(cache=True)
def _subset_index(occ, n, binom):
    """Where the occupancy ``occ`` stands in :func:`region_tables`: the mask itself on boards of
    at most 16 cells, else its rank among the sets of as many cells (colex order)."""
    if n <= 16:
        return occ
    r = 0
    i = 1
    while occ != 0:
        low = occ & -occ
        r += binom[popcount32(low - 1), i]
        i += 1
        occ ^= low
    return r


def binomials(n: int) -> np.ndarray:
    """``B[a, b]`` = a choose b for a, b <= n."""
    b = np.zeros((n + 1, n + 1), dtype=np.int64)
    for a in range(n + 1):
        b[a, 0] = 1
        for c in range(1, a + 1):
            b[a, c] = b[a - 1, c - 1] + b[a - 1, c]
    return b


@njit(cache=True)
def _fill_regions(table, masks, n, k, cols, nfirst, nlast, binom):
    occ = (np.int64(1) << k) - 1
    full = (np.int64(1) << n) - 1
    while occ <= full:
        free = full & ~occ
        row = _subset_index(occ, n, binom)
        o = 0
        rem = free
        while rem != 0:
            comp = _flood(rem & -rem, free, cols, nfirst, nlast)
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
    """For every set of k occupied cells (row: :func:`_subset_index`), the regions of free
    cells, ordered by lowest cell: ``(O, M)`` where ``O[row, cell]`` is the ordinal of the
    region that holds ``cell`` (8 for eight or more, too many for the one-byte frontier, and
    for occupied cells) and ``M[row, o]`` the cells of region o < 8 (0 past the last).

    Tables, so that the build never floods a board: one look-up instead of a dozen shifts per
    move. 1 MiB + 2 MiB on the 4x4, 4.4 MB + 5.7 MB for six tiles on the 5x5.
    """
    n = rows * cols
    full, nfirst, nlast, _ = _masks(rows, cols)
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
            occ = _unrank_next(np.int64(idx), prev, k, n, fac, inv, pos, digits, before)
            prev = np.int64(idx)
            row = _subset_index(occ, n, binom)
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
                        co = ordinals[_subset_index((occ & ~pbit) | qbit, n, binom), p]
                        if co >= 8:
                            out[0] = 1
                            return
                        cs[nb] = _moved_rank(np.int64(idx), j, p, q, k, fac, pos, digits, before)
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
            _unrank_next(np.int64(c), prev, k, n, fac, inv, pos, digits, before)
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
    full, nfirst, nlast, nbr_mask = _masks(rows, cols)
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


def build_bytes(rows: int, cols: int, pattern: Sequence[int], threads: int = 1) -> int:
    """Peak bytes a build of this pattern allocates with ``threads`` threads: a byte per
    placement for seen, this level and each thread's next level, and the packed table."""
    size = (placements(rows * cols, len(pattern)) + 7) & ~7
    return (2 + threads) * size + size // 2


def file_bytes(rows: int, cols: int, pattern: Sequence[int]) -> int:
    return ((placements(rows * cols, len(pattern)) + 7) & ~7) // 2


def available_memory() -> int | None:
    """MemAvailable from /proc/meminfo in bytes (None where unknown)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def shortfall(rows: int, cols: int, partition: Sequence[Sequence[int]]) -> str | None:
    """Why the missing tables of a partition cannot be built here now (memory or disk), or
    None if they can."""
    missing = [p for p in _table_patterns(rows, cols, partition)
               if load_pattern(rows, cols, p) is None]
    if not missing:
        return None
    need_mem = max(build_bytes(rows, cols, p) for p in missing)
    mem = available_memory()
    if mem is not None and mem < need_mem + (256 << 20):
        return (f"building needs about {need_mem / 2**30:.1f} GiB of memory and "
                f"{mem / 2**30:.1f} GiB is available")
    need_disk = sum(file_bytes(rows, cols, p) for p in missing)
    try:
        d = cache_dir()
        probe = d if d.exists() else next((a for a in d.parents if a.exists()), Path("/"))
        disk = shutil.disk_usage(probe).free
    except OSError:
        disk = None
    if disk is not None and disk < need_disk + (64 << 20):
        return (f"the tables need {need_disk / 2**20:.0f} MiB of disk in {cache_dir()} and "
                f"{disk / 2**20:.0f} MiB is free")
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


def _table_patterns(rows, cols, partition) -> list[tuple[int, ...]]:
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
    ``should_stop`` says stop (finished patterns stay saved).
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
        patterns = _table_patterns(rows, cols, key[2])
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
                table, c = build_compact(rows, cols, pattern, report, should_stop)
                clamped += c
                try:
                    pdb_file.save(pattern_path(rows, cols, pattern), table,
                                  _meta(rows, cols, pattern))
                except OSError as exc:
                    warn_unwritable(exc)
            before += placements(n, len(pattern))
            tables.append(table)
        result = CompactTables.from_tables(rows, cols, key[2], tuple(patterns), tables, clamped)
        _loaded[key] = result
        return result


def cached_on_disk(rows: int, cols: int, partition: Sequence[Sequence[int]]) -> bool:
    """True if every table the partition needs has a file in the cache directory."""
    return all(pattern_path(rows, cols, p).exists()
               for p in _table_patterns(rows, cols, partition))


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
