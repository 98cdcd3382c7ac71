"""Job records and the runner interface: what every part of the job system shares.

Statuses, :class:`JobRequest` (one validated solve), :class:`Job` (its state as clients see it),
the errors the API maps to 404 and 503, and :class:`JobRunner`, the one interface a runner
(local processes, RQ on Redis) implements.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..deadlines import DEFAULT_GRACE as DEFAULT_GRACE  # defined with the kill rule
from ..errors import InputError, PuzzleError
from ..i18n import DEFAULT_LOCALE, LOCALES
from ..tasks import FINISHED

#: Job statuses. ``queued`` and ``running`` are not final; the others are. ``finished`` is a
#: task job's answer (a solve job answers ``solved`` or ``unsolvable``).
QUEUED, RUNNING = "queued", "running"
SOLVED, UNSOLVABLE, GAVE_UP, ERROR, CANCELLED = "solved", "unsolvable", "gave_up", "error", "cancelled"
FINAL_STATUSES = frozenset({SOLVED, UNSOLVABLE, FINISHED, GAVE_UP, ERROR, CANCELLED})
#: Job kinds: run a solver, or run one of the puzzle's tasks (engine.Task).
SOLVE, TASK = "solve", "task"
#: Only these answers are facts about the instance, worth storing: "gave up" depends on the
#: time limit and the machine, so asking again may well do better.
STORED_STATUSES = frozenset({SOLVED, UNSOLVABLE})

DEFAULT_TIME_LIMIT = 10.0
MAX_TIME_LIMIT = 120.0
DEFAULT_REGISTRY_FACTORY = "engine.plugins:get_registry"
#: Jobs allowed to wait for a worker before submits answer "queue full" (503).
DEFAULT_MAX_QUEUED = 16
#: The RQ queue web processes and ``puzzle worker`` share unless told otherwise.
DEFAULT_QUEUE = "puzzle"
#: Job ids of stored answers: ``stored-`` and the answer's permanent key (see :func:`answer_key`).
STORED_PREFIX = "stored-"
#: Hex digits of an answer key: 96 bits, so two questions never share one in practice.
ANSWER_KEY_DIGITS = 24
#: The longest legacy number (``stored-42``, given out by earlier versions): SQLite row ids are
#: signed 64-bit, so a longer run of digits is no row (and would overflow).
LEGACY_NUMBER_DIGITS = 18


def job_locale(locale: object) -> str:
    """The locale a job runs and its answer is stored in: one of :data:`engine.i18n.LOCALES`;
    anything else (missing, from a record of an earlier version, unknown) is English."""
    return locale if isinstance(locale, str) and locale in LOCALES else DEFAULT_LOCALE


def answer_key(puzzle: str, solver: str, instance: str, locale: str = DEFAULT_LOCALE) -> str:
    """The permanent key of the stored answer to (puzzle, solver, canonical instance text),
    written in ``locale`` (its notes, reasons and proofs are text for people).

    A hash of the question, never a counter: a store that starts empty again (a read-only data
    directory falling back to memory, Redis restarted without persistence, a deleted SQLite file)
    can never hand an old ``stored-...`` link to another question's answer. The same question
    gets the same key in every store and every process, so no coordination is needed.

    English keys are the ones earlier versions gave, ``sha256("answer-v1" NUL puzzle NUL solver
    NUL instance)``, so their links keep working. Any other locale hashes a text that starts with
    another tag (``"answer-v1-locale" NUL locale NUL ...``), so it can never equal an English key.
    """
    locale = job_locale(locale)
    if locale == DEFAULT_LOCALE:
        parts: tuple[str, ...] = ("answer-v1", puzzle, solver, instance)
    else:
        parts = ("answer-v1-locale", locale, puzzle, solver, instance)
    digest = hashlib.sha256("\0".join(parts).encode())
    return digest.hexdigest()[:ANSWER_KEY_DIGITS]


def stored_key_kind(key: str) -> str | None:
    """What the part of a ``stored-...`` id after the prefix is: ``"key"`` (an answer key),
    ``"legacy"`` (a number from an earlier version), or None (no stored answer has it)."""
    if not isinstance(key, str) or not key.isascii():
        return None
    if len(key) == ANSWER_KEY_DIGITS and all(c in "0123456789abcdef" for c in key):
        return "key"
    if key.isdigit() and len(key) <= LEGACY_NUMBER_DIGITS and not key.startswith("0"):
        return "legacy"
    return None


class QueueFull(PuzzleError):
    """Too many jobs are waiting; the caller should retry after ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int = 5):
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class JobsUnavailable(PuzzleError):
    """The job queue or answer store cannot be reached (Redis is down); try again later."""

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
    """One job to run: everything a worker needs, already validated and canonical.

    A solve job (``kind="solve"``) runs ``solver``; a task job (``kind="task"``) runs the
    puzzle's task named ``task`` and has no solver (``""``). ``locale`` is the reader's language
    (:mod:`engine.i18n`): the worker runs the whole job in it, so what the solver writes for
    people (reasons, proofs, progress) is in that language, and its answer is stored under it.
    """

    puzzle: str
    solver: str
    instance: str
    time_limit: float
    kind: str = SOLVE
    task: str = ""
    locale: str = DEFAULT_LOCALE

    @property
    def what(self) -> str:
        """What runs, in a word or two for messages: "the solver" or "the task"."""
        return "the task" if self.kind == TASK else "the solver"

    def to_json(self) -> dict:
        """The request as JSON: what travels down a worker's pipe, in RQ and in records."""
        return {"puzzle": self.puzzle, "solver": self.solver, "instance": self.instance,
                "time_limit": self.time_limit, "kind": self.kind, "task": self.task,
                "locale": self.locale}

    @classmethod
    def from_json(cls, data: dict) -> JobRequest:
        """The request :meth:`to_json` gave (a job record's ``solver``/``task`` may be null; a
        record written before jobs had a locale reads as English)."""
        task = data.get("task") or ""
        kind = data.get("kind") or (TASK if task else SOLVE)
        return cls(puzzle=data["puzzle"], solver=data.get("solver") or "", instance=data["instance"],
                   time_limit=float(data.get("time_limit") or 0.0), kind=kind, task=task,
                   locale=job_locale(data.get("locale")))


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
    #: ``SolveReport.to_json()`` once the solver answered (solved, unsolvable or gave up), or
    #: the task's report (``engine.tasks.run_task``) for a task job.
    result: dict | None = None
    #: Words for the user when there is no result (error, cancelled, killed).
    message: str | None = None
    from_store: bool = False
    #: The permanent id (``stored-<key>``) of the stored answer, once it is in the result store.
    stored_id: str | None = None
    queue_position: int | None = None
    cancel_requested_at: float | None = None  # monotonic
    #: The solver answered and the answer is being stored; the job turns final right after.
    ending: bool = False

    @property
    def done(self) -> bool:
        return self.status in FINAL_STATUSES

    def to_json(self) -> dict:
        # A final job's elapsed time is frozen: it never counts on after the job ended.
        elapsed = 0.0
        if self.started_at:
            end = self.finished_at if self.finished_at is not None else (
                self.started_at if self.done else time.time())
            elapsed = round(end - self.started_at, 3)
        return {
            "id": self.id,
            "kind": self.request.kind,
            "puzzle": self.request.puzzle,
            "solver": self.request.solver or None,
            "task": self.request.task or None,
            "instance": self.request.instance,
            "time_limit": self.request.time_limit,
            "locale": self.request.locale,
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
    """The job status for a solver's (or task's) answer: ``gave_up`` by cancellation is
    ``cancelled``."""
    status = report.get("status")
    if status == GAVE_UP and report.get("reason") == "cancelled":
        return CANCELLED
    return status if status in FINAL_STATUSES else ERROR


# -- the runner interface ----------------------------------------------------------------------


class JobRunner(ABC):
    """Runs solve jobs somewhere. The web app only ever uses these methods.

    ``on_finished`` (set by :class:`JobService`) must be called once with every job that ends
    with a solver's answer (``job.result`` set, before the job shows a final status), so the
    service can store it and name its ``stored_id``. ``on_final`` is called once with every job
    after it reached a final status, however it ended (to record it). Neither is called with a
    lock held that ``submit``/``get``/``cancel`` need. Implementations must be thread-safe: a
    WSGI server calls them from many threads.
    """

    on_finished: Callable[[Job], None] | None = None
    on_final: Callable[[Job], None] | None = None

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
        return None

    @abstractmethod
    def close(self) -> None:
        """Stop every worker; running jobs end as cancelled."""
