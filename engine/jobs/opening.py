"""``open_jobs(config)``: the runner and the answer store, chosen in one place for every mode.

Configuration keys (all optional; the web app passes its own config, see ``web/__init__.py``):

``REDIS_URL``           RQ workers and the answer store in this Redis (else local mode)
``REDIS_QUEUE``         the RQ queue (default :data:`~engine.jobs.model.DEFAULT_QUEUE`)
``MAX_QUEUED``          jobs allowed to wait (default :data:`~engine.jobs.model.DEFAULT_MAX_QUEUED`)
``JOBS_PER_CLIENT``     queued and running jobs one client may have at once (default
                        :data:`~engine.jobs.shares.DEFAULT_JOBS_PER_CLIENT`; 0: no limit), counted
                        in Redis in the distributed mode (shared by every web process)
``KILL_GRACE``          seconds past a deadline before a solve is killed (default
                        :data:`engine.deadlines.DEFAULT_GRACE`)
``DATA_DIR``            local mode: the SQLite store's folder (default :func:`default_data_dir`);
                        unusable, answers are kept in memory (one warning)
``JOB_RUNNER``          local mode: a JobRunner class, factory or dotted path instead of the pool,
                        called with ``JOB_RUNNER_OPTIONS``
``JOB_WORKERS``, ``REGISTRY_FACTORY``, ``PREPARE_SOLVERS``: the local pool's workers
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .local import LocalProcessRunner
from .model import (
    DEFAULT_GRACE,
    DEFAULT_MAX_QUEUED,
    DEFAULT_QUEUE,
    DEFAULT_REGISTRY_FACTORY,
    JobRunner,
    default_data_dir,
    load_object,
)
from .shares import DEFAULT_JOBS_PER_CLIENT, ClientShares, MemoryShareBook, RedisShareBook
from .store import AnswerStore, MemoryAnswerStore, ResultStore

log = logging.getLogger("engine.jobs")


@dataclass
class OpenedJobs:
    """What :func:`open_jobs` chose: the runner, the store, each client's share of the queue
    (None: no limit), and whether answers only last in memory (no writable data directory)."""

    runner: JobRunner
    store: AnswerStore
    in_memory: bool = False
    shares: ClientShares | None = None


def open_jobs(config: Mapping[str, Any], logger: logging.Logger | None = None) -> OpenedJobs:
    """The runner and store for ``config`` (keys in the module docstring). ``logger`` gets the
    one warning of a store that falls back to memory."""
    max_queued = config.get("MAX_QUEUED", DEFAULT_MAX_QUEUED)
    grace = config.get("KILL_GRACE", DEFAULT_GRACE)
    per_client = int(config.get("JOBS_PER_CLIENT", DEFAULT_JOBS_PER_CLIENT) or 0)
    redis_url = config.get("REDIS_URL")
    if redis_url:  # many machines: RQ workers and the answer store in Redis
        from .rq_runner import redis_jobs
        queue = config.get("REDIS_QUEUE") or DEFAULT_QUEUE
        runner, redis_store = redis_jobs(redis_url, queue=queue, max_queued=max_queued, grace=grace)
        shares = ClientShares(runner, RedisShareBook(runner.redis, queue), per_client) \
            if per_client else None
        return OpenedJobs(runner, redis_store, shares=shares)
    store, in_memory = _local_store(config, logger or log)
    local = _local_runner(config, max_queued, grace)
    shares = ClientShares(local, MemoryShareBook(), per_client) if per_client else None
    return OpenedJobs(local, store, in_memory, shares)


def _local_runner(config: Mapping[str, Any], max_queued: int, grace: float) -> JobRunner:
    runner = config.get("JOB_RUNNER")
    options = dict(config.get("JOB_RUNNER_OPTIONS") or {})
    if runner is None:
        return LocalProcessRunner(
            workers=config.get("JOB_WORKERS", 2),
            max_queued=max_queued,
            grace=grace,
            registry_factory=config.get("REGISTRY_FACTORY", DEFAULT_REGISTRY_FACTORY),
            prepare_solvers=config.get("PREPARE_SOLVERS", False),
            **options,
        )
    if isinstance(runner, str):
        runner = load_object(runner)
    return runner(**options) if callable(runner) else runner


def _local_store(config: Mapping[str, Any], logger: logging.Logger) -> tuple[AnswerStore, bool]:
    """The SQLite store in the data directory, or memory (with one warning line) when the
    directory cannot be created or written: a read-only home must not stop a server."""
    try:
        data_dir = Path(config.get("DATA_DIR") or default_data_dir())
        return ResultStore(data_dir / "results.sqlite3"), False
    except (OSError, RuntimeError, sqlite3.Error) as exc:  # RuntimeError: Path.home() unknown
        logger.warning("cannot keep solved answers on disk (%s: %s); keeping them in memory "
                       "until the server stops (set --data-dir or PUZZLE_ENGINE_DATA to a "
                       "writable directory)", type(exc).__name__, exc)
        return MemoryAnswerStore(), True
