"""The peg search kit: the pieces every peg search shares.

A :class:`Problem` is an instance in compact form (bitboards: Python ints, bit k = hole k of
:class:`~.board.Board`) with its jumps, goal-preserving symmetries and pagoda functions. On it:

* :func:`quick_verdict`: a proof of unsolvability without search (counts, position class,
  pagodas);
* :func:`backward_levels` and :func:`finish_from`: the *backward set*, every position with few
  pegs from which the goal can be reached, and the path down from one of its members;
* :func:`beam_probe`: a heuristic beam from the start to the backward set (finds, never proves);
* :func:`exact_dfs`: the exact depth-first search in Python (any board size), and
  :class:`CompiledSearch`: the same search run by the compiled kernel (:func:`.fastdfs.run`)
  for boards of at most 64 holes.

The ``search`` solver (:mod:`.solver`), the live verdict (:mod:`.judge`) and the fewest-jumps
solver (:mod:`.fewest`) are built from these. A search raises :class:`Stop` when its context
says stop and :class:`Capped` when it used up the positions it was given.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from engine import SolveContext, format_number

from . import fastdfs
from . import levels as lv
from .board import Board, PegInstance
from .classes import class_verdict
from .i18n import _
from .pagoda import Pagoda, pagodas_for
from .symmetry import Canonicaliser, goal_symmetries
from .wording import pagoda_label

#: Most entries kept in the dead-position table (about 100 bytes each; a dead position is stored
#: with its symmetric images) before it is cleared.
DEAD_LIMIT = 4_000_000
#: How often (in positions) the search checks the deadline and reports progress.
CHECK_EVERY = 2048


class Stop(Exception):
    """Raised inside the search to unwind when the context says stop."""


class Capped(Exception):
    """Raised inside a capped exact search when it used up its positions."""


@dataclass
class Problem:
    """An instance in the solver's compact form, with its pruning tables."""

    board: Board
    start: int
    goal: int  # 0: one peg anywhere
    jumps: list[tuple[int, int, int, int]]  # (need = from|over, to bit, flip, jump index)
    canon: Canonicaliser
    pagodas: tuple[Pagoda, ...]
    symmetry_count: int

    @property
    def goal_pegs(self) -> int:
        return self.goal.bit_count() if self.goal else 1

    def is_goal(self, pos: int) -> bool:
        return pos == self.goal if self.goal else pos.bit_count() == 1

    def move_name(self, index: int) -> str:
        f, _over, t = self.board.jumps[index]
        return f"{self.board.names[f]}-{self.board.names[t]}"


def compile_problem(inst: PegInstance, *, use_symmetry: bool = True) -> Problem:
    board = inst.board
    start, goal = board.to_compact(inst.pegs), board.to_compact(inst.goal)
    perms = goal_symmetries(board, goal) if use_symmetry else board.symmetries()[:1]
    return Problem(board=board, start=start, goal=goal, jumps=_ordered_jumps(board, goal),
                   canon=_canonicaliser(board, tuple(perms)), pagodas=pagodas_for(board, goal),
                   symmetry_count=len(perms))


@lru_cache(maxsize=64)
def _canonicaliser(board: Board, perms: tuple[tuple[int, ...], ...]) -> Canonicaliser:
    return Canonicaliser(list(perms), board.n)


def _ordered_jumps(board: Board, goal: int) -> list[tuple[int, int, int, int]]:
    """Jumps as (need, to bit, flip, index) in the board's own order (reading order of the
    starting hole, then right, down, left, up...). The heuristic probes rank positions
    themselves; for the exact search this plain order proved as good as any distance-based
    one we tried (the English central game: about 1,000 positions)."""
    out = []
    for j, (f, o, t) in enumerate(board.jumps):
        out.append(((1 << f) | (1 << o), 1 << t, (1 << f) | (1 << o) | (1 << t), j))
    return out


# -- the backward set ---------------------------------------------------------------------------


def backward_levels(problem: Problem, budget: int, ctx: SolveContext | None = None,
                    stop_at: int | None = None,
                    levels: dict[int, set[int]] | None = None) -> dict[int, set[int]]:
    """``levels[k]``: canonical positions with ``k`` pegs from which the goal can be reached.

    Built by reverse jumps from the goal (or from every single hole in the start's class, for
    "one peg anywhere"); grows level by level while the total stays within ``budget`` and ``k``
    stays below ``stop_at`` (the start's peg count). Pass ``levels`` to extend a smaller set.
    An empty level means no position with that many pegs can reach the goal.
    """
    p = problem
    canon = p.canon.canon
    if not levels:
        if p.goal:
            first = {canon(p.goal)}
        else:
            verdict = class_verdict(p.board, p.start, 0)
            allowed = {p.board.names.index(name) for name in verdict.holes_by_class}
            first = {canon(1 << k) for k in allowed}
        levels = {p.goal_pegs: first}
    k = max(levels)
    total = sum(len(s) for s in levels.values())
    stop_at = stop_at if stop_at is not None else p.board.n
    while k + 1 < stop_at and levels[k]:
        current = levels[k]
        # Levels grow by a roughly steady factor: do not start one that will not fit.
        growth = len(current) / max(1, len(levels.get(k - 1, ())))
        if total + len(current) * min(growth, 8) > budget:
            break
        nxt = set()
        for i, pos in enumerate(current):
            if ctx is not None and i % 256 == 0 and ctx.should_stop():
                raise Stop
            for need, to, flip, _j in p.jumps:
                # Reverse jump: a peg at "to", holes "from" and "over" empty.
                if pos & to and not pos & need:
                    nxt.add(canon(pos ^ flip))
        k += 1
        levels[k] = nxt
        total += len(nxt)
    return levels


def finish_from(problem: Problem, pos: int, levels: dict[int, set[int]]) -> list[int]:
    """Jump indices from ``pos`` (in the backward set) down to the goal, read off the levels."""
    moves = []
    canon = problem.canon.canon
    k = pos.bit_count()
    while k > problem.goal_pegs:
        below = levels[k - 1]
        for need, to, flip, j in problem.jumps:
            if pos & need == need and not pos & to and canon(pos ^ flip) in below:
                pos ^= flip
                moves.append(j)
                break
        else:  # cannot happen: every member of a level came from one below it
            raise AssertionError("backward set is inconsistent")
        k -= 1
    if not problem.is_goal(pos):
        # Cannot happen either: the symmetries in use map the goal to itself, so the only
        # position whose canonical form is the goal's is the goal.
        raise AssertionError("backward path does not end at the goal")
    return moves


# -- the beam probe -----------------------------------------------------------------------------


def _difficulty_weights(board: Board) -> tuple[list[int], list[int]]:
    """Per hole: how hard a peg there is to remove (few lines jump over it), and its neighbours."""
    over = [0] * board.n
    neighbours = [0] * board.n
    for f, o, _t in board.jumps:
        over[o] += 1
        neighbours[f] |= 1 << o
    return [8 // (1 + c) for c in over], neighbours


def beam_probe(problem: Problem, levels: dict[int, set[int]], width: int,
               ctx: SolveContext, counter: list[int]) -> list[int] | None:
    """A heuristic breadth-first probe: keep the ``width`` most promising positions per peg
    count (fewest stranded pegs, fewest pegs on holes that are hard to clear) until the
    backward set's peg count, then look for one in the set. Finds most solvable problems fast;
    finding nothing proves nothing (the exact search follows)."""
    p = problem
    canon = p.canon.canon
    hard, neighbours = _difficulty_weights(p.board)
    meet = max(levels)
    meet_set = levels[meet]

    def score(pos: int) -> int:
        total = 0
        bits = pos
        k = 0
        while bits:
            if bits & 1:
                total += hard[k]
                if not pos & neighbours[k]:
                    total += 3  # a stranded peg: nothing next to it to jump with
            bits >>= 1
            k += 1
        return total

    beam = [canon(p.start)]
    parents: list[dict[int, int]] = []
    count = p.start.bit_count()
    while count > meet and beam:
        children: dict[int, int] = {}
        for pos in beam:
            for need, to, flip, _j in p.jumps:
                if pos & need == need and not pos & to:
                    child = canon(pos ^ flip)
                    if child not in children:
                        children[child] = pos
            counter[0] += 1
            if counter[0] % 128 == 0:
                if ctx.should_stop():
                    raise Stop
                ctx.progress(nodes=counter[0], pegs=count - 1, phase=f"probe {width}")
        count -= 1
        if count == meet:
            beam = [c for c in children if c in meet_set]
        else:
            beam = sorted(children, key=lambda c: (score(c), c))[:width]
        # Keep only the kept positions' parent links (memory stays width x peg count).
        parents.append({c: children[c] for c in beam})
        if count == meet:
            break
    if not beam or count != meet:
        return None
    # Walk the parent links back to the start, then replay them on real (uncanonical) boards.
    chain = [beam[0]]
    for children in reversed(parents):
        chain.append(children[chain[-1]])
    chain.reverse()
    pos, moves = p.start, []
    for target in chain[1:]:
        for need, to, flip, j in p.jumps:
            if pos & need == need and not pos & to and canon(pos ^ flip) == target:
                pos ^= flip
                moves.append(j)
                break
    return moves + finish_from(p, pos, levels)




def exact_dfs(p: Problem, levels: dict[int, set[int]], ctx: SolveContext, counter: list[int],
               dead: set[int], cap: int | None = None) -> list[int] | None:
    """Depth-first search with the dead table, pagoda pruning and the meeting test.

    A child is looked up in the dead table (and, one peg above the meeting level, in the
    backward set) before recursing, so ``counter[0]`` counts positions actually expanded, as the
    textbook search counts its visited set. A dead position is stored with all its images under
    the goal-preserving symmetries, so that the far more frequent lookups need no
    canonicalisation. Pagoda totals are carried down incrementally.
    """
    start_count = p.start.bit_count()
    meet = max(levels) if levels else p.goal_pegs
    meet_set = levels.get(meet)
    canon = p.canon.canon
    images = p.canon.images
    # Up to two pagodas, as per-jump weight losses; a missing one is all zeros (never prunes).
    pags = list(p.pagodas[:2]) + [None] * (2 - len(p.pagodas[:2]))
    need = [pg.value(p.goal) if pg else 0 for pg in pags]
    loss = [[(pg.weights[f] + pg.weights[o] - pg.weights[t]) if pg else 0
             for f, o, t in p.board.jumps] for pg in pags]
    jumps = [(nd, to, flip, j, loss[0][j], loss[1][j]) for nd, to, flip, j in p.jumps]
    need0, need1 = need
    path: list[int] = []

    # The meeting level with every symmetric image of its members, so that the (many) lookups
    # one peg above it need no canonicalising.
    meet_lookup = None
    if meet_set is not None and start_count > meet:
        meet_lookup = set()
        for member in meet_set:
            meet_lookup.update(images(member))

    def arrived(pos: int) -> bool:
        return pos in meet_lookup if meet_lookup is not None else p.is_goal(pos)

    def dfs(pos: int, count: int, v0: int, v1: int) -> bool:
        counter[0] += 1
        if counter[0] % CHECK_EVERY == 0:
            if ctx.should_stop():
                raise Stop
            if cap is not None and counter[0] >= cap:
                raise Capped
            if len(dead) > DEAD_LIMIT:
                dead.clear()  # forgetting dead positions only costs time, never correctness
            ctx.progress(nodes=counter[0], pegs=count, dead=counter[2], phase="exact search")
        last = count - 1 == meet
        for nd, to, flip, j, l0, l1 in jumps:
            if pos & nd == nd and not pos & to:
                child = pos ^ flip
                if last:
                    if arrived(child):
                        path.append(j)
                        return True
                    continue
                c0, c1 = v0 - l0, v1 - l1
                if c0 < need0 or c1 < need1:
                    counter[1] += 1  # a pagoda proves the child dead
                    continue
                if child in dead:
                    continue
                if dfs(child, count - 1, c0, c1):
                    path.append(j)
                    return True
        dead.update(images(pos))
        counter[2] += 1
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * start_count + 200))
    try:
        start_values = [pg.value(p.start) if pg else 0 for pg in pags]
        if start_count < meet or start_values[0] < need0 or start_values[1] < need1:
            found = False
        elif start_count == meet:
            found = meet_set is not None and canon(p.start) in meet_set or p.is_goal(p.start)
        else:
            found = p.start not in dead and dfs(p.start, start_count, *start_values)
    finally:
        sys.setrecursionlimit(limit)
    if not found:
        return None
    path.reverse()
    flips = jumps_by_index(p)
    pos = p.start
    for j in path:
        pos ^= flips[j]
    return path + (finish_from(p, pos, levels) if meet_set is not None else [])


class CompiledSearch:
    """The exact search run by the compiled kernel (:func:`.fastdfs.run`), for boards of at
    most 64 holes.

    One per solve: its dead table (seeded with the Python search's dead positions) lives across
    the stages, like the Python one. The kernel meets a sorted level; here that level holds
    every symmetric image of the meeting level's members under the identity "symmetry", so the
    meeting test needs no canonicalising, exactly as in :func:`exact_dfs`.
    """

    def __init__(self, p: Problem, dead: set[int]):
        self.p = p
        self.need = np.array([nd for nd, _, _, _ in p.jumps], dtype=np.uint64)
        self.to = np.array([to for _, to, _, _ in p.jumps], dtype=np.uint64)
        self.flip = np.array([fl for _, _, fl, _ in p.jumps], dtype=np.uint64)
        pags = list(p.pagodas[:2]) + [None] * (2 - len(p.pagodas[:2]))
        self.need_values = np.array([pg.value(p.goal) if pg else 0 for pg in pags], np.int64)
        # What each jump takes from each pagoda: a row per jump, as the kernel reads it.
        self.loss_t = np.array([[(pg.weights[f] + pg.weights[o] - pg.weights[t]) if pg else 0
                                 for pg in pags]
                                for f, o, t in (p.board.jumps[j] for *_, j in p.jumps)],
                               dtype=np.int64).reshape(len(p.jumps), 2)
        perms = p.canon.perms or [tuple(range(p.board.n))]
        self.perms = np.array(perms, dtype=np.int64).reshape(len(perms), p.board.n)
        self.identity = lv.byte_tables([tuple(range(p.board.n))], p.board.n)
        # The filter of the level above the meeting level: none here (it passes everything).
        self.above = np.full(1, ~np.uint64(0), np.uint64)
        self.table = np.zeros(1 << fastdfs.TABLE_BITS, dtype=np.uint64)
        if dead:
            fastdfs.insert_all(self.table, np.fromiter(dead, dtype=np.uint64, count=len(dead)))

    def meet_sorted(self, levels: dict[int, set[int]]) -> np.ndarray:
        """The meeting level with every symmetric image, sorted (the kernel bisects it)."""
        images = self.p.canon.images
        return np.unique(np.array([x for m in levels[max(levels)] for x in images(m)],
                                  dtype=np.uint64))

    def run(self, levels: dict[int, set[int]], ctx: SolveContext, counter: list[int],
            cap: int | None, *, chunk: int = fastdfs.BUDGET) -> list[int] | None:
        """The exact search from the problem's start down to the meeting level; ``chunk``
        positions between deadline checks. Raises :class:`Stop` and :class:`Capped`."""
        p = self.p
        start = p.start
        start_count = start.bit_count()
        meet = max(levels)
        meet_sorted = self.meet_sorted(levels)
        # About 32 bits per member: most misses of the meeting test end in the filter.
        bloom_bits = max(10, min(29, (32 * len(meet_sorted)).bit_length()))
        bloom = lv.bloom_filter(meet_sorted, bloom_bits)
        start_values = [pg.value(start) for pg in p.pagodas[:2]] + [0] * (2 - len(p.pagodas[:2]))
        if start_count <= meet or any(v < need for v, need in zip(start_values, self.need_values)):
            return None  # handled by the Python search (never reached from search())
        size = start_count + 2
        stack_pos = np.zeros(size, dtype=np.uint64)
        stack_next = np.zeros(size, dtype=np.int64)
        stack_vals = np.zeros((size, 2), dtype=np.int64)
        stack_pos[0] = start
        stack_vals[0] = start_values
        state = np.zeros(4, dtype=np.int64)  # [depth, expanded, pagoda prunes, proved dead]
        base = list(counter)
        while True:
            budget = chunk
            if cap is not None:
                budget = min(budget, max(1, cap - counter[0]))
            outcome = fastdfs.run(meet_sorted, meet, self.need, self.to, self.flip, self.loss_t,
                                  self.need_values, self.identity, self.perms, p.board.n,
                                  self.table, stack_pos, stack_next, stack_vals, state, budget,
                                  bloom, bloom_bits, self.above, 6)
            counter[0] = base[0] + int(state[1])
            counter[1] = base[1] + int(state[2])
            counter[2] = base[2] + int(state[3])
            if outcome is fastdfs.Outcome.EXHAUSTED:
                return None
            if outcome is fastdfs.Outcome.FOUND:
                depth = int(state[0])
                order = [int(stack_next[i]) - 1 for i in range(depth + 1)]
                pos = start
                for k in order:
                    pos ^= p.jumps[k][2]
                return [p.jumps[k][3] for k in order] + finish_from(p, pos, levels)
            if ctx.should_stop():
                raise Stop
            if cap is not None and counter[0] >= cap:
                raise Capped
            ctx.progress(nodes=counter[0], pegs=start_count - int(state[0]), dead=counter[2],
                         phase="exact search (compiled)")


def jumps_by_index(problem: Problem) -> dict[int, int]:
    return {j: flip for _, _, flip, j in problem.jumps}



def quick_verdict(problem: Problem) -> str | None:
    """A reason the problem is unsolvable found without search (None if none is found)."""
    p = problem
    if p.goal and p.goal.bit_count() > p.start.bit_count():
        return _("The goal has more pegs than the start, and a jump only ever removes a peg.")
    verdict = class_verdict(p.board, p.start, p.goal)
    if not verdict.feasible:
        return verdict.reason
    if p.goal and p.goal.bit_count() == p.start.bit_count() and p.start != p.goal:
        return _("The goal has as many pegs as the start but is a different position.")
    for pg in p.pagodas:
        if pg.value(p.start) < pg.value(p.goal):
            return _("Pagoda function ({name}): its total over the pegs can never grow, and it is "
                     "{start} at the start but {goal} at the goal.").format(
                         name=pagoda_label(pg.name), start=format_number(pg.value(p.start)),
                         goal=format_number(pg.value(p.goal)))
    return None

