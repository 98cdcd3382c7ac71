"""The default sliding-tile solver: picks the solver that suits the board's size.

* up to 4 x 4 (and any board of at most 12 cells): ``optimal``, the shortest answer; pattern
  databases make the 15-puzzle a matter of milliseconds to a second;
* up to 25 cells (5 x 5, 4 x 6, ...): ``bounded``, a near-shortest answer within the time limit
  with a proven bound on how much shorter the shortest can be; exact search on these boards can
  take hours;
* bigger boards: ``fast``, row-and-column reduction: an answer in about a second, no promise
  about its length (exact search does not scale that far).
"""

from __future__ import annotations

from engine import SolveContext, Solver

from .board import Board
from .bounded import BoundedSolver
from .fast import FastSolver
from .optimal import OptimalSolver

EXACT_CELLS = 12
BOUNDED_CELLS = 25


class AutoSolver(Solver):
    """Delegates to ``optimal``, ``bounded`` or ``fast`` by board size (see the module doc)."""

    puzzle_id = "sliding"
    name = "auto"
    optimal = False
    description = ("Picks by board size. Up to 4 x 4: optimal (shortest answers; the 15-puzzle "
                   "takes well under a second with pattern databases). Up to 25 cells (5 x 5): "
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
        if (board.rows, board.cols) == (4, 4) or cells <= EXACT_CELLS:
            return self.exact
        if cells <= BOUNDED_CELLS:
            return self.bounded
        return self.fast

    def prepare(self, ctx: SolveContext, *, big_builds: bool = False) -> bool:
        # The three solvers are registered too and prepared on their own.
        return True

    def solve(self, instance: Board, ctx: SolveContext):
        chosen = self.choose(instance)
        outcome = chosen.solve(instance, ctx)
        stats = dict(outcome.stats, solver_used=chosen.name)
        return type(outcome)(**{**_fields(outcome), "stats": stats})


def _fields(outcome) -> dict:
    from dataclasses import fields
    return {f.name: getattr(outcome, f.name) for f in fields(outcome)}
