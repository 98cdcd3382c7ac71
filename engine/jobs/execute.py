"""What a worker does with one job, wherever it runs (a local worker process or an RQ work horse).

:func:`run_job` solves (or runs a plugin's task) with the engine's checks and turns every way a
job can end into one of two answers: a report (the solver answered) or a message (it could not).
The whole job runs in the reader's language (``request.locale``, :func:`engine.i18n.use_locale`):
a worker process serves readers of every language one job after another, so the locale is set
per job, never per process. The report says which language it is written in (``"locale"``).
Its supervisor learns that the search returned from ``run_solver``'s own progress report
(``phase="checking"``), which :mod:`engine.deadlines` turns into the check's kill deadline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..context import SolveContext
from ..errors import InputError, SolverError
from ..i18n import use_locale
from ..solving import owner_of, parse_canonical, run_solver
from ..tablecache import table_cache
from ..tasks import run_task
from .freshness import stamp
from .model import TASK, JobRequest

if TYPE_CHECKING:
    from ..plugins import Registry


def run_job(registry: Registry, request: JobRequest, *,
            on_progress: Callable[[dict], None] | None = None, cancel: Any = None) -> tuple[str, Any]:
    """Run one job: ``("done", report_json)`` or ``("failed", message)``; never raises for
    anything a plugin does. A task job runs the puzzle's task of that name instead of a solver,
    under the same deadline, cancel flag and progress. Everything, progress messages included,
    is written in ``request.locale``."""
    with use_locale(request.locale) as locale:
        kind, payload = _run(registry, request, on_progress, cancel)
        if kind == "done" and isinstance(payload, dict):
            payload = {**payload, "locale": locale}
        return kind, payload


def _run(registry: Registry, request: JobRequest, on_progress: Callable[[dict], None] | None,
         cancel: Any) -> tuple[str, Any]:
    try:
        puzzle = registry.puzzle(request.puzzle)
        instance = parse_canonical(puzzle, request.instance)
        ctx = SolveContext.with_timeout(request.time_limit, cancel=cancel, on_progress=on_progress)
        if request.kind == TASK:
            task_obj = registry.task(request.puzzle, request.task)
            return "done", run_task(puzzle, task_obj, instance, ctx, plugin=owner_of(registry, task_obj))
        solver = registry.solver(request.puzzle, request.solver)
        # Looked at before the solve: the tables the solver could have used.
        tables = table_cache().fingerprint()
        report = run_solver(puzzle, solver, instance, ctx)
        return "done", stamp(report.to_json(), tables)
    except InputError as exc:
        return "failed", str(exc)
    except SolverError as exc:
        return "failed", exc.message
    except Exception as exc:  # a worker must survive whatever a plugin does
        who = "task" if request.kind == TASK else "solver"
        return "failed", f"the {who} failed: {type(exc).__name__}: {exc}"
