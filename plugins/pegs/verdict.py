"""The live verdict: can the goal still be reached from the position on the board?

:func:`assess` answers within a time budget, cheapest proof first, and never says "can" or
"cannot" without a proof:

1. solved; a goal with more pegs than the board; no jump left;
2. the position-class test (:mod:`.classes`);
3. pagoda functions: the goal's fixed ones (:mod:`.pagoda`), the board's library and those
   found for earlier positions (:mod:`.lp`);
4. the *backward set*: every position with few pegs that can reach the goal (built once per
   board and goal by reverse jumps). A position with that few pegs is decided by one lookup;
5. above it, the pagodas against the *table's bound* (:meth:`Judge.bound`): the least value
   over the backward set's top level, through which every way to the goal passes; then the
   *opening book* (:mod:`.book`): the positions within a few jumps of a start, decided once;
6. a pagoda function found by linear programming for this position (:mod:`.lp`), checked
   exactly against every jump;
7. heuristic probes (beams), then the exact depth-first search (:func:`.fastdfs.run`,
   compiled with numba) from the position down to the backward set, stopped at the budget
   ("unknown"). Finding a path proves "can"; running out of positions proves "cannot". One
   peg above the table, a Bloom filter of every position with a jump into the table
   (:func:`.levels.parents_bloom`) drops most dead positions without trying their jumps. The
   search runs in two lanes, one per core, that share the dead-position cache
   (:meth:`.judge.Judge._exhaust`).

Steps 4 to 7 share one :class:`~.judge.Judge` per board, goal (and, for "one peg anywhere",
position class), built from the tables on disk (:mod:`.tables`): its table of positions proved
dead is the *dead-position cache*, kept from one verdict to the next, so the positions of a
game in progress, which share most of their futures, are judged faster and faster. A dead
position stays dead, so the cache never makes a verdict wrong.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from engine import Assessment, plural

from . import tables
from .board import PegInstance
from .classes import class_verdict, invariant_for
from .judge import Judge, book_assessment, describe_goal, pagoda_assessment, table_assessment
from .search import compile_problem

#: Judges kept in memory.
MAX_JUDGES = 4

_judges: OrderedDict[tuple, Judge] = OrderedDict()
_building: dict[tuple, threading.Thread] = {}
_judges_lock = threading.Lock()


def _key(state: PegInstance) -> tuple:
    key = (state.geometry, state.rows, state.cols, state.holes, state.goal)
    if state.goal == 0:
        # "One peg anywhere": the finishing holes depend on the position's class.
        inv = invariant_for(state.geometry, state.rows, state.cols, state.holes)
        key += (inv.of(state.board.to_compact(state.pegs)),)
    return key


def judge_for(state: PegInstance, *, wait: bool = True) -> Judge | None:
    """The shared :class:`Judge` of the state's board and goal, built on first use.

    With ``wait=False`` a missing judge is built in a background thread and None is returned
    until it is ready, so a person playing is never kept waiting by a table build.
    """
    key = _key(state)
    with _judges_lock:
        judge = _judges.get(key)
        if judge is not None:
            _judges.move_to_end(key)
            return judge
        thread = _building.get(key)
        if thread is None:
            thread = threading.Thread(target=_build, args=(key, state), daemon=True,
                                      name="pegs-judge")
            _building[key] = thread
            thread.start()
    if not wait:
        return None
    thread.join()
    with _judges_lock:
        judge = _judges.get(key)
    return judge or Judge(state)  # a failed background build: raise here


def _build(key: tuple, state: PegInstance) -> None:
    try:
        try:
            judge = Judge(state, tables.LARGE_POSITIONS, load_only=True)
        except FileNotFoundError:
            judge = Judge(state)
    except Exception:  # noqa: BLE001 - reported by the waiting caller, which builds again
        with _judges_lock:
            _building.pop(key, None)
        return
    with _judges_lock:
        _judges[key] = judge
        _building.pop(key, None)
        while len(_judges) > MAX_JUDGES:
            _judges.popitem(last=False)


def prepare_table(state: PegInstance, progress=None, library_progress=None,
                  book_progress=None) -> Judge:
    """Build (or load) the large table of the state's board and goal, keep it on disk and use
    it for every later verdict. ``progress(pegs, positions)`` is called per level, then
    ``library_progress(done, total)`` while the table library is found (when not on disk),
    then ``book_progress(BookProgress)`` while the openings of the state's start are decided
    (when the table does not decide them and the book lacks them: :meth:`Judge.open_book`)."""
    judge = Judge(state, tables.LARGE_POSITIONS, progress, library_progress=library_progress)
    judge.open_book(state.board.to_compact(state.pegs), book_progress)
    with _judges_lock:
        _judges[_key(state)] = judge
    return judge



def assess(state: PegInstance, *, budget: float = 0.05, wait: bool = False) -> Assessment:
    """The live verdict on ``state`` (a position with its goal), within ``budget`` seconds.

    The first verdict on a board starts building its :class:`Judge` in the background and
    answers from the proofs that need no table (``wait=True``: build it first).
    """
    started = time.monotonic()
    if state.is_solved():
        return Assessment("solved", "Solved: the goal is reached.")
    board = state.board
    pos, goal = board.to_compact(state.pegs), board.to_compact(state.goal)
    pegs, goal_pegs = pos.bit_count(), goal.bit_count() or 1
    goal_words = describe_goal(state)
    if pegs <= goal_pegs:
        return Assessment(
            "cannot", f"No: the goal ({goal_words}) cannot be reached any more.",
            f"A jump only ever removes a peg; there {'is' if pegs == 1 else 'are'} "
            f"{plural(pegs, 'peg')} and the goal needs {goal_pegs}, in other holes.")
    if not any(pos >> f & 1 and pos >> o & 1 and not pos >> t & 1 for f, o, t in board.jumps):
        return Assessment("cannot", "No: no jump is possible.",
                          f"{plural(pegs, 'peg')} {'is' if pegs == 1 else 'are'} left and none can "
                          f"jump, so the game is over.")
    verdict = class_verdict(board, pos, goal)
    if not verdict.feasible:
        return Assessment("cannot", f"No: {goal_words} is in another position class.",
                          verdict.reason)
    judge = judge_for(state, wait=wait)
    pagodas = judge.pagodas if judge else compile_problem(state).pagodas
    for pg in pagodas:
        if pg.value(pos) < pg.value(goal):
            return pagoda_assessment(pg, pos, goal, board)
    if judge is None:
        return Assessment("unknown", "Not decided yet: this board's table is being built.",
                          "The table of positions that can reach this goal is built once per "
                          "board and goal (up to a minute), then kept on disk.")
    deadline = started + budget
    if not judge.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
        return Assessment("unknown", "Not decided within the time allowed.",
                          "Another verdict on this board was still being worked out.")
    try:
        if pegs <= judge.top:
            return table_assessment(judge.is_alive(pos), pegs, goal_words, judge)
        for pg in judge.pagodas:
            if pg.value(pos) < judge.bound(pg):
                return pagoda_assessment(pg, pos, goal, board, judge)
        # After the pagodas: a weighting says why in one sentence, the book only that it knows.
        known = judge.book_verdict(pos)
        if known is not None:
            return book_assessment(known, goal_words, judge)
        answer, nodes = judge.search(pos, deadline)
        if answer == "pagoda":
            assert judge.found is not None
            return pagoda_assessment(judge.found, pos, goal, board)
    finally:
        judge.lock.release()
    if answer == "can":
        how = (f"a search from this position ({plural(nodes, 'position')} visited)" if nodes
               else "a heuristic probe from this position")
        return Assessment("can", f"Yes: {goal_words} can still be reached.",
                          f"{how[0].upper()}{how[1:]} found a sequence of jumps down to a "
                          f"position with {plural(judge.top, 'peg')} that can reach the goal.")
    if answer == "cannot":
        return Assessment(
            "cannot", f"No: no sequence of jumps from here reaches {goal_words}.",
            f"An exhaustive search from this position ({plural(nodes, 'position')} visited, besides "
            f"positions already proved dead) meets none of the {plural(judge.backward_size, 'position')} "
            f"with at most {plural(judge.top, 'peg')} that can reach the goal; positions are pruned only "
            f"by proofs (pagoda functions, symmetry, positions proved dead).")
    return Assessment("unknown", "Not decided within the time allowed.",
                      f"The search visited {plural(nodes, 'position')} within {budget:g} s without "
                      f"deciding; the solver can take longer.")

