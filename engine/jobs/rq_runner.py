"""Jobs on RQ and Redis, for many machines: the runner web processes use, and the work a worker does.

Every web process enqueues on one Redis queue and reads any job back from Redis, so submit, poll
and cancel may land on different processes. ``puzzle worker`` (:mod:`engine.jobs.worker`) runs
:class:`PuzzleWorker`: it loads the plugins once, then RQ forks a work horse per job, which runs
:func:`perform`. What the local runner does in its monitor thread, the worker does here:

* progress goes into the RQ job's ``meta`` (at most every 0.25 s);
* the worker kills the horse at time limit + grace, or, once the horse says the search returned,
  after the check's own bound (the RQ job timeout is a backstop beyond both);
* cancel is RQ's stop-job command (a queued job is cancelled at once);
* while a job runs, the worker refreshes a short-lived "alive" key; a running job whose key
  expired (worker killed, machine lost) is ended as ``error``, "the worker running it was lost";
* the horse stores solved and unsolvable answers in the Redis answer store itself, so an answer
  never depends on a web process being there to receive it.
* a Redis outage is ridden out: the worker keeps supervising the horse (and its deadline) without
  Redis, the horse reports its answer once Redis answers again, and a job's final status, once
  read, never changes (a job declared lost stays lost).

Redis keys of a job besides RQ's own: ``puzzle:job:<id>:end`` (why it ended, when RQ cannot say:
killed at its deadline, cancelled, lost), ``:alive`` and ``:kill_at``.
"""

from __future__ import annotations

import logging
import os
import re
import time
import uuid
from datetime import timezone
from typing import TYPE_CHECKING, Any, Callable, TypeVar, cast

from ..deadlines import KillClock, kill_time
from .execute import run_job
from .model import (
    CANCELLED,
    DEFAULT_GRACE,
    DEFAULT_MAX_QUEUED,
    DEFAULT_QUEUE,
    DEFAULT_REGISTRY_FACTORY,
    ERROR,
    GAVE_UP,
    QUEUED,
    RUNNING,
    STORED_PREFIX,
    TASK,
    Job,
    JobNotFound,
    JobRequest,
    JobRunner,
    JobsUnavailable,
    QueueFull,
    load_object,
    status_of_report,
)
from .redis_store import RedisAnswerStore
from .store import StoreBusy

if TYPE_CHECKING:
    from ctypes import c_double
    from datetime import datetime
    from types import TracebackType

    import redis
    from redis.client import Pipeline
    from rq import Queue
    from rq.executions import Execution
    from rq.job import Job as RQJob
    from rq.serializers import JSONSerializer

    from ..plugins import Registry

log = logging.getLogger("engine.jobs")

_T = TypeVar("_T")
#: A stored answer as the answer store gives it, or None.
_Found = TypeVar("_Found", bound="tuple[Any, dict] | None")

#: Seconds a running job's "alive" key lives without a refresh from its worker (refreshed every
#: second): a job is declared lost at most this long after its worker died.
ALIVE_SECONDS = 15
#: How long finished jobs (and their results) stay readable in Redis.
KEEP_SECONDS = 24 * 3600
#: The longest answer a check is allowed for, for the RQ timeout backstop.
_LONGEST_ANSWER = 100_000
LOST = "the worker running it was lost"
#: RQ's worker registration TTL (seconds).
WORKER_TTL = 60

_JOB_ID = re.compile(r"[0-9a-f]{32}")


def _key(job_id: str, what: str) -> str:
    return f"puzzle:job:{job_id}:{what}"


#: The URL schemes redis-py understands.
URL_SCHEMES = ("redis://", "rediss://", "unix://")


def check_url(url: str) -> str:
    """``url`` if it is a Redis URL, else ValueError with an example of one."""
    if not isinstance(url, str) or not url.startswith(URL_SCHEMES):
        raise ValueError(f"{url!r} is not a Redis URL; give one like redis://localhost:6379/0 "
                         f"(or rediss://, unix://)")
    return url


def connect(url: str, *, for_worker: bool = False) -> redis.Redis:
    """A Redis client for ``url`` that fails fast (a web request must not hang on a dead Redis).
    A worker's connection has no read timeout: RQ blocks on the queue for minutes."""
    import redis

    check_url(url)
    options: dict[str, Any] = {"socket_connect_timeout": 2, "health_check_interval": 10}
    if not for_worker:
        options["socket_timeout"] = 3
    return redis.Redis.from_url(url, **options)


def _serializer() -> type[JSONSerializer]:
    from rq.serializers import JSONSerializer
    return JSONSerializer


def _timestamp(value: datetime | None) -> float | None:
    if value is None:
        return None
    if value.tzinfo is None:  # RQ keeps naive UTC datetimes
        value = value.replace(tzinfo=timezone.utc)
    return value.timestamp()


# -- in the worker and its work horses -----------------------------------------------------------

#: The registry the worker loaded before forking: work horses inherit it.
_REGISTRY: Registry | None = None
_REGISTRY_FACTORY = DEFAULT_REGISTRY_FACTORY


def use_registry(registry: Registry, factory: str = DEFAULT_REGISTRY_FACTORY) -> None:
    """Set the plugin registry work horses solve with (the worker calls this once)."""
    global _REGISTRY, _REGISTRY_FACTORY
    _REGISTRY, _REGISTRY_FACTORY = registry, factory


def _registry() -> Registry:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = load_object(_REGISTRY_FACTORY)()
    return _REGISTRY


def _solver_missing(registry: Registry, puzzle: str, solver: str, kind: str = "solver") -> str | None:
    """Why this worker cannot run the job (it lacks the solver, or the task), or None."""
    if puzzle not in registry.puzzles:
        names: list[str] = []
    elif kind == "task":
        names = [t.name for t in registry.tasks(puzzle)]
    else:
        names = [s.name for s in registry.solvers(puzzle)]
    if solver in names:
        return None
    host = os.uname().nodename
    has = f"its {kind}s for {puzzle!r}: {', '.join(names) or 'none'}" if puzzle in registry.puzzles \
        else f"no puzzle {puzzle!r}"
    return (f"the worker on {host} has no {kind} {solver!r} for {puzzle!r} ({has}); install the "
            f"same plugins on every worker and web server")


def perform(request: dict, grace: float) -> dict:
    """The work of one job (``JobRequest.to_json()``), in an RQ work horse: solve, check, store
    the answer (or run the puzzle's task); never raises for anything a plugin does.
    Returns ``{"kind": "done", "report": ..., "stored_id": ...}`` or
    ``{"kind": "failed", "message": ...}``."""
    from rq import get_current_job

    job = get_current_job()
    if job is None:
        raise RuntimeError("perform() runs only inside an RQ work horse")
    redis = job.connection
    if redis.exists(_key(job.id, "end")):  # cancelled while a worker was taking it
        return {"kind": "cancelled"}
    registry = _registry()
    req = JobRequest.from_json(request)
    missing = (_solver_missing(registry, req.puzzle, req.task, "task") if req.kind == TASK
               else _solver_missing(registry, req.puzzle, req.solver))
    if missing:
        return {"kind": "failed", "message": missing}
    redis.set(_key(job.id, "alive"), "1", ex=ALIVE_SECONDS)
    parent = os.getppid()
    quiet_until = [0.0]  # after a failed progress write, skip writes for a while (Redis is down)
    # The worker kills by the same rule; its clock is RQ's start time (wall clock, both sides).
    clock = KillClock(_timestamp(job.started_at) or time.time(), req.time_limit, grace)

    def on_progress(stats: dict) -> None:
        if os.getppid() != parent:  # the worker is gone: nobody can report this job, stop
            os._exit(1)
        job.meta["progress"] = dict(stats)
        if clock.checking is None:
            clock.observe(stats, time.time())
            if clock.checking is not None:
                on_checking()
        if time.monotonic() < quiet_until[0]:
            return
        try:
            job.save_meta()
        except Exception:  # progress is best effort; the solve goes on
            quiet_until[0] = time.monotonic() + 2.0

    def on_checking() -> None:
        kill_at = clock.at
        if kill_at is None:
            return
        _tell_worker(kill_at)  # works while Redis is down, too
        try:
            redis.set(_key(job.id, "kill_at"), kill_at, ex=KEEP_SECONDS)
        except Exception:  # the worker knows the new bound through _tell_worker
            pass

    kind, payload = run_job(registry, req, on_progress=on_progress)
    # The answer is known: give the horse time to report it even across a Redis outage.
    _tell_worker(time.time() + REPORT_WAIT + 5)
    if kind == "failed":
        return {"kind": "failed", "message": payload}
    try:
        stored_id = _store(redis, payload)
    except StoreBusy:  # Redis is down: PuzzleWorker stores it once Redis answers again
        return {"kind": "done", "report": payload, "stored_id": None, "store_pending": True}
    return {"kind": "done", "report": payload, "stored_id": stored_id}


def _store(redis: redis.Redis, report: dict) -> str | None:
    number = RedisAnswerStore(redis).put(report)
    return None if number is None else f"{STORED_PREFIX}{number}"


#: How long a work horse that has its answer waits for an unreachable Redis to report it.
REPORT_WAIT = 600.0
#: A deadline the work horse can push later without Redis: shared memory that the worker sets up
#: before it forks (see PuzzleWorker.fork_work_horse).
_LOCAL_KILL_AT: c_double | None = None


def _tell_worker(kill_at: float) -> None:
    if _LOCAL_KILL_AT is not None:
        _LOCAL_KILL_AT.value = max(_LOCAL_KILL_AT.value, kill_at)


class _ConnectionState(logging.Filter):
    """One log line per change of the worker's Redis connection, instead of RQ's line per retry.

    RQ retries a lost connection by itself while it waits for jobs, logging every attempt; this
    filter on RQ's worker logger turns the first of those into "lost Redis" and drops the rest.
    "answers again" is logged only after a command really reached Redis (a queued pipeline
    command proves nothing).
    """

    def __init__(self, where: str):
        super().__init__()
        self.where = where
        self.down = False

    def filter(self, record: logging.LogRecord) -> bool:
        if "could not connect to Redis" not in record.getMessage():
            return True
        self.lost(None)
        return False

    def lost(self, exc: BaseException | None) -> None:
        if not self.down:
            self.down = True
            log.warning("lost Redis at %s%s; retrying with backoff, the running job (if any) goes on",
                        self.where, f" ({exc})" if exc else "")

    def connected(self) -> None:
        if self.down:
            self.down = False
            log.warning("Redis at %s answers again; taking jobs", self.where)


class NameTaken(Exception):
    """Another live worker is registered in Redis under the name this one was given."""


_REDIS_ERRORS: tuple = ()


def _redis_errors() -> tuple:
    global _REDIS_ERRORS
    if not _REDIS_ERRORS:
        import redis
        _REDIS_ERRORS = (redis.ConnectionError, redis.TimeoutError)
    return _REDIS_ERRORS


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _worker_class() -> Any:  # PuzzleWorker, a subclass of rq.Worker made on first use (RQ loads lazily)
    from rq import Worker
    from rq.job import JobStatus
    from rq.utils import now as rq_now

    class PuzzleWorker(Worker):
        """An RQ worker that keeps each running job's "alive" key fresh, kills its work horse at
        the job's deadline (time limit + grace, or the check's bound once the search is over),
        and rides out Redis outages: the horse keeps solving, the worker keeps supervising it,
        and the answer is reported once Redis answers again."""

        connection_state: _ConnectionState | None = None
        _retry_at = 0.0       # while Redis is down: the next time to try it (backoff)
        _pause = 0.5
        _known_kill_at: float | None = None  # the last deadline extension read from Redis
        _pending_end: dict | None = None     # an end reason to write once Redis is back

        # -- connection bookkeeping ---------------------------------------------------------

        def _lost(self, exc: BaseException | None) -> None:
            if self.connection_state is not None and not self.is_horse:  # the worker says it
                self.connection_state.lost(exc)
            self._retry_at = time.monotonic() + self._pause
            self._pause = min(8.0, self._pause * 2)

        def _reached(self) -> None:
            self._pause = 0.5
            if self.connection_state is not None and not self.is_horse:
                self.connection_state.connected()

        def _until_redis(self, fn: Callable[..., _T], *args: Any, limit: float = REPORT_WAIT) -> _T:
            """``fn(*args)``, retried with backoff while Redis is unreachable (up to ``limit`` s)."""
            give_up = time.monotonic() + limit
            pause = 0.5
            while True:
                try:
                    result = fn(*args)
                except _redis_errors() as exc:
                    if time.monotonic() > give_up:
                        raise
                    self._lost(exc)
                    time.sleep(pause)
                    pause = min(8.0, pause * 2)
                    continue
                self._reached()
                return result

        # -- registration: a name given with --name -----------------------------------------

        def register_birth(self) -> None:
            self.claim_name()
            return super().register_birth()

        def claim_name(self) -> None:
            """Take over a stale registration of our name (our own before an outage, a dead
            process on this host, or one without heartbeat for longer than its TTL); refuse
            a live one with :class:`NameTaken`."""
            data = cast("dict[bytes, bytes]", self.connection.hgetall(self.key))  # RQ's Redis gives bytes
            if data and b"death" not in data:
                pid = int(data.get(b"pid") or 0)
                host = (data.get(b"hostname") or b"").decode()
                beat = _parse_time(data.get(b"last_heartbeat"))
                ours = host == self.hostname and pid == os.getpid()
                dead = host == self.hostname and pid and not _pid_alive(pid)
                silent = beat is not None and time.time() - beat > self.worker_ttl + 60
                if not (ours or dead or silent):
                    raise NameTaken(
                        f"a live worker named {self.name!r} (pid {pid} on {host or '?'}) is already "
                        f"registered in Redis; give each worker its own --name")
                self.connection.delete(self.key)

        def teardown(self) -> None:
            try:
                super().teardown()
            except _redis_errors():  # stopping while Redis is away: the entry expires by itself
                pass

        # -- waiting for jobs ----------------------------------------------------------------

        def heartbeat(self, timeout: int | None = None, pipeline: Pipeline | None = None) -> None:
            if pipeline is not None:  # queued only: maintain_heartbeats sends it
                return super().heartbeat(timeout, pipeline=pipeline)
            try:
                result = super().heartbeat(timeout)
            except _redis_errors() as exc:
                self._lost(exc)  # the next heartbeat or dequeue tries again
                return None
            self._reached()
            return result

        def dequeue_job_and_maintain_ttl(self, timeout: int | None,
                                         max_idle_time: int | None = None) -> tuple[RQJob, Queue] | None:
            return self._until_redis(super().dequeue_job_and_maintain_ttl, timeout, max_idle_time,
                                     limit=float("inf"))

        def check_for_suspension(self, burst: bool) -> None:
            return self._until_redis(super().check_for_suspension, burst, limit=float("inf"))

        def run_maintenance_tasks(self) -> None:
            try:
                return super().run_maintenance_tasks()
            except _redis_errors() as exc:  # maintenance can wait for the next round
                self._lost(exc)

        # -- running a job -------------------------------------------------------------------

        def fork_work_horse(self, job: RQJob, queue: Queue) -> None:
            global _LOCAL_KILL_AT
            import multiprocessing

            if _LOCAL_KILL_AT is None:
                _LOCAL_KILL_AT = multiprocessing.Value("d", 0.0, lock=False)
            _LOCAL_KILL_AT.value = 0.0
            self._known_kill_at = self._pending_end = None
            return super().fork_work_horse(job, queue)

        def execute_job(self, job: RQJob, queue: Queue) -> None:
            try:
                super().execute_job(job, queue)
            except _redis_errors() as exc:
                # Only the bookkeeping after the horse ended can get here (maintain_heartbeats
                # never raises): wait for Redis, then record how the job ended.
                self._lost(exc)
                self._until_redis(self._after_outage, job, queue, limit=float("inf"))
            if self._pending_end is not None:
                self._until_redis(self._write_pending_end, job.id, limit=float("inf"))

        def _after_outage(self, job: RQJob, queue: Queue) -> None:
            if self._pending_end is not None:  # why it ended, before RQ says that it did
                self._write_pending_end(job.id)
            status = job.get_status()
            if status not in (JobStatus.FINISHED, JobStatus.FAILED, JobStatus.STOPPED):
                job.ended_at = rq_now()
                self.handle_job_failure(job, queue=queue, execution=self.execution,
                                        exc_string="the work horse ended while Redis was down")
            self.set_state("idle")

        def _write_pending_end(self, job_id: str) -> None:
            self.connection.set(_key(job_id, "end"), _json(self._pending_end), nx=True, ex=KEEP_SECONDS)
            self._pending_end = None

        def maintain_heartbeats(self, job: RQJob, *args: Any, **kwargs: Any) -> None:
            # Never raises for Redis: the horse goes on while Redis is away, and the deadline is
            # enforced from what the worker knows without it.
            if time.monotonic() < self._retry_at:
                self._check_deadline(job)
                return
            try:
                super().maintain_heartbeats(job, *args, **kwargs)
                self.connection.set(_key(job.id, "alive"), "1", ex=ALIVE_SECONDS)
                extended = self.connection.get(_key(job.id, "kill_at"))
                if extended is not None:
                    self._known_kill_at = float(extended)
                raw_end = self.connection.get(_key(job.id, "end"))
                if self._pending_end is not None:
                    self._write_pending_end(job.id)
            except _redis_errors() as exc:
                self._lost(exc)
                self._check_deadline(job)
                return
            self._reached()
            if raw_end is not None and _loads(raw_end).get("message") == LOST:
                # Declared lost while this worker could not reach Redis: that answer is final,
                # so stop spending time on it.
                self.kill_horse()
                return
            self._check_deadline(job)

        def _check_deadline(self, job: RQJob) -> None:
            started = _timestamp(job.started_at)
            if started is None:
                return
            kw = job.kwargs or {}
            request = _request_of(kw)
            limit = request.time_limit
            kill_at = kill_time(started, limit, float(kw.get("grace", 0))) or float("inf")
            if self._known_kill_at is not None:
                kill_at = max(kill_at, self._known_kill_at)
            if _LOCAL_KILL_AT is not None:
                kill_at = max(kill_at, _LOCAL_KILL_AT.value)
            if time.time() > kill_at:
                self._pending_end = {"status": GAVE_UP, "at": time.time(),
                                     "message": f"{request.what} overran its {limit:g} s time limit and "
                                                f"did not stop, so its work horse was killed"}
                try:
                    self._write_pending_end(job.id)
                except _redis_errors() as exc:  # written once Redis is back
                    self._lost(exc)
                self.kill_horse()

        # -- in the work horse: report the answer, across an outage ---------------------------

        def _finalize_success(self, job: RQJob, queue: Queue, execution: Execution, return_value: Any) -> None:
            def report() -> None:
                if _ended_meanwhile(job):  # e.g. declared lost during a long outage: that stays
                    return None
                if isinstance(return_value, dict) and return_value.pop("store_pending", False):
                    try:
                        return_value["stored_id"] = _store(job.connection, return_value["report"])
                    except StoreBusy as exc:
                        return_value["store_pending"] = True
                        import redis
                        raise redis.ConnectionError(str(exc)) from None
                return Worker._finalize_success(self, job, queue, execution, return_value)
            return self._until_redis(report)

        def _finalize_failure(
            self, job: RQJob, queue: Queue, execution: Execution,
            exc_info: tuple[type[BaseException] | None, BaseException | None, TracebackType | None],
        ) -> None:
            return self._until_redis(Worker._finalize_failure, self, job, queue, execution, exc_info)

    return PuzzleWorker


def _ended_meanwhile(job: RQJob) -> bool:
    """Whether a job already has a final state that its work horse's answer must not replace."""
    from rq.job import JobStatus

    raw_end = job.connection.get(_key(job.id, "end"))
    if raw_end is not None and _loads(raw_end).get("message") == LOST:
        return True
    return job.get_status(refresh=True) in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED)


def _parse_time(raw: bytes | str | None) -> float | None:
    if not raw:
        return None
    from rq.utils import utcparse
    try:
        return _timestamp(utcparse(raw.decode() if isinstance(raw, bytes) else raw))
    except Exception:
        return None


def _loads(raw: str | bytes) -> dict:
    import json
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _json(value: object) -> str:
    import json
    return json.dumps(value)


def make_worker(connection: redis.Redis, queue_name: str = DEFAULT_QUEUE, name: str | None = None) -> Any:
    """An RQ worker for the puzzle queue (call :func:`use_registry` first)."""
    from rq import Queue

    queue = Queue(queue_name, connection=connection, serializer=_serializer())
    # job_monitoring_interval=1: the deadline, progress and "alive" checks run every second.
    # worker_ttl=60: an idle worker heartbeats every 45 s, so a registration silent for 2 min
    # is stale and its name can be taken over (see PuzzleWorker.register_birth).
    worker = _worker_class()([queue], connection=connection, serializer=_serializer(), name=name,
                             job_monitoring_interval=1, worker_ttl=WORKER_TTL)
    worker.max_connection_wait_time = 8.0  # RQ's own retries while idle: pauses up to 8 s
    kwargs = connection.connection_pool.connection_kwargs
    state = _ConnectionState(f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')}")
    logging.getLogger("rq.worker").addFilter(state)
    worker.connection_state = state
    return worker


# -- in the web processes ----------------------------------------------------------------------


class RQRunner(JobRunner):
    """Runs jobs on an RQ queue in Redis; any web process sees any job."""

    def __init__(self, url: str, queue: str = DEFAULT_QUEUE, max_queued: int = DEFAULT_MAX_QUEUED,
                 grace: float = DEFAULT_GRACE, connection: redis.Redis | None = None) -> None:
        from rq import Queue

        self.url = url
        self.redis = connection if connection is not None else connect(url)
        self.queue = Queue(queue, connection=self.redis, serializer=_serializer())
        self.max_queued = max(0, int(max_queued))
        self.grace = float(grace)
        self._down_since: float | None = None

    # Redis failures become one clear 503; the log gets one line per change of state.
    def _unavailable(self, exc: Exception) -> JobsUnavailable:
        if self._down_since is None:
            self._down_since = time.monotonic()
            log.warning("Redis at %s is unreachable (%s): job requests answer 503", _safe(self.url), exc)
        return JobsUnavailable("the job queue is unreachable right now (its Redis server does not "
                               "answer); try again in a few seconds")

    def _up(self) -> None:
        if self._down_since is not None:
            self._down_since = None
            log.warning("Redis at %s answers again: jobs work again", _safe(self.url))

    def _call(self, fn: Callable[..., _T], *args: Any) -> _T:
        import redis

        try:
            result = fn(*args)
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise self._unavailable(exc) from None
        self._up()
        return result

    def submit(self, request: JobRequest) -> Job:
        return self._call(self._submit, request)

    def _submit(self, request: JobRequest) -> Job:
        waiting = self.queue.count
        if waiting >= self.max_queued:
            raise QueueFull(f"{waiting} jobs are already waiting; try again shortly", retry_after=5)
        # A horse with an answer may wait up to REPORT_WAIT for an unreachable Redis to report it.
        # The kill rule's latest moment (the longest answer, checked from the deadline on).
        latest = kill_time(0.0, request.time_limit, self.grace,
                           checking=(request.time_limit, _LONGEST_ANSWER)) or 0.0
        backstop = latest + 5 + REPORT_WAIT
        rq_job = self.queue.enqueue(
            perform, job_id=uuid.uuid4().hex, job_timeout=int(backstop) + 1,
            result_ttl=KEEP_SECONDS, failure_ttl=KEEP_SECONDS, ttl=KEEP_SECONDS,
            kwargs={"request": request.to_json(), "grace": self.grace},
            meta={"progress": {}})
        return self._job(rq_job)

    def get(self, job_id: str) -> Job:
        return self._call(lambda: self._job(self._fetch(job_id)))

    def cancel(self, job_id: str) -> Job:
        return self._call(self._cancel, job_id)

    def _cancel(self, job_id: str) -> Job:
        from rq.command import send_stop_job_command
        from rq.job import JobStatus

        rq_job = self._fetch(job_id)
        status = rq_job.get_status()
        if status in (JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED):
            self._end(job_id, CANCELLED, "cancelled before it started")
            rq_job.cancel()
        elif status == JobStatus.STARTED:
            self._end(job_id, CANCELLED, "cancelled (its work horse was stopped)",
                      started=_timestamp(rq_job.started_at))
            try:
                send_stop_job_command(self.redis, job_id, serializer=_serializer())
            except Exception as exc:  # e.g. it finished meanwhile; the job says how it ended
                log.info("stop-job for %s: %s", job_id, exc)
        return self._job(self._fetch(job_id))

    def close(self) -> None:
        try:
            self.redis.close()
        except Exception:
            pass

    # -- reading RQ's record ---------------------------------------------------------------

    def _fetch(self, job_id: str) -> RQJob:
        from rq.exceptions import NoSuchJobError
        from rq.job import Job as RQJob

        if not isinstance(job_id, str) or not _JOB_ID.fullmatch(job_id):
            raise JobNotFound(f"there is no job {job_id!r}")
        try:
            return RQJob.fetch(job_id, connection=self.redis, serializer=_serializer())
        except NoSuchJobError:
            raise JobNotFound(f"there is no job {job_id!r} (unknown or expired)") from None

    def _up_for(self) -> float:
        """Seconds since the Redis server started."""
        return float(self.redis.info("server").get("uptime_in_seconds", 0))

    def _end(self, job_id: str, status: str, message: str, started: float | None = None) -> None:
        """Say why a job ended, unless something already did (the first reason wins)."""
        self.redis.set(_key(job_id, "end"),
                       _json({"status": status, "message": message, "at": time.time(),
                              "started": started}),
                       nx=True, ex=KEEP_SECONDS)

    def _job(self, rq_job: RQJob) -> Job:
        import json

        from rq.job import JobStatus

        request = _request_of(rq_job.kwargs or {})
        job = Job(id=rq_job.id, request=request,
                  submitted_at=_timestamp(rq_job.enqueued_at) or time.time(),
                  started_at=_timestamp(rq_job.started_at),
                  progress=dict((rq_job.meta or {}).get("progress") or {}))
        status = rq_job.get_status(refresh=False)
        raw_end = self.redis.get(_key(rq_job.id, "end"))
        end = json.loads(raw_end) if raw_end else None
        if end is not None and end.get("message") == LOST:
            # Reported final once: it stays so, whatever the lost worker's horse did later.
            job.started_at = end.get("started") or job.started_at  # RQ may rewrite its own
            job.finished_at = end.get("at") or _timestamp(rq_job.ended_at) or job.started_at
            job.status, job.message = ERROR, LOST
        elif status == JobStatus.FINISHED:
            job.finished_at = _timestamp(rq_job.ended_at)
            value = rq_job.return_value() or {}
            if value.get("kind") == "done":
                job.result = value["report"]
                job.status = status_of_report(job.result)
                job.stored_id = value.get("stored_id")
            elif value.get("kind") == "cancelled":
                job.status, job.message = CANCELLED, "cancelled before it started"
            else:
                job.status, job.message = ERROR, value.get("message") or "the job failed"
        elif status == JobStatus.STARTED:
            # Still running (a cancel or a deadline kill may be on its way).
            job.status = RUNNING
            started = job.started_at or job.submitted_at
            if (time.time() - started > ALIVE_SECONDS
                    and not self.redis.exists(_key(rq_job.id, "alive"))
                    and self._up_for() > ALIVE_SECONDS):
                # (Right after a Redis restart, the key may have expired during the outage: its
                # worker gets ALIVE_SECONDS of Redis being up to refresh it.)
                self.redis.set(_key(rq_job.id, "end"),
                               _json({"status": ERROR, "message": LOST, "at": time.time(),
                                      "started": job.started_at}),
                               ex=KEEP_SECONDS)
                log.warning("job %s: %s", rq_job.id, LOST)
                return self._job(rq_job)
        elif end is not None or status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED):
            job.started_at = (end or {}).get("started") or job.started_at
            job.finished_at = ((end or {}).get("at") or _timestamp(rq_job.ended_at)
                               or job.started_at or job.submitted_at)
            if end is not None:
                job.status, job.message = end["status"], end["message"]
            elif status == JobStatus.CANCELED:
                job.status, job.message = CANCELLED, "cancelled before it started"
            else:
                job.status, job.message = ERROR, f"the job failed: {_last_line(rq_job)}"
        else:
            job.status = QUEUED
            position = rq_job.get_position()
            job.queue_position = None if position is None else position + 1
        return job


def _request_of(kwargs: dict) -> JobRequest:
    """The request an RQ job carries (a damaged record reads as an unknown puzzle)."""
    try:
        return JobRequest.from_json(kwargs["request"])
    except (KeyError, TypeError, ValueError):
        return JobRequest("?", "?", "", 0.0)


def _last_line(rq_job: RQJob) -> str:
    try:
        result = rq_job.latest_result()
        text = (result.exc_string if result is not None else None) or ""
    except Exception:
        text = ""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no reason recorded"


def _safe(url: str) -> str:
    """A Redis URL without its password, for logs."""
    return re.sub(r"//[^@/]*@", "//***@", url)


def redis_jobs(url: str, queue: str = DEFAULT_QUEUE, max_queued: int = DEFAULT_MAX_QUEUED,
               grace: float = DEFAULT_GRACE) -> tuple[RQRunner, RedisAnswerStore]:
    """The runner and answer store of the distributed mode, sharing one Redis client."""
    runner = RQRunner(url, queue=queue, max_queued=max_queued, grace=grace)
    return runner, GuardedRedisStore(runner)


class GuardedRedisStore(RedisAnswerStore):
    """The Redis answer store for web processes: an unreachable Redis is a clear 503.

    Stored answers are permanent, so each web process keeps the last ones it read (up to
    :data:`CACHED_ANSWERS`, none longer than :data:`CACHED_MOVES` moves) in memory: a
    ``stored-N`` link (its page, its API answer, its SVG) or a repeated request it served
    before keeps working while Redis is down. Anything else answers 503 until Redis is back.
    """

    def __init__(self, runner: RQRunner):
        import collections
        import threading

        super().__init__(runner.redis)
        self._runner = runner
        self._cache: collections.OrderedDict = collections.OrderedDict()
        self._lock = threading.Lock()

    def _remember(self, key: tuple, value: _Found) -> _Found:
        if value is None or len((value[1] or {}).get("moves") or ()) > CACHED_MOVES:
            return value
        with self._lock:
            self._cache[key] = value
            self._cache.move_to_end(key)
            while len(self._cache) > CACHED_ANSWERS:
                self._cache.popitem(last=False)
        return value

    def _cached(self, key: tuple, fetch: Callable[..., _Found], *args: Any) -> _Found:
        try:
            return self._remember(key, self._runner._call(fetch, *args))
        except JobsUnavailable:
            with self._lock:
                if key in self._cache:
                    return self._cache[key]
            raise

    def get(self, puzzle: str, solver: str, instance: str) -> tuple[int, dict] | None:
        return self._cached(("key", puzzle, solver, instance), super().get, puzzle, solver, instance)

    def get_by_id(self, number: int) -> tuple[JobRequest, dict] | None:
        found = self._cached(("id", int(number)), super().get_by_id, number)
        if found is not None:  # the same answer, by what it answers
            request, report = found
            self._remember(("key", request.puzzle, request.solver, request.instance),
                           (int(number), report))
        return found

    def count(self) -> int:
        return self._runner._call(super().count)


#: How many stored answers a web process keeps in memory for when Redis is down.
CACHED_ANSWERS = 256
#: Longer answers are not kept (a 32 x 32 answer can hold 83,000 moves, ~5 MB).
CACHED_MOVES = 20_000
