"""The job service front ends talk to: validate, answer from the store, or run."""

from __future__ import annotations

import math
import time
from typing import Any

from ..errors import InputError
from ..solving import resolve_instance
from .model import DEFAULT_TIME_LIMIT, MAX_TIME_LIMIT, Job, JobNotFound, JobRequest, JobRunner, status_of_report
from .store import ResultStore

STORED_PREFIX = "stored-"


class JobService:
    """Validate, answer from the store, or run: the job API of the web app and other front ends."""

    def __init__(self, registry, runner: JobRunner, store: ResultStore,
                 max_time_limit: float = MAX_TIME_LIMIT, default_time_limit: float = DEFAULT_TIME_LIMIT):
        self.registry = registry
        self.runner = runner
        self.store = store
        self.max_time_limit = float(max_time_limit)
        self.default_time_limit = float(default_time_limit)
        runner.on_finished = self._store_result

    def _store_result(self, job: Job) -> None:
        if job.result is not None:
            row_id = self.store.put(job.result)
            if row_id is not None:
                job.stored_id = f"{STORED_PREFIX}{row_id}"

    def time_limit(self, value: Any) -> float:
        """A validated time limit in seconds (None: the default)."""
        if value is None or value == "":
            return self.default_time_limit
        if isinstance(value, bool):  # JSON true is not "1 second"
            raise InputError(f"the time limit must be a number of seconds, not {value!r}",
                             where="time_limit")
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            raise InputError(f"the time limit must be a number of seconds, not {value!r}",
                             where="time_limit") from None
        if not math.isfinite(seconds) or seconds <= 0:
            raise InputError("the time limit must be a positive number of seconds", where="time_limit")
        if seconds > self.max_time_limit:
            raise InputError(f"the time limit is at most {self.max_time_limit:g} seconds",
                             where="time_limit")
        return seconds

    def request(self, puzzle_id: str, instance_text: Any, solver: str | None = None,
                time_limit: Any = None) -> JobRequest:
        """Check a solve request and make it canonical; InputError names what is wrong."""
        puzzle = self.registry.puzzle(puzzle_id)
        if solver is not None and not isinstance(solver, str):
            raise InputError("the solver must be given by name", where="solver")
        solver_obj = self.registry.solver(puzzle.id, solver or None)
        try:
            if isinstance(instance_text, dict):  # the puzzle's JSON form, as the web API allows
                instance = puzzle.from_json(instance_text)
            else:
                instance = resolve_instance(puzzle, instance_text)
            text = puzzle.format(instance)
        except InputError:
            raise
        except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
            # A plugin that breaks the contract on odd input still gets the user a 400 in words.
            raise InputError(f"the instance was rejected: {exc}", where="instance") from None
        return JobRequest(puzzle.id, solver_obj.name, text, self.time_limit(time_limit))

    def submit(self, puzzle_id: str, instance_text: Any, solver: str | None = None,
               time_limit: Any = None) -> Job:
        """A job for this request: finished at once if the store knows the answer."""
        request = self.request(puzzle_id, instance_text, solver, time_limit)
        stored = self.store.get(request.puzzle, request.solver, request.instance)
        if stored is not None:
            row_id, report = stored
            return self._stored_job(row_id, request, report)
        return self.runner.submit(request)

    def get(self, job_id: str) -> Job:
        if not isinstance(job_id, str) or not job_id:
            raise JobNotFound("a job id is required")
        if job_id.startswith(STORED_PREFIX):
            # Stored answers need no memory of the job: the id names the row.
            row = job_id[len(STORED_PREFIX):]
            # SQLite row ids are signed 64-bit: a longer number is no row (and would overflow).
            valid = row.isascii() and row.isdigit() and len(row) <= 18
            found = self.store.get_by_id(int(row)) if valid else None
            if found is None:
                raise JobNotFound(f"there is no job {job_id!r}")
            request, report = found
            return self._stored_job(int(row), request, report)
        return self.runner.get(job_id)

    def cancel(self, job_id: str) -> Job:
        if isinstance(job_id, str) and job_id.startswith(STORED_PREFIX):
            return self.get(job_id)  # already finished; nothing to stop
        return self.runner.cancel(job_id)

    def close(self) -> None:
        self.runner.close()
        self.store.close()

    @staticmethod
    def _stored_job(row_id: int, request: JobRequest, report: dict) -> Job:
        now = time.time()
        return Job(id=f"{STORED_PREFIX}{row_id}", stored_id=f"{STORED_PREFIX}{row_id}",
                   request=request, status=status_of_report(report),
                   submitted_at=now, started_at=now, finished_at=now,
                   progress=dict(report.get("stats") or {}), result=report, from_store=True)
