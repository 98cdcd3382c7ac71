"""The ``bounded`` sliding-tile solver: a near-shortest answer in seconds, with a proven bound.

Every answer comes with ``stats["lower_bound"]``: a length no solution can beat, proven by an
admissible heuristic and by the exact search iterations that completed. The engine shows it as
"at most N moves longer than the shortest"; when the bound meets the answer's length, the answer
is proven shortest and the search stops early.

How (anytime, within the time budget):

1. **Weighted IDA*** over compact pattern databases (6-6-6-6 with the mirrored lookup on the
   5x5, 7-8 or nothing on the 4x4): ``f = g + w * h`` with w falling from 1.5 towards 1, each
   round looking only for answers shorter than the best so far (every node whose admissible
   ``g + h`` reaches the best length is cut). A round that finishes without an answer proves
   the best one shortest. Each answer is then shortened by re-solving windows of it exactly
   (:mod:`.shorten`, with the tables relabelled to each window's end), and the best one is
   polished the same way for part of the time (:mod:`.anytime`).
2. **Exact IDA*** with the rest of the time, still cut at the best length: each finished
   iteration raises the proven lower bound by two; finding an answer proves it shortest.

Boards without compact tables (other shapes, or tables not prepared) start from the ``fast``
solver's answer and raise the Manhattan + linear-conflict bound by exact IDA* iterations.

The budget is the caller's deadline (less a margin for checking the answer) or, without one,
:data:`DEFAULT_SECONDS`.

Tables not on disk are built inside the solve when the time limit leaves room for the build
(:func:`build_plan`: the measured build time, :data:`BUILD_MARGIN` over, plus the search
budget) and memory and disk suffice: with progress, honouring cancel, each finished table saved
at once and one stopped midway never written. A build that runs past the time it was given (a
busy machine) is stopped, and the solve answers without it in the time kept for the search.
Otherwise the answer's note says, in one sentence, what the tables would change and what
builds them (:func:`_tables_note`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from engine import N_, PrepareCost, SolveContext, Solved, Solver, Unsolvable

from . import anytime, pdb, pdb_compact, pdb_file
from .board import Board, unsolvable_detail, unsolvable_reason
from .fast import FastSolver
from .heuristics import lower_bound
from .i18n import CATALOGUE, _, ngettext
from .ida import R_BOUND
from .ida_lc import LinearConflictSearch
from .optimal import BUILDING, goal_mapping

#: Search time when the caller sets no deadline.
DEFAULT_SECONDS = 8.0
#: Part of the budget kept back for the engine's check of the answer and for returning.
MARGIN = 0.1

PARTITIONS = {5: pdb_compact.PARTITION_5X5, 4: pdb_compact.PARTITION_4X4_78}
#: A build starts inside a solve only if the time left is this many times its estimate, plus
#: the search's budget: the estimate is a quiet machine's (docs/sliding-pdb.md, Figures).
BUILD_MARGIN = 1.5
#: Measured on Korf and Felner's 24-puzzles with a 10 s limit (docs/sliding-pdb.md, On a fresh
#: install): mean answer length over the optimum without the 5x5 tables (1.343 on instances
#: 1-10, `bench/sliding.py --fresh`) and with them (1.036 on all 50 with the two search lanes,
#: 1.048 before them). The note of an answer without them says these.
LONGER_WITHOUT_5X5 = 0.34
LONGER_WITH_5X5 = 0.04
#: The phase of the exact search that raises the proven bound, in progress reports.
RAISING = anytime.RAISING


class _Clock:
    """The deadline of one solve, and cancellation."""

    def __init__(self, ctx: SolveContext, seconds: float | None):
        remaining = ctx.remaining()
        budget = DEFAULT_SECONDS if seconds is None and remaining is None else seconds
        if remaining is not None:
            # The caller's time limit, less the margin (or ``seconds`` if that is less).
            budget = remaining * (1 - MARGIN) if budget is None else min(budget, remaining * (1 - MARGIN))
        self.ctx = ctx
        self.start = time.monotonic()
        self.end = self.start + max(0.0, budget)

    def left(self) -> float:
        return self.end - time.monotonic()

    def cancelled(self) -> bool:
        return self.ctx.cancel is not None and self.ctx.cancel.is_set()

    def over(self, until: float | None = None) -> bool:
        now = time.monotonic()
        return self.cancelled() or now >= self.end or (until is not None and now >= until)


class BoundedSolver(Solver):
    """Near-shortest answers within a time budget, each with a proven "at most N moves longer
    than the shortest" (see the module doc)."""

    puzzle_id = "sliding"
    name = "bounded"
    optimal = False
    catalogue = CATALOGUE
    description = N_("Anytime weighted IDA* with 6-6-6-6 pattern databases on the 5x5 (built once "
                     "by `puzzle prepare sliding`): a near-shortest answer within the time limit "
                     "(8 s without one), with a proven bound on how much shorter the shortest can "
                     "be; stops early when that bound proves the answer shortest.")

    #: Search seconds without a deadline (None: DEFAULT_SECONDS); tests and benches set it.
    seconds: float | None = None
    #: Run the exact phase after the weighted rounds (tests turn it off to see weighted answers).
    exact_phase = True
    #: Lanes of the search (None: one per core, at most two; :func:`.anytime.search_lanes`).
    lanes: int | None = None

    def prepare(self, ctx: SolveContext, *, big_builds: bool = False) -> bool:
        """Load the 5x5 tables, or build them (several minutes) with ``big_builds`` (``puzzle
        prepare``) when memory and disk suffice."""
        part = PARTITIONS[5]
        try:
            if pdb_compact.get_tables(5, 5, part, build=False) is not None:
                return True
            if not big_builds:
                return True    # works without them, with a looser bound
            short = pdb_compact.shortfall(5, 5, part)
            if short is not None:
                # Said in words where the background builds are shown (engine.background).
                ctx.progress(force=True, tables="the 24-puzzle", skipped=short)
                pdb_file.log.warning("warning: the 5x5 tables are not built (%s); 5x5 answers "
                                     "get looser bounds", short)
                return True
            progress = lambda d, t, p: ctx.progress(phase=_(BUILDING), done=d,
                                                    total=t, pattern=p, tables="the 24-puzzle")
            return pdb_compact.get_tables(5, 5, part, True, progress, ctx.should_stop) is not None
        except pdb.BuildCancelled:
            return False

    def prepare_cost(self, *, big_builds: bool = False) -> PrepareCost:
        """The 5x5 tables, when :meth:`prepare` would build them (``big_builds``, not on disk)."""
        if not big_builds:
            return PrepareCost()
        return pdb_compact.prepare_cost(5, 5, PARTITIONS[5], "5x5 6-6-6-6 pattern databases")

    def solve(self, instance: Board, ctx: SolveContext):
        reason = unsolvable_reason(instance)
        if reason is not None:
            return Unsolvable(reason, detail=unsolvable_detail(instance))
        if tuple(instance.tiles) == tuple(instance.goal):
            return Solved((), optimal=True, stats={"nodes": 0, "lower_bound": 0})
        rows, cols = instance.rows, instance.cols
        mapping = goal_mapping(instance) if rows == cols and rows in PARTITIONS else None
        tables = None
        built: dict = {}
        if mapping is not None:
            tables = pdb_compact.get_tables(rows, cols, PARTITIONS[rows], build=False)
            if tables is None:
                tables, built = self._build(rows, ctx)
        clock = _Clock(ctx, self.seconds)
        if tables is not None:
            outcome = self._anytime(instance, mapping, tables, clock)
        else:
            # (Only a goal the tables serve, blank in a corner, is helped by them.)
            note = built.get("note") or (_tables_note(instance) if mapping is not None else None)
            outcome = self._from_fast(instance, clock, note=note)
        if "table_build_seconds" in built and isinstance(outcome, Solved):
            outcome = Solved(outcome.moves, outcome.optimal,
                             {**outcome.stats, "table_build_seconds": built["table_build_seconds"]})
        return outcome

    def _build(self, size: int, ctx: SolveContext):
        """The square board's compact tables built now, when the time limit, memory and disk
        leave room (:func:`build_plan`), else None; and what to say: ``{"table_build_seconds":
        ...}`` when built, ``{"note": ...}`` when a build was started and stopped."""
        plan = build_plan(size, ctx.remaining(), self._search_seconds())
        if not plan.go:
            return None, {}
        part = PARTITIONS[size]
        # Stop the build in time for the search's budget: an answer is owed either way.
        build_end = time.monotonic() + (ctx.remaining() or 0.0) - plan.search - 1.0
        started = time.monotonic()
        progress = lambda d, t, p: ctx.progress(phase=_(BUILDING), done=d, total=t, pattern=p)
        try:
            tables = pdb_compact.get_tables(size, size, part, True, progress,
                                            lambda: ctx.should_stop() or time.monotonic() >= build_end)
        except pdb.BuildCancelled:
            if ctx.should_stop():
                return None, {}
            return None, {"note": _tables_note_slow(size, time.monotonic() - started)}
        return tables, {"table_build_seconds": round(time.monotonic() - started, 3)}

    def _search_seconds(self) -> float:
        return DEFAULT_SECONDS if self.seconds is None else self.seconds

    # -- with compact tables ------------------------------------------------------------------

    def _anytime(self, instance, mapping, tables, clock: _Clock):
        """The anytime search over the tables (:mod:`.anytime`), on up to two cores."""
        ctx = clock.ctx
        result = anytime.search(mapping.tiles(instance.tiles), tables, clock.start, clock.end,
                                clock.cancelled, lambda stats: ctx.progress(**stats),
                                exact=self.exact_phase, lanes=self.lanes)
        stats = {"nodes": result.nodes, "heuristic": _label(tables), "rounds": result.rounds}
        if result.best is None:
            if clock.cancelled():
                return ctx.gave_up(**_plain(stats))
            # No weighted answer in time: the fast solver's, with the tables' bound.
            return self._from_fast(instance, clock, result.lower_bound)
        stats["lower_bound"] = int(result.lower_bound)
        stats["search_seconds"] = round(time.monotonic() - clock.start, 3)
        moves = mapping.moves_back(result.best)
        return Solved(tuple(moves), optimal=bool(result.lower_bound == len(moves)),
                      stats=_plain(stats))

    # -- without ------------------------------------------------------------------------------

    def _from_fast(self, instance: Board, clock: _Clock, known_lb: int = 0,
                   note: str | None = None):
        """The fast solver's answer, then exact linear-conflict IDA* to raise the bound (and
        replace the answer by a shortest one if the search finishes in time)."""
        ctx = clock.ctx
        sub = SolveContext(deadline=clock.end, cancel=ctx.cancel)
        first = FastSolver().solve(instance, sub)
        if not isinstance(first, Solved):
            # Past our budget without an answer: give the fast solver the caller's time.
            first = FastSolver().solve(instance, ctx)
            if not isinstance(first, Solved):
                return first
        moves = list(first.moves)
        lb = max(lower_bound(instance), known_lb)
        stats = {"nodes": int(first.stats.get("nodes", 0)), "heuristic": _("linear conflict"),
                 "first": _("fast: {length}").format(length=len(moves))}
        if note and not known_lb:
            stats["note"] = note
        if lb < len(moves) and not clock.over():
            search = LinearConflictSearch(instance.tiles, instance.rows, instance.cols,
                                          instance.goal)

            def poll(s: dict) -> bool:
                ctx.progress(phase=_(RAISING), best=len(moves),
                             lower_bound=max(lb, s["bound"]), nodes=s["nodes"])
                return clock.over() or s["bound"] >= len(moves)

            path = search.run(poll)
            stats["nodes"] += search.stats()["nodes"]
            if path is not None and len(path) <= len(moves):
                moves = [str(t) for t in path]
                lb = len(moves)
            else:
                # Threshold T is searched only after everything below it: no shorter answer.
                bound = min(int(search.regs[R_BOUND]), len(moves))
                lb = max(lb, bound - ((bound - lb) & 1))
        stats["lower_bound"] = int(min(lb, len(moves)))
        stats["search_seconds"] = round(time.monotonic() - clock.start, 3)
        return Solved(tuple(moves), optimal=bool(stats["lower_bound"] == len(moves)),
                      stats=_plain(stats))


def _label(tables) -> str:
    name = "-".join(str(len(p)) for p in tables.partition)
    return _("pattern databases {sizes} + mirror").format(sizes=name)


def _plain(stats: dict) -> dict:
    """Stats as numbers and short strings (the outcome contract)."""
    out = dict(stats)
    if isinstance(out.get("rounds"), list):
        out["rounds"] = _("; ").join(out["rounds"])
    return out


@dataclass(frozen=True)
class BuildPlan:
    """Whether a solve builds a square board's missing compact tables (``go``), what that
    takes (``seconds``, an estimate; ``short``: why memory or disk do not allow it, else None)
    and the search's budget after it (``search``)."""

    go: bool
    seconds: float
    search: float
    short: str | None

    @property
    def needs(self) -> float:
        """The least time left, in seconds, with which a solve builds them."""
        return BUILD_MARGIN * self.seconds + self.search / (1 - MARGIN) + 2.0

    @property
    def limit(self) -> int:
        """A time limit that builds them, in whole tens of seconds (for the note)."""
        return 10 * math.ceil(self.needs / 10)


def build_plan(size: int, seconds_left: float | None, search: float = DEFAULT_SECONDS) -> BuildPlan:
    """Whether a solve with ``seconds_left`` (None: no limit) builds the ``size`` x ``size``
    board's missing tables. Without a limit it does not: the solver answers in
    :data:`DEFAULT_SECONDS`, and a build takes minutes; ``puzzle prepare`` is the way then."""
    part = PARTITIONS[size]
    seconds = pdb_compact.missing_cost(size, size, part)[0]
    if not seconds:
        return BuildPlan(False, 0.0, search, None)
    short = pdb_compact.shortfall(size, size, part)
    plan = BuildPlan(False, seconds, search, short)
    go = short is None and seconds_left is not None and seconds_left >= plan.needs
    return BuildPlan(go, seconds, search, short)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return _("about {seconds} s").format(seconds=max(5, 5 * round(seconds / 5)))
    minutes = round(seconds / 60)
    return ngettext("about {minutes} minute", "about {minutes} minutes", minutes).format(
        minutes=minutes)


def _tables_note(instance: Board) -> str | None:
    """What the missing tables would change, in one sentence: the cost and the effect."""
    if not (instance.rows == instance.cols == 5):
        return None
    plan = build_plan(5, None)
    if not plan.seconds:
        return None
    # The per cent sign goes with the number (a "%" in a message would read as a format).
    longer = f"{round(100 * LONGER_WITHOUT_5X5)}%"
    with_tables = f"{round(100 * LONGER_WITH_5X5)}%"
    if plan.short is not None:
        return _("answers here run about {longer} longer than the shortest; the 5x5 pattern "
                 "databases would bring that to about {with_tables}, but they cannot be built "
                 "here now: {short}").format(longer=longer, with_tables=with_tables,
                                             short=plan.short)
    return _("answers here run about {longer} longer than the shortest; `puzzle prepare "
             "sliding` ({duration}, once) builds the 5x5 pattern databases that bring that to "
             "about {with_tables}, and so does a solve with a time limit of {limit} s or "
             "more").format(longer=longer, duration=_duration(plan.seconds),
                            with_tables=with_tables, limit=plan.limit)


def _tables_note_slow(size: int, spent: float) -> str:
    """The note of a solve whose build of the tables was stopped (slower than estimated)."""
    return _("building the {size}x{size} pattern databases took longer here than the time "
             "limit left ({seconds} s, stopped; the finished tables are kept): `puzzle prepare "
             "sliding` builds them once, with no time limit").format(
        size=size, seconds=round(spent))
