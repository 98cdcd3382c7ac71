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

from . import fastdfs

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
    _fd_lookup = fastdfs._lookup
    _fd_insert_images = fastdfs._insert_images

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
    def _value(x, weights):
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
                vals[k] = _value(src, weights[k])
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
    def _member(sorted_keys, x):
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
    def bloom_filter(keys, bits):
        """A bit per slot of a hash of ``keys``: a clear bit proves a key absent (one memory
        access), a set bit means "look it up" (``2**bits`` bits)."""
        out = np.zeros(1 << (bits - 6), dtype=np.uint64)
        for i in range(keys.shape[0]):
            h = _bloom_slot(keys[i], bits)
            out[h >> 6] |= np.uint64(1) << np.uint64(h & 63)
        return out

    @njit(cache=True, nogil=True)
    def add_parents(keys, need, to, flip, tables, bloom, bits):
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

    def parents_bloom(keys, need, to, flip, tables, bits):
        """A filter of the parents of ``keys`` (:func:`add_parents`)."""
        out = np.zeros(1 << (bits - 6), dtype=np.uint64)
        add_parents(keys, need, to, flip, tables, out, bits)
        return out

    @njit(cache=True)
    def _maybe(bloom, bits, x):
        h = _bloom_slot(x, bits)
        return (bloom[h >> 6] >> np.uint64(h & 63)) & np.uint64(1) != np.uint64(0)

    @njit(cache=True, inline="always")
    def _in_top(top_keys, tables, bloom, bits, x):
        """Whether ``x`` (any symmetric image) is in the sorted ``top_keys``, whose
        :func:`bloom_filter` ``bloom`` settles most misses without the binary search."""
        c = canon(x, tables)
        return _maybe(bloom, bits, c) and _member(top_keys, c)

    @njit(cache=True, nogil=True)
    def search_down(top_keys, top, need, to, flip, loss_t, need_vals, tables, perms, n, dead,
                    stack_pos, stack_next, stack_vals, state, budget, bloom, bloom_bits,
                    above, above_bits):
        """Depth-first search from ``stack_pos[0]`` down to ``top`` pegs, where a position is
        alive exactly when its canonical form is in ``top_keys`` (sorted). Resumable: ``state``
        = [depth, positions expanded]. ``dead`` is the dead-position table of
        :mod:`.fastdfs` (every symmetric image stored, so lookups need no canonicalising).
        ``bloom``: :func:`bloom_filter` of ``top_keys`` (most misses end there, without the
        binary search's cache misses). ``above``: :func:`parents_bloom` of ``top_keys``, a
        superset of the positions with ``top + 1`` pegs that can reach the goal: one with
        ``top + 1`` pegs that is not in it is dead, without trying its jumps (each a cache
        miss in ``bloom``). ``loss_t[j, k]``: what jump ``j`` takes from pagoda ``k`` (rows
        per jump); ``need_vals[k]``: the least value a position may keep.
        Returns 1 (a way down was found), 0 (none: proved dead) or 2 (budget used)."""
        jumps = need.shape[0]
        npag = loss_t.shape[1]
        d = state[0]
        start_count = 0
        x = stack_pos[0]
        while x:
            start_count += 1
            x &= x - np.uint64(1)
        while d >= 0:
            pos = stack_pos[d]
            j = stack_next[d]
            count = start_count - d
            last = count - 1 == top
            above_top = count - 2 == top
            pushed = False
            while j < jumps:
                if (pos & need[j]) == need[j] and (pos & to[j]) == 0:
                    child = pos ^ flip[j]
                    if last:
                        if _in_top(top_keys, tables, bloom, bloom_bits, child):
                            stack_next[d] = j + 1
                            state[0] = d
                            return 1
                        j += 1
                        continue
                    # No early exit: a straight loop over contiguous rows vectorises, which
                    # pays with dozens of pagodas.
                    short = 0
                    for k in range(npag):
                        short += stack_vals[d, k] - loss_t[j, k] < need_vals[k]
                    if short or (above_top and not _maybe(above, above_bits,
                                                          canon(child, tables))) \
                            or _fd_lookup(dead, child):
                        j += 1
                        continue
                    stack_next[d] = j + 1
                    d += 1
                    stack_pos[d] = child
                    stack_next[d] = 0
                    for k in range(npag):
                        stack_vals[d, k] = stack_vals[d - 1, k] - loss_t[j, k]
                    state[1] += 1
                    pushed = True
                    break
                j += 1
            if pushed:
                budget -= 1
                if budget <= 0:
                    state[0] = d
                    return 2
                continue
            _fd_insert_images(dead, pos, perms, n)
            d -= 1
        state[0] = d
        return 0

    @njit(cache=True)
    def _score(pos, hard, nbr):
        """Lower is more promising: pegs on hard-to-clear holes, and stranded pegs."""
        total = 0
        x = pos
        k = 0
        while x:
            if x & np.uint64(1):
                total += hard[k]
                if (pos & nbr[k]) == np.uint64(0):
                    total += 3
            x >>= np.uint64(1)
            k += 1
        return total

    #: Scores above this count as this in the beam's ranking (more than any board of 64
    #: holes reaches).
    SCORE_LIMIT = 1023

    @njit(cache=True, inline="always")
    def _first_time(keys, stamps, stamp, x):
        """True the first time ``x`` is offered with this ``stamp`` (then remembered)."""
        mask = keys.shape[0] - 1
        i = np.int64((x * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)) & mask
        while stamps[i] == stamp:
            if keys[i] == x:
                return False
            i = (i + 1) & mask
        keys[i] = x
        stamps[i] = stamp
        return True

    @njit(cache=True, nogil=True)
    def beam(start, top, top_keys, need, to, flip, tables, pag_weights, loss_t, need_vals, dead,
             hard, nbr, width, bloom, bloom_bits):
        """A heuristic probe: keep the ``width`` most promising positions per peg count from
        ``start`` down to ``top`` pegs, where a position is alive exactly when its canonical
        form is in ``top_keys``. True only when such a position is reached (a proof that the
        goal can be reached); False proves nothing. ``loss_t[j, k]``: what jump ``j`` takes
        from pagoda ``k``; ``bloom``: as for :func:`search_down`.

        Each kept position carries its pagoda values (a child's are its parent's less the
        jump's loss, one contiguous row), so none is summed over the board again.
        """
        jumps = need.shape[0]
        npag = loss_t.shape[1]
        room = max(1, width) * jumps
        cur = np.empty(max(1, width), dtype=np.uint64)
        vals = np.zeros((max(1, width), max(npag, 1)), dtype=np.int64)
        nxt_vals = np.zeros_like(vals)
        kids = np.empty(room, dtype=np.uint64)
        parent = np.empty(room, dtype=np.int64)
        via = np.empty(room, dtype=np.int64)
        scores = np.empty(room, dtype=np.int64)
        ranked = np.empty(room, dtype=np.int64)
        # Children seen at this level (open addressing; a slot counts only when stamped with
        # the level's peg count, so nothing is cleared between levels).
        seen_size = 16
        while seen_size < 2 * room:
            seen_size *= 2
        seen_keys = np.zeros(seen_size, dtype=np.uint64)
        seen_count = np.full(seen_size, -1, dtype=np.int64)
        cur[0] = start
        for k in range(npag):
            vals[0, k] = _value(start, pag_weights[k])
        ncur = 1
        count = 0
        x = start
        while x:
            count += 1
            x &= x - np.uint64(1)
        while count > top and ncur > 0:
            last = count - 1 == top
            m = 0
            for i in range(ncur):
                pos = cur[i]
                for j in range(jumps):
                    if (pos & need[j]) != need[j] or (pos & to[j]) != np.uint64(0):
                        continue
                    child = pos ^ flip[j]
                    if last:
                        if _in_top(top_keys, tables, bloom, bloom_bits, child):
                            return True
                        continue
                    short = 0
                    for k in range(npag):
                        short += vals[i, k] - loss_t[j, k] < need_vals[k]
                    if short == 0 and _first_time(seen_keys, seen_count, count, child):
                        kids[m] = child
                        parent[m] = i
                        via[m] = j
                        m += 1
            if last:
                return False
            # By score (a counting sort; ties in the order found), the first ``width`` not known
            # dead: the dead table is a cache miss per look-up, so only those that may be kept
            # are looked up.
            hist = np.zeros(SCORE_LIMIT + 2, dtype=np.int64)
            for r in range(m):
                sc = min(_score(kids[r], hard, nbr), SCORE_LIMIT)
                scores[r] = sc
                hist[sc + 1] += 1
            for sc in range(SCORE_LIMIT + 1):
                hist[sc + 1] += hist[sc]
            for r in range(m):
                ranked[hist[scores[r]]] = r
                hist[scores[r]] += 1
            ncur = 0
            for r in range(m):
                if ncur == width:
                    break
                i = ranked[r]
                if _fd_lookup(dead, kids[i]):
                    continue
                cur[ncur] = kids[i]
                j = via[i]
                for k in range(npag):
                    nxt_vals[ncur, k] = vals[parent[i], k] - loss_t[j, k]
                ncur += 1
            vals, nxt_vals = nxt_vals, vals
            count -= 1
        return False
