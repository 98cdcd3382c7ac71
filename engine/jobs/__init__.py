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

from .local import LocalProcessRunner
from .model import (CANCELLED, DEFAULT_REGISTRY_FACTORY, DEFAULT_TIME_LIMIT, ERROR, FINAL_STATUSES,
                    GAVE_UP, MAX_TIME_LIMIT, QUEUED, RUNNING, SOLVED, STORED_STATUSES, UNSOLVABLE,
                    Job, JobNotFound, JobRequest, JobRunner, JobsUnavailable, QueueFull, default_data_dir,
                    load_object, status_of_report)
from .service import STORED_PREFIX, JobService
from .store import ResultStore

__all__ = [
    "CANCELLED", "DEFAULT_REGISTRY_FACTORY", "DEFAULT_TIME_LIMIT", "ERROR", "FINAL_STATUSES",
    "GAVE_UP", "MAX_TIME_LIMIT", "QUEUED", "RUNNING", "SOLVED", "STORED_PREFIX",
    "STORED_STATUSES", "UNSOLVABLE", "Job", "JobNotFound", "JobRequest", "JobRunner",
    "JobService", "JobsUnavailable", "LocalProcessRunner", "QueueFull", "ResultStore", "default_data_dir",
    "load_object", "status_of_report",
]
