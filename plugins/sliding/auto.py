"""The default sliding-tile solver: picks the solver that suits the board's size.

* up to 16 cells (4 x 4, 2 x 8, 3 x 5, ...): ``optimal``, the shortest answer; pattern
  databases make these a matter of milliseconds to a second. A thin board whose shape has no
  tables yet, under a time limit too short to build them, goes to ``bounded`` instead (an answer
  with a proven bound now beats a "gave up"), and the answer says what the tables would take;
* up to 25 cells (5 x 5, 4 x 6, ...): ``bounded``, a near-shortest answer within the time limit
  with a proven bound on how much shorter the shortest can be; exact search on these boards can
  take hours;
* bigger boards: ``fast``, row-and-column reduction: an answer in about a second, no promise
  about its length (exact search does not scale that far).
"""

from __future__ import annotations

from engine import N_, SolveContext, Solver

from . import small_boards
from .board import Board
from .bounded import BoundedSolver
from .fast import FastSolver
from .i18n import CATALOGUE
from .optimal import OptimalSolver, small_tables_note

EXACT_CELLS = 16
BOUNDED_CELLS = 25


class AutoSolver(Solver):
    """Delegates to ``optimal``, ``bounded`` or ``fast`` by board size (see the module doc)."""

    puzzle_id = "sliding"
    name = "auto"
    optimal = False
    catalogue = CATALOGUE
    description = N_("Picks by board size. Up to 16 cells (4 x 4, 2 x 8, 3 x 5): optimal (shortest "
                     "answers; pattern databases make the 15-puzzle and thin boards take about a "
                     "second). Up to 25 cells (5 x 5): "
                     "bounded (a near-shortest answer within the time limit, with a proven 'at most "
                     "N moves longer than the shortest'), because exact search there can take "
                     "hours. Bigger: fast (row-and-column reduction), because nothing exact scales "
                     "that far.")

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
        rows, cols = instance.rows, instance.cols
        wide = small_boards.wide(instance)
        if chosen is self.exact and small_boards.covers(rows, cols) \
                and not small_boards.available(wide.rows, wide.cols) \
                and not small_boards.build_fits(wide.rows, wide.cols, ctx.remaining()):
            chosen, note = self.bounded, small_tables_note(wide.rows, wide.cols)
        outcome = chosen.solve(instance, ctx)
        stats = dict(outcome.stats, solver_used=chosen.name)
        if note and "note" not in stats:
            stats["note"] = note
        return type(outcome)(**{**_fields(outcome), "stats": stats})


def _fields(outcome) -> dict:
    from dataclasses import fields
    return {f.name: getattr(outcome, f.name) for f in fields(outcome)}
