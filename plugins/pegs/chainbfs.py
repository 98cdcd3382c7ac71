"""Fewest moves by breadth-first search over chain moves, restricted to positions that can still
reach the goal (boards of at most 64 holes, compiled with numba).

A *move* is a chain of jumps by one peg; every prefix of a chain is itself a move. Level ``k``
of the search holds the positions first reached with ``k`` moves, as canonical ``uint64``
bitboards under the symmetries that fix the goal (such a symmetry maps moves to moves and the
goal to itself, so a position and its image are equally far from the goal). A level is
expanded by a depth-first walk over the chains of each peg of each position; a position is kept
only if the exact table of positions that can reach the goal (:class:`.verdict.Judge`) has it
(above the table's top peg count, only if the goal's pagoda functions allow it), and only the
first time it is seen. Every level is complete before the next one starts, so the first level
holding the goal is the fewest moves, proved; the chains are rebuilt from parent links kept in
the visited hash table.

On the English board with the full table (every position, up to symmetry, that can reach d4)
the search meets only the 1.7 million or so positions reachable from the start that can still
finish.
"""

from __future__ import annotations

import numpy as np

from engine import format_number

from . import kernel_checks as kc
from . import levels as lv
from .i18n import _

AVAILABLE = lv.AVAILABLE
if AVAILABLE:
    from numba import njit
    from numba.typed import List

    from .levels import canon

#: Positions (parents) handed to the kernel per call, between looks at the clock.
CHUNK = 2048
#: Most positions kept in the visited table (16 bytes each at half load: 20 million ~ 640 MB).
MAX_POSITIONS = 20_000_000
#: Initial size of the visited table (log2 of its slots; it doubles as needed) and of a level.
TABLE_BITS, LEVEL_MIN = 20, 1024
#: Kernel answers.
DONE, FOUND, FULL = 0, 1, 2


class Stopped(Exception):
    """The search stopped (deadline, cancelled, or the position cap): the proved lower bound
    on the number of moves and the positions visited."""

    def __init__(self, reason: str, visited: int, bound: int):
        super().__init__(reason)
        self.reason, self.visited, self.bound = reason, visited, bound


if AVAILABLE:

    @njit(cache=True)
    def _popcount(x):
        m1, m2 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333)
        x = x - ((x >> np.uint64(1)) & m1)
        x = (x & m2) + ((x >> np.uint64(2)) & m2)
        x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
        return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))

    @njit(cache=True)
    def _member(keys, x):
        lo, hi = 0, keys.shape[0]
        while lo < hi:
            mid = (lo + hi) >> 1
            if keys[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        return lo < keys.shape[0] and keys[lo] == x

    @njit(cache=True)
    def _slot(x, shift):
        return np.int64((x * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift))

    @njit(cache=True)
    def find(hkeys, shift, x):
        """Slot of ``x`` in the visited table, -1 when absent."""
        mask = hkeys.shape[0] - 1
        h = _slot(x, shift)
        while True:
            v = hkeys[h]
            if v == x:
                return h
            if v == np.uint64(0):
                return -1
            h = (h + 1) & mask

    @njit(cache=True)
    def rehash(hkeys, hpar, nkeys, npar, shift):
        mask = nkeys.shape[0] - 1
        for i in range(hkeys.shape[0]):
            x = hkeys[i]
            if x == np.uint64(0):
                continue
            h = _slot(x, shift)
            while nkeys[h] != np.uint64(0):
                h = (h + 1) & mask
            nkeys[h] = x
            npar[h] = hpar[i]

    @njit(cache=True, nogil=True)
    def expand(frontier, lo, hi, jstart, jover, jto, n, alive, top, pag_weights, need_vals,
               tables, goal, hkeys, hpar, shift, limit, out, state):
        """Add every position one chain move from ``frontier[lo:hi]`` that can reach the goal
        and is not yet visited to ``hkeys``/``hpar`` (with its parent) and to ``out``.

        ``state[0]``: positions in the table; ``state[1]``: positions in ``out``; ``state[2]``:
        the goal's key when found. Returns (FOUND | FULL | DONE, index to resume at): FULL when
        the table reached ``limit`` or ``out`` is full (grow them, then call again from there;
        a parent expanded twice adds nothing twice).

        Buffer bounds (checked by :func:`.kernel_checks.chain_expand` before every call): a
        chain by one peg removes a peg per jump, so it is at most ``n - 1`` jumps and the chain
        stacks of ``n + 1`` rows hold it; the table has ``2**(64 - shift)`` slots, the range of
        the hash shifted by ``shift``, and takes at most ``limit`` positions, fewer than its
        slots, so a probe always ends at a free one; ``out`` is tested before each write.
        """
        mask = hkeys.shape[0] - 1
        spos = np.zeros(n + 1, dtype=np.uint64)
        sat = np.zeros(n + 1, dtype=np.int64)
        snext = np.zeros(n + 1, dtype=np.int64)
        npag = pag_weights.shape[0]
        one = np.uint64(1)
        for i in range(lo, hi):
            pos = frontier[i]
            for a in range(n):
                if (pos >> np.uint64(a)) & one == 0:
                    continue
                depth = 0
                spos[0] = pos
                sat[0] = a
                snext[0] = jstart[a]
                while depth >= 0:
                    at = sat[depth]
                    k = snext[depth]
                    if k == jstart[at + 1]:
                        depth -= 1
                        continue
                    snext[depth] = k + 1
                    cur = spos[depth]
                    over = jover[k]
                    to = jto[k]
                    if (cur >> np.uint64(over)) & one == 0 or (cur >> np.uint64(to)) & one != 0:
                        continue
                    child = cur ^ ((one << np.uint64(at)) | (one << np.uint64(over))
                                   | (one << np.uint64(to)))
                    pegs = _popcount(child)
                    c = canon(child, tables)
                    if pegs <= top:
                        if not _member(alive[pegs], c):
                            continue  # dead, and so is every continuation of the chain
                    else:
                        dead = False
                        for q in range(npag):
                            total = 0
                            for b in range(n):
                                if (child >> np.uint64(b)) & one:
                                    total += pag_weights[q, b]
                            if total < need_vals[q]:
                                dead = True
                                break
                        if dead:
                            continue
                    h = _slot(c, shift)
                    while True:
                        v = hkeys[h]
                        if v == c or v == np.uint64(0):
                            break
                        h = (h + 1) & mask
                    if hkeys[h] == np.uint64(0):
                        if state[0] >= limit or state[1] >= out.shape[0]:
                            return FULL, i
                        hkeys[h] = c
                        hpar[h] = pos
                        state[0] += 1
                        out[state[1]] = c
                        state[1] += 1
                        if (goal == np.uint64(0) and pegs == 1) or c == goal:
                            state[2] = c
                            return FOUND, i
                    # The chain goes on from here by the same peg, seen or not: its
                    # continuations are one move from the parent.
                    depth += 1
                    spos[depth] = child
                    sat[depth] = to
                    snext[depth] = jstart[to]
        return DONE, hi


def _jump_table(board):
    """Jumps grouped by starting hole: ``jover[jstart[a]:jstart[a + 1]]`` (and ``jto``)."""
    by_from = [[] for _hole in range(board.n)]
    for f, o, t in board.jumps:
        by_from[f].append((o, t))
    jstart, jover, jto = [0], [], []
    for lst in by_from:
        for o, t in lst:
            jover.append(o)
            jto.append(t)
        jstart.append(len(jover))
    return (np.array(jstart, np.int64), np.array(jover, np.int64), np.array(jto, np.int64))


def fewest_moves_bfs(problem, judge, ctx, max_positions: int | None = None):
    """(jump indices, moves, positions visited) of a solution with the fewest moves, None as
    the first item when no solution exists. ``judge``: the :class:`.verdict.Judge` of the
    problem's board and goal (compiled). Raises :class:`Stopped` when ``ctx`` says stop or the
    visited positions would exceed ``max_positions`` (default :data:`MAX_POSITIONS`)."""
    p = problem
    max_positions = MAX_POSITIONS if max_positions is None else max_positions
    n = p.board.n
    tables = judge.tables
    jstart, jover, jto = _jump_table(p.board)
    top = judge.top
    empty = np.zeros(0, np.uint64)
    alive = List()
    for k in range(top + 1):
        level = judge.levels.get(k)
        alive.append(empty if level is None else level)
    pags = p.pagodas
    pag_weights = np.array([pg.weights for pg in pags], np.int64).reshape(len(pags), n)
    need_vals = np.array([pg.value(p.goal) for pg in pags], np.int64)
    goal = np.uint64(canon(np.uint64(p.goal), tables)) if p.goal else np.uint64(0)

    start = np.uint64(canon(np.uint64(p.start), tables))
    if p.start.bit_count() <= top and not judge.is_alive(p.start):
        return None, 0, 0
    bits = TABLE_BITS
    hkeys = np.zeros(1 << bits, np.uint64)
    hpar = np.zeros(1 << bits, np.uint64)
    hkeys[find_free(hkeys, 64 - bits, start)] = start
    state = np.zeros(3, np.int64)
    state[0] = 1
    frontier = np.array([start], np.uint64)
    level = 0
    while len(frontier):
        out = np.empty(max(LEVEL_MIN, 2 * len(frontier)), np.uint64)
        state[1] = 0
        i = 0
        while i < len(frontier):
            if ctx.should_stop():
                raise Stopped(ctx.stop_reason() or "deadline", int(state[0]), level + 1)
            hi = min(len(frontier), i + CHUNK)
            limit = min(max_positions, (len(hkeys) * 5) // 8)
            kc.chain_expand(frontier, jstart, jover, jto, n, alive, top, pag_weights, need_vals,
                            hkeys, hpar, 64 - bits, limit, out)
            code, i = expand(frontier, i, hi, jstart, jover, jto, n, alive, top, pag_weights,
                             need_vals, tables, goal, hkeys, hpar, 64 - bits, limit, out, state)
            if code == FOUND:
                keys = _path(hkeys, hpar, 64 - bits, np.uint64(state[2]))
                return _replay(p, tables, keys), level + 1, int(state[0])
            if code == FULL:
                if state[1] >= len(out):
                    out = np.concatenate([out, np.empty(len(out), np.uint64)])
                if state[0] >= limit:
                    if limit >= max_positions:
                        raise Stopped(_("more than {count} positions").format(
                                          count=format_number(max_positions)),
                                      int(state[0]), level + 1)
                    bits += 1
                    nkeys = np.zeros(1 << bits, np.uint64)
                    npar = np.zeros(1 << bits, np.uint64)
                    rehash(hkeys, hpar, nkeys, npar, 64 - bits)
                    hkeys, hpar = nkeys, npar
            ctx.progress(moves=level + 1, positions=int(state[0]), frontier=int(state[1]))
        frontier = out[:state[1]].copy()
        level += 1
        ctx.progress(force=True, moves=level, positions=int(state[0]), level=len(frontier))
    return None, level, int(state[0])


def find_free(hkeys, shift, x):
    """The slot where ``x`` goes in an empty-enough table (Python; used once per search)."""
    mask = len(hkeys) - 1
    h = int(_slot(np.uint64(x), shift))
    while hkeys[h] != 0 and hkeys[h] != x:
        h = (h + 1) & mask
    return h


def _path(hkeys, hpar, shift, key) -> list[int]:
    """Canonical positions from the start to ``key``, by the parent links."""
    keys = []
    while key:
        keys.append(int(key))
        key = hpar[find(hkeys, shift, key)]
    keys.reverse()
    return keys


def _replay(p, tables, keys: list[int]) -> list[int]:
    """Jump indices from the actual start through positions whose canonical forms are
    ``keys[1:]``: each step is a chain by one peg (the symmetry group maps moves to moves)."""
    jumps_from: dict[int, list[tuple[int, int, int]]] = {}
    for j, (f, o, t) in enumerate(p.board.jumps):
        jumps_from.setdefault(f, []).append((o, t, j))
    pos = p.start
    out: list[int] = []
    for want in keys[1:]:
        found = _chain_to(pos, want, jumps_from, tables)
        if found is None:  # pragma: no cover - would be a bug in the kernel
            raise RuntimeError("fewest moves: the parent links do not replay")
        pos, chain = found
        out += chain
    return out


def _chain_to(pos, want, jumps_from, tables):
    for a in range(pos.bit_length()):
        if not pos >> a & 1:
            continue
        todo = [(pos, a, [])]
        while todo:
            cur, at, chain = todo.pop()
            for o, t, j in jumps_from.get(at, ()):
                if cur >> o & 1 and not cur >> t & 1:
                    child = cur ^ (1 << at | 1 << o | 1 << t)
                    if int(canon(np.uint64(child), tables)) == want:
                        return child, chain + [j]
                    todo.append((child, t, chain + [j]))
    return None
