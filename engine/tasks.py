"""Running a plugin's :class:`~engine.contract.Task` (count solutions, ...) and checking its answer.

What :mod:`engine.solving` does for solvers, this does for tasks: ask whether the task will
run on the instance (:func:`refusal`), run it under a :class:`~engine.context.SolveContext`
(deadline, cancel flag, progress), and turn whatever it returns or raises into one JSON report
or one engine error. Job workers call :func:`run_task`; the job service calls :func:`refusal`
before it queues anything.
"""

from __future__ import annotations

import time
from typing import Any

from .context import SolveContext
from .contract import Instance, Puzzle, Task, TaskResult
from .errors import InputError, PluginError, plugin_call
from .i18n import N_, _, translate
from .jsonsafe import NotJSONable, json_safe
from .outcomes import GaveUp

#: The report status of a task that ran to its end (a job status too).
FINISHED = "finished"
#: Longest summary sentence kept (a plugin's runaway text is cut, not shown whole).
MAX_SUMMARY = 500


def refusal(task: Task, instance: Instance, plugin: str | None = None) -> str | None:
    """``task.refusal(instance)`` as plain text, or None; a plugin's bug there is a PluginError."""
    with plugin_call(plugin=plugin, doing=N_("checking whether task {task} can run"), values={"task": repr(task.name)}):
        reason = task.refusal(instance)
    if reason is None:
        return None
    if not isinstance(reason, str):
        raise PluginError(_("task {task} gave {kind} as its refusal, not a sentence or None").format(
            task=repr(task.name), kind=type(reason).__name__), plugin=plugin)
    return reason.strip() or _("this task cannot run on this instance")


def check_can_run(task: Task, instance: Instance, plugin: str | None = None) -> None:
    """InputError (a 400 in the web app) with the task's reason if it refuses the instance: one
    sentence in the reader's language, the task named by its label in the plugin's catalogue."""
    reason = refusal(task, instance, plugin)
    if reason is not None:
        raise InputError(_("{task} cannot run on this instance: {reason}").format(
            task=translate(task, task.label), reason=reason), where="task", where_text=_("task"))


def run_task(puzzle: Puzzle, task: Task, instance: Instance, ctx: SolveContext | None = None, *,
             plugin: str | None = None) -> dict[str, Any]:
    """Run ``task`` on ``instance`` and return its JSON report.

    ``{"puzzle", "task", "instance", "status": "finished" | "gave_up", "summary", "data",
    "reason", "stats", "seconds"}``: ``summary`` and ``data`` when it finished, ``reason``
    (``"cancelled"``, ``"deadline"`` or the task's words) and ``stats`` when it gave up.
    Raises InputError when the task refuses the instance (before or while running), and
    PluginError when it breaks the contract (raises anything else, returns something else).
    """
    ctx = ctx or SolveContext()
    check_can_run(task, instance, plugin)
    started = time.perf_counter()
    with plugin_call(plugin=plugin, doing=N_("running task {task}"), values={"task": repr(task.name)}):
        outcome = task.run(instance, ctx)
    seconds = time.perf_counter() - started
    report: dict[str, Any] = {"puzzle": puzzle.id, "task": task.name, "instance": puzzle.format(instance),
                              "seconds": round(seconds, 6), "summary": None, "data": {},
                              "reason": None, "stats": {}}
    try:
        if isinstance(outcome, GaveUp):
            report.update(status="gave_up", reason=str(outcome.reason),
                          stats=json_safe(dict(outcome.stats), "stats"))
        elif isinstance(outcome, TaskResult):
            if not isinstance(outcome.summary, str) or not outcome.summary.strip():
                raise PluginError(_("task {task} returned a result without a summary sentence").format(
                    task=repr(task.name)), plugin=plugin)
            report.update(status=FINISHED, summary=outcome.summary.strip()[:MAX_SUMMARY],
                          data=json_safe(dict(outcome.data), "data"))
        else:
            raise PluginError(_("task {task} returned {kind}, not a TaskResult or GaveUp").format(
                task=repr(task.name), kind=type(outcome).__name__), plugin=plugin)
    except (NotJSONable, TypeError, ValueError) as exc:
        raise PluginError(_("task {task} returned a value JSON cannot encode: {error}").format(
            task=repr(task.name), error=exc), plugin=plugin) from None
    return report
