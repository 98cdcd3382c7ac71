"""The default sliding-tile solver: picks the solver that suits the board's size.

* up to 16 cells (4 x 4, 2 x 8, 3 x 5, ...): ``optimal``, the shortest answer; pattern
  databases make these a matter of milliseconds to a second. A board whose tables are not
  built yet, under a time limit too short (or with too little memory or disk) to build them,
  goes to ``bounded`` instead (an answer with a proven bound now beats a "gave up"), and the
  answer says what the tables would take;
* up to 25 cells (5 x 5, 4 x 6, ...): ``bounded``, a near-shortest answer within the time limit
  with a proven bound on how much shorter the shortest can be; exact search on these boards can
  take hours;
* bigger boards: ``fast``, row-and-column reduction: an answer in about a second, no promise
  about its length (exact search does not scale that far).

Under a time limit, ``optimal`` gets all of it but a reserve (:func:`reserve`): when it does
not finish (a build or a search slower than its estimate on a busy machine), ``bounded``
answers in the reserve, from the ``fast`` solver's answer, with a proven bound. So the default
solver never gives up where an answer was possible; only a cancel ends it empty-handed.
"""

from __future__ import annotations

from engine import N_, GaveUp, SolveContext, Solver, Unsolvable

from . import pdb, small_boards
from .board import Board
from .bounded import BoundedSolver
from .fast import FastSolver
from .i18n import CATALOGUE, _
from .optimal import OptimalSolver, small_tables_note

EXACT_CELLS = 16
BOUNDED_CELLS = 25

#: Share of the time limit kept for ``bounded`` when ``optimal`` runs out of time, within
#: [RESERVE_MIN, RESERVE_MAX] seconds: on boards of up to 16 cells the fast answer takes
#: milliseconds, and the rest raises its proven bound.
RESERVE_SHARE = 0.1
RESERVE_MIN, RESERVE_MAX = 0.5, 3.0


def reserve(seconds_left: float) -> float:
    """Seconds of a time limit kept back for an answer with a bound."""
    return min(RESERVE_MAX, max(RESERVE_MIN, RESERVE_SHARE * seconds_left), seconds_left / 2)


class AutoSolver(Solver):
    """Delegates to ``optimal``, ``bounded`` or ``fast`` by board size (see the module doc)."""

    puzzle_id = "sliding"
    name = "auto"
    optimal = False
    catalogue = CATALOGUE
    description = N_("Picks by board size. Up to 16 cells (4 x 4, 2 x 8, 3 x 5), any goal: optimal, "
                     "shortest answers in about a second with pattern databases, built on first "
                     "use when the time limit allows (seconds on thin boards) or by `puzzle "
                     "prepare sliding`. Up to 25 cells (5 x 5): bounded, a near-shortest answer "
                     "within the time limit with a proven 'at most N moves longer than the "
                     "shortest', much closer to the shortest once the 5 x 5 pattern databases are "
                     "built (`puzzle prepare sliding`, or a time limit of about 4 minutes); exact "
                     "search there can take hours. Bigger: fast (row-and-column reduction), "
                     "because nothing exact scales that far.")

    def __init__(self, optimal: Solver | None = None, bounded: Solver | None = None,
                 fast: Solver | None = None):
        self.exact = optimal or OptimalSolver()
        self.bounded = bounded or BoundedSolver()
        self.fast = fast or FastSolver()

    def choose(self, board: Board) -> Solver:
        """The solver this board gets."""
        cells = board.rows * board.cols
        if cells <= EXACT_CELLS:
            return self.exact
        if cells <= BOUNDED_CELLS:
            return self.bounded
        return self.fast

    def prepare(self, ctx: SolveContext, *, big_builds: bool = False) -> bool:
        # The three solvers are registered too and prepared on their own.
        return True

    def solve(self, instance: Board, ctx: SolveContext):
        chosen = self.choose(instance)
        note = None
        aim = small_boards.target(instance) if small_boards.handles(instance) else None
        if chosen is self.exact and aim is not None \
                and not small_boards.available(aim.rows, aim.cols, aim.blank) \
                and not small_boards.build_fits(aim.rows, aim.cols, _exact_time(ctx), aim.blank):
            chosen, note = self.bounded, small_tables_note(aim.rows, aim.cols, aim.blank, ctx)
        if chosen is self.exact and ctx.deadline is not None:
            outcome = self.exact.solve(instance, _without_reserve(ctx))
            if isinstance(outcome, GaveUp) and ctx.stop_reason() != "cancelled":
                # Out of time (a build or a search slower than estimated): an answer with a
                # proven bound in the reserve, and what would have given the shortest.
                exact_stats = outcome.stats
                chosen = self.bounded
                outcome = chosen.solve(instance, ctx)
                if aim is not None and not small_boards.available(aim.rows, aim.cols, aim.blank):
                    note = small_tables_note(aim.rows, aim.cols, aim.blank, ctx)
                elif aim is None and (instance.rows, instance.cols) == (4, 4) \
                        and not pdb.available(4, 4, pdb.PARTITION_4X4):
                    note = small_tables_note(4, 4, None, ctx)
                outcome = _with_stats(outcome, optimal_stopped_while=_exact_summary(exact_stats))
            elif "note" in outcome.stats and aim is not None \
                    and not small_boards.available(aim.rows, aim.cols, aim.blank):
                # Said again for the whole time limit (optimal saw it less the reserve).
                outcome = _with_stats(outcome, note=small_tables_note(aim.rows, aim.cols,
                                                                      aim.blank, ctx))
        else:
            outcome = chosen.solve(instance, ctx)
        stats = dict(outcome.stats, solver_used=chosen.name)
        if note and "note" not in stats and not isinstance(outcome, Unsolvable):
            stats["note"] = note
        return type(outcome)(**{**_fields(outcome), "stats": stats})


def _exact_time(ctx: SolveContext) -> float | None:
    """The time ``optimal`` gets (None: no limit)."""
    left = ctx.remaining()
    return None if left is None else left - reserve(left)


def _without_reserve(ctx: SolveContext) -> SolveContext:
    """The same solve (cancel, progress) with the reserve taken off its deadline."""
    left = ctx.remaining() or 0.0
    sub = SolveContext(deadline=ctx.deadline - reserve(left) if ctx.deadline is not None else None,
                       cancel=ctx.cancel, on_progress=ctx.on_progress,
                       progress_interval=ctx.progress_interval)
    sub.started = ctx.started
    return sub


def _exact_summary(stats) -> str:
    """What ``optimal`` was doing when its time ran out (its phase, in the reader's words),
    for the answer's stats."""
    phase = stats.get("phase")
    return str(phase) if phase else _("searching")


def _with_stats(outcome, **extra):
    return type(outcome)(**{**_fields(outcome), "stats": {**outcome.stats, **extra}})


def _fields(outcome) -> dict:
    from dataclasses import fields
    return {f.name: getattr(outcome, f.name) for f in fields(outcome)}
