"""``puzzle worker``: an RQ worker for solve jobs, with its Redis connection kept alive.

It loads the plugins and prepares every solver once, then lets RQ fork a work horse per job
(the horses inherit the loaded plugins and tables). When Redis cannot be reached it retries
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
from typing import TYPE_CHECKING

import click

from .model import DEFAULT_REGISTRY_FACTORY, load_object

if TYPE_CHECKING:
    from rq import Worker

log = logging.getLogger("engine.jobs.worker")

#: Pauses between connection attempts grow from the first to the last.
FIRST_PAUSE, LAST_PAUSE = 0.5, 15.0


def run_worker(url: str, queue: str, burst: bool = False,
               registry_factory: str = DEFAULT_REGISTRY_FACTORY, prepare: bool = True,
               name: str | None = None) -> None:
    """Serve the queue until stopped (or, with ``burst``, until it is empty)."""
    import redis

    from ..solving import prepare_solvers
    from .rq_runner import NameTaken, _safe, connect, make_worker, use_registry

    registry = load_object(registry_factory)()
    use_registry(registry, registry_factory)
    if prepare:
        for done in prepare_solvers(registry):
            if done.error:
                log.warning("%s solver %r is not prepared: %s", done.puzzle_id, done.solver, done.error)
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


class NameClash(click.ClickException):
    """The worker's --name belongs to another live worker: a bad option, so exit status 2."""

    exit_code = 2


def _no_orphan(worker: Worker | None) -> None:
    """A worker never leaves its work horse running without it: nobody could report its job."""
    import signal

    pid = getattr(worker, "horse_pid", 0) if worker is not None else 0
    if pid:
        try:
            os.killpg(pid, signal.SIGKILL)  # the horse leads its own process group
        except OSError:
            pass


@click.command("worker")
@click.option("--redis", "redis_url", default=None, envvar="PUZZLE_ENGINE_REDIS",
              help="Redis URL, e.g. redis://localhost:6379/0 (default: $PUZZLE_ENGINE_REDIS).")
@click.option("--queue", default="puzzle", show_default=True, help="The RQ queue to take jobs from.")
@click.option("--burst", is_flag=True, help="Exit once the queue is empty.")
@click.option("--name", default=None, help="The worker's name in RQ (default: a random one).")
@click.option("--prepare/--no-prepare", default=True, show_default=True,
              help="Build and load every solver's tables before taking jobs.")
@click.option("--registry-factory", default=DEFAULT_REGISTRY_FACTORY, show_default=True, hidden=True,
              help="module:function that returns the plugin registry (for tests).")
def worker_command(redis_url: str | None, queue: str, burst: bool, name: str | None, prepare: bool,
                   registry_factory: str) -> None:
    """Run a solve worker on RQ (Redis): many of them, on many machines, serve `puzzle serve --redis`."""
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
    run_worker(redis_url, queue, burst=burst, registry_factory=registry_factory, prepare=prepare,
               name=name)
