"""The default runner: a small pool of local worker processes fed by a bounded queue."""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import logging
import math
import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import threading
import time
import uuid
from collections import OrderedDict, deque
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import cast

from ..deadlines import KillClock
from ..i18n import N_, _
from .execute import run_job
from .model import (
    CANCELLED,
    DEFAULT_GRACE,
    DEFAULT_MAX_QUEUED,
    DEFAULT_REGISTRY_FACTORY,
    ERROR,
    GAVE_UP,
    QUEUED,
    RUNNING,
    TASK,
    Job,
    JobNotFound,
    JobRequest,
    JobRunner,
    QueueFull,
    load_object,
    status_of_report,
)

log = logging.getLogger("engine.jobs")

#: How much a solver worker yields to the web process (``nice`` increment): the solvers keep
#: every idle cycle, and a page or an editor request gets the core first when it needs it.
SOLVER_NICE = 5


class _CancelFlag:
    """A cancel flag in shared memory: one byte the parent sets and the worker reads.

    Unlike ``multiprocessing.Event`` it needs no named semaphores, so nothing is left for the
    resource tracker to report as "leaked" however the server ends (even by SIGTERM).
    """

    def __init__(self, mp: BaseContext) -> None:
        self._value = mp.RawValue(ctypes.c_bool, False)

    def set(self) -> None:
        self._value.value = True

    def clear(self) -> None:
        self._value.value = False

    def is_set(self) -> bool:
        return bool(self._value.value)


#: ``prepare_solvers`` value: workers prepare only the solvers with nothing to build (loading
#: what is on disk), while the background preparer builds the rest (``puzzle serve``).
NO_BUILDS = "no builds"


def _worker_main(conn: Connection, cancel_flag: _CancelFlag, registry_factory: str,
                 prepare: bool | str = False) -> None:
    """A worker process: load the registry once, then run one job (a solve or a task) at a time.

    Messages: the parent sends (id, JobRequest JSON) per job, or None to stop; the worker
    sends ("ready",) or ("fatal", message) once at start, then per job ("progress", id, stats)
    (``phase="checking"`` when the search returned, see engine.deadlines) and ("done", id,
    report_json) or ("failed", id, message). The cancel flag is a :class:`_CancelFlag` the
    parent sets.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's business
    # A solve is throughput, a page is latency: with as many solvers as cores, solvers at the
    # same priority made every cheap request of the web process wait for a time slice.
    with contextlib.suppress(OSError, AttributeError):
        os.nice(SOLVER_NICE)
    from ..solving import prepare_solvers  # the child starts from a fresh interpreter

    try:
        registry = load_object(registry_factory)()
    except Exception as exc:  # tell the parent why, instead of dying silently and being respawned
        conn.send(("fatal", f"the solver workers cannot load the plugins ({registry_factory}): "
                            f"{type(exc).__name__}: {exc}"))
        return
    if prepare:
        # Load each solver's tables and compiled code once, so the first job in this worker
        # is as fast as the rest (failures are fine: an unprepared solver still works).
        # With NO_BUILDS a solver that would build is left to the background preparer: this
        # worker takes jobs at once, and a job that needs that table waits for its build lock.
        for _ in prepare_solvers(registry, cancel=cancel_flag, builds=prepare != NO_BUILDS):
            pass
    conn.send(("ready",))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        job_id, request = message

        def on_progress(stats: dict, _id: str = job_id) -> None:
            conn.send(("progress", _id, dict(stats)))

        kind, payload = run_job(registry, JobRequest.from_json(request),
                                on_progress=on_progress, cancel=cancel_flag)
        try:
            conn.send((kind, job_id, payload))
        except (TypeError, ValueError) as exc:  # an answer the pipe cannot carry
            conn.send(("failed", job_id, f"the solver's answer cannot be sent: {exc}"))


class _Worker:
    """The parent's handle on one worker process."""

    def __init__(self, mp: BaseContext, registry_factory: str, prepare: bool | str = False) -> None:
        self.conn, child_conn = mp.Pipe(duplex=True)
        self.cancel = _CancelFlag(mp)
        self.process = mp.Process(target=_worker_main,  # type: ignore[attr-defined]  # on every concrete context
                                  args=(child_conn, self.cancel, registry_factory, prepare),
                                  daemon=True, name="puzzle-solver")
        self.process.start()
        child_conn.close()
        self.ready = False
        self.job: Job | None = None
        self.clock: KillClock | None = None  # when its job is killed (monotonic time)

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

    Each worker runs one solve at a time under a SolveContext whose cancel flag is shared
    memory and whose progress goes back through a pipe. A worker still busy ``grace`` seconds
    after its job's deadline (or after a cancel) is terminated and replaced: a solver that
    forgets to check ``should_stop`` cannot hog the machine. When it is killed is
    :mod:`engine.deadlines`' rule, fed with the job's progress (its check has its own bound).

    Answers are handed to ``on_finished`` (the store) by a separate thread, outside the lock
    that submits and polls take, so a slow or locked store never stalls the job API; the job
    turns final once that call returned, so its ``stored_id`` is known when clients see it.
    """

    def __init__(
        self,
        workers: int = 2,
        max_queued: int = DEFAULT_MAX_QUEUED,
        grace: float = DEFAULT_GRACE,
        registry_factory: str = DEFAULT_REGISTRY_FACTORY,
        start_method: str = "spawn",
        keep_finished: int = 1000,
        keep_finished_moves: int = 2_000_000,
        prepare_solvers: bool | str = False,
    ):
        self.workers_wanted = max(1, int(workers))
        self.max_queued = max(0, int(max_queued))
        self.grace = float(grace)
        self.registry_factory = registry_factory
        #: Each worker prepares every solver before taking jobs (see engine.Solver.prepare);
        #: :data:`NO_BUILDS`: only those with nothing to build.
        self.prepare_solvers: bool | str = (NO_BUILDS if prepare_solvers == NO_BUILDS
                                            else bool(prepare_solvers))
        self.keep_finished = keep_finished
        self.keep_finished_moves = keep_finished_moves
        self._mp = multiprocessing.get_context(start_method)
        self._lock = threading.RLock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._pending: deque[Job] = deque()
        self._workers: list[_Worker] = []
        self._thread: threading.Thread | None = None
        self._closing = False
        #: Jobs whose end is to be reported outside the lock: (job, status, result, message).
        self._ending: queue.SimpleQueue = queue.SimpleQueue()
        self._reporter: threading.Thread | None = None

    # -- public interface ------------------------------------------------------------------

    def start(self) -> None:
        with self._lock:
            if self._thread is not None or self._closing:
                return
            self._workers = [_Worker(self._mp, self.registry_factory, self.prepare_solvers)
                             for _ in range(self.workers_wanted)]
            self._thread = threading.Thread(target=self._monitor, name="puzzle-job-monitor", daemon=True)
            self._thread.start()
            self._reporter = threading.Thread(target=self._report_endings, name="puzzle-job-store",
                                              daemon=True)
            self._reporter.start()
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
                raise JobNotFound(_("there is no job {job} (unknown or expired)").format(job=repr(job_id)))
            return job

    def cancel(self, job_id: str) -> Job:
        with self._lock:
            job = self.get(job_id)
            if job.status == QUEUED:
                self._pending.remove(job)
                self._finish(job, CANCELLED, message=N_("cancelled before it started"))
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
                self._finish(job, CANCELLED, message=N_("the server is shutting down"))
            self._pending.clear()
            workers, self._workers = self._workers, []
            for worker in workers:
                if worker.job is not None:
                    self._finish(worker.job, CANCELLED, message=N_("the server is shutting down"))
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
        self._ending.put(None)
        if self._reporter is not None and self._reporter is not threading.current_thread():
            self._reporter.join(5.0)

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
                    worker = conns[cast(Connection, conn)]  # wait() gives back what it was given
                    if worker in self._workers:
                        self._drain(worker)
                self._enforce_deadlines()
                self._dispatch()

    def _drain(self, worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                self._handle(worker, worker.conn.recv())
        except (EOFError, OSError):
            self._replace(worker, N_("the worker process stopped unexpectedly"))

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
        current = worker.job
        if current is None or message[1] != current.id:
            return  # a late message about a job already ended (cancelled, killed)
        job = current
        if kind == "progress":
            job.progress = message[2]
            if worker.clock is not None:
                worker.clock.observe(message[2], time.monotonic())
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
                self._replace(worker, N_("the worker process died while solving"))
            elif job.cancel_requested_at is not None and now > job.cancel_requested_at + self.grace:
                # Whole fixed sentences (N_): the API words them for each reader (web/api.py).
                message = (N_("cancelled (the task did not stop by itself, so its worker process was stopped)")
                           if job.request.kind == TASK else
                           N_("cancelled (the solver did not stop by itself, so its worker process was stopped)"))
                self._replace(worker, message, status=CANCELLED)
            elif worker.clock is not None and worker.clock.passed(now):
                limit = job.request.time_limit
                self._replace(worker, f"{job.request.what} overran its {limit:g} s time limit and did "
                                      f"not stop, so its worker process was killed", status=GAVE_UP)

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
                    worker.conn.send((job.id, req.to_json()))
                except OSError:
                    self._pending.appendleft(job)
                    continue
                worker.job = job
                worker.clock = KillClock(time.monotonic(), req.time_limit, self.grace)
                job.status = RUNNING
                job.started_at = time.time()
                job.progress = {"elapsed": 0.0}
        self._number_queue()

    def _finish(self, job: Job, status: str, result: dict | None = None, message: str | None = None) -> None:
        """End a job. With an answer to store, it stays ``running`` until the reporter thread
        has handed it to ``on_finished`` (outside the lock); otherwise it ends now."""
        if job.done or job.ending:
            return
        if result is not None and self.on_finished is not None:
            job.ending = True
            self._ending.put((job, status, result, message))
            return
        job.status = status
        job.result = result
        job.message = message
        job.finished_at = time.time()
        self._ending.put((job, None, None, None))

    def _report_endings(self) -> None:
        """The reporter thread: store answers and report final jobs, never holding the lock."""
        while True:
            item = self._ending.get()
            if item is None:
                return
            job, status, result, message = item
            if status is not None:
                job.result = result
                try:
                    if self.on_finished is not None:
                        self.on_finished(job)
                except Exception:  # storing is a cache: never lose the answer over it
                    log.exception("could not store the answer of job %s", job.id)
                with self._lock:
                    job.status = status
                    job.message = message
                    job.finished_at = time.time()
                    job.ending = False
            if self.on_final is not None:
                try:
                    self.on_final(job)
                except Exception:
                    log.exception("could not record the end of job %s", job.id)

    def _number_queue(self) -> None:
        for position, job in enumerate(self._pending, start=1):
            job.queue_position = position

    def _retry_after(self) -> int:
        now = time.monotonic()
        waits = [at - now for w in self._workers
                 if w.job is not None and w.clock is not None and (at := w.clock.at) is not None]
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
