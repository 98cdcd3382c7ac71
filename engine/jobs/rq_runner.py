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
* the horse stores solved and unsolvable answers in the Redis answer store itself
  (:mod:`engine.jobs.redis_store`, which also holds the web processes' guarded store), so an answer
  never depends on a web process being there to receive it.
* a Redis outage is ridden out: the worker keeps supervising the horse (and its deadline) without
  Redis, the horse reports its answer once Redis answers again, and a job's final status, once
  read, never changes (a job declared lost stays lost).

Redis keys of a job besides RQ's own: ``puzzle:job:<id>:end`` (why it ended, when RQ cannot say:
killed at its deadline, cancelled, lost), ``:alive`` and ``:kill_at``.
"""

from __future__ import annotations

import collections
import logging
import os
import re
import threading
import time
import uuid
from datetime import timezone
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from ..deadlines import KillClock, kill_time
from ..i18n import N_, _
from .execute import run_job
from .model import (
    CANCELLED,
    DEFAULT_GRACE,
    DEFAULT_MAX_QUEUED,
    DEFAULT_QUEUE,
    DEFAULT_REGISTRY_FACTORY,
    ERROR,
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
from .redis_store import GuardedRedisStore, RedisAnswerStore
from .store import StoreBusy

if TYPE_CHECKING:
    from ctypes import c_double
    from datetime import datetime

    import redis
    from rq.job import Job as RQJob
    from rq.serializers import JSONSerializer

    from ..plugins import Registry

log = logging.getLogger("engine.jobs")

_T = TypeVar("_T")

#: Seconds a running job's "alive" key lives without a refresh from its worker (refreshed every
#: second): a job is declared lost at most this long after its worker died.
ALIVE_SECONDS = 15
#: How long finished jobs (and their results) stay readable in Redis.
KEEP_SECONDS = 24 * 3600
#: The longest answer a check is allowed for, for the RQ timeout backstop.
_LONGEST_ANSWER = 100_000
LOST = N_("the worker running it was lost")
#: What a job this web process saw queued or running answers once Redis no longer knows it.
FORGOTTEN = N_("the job queue's Redis server no longer knows this job (it was restarted without "
               "persistence); submit it again")
#: How many jobs each web process remembers (see RQRunner._remember), and the longest answer kept.
REMEMBERED_JOBS = 2_000
REMEMBERED_MOVES = 20_000
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
            _save_progress(job)
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


# RQ's save_meta is a plain HSET: after Redis forgot the job (a restart without persistence),
# it would make a job record holding nothing but progress. Written only while the job exists.
_SAVE_META = """
if redis.call('HEXISTS', KEYS[1], 'data') == 1 then redis.call('HSET', KEYS[1], 'meta', ARGV[1]) end
"""


def _save_progress(job: RQJob) -> None:
    job.connection.eval(_SAVE_META, 1, job.key, job.serializer.dumps(job.meta))


def _store(redis: redis.Redis, report: dict) -> str | None:
    key = RedisAnswerStore(redis).put(report)
    return None if key is None else f"{STORED_PREFIX}{key}"


#: How long a work horse that has its answer waits for an unreachable Redis to report it.
REPORT_WAIT = 600.0
#: A deadline the work horse can push later without Redis: shared memory that the worker sets up
#: before it forks (see PuzzleWorker.fork_work_horse).
_LOCAL_KILL_AT: c_double | None = None


def _tell_worker(kill_at: float) -> None:
    if _LOCAL_KILL_AT is not None:
        _LOCAL_KILL_AT.value = max(_LOCAL_KILL_AT.value, kill_at)


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
        #: The jobs this process has shown, newest last (see :meth:`_remember`).
        self._seen: collections.OrderedDict[str, Job] = collections.OrderedDict()
        self._seen_lock = threading.Lock()

    # Redis failures become one clear 503; the log gets one line per change of state.
    def _unavailable(self, exc: Exception) -> JobsUnavailable:
        if self._down_since is None:
            self._down_since = time.monotonic()
            log.warning("Redis at %s is unreachable (%s): job requests answer 503", _safe(self.url), exc)
        return JobsUnavailable(_("the job queue is unreachable right now (its Redis server does not "
                                 "answer); try again in a few seconds"))

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
        return self._remember(self._job(rq_job))

    def get(self, job_id: str) -> Job:
        return self._call(self._get, job_id)

    def _get(self, job_id: str) -> Job:
        try:
            return self._remember(self._job(self._fetch(job_id)))
        except JobNotFound:
            return self._forgotten(job_id)

    def cancel(self, job_id: str) -> Job:
        return self._call(self._cancelled, job_id)

    def _cancelled(self, job_id: str) -> Job:
        try:
            return self._remember(self._cancel(job_id))
        except JobNotFound:
            return self._forgotten(job_id)

    # A job's final status never changes, even when Redis forgets the job (it restarted without
    # persistence): this process answers what it has shown before. A job it saw queued or
    # running ends as an error that says why; a job it never saw is a 404, as it always was.
    def _remember(self, job: Job) -> Job:
        if len((job.result or {}).get("moves") or ()) > REMEMBERED_MOVES:
            return job  # too big to keep; it answers 404 if Redis forgets it
        with self._seen_lock:
            self._seen[job.id] = job
            self._seen.move_to_end(job.id)
            while len(self._seen) > REMEMBERED_JOBS:
                self._seen.popitem(last=False)
        return job

    def _forgotten(self, job_id: str) -> Job:
        with self._seen_lock:
            job = self._seen.get(job_id)
            if job is None:
                raise JobNotFound(_("there is no job {job} (unknown or expired)").format(job=repr(job_id)))
            if not job.done:
                log.warning("job %s: Redis no longer knows it (restarted without persistence?)", job_id)
                job.status, job.message, job.result = ERROR, FORGOTTEN, None
                job.finished_at = time.time()
                job.queue_position = None
            return job

    def _cancel(self, job_id: str) -> Job:
        from rq.command import send_stop_job_command
        from rq.job import JobStatus

        rq_job = self._fetch(job_id)
        status = rq_job.get_status()
        if status in (JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED):
            self._end(job_id, CANCELLED, N_("cancelled before it started"))
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
            raise JobNotFound(_("there is no job {job}").format(job=repr(job_id)))
        try:
            return RQJob.fetch(job_id, connection=self.redis, serializer=_serializer())
        except NoSuchJobError:
            raise JobNotFound(_("there is no job {job} (unknown or expired)").format(job=repr(job_id))) from None

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
                job.status, job.message = CANCELLED, N_("cancelled before it started")
            else:
                job.status, job.message = ERROR, value.get("message") or N_("the job failed")
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
                job.status, job.message = CANCELLED, N_("cancelled before it started")
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
    return lines[-1] if lines else N_("no reason recorded")


def _safe(url: str) -> str:
    """A Redis URL without its password, for logs."""
    return re.sub(r"//[^@/]*@", "//***@", url)


def redis_jobs(url: str, queue: str = DEFAULT_QUEUE, max_queued: int = DEFAULT_MAX_QUEUED,
               grace: float = DEFAULT_GRACE) -> tuple[RQRunner, RedisAnswerStore]:
    """The runner and answer store of the distributed mode, sharing one Redis client."""
    runner = RQRunner(url, queue=queue, max_queued=max_queued, grace=grace)
    return runner, GuardedRedisStore(runner)
