"""The live verdict: can the goal still be reached from the position on the board?

:func:`assess` answers within a time budget, cheapest proof first, and never says "can" or
"cannot" without a proof:

1. solved; a goal with more pegs than the board; no jump left;
2. the position-class test (:mod:`.classes`);
3. the pagoda functions of the goal (:mod:`.pagoda`);
4. the *backward set*: every position with few pegs that can reach the goal (built once per
   board and goal by reverse jumps). A position with that few pegs is decided by one lookup;
5. the exact depth-first search of the ``search`` solver (:class:`.solver._CompiledSearch`,
   compiled with numba) from the position down to the backward set, stopped at the budget
   ("unknown"). Finding a path proves "can"; running out of positions proves "cannot".

Steps 4 and 5 share one :class:`Judge` per board, goal (and, for "one peg anywhere", position
class): its table of positions proved dead is the *dead-position cache*, kept from one verdict
to the next, so the positions of a game in progress, which share most of their futures, are
judged faster and faster. A dead position stays dead, so the cache never makes a verdict wrong.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace

from engine import Assessment, SolveContext

from . import fastdfs
from .board import PegInstance
from .classes import class_verdict, invariant_for
from .solver import _Capped, _CompiledSearch, _exact_dfs, _Stop, backward_levels, compile_problem

#: Positions in each judge's backward set (built once per board and goal; about 0.5 s).
BACKWARD_BUDGET = 40_000
#: Positions the compiled search visits between two looks at the clock.
CHUNK = 2_000
#: Judges kept (each holds a 32 MB dead table on boards of at most 64 holes).
MAX_JUDGES = 8


class Judge:
    """Everything the verdicts for one board and goal share: the backward set, the compiled
    search and its dead-position cache. Not thread-safe by itself: :attr:`lock` guards it."""

    def __init__(self, inst: PegInstance):
        self.problem = compile_problem(inst)
        p = self.problem
        self.levels = backward_levels(p, BACKWARD_BUDGET, stop_at=p.board.n)
        self.meet = max(self.levels)
        self.backward_size = sum(len(s) for s in self.levels.values())
        self.compiled = None
        self.meet_sorted = None
        if fastdfs.AVAILABLE and p.board.n <= 64:
            self.compiled = _CompiledSearch(p, set())
            self.meet_sorted = self.compiled.meet_sorted(self.levels)
        self.dead: set[int] = set()  # the Python search's cache (boards over 64 holes)
        self.lock = threading.Lock()

    def search(self, start: int, deadline: float) -> tuple[str, int]:
        """("can" | "cannot" | "unknown", positions visited) for a position with more pegs than
        the backward set's top level."""
        counter = [0, 0, 0]
        ctx = SolveContext(deadline=deadline)
        try:
            if self.compiled is not None:
                moves = self.compiled.run(self.levels, ctx, counter, None, start=start,
                                          meet_sorted=self.meet_sorted, chunk=CHUNK)
            else:
                moves = _exact_dfs(replace(self.problem, start=start), self.levels, ctx,
                                   counter, self.dead)
        except (_Stop, _Capped):
            return "unknown", counter[0]
        return ("can" if moves is not None else "cannot"), counter[0]


_judges: OrderedDict[tuple, Judge] = OrderedDict()
_judges_lock = threading.Lock()


def judge_for(state: PegInstance) -> Judge:
    """The shared :class:`Judge` of the state's board and goal (built on first use)."""
    board = state.board
    key = (state.geometry, state.rows, state.cols, state.holes, state.goal)
    if state.goal == 0:
        # "One peg anywhere": the finishing holes depend on the position's class.
        inv = invariant_for(state.geometry, state.rows, state.cols, state.holes)
        key += (inv.of(board.to_compact(state.pegs)),)
    with _judges_lock:
        judge = _judges.get(key)
        if judge is not None:
            _judges.move_to_end(key)
            return judge
    judge = Judge(state)  # built outside the lock: another board's verdicts need not wait
    with _judges_lock:
        judge = _judges.setdefault(key, judge)
        while len(_judges) > MAX_JUDGES:
            _judges.popitem(last=False)
    return judge


def _goal_words(state: PegInstance) -> str:
    if state.goal == 0:
        return "one peg left"
    names = state.board.compact_names(state.board.to_compact(state.goal))
    if len(names) == 1:
        return f"one peg left at {names[0]}"
    return "the goal pattern"


def assess(state: PegInstance, *, budget: float = 0.05) -> Assessment:
    """The live verdict on ``state`` (a position with its goal), within ``budget`` seconds of
    search (the first verdict on a board also builds its :class:`Judge`)."""
    started = time.monotonic()
    if state.is_solved():
        return Assessment("solved", "Solved: the goal is reached.")
    board = state.board
    pos, goal = board.to_compact(state.pegs), board.to_compact(state.goal)
    pegs, goal_pegs = pos.bit_count(), goal.bit_count() or 1
    goal_words = _goal_words(state)
    if pegs <= goal_pegs:
        return Assessment(
            "cannot", f"No: the goal ({goal_words}) cannot be reached any more.",
            f"A jump only ever removes a peg; there are {pegs} pegs and the goal needs "
            f"{goal_pegs}, in other holes.")
    if not any(pos >> f & 1 and pos >> o & 1 and not pos >> t & 1 for f, o, t in board.jumps):
        return Assessment("cannot", "No: no jump is possible.",
                          f"{pegs} pegs are left and none can jump, so the game is over.")
    verdict = class_verdict(board, pos, goal)
    if not verdict.feasible:
        return Assessment("cannot", f"No: {goal_words} is in another position class.",
                          verdict.reason)
    judge = judge_for(state)
    for pg in judge.problem.pagodas:
        have, need = pg.value(pos), pg.value(goal)
        if have < need:
            return Assessment(
                "cannot", f"No: too few pegs are left near the goal ({pg.name}).",
                f"Pagoda function ({pg.name}): every jump keeps or lowers the total weight of "
                f"the pegs; it is {have} now but {need} at the goal, so the goal is out of reach.")
    deadline = started + budget
    if not judge.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
        return Assessment("unknown", "Not decided within the time allowed.",
                          "Another verdict on this board was still being worked out.")
    try:
        if pegs <= judge.meet:
            alive = judge.problem.canon.canon(pos) in judge.levels.get(pegs, ())
            return _from_backward(alive, pegs, goal_words, judge)
        answer, nodes = judge.search(pos, deadline)
    finally:
        judge.lock.release()
    if answer == "can":
        return Assessment("can", f"Yes: {goal_words} can still be reached.",
                          f"A search from this position found a way to the goal "
                          f"({nodes:,} positions visited).")
    if answer == "cannot":
        return Assessment(
            "cannot", f"No: no sequence of jumps from here reaches {goal_words}.",
            f"An exhaustive search from this position ({nodes:,} positions visited, besides "
            f"positions already proved dead) meets none of the {judge.backward_size:,} positions "
            f"with at most {judge.meet} pegs that can reach the goal; positions are pruned only "
            f"by proofs (pagoda functions, symmetry, positions proved dead).")
    return Assessment("unknown", "Not decided within the time allowed.",
                      f"The search visited {nodes:,} positions within {budget:g} s without "
                      f"deciding; the solver can take longer.")


def _from_backward(alive: bool, pegs: int, goal_words: str, judge: Judge) -> Assessment:
    size = len(judge.levels.get(pegs, ()))
    if alive:
        return Assessment("can", f"Yes: {goal_words} can still be reached.",
                          f"This position is one of the {size:,} positions with {pegs} pegs "
                          f"(up to symmetry) found by reverse jumps from the goal.")
    return Assessment("cannot", f"No: no sequence of jumps from here reaches {goal_words}.",
                      f"Reverse jumps from the goal reach every position with {pegs} pegs that "
                      f"can reach it: {size:,} of them (up to symmetry), and this is not one.")
