"""Level sets of peg positions, compiled with numba: the engine under counting and verdicts.

A *level* is every position with the same number of pegs reached from a start by jumps
(forward) or from a goal by reverse jumps (backward), stored as a sorted ``uint64`` array of
canonical positions (the least image under a symmetry group that fixes both the start and the
goal) with a ``uint64`` count per position. The count of a canonical position is the total over
its whole orbit of the number of jump sequences reaching its members, which makes the counts
add up exactly under symmetry: for a parent orbit ``P`` and a child orbit ``Q``, the sequences
into ``Q`` through ``P`` number ``count(P)`` times the jumps from one member of ``P`` into ``Q``.

Expanding a level is one kernel call per chunk of parents (so progress and Ctrl+C are
responsive; the kernels release the GIL, so a table built in a background thread does not
stall the others) into an open-addressing hash table that sums the counts, then a sort. Pagoda
functions prune positions that provably cannot reach the other side. Boards of at most 64 holes.
"""

from __future__ import annotations

import numpy as np

from . import kernel_checks as kc
from .i18n import _

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is a dependency
    njit = None

AVAILABLE = njit is not None

#: Bytes per position while a level is being built (hash slot: key + count, half full) and
#: once stored (key + count).
BUILD_BYTES, STORED_BYTES = 32, 16


def byte_values(weights: np.ndarray, n: int) -> np.ndarray:
    """``v[k, chunk, byte]``: the total of ``weights[k]`` over the bits of ``byte`` placed at
    ``chunk`` (for :func:`level_minima`)."""
    chunks = max(1, (n + 7) // 8)
    out = np.zeros((weights.shape[0], chunks, 256), dtype=np.int64)
    for c in range(chunks):
        for i in range(8):
            if 8 * c + i < n:
                bit = (np.arange(256) >> i) & 1
                out[:, c, :] += weights[:, 8 * c + i, None] * bit[None, :]
    return out


def byte_tables(perms: list[tuple[int, ...]], n: int) -> np.ndarray:
    """``t[s, chunk, byte]``: the image under ``perms[s]`` of ``byte`` placed at ``chunk``."""
    chunks = max(1, (n + 7) // 8)
    out = np.zeros((len(perms), chunks, 256), dtype=np.uint64)
    for s, perm in enumerate(perms):
        for j in range(chunks):
            for i in range(8):
                k = 8 * j + i
                if k >= n:
                    break
                bit = np.uint64(1) << np.uint64(perm[k])
                for byte in range(256):
                    if byte >> i & 1:
                        out[s, j, byte] |= bit
    return out


if AVAILABLE:
    @njit(cache=True)
    def canon(x, tables):
        best = x
        for s in range(tables.shape[0]):
            image = np.uint64(0)
            y = x
            for c in range(tables.shape[1]):
                image |= tables[s, c, np.int64(y & np.uint64(255))]
                y >>= np.uint64(8)
            if image < best:
                best = image
        return best

    @njit(cache=True)
    def orbit_sizes(keys, tables):
        """Distinct images of each position under the group (the tables hold every element)."""
        out = np.empty(keys.shape[0], dtype=np.uint64)
        g = tables.shape[0]
        for i in range(keys.shape[0]):
            x = keys[i]
            fixed = 0
            for s in range(g):
                image = np.uint64(0)
                y = x
                for c in range(tables.shape[1]):
                    image |= tables[s, c, np.int64(y & np.uint64(255))]
                    y >>= np.uint64(8)
                if image == x:
                    fixed += 1
            out[i] = np.uint64(g // fixed)
        return out

    @njit(cache=True)
    def weight(x, weights):
        total = 0
        k = 0
        while x:
            if x & np.uint64(1):
                total += weights[k]
            x >>= np.uint64(1)
            k += 1
        return total

    @njit(cache=True, nogil=True)
    def expand(keys, counts, lo, hi, need, to, flip, backward, tables, weights, delta, bound,
               complement, hkeys, hcounts, flags):
        """Add the children of ``keys[lo:hi]`` to the hash table ``hkeys``/``hcounts``.

        ``backward``: reverse jumps (a peg at ``to``, holes at ``need``). A child is dropped
        when, for some pagoda ``k``, ``value_k + delta[k, j] < bound[k]``, where ``value_k`` is
        the weight of the parent's pegs (or, with ``complement``, of its empty holes).
        ``flags[0]`` is set when the table gets too full (rebuild bigger), ``flags[1]`` when a
        count overflows 64 bits. Returns the number of children generated.

        Buffer bounds (checked by :func:`.kernel_checks.expand_level` in :func:`grow`): the
        table's index is masked by its size less one (a power of two), and the kernel returns
        as soon as more than three quarters of the slots are used, so a probe always ends at a
        free slot; ``weights`` rows are read at the holes of a position.
        """
        mask = hkeys.shape[0] - 1
        limit = (hkeys.shape[0] * 3) // 4
        used = flags[2]
        made = 0
        npag = weights.shape[0]
        vals = np.zeros(max(npag, 1), dtype=np.int64)
        for i in range(lo, hi):
            pos = keys[i]
            c = counts[i]
            src = ~pos & complement if complement != np.uint64(0) else pos
            for k in range(npag):
                vals[k] = weight(src, weights[k])
            for j in range(need.shape[0]):
                if backward:
                    ok = (pos & to[j]) != np.uint64(0) and (pos & need[j]) == np.uint64(0)
                else:
                    ok = (pos & need[j]) == need[j] and (pos & to[j]) == np.uint64(0)
                if not ok:
                    continue
                pruned = False
                for k in range(npag):
                    if vals[k] + delta[k, j] < bound[k]:
                        pruned = True
                        break
                if pruned:
                    continue
                child = canon(pos ^ flip[j], tables)
                made += 1
                h = np.int64(((child * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)) & np.uint64(mask))
                while True:
                    v = hkeys[h]
                    if v == child:
                        s = hcounts[h] + c
                        if s < c:
                            flags[1] = 1
                        hcounts[h] = s
                        break
                    if v == np.uint64(0):
                        hkeys[h] = child
                        hcounts[h] = c
                        used += 1
                        break
                    h = (h + 1) & mask
                if used > limit:
                    flags[0] = 1
                    flags[2] = used
                    return made
        flags[2] = used
        return made

    @njit(cache=True)
    def meet_total(fkeys, fcounts, bkeys, bcounts, forbits, flags):
        """Sum over common positions of (forward count / orbit size) x backward count;
        ``flags[0]`` is set on 64-bit overflow. Both key arrays sorted."""
        i = 0
        j = 0
        total = np.uint64(0)
        common = 0
        while i < fkeys.shape[0] and j < bkeys.shape[0]:
            a = fkeys[i]
            b = bkeys[j]
            if a < b:
                i += 1
            elif b < a:
                j += 1
            else:
                per = fcounts[i] // forbits[i]
                if per != np.uint64(0) and bcounts[j] > np.uint64(0xFFFFFFFFFFFFFFFF) // per:
                    flags[0] = 1
                prod = per * bcounts[j]
                s = total + prod
                if s < total:
                    flags[0] = 1
                total = s
                common += 1
                i += 1
                j += 1
        return total, common

    @njit(cache=True)
    def member(sorted_keys, x):
        i = np.searchsorted(sorted_keys, x)
        return i < sorted_keys.shape[0] and sorted_keys[i] == x

    @njit(cache=True, nogil=True)
    def level_minima(keys, tables, byte_values):
        """Per weighting ``k``, the least total weight of the pegs over every position of a
        level: each key and each of its images under the group (``tables``), the total read
        byte by byte from ``byte_values[k, chunk, byte]``."""
        npag = byte_values.shape[0]
        chunks = byte_values.shape[1]
        out = np.full(npag, np.int64(1) << np.int64(60), dtype=np.int64)
        for i in range(keys.shape[0]):
            for s in range(tables.shape[0]):
                image = np.uint64(0)
                y = keys[i]
                for c in range(tables.shape[1]):
                    image |= tables[s, c, np.int64(y & np.uint64(255))]
                    y >>= np.uint64(8)
                for k in range(npag):
                    v = 0
                    y = image
                    for c in range(chunks):
                        v += byte_values[k, c, np.int64(y & np.uint64(255))]
                        y >>= np.uint64(8)
                    if v < out[k]:
                        out[k] = v
        return out

    @njit(cache=True, nogil=True)
    def level_argmin(keys, byte_values):
        """(least total weight, its index) over ``keys`` themselves (no images), the weight
        read byte by byte from ``byte_values[chunk, byte]``."""
        best = np.int64(1) << np.int64(60)
        at = 0
        for i in range(keys.shape[0]):
            y = keys[i]
            v = 0
            for c in range(byte_values.shape[0]):
                v += byte_values[c, np.int64(y & np.uint64(255))]
                y >>= np.uint64(8)
            if v < best:
                best = v
                at = i
        return best, at

    @njit(cache=True)
    def _bloom_slot(x, bits):
        return np.int64((x * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))

    @njit(cache=True, nogil=True)
    def _bloom_filter(keys, bits):
        """A bit per slot of a hash of ``keys``: a clear bit proves a key absent (one memory
        access), a set bit means "look it up" (``2**bits`` bits)."""
        out = np.zeros(1 << (bits - 6), dtype=np.uint64)
        for i in range(keys.shape[0]):
            h = _bloom_slot(keys[i], bits)
            out[h >> 6] |= np.uint64(1) << np.uint64(h & 63)
        return out

    @njit(cache=True, nogil=True)
    def _add_parents(keys, need, to, flip, tables, bloom, bits):
        """Add to ``bloom`` (:func:`bloom_filter` layout, ``2**bits`` bits) the canonical
        *parents* of ``keys``: every position one peg up with a jump into one of them. When
        ``keys`` are all the positions of a level that can reach the goal, these are all those
        of the level above (a position can reach the goal exactly when one of its jumps leads
        to one that can), without listing them. Returns how many bits were clear before: 0
        when ``bloom`` already held every parent, which checks a filter read from disk."""
        added = 0
        for i in range(keys.shape[0]):
            x = keys[i]
            for j in range(need.shape[0]):
                # A jump backwards: a peg where the jump lands, none where it starts and over.
                if (x & to[j]) == to[j] and (x & need[j]) == np.uint64(0):
                    h = _bloom_slot(canon(x ^ flip[j], tables), bits)
                    bit = np.uint64(1) << np.uint64(h & 63)
                    if (bloom[h >> 6] & bit) == np.uint64(0):
                        bloom[h >> 6] |= bit
                        added += 1
        return added

    def bloom_filter(keys, bits):
        """:func:`_bloom_filter`: ``2**bits`` bits in ``2**(bits - 6)`` words, a slot below
        ``2**bits`` shifted right by 6 indexing them (``6 <= bits <= 40`` checked)."""
        kc.require(6 <= bits <= 40, "levels.bloom_filter", f"a filter of 2**{bits} bits")
        return _bloom_filter(keys, bits)

    def add_parents(keys, need, to, flip, tables, bloom, bits):
        """:func:`_add_parents`, once ``bloom`` is checked to have the words of ``2**bits``
        bits (a filter read from disk might not)."""
        kc.bloom("levels.add_parents", bloom, bits)
        return _add_parents(keys, need, to, flip, tables, bloom, bits)

    def parents_bloom(keys, need, to, flip, tables, bits):
        """A filter of the parents of ``keys`` (:func:`add_parents`)."""
        out = np.zeros(1 << (bits - 6), dtype=np.uint64)
        add_parents(keys, need, to, flip, tables, out, bits)
        return out

    @njit(cache=True)
    def maybe(bloom, bits, x):
        h = _bloom_slot(x, bits)
        return (bloom[h >> 6] >> np.uint64(h & 63)) & np.uint64(1) != np.uint64(0)

    @njit(cache=True, inline="always")
    def in_top(top_keys, tables, bloom, bits, x):
        """Whether ``x`` (any symmetric image) is in the sorted ``top_keys``, whose
        :func:`bloom_filter` ``bloom`` settles most misses without the binary search."""
        c = canon(x, tables)
        return maybe(bloom, bits, c) and member(top_keys, c)


# -- growing a level ------------------------------------------------------------------------------

#: Parents expanded per kernel call (between progress reports and Ctrl+C checks).
CHUNK = 1 << 18


class GrowStopped(Exception):
    """Raised by :func:`grow` when ``should_stop()`` said stop before a chunk."""


class Side:
    """One growing side of a level-set search (forward from a start, or backward from a goal):
    its current level (sorted canonical ``keys`` and their ``counts``, see the module
    docstring), its peg count and its pagoda pruning tables (the ``weights``, ``delta`` and
    ``bound`` arguments of :func:`expand`)."""

    def __init__(self, name, keys, counts, pegs, backward, weights, delta, bound, complement):
        self.name, self.keys, self.counts, self.pegs = name, keys, counts, pegs
        self.backward, self.weights, self.delta, self.bound = backward, weights, delta, bound
        self.complement = np.uint64(complement)
        self.growth = 8.0  # last observed size ratio between levels (a guess at first)


def grow(side: Side, need, to, flip, tables, guess: int, should_stop=None):
    """The next level of ``side``: (sorted keys, counts). Raises OverflowError past 2**64, and
    GrowStopped when ``should_stop()`` is true before a chunk."""
    capacity = 1 << max(10, (2 * guess).bit_length())
    while True:
        hkeys = np.zeros(capacity, np.uint64)
        hcounts = np.zeros(capacity, np.uint64)
        flags = np.zeros(3, np.int64)
        kc.expand_level(side.keys, side.counts, need, to, flip, side.weights, side.delta,
                        side.bound, hkeys, hcounts, flags)
        for lo in range(0, len(side.keys), CHUNK):
            if should_stop is not None and should_stop():
                raise GrowStopped
            hi = min(len(side.keys), lo + CHUNK)
            expand(side.keys, side.counts, lo, hi, need, to, flip, side.backward, tables,
                   side.weights, side.delta, side.bound, side.complement, hkeys, hcounts,
                   flags)
            if flags[0]:
                break
        if flags[1]:
            raise OverflowError(_("a count exceeds 2**64; this problem has too many solutions "
                                  "for this counter"))
        if not flags[0]:
            break
        capacity *= 2  # too full: start the level again with twice the room
    used = hkeys != 0
    keys, counts = hkeys[used], hcounts[used]
    del hkeys, hcounts
    order = np.argsort(keys, kind="stable")
    return keys[order], counts[order]
