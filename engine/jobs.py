"""Solving as jobs: submit, poll, cancel; a local worker pool and a SQLite result store.

Three parts, each replaceable on its own:

* :class:`JobRunner` is the one interface that runs solves somewhere. :class:`LocalProcessRunner`
  (the default) runs them in a small pool of local worker *processes*; a distributed queue (RQ or
  Celery on Redis) can implement the same five methods and be chosen by configuration
  (see ``docs/api.md``).
* :class:`ResultStore` keeps finished answers (solved or unsolvable, never "gave up") in SQLite,
  keyed by puzzle, solver and the *canonical* instance text, so the same request is answered
  from the store, also after a restart.
* :class:`JobService` is what a front end (the web app, a CLI) talks to: it validates a request
  with the registry, answers it from the store when it can, and otherwise hands it to the runner.

Nothing here imports ``web`` or any plugin: workers load the registry through a dotted path
(``"engine.plugins:get_registry"`` by default), so tests can point them at a toy registry.
"""

from __future__ import annotations

import atexit
import importlib
import json
import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import sqlite3
import threading
import time
import uuid
from abc import ABC, abstractmethod
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .errors import InputError, PuzzleError, SolverError
from .solving import resolve_instance

#: Job statuses. ``queued`` and ``running`` are not final; the others are.
QUEUED, RUNNING = "queued", "running"
SOLVED, UNSOLVABLE, GAVE_UP, ERROR, CANCELLED = "solved", "unsolvable", "gave_up", "error", "cancelled"
FINAL_STATUSES = frozenset({SOLVED, UNSOLVABLE, GAVE_UP, ERROR, CANCELLED})
#: Only these answers are facts about the instance, worth storing: "gave up" depends on the
#: time limit and the machine, so asking again may well do better.
STORED_STATUSES = frozenset({SOLVED, UNSOLVABLE})

DEFAULT_TIME_LIMIT = 10.0
MAX_TIME_LIMIT = 120.0
DEFAULT_REGISTRY_FACTORY = "engine.plugins:get_registry"


class QueueFull(PuzzleError):
    """Too many jobs are waiting; the caller should retry after ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int = 5):
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class JobNotFound(InputError):
    """No job has this id (it never existed, or it finished long ago and was forgotten)."""


def default_data_dir() -> Path:
    """``$PUZZLE_ENGINE_DATA``, else ``$XDG_DATA_HOME/puzzle-engine``, else ``~/.local/share/...``."""
    explicit = os.environ.get("PUZZLE_ENGINE_DATA")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "puzzle-engine"


def load_object(dotted: str) -> Any:
    """Import ``"package.module:attribute"`` and return the attribute."""
    module_name, _, attr = dotted.partition(":")
    if not module_name or not attr:
        raise ValueError(f"expected 'module:attribute', got {dotted!r}")
    return getattr(importlib.import_module(module_name), attr)


# -- requests and job records ------------------------------------------------------------------


@dataclass(frozen=True)
class JobRequest:
    """One solve to run: everything a worker needs, already validated and canonical."""

    puzzle: str
    solver: str
    instance: str
    time_limit: float


@dataclass
class Job:
    """The state of one job as a runner knows it; :meth:`to_json` is what clients see."""

    id: str
    request: JobRequest
    status: str = QUEUED
    submitted_at: float = field(default_factory=time.time)
    started_at: float | None = None
    finished_at: float | None = None
    progress: dict = field(default_factory=dict)
    #: ``SolveReport.to_json()`` once the solver answered (solved, unsolvable or gave up).
    result: dict | None = None
    #: Words for the user when there is no result (error, cancelled, killed).
    message: str | None = None
    from_store: bool = False
    #: The permanent id (``stored-N``) of the stored answer, once it is in the result store.
    stored_id: str | None = None
    queue_position: int | None = None
    cancel_requested_at: float | None = None  # monotonic

    @property
    def done(self) -> bool:
        return self.status in FINAL_STATUSES

    def to_json(self) -> dict:
        end = self.finished_at or time.time()
        elapsed = round(end - self.started_at, 3) if self.started_at else 0.0
        return {
            "id": self.id,
            "puzzle": self.request.puzzle,
            "solver": self.request.solver,
            "instance": self.request.instance,
            "time_limit": self.request.time_limit,
            "status": self.status,
            "done": self.done,
            "from_store": self.from_store,
            "stored_id": self.stored_id,
            "queue_position": self.queue_position if self.status == QUEUED else None,
            "elapsed": elapsed,
            "progress": dict(self.progress),
            "result": self.result,
            "message": self.message,
        }


def status_of_report(report: dict) -> str:
    """The job status for a solver's answer: ``gave_up`` by cancellation is ``cancelled``."""
    status = report.get("status")
    if status == GAVE_UP and report.get("reason") == "cancelled":
        return CANCELLED
    return status if status in FINAL_STATUSES else ERROR


# -- the runner interface ----------------------------------------------------------------------


class JobRunner(ABC):
    """Runs solve jobs somewhere. The web app only ever uses these methods.

    ``on_finished`` (set by :class:`JobService`) must be called once with every job that ends
    with a solver's answer, so the service can store it. Implementations must be thread-safe:
    a WSGI server calls them from many threads.
    """

    on_finished: Callable[[Job], None] | None = None

    @abstractmethod
    def submit(self, request: JobRequest) -> Job:
        """Queue a job; raise :class:`QueueFull` rather than queueing without bound."""

    @abstractmethod
    def get(self, job_id: str) -> Job:
        """The job's current state; :class:`JobNotFound` for an unknown id."""

    @abstractmethod
    def cancel(self, job_id: str) -> Job:
        """Ask the job to stop (a queued job stops at once); returns its state."""

    def start(self) -> None:
        """Get ready to run jobs (start workers); optional, ``submit`` starts lazily."""

    @abstractmethod
    def close(self) -> None:
        """Stop every worker; running jobs end as cancelled."""


# -- the default runner: local worker processes ------------------------------------------------


def _worker_main(conn, cancel_event, registry_factory: str, prepare: bool = False) -> None:
    """A worker process: load the registry once, then solve one job at a time.

    Messages to the parent: ("ready",) or ("fatal", message) once at start, then per job
    ("progress", id, stats), ("done", id, report_json) or ("failed", id, message). The cancel flag is a multiprocessing Event the parent sets.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's business
    from .solving import prepare_solvers, solve  # the child starts from a fresh interpreter

    try:
        registry = load_object(registry_factory)()
    except Exception as exc:  # tell the parent why, instead of dying silently and being respawned
        conn.send(("fatal", f"the solver workers cannot load the plugins ({registry_factory}): "
                            f"{type(exc).__name__}: {exc}"))
        return
    if prepare:
        # Load each solver's tables and compiled code once, so the first job in this worker
        # is as fast as the rest (failures are fine: an unprepared solver still works).
        for _ in prepare_solvers(registry, cancel=cancel_event):
            pass
    conn.send(("ready",))
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        job_id, puzzle_id, solver_name, text, time_limit = task

        def on_progress(stats, _id=job_id):
            conn.send(("progress", _id, dict(stats)))

        try:
            report = solve(registry, puzzle_id, text, solver_name, timeout=time_limit,
                           on_progress=on_progress, cancel=cancel_event)
            conn.send(("done", job_id, report.to_json()))
        except InputError as exc:
            conn.send(("failed", job_id, str(exc)))
        except SolverError as exc:
            conn.send(("failed", job_id, exc.message))
        except Exception as exc:  # a worker must survive whatever a plugin does
            conn.send(("failed", job_id, f"the solver failed: {type(exc).__name__}: {exc}"))


class _Worker:
    """The parent's handle on one worker process."""

    def __init__(self, mp, registry_factory: str, prepare: bool = False):
        self.conn, child_conn = mp.Pipe(duplex=True)
        self.cancel = mp.Event()
        self.process = mp.Process(target=_worker_main,
                                  args=(child_conn, self.cancel, registry_factory, prepare),
                                  daemon=True, name="puzzle-solver")
        self.process.start()
        child_conn.close()
        self.ready = False
        self.job: Job | None = None
        self.deadline: float | None = None  # monotonic time after which it gets killed

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(1.0)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(1.0)
        self.conn.close()


class LocalProcessRunner(JobRunner):
    """A small pool of local worker processes, fed by a bounded queue.

    Each worker runs one solve at a time under a SolveContext whose cancel flag is a
    multiprocessing Event and whose progress goes back through a pipe. A worker still busy
    ``grace`` seconds after its job's deadline (or after a cancel) is terminated and replaced:
    a solver that forgets to check ``should_stop`` cannot hog the machine.
    """

    def __init__(
        self,
        workers: int = 2,
        max_queued: int = 16,
        grace: float = 2.0,
        registry_factory: str = DEFAULT_REGISTRY_FACTORY,
        start_method: str = "spawn",
        keep_finished: int = 1000,
        keep_finished_moves: int = 2_000_000,
        prepare_solvers: bool = False,
    ):
        self.workers_wanted = max(1, int(workers))
        self.max_queued = max(0, int(max_queued))
        self.grace = float(grace)
        self.registry_factory = registry_factory
        #: Each worker prepares every solver before taking jobs (see engine.Solver.prepare).
        self.prepare_solvers = bool(prepare_solvers)
        self.keep_finished = keep_finished
        self.keep_finished_moves = keep_finished_moves
        self._mp = multiprocessing.get_context(start_method)
        self._lock = threading.RLock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._pending: deque[Job] = deque()
        self._workers: list[_Worker] = []
        self._thread: threading.Thread | None = None
        self._closing = False

    # -- public interface ------------------------------------------------------------------

    def start(self) -> None:
        with self._lock:
            if self._thread is not None or self._closing:
                return
            self._workers = [_Worker(self._mp, self.registry_factory, self.prepare_solvers) for _ in range(self.workers_wanted)]
            self._thread = threading.Thread(target=self._monitor, name="puzzle-job-monitor", daemon=True)
            self._thread.start()
            atexit.register(self.close)

    def submit(self, request: JobRequest) -> Job:
        self.start()
        with self._lock:
            self._top_up()
            if len(self._pending) >= self.max_queued:
                # A rough wait: the shortest remaining deadline of a running job.
                raise QueueFull(f"{len(self._pending)} jobs are already waiting; try again shortly",
                                retry_after=self._retry_after())
            job = Job(id=uuid.uuid4().hex, request=request)
            self._jobs[job.id] = job
            self._pending.append(job)
            self._forget_old()
            self._dispatch()
            self._number_queue()
            return job

    def get(self, job_id: str) -> Job:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                raise JobNotFound(f"there is no job {job_id!r} (unknown or expired)")
            return job

    def cancel(self, job_id: str) -> Job:
        with self._lock:
            job = self.get(job_id)
            if job.status == QUEUED:
                self._pending.remove(job)
                self._finish(job, CANCELLED, message="cancelled before it started")
                self._number_queue()
            elif job.status == RUNNING and job.cancel_requested_at is None:
                job.cancel_requested_at = time.monotonic()
                for worker in self._workers:
                    if worker.job is job:
                        worker.cancel.set()
            return job

    def close(self) -> None:
        with self._lock:
            if self._closing:
                return
            self._closing = True
            for job in list(self._pending):
                self._finish(job, CANCELLED, message="the server is shutting down")
            self._pending.clear()
            workers, self._workers = self._workers, []
            for worker in workers:
                if worker.job is not None:
                    self._finish(worker.job, CANCELLED, message="the server is shutting down")
        for worker in workers:
            try:
                worker.conn.send(None)
            except OSError:
                pass
        for worker in workers:
            worker.process.join(0.5)
            worker.kill()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2.0)

    def stats(self) -> dict:
        """Counts for monitoring: queued, running, workers alive."""
        with self._lock:
            return {
                "queued": len(self._pending),
                "running": sum(1 for w in self._workers if w.job is not None),
                "workers": len(self._workers),
                "ready_workers": sum(1 for w in self._workers if w.ready),
            }

    # -- the monitor thread ----------------------------------------------------------------

    def _monitor(self) -> None:
        while not self._closing:
            with self._lock:
                conns = {w.conn: w for w in self._workers}
            try:
                ready = multiprocessing.connection.wait(list(conns), timeout=0.1) if conns else []
            except OSError:
                ready = []
            if not conns:
                time.sleep(0.1)
            with self._lock:
                if self._closing:
                    return
                for conn in ready:
                    worker = conns[conn]
                    if worker in self._workers:
                        self._drain(worker)
                self._enforce_deadlines()
                self._dispatch()

    def _drain(self, worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                self._handle(worker, worker.conn.recv())
        except (EOFError, OSError):
            self._replace(worker, "the worker process stopped unexpectedly")

    def _handle(self, worker: _Worker, message: tuple) -> None:
        kind = message[0]
        if kind == "ready":
            worker.ready = True
            return
        if kind == "fatal":
            # Respawning would fail the same way: drop the worker, and if no worker can run the
            # waiting jobs, end them with the reason. The next submit tries to start workers again.
            self._workers.remove(worker)
            worker.kill()
            if not any(w.ready for w in self._workers):
                for job in list(self._pending):
                    self._finish(job, ERROR, message=message[1])
                self._pending.clear()
            return
        job = worker.job
        if job is None or message[1] != job.id:
            return  # a late message about a job already ended (cancelled, killed)
        if kind == "progress":
            job.progress = message[2]
        elif kind == "done":
            report = message[2]
            worker.job = None
            self._finish(job, status_of_report(report), result=report)
        elif kind == "failed":
            worker.job = None
            self._finish(job, ERROR, message=message[2])

    def _enforce_deadlines(self) -> None:
        now = time.monotonic()
        for worker in list(self._workers):
            job = worker.job
            if job is None:
                if not worker.process.is_alive():
                    self._replace(worker, None)
                continue
            if not worker.process.is_alive():
                self._replace(worker, "the worker process died while solving")
            elif job.cancel_requested_at is not None and now > job.cancel_requested_at + self.grace:
                self._replace(worker, "cancelled (the solver did not stop by itself, so its worker "
                                      "process was stopped)", status=CANCELLED)
            elif worker.deadline is not None and now > worker.deadline:
                limit = job.request.time_limit
                self._replace(worker, f"the solver overran its {limit:g} s time limit and did not "
                                      f"stop, so its worker process was killed", status=GAVE_UP)

    def _replace(self, worker: _Worker, message: str | None, status: str = ERROR) -> None:
        """Kill a worker (ending its job with ``status``) and start a fresh one in its place."""
        job = worker.job
        worker.job = None
        worker.kill()
        if job is not None:
            self._finish(job, status, message=message)
        if worker in self._workers:
            index = self._workers.index(worker)
            if not self._closing:
                self._workers[index] = _Worker(self._mp, self.registry_factory, self.prepare_solvers)

    def _top_up(self) -> None:
        """Start workers until the pool has as many as wanted (after a start-up failure)."""
        while not self._closing and len(self._workers) < self.workers_wanted:
            self._workers.append(_Worker(self._mp, self.registry_factory, self.prepare_solvers))

    def _dispatch(self) -> None:
        for worker in self._workers:
            if not self._pending:
                break
            if worker.ready and worker.job is None and worker.process.is_alive():
                job = self._pending.popleft()
                worker.cancel.clear()
                req = job.request
                try:
                    worker.conn.send((job.id, req.puzzle, req.solver, req.instance, req.time_limit))
                except OSError:
                    self._pending.appendleft(job)
                    continue
                worker.job = job
                worker.deadline = time.monotonic() + req.time_limit + self.grace
                job.status = RUNNING
                job.started_at = time.time()
                job.progress = {"elapsed": 0.0}
        self._number_queue()

    def _finish(self, job: Job, status: str, result: dict | None = None, message: str | None = None):
        if job.done:
            return
        job.status = status
        job.result = result
        job.message = message
        job.finished_at = time.time()
        if result is not None and self.on_finished is not None:
            try:
                self.on_finished(job)
            except Exception:  # storing is a cache: never lose the answer over it
                pass

    def _number_queue(self) -> None:
        for position, job in enumerate(self._pending, start=1):
            job.queue_position = position

    def _retry_after(self) -> int:
        now = time.monotonic()
        waits = [w.deadline - now for w in self._workers if w.job is not None and w.deadline]
        return max(1, min(60, math.ceil(min(waits)) if waits else 5))

    def _forget_old(self) -> None:
        """Forget the oldest finished jobs beyond ``keep_finished`` of them, or beyond
        ``keep_finished_moves`` moves in their results: one 32 x 32 'fast' answer holds 83,000
        moves (~5 MB), so a count alone does not bound the memory. Solved answers stay in the
        result store under their ``stored_id``."""
        finished = [job for job in self._jobs.values() if job.done]
        moves = sum(len((job.result or {}).get("moves") or ()) for job in finished)
        excess = len(finished) - self.keep_finished
        for job in finished:
            if excess <= 0 and moves <= self.keep_finished_moves:
                break
            del self._jobs[job.id]
            excess -= 1
            moves -= len((job.result or {}).get("moves") or ())


# -- the result store --------------------------------------------------------------------------


class ResultStore:
    """Solved and unsolvable answers in SQLite, keyed by (puzzle, solver, canonical instance)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS results ("
            " puzzle TEXT NOT NULL, solver TEXT NOT NULL, instance TEXT NOT NULL,"
            " status TEXT NOT NULL, report TEXT NOT NULL, created REAL NOT NULL,"
            " PRIMARY KEY (puzzle, solver, instance))"
        )

    def get(self, puzzle: str, solver: str, instance: str) -> tuple[int, dict] | None:
        """(row id, report) for the stored answer, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT rowid, report FROM results WHERE puzzle=? AND solver=? AND instance=?",
                (puzzle, solver, instance)).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def get_by_id(self, row_id: int) -> tuple[JobRequest, dict] | None:
        with self._lock:
            row = self._db.execute("SELECT puzzle, solver, instance, report FROM results WHERE rowid=?",
                                   (row_id,)).fetchone()
        if not row:
            return None
        return JobRequest(row[0], row[1], row[2], 0.0), json.loads(row[3])

    def put(self, report: dict) -> int | None:
        """Store a solver's answer if it is a fact about the instance (solved/unsolvable);
        its row id, or None when it is not stored."""
        if report.get("status") not in STORED_STATUSES:
            return None
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR REPLACE INTO results (puzzle, solver, instance, status, report, created)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (report["puzzle"], report["solver"], report["instance"], report["status"],
                 json.dumps(report), time.time()))
            return cursor.lastrowid

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()


# -- the service front ends use ----------------------------------------------------------------

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
