"""The ``optimal`` sliding-tile solver: IDA* with admissible heuristics, shortest answers.

* 4x4 boards: additive 6-6-3 pattern databases with the mirrored lookup (:mod:`.pdb`), built
  once (with progress, honouring cancellation) and cached on disk.
* Other boards of 10 to 16 cells (2 x 5 to 2 x 8, 3 x 4, 3 x 5, ...): two or three additive
  partitions per shape (:mod:`.small_boards`), built in seconds the first time a board of that shape
  needs them, when the time limit leaves room; else the search runs with linear conflict and
  the answer's note says what the tables would take.
* Every other size, and a goal whose blank is not in a corner: Manhattan distance plus linear
  conflict.

Both searches run in compiled chunks (:mod:`.ida`); between chunks the solver reports progress
and checks the deadline and cancellation.

Linear conflict works with any goal directly. For the databases, a 4x4 goal other than the
standard one (for example the blank-first goal of the research literature) is handled by a
symmetry of the board followed by a relabelling of the tiles: the symmetry brings the goal's
blank to the bottom-right corner, the relabelling names each tile after its goal cell. Both
preserve adjacency, so the moves found map back one to one and the length, hence optimality, is
unchanged.
"""

from __future__ import annotations

import math
import time
from typing import Callable

from engine import N_, GaveUp, PrepareCost, SolveContext, Solved, Solver, Unsolvable

from . import pdb, pdb_compact, pdb_file, small_boards
from .board import Board, unsolvable_detail, unsolvable_reason
from .goals import goal_mapping
from .i18n import CATALOGUE, _
from .ida import PdbSearch
from .ida_compact import CompactSearch
from .ida_lc import LinearConflictSearch
from .small_boards import PartitionSearch


def _poll(ctx: SolveContext, heuristic: str) -> Callable[[dict], bool]:
    def poll(stats: dict) -> bool:
        ctx.progress(phase=_("searching"), heuristic=heuristic, **stats)
        return ctx.should_stop()
    return poll


class OptimalSolver(Solver):
    """IDA* with pattern databases (4x4) or linear conflict (other sizes): shortest solutions."""

    puzzle_id = "sliding"
    name = "optimal"
    optimal = True
    catalogue = CATALOGUE
    description = N_("IDA*: shortest solutions. 4x4: additive 7-8 pattern databases with the "
                     "mirrored lookup once `puzzle prepare sliding` has built them (minutes, "
                     "275 MiB on disk), else 6-6-3 ones (built in about 10 s, then cached); other "
                     "boards of 10 to 16 cells (2x5 to 2x8, 3x4, 3x5): two or three additive "
                     "partitions per shape, built in seconds on first use, then cached; smaller boards and "
                     "other goals: Manhattan distance plus linear conflict (8-puzzle in "
                     "milliseconds; 5x5 and larger only when close to solved).")

    #: The 4x4 partitions: 7-8 when prepared, else 6-6-3 (built on demand).
    partition = pdb.PARTITION_4X4
    partition78 = pdb_compact.PARTITION_4X4_78

    #: Use the 7-8 tables when they are on disk (the bench turns this off to compare).
    use_78 = True

    #: Nodes of linear-conflict search tried before building missing databases: easy 4x4s
    #: (presets, short scrambles) are answered at once, still optimally, without the build.
    quick_try_nodes = 1_000_000

    def prepare(self, ctx: SolveContext, *, big_builds: bool = False) -> bool:
        """Load or build the 4x4 tables now, so the first 15-puzzle solve is fast.

        Builds the 7-8 tables (minutes, 2.4 GB of memory) only with ``big_builds`` (``puzzle
        prepare``) and when memory and disk suffice, else says why on the log; without them it
        makes sure the 6-6-3 tables (about 10 s) are ready instead. A server preparing its
        workers (no ``big_builds``) only loads the 7-8 tables if they are on disk, so it starts
        in seconds. ``big_builds`` also builds the thin boards' tables
        (:data:`small_boards.PREPARED_SHAPES`, about 85 MB, a minute or two).
        """
        try:
            if big_builds:
                for rows, cols in small_boards.PREPARED_SHAPES:
                    small_boards.get_tables(rows, cols, _build_progress(ctx, f"the {rows}x{cols} boards"),
                                            ctx.should_stop)
                short = pdb_compact.shortfall(4, 4, self.partition78)
                if short is None:
                    tables = pdb_compact.get_tables(4, 4, self.partition78, True,
                                                    _build_progress(ctx, FIFTEEN), ctx.should_stop)
                    return tables is not None
                # Said in words where the background builds are shown (engine.background).
                ctx.progress(force=True, tables=FIFTEEN, skipped=short)
                pdb_file.log.warning("warning: the 7-8 tables are not built (%s); the 6-6-3 "
                                     "tables are used instead", short)
            elif pdb_compact.get_tables(4, 4, self.partition78, build=False) is not None:
                return True
        except pdb.BuildCancelled:
            return False
        return not isinstance(self._tables(4, 4, ctx), GaveUp)

    def prepare_cost(self, *, big_builds: bool = False) -> PrepareCost:
        """The tables :meth:`prepare` would still build (files not on disk), estimated."""
        cost = PrepareCost()
        if big_builds:
            for rows, cols in small_boards.PREPARED_SHAPES:
                entries = small_boards.build_entries(rows, cols)
                if entries:
                    # All the shape's tables stay loaded once built (a byte per entry).
                    kept = sum((rows * cols) ** len(p) for p in small_boards.patterns(rows, cols))
                    cost += PrepareCost(small_boards.build_seconds(rows, cols),
                                        small_boards.build_memory(rows, cols), entries,
                                        (f"{rows}x{cols} pattern databases",), kept=kept)
            big = pdb_compact.prepare_cost(4, 4, self.partition78, "4x4 7-8 pattern databases")
            if big.seconds:
                return cost + big
        if not pdb.cached_on_disk(4, 4, self.partition):
            memory = max(pdb.build_bytes(4, 4, p) for p in self.partition)
            kept = sum(16 ** len(p) for p in self.partition)
            cost += PrepareCost(SECONDS_663, memory, kept, ("4x4 6-6-3 pattern databases",),
                                kept=kept)
        return cost

    def solve(self, instance: Board, ctx: SolveContext):
        reason = unsolvable_reason(instance)
        if reason is not None:
            return Unsolvable(reason, detail=unsolvable_detail(instance))
        if tuple(instance.tiles) == tuple(instance.goal):
            return Solved((), optimal=True, stats={"nodes": 0, "lower_bound": 0})
        rows, cols = instance.rows, instance.cols
        started = time.perf_counter()
        if small_boards.handles(instance):
            return self._solve_small(instance, ctx, started)
        mapping = goal_mapping(instance) if (rows, cols) == (4, 4) else None
        note = None
        if mapping is not None and self.use_78:
            big = pdb_compact.get_tables(4, 4, self.partition78, build=False)
            if big is not None:
                search = CompactSearch(mapping.tiles(instance.tiles), big)
                sizes = "-".join(str(len(p)) for p in self.partition78)
                heuristic = _("pattern databases {sizes} + mirror").format(sizes=sizes)
                return self._run(search, mapping, heuristic, ctx, started, None)
            note = _("the 7-8 tables are not prepared (`puzzle prepare sliding` builds them); "
                     "used 6-6-3")
        lc = lambda: LinearConflictSearch(instance.tiles, rows, cols, instance.goal)
        if mapping is not None and not pdb.available(rows, cols, self.partition):
            quick = self._quick_try(instance, ctx, started)
            if quick is not None:
                return quick
        built = None
        if mapping is not None:
            missing, t0 = not pdb.available(rows, cols, self.partition), time.perf_counter()
            tables = self._tables(rows, cols, ctx)
            if isinstance(tables, GaveUp):
                return tables
            if missing:  # built here, or waited for (another process held its lock)
                built = time.perf_counter() - t0
            search = PdbSearch(mapping.tiles(instance.tiles), rows, cols, tables)
            heuristic = _("pattern databases {sizes} + mirror").format(sizes="6-6-3")
        else:
            search = lc()
            heuristic = _("linear conflict")
            note = None
        return self._run(search, mapping, heuristic, ctx, started, note, built)

    def _quick_try(self, board: Board, ctx: SolveContext, started):
        """Before building missing tables: :attr:`quick_try_nodes` of linear-conflict search,
        which answers easy boards (presets, short scrambles) at once, still shortest. The
        outcome when it answered or time ran out, else None (go on and build)."""
        search = LinearConflictSearch(board.tiles, board.rows, board.cols, board.goal)
        path = search.run(lambda stats: stats["nodes"] >= self.quick_try_nodes
                          or ctx.should_stop())
        if path is not None:
            return self._solved(path, None, search, _("linear conflict"), started, None)
        if ctx.should_stop():
            return ctx.gave_up(**search.stats())
        return None

    def _solve_small(self, instance: Board, ctx: SolveContext, started):
        """A board of 10 to 16 cells other than 4x4, or a 4x4 whose goal's blank is not in a
        corner (:mod:`.small_boards`): the tables of its shape and goal, built now if missing
        and the time limit, memory and disk leave room, else linear conflict and a note saying
        what the tables would take. A tall board is searched transposed, so a shape and its
        transpose share tables; the moves (tile numbers) are the same either way. Any goal is
        mapped onto a goal the tables are built for (:func:`.goals.home_mapping`)."""
        aim = small_boards.target(instance)
        board, mapping, rows, cols, blank = aim.board, aim.mapping, aim.rows, aim.cols, aim.blank
        if not small_boards.available(rows, cols, blank):
            quick = self._quick_try(board, ctx, started)
            if quick is not None:
                return quick
            if not small_boards.build_fits(rows, cols, ctx.remaining(), blank):
                note = small_tables_note(rows, cols, blank, ctx)
                search = LinearConflictSearch(board.tiles, rows, cols, board.goal)
                return self._run(search, None, _("linear conflict"), ctx, started, note)
        missing, t0 = not small_boards.available(rows, cols, blank), time.perf_counter()
        try:
            tables = small_boards.get_tables(rows, cols, _build_progress(ctx), ctx.should_stop,
                                             blank)
        except pdb.BuildCancelled:
            return ctx.gave_up(phase=_(BUILDING))
        built = time.perf_counter() - t0 if missing else None
        search = PartitionSearch(mapping.tiles(board.tiles), rows, cols, tables)
        return self._run(search, mapping, small_boards.label(rows, cols, blank), ctx, started,
                         None, built)

    def _run(self, search, mapping, heuristic, ctx, started, note, built=None):
        path = search.run(_poll(ctx, heuristic))
        if path is None:
            stats = dict(search.stats(), heuristic=heuristic)
            if note:
                stats["note"] = note
            if built is not None:
                stats["table_build_seconds"] = round(built, 3)
            ctx.progress(force=True, phase=_("searching"), **stats)
            return ctx.gave_up(**stats)
        return self._solved(path, mapping, search, heuristic, started, note, built)

    @staticmethod
    def _solved(path, mapping, search, heuristic, started, note, built=None) -> Solved:
        """``built``: seconds this solve spent getting missing tables (building them, or
        waiting for another process's build), kept in the stats as ``table_build_seconds``."""
        moves = mapping.moves_back(path) if mapping is not None else [str(m) for m in path]
        stats = dict(search.stats(), heuristic=heuristic,
                     search_seconds=round(time.perf_counter() - started, 6),
                     lower_bound=len(moves))   # IDA* proves it: every shorter bound was searched
        if note:
            stats["note"] = note
        if built is not None:
            stats["table_build_seconds"] = round(built, 3)
        return Solved(tuple(moves), optimal=True, stats=stats)

    def _tables(self, rows: int, cols: int, ctx: SolveContext):
        """The 6-6-3 databases, built inside this solve if no process has saved them yet."""
        try:
            return pdb.get_tables(rows, cols, self.partition, _build_progress(ctx),
                                  ctx.should_stop)
        except pdb.BuildCancelled:
            return ctx.gave_up(phase=_(BUILDING))


#: Seconds a solve spends besides building the tables, in :func:`build_limit`: the quick
#: linear-conflict try, the search on the new tables and the default solver's reserve for an
#: answer with a bound when the shortest is not found in time (:mod:`.auto`).
OTHER_SECONDS = 3.0


#: Seconds the 4x4 6-6-3 tables take to build (7-16 s measured, docs/sliding-pdb.md).
SECONDS_663 = 10.0


def tables_seconds(rows: int, cols: int, blank: int | None = None) -> float:
    """About how long the tables a shortest answer on this shape and goal needs take to build
    (0 when they are on disk): the 6-6-3 tables on a 4x4 with its blank in a corner, else
    :mod:`.small_boards`' tables."""
    if (rows, cols) == (4, 4) and blank is None:
        return 0.0 if pdb.cached_on_disk(4, 4, pdb.PARTITION_4X4) else SECONDS_663
    return small_boards.build_seconds(rows, cols, blank)


def build_limit(rows: int, cols: int, blank: int | None = None,
                given: float | None = None) -> int:
    """The least time limit, in whole seconds, with which a solve builds the missing tables:
    above ``given``, the limit a solve had that could not (the machine was slower than the
    estimate, or the quick try took the time), so a note never names a limit that failed."""
    seconds = tables_seconds(rows, cols, blank)
    limit = max(5, math.ceil(small_boards.BUILD_MARGIN * seconds + OTHER_SECONDS))
    if given is not None and limit <= given:
        limit = 2 * math.ceil(given)
    return limit


def small_tables_note(rows: int, cols: int, blank: int | None = None,
                      ctx: SolveContext | None = None) -> str:
    """What would make shortest answers on this shape and goal fast, in one sentence: what
    building the tables takes and which command or time limit does it (``ctx``: the solve
    that went without, whose time limit the sentence must go beyond), or why they cannot be
    built here now (memory, disk)."""
    seconds = max(1, round(tables_seconds(rows, cols, blank)))
    short = None if (rows, cols) == (4, 4) and blank is None else small_boards.room(rows, cols, blank)
    if short is not None:
        return _("shortest answers on {rows} x {cols} boards need pattern databases that take "
                 "about {seconds} s to build once, but {short}").format(
            rows=rows, cols=cols, seconds=seconds, short=short)
    given = None
    if ctx is not None and ctx.deadline is not None:
        given = ctx.deadline - ctx.started
    limit = build_limit(rows, cols, blank, given)
    if blank is None:
        return _("shortest answers on {rows} x {cols} boards need pattern databases that take "
                 "about {seconds} s to build once (then cached): `puzzle prepare sliding` builds "
                 "them, and so does a solve with a time limit of {limit} s or more").format(
            rows=rows, cols=cols, seconds=seconds, limit=limit)
    return _("shortest answers on {rows} x {cols} boards with this goal need pattern databases "
             "that take about {seconds} s to build once (then cached): a solve with a time limit "
             "of {limit} s or more builds them").format(
        rows=rows, cols=cols, seconds=seconds, limit=limit)


#: The phase of a progress report while tables are built (tests look for it in English).
BUILDING = N_("building pattern database")

#: What the 7-8 tables are for, in the words of a progress report (``tables``).
FIFTEEN = "the 15-puzzle"


def _build_progress(ctx: SolveContext, tables: str | None = None):
    """A build's progress as the context's reports; ``tables`` names what they are for (shown
    by the background preparer: "Faster tables for the 15-puzzle: building, 43%")."""
    named = {"tables": tables} if tables else {}

    def progress(done: int, total: int, pattern: str) -> None:
        ctx.progress(phase=_(BUILDING), done=done, total=total,
                     pattern=pattern, **named)
    return progress
