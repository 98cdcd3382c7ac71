"""What a worker does with one job, wherever it runs (a local worker process or an RQ work horse).

:func:`run_job` solves (or runs a plugin's task) with the engine's checks and turns every way a
job can end into one of two answers: a report (the solver answered) or a message (it could not). It also says when the
solver's *search* has returned, so a runner can give the check of a long answer its own time
(:func:`check_bound`) instead of killing the worker at the search's deadline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, cast

from ..context import SolveContext
from ..errors import InputError, SolverError
from ..outcomes import Solved
from ..solving import owner_of, resolve_instance, run_solver
from ..tasks import run_task

if TYPE_CHECKING:
    from ..contract import Instance, Solver
    from ..outcomes import Outcome
    from ..plugins import Registry

#: Fallback for engine.solving.check_time_bound on engines that do not define it yet:
#: 2 s plus 0.1 ms a move (12 s for the longest answer accepted).
_CHECK_BASE_SECONDS = 2.0
_CHECK_SECONDS_PER_MOVE = 1e-4


def check_bound(n_moves: int) -> float:
    """Seconds the engine's check of an ``n_moves`` answer may take (replay and is-solved).

    A runner allows this much past the moment the search returned, on top of the search's own
    time limit and grace, so a found answer is never thrown away because its check was slow.
    """
    from .. import solving

    bound = getattr(solving, "check_time_bound", None)
    if bound is not None:
        return float(bound(n_moves))
    return _CHECK_BASE_SECONDS + _CHECK_SECONDS_PER_MOVE * max(0, int(n_moves))


class _ReportsReturn:
    """A solver seen through a window that says when its search returned (and how many moves)."""

    def __init__(self, solver: Solver, on_searched: Callable[[int], None]) -> None:
        self._solver = solver
        self._on_searched = on_searched

    def __getattr__(self, name: str) -> Any:
        return getattr(self._solver, name)

    def solve(self, instance: Instance, ctx: SolveContext) -> Outcome:
        outcome = self._solver.solve(instance, ctx)
        moves = outcome.moves if isinstance(outcome, Solved) else ()
        try:
            self._on_searched(len(moves))
        except Exception:  # telling the runner is best effort; the answer matters more
            pass
        return outcome


def run_job(registry: Registry, puzzle_id: str, solver_name: str, text: str, time_limit: float, *,
            on_progress: Callable[[dict], None] | None = None, cancel: Any = None,
            on_searched: Callable[[int], None] | None = None, task: str | None = None) -> tuple[str, Any]:
    """Run one job: ``("done", report_json)`` or ``("failed", message)``; never raises for
    anything a plugin does. With ``task`` (a task job) the puzzle's task of that name runs
    instead of ``solver_name``, under the same deadline, cancel flag and progress."""
    try:
        puzzle = registry.puzzle(puzzle_id)
        instance = resolve_instance(puzzle, text)
        ctx = SolveContext.with_timeout(time_limit, cancel=cancel, on_progress=on_progress)
        if task:
            task_obj = registry.task(puzzle_id, task)
            return "done", run_task(puzzle, task_obj, instance, ctx, plugin=owner_of(registry, task_obj))
        solver = registry.solver(puzzle_id, solver_name)
        if on_searched is not None:
            solver = cast("Solver", _ReportsReturn(solver, on_searched))  # the solver, as far as callers see
        report = run_solver(puzzle, solver, instance, ctx)
        return "done", report.to_json()
    except InputError as exc:
        return "failed", str(exc)
    except SolverError as exc:
        return "failed", exc.message
    except Exception as exc:  # a worker must survive whatever a plugin does
        who = "task" if task else "solver"
        return "failed", f"the {who} failed: {type(exc).__name__}: {exc}"
