"""``puzzle worker``: an RQ worker for solve jobs, with its Redis connection kept alive.

:class:`PuzzleWorker` (made on first use by ``_worker_class``, since RQ loads lazily) is the
supervisor of the distributed mode: what the work horse runs, and the web processes' side,
are in :mod:`engine.jobs.rq_runner`.

It loads the plugins and prepares every solver once, then lets RQ fork a work horse per job
(the horses inherit the loaded plugins and tables). Meanwhile the big tables are built on this
machine in a low-priority background process (:mod:`engine.background`); each time one is
finished the worker loads it before the next fork, so the horses inherit it too. When Redis cannot be reached it retries
with growing pauses and logs one line per change of state, never one per attempt; it stays the
same RQ worker across an outage (same name, same running job: see PuzzleWorker). A ``--name``
that a live worker holds is refused with exit status 2; a stale one is taken over. SIGTERM
(or Ctrl+C) is RQ's warm shutdown: the current job finishes, then the worker exits; a second
one stops the job at once.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, TypeVar, cast

import click

from ..cli_help import TranslatedCommand
from ..deadlines import kill_time
from ..i18n import ENGINE, N_
from . import rq_runner as _rq
from .model import DEFAULT_QUEUE, DEFAULT_REGISTRY_FACTORY, GAVE_UP, load_object
from .rq_runner import (
    ALIVE_SECONDS,
    KEEP_SECONDS,
    LOST,
    REPORT_WAIT,
    WORKER_TTL,
    _json,
    _key,
    _loads,
    _request_of,
    _serializer,
    _store,
    _timestamp,
)
from .store import StoreBusy

if TYPE_CHECKING:
    from types import TracebackType

    import redis
    from redis.client import Pipeline
    from rq import Queue, Worker
    from rq.executions import Execution
    from rq.job import Job as RQJob

_T = TypeVar("_T")

log = logging.getLogger("engine.jobs.worker")

#: Seconds between a busy worker's heartbeats (RQ's job_monitoring_interval, see make_worker).
ALIVE_BEAT = 1
#: Pauses between connection attempts grow from the first to the last.
FIRST_PAUSE, LAST_PAUSE = 0.5, 15.0
#: Seconds between wake-ups of the thread that listens for RQ's commands (bounds a stop's wait).
COMMAND_WAKE = 1.0


class _Tables:
    """The background preparer of this worker, and how many of its builds are loaded here."""

    registry: Any = None
    preparer: Any = None
    loaded = 0


def _load_new_tables() -> None:
    """Load the tables the background preparer has finished since the last look (in the
    worker, before it forks a horse: the horses inherit them instead of each reading them)."""
    preparer = _Tables.preparer
    if preparer is None:
        return
    done = preparer.builds_done()
    if done == _Tables.loaded:
        return
    _Tables.loaded = done
    from ..solving import prepare_solvers
    # Loads what is on disk now; a solver that would still build waits for the preparer.
    for _ in prepare_solvers(_Tables.registry, builds=False):
        pass


def run_worker(url: str, queue: str, burst: bool = False,
               registry_factory: str = DEFAULT_REGISTRY_FACTORY, prepare: bool = True,
               name: str | None = None, background: bool = True) -> None:
    """Serve the queue until stopped (or, with ``burst``, until it is empty). ``prepare``:
    load the solvers' tables first, and (``background``) build the big ones in the background."""
    import redis

    from ..background import BackgroundPreparer
    from ..solving import prepare_solvers
    from .rq_runner import _safe, connect, use_registry

    registry = load_object(registry_factory)()
    use_registry(registry, registry_factory)
    in_background = prepare and background and not burst
    if prepare:
        # With background preparation, what would be built is the preparer's first pass: the
        # worker takes jobs at once (a job needing a table being built waits for its lock).
        for done in prepare_solvers(registry, builds=not in_background):
            if done.error:
                log.warning("%s solver %r is not prepared: %s", done.puzzle_id, done.solver, done.error)
    if in_background:
        _Tables.registry = registry
        _Tables.preparer = BackgroundPreparer(registry_factory, log_changes=True)
        _Tables.preparer.start()
    where = _safe(url)
    state, pause = None, FIRST_PAUSE
    worker = None
    try:
        while True:
            try:
                if worker is None:
                    connection = connect(url, for_worker=True)
                    connection.ping()
                    worker = make_worker(connection, queue, name=name)
                    worker.claim_name()  # a clash is said before "connected"
                if state != "up":
                    log.warning("connected to Redis at %s; taking jobs from queue %r", where, queue)
                    state, pause = "up", FIRST_PAUSE
                # The same worker across outages: it keeps its name and its running job. It
                # rides out an outage by itself once it works; this loop covers its start-up.
                worker.work(burst=burst, logging_level="WARNING", with_scheduler=False)
                return  # the queue is empty (burst) or the worker was told to stop
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                if burst:
                    raise click.ClickException(f"Redis at {where} is unreachable: {exc}") from None
                if state != "down":
                    log.warning("Redis at %s is unreachable (%s); retrying with backoff", where, exc)
                    state = "down"
                time.sleep(pause)
                pause = min(LAST_PAUSE, pause * 2)
            except NameTaken as exc:
                raise NameClash(str(exc)) from None
    finally:
        _no_orphan(worker)
        if _Tables.preparer is not None:
            _Tables.preparer.close()
            _Tables.preparer = None


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
    import signal

    from rq import Worker
    from rq.job import JobStatus
    from rq.utils import now as rq_now
    from rq.worker import WorkerStatus

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
            if data and b"birth" not in data:
                # Only a heartbeat wrote it (after Redis forgot the registration): its worker
                # registers afresh at its next heartbeat (at most a second while it runs a job,
                # see _registered). Still without a birth after that, its writer is gone.
                time.sleep(ALIVE_BEAT + 1)
                data = cast("dict[bytes, bytes]", self.connection.hgetall(self.key))
                if data and b"birth" not in data:
                    data = {}
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

        # -- stopping -------------------------------------------------------------------------

        def request_stop(self, signum: int, frame: Any) -> None:
            """SIGTERM or SIGINT: a warm shutdown, once the running job is finished.

            RQ's handler sets its stop flag only after it has logged and swapped the signal
            handlers, while the horse monitor's one-second SIGALRM raises into whatever Python
            runs at the time: an alarm landing there would lose the request and the worker
            would take jobs on. So the flag is set first, and the alarm waits until the
            handler is done."""
            if self.get_state() == WorkerStatus.BUSY:
                self._stop_requested = True
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            try:
                super().request_stop(signum, frame)
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})

        def subscribe(self) -> None:
            """RQ's command channel (``rq`` stop-job and shutdown commands), listened to by a
            thread that wakes every second instead of RQ's 60.

            At a stop RQ unsubscribes and then stops that thread. Since redis-py 8 the stop
            waits for the thread to end, and a thread that saw the unsubscribe before the stop
            sleeps its whole wake-up time first: with 60 s, a SIGTERM often took a minute."""
            self.log.info("Worker %s: subscribing to channel %s", self.name, self.pubsub_channel_name)
            self.pubsub = self.connection.pubsub()
            self.pubsub.subscribe(**{self.pubsub_channel_name: self.handle_payload})
            self.pubsub_thread = self.pubsub.run_in_thread(  # type: ignore[assignment]  # RQ declares it None
                sleep_time=COMMAND_WAKE, daemon=True, exception_handler=self._pubsub_exception_handler)

        # -- waiting for jobs ----------------------------------------------------------------

        def _registered(self) -> None:
            """Register again if Redis forgot this worker (it restarted without persistence):
            RQ's heartbeat alone would leave a nameless entry (no pid, no host) that blocks the
            name for two minutes after a kill -9, and the worker missing from RQ's lists."""
            if not self.connection.hexists(self.key, "birth"):
                self.connection.delete(self.key)
                Worker.register_birth(self)
                self.set_state(self.get_state())

        def heartbeat(self, timeout: int | None = None, pipeline: Pipeline | None = None) -> None:
            if pipeline is not None:  # queued only: maintain_heartbeats sends it
                return super().heartbeat(timeout, pipeline=pipeline)
            try:
                self._registered()
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
            import multiprocessing

            _load_new_tables()
            if _rq._LOCAL_KILL_AT is None:  # the horse's side of it lives beside perform()
                _rq._LOCAL_KILL_AT = multiprocessing.Value("d", 0.0, lock=False)
            _rq._LOCAL_KILL_AT.value = 0.0
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
            if _forgotten(job):  # Redis restarted without persistence meanwhile: nothing to end
                self.set_state("idle")
                return
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
                self._registered()
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
            if _rq._LOCAL_KILL_AT is not None:
                kill_at = max(kill_at, _rq._LOCAL_KILL_AT.value)
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
                if _forgotten(job):  # Redis restarted without persistence: keep the answer only
                    self._keep_answer_of_forgotten(job, return_value)
                    return None
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
            def report() -> None:
                if _forgotten(job):
                    log.warning("job %s ended, but Redis no longer knows it (restarted without "
                                "persistence?); nothing to report", job.id)
                    return None
                return Worker._finalize_failure(self, job, queue, execution, exc_info)
            return self._until_redis(report)

        def _keep_answer_of_forgotten(self, job: RQJob, value: Any) -> None:
            """A job Redis forgot while it ran: its answer still goes into the answer store (a
            new request for it is answered at once), but the job is not written back: whoever
            polls it keeps the answer they had (see RQRunner._forgotten), never a new one."""
            report = value.get("report") if isinstance(value, dict) else None
            stored = None
            if value.get("kind") == "done" and isinstance(report, dict):
                try:
                    stored = _store(job.connection, report)
                except StoreBusy:
                    import redis
                    raise redis.ConnectionError("the answer store is unreachable") from None
            log.warning("job %s ended, but Redis no longer knows it (restarted without "
                        "persistence?)%s", job.id, f"; its answer is stored as {stored}" if stored else "")

    return PuzzleWorker


def _forgotten(job: RQJob) -> bool:
    """Whether Redis no longer has the job (it restarted without persistence; a heartbeat may
    have left a record without the job's data)."""
    return not job.connection.hexists(job.key, "data")


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


def make_worker(connection: redis.Redis, queue_name: str = DEFAULT_QUEUE, name: str | None = None) -> Any:
    """An RQ worker for the puzzle queue (call :func:`use_registry` first)."""
    from rq import Queue

    queue = Queue(queue_name, connection=connection, serializer=_serializer())
    # job_monitoring_interval=1: the deadline, progress and "alive" checks run every second.
    # worker_ttl=60: an idle worker heartbeats every 45 s, so a registration silent for 2 min
    # is stale and its name can be taken over (see PuzzleWorker.register_birth).
    worker = _worker_class()([queue], connection=connection, serializer=_serializer(), name=name,
                             job_monitoring_interval=ALIVE_BEAT, worker_ttl=WORKER_TTL)
    worker.max_connection_wait_time = 8.0  # RQ's own retries while idle: pauses up to 8 s
    kwargs = connection.connection_pool.connection_kwargs
    state = _ConnectionState(f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')}")
    logging.getLogger("rq.worker").addFilter(state)
    worker.connection_state = state
    return worker


class NameClash(click.ClickException):
    """The worker's --name belongs to another live worker: a bad option, so exit status 2."""

    exit_code = 2


def _stacks_on_sigusr1() -> None:
    """``kill -USR1 <pid>`` prints where every thread of this worker is, on its stderr, and the
    worker goes on: how an operator (or a test) sees what a worker that does not stop waits for."""
    import faulthandler
    import signal

    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True, chain=False)


def _no_orphan(worker: Worker | None) -> None:
    """A worker never leaves its work horse running without it: nobody could report its job."""
    import signal

    pid = getattr(worker, "horse_pid", 0) if worker is not None else 0
    if pid:
        try:
            os.killpg(pid, signal.SIGKILL)  # the horse leads its own process group
        except OSError:
            pass


@click.command("worker", cls=TranslatedCommand, catalogue=ENGINE, help=N_(
    "Run a solve worker on RQ (Redis): many of them, on many machines, serve `puzzle serve "
    "--redis`."))
@click.option("--redis", "redis_url", default=None, envvar="PUZZLE_ENGINE_REDIS",
              help=N_("Redis URL, e.g. redis://localhost:6379/0 (default: $PUZZLE_ENGINE_REDIS)."))
@click.option("--queue", default=DEFAULT_QUEUE, show_default=True, help=N_("The RQ queue to take jobs from."))
@click.option("--burst", is_flag=True, help=N_("Exit once the queue is empty."))
@click.option("--name", default=None, help=N_("The worker's name in RQ (default: a random one)."))
@click.option("--prepare/--no-prepare", default=True, show_default=True, envvar="PUZZLE_ENGINE_PREPARE",
              help=N_("Load every solver's tables (building the quick ones) before taking jobs; "
                      "--no-prepare builds nothing ahead of time."))
@click.option("--background-prepare/--no-background-prepare", "background", default=True,
              show_default=True, envvar="PUZZLE_ENGINE_BACKGROUND_PREPARE",
              help=N_("Meanwhile build the big tables on this machine in one low-priority process "
                      "(not with --burst); jobs use each one once it is finished."))
@click.option("--registry-factory", default=DEFAULT_REGISTRY_FACTORY, show_default=True, hidden=True,
              help=N_("module:function that returns the plugin registry (for tests)."))
def worker_command(redis_url: str | None, queue: str, burst: bool, name: str | None, prepare: bool,
                   background: bool, registry_factory: str) -> None:
    """``worker``: its help (above) is what people read."""
    if not redis_url:
        raise click.UsageError("give the Redis URL with --redis or $PUZZLE_ENGINE_REDIS")
    from .rq_runner import check_url
    try:
        check_url(redis_url)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--redis") from None
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format=f"%(asctime)s worker {os.getpid()}: %(message)s")
    logging.getLogger("rq").setLevel(logging.WARNING)
    _stacks_on_sigusr1()
    run_worker(redis_url, queue, burst=burst, registry_factory=registry_factory, prepare=prepare,
               name=name, background=background)
