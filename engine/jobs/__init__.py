"""Solving (and plugins' tasks) as jobs: submit, poll, cancel; local worker processes and SQLite,
or RQ and Redis.

One module per replaceable part:

* :mod:`.model`: job records (:class:`Job`, :class:`JobRequest`), statuses, the errors the API
  maps to 404/503, and :class:`JobRunner`, the one interface that runs solves somewhere.
* :mod:`.local`: :class:`LocalProcessRunner` (the default), a small pool of local worker
  processes; :mod:`.execute`: what any worker does with one job.
* :mod:`.store`: :class:`AnswerStore` and the SQLite :class:`ResultStore`, answers keyed by
  puzzle, solver, *canonical* instance text and locale, with permanent keys (``stored-<key>``,
  hashes of the question), and
  :class:`MemoryAnswerStore` when no data directory is writable;
  :mod:`.later`: store writes that could not be done at once, retried in the background.
* :mod:`.rq_runner`, :mod:`.redis_store`, :mod:`.worker`: the distributed mode (RQ on Redis,
  ``puzzle worker``), imported only when it is used.
* :mod:`.opening`: :func:`open_jobs`, the runner and store a configuration asks for (local or
  Redis), chosen in one place.
* :mod:`.shares`: :class:`ClientShares`, each client's bounded share of queued and running
  jobs (:class:`TooManyJobs` past it, a 429).
* :mod:`.service`: :class:`JobService`, what a front end (the web app, a CLI) talks to: it
  validates a request with the registry, answers it from the store when it can, and otherwise
  hands it to the runner.

Nothing here imports ``web`` or any plugin: workers load the registry through a dotted path
(``"engine.plugins:get_registry"`` by default), so tests can point them at a toy registry.
"""

from .local import LocalProcessRunner
from .model import (
                    CANCELLED,
                    DEFAULT_GRACE,
                    DEFAULT_MAX_QUEUED,
                    DEFAULT_QUEUE,
                    DEFAULT_REGISTRY_FACTORY,
                    DEFAULT_TIME_LIMIT,
                    ERROR,
                    FINAL_STATUSES,
                    FINISHED,
                    GAVE_UP,
                    MAX_TIME_LIMIT,
                    QUEUED,
                    RUNNING,
                    SOLVE,
                    SOLVED,
                    STORED_PREFIX,
                    STORED_STATUSES,
                    TASK,
                    UNSOLVABLE,
                    Job,
                    JobNotFound,
                    JobRequest,
                    JobRunner,
                    JobsUnavailable,
                    QueueFull,
                    default_data_dir,
                    load_object,
                    status_of_report,
)
from .opening import OpenedJobs, open_jobs
from .service import JobService
from .shares import DEFAULT_JOBS_PER_CLIENT, ClientShares, TooManyJobs
from .store import MemoryAnswerStore, ResultStore

__all__ = [
    "CANCELLED", "DEFAULT_GRACE", "DEFAULT_JOBS_PER_CLIENT", "DEFAULT_MAX_QUEUED", "DEFAULT_QUEUE",
    "DEFAULT_REGISTRY_FACTORY", "DEFAULT_TIME_LIMIT", "ERROR", "FINAL_STATUSES", "FINISHED",
    "GAVE_UP", "MAX_TIME_LIMIT", "QUEUED", "RUNNING", "SOLVE", "SOLVED", "STORED_PREFIX",
    "STORED_STATUSES", "TASK", "UNSOLVABLE", "ClientShares", "Job", "JobNotFound", "JobRequest",
    "JobRunner", "JobService", "JobsUnavailable", "LocalProcessRunner", "MemoryAnswerStore",
    "OpenedJobs", "QueueFull", "ResultStore", "TooManyJobs", "default_data_dir", "load_object",
    "open_jobs", "status_of_report",
]
