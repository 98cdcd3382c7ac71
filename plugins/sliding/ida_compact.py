"""Compiled IDA* over compact pattern databases (:mod:`.pdb_compact`), exact or weighted.

Heuristic: ``h = manhattan + 2 * max(sum of the table values on the board, the same on the board
mirrored in its main diagonal)``; each table value is ``(pattern distance - pattern manhattan)/2``
so the sum is the additive pattern-database bound (the Manhattan distance is the same on the
mirrored board).

The same kernel serves two searches:

* exact IDA* (``wnum = wden = 1``): every answer is a shortest one, and each completed
  iteration proves the shortest answer is at least the next threshold;
* weighted IDA* (``f = wden * g + wnum * h`` with ``wnum > wden``): a solution fast, at most
  ``wnum / wden`` times the shortest, used by the bounded solver. With a ``step`` above 1 each
  iteration's threshold rises by at least that much: far fewer iterations (a weighted threshold
  otherwise rises by a fraction of a move at a time), for answers up to ``step / wden`` moves
  longer.

``ub`` prunes every node whose admissible estimate ``g + h`` reaches it: only solutions shorter
than the best one known are looked for. With ``ub`` set, an exact iteration that ends with no
threshold left (``INF``) proves that none exists.

Like :mod:`.ida`, the search is resumable: the stack lives in arrays owned by the caller, a call
expands at most ``budget`` nodes, and the Python driver polls cancellation between calls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import kernel_checks as kc
from .ida import BUDGET, FOUND, GROW, INF, R_BOUND, R_DEPTH, R_EXPANDED, R_ITERS, R_NEXT, R_NODES, Search
from .pdb_compact import CompactTables
from .ranking import popcount32


@njit(cache=True, inline="always")
def _value(lookup, pos, packed, toff, tk, fac, tid, slot, rf, refl):
    """Table value of ``lookup`` for the tile positions ``pos``."""
    t = tid[lookup]
    k = tk[t]
    r = 0
    before = 0
    for j in range(k):
        p = pos[slot[lookup, j]]
        if rf[lookup]:
            p = refl[p]
        r += (p - popcount32(before & ((1 << p) - 1))) * fac[t, j]
        before |= 1 << p
    e = toff[t] + r
    return (packed[t][e >> 1] >> ((e & 1) << 2)) & 15


@njit(cache=True)
def root_values(pos, packed, toff, tk, fac, tid, slot, rf, refl, npat, vals):
    """Fill ``vals[lookup]`` for every lookup; return (normal sum, mirrored sum)."""
    sn = 0
    sm = 0
    for lookup in range(2 * npat):
        v = _value(lookup, pos, packed, toff, tk, fac, tid, slot, rf, refl)
        vals[lookup] = v
        if lookup < npat:
            sn += v
        else:
            sm += v
    return sn, sm


@njit(cache=True, nogil=True)
def run_compact(tiles, pos, nbr, goal_cell, cols, regs, bpos, dirs, md, sn, sm, un, um, vals,
                packed, toff, tk, fac, tid, slot, rf, refl, ln, lm, wnum, wden, ub, budget,
                step=1):
    """Resume an IDA* search (see the module doc). ``md[d]``, ``sn[d]``, ``sm[d]``: Manhattan
    distance and the two table sums at depth d; ``un[d]``/``um[d]``: the lookup values the move
    into depth d replaced, restored on the way back.

    ``step``: each iteration's threshold is at least this much above the last one (1: the
    least f that went over, plain IDA*).

    Buffer bounds: the stacks are written at depths up to ``threshold // wden`` (and below
    ``ub``), which the driver keeps two below their length (:func:`.ida.deepest_index`); the
    kernel returns ``GROW`` before an iteration whose threshold would not fit. A lookup's
    rank is below its table's placements (distinct cells), inside ``packed``."""
    depth = regs[R_DEPTH]
    bound = regs[R_BOUND]
    nxt = regs[R_NEXT]
    nodes = 0
    expanded = 0
    cap = bpos.shape[0]
    while nodes < budget:
        d = depth
        k = dirs[d]
        if k == 4:
            if d == 0:
                regs[R_ITERS] += 1
                # The next threshold: the least f that went over, but at least ``step`` more.
                bound = nxt if nxt >= bound + step else bound + step
                nxt = INF
                if bound >= INF or (bound + wden) // wden + 2 >= cap:
                    regs[R_BOUND] = bound
                    regs[R_NEXT] = nxt
                    regs[R_DEPTH] = 0
                    regs[R_NODES] += nodes
                    regs[R_EXPANDED] += expanded
                    return GROW
                dirs[0] = 0
                continue
            b = bpos[d]
            p = bpos[d - 1]
            t = tiles[p]
            tiles[b] = t
            tiles[p] = 0
            pos[t] = b
            vals[ln[t]] = un[d]
            vals[lm[t]] = um[d]
            depth = d - 1
            continue
        dirs[d] = k + 1
        if k == 0:
            expanded += 1
        b = bpos[d]
        q = nbr[b, k]
        if q < 0 or (d > 0 and q == bpos[d - 1]):
            continue
        t = tiles[q]
        g = goal_cell[t]
        if k >= 2:
            gc = g % cols
            dm = abs(b % cols - gc) - abs(q % cols - gc)
        else:
            gr = g // cols
            dm = abs(b // cols - gr) - abs(q // cols - gr)
        pos[t] = b
        a = ln[t]
        c = lm[t]
        nv = _value(a, pos, packed, toff, tk, fac, tid, slot, rf, refl)
        mv = _value(c, pos, packed, toff, tk, fac, tid, slot, rf, refl)
        s1 = sn[d] - vals[a] + nv
        s2 = sm[d] - vals[c] + mv
        nm = md[d] + dm
        h = nm + 2 * (s1 if s1 > s2 else s2)
        nodes += 1
        g1 = d + 1
        if g1 + h >= ub:
            pos[t] = q
            continue
        f = wden * g1 + wnum * h
        if f > bound:
            if f < nxt:
                nxt = f
            pos[t] = q
            continue
        tiles[b] = t
        tiles[q] = 0
        depth = g1
        bpos[depth] = q
        dirs[depth] = 0
        md[depth] = nm
        sn[depth] = s1
        sm[depth] = s2
        un[depth] = vals[a]
        um[depth] = vals[c]
        vals[a] = nv
        vals[c] = mv
        if nm == 0:
            regs[R_DEPTH] = depth
            regs[R_BOUND] = bound
            regs[R_NEXT] = nxt
            regs[R_NODES] += nodes
            regs[R_EXPANDED] += expanded
            return FOUND
    regs[R_DEPTH] = depth
    regs[R_BOUND] = bound
    regs[R_NEXT] = nxt
    regs[R_NODES] += nodes
    regs[R_EXPANDED] += expanded
    return BUDGET


class CompactSearch(Search):
    """One resumable (weighted) IDA* search over compact tables, standard goal.

    ``run(poll)`` (:meth:`.ida.Search.run`) searches until a solution (the list of tiles
    moved), exhaustion (None, with ``exhausted`` True: no solution shorter than ``ub`` exists)
    or ``poll(stats)`` returning True (None). After an exact search, ``proven_lower_bound()`` is
    what the completed iterations proved about the shortest solution's length.
    """

    stack_arrays = (("md", np.int64), ("sn", np.int64), ("sm", np.int64), ("un", np.int64),
                    ("um", np.int64))

    def __init__(self, tiles, tables: CompactTables, weight: tuple[int, int] = (1, 1),
                 ub: int = INF, step: int = 1):
        t = tables
        super().__init__(tiles, t.rows, t.cols)
        self.t = t
        n = t.rows * t.cols
        self.pos = np.zeros(n, dtype=np.int64)
        for cell, tile in enumerate(self.tiles):
            self.pos[tile] = cell
        self.goal_cell = np.array([n - 1] + list(range(n - 1)), dtype=np.int64)
        self.wnum, self.wden = weight
        self.ub = int(ub)
        self.step = int(step)
        self.vals = np.zeros(2 * t.npat, dtype=np.int64)
        sn, sm = root_values(self.pos, t.packed, t.toff, t.tk, t.fac, t.tid, t.slot, t.rf,
                             t.refl, t.npat, self.vals)
        md = 0
        for cell, tile in enumerate(self.tiles):
            if tile:
                g = tile - 1
                md += abs(cell // self.cols - g // self.cols) + abs(cell % self.cols - g % self.cols)
        self.h0 = int(md + 2 * max(sn, sm))
        self._root = (int(md), int(sn), int(sm))

    def root_h(self) -> int:
        return self.h0

    def _set_root(self, h0: int) -> None:
        self.md[0], self.sn[0], self.sm[0] = self._root

    def _check(self) -> None:
        super()._check()
        n, t = self.rows * self.cols, self.t
        kc.per_tile("CompactSearch", n, pos=self.pos, goal_cell=self.goal_cell, ln=t.ln,
                    lm=t.lm, refl=t.refl)
        kc.require(self.vals.shape[0] == 2 * t.npat, "CompactSearch", "a value per lookup")
        kc.require(self.wden >= 1 and self.wnum >= self.wden, "CompactSearch",
                   f"a weight of {self.wnum}/{self.wden}")
        kc.require(self.step >= 1, "CompactSearch", f"a threshold step of {self.step}")

    def _call(self, budget: int) -> int:
        t = self.t
        return run_compact(self.tiles, self.pos, self.nbr, self.goal_cell, self.cols, self.regs,
                           self.bpos, self.dirs, self.md, self.sn, self.sm, self.un, self.um,
                           self.vals, t.packed, t.toff, t.tk, t.fac, t.tid, t.slot, t.rf,
                           t.refl, t.ln, t.lm, self.wnum, self.wden, self.ub, budget,
                           self.step)

    def stats(self) -> dict:
        # A weighted threshold is no length: leave it out (the exact ones show in the bound
        # the solver reports).
        stats = super().stats()
        del stats["bound"]
        return stats

    def proven_lower_bound(self) -> int:
        """Shortest-solution length proven by the heuristic and the exact iterations done.

        An exact iteration runs with threshold T only after the one below it found nothing:
        every node on a shortest path has f <= its length (the heuristic is admissible), so the
        shortest length is at least T, or else it is the best known ``ub`` itself. Lengths have
        the parity of the Manhattan distance, so the bound is rounded up to it.
        """
        lb = self.h0
        if self.wnum == self.wden and self.step == 1:
            if self.exhausted:
                return self.ub
            lb = max(lb, min(int(self.regs[R_BOUND]) // self.wden, self.ub))
        return int(lb + ((lb - self.h0) & 1))
