"""The judge of one board and goal: the backward table, the pagodas, the opening book and the
compiled search above them, with the dead-position cache that makes the positions of a game
judged faster and faster (steps 4 to 7 of :func:`.verdict.assess`); and the sentences of the
verdicts it gives.

One :class:`Judge` per board, goal (and, for "one peg anywhere", position class): its table of
positions proved dead is kept from one verdict to the next. A dead position stays dead, so the
cache never makes a verdict wrong.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np

from engine import Assessment, SolveContext, format_number

from . import fastdfs, lp, tables
from . import levels as lv
from .board import PegInstance
from .book import BOOK_FORMAT, OpeningBook, decide_openings, opening_levels
from .i18n import _
from .lp import LP_NAME, PagodaLP
from .pagoda import Pagoda
from .search import Capped, Stop, backward_levels, compile_problem, exact_dfs
from .tables import cache_path, load_or_build, load_or_build_above, load_or_build_library
from .wording import count_pegs, count_positions, pagoda_label

#: Positions in the backward set of the Python fallback (boards over 64 holes).
BACKWARD_BUDGET = 40_000
#: Positions the compiled search visits between two looks at the clock.
CHUNK = 500
#: Widths of the heuristic probes tried before the exhaustive search.
BEAM_WIDTHS = (32, 256)
#: Seconds of exhaustive search between two probes.
SEARCH_SLICE = 0.012
#: A generous guess of a probe's time per unit of width on a 37-hole board (seconds).
BEAM_SECONDS_PER_WIDTH = 0.00003
#: Lanes of the exact search run at once (:meth:`Judge._exhaust`): one per core, at most two.
SEARCH_LANES = max(1, min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                          else os.cpu_count() or 1))
#: Seconds kept in hand at the end of the budget (one more chunk of the search may run).
DEADLINE_MARGIN = 0.004
#: Pagodas found by linear programming that a judge keeps (the most recent ones).
MAX_LEARNT = 16


class Judge:
    """Everything the verdicts for one board and goal share: the backward set, the search
    and its dead-position cache. Not thread-safe by itself: :attr:`lock` guards it.

    ``levels[k]``: the canonical positions with ``k`` pegs (up to ``top``) that can reach the
    goal, exactly: a position with at most ``top`` pegs is decided by one lookup.
    """

    def __init__(self, inst: PegInstance, positions: int | None = None, progress=None,
                 load_only: bool = False, library_progress=None, should_stop=None,
                 extras: bool | None = None):
        """``positions``: the table's budget (default :data:`.tables.LIVE_POSITIONS`); ``load_only``:
        raise FileNotFoundError rather than build a missing table. ``should_stop()`` true
        while something is built: :class:`.levels.GrowStopped` (each file is written whole or
        not at all). ``extras``: build the large table's pagoda library and the filter of the
        level above it when missing (default: unless ``load_only``); without them the judge
        goes without, as one loading the table in the background does."""
        self.positions = tables.LIVE_POSITIONS if positions is None else positions
        self.problem = compile_problem(inst)
        p = self.problem
        self.lock = threading.Lock()
        self._helper: ThreadPoolExecutor | None = None  # runs the second lane of the search
        self.library: list[Pagoda] = []
        self.minima: dict[tuple[int, ...], int] = {}
        self.bloom: np.ndarray | None = None
        self.bloom_bits = 0
        # Passes everything until :meth:`_raise_above` makes the real one.
        self.above, self.above_bits = np.full(1, ~np.uint64(0), np.uint64), 6
        self.learnt: list[Pagoda] = []
        self.found: Pagoda | None = None  # the last pagoda found for a position, for the message
        self.lp = PagodaLP(p.board) if lp.AVAILABLE and p.goal else None
        self.book = OpeningBook.empty()  # positions near a start, decided once (:mod:`.book`)
        self.compiled = lv.AVAILABLE and p.board.n <= 64
        self.should_stop = should_stop
        self.extras = (not load_only) if extras is None else extras
        if self.compiled:
            self._init_compiled(inst, progress, load_only, library_progress)
        else:
            levels = backward_levels(p, BACKWARD_BUDGET, stop_at=p.board.n)
            self.levels = {k: frozenset(v) for k, v in levels.items()}
            self.dead: set[int] = set()
        self.top = max(self.levels)
        self.backward_size = sum(len(s) for s in self.levels.values())
        if self.compiled and self.top < p.board.n - 1:
            self._warm_up()

    @property
    def pagodas(self) -> tuple[Pagoda, ...]:
        """The goal's fixed pagodas, the board's library (:func:`.lp.pagoda_library`), then
        those found for positions judged so far."""
        return self.problem.pagodas + tuple(self.library) + tuple(self.learnt)

    def learn(self, pagoda: Pagoda) -> None:
        """Keep a pagoda found for one position (checked: it refutes the goal for every
        position whose value is too low, wherever it came from) for the later verdicts and for
        the search's pruning; the oldest one goes past :data:`MAX_LEARNT`. Call under
        :attr:`lock`."""
        if pagoda.weights in {pg.weights for pg in self.pagodas}:
            return
        self.learnt.append(pagoda)
        del self.learnt[:-MAX_LEARNT]
        if self.compiled:
            self._pagoda_arrays()

    def _raise_bounds(self) -> None:
        """The table's bounds of the goal's fixed pagodas and of the library (a second or two
        on the 37-hole board; see :meth:`bound`)."""
        byte_values = lv.byte_values(self.pag_weights, self.problem.board.n)
        minima = lv.level_minima(self.levels[max(self.levels)], self.tables, byte_values)
        self.minima = {pg.weights: int(m) for pg, m in zip(self.pagodas, minima, strict=True)}
        self._pagoda_arrays()

    def bound(self, pagoda: Pagoda) -> int:
        """The least value of ``pagoda`` a position with more than :attr:`top` pegs needs to
        reach the goal. Every way to the goal passes through a position of the table's top
        level, and no jump raises the value, so it is the least value over that level (over
        each position's symmetric images too), when known; never less than the goal's value
        (a pagoda found during play only gets the goal's value: the pass over the level takes
        longer than a verdict)."""
        goal_value = pagoda.value(self.problem.goal)
        return max(goal_value, self.minima.get(pagoda.weights, goal_value))

    def _pagoda_arrays(self) -> None:
        """Per-pagoda losses per jump, bounds and weights, for the compiled kernels."""
        p, board = self.problem, self.problem.board
        pags = self.pagodas
        self.loss = np.array([[pg.weights[f] + pg.weights[o] - pg.weights[t]
                               for f, o, t in (board.jumps[j] for *_, j in p.jumps)]
                              for pg in pags], dtype=np.int64).reshape(len(pags), len(p.jumps))
        self.loss_t = np.ascontiguousarray(self.loss.T)  # the search reads a row per jump
        # The kernels test these only on positions with more pegs than the table's top.
        self.need_vals = np.array([self.bound(pg) for pg in pags], dtype=np.int64)
        self.pag_weights = np.array([pg.weights for pg in pags], dtype=np.int64).reshape(
            len(pags), board.n)
        if self.compiled:
            # One lane per core for the exact search (:meth:`_exhaust`), each trying the jumps
            # in its own order: the first in the board's, the second in reverse.
            orders = [np.arange(len(self.need))]
            if SEARCH_LANES > 1:
                orders.append(orders[0][::-1])
            self.lane_arrays = [(self.need[o].copy(), self.to[o].copy(), self.flip[o].copy(),
                                 np.ascontiguousarray(self.loss_t[o])) for o in orders]

    def is_alive(self, pos: int) -> bool:
        """Exact, for a position with at most :attr:`top` pegs."""
        level = self.levels.get(pos.bit_count())
        if level is None:
            return False
        if self.compiled:
            c = np.uint64(lv.canon(np.uint64(pos), self.tables))
            i = int(np.searchsorted(level, c))
            return i < len(level) and level[i] == c
        return self.problem.canon.canon(pos) in level

    # -- the compiled judge ----------------------------------------------------------------

    def _init_compiled(self, inst: PegInstance, progress, load_only: bool,
                       library_progress=None) -> None:
        p = self.problem
        board = p.board
        perms = list(p.canon.perms) or [tuple(range(board.n))]
        self.tables = lv.byte_tables(perms, board.n)
        self.perms = np.array(perms, dtype=np.int64).reshape(len(perms), board.n)
        self.need = np.array([nd for nd, _, _, _ in p.jumps], dtype=np.uint64)
        self.to = np.array([to for _, to, _, _ in p.jumps], dtype=np.uint64)
        self.flip = self.need | self.to
        self._pagoda_arrays()
        self.dead_table = np.zeros(1 << fastdfs.TABLE_BITS, dtype=np.uint64)
        # The beam's ranking (as the search solver's probes): pegs on holes few jumps pass
        # over are hard to clear; a peg with no neighbour is stranded.
        over = [0] * board.n
        nbr = [0] * board.n
        for f, o, _t in board.jumps:
            over[o] += 1
            nbr[f] |= 1 << o
        self.hard = np.array([8 // (1 + c) for c in over], dtype=np.int64)
        self.nbr = np.array(nbr, dtype=np.uint64)
        self.levels = load_or_build(p, self.tables, self.need, self.to, self.flip,
                                     self.positions, progress, load_only, self.should_stop)
        # The first call of a compiled function loads numba's machinery (a few tenths of a
        # second): here, with the judge, rather than in the first verdict.
        lv.canon(np.uint64(1), self.tables)
        if max(self.levels) < board.n - 1:
            if self.lp is not None:
                # The search above the table prunes by these too (no programme per position).
                self.library = load_or_build_library(p)
                if self.positions >= tables.LARGE_POSITIONS:
                    # Aimed at the table's bound; worth its build time on a large table only.
                    # (Only `puzzle pegs table` and `puzzle prepare` build it: a judge loading
                    # the table in the background, or one built inside a solve, goes without
                    # rather than keep verdicts or the answer waiting a minute.)
                    self._stop_check()
                    self.library += load_or_build_library(p, self.levels[max(self.levels)],
                                                           self.positions,
                                                           self.stoppable(library_progress),
                                                           not self.extras)
                self._pagoda_arrays()
            self._raise_bounds()
            self._bloom()  # now rather than in the first verdict (0.1-0.3 s on a large table)
            self._stop_check()
            self._raise_above(not self.extras)
            # Filled now, on a table that searches: np.zeros maps its pages on first touch, and
            # touching thousands of them one fault at a time made the first search 50-130 ms
            # slower.
            self.dead_table.fill(0)
            self.book = OpeningBook.load(self._book_path())

    def _stop_check(self) -> None:
        if self.should_stop is not None and self.should_stop():
            raise lv.GrowStopped

    def stoppable(self, progress):
        """``progress`` that also stops the build when :attr:`should_stop` says so."""
        if self.should_stop is None:
            return progress

        def report(*args):
            self._stop_check()
            if progress is not None:
                progress(*args)
        return report

    def _warm_up(self) -> None:
        """Load the compiled search and probe now (several milliseconds from numba's cache),
        not in the first verdict that needs them: one step of each from the full board (which
        has no jump, so nothing else happens)."""
        full = (1 << self.problem.board.n) - 1
        lane = _Lane(full, full.bit_count() - self.top + 2, [pg.value(full) for pg in self.pagodas])
        self._chunk(lane, self.lane_arrays[0], 1)
        self._probe(full, 1)

    def _book_path(self) -> Path:
        # Shared by the judge's small and large tables: the book's verdicts are exact either way.
        path = cache_path(self.problem, 0)
        return path.with_name(f"{path.stem}-book-v{BOOK_FORMAT}.npz")

    def book_verdict(self, pos: int) -> bool | None:
        """The opening book's verdict on ``pos`` (see :mod:`.book`), or None."""
        if not len(self.book):
            return None
        return self.book.verdict(int(lv.canon(np.uint64(pos), self.tables)))

    def open_book(self, start: int, progress=None) -> int:
        """Decide every position within a few jumps of ``start`` (:data:`.book.BOOK_POSITIONS`
        at most) with no time limit, add them to the opening book and keep it on disk; the
        positions added (0 when the book already has that start, or the table decides every
        position). ``progress(BookProgress)`` is called as they are decided; Ctrl+C stops the
        build (nothing is kept)."""
        if not self.compiled or self.top >= start.bit_count() - 1:
            return 0
        start_key = int(lv.canon(np.uint64(start), self.tables))
        if self.book.covers(start_key):
            return 0
        levels = opening_levels(start, self.need, self.to, self.flip, self.tables, self.top)

        def decide(pos: int) -> bool:
            with self.lock:
                if any(pg.value(pos) < self.bound(pg) for pg in self.pagodas):
                    return False
                # No deadline: a year is as good as none, and keeps the arithmetic finite.
                answer, _nodes = self.search(pos, time.monotonic() + 3e7)
                if answer not in ("can", "cannot", "pagoda"):  # kept for good: proofs only
                    raise RuntimeError(f"the opening book got {answer!r} for {pos:#x}")
                return answer == "can"

        alive, dead = decide_openings(levels, decide, progress)
        with self.lock:
            self.book = self.book.merged(alive, dead, start_key)
            self.book.save(self._book_path())
        return len(alive) + len(dead)

    def _raise_above(self, load_only: bool) -> None:
        """The filter of the level above the table (:func:`.tables.load_or_build_above`);
        ``load_only``: a missing one is not built (the search then goes without)."""
        found = load_or_build_above(self.problem, self.positions, self.levels[max(self.levels)],
                                    self.need, self.to, self.flip, self.tables, load_only)
        if found is not None:
            self.above, self.above_bits = found

    def _bloom(self) -> np.ndarray:
        """The top level's Bloom filter, made with the judge when the table does not decide
        every position (else on a first search, which such a table never needs)."""
        if self.bloom is None:
            keys = self.levels[max(self.levels)]  # the top level (also before ``top`` is set)
            # About 32 bits per position (at most 64 MB): a wrong "maybe" about 3% of the time.
            self.bloom_bits = max(10, min(29, (32 * len(keys)).bit_length()))
            self.bloom = lv.bloom_filter(keys, self.bloom_bits)
        return self.bloom

    def search(self, start: int, deadline: float) -> tuple[str, int]:
        """("can" | "cannot" | "unknown" | "pagoda", positions visited) for a position with
        more pegs than :attr:`top`; "pagoda": refuted by a pagoda function found by linear
        programming for it, :attr:`found` (and kept in :attr:`learnt`)."""
        if not self.compiled:
            if self._refute(start, deadline):
                return "pagoda", 0
            return self._search_python(start, deadline)
        values = [pg.value(start) for pg in self.pagodas]
        if any(v < need for v, need in zip(values, self.need_vals, strict=True)):
            return "cannot", 0
        lanes = [_Lane(start, start.bit_count() - self.top + 2, values)
                 for _lane in self.lane_arrays]

        def exhaustive(until: float) -> str | None:
            """Run (or resume) the exact search until ``until``: "can", "cannot" or None."""
            outcome = self._exhaust(lanes, until)
            if outcome is None:
                return None
            return "can" if outcome is fastdfs.Outcome.FOUND else "cannot"

        # Heuristic probes find a way down for most live positions in a few milliseconds, where
        # the exhaustive search can wander for seconds; between two probes the exhaustive
        # search gets a slice of the budget, which settles the small dead ends (the wider probe
        # would only waste its time on them).
        for i, width in enumerate(BEAM_WIDTHS):
            if i:
                answer = exhaustive(min(deadline, time.monotonic() + SEARCH_SLICE))
                if answer is not None:
                    return answer, sum(int(lane.state[1]) for lane in lanes)
            # A probe cannot be interrupted: start a wide one only with time to spare.
            if time.monotonic() + width * BEAM_SECONDS_PER_WIDTH >= deadline:
                break
            if self._probe(start, width):
                return "can", 0  # 0: the message credits the probe
        # Not settled yet: try a pagoda function made for this position (a few milliseconds;
        # the board's library already holds most of those that random play needs, so only the
        # positions still open pay for the programme).
        if self._refute(start, deadline):
            return "pagoda", 0  # the search stops here: the pagodas' arrays have grown
        answer = exhaustive(deadline)
        return (answer or "unknown"), sum(int(lane.state[1]) for lane in lanes)

    def _probe(self, start: int, width: int) -> bool:
        """A heuristic probe (:func:`.fastdfs.beam`) of ``width``: True proves "can"."""
        return bool(fastdfs.beam(np.uint64(start), self.top, self.levels[self.top], self.need,
                            self.to, self.flip, self.tables, self.pag_weights, self.loss_t,
                            self.need_vals, self.dead_table, self.hard, self.nbr, width,
                            self._bloom(), self.bloom_bits))

    def _exhaust(self, lanes: list[_Lane], until: float) -> fastdfs.Outcome | None:
        """Run (or resume) the exact search on every lane until one settles it (FOUND: a way
        down, EXHAUSTED: none) or ``until`` (None).

        The lanes share the dead-position table, so what one proves dead the other skips
        (the "lazy SMP" of game-tree search): trying the jumps in opposite orders, they meet
        in the middle of a dead position's tree, about twice as fast as one lane alone. Each
        entry of the table is one machine word, written whole, so a lane only ever reads a
        position the other proved dead (or nothing); a race loses an entry at worst."""
        stop = threading.Event()
        helpers = []
        try:
            if len(lanes) > 1:
                if self._helper is None:
                    self._helper = ThreadPoolExecutor(len(lanes) - 1,
                                                      thread_name_prefix="pegs-lane")
                helpers = [self._helper.submit(self._run_lane, lanes[i], self.lane_arrays[i],
                                               until, stop)
                           for i in range(1, len(lanes))]
            codes = [self._run_lane(lanes[0], self.lane_arrays[0], until, stop)]
        finally:
            # Also on Ctrl+C during a long build: the other lanes must not run on.
            stop.set()
            others = [future.result() for future in helpers]
        return next((code for code in codes + others if code is not None), None)

    def _run_lane(self, lane: _Lane, arrays: tuple[np.ndarray, ...], until: float,
                  stop: threading.Event) -> fastdfs.Outcome | None:
        """One lane of :meth:`_exhaust`, a chunk of :data:`CHUNK` positions at a time."""
        while not stop.is_set() and time.monotonic() + DEADLINE_MARGIN < until:
            outcome = self._chunk(lane, arrays, CHUNK)
            if outcome is not fastdfs.Outcome.BUDGET_USED:
                stop.set()
                return outcome
        return None

    def _chunk(self, lane: _Lane, arrays: tuple[np.ndarray, ...], budget: int) -> fastdfs.Outcome:
        """Resume ``lane`` for at most ``budget`` positions (:func:`.fastdfs.run`)."""
        need, to, flip, loss_t = arrays
        return fastdfs.run(self.levels[self.top], self.top, need, to, flip, loss_t,
                           self.need_vals, self.tables, self.perms, self.problem.board.n,
                           self.dead_table, lane.pos, lane.next, lane.vals, lane.state,
                           budget, self._bloom(), self.bloom_bits, self.above,
                           self.above_bits)

    def _refute(self, start: int, deadline: float) -> bool:
        """A pagoda function found by linear programming for ``start`` (within half the time
        left), kept (:meth:`learn`)."""
        if self.lp is None:
            return False
        found = self.lp.refute(start, self.problem.goal, (deadline - time.monotonic()) / 2)
        if found is None:
            return False
        self.found = found
        self.learn(found)
        return True

    def _search_python(self, start: int, deadline: float) -> tuple[str, int]:
        counter = [0, 0, 0]
        ctx = SolveContext(deadline=deadline)
        levels = {k: set(v) for k, v in self.levels.items()}
        try:
            moves = exact_dfs(replace(self.problem, start=start), levels, ctx, counter, self.dead)
        except (Stop, Capped):
            return "unknown", counter[0]
        return ("can" if moves is not None else "cannot"), counter[0]


class _Lane:
    """The resumable stack of one lane of the exact search (:meth:`Judge._exhaust`)."""

    def __init__(self, start: int, depth: int, values: list[int]):
        self.pos = np.zeros(depth, np.uint64)
        self.next = np.zeros(depth, np.int64)
        self.vals = np.zeros((depth, max(1, len(values))), np.int64)
        self.state = np.zeros(4, np.int64)  # [depth, expanded, pagoda prunes, proved dead]
        self.pos[0] = start
        self.vals[0, :len(values)] = values



# -- the sentences of the verdicts ------------------------------------------------------------


def describe_goal(state: PegInstance) -> str:
    """The goal as a phrase people read: "one peg left", "one peg left at d4"."""
    if state.goal == 0:
        return _("one peg left")
    names = state.board.compact_names(state.board.to_compact(state.goal))
    if len(names) == 1:
        return _("one peg left at {hole}").format(hole=names[0])
    return _("the goal pattern")


def can_sentence(goal_words: str) -> str:
    """"Yes: one peg left at d4 can still be reached."."""
    return _("Yes: {goal} can still be reached.").format(goal=goal_words)


def cannot_sentence(goal_words: str) -> str:
    """"No: no sequence of jumps from here reaches one peg left at d4."."""
    return _("No: no sequence of jumps from here reaches {goal}.").format(goal=goal_words)


def pagoda_assessment(pg: Pagoda, pos: int, goal: int, board, judge: Judge | None = None) -> Assessment:
    """"cannot" by a pagoda; with ``judge``, against the table's bound (:meth:`Judge.bound`)
    rather than the goal's value."""
    facts = {"value": format_number(pg.value(pos))}
    # One whole sentence for each case (a named or a computed pagoda; the goal's own weight or
    # the table's bound), so each language words the comparison its own way.
    if judge is None:
        facts["target"] = format_number(pg.value(goal))
    else:
        facts.update(target=format_number(judge.bound(pg)), pegs=count_pegs(judge.top))
    if pg.name != LP_NAME:
        name = pagoda_label(pg.name)
        if judge is None:
            proof = _("Pagoda function ({name}): every jump keeps or lowers the total weight of the pegs; "
                      "it is {value} now but {target} at the goal, so the goal is out of reach.")
        else:
            proof = _("Pagoda function ({name}): every jump keeps or lowers the total weight of the pegs; "
                      "it is {value} now, but every position with {pegs} that can reach the goal weighs at "
                      "least {target} (the table holds them all) and every way to the goal passes through "
                      "one, so the goal is out of reach.")
        return Assessment(
            "cannot", _("No: too few pegs are left near the goal ({name}).").format(name=name),
            proof.format(name=name, **facts))
    weights = _(", ").join(_("{hole} {weight}").format(hole=name, weight=format_number(w))
                           for name, w in zip(board.names, pg.weights, strict=True) if w)
    if judge is None:
        proof = _("Pagoda function found by linear programming, weights {weights} (0 elsewhere): for every "
                  "jump, checked one by one, the hole landed in weighs at most the two emptied, so no jump "
                  "raises the total weight of the pegs; it is {value} now but {target} at the goal, so the "
                  "goal is out of reach.")
    else:
        proof = _("Pagoda function found by linear programming, weights {weights} (0 elsewhere): for every "
                  "jump, checked one by one, the hole landed in weighs at most the two emptied, so no jump "
                  "raises the total weight of the pegs; it is {value} now, but every position with {pegs} "
                  "that can reach the goal weighs at least {target} (the table holds them all) and every "
                  "way to the goal passes through one, so the goal is out of reach.")
    return Assessment(
        "cannot", _("No: a weighting of the holes shows the goal is out of reach (pagoda function)."),
        proof.format(weights=weights, **facts))


def book_assessment(alive: bool, goal_words: str, judge: Judge) -> Assessment:
    starts = len(judge.book.starts)
    positions = count_positions(len(judge.book))
    # One whole sentence for each case (the start or several; the goal reached or not).
    if starts == 1:
        if alive:
            how = _("The opening book holds {positions} near the start it was built for, each "
                    "decided once by an exhaustive search with no time limit, and this is one of "
                    "them: from it, a sequence of jumps reaches the goal.")
        else:
            how = _("The opening book holds {positions} near the start it was built for, each "
                    "decided once by an exhaustive search with no time limit, and this is one of "
                    "them: from it, no sequence of jumps reaches the goal.")
    elif alive:
        how = _("The opening book holds {positions} near {starts} starts it was built for, each "
                "decided once by an exhaustive search with no time limit, and this is one of them: "
                "from it, a sequence of jumps reaches the goal.")
    else:
        how = _("The opening book holds {positions} near {starts} starts it was built for, each "
                "decided once by an exhaustive search with no time limit, and this is one of them: "
                "from it, no sequence of jumps reaches the goal.")
    detail = how.format(positions=positions, starts=format_number(starts))
    if alive:
        return Assessment("can", can_sentence(goal_words), detail)
    return Assessment("cannot", cannot_sentence(goal_words), detail)


def table_assessment(alive: bool, pegs: int, goal_words: str, judge: Judge) -> Assessment:
    size = len(judge.levels.get(pegs, ()))
    if alive:
        return Assessment("can", can_sentence(goal_words),
                          _("This position is one of the {positions} with {pegs} (up to symmetry) "
                            "found by reverse jumps from the goal.").format(
                                positions=count_positions(size), pegs=count_pegs(pegs)))
    return Assessment("cannot", cannot_sentence(goal_words),
                      _("Reverse jumps from the goal reach every position with {pegs} that can "
                        "reach it: {count} of them (up to symmetry), and this is not one.").format(
                            pegs=count_pegs(pegs), count=format_number(size)))
