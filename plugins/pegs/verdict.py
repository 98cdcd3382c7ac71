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

import contextlib
import contextvars
import threading
import time
from collections import OrderedDict

import numpy as np

from engine import Assessment, format_number, fresh_tables, keep_tables_after, table_cache

from . import tables
from .board import PegInstance
from .classes import class_verdict, invariant_for
from .i18n import _, ngettext
from .judge import (
    Judge,
    book_assessment,
    can_sentence,
    cannot_sentence,
    describe_goal,
    pagoda_assessment,
    table_assessment,
)
from .presets import is_preset_board
from .search import compile_problem
from .tablefile import load_arrays
from .wording import count_pegs, count_positions

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
    until it is ready, so a person playing is never kept waiting by a table build; one such
    build runs at a time (see :func:`building`), which bounds the CPU a stream of new boards
    can take. A judge on the small table looks again (:meth:`engine.TableCache.appeared`)
    for a large table another process has built since, and moves to it.
    """
    key = _key(state)
    with _judges_lock:
        judge = _judges.get(key)
        if judge is not None:
            _judges.move_to_end(key)
            if judge.compiled and key not in _building and _newer_files(judge):
                _start_build(key, state)  # this judge answers until the new one is ready
            return judge
        thread = _building.get(key)
        if thread is None:
            if not wait and _building:
                return None
            thread = _start_build(key, state)
    if not wait:
        return None
    thread.join()
    with _judges_lock:
        judge = _judges.get(key)
    return judge or Judge(state)  # a failed background build: raise here


def _watched(judge: Judge) -> list:
    """The files whose arrival makes a better judge: the large table (for a judge on the small
    one) and the opening book, which ``puzzle pegs table`` writes last, after the table, its
    pagoda library and filter, so a judge that loaded the large table early loads them too."""
    watched = [judge._book_path()]
    if judge.positions < tables.LARGE_POSITIONS:
        watched.append(tables.cache_path(judge.problem, tables.LARGE_POSITIONS))
    return watched


def _newer_files(judge: Judge, every: float | None = None) -> bool:
    """Whether a file of :func:`_watched` was written since the judge was built (a stat every
    few seconds at most: :meth:`engine.TableCache.appeared`)."""
    return any([table_cache().appeared(path, every) for path in _watched(judge)])


def building(state: PegInstance) -> bool:
    """Whether the table of the state's board and goal is being built now."""
    with _judges_lock:
        return _key(state) in _building


def _start_build(key: tuple, state: PegInstance) -> threading.Thread:
    """Start building the judge of ``key`` in a thread (call under ``_judges_lock``). It runs
    in the caller's context (the table cache's admission rule, :func:`engine.keep_tables_after`)."""
    thread = threading.Thread(target=contextvars.copy_context().run,
                              args=(_build, key, state, is_preset_board(state)), daemon=True,
                              name="pegs-judge")
    _building[key] = thread
    thread.start()
    return thread


def _build(key: tuple, state: PegInstance, preset: bool) -> None:
    judge = None
    try:
        # A preset board's tables are always worth keeping on disk.
        with keep_tables_after(1) if preset else contextlib.nullcontext():
            try:
                judge = Judge(state, tables.LARGE_POSITIONS, load_only=True)
            except FileNotFoundError:
                judge = Judge(state)
    except Exception:  # noqa: BLE001 - reported by the waiting caller, which builds again
        pass
    finally:
        with _judges_lock:
            _building.pop(key, None)
            if judge is not None:
                _newer_files(judge, every=0)  # what is on disk now is in it: look from here on
                _judges[key] = judge
                _judges.move_to_end(key)
                while len(_judges) > MAX_JUDGES:
                    _judges.popitem(last=False)


def forget_judge(state: PegInstance) -> None:
    """Drop the shared judge of the state's board and goal (its table failed a check): the
    next :func:`judge_for` builds it again."""
    with _judges_lock:
        _judges.pop(_key(state), None)


def confirm_table(state: PegInstance, judge: Judge) -> Judge | None:
    """Check the table of ``judge`` once more, before a final "unsolvable" that rests on it is
    given (and stored for good). A table small enough to build in seconds is built again from
    scratch (nothing read from disk; :func:`engine.fresh_tables`) and compared; a large one is
    compared with its file, whose digest is verified again. The judge to trust: ``judge`` when
    it passes, the fresh one when its table was wrong (it replaces the shared judge and the
    file), None when the check could not be made (the large table's file is gone or differs)."""
    if not judge.compiled:
        return judge  # the Python fallback's table is built in memory, never read from a file
    if judge.positions < tables.LARGE_POSITIONS:
        # Written at once (whatever the request's admission rule): it replaces a wrong file.
        with fresh_tables(), keep_tables_after(1):
            fresh = Judge(state, judge.positions)
        if fresh.levels.keys() == judge.levels.keys() and all(
                np.array_equal(fresh.levels[k], judge.levels[k]) for k in fresh.levels):
            return judge
        with _judges_lock:
            _judges[_key(state)] = fresh
        return fresh
    params = tables.table_params(judge.problem, judge.positions)
    on_disk = load_arrays(tables.cache_path(judge.problem, judge.positions), params)
    mine = {f"k{k}": v for k, v in judge.levels.items()}
    if on_disk is not None and on_disk.keys() == mine.keys() and all(
            np.array_equal(on_disk[k], mine[k]) for k in mine):
        return judge
    return None


def prepare_table(state: PegInstance, progress=None, library_progress=None,
                  book_progress=None, should_stop=None, book: bool = True) -> Judge:
    """Build (or load) the large table of the state's board and goal, keep it on disk and use
    it for every later verdict. ``progress(pegs, positions)`` is called per level, then
    ``library_progress(done, total)`` while the table library is found (when not on disk),
    then ``book_progress(BookProgress)`` while the openings of the state's start are decided
    (when the table does not decide them and the book lacks them: :meth:`Judge.open_book`;
    ``book=False`` leaves the book out). ``should_stop()`` true: :class:`.levels.GrowStopped`,
    and no half-built file is kept (each is written whole, or not at all)."""
    judge = Judge(state, tables.LARGE_POSITIONS, progress, library_progress=library_progress,
                  should_stop=should_stop)
    if book:
        judge.open_book(state.board.to_compact(state.pegs), judge.stoppable(book_progress))
    use_judge(state, judge)
    return judge


def use_judge(state: PegInstance, judge: Judge) -> None:
    """Make ``judge`` the shared one of the state's board and goal (a larger table was just
    built), for every later verdict and solve in this process."""
    with _judges_lock:
        _judges[_key(state)] = judge
        _judges.move_to_end(_key(state))
        while len(_judges) > MAX_JUDGES:
            _judges.popitem(last=False)


def assess(state: PegInstance, *, budget: float = 0.05, wait: bool = False) -> Assessment:
    """The live verdict on ``state`` (a position with its goal), within ``budget`` seconds.

    The first verdict on a board starts building its :class:`Judge` in the background and
    answers from the proofs that need no table (``wait=True``: build it first).
    """
    started = time.monotonic()
    if state.is_solved():
        return Assessment("solved", _("Solved: the goal is reached."))
    board = state.board
    pos, goal = board.to_compact(state.pegs), board.to_compact(state.goal)
    pegs, goal_pegs = pos.bit_count(), goal.bit_count() or 1
    goal_words = describe_goal(state)
    if pegs <= goal_pegs:
        return Assessment(
            "cannot", _("No: the goal ({goal}) cannot be reached any more.").format(goal=goal_words),
            ngettext("A jump only ever removes a peg; there is {count} peg and the goal needs "
                     "{need}, in other holes.",
                     "A jump only ever removes a peg; there are {count} pegs and the goal needs "
                     "{need}, in other holes.", pegs).format(count=format_number(pegs),
                                                             need=format_number(goal_pegs)))
    if not any(pos >> f & 1 and pos >> o & 1 and not pos >> t & 1 for f, o, t in board.jumps):
        return Assessment("cannot", _("No: no jump is possible."),
                          ngettext("{count} peg is left and none can jump, so the game is over.",
                                   "{count} pegs are left and none can jump, so the game is over.",
                                   pegs).format(count=format_number(pegs)))
    verdict = class_verdict(board, pos, goal)
    if not verdict.feasible:
        return Assessment("cannot", _("No: {goal} is in another position class.").format(goal=goal_words),
                          verdict.reason)
    judge = judge_for(state, wait=wait)
    pagodas = judge.pagodas if judge else compile_problem(state).pagodas
    for pg in pagodas:
        if pg.value(pos) < pg.value(goal):
            return pagoda_assessment(pg, pos, goal, board)
    if judge is None and not building(state):
        return Assessment("unknown", _("Not decided yet: another board's table is being built."),
                          _("Tables are built one at a time; this board's starts when that one is "
                            "done. Ask again in a moment."))
    if judge is None:
        return Assessment("unknown", _("Not decided yet: this board's table is being built."),
                          _("The table of positions that can reach this goal is built once per "
                            "board and goal (up to a minute), then kept."))
    deadline = started + budget
    if not judge.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
        return Assessment("unknown", _("Not decided within the time allowed."),
                          _("Another verdict on this board was still being worked out."))
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
        if nodes:
            how = _("A search from this position ({positions} visited) found a sequence of jumps "
                    "down to a position with {pegs} that can reach the goal.")
        else:
            how = _("A heuristic probe from this position found a sequence of jumps down to a "
                    "position with {pegs} that can reach the goal.")
        return Assessment("can", can_sentence(goal_words),
                          how.format(positions=count_positions(nodes), pegs=count_pegs(judge.top)))
    if answer == "cannot":
        return Assessment(
            "cannot", cannot_sentence(goal_words),
            _("An exhaustive search from this position ({positions} visited, besides positions "
              "already proved dead) meets none of the {table} with at most {pegs} that can reach "
              "the goal; positions are pruned only by proofs (pagoda functions, symmetry, positions "
              "proved dead).").format(positions=count_positions(nodes),
                                      table=count_positions(judge.backward_size),
                                      pegs=count_pegs(judge.top)))
    return Assessment("unknown", _("Not decided within the time allowed."),
                      _("The search visited {positions} within {seconds} s without deciding; the "
                        "solver can take longer.").format(positions=count_positions(nodes),
                                                          seconds=format_number(budget)))

