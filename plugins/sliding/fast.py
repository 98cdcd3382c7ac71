"""The `fast` sliding-tile solver: short solutions quickly, on any solvable board up to 32 x 32.

Two methods:

* **Weighted A*** (f = g + w * h, h = Manhattan + linear conflict) for boards of at most 25
  cells (not 2 cells wide beyond 2 x 6, which A* finds hard). It tries a small weight first
  (short solutions) under a node budget, then larger weights (:mod:`.wastar`). The search is
  compiled with numba (:mod:`.fast_kernel`); a pure-Python version with the same results, about
  8 times slower, is used if the compiled one cannot run.
* **Row-and-column reduction** (:mod:`.reduction`) for bigger boards (and as the fallback):
  place the tiles of one outer row or column, tile by tile, never disturbing placed ones, which
  leaves a smaller board; repeat until at most 4 x 4 cells are left and finish with weighted
  A*, or, if that runs over its budget (or the rest is 2 cells wide), go on down to 3 x 3 and
  finish with exact A*. Rows and columns are peeled from the sides away from the goal's blank,
  so any goal works.

This module holds the solver and its schedules (which weights, with which node budgets).
"""

from __future__ import annotations

import time

from engine import N_, GaveUp, SolveContext, Solved, Solver, Unsolvable

from .board import Board, unsolvable_detail, unsolvable_reason
from .heuristics import lower_bound
from .i18n import CATALOGUE, _
from .reduction import reduction_solve
from .shorten import cancel_undos
from .wastar import Stop, kernel_usable, search, use_compiled

#: (weight, budget of expanded nodes) pairs tried in turn by weighted A*, by board area: small
#: weights first (short solutions), larger ones when the budget runs out. Boards above 25 cells
#: (and any board the schedule fails on) go to the reduction, which finishes its last <= 16
#: cells with the FINISH schedule. The compiled search expands about 0.7 M nodes/s, the
#: Python one about 60,000.
KERNEL_SCHEDULES = (
    (9, ((1.0, 200_000),)),
    (12, ((1.0, 300_000), (1.5, 300_000), (2.0, 500_000))),
    (16, ((1.0, 100_000), (1.25, 400_000), (1.5, 600_000), (2.0, 800_000))),
    (25, ((1.5, 500_000), (1.75, 600_000), (2.0, 800_000), (3.0, 800_000))),
)
KERNEL_FINISH = ((1.25, 50_000), (1.5, 100_000), (2.0, 150_000))
PY_SCHEDULES = (
    (9, ((1.0, 400_000),)),
    (12, ((1.0, 20_000), (1.5, 40_000), (2.0, 60_000))),
    (16, ((1.25, 15_000), (1.5, 40_000), (2.0, 60_000), (3.0, 100_000))),
    (25, ((2.0, 80_000), (2.5, 60_000), (4.0, 100_000))),
)
PY_FINISH = ((1.5, 15_000), (2.0, 25_000))
#: Seconds the weighted searches may take in all before the reduction (always quick) answers.
SEARCH_SECONDS = 5.0
#: Seconds kept back from the deadline for the reduction.
RESERVE = 1.0


def schedules(compiled: bool) -> tuple[tuple, tuple]:
    """(schedules by area, finishing schedule) for the compiled or the Python search."""
    return (KERNEL_SCHEDULES, KERNEL_FINISH) if compiled else (PY_SCHEDULES, PY_FINISH)


def schedule_for(rows: int, cols: int, compiled: bool) -> tuple[tuple[float, int], ...]:
    """The weighted-A* schedule for a board (empty: use the reduction). Long thin boards (2 x 7
    and up) are hard for A* and easy for the reduction."""
    area = rows * cols
    if area > 12 and min(rows, cols) < 3:
        return ()
    for limit, schedule in schedules(compiled)[0]:
        if area <= limit:
            return schedule
    return ()


class FastSolver(Solver):
    """Short solutions for small boards (weighted A*), any board up to 32 x 32 in about a second
    (row-and-column reduction). Not optimal."""

    puzzle_id = "sliding"
    name = "fast"
    optimal = False
    catalogue = CATALOGUE
    description = N_("Weighted A* (Manhattan + linear conflict) on boards up to 5 x 5, row-and-column "
                     "reduction on bigger ones; short but not always shortest solutions.")

    def prepare(self, ctx: SolveContext, *, big_builds: bool = False) -> bool:
        """Compile (or load from numba's disk cache) the compiled search now.

        Without this, a process's first solve under a deadline shorter than the compile time
        takes the slower pure-Python search, because it cannot know the compile would be quick.
        """
        if not kernel_usable():
            return True
        ctx.progress(phase=_("compiling the weighted A* search"))
        search(2, 2, (1, 2, 0, 3), (1, 2, 3, 0), 1.0, 100, None, {"nodes": 0})
        return True

    def solve(self, instance: Board, ctx: SolveContext) -> Solved | Unsolvable | GaveUp:
        reason = unsolvable_reason(instance)
        if reason:
            return Unsolvable(reason, detail=unsolvable_detail(instance))
        if instance.is_solved():
            return Solved((), optimal=True, stats={"nodes": 0})
        stats: dict = {"nodes": 0}
        try:
            give_up_at = time.monotonic() + SEARCH_SECONDS
            remaining = ctx.remaining()
            if remaining is not None:
                give_up_at = min(give_up_at, time.monotonic() + remaining - RESERVE)
            compiled = use_compiled(ctx)
            for weight, budget in schedule_for(instance.rows, instance.cols, compiled):
                moves = search(instance.rows, instance.cols, instance.tiles, instance.goal,
                               weight, budget, ctx, stats, give_up_at, compiled)
                if moves is not None:
                    stats["method"] = _("weighted A* (w={weight})").format(weight=f"{weight:g}")
                    return self._solved(instance, moves, stats)
            moves, work = reduction_solve(instance, ctx, schedules(compiled)[1], compiled)
            stats["nodes"] += work
            stats["method"] = _("row/column reduction")
            return self._solved(instance, cancel_undos(moves), stats)
        except Stop:
            return ctx.gave_up(**stats)

    @staticmethod
    def _solved(instance: Board, moves: list[int], stats: dict) -> Solved:
        stats["lower_bound"] = lower_bound(instance)
        # Weight-1 answers happen to be shortest, but this solver does not promise it.
        return Solved(tuple(str(t) for t in moves), optimal=False, stats=stats)
