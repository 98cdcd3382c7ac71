"""The compiled searches from one position down to a table of live positions (numba, boards
of at most 64 holes): the exact depth-first search (:func:`run`), the heuristic beam
(:func:`beam`) and the dead-position table they share.

The exact search has a dead-position table holding every symmetric image, pagoda pruning and
the meeting test against the table's top level, on ``uint64`` bitboards with an explicit stack,
so that it can stop after a budget of positions and be resumed: the Python side checks the
deadline and reports progress between calls. It is the compiled twin of
:func:`.search.exact_dfs` (which any board size can run), used by the ``search`` solver
(:class:`.search.CompiledSearch`) and the live verdict (:class:`.judge.Judge`). The dead table
is a fixed-size open-addressing hash table; when a probe run finds no free slot it overwrites
one, which only forgets a dead position (costs time, never correctness).

Compiled on first use and cached on disk by numba.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from . import kernel_checks as kc
from . import levels as lv

try:
    from numba import njit
except ImportError:  # numba is a dependency, but the plugin still works without it
    njit = None

#: Entries of the dead table (a power of two): 2**22 entries = 32 MB.
TABLE_BITS = 22
#: Slots probed before overwriting one.
PROBES = 8
#: Positions expanded per kernel call between deadline checks.
BUDGET = 100_000


class Outcome(IntEnum):
    """What a call of :func:`run` ended with."""

    EXHAUSTED = 0  #: no way down from the start: it is proved dead
    FOUND = 1  #: a way down: the jumps are ``stack_next[0..depth] - 1``
    BUDGET_USED = 2  #: not decided yet: call again to resume


AVAILABLE = njit is not None and lv.AVAILABLE

if AVAILABLE:
    _canon, _maybe, _in_top, _weight = lv.canon, lv.maybe, lv.in_top, lv.weight

    @njit(cache=True)
    def _slot(x, mask):
        h = x * np.uint64(0x9E3779B97F4A7C15)
        return np.int64((h >> np.uint64(64 - TABLE_BITS)) & mask)

    @njit(cache=True)
    def lookup(table, x):
        """Whether ``x`` is in the table (False may be a forgotten entry)."""
        mask = np.uint64(table.shape[0] - 1)
        i = _slot(x, mask)
        for _ in range(PROBES):
            v = table[i]
            if v == x:
                return True
            if v == 0:
                return False
            i = (i + 1) & (table.shape[0] - 1)
        return False

    @njit(cache=True)
    def insert(table, x):
        """Remember ``x`` (a run with no free slot overwrites its first slot)."""
        mask = np.uint64(table.shape[0] - 1)
        first = _slot(x, mask)
        i = first
        for _ in range(PROBES):
            v = table[i]
            if v == x:
                return
            if v == 0:
                table[i] = x
                return
            i = (i + 1) & (table.shape[0] - 1)
        table[first] = x  # full run: forget whatever was there

    @njit(cache=True)
    def insert_all(table, values):
        """:func:`insert` every one of ``values``."""
        for k in range(values.shape[0]):
            insert(table, values[k])

    @njit(cache=True)
    def insert_images(table, pos, perms, n):
        """:func:`insert` ``pos`` under every permutation of holes in ``perms`` (rows)."""
        for s in range(perms.shape[0]):
            image = np.uint64(0)
            for k in range(n):
                if (pos >> np.uint64(k)) & np.uint64(1):
                    image |= np.uint64(1) << np.uint64(perms[s, k])
            insert(table, image)

    @njit(cache=True, nogil=True)
    def _search_down(top_keys, top, need, to, flip, loss_t, need_vals, tables, perms, n, dead,
                    stack_pos, stack_next, stack_vals, state, budget, bloom, bloom_bits,
                    above, above_bits):
        """Depth-first search from ``stack_pos[0]`` down to ``top`` pegs, where a position is
        alive exactly when its canonical form is in ``top_keys`` (sorted). Resumable: ``state``
        = [depth, positions expanded, pagoda prunes, positions proved dead]. ``dead`` is the
        dead-position table (every symmetric image stored, so lookups need no canonicalising).
        ``bloom``: :func:`.levels.bloom_filter` of ``top_keys`` (most misses end there, without the
        binary search's cache misses). ``above``: :func:`.levels.parents_bloom` of ``top_keys``, a
        superset of the positions with ``top + 1`` pegs that can reach the goal: one with
        ``top + 1`` pegs that is not in it is dead, without trying its jumps (each a cache
        miss in ``bloom``). ``loss_t[j, k]``: what jump ``j`` takes from pagoda ``k`` (rows
        per jump); ``need_vals[k]``: the least value a position may keep.
        Returns an :class:`Outcome` value (as a plain int: numba returns ints).

        Buffer bounds (checked by :func:`.kernel_checks.search_down` before every call): a push
        removes one peg and none happens at ``top + 1`` pegs, so from ``s`` pegs the depth
        reaches ``s - top - 1`` and the stacks need ``s - top`` rows; ``stack_vals`` a column
        per pagoda (``loss_t``'s columns). The dead table's index is masked by its size less
        one (a power of two); filter words are indexed by a hash below ``2**bits`` over 64."""
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
                            return 1  # Outcome.FOUND
                        j += 1
                        continue
                    # No early exit: a straight loop over contiguous rows vectorises, which
                    # pays with dozens of pagodas.
                    short = 0
                    for k in range(npag):
                        short += stack_vals[d, k] - loss_t[j, k] < need_vals[k]
                    if short:
                        state[2] += 1  # a pagoda proves the child dead
                        j += 1
                        continue
                    if (above_top and not _maybe(above, above_bits, _canon(child, tables))) \
                            or lookup(dead, child):
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
                    return 2  # Outcome.BUDGET_USED
                continue
            insert_images(dead, pos, perms, n)
            state[3] += 1
            d -= 1
        state[0] = d
        return 0  # Outcome.EXHAUSTED

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
    def _beam(start, top, top_keys, need, to, flip, tables, pag_weights, loss_t, need_vals, dead,
              hard, nbr, width, bloom, bloom_bits):
        """A heuristic probe: keep the ``width`` most promising positions per peg count from
        ``start`` down to ``top`` pegs, where a position is alive exactly when its canonical
        form is in ``top_keys``. True only when such a position is reached (a proof that the
        goal can be reached); False proves nothing. ``loss_t[j, k]``: what jump ``j`` takes
        from pagoda ``k``; ``bloom``: as for :func:`run`.

        Each kept position carries its pagoda values (a child's are its parent's less the
        jump's loss, one contiguous row), so none is summed over the board again.

        Buffer bounds (checked by :func:`.kernel_checks.beam`): ``cur`` holds ``width`` positions
        and at most ``width`` are kept per level (``width >= 1``); a level has at most
        ``width * jumps`` children, the size of ``kids``/``parent``/``via``/``scores``/
        ``ranked``; the ``seen`` table has at least twice as many slots, so a probe always
        ends at a free one; scores are clipped to :data:`SCORE_LIMIT`, the last index of
        ``hist`` less one. Per-hole arrays (``hard``, ``nbr``, ``pag_weights`` rows) are read
        at the holes of a position, all below the board's size.
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
            vals[0, k] = _weight(start, pag_weights[k])
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
                if lookup(dead, kids[i]):
                    continue
                cur[ncur] = kids[i]
                j = via[i]
                for k in range(npag):
                    nxt_vals[ncur, k] = vals[parent[i], k] - loss_t[j, k]
                ncur += 1
            vals, nxt_vals = nxt_vals, vals
            count -= 1
        return False


    def run(top_keys, top, need, to, flip, loss_t, need_vals, tables, perms, n, dead,
            stack_pos, stack_next, stack_vals, state, budget, bloom, bloom_bits, above,
            above_bits) -> Outcome:
        """Run (or resume) the exact search held in the stack arrays for at most ``budget``
        positions (the arguments are those of the kernel :func:`_search_down`). Raises
        :class:`.kernel_checks.KernelInputError` when the arrays are too small for it."""
        kc.search_down(top, need, to, flip, loss_t, need_vals, tables, perms, n, dead,
                       stack_pos, stack_next, stack_vals, state, bloom_bits, bloom, above,
                       above_bits)
        return Outcome(_search_down(top_keys, top, need, to, flip, loss_t, need_vals, tables,
                                    perms, n, dead, stack_pos, stack_next, stack_vals, state,
                                    budget, bloom, bloom_bits, above, above_bits))

    def beam(start, top, top_keys, need, to, flip, tables, pag_weights, loss_t, need_vals, dead,
             hard, nbr, width, bloom, bloom_bits) -> bool:
        """The heuristic probe :func:`_beam` (same arguments), its inputs checked first
        (:func:`.kernel_checks.beam`)."""
        kc.beam(start, top, need, to, flip, tables, pag_weights, loss_t, need_vals, dead, hard,
                nbr, width, bloom, bloom_bits)
        return bool(_beam(start, top, top_keys, need, to, flip, tables, pag_weights, loss_t,
                          need_vals, dead, hard, nbr, width, bloom, bloom_bits))
