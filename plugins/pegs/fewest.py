"""The ``fewest-moves`` solver: a solution with the fewest *moves*, a move being a chain of
jumps by one peg (Bergholt's and Beasley's measure; every solution has the same number of
jumps, but not of moves).

Boards of at most 64 holes (with numba): breadth-first search over chain moves restricted to
the positions that can still reach the goal (:mod:`.chainbfs`, using the table of
:mod:`.verdict`: the large one when it is on disk, else the small one built on first use). The
first level holding the goal is the fewest moves, proved.

Larger boards (the fallback): A* over states (position, hole where the last jump landed): a
jump by the peg that just landed continues the move (cost 0), any other jump starts a new one
(cost 1). The
lower bound counts pegs standing on holes that no jump can pass over (the corners of the
English board, for example): such a peg can only leave its hole by a move of its own, so each
needs a move starting there, except the peg that is mid-move and one that may stay as the last
peg. The bound never drops by more than the cost of a step, so the first goal taken from the
queue has the fewest moves: the answer is reported optimal only then; at the deadline the
solver gives up rather than offer an unproved answer. Positions are pruned only by proofs
(pagoda functions of the goal; on small boards, the exact table of positions that can reach
the goal from :mod:`.verdict`).
"""

from __future__ import annotations

import heapq
import itertools
import time

from engine import N_, GaveUp, PrepareCost, SolveContext, Solved, Solver, Unsolvable

from . import chainbfs
from .board import PegInstance
from .classes import class_verdict
from .i18n import CATALOGUE, _
from .search import compile_problem, quick_verdict

#: Boards up to this many holes use the exact table of positions that can reach the goal.
TABLE_HOLES = 25
#: States between two looks at the clock.
CHECK_EVERY = 4096


class Stopped(Exception):
    """The search stopped (deadline or cancelled): how far it got, and the proved lower bound
    on the number of moves."""

    def __init__(self, reason: str, expanded: int, bound: int):
        super().__init__(reason)
        self.reason, self.expanded, self.bound = reason, expanded, bound


def unjumpable_holes(board) -> int:
    """Holes that are never the middle of a jump (compact bitboard)."""
    middle = 0
    for _f, o, _t in board.jumps:
        middle |= 1 << o
    return board.full & ~middle


def fewest_moves(inst: PegInstance, ctx: SolveContext, alive=None):
    """(jump names, moves, states expanded) for a solution with the fewest moves, None as the
    first item when no solution exists; raises :class:`Stopped` when ``ctx`` says stop.
    ``alive(pos) -> bool | None`` may prune positions proved unable to reach the goal."""
    p = compile_problem(inst, use_symmetry=False)
    board = p.board
    corners = unjumpable_holes(board) & ~p.goal
    any_goal = p.goal == 0
    jumps = [(f, need, 1 << t, flip, j, t)
             for (need, _to, flip, j), (f, _over, t) in zip(p.jumps, board.jumps)]
    pagodas = p.pagodas
    need_vals = [pg.value(p.goal) for pg in pagodas]

    def h(pos: int, last: int) -> int:
        c = pos & corners
        if last >= 0:
            c &= ~(1 << last)
        k = c.bit_count()
        return max(0, k - 1) if any_goal else k

    start = (p.start, -1)
    best = {start: 0}
    parent: dict[tuple[int, int], tuple[tuple[int, int], int]] = {}
    tie = itertools.count()
    queue = [(h(*start), 0, next(tie), start)]
    expanded = 0
    while queue:
        f_cost, g, _tie, state = heapq.heappop(queue)
        if g > best.get(state, g):
            continue
        pos, last = state
        if p.is_goal(pos):
            moves = []
            while state in parent:
                state, j = parent[state]
                moves.append(p.move_name(j))
            moves.reverse()
            return moves, g, expanded
        expanded += 1
        if expanded % CHECK_EVERY == 0:
            if ctx.should_stop():
                raise Stopped(ctx.stop_reason() or "deadline", expanded, f_cost)
            ctx.progress(nodes=expanded, bound=f_cost, pegs=pos.bit_count())
        for frm, need, to, flip, j, landing in jumps:
            if pos & need != need or pos & to:
                continue
            child = pos ^ flip
            if any(pg.value(child) < v for pg, v in zip(pagodas, need_vals)):
                continue
            if alive is not None and alive(child) is False:
                continue
            cost = g + (0 if frm == last else 1)
            nxt = (child, landing)
            if cost < best.get(nxt, cost + 1):
                best[nxt] = cost
                parent[nxt] = (state, j)
                heapq.heappush(queue, (cost + h(child, landing), cost, next(tie), nxt))
    return None, 0, expanded


class FewestMovesSolver(Solver):
    """The fewest moves, proved: breadth-first search over chain moves among positions that can
    still reach the goal (boards of at most 64 holes), else A* with the unjumpable-holes lower
    bound."""

    puzzle_id = "pegs"
    name = "fewest-moves"
    optimal = True
    catalogue = CATALOGUE
    description = N_("A solution with the fewest moves, a move being a chain of jumps by one peg; "
                     "breadth-first search over moves among the positions that can still reach "
                     "the goal (from the table of such positions: the small one, built in "
                     "seconds, or the large one when on disk, or built within the solve when the "
                     "time limit leaves room; `puzzle prepare pegs` builds the English and "
                     "European ones ahead of time). Gives up at the deadline when the search "
                     "does not fit, saying what would help.")

    def solve(self, instance: PegInstance, ctx: SolveContext):
        if instance.is_solved():
            return Solved((), optimal=True, stats={"nodes": 0, "moves": 0})
        board = instance.board
        start, goal = board.to_compact(instance.pegs), board.to_compact(instance.goal)
        verdict = class_verdict(board, start, goal)
        if not verdict.feasible:
            return Unsolvable(verdict.reason, stats={"nodes": 0, "proof": "position class"})
        reason = quick_verdict(compile_problem(instance))
        if reason:
            return Unsolvable(reason, stats={"nodes": 0, "proof": "no search"})
        if board.n <= 64 and chainbfs.AVAILABLE:
            return self._solve_bfs(instance, ctx)
        alive = None
        if board.n <= TABLE_HOLES:
            from .verdict import judge_for  # the exact table: tiny on boards this small

            judge = judge_for(instance, wait=True)

            def alive(pos, judge=judge):
                return judge.is_alive(pos) if pos.bit_count() <= judge.top else None
        try:
            moves, count, expanded = fewest_moves(instance, ctx, alive)
        except Stopped as exc:
            return GaveUp(exc.reason, stats={"nodes": exc.expanded, "bound": exc.bound})
        if moves is None:
            return Unsolvable(_("Exhaustive search: no sequence of jumps reaches the goal."),
                              stats={"nodes": expanded})
        return Solved(tuple(moves), optimal=True, stats={"nodes": expanded, "moves": count})

    def prepare(self, ctx: SolveContext, *, big_builds: bool = False) -> bool:
        """The presets' small tables of positions that can reach the goal (seconds; the live
        verdict shares them); with ``big_builds`` (``puzzle prepare``) also the English and
        European large tables and opening books (minutes): :func:`.prepare.prepare`."""
        from . import prepare

        return prepare.prepare(ctx, big_builds)

    def prepare_cost(self, *, big_builds: bool = False) -> PrepareCost:
        from . import prepare

        return prepare.prepare_cost(big_builds)

    def _solve_bfs(self, instance: PegInstance, ctx: SolveContext, fresh=None):
        """``fresh``: a judge whose table was just built from scratch (no check needed).

        When the judge has only the small table and it does not reach the start, the large
        table pays for itself: built here first when the time left allows
        (:func:`.prepare.large_plan`), after a short try with the small one; otherwise the
        answer says, in ``stats["note"]``, what would help."""
        from . import prepare
        from .tables import LARGE_POSITIONS
        from .verdict import confirm_table, judge_for

        judge = fresh or judge_for(instance, wait=True)
        p = compile_problem(instance)  # the judge's symmetry group: it depends on the goal only
        note = None
        found = None
        build_seconds = None
        if fresh is None and judge.compiled and judge.positions < LARGE_POSITIONS \
                and judge.top < p.start.bit_count() - 1:
            plan = prepare.large_plan(judge)
            if plan.fits(ctx.remaining()):
                found = self._quick_try(p, judge, ctx)
                if found is None:
                    if ctx.should_stop():
                        return ctx.gave_up(**self._stats(judge))
                    began = time.monotonic()
                    big = prepare.build_large(instance, ctx)
                    if big is None:
                        return ctx.gave_up(phase=_("building the table of positions that can "
                                                   "reach the goal"), **self._stats(judge))
                    judge = fresh = big
                    build_seconds = round(time.monotonic() - began, 3)
            else:
                note = prepare.help_sentence(instance, plan)
        stats = self._stats(judge)
        if build_seconds is not None:
            stats["table_built"] = "now, for this solve"
            stats["table_build_seconds"] = build_seconds
        try:
            jumps, count, visited = found or chainbfs.fewest_moves_bfs(p, judge, ctx)
        except chainbfs.Stopped as exc:
            reason = exc.reason
            if judge.top < p.start.bit_count():
                if judge.positions < LARGE_POSITIONS and not note:
                    reason = _("{reason} (the table of positions that can reach the goal stops at "
                               "{top} pegs; `puzzle pegs table` builds a larger one)").format(
                                   reason=reason, top=judge.top)
                else:
                    reason = _("{reason} (the table of positions that can reach the goal stops at "
                               "{top} pegs)").format(reason=reason, top=judge.top)
            if note:  # only when it gave up: an answer found on the small table needs no help
                stats["note"] = note
            return GaveUp(reason, stats={**stats, "nodes": exc.visited, "bound": exc.bound})
        stats["nodes"] = visited
        if jumps is None:
            # Stored for good: the table it rests on is checked once more first (a damaged
            # table must not become a permanent wrong "unsolvable").
            trusted = judge if fresh else confirm_table(instance, judge)
            if trusted is None:
                return GaveUp(_("The table this answer rests on changed on disk and could not be "
                                "checked again; ask again."), stats=stats)
            if trusted is not judge:
                return self._solve_bfs(instance, ctx, fresh=trusted)
            return Unsolvable(_("Exhaustive search: no sequence of moves reaches the goal."),
                              stats={**stats, "table": "checked again"})
        stats["moves"] = count
        return Solved(tuple(p.move_name(j) for j in jumps), optimal=True, stats=stats)

    @staticmethod
    def _stats(judge) -> dict:
        return {"method": "breadth-first over chain moves", "table_pegs": judge.top,
                "table_positions": judge.backward_size}

    @staticmethod
    def _quick_try(p, judge, ctx: SolveContext):
        """The search on the small table for a few seconds (:data:`.prepare.QUICK_TRY_SECONDS`,
        at most a tenth of the time left): its answer, or None when it did not finish."""
        from .prepare import QUICK_TRY_SECONDS

        left = ctx.remaining()
        seconds = QUICK_TRY_SECONDS if left is None else min(QUICK_TRY_SECONDS, left / 10)
        quick = SolveContext(deadline=time.monotonic() + seconds, cancel=ctx.cancel,
                             on_progress=ctx.on_progress)
        try:
            return chainbfs.fewest_moves_bfs(p, judge, quick)
        except chainbfs.Stopped:
            return None
