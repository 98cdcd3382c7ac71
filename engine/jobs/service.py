"""The job service front ends talk to: validate, answer from the store, or run.

It also writes each job's record to the store (off the request path, retried when the store is
busy), so a job cut off by a restart still answers, with a final status that says so.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..i18n import N_, _, current_locale
from ..solving import owner_of, read_instance
from ..tasks import check_can_run
from ..wording import shown
from .freshness import TablesNow
from .later import LaterWrites
from .model import (
    DEFAULT_TIME_LIMIT,
    ERROR,
    FINAL_STATUSES,
    MAX_TIME_LIMIT,
    STORED_PREFIX,
    STORED_STATUSES,
    TASK,
    Job,
    JobNotFound,
    JobRequest,
    JobRunner,
    job_locale,
    status_of_report,
    stored_key_kind,
)
from .shares import ClientShares
from .store import AnswerStore

if TYPE_CHECKING:
    from ..contract import Puzzle
    from ..plugins import Registry

#: What a job that was queued or running when its server stopped answers afterwards.
INTERRUPTED = N_("interrupted by a server restart")


class JobService:
    """Validate, answer from the store, or run: the job API of the web app and other front ends."""

    def __init__(self, registry: Registry, runner: JobRunner, store: AnswerStore,
                 max_time_limit: float = MAX_TIME_LIMIT, default_time_limit: float = DEFAULT_TIME_LIMIT,
                 shares: ClientShares | None = None) -> None:
        self.registry = registry
        self.runner = runner
        self.store = store
        #: Each client's share of the queue (None: a client may fill it alone).
        self.shares = shares
        self.max_time_limit = float(max_time_limit)
        self.default_time_limit = float(default_time_limit)
        #: Store writes that could not be done at once, retried in the background.
        self.later = LaterWrites()
        #: Which tables the workers have: a stored answer not proved shortest that was found
        #: with others is solved again (engine.jobs.freshness).
        self.tables = TablesNow()
        runner.on_finished = self._store_result
        runner.on_final = self._record_final

    def _store_result(self, job: Job) -> None:
        """Store a job's answer now if the store allows, else later (then its stored_id comes
        later too); never raises, never blocks for long."""
        report = job.result
        if report is None or report.get("status") not in STORED_STATUSES:
            return
        self.tables.observe(report)

        def put(job: Job = job, report: dict = report) -> None:
            key = self.store.put(report)
            if key is not None:
                job.stored_id = f"{STORED_PREFIX}{key}"

        self.later.write(f"the {report.get('status')} answer of {_describe(job.request)}", put)

    def _record(self, job: Job, now: bool = False) -> None:
        if not self.store.keeps_job_records:
            return
        record = job.to_json()
        if record["status"] in STORED_STATUSES:
            record["result"] = None  # the answer itself is in the store (stored_id)
        self.later.write(f"the record of job {job.id}", lambda: self.store.record_job(record), now=now)

    def _record_final(self, job: Job) -> None:
        self._record(job, now=True)

    def time_limit(self, value: Any) -> float:
        """A validated time limit in seconds (None: the default)."""
        if value is None or value == "":
            return self.default_time_limit
        not_a_number = _("the time limit must be a number of seconds, not {value}")
        if isinstance(value, bool):  # JSON true is not "1 second"
            raise InputError(not_a_number.format(value=shown(value)), where="time_limit")
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            raise InputError(not_a_number.format(value=shown(value)), where="time_limit") from None
        if not math.isfinite(seconds) or seconds <= 0:
            raise InputError(_("the time limit must be a positive number of seconds"), where="time_limit")
        if seconds > self.max_time_limit:
            raise InputError(_("the time limit is at most {limit} seconds").format(limit=f"{self.max_time_limit:g}"),
                             where="time_limit")
        return seconds

    def request(self, puzzle_id: str, instance_text: Any, solver: str | None = None,
                time_limit: Any = None) -> JobRequest:
        """Check a solve request and make it canonical; InputError names what is wrong. The job
        is written in the locale of the caller (:func:`engine.i18n.current_locale`: the web app
        sets it per request), and its answer is stored in that language."""
        puzzle = self.registry.puzzle(puzzle_id)
        if solver is not None and not isinstance(solver, str):
            raise InputError(_("the solver must be given by name"), where="solver")
        solver_obj = self.registry.solver(puzzle.id, solver or None)
        _parsed, text = self._instance(puzzle, instance_text)
        return JobRequest(puzzle.id, solver_obj.name, text, self.time_limit(time_limit),
                          locale=job_locale(current_locale()))

    def _instance(self, puzzle: Puzzle, instance_text: Any) -> tuple[Any, str]:
        """(instance, canonical text) from text, a preset name or the puzzle's JSON form."""
        return read_instance(puzzle, instance_text, owner_of(self.registry, puzzle))

    def task_request(self, puzzle_id: str, task_name: Any, instance_text: Any,
                     time_limit: Any = None) -> JobRequest:
        """Check a task request and make it canonical: InputError names what is wrong, including
        the task's own reason when it refuses the instance (too big for its budget, say).

        A task's time limit is validated as a solve's; given none, it gets the largest allowed
        (a task is asked for on purpose, shows its progress and can be cancelled)."""
        puzzle = self.registry.puzzle(puzzle_id)
        task = self.registry.task(puzzle.id, task_name)
        instance, text = self._instance(puzzle, instance_text)
        check_can_run(task, instance, owner_of(self.registry, task))
        seconds = self.max_time_limit if time_limit is None or time_limit == "" else self.time_limit(time_limit)
        return JobRequest(puzzle.id, "", text, seconds, kind=TASK, task=task.name,
                          locale=job_locale(current_locale()))

    def _start(self, request: JobRequest, client: str | None) -> Job:
        """Hand the request to the runner, within the client's share of the queue."""
        if self.shares is None:
            return self.runner.submit(request)
        return self.shares.submit(client, request, self.runner.submit)

    def submit_task(self, puzzle_id: str, task_name: Any, instance_text: Any,
                    time_limit: Any = None, client: str | None = None) -> Job:
        """A job running the puzzle's task ``task_name`` on the instance (never from the store:
        only solver answers are kept there). ``client`` names who asks, for its share of the
        queue (:class:`~engine.jobs.shares.TooManyJobs` past it)."""
        job = self._start(self.task_request(puzzle_id, task_name, instance_text, time_limit), client)
        self._record(job, now=False)
        return job

    def submit(self, puzzle_id: str, instance_text: Any, solver: str | None = None,
               time_limit: Any = None, client: str | None = None) -> Job:
        """A job for this request: finished at once if the store knows the answer (that costs
        no share of the queue); else queued within ``client``'s share, see :meth:`submit_task`.
        Only an answer written in the caller's locale answers from the store: an English reader
        never gets a Chinese answer, nor the reverse.
        A stored answer not proved shortest, found before the tables changed, is solved again
        (the store then keeps the better one under the same key)."""
        request = self.request(puzzle_id, instance_text, solver, time_limit)
        stored = self.store.get(request.puzzle, request.solver, request.instance, request.locale)
        if stored is not None and not self.tables.stale(stored[1]):
            key, report = stored
            return self._stored_job(key, request, report)
        job = self._start(request, client)
        # Written in the background: a busy store never delays a submit.
        self._record(job, now=False)
        return job

    def get(self, job_id: str) -> Job:
        if not isinstance(job_id, str) or not job_id:
            raise JobNotFound(_("a job id is required"))
        if job_id.startswith(STORED_PREFIX):
            # Stored answers need no memory of the job: the id names the answer (its key, or
            # the number an earlier version gave it; the store tells which it holds).
            key = job_id[len(STORED_PREFIX):]
            found = self.store.get_by_id(key) if stored_key_kind(key) else None
            if found is None:
                raise JobNotFound(_("there is no job {job}: no stored answer has this id (it is unknown, or "
                                    "the store that kept it was emptied since)").format(job=repr(job_id)))
            request, report = found
            return self._stored_job(key, request, report)
        try:
            return self.runner.get(job_id)
        except JobNotFound:
            record = self.store.job_record(job_id)
            if record is None:
                raise
            return self._recorded_job(record)

    def _recorded_job(self, record: dict) -> Job:
        """A job this runner no longer knows, from its record: a job that was queued or running
        when its server stopped ends as an error that says so."""
        request = JobRequest.from_json(record)
        now = time.time()
        began = now - float(record.get("elapsed") or 0.0)  # its elapsed time, as recorded
        job = Job(id=record["id"], request=request, status=record["status"],
                  submitted_at=began, started_at=began, finished_at=now,
                  progress=dict(record.get("progress") or {}),
                  result=record.get("result"), message=record.get("message"),
                  stored_id=record.get("stored_id"))
        if job.status not in FINAL_STATUSES:
            job.status, job.message, job.result = ERROR, INTERRUPTED, None
        elif job.status in STORED_STATUSES and job.result is None:
            stored = self.store.get(request.puzzle, request.solver, request.instance, request.locale)
            if stored is None:  # the answer never reached the store
                job.status, job.message = ERROR, N_("the answer was lost before it could be stored")
            else:
                job.stored_id = f"{STORED_PREFIX}{stored[0]}"
                job.result = stored[1]
        return job

    def cancel(self, job_id: str) -> Job:
        if isinstance(job_id, str) and job_id.startswith(STORED_PREFIX):
            return self.get(job_id)  # already finished; nothing to stop
        try:
            return self.runner.cancel(job_id)
        except JobNotFound:
            if isinstance(job_id, str) and self.store.job_record(job_id) is not None:
                return self.get(job_id)  # ended with its server; nothing left to stop
            raise

    def close(self) -> None:
        self.runner.close()
        self.later.close()
        self.store.close()

    @staticmethod
    def _stored_job(key: str, request: JobRequest, report: dict) -> Job:
        now = time.time()
        return Job(id=f"{STORED_PREFIX}{key}", stored_id=f"{STORED_PREFIX}{key}",
                   request=request, status=status_of_report(report),
                   submitted_at=now, started_at=now, finished_at=now,
                   progress=dict(report.get("stats") or {}), result=report, from_store=True)


def _describe(request: JobRequest) -> str:
    """A job request in a few words, for log lines."""
    text = request.instance if len(request.instance) <= 60 else request.instance[:57] + "..."
    what = f"task {request.task}" if request.kind == TASK else request.solver
    return f"{request.puzzle} / {what} / {text!r}"
