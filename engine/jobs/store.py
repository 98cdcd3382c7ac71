"""Answer stores: where finished answers (and job records) are kept between requests.

:class:`AnswerStore` is the interface the job service uses. :class:`ResultStore` keeps answers
in SQLite for the embedded mode, :class:`MemoryAnswerStore` in memory when no data directory is
writable; ``engine.jobs.redis_store`` keeps them in Redis for many machines. Answers are keyed
by puzzle, solver, *canonical* instance text and the locale the answer is written in (its
reasons and proofs are text for people: an English reader never gets a Chinese answer), and
each has a permanent key (``stored-<key>`` links name it): :func:`~engine.jobs.model.answer_key`,
a hash of that question, so a store that starts empty again can never give an old link to
another answer. English keys are the ones earlier versions gave. Answers stored by earlier
versions keep the number they were given (``stored-42``) in the stores that still hold them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from pathlib import Path

from ..i18n import DEFAULT_LOCALE
from .freshness import merged
from .model import STORED_STATUSES, JobRequest, answer_key, job_locale, stored_key_kind


def question_of(report: dict) -> tuple[str, str, str, str]:
    """(puzzle, solver, instance, locale) that a solver's report answers; a report without a
    locale (stored by an earlier version) is English."""
    return report["puzzle"], report["solver"], report["instance"], job_locale(report.get("locale"))


def request_of(report: dict) -> JobRequest:
    """The request a stored report answers (no time limit: it is not run again)."""
    puzzle, solver, instance, locale = question_of(report)
    return JobRequest(puzzle, solver, instance, 0.0, locale=locale)


class StoreBusy(Exception):
    """The store could not take a write right now (locked by another process, or down); the
    caller should keep the write and try again later."""


class AnswerStore(ABC):
    """Solved and unsolvable answers, keyed by (puzzle, solver, canonical instance text, locale).

    The locale of an answer is its report's ``"locale"`` (``"en"`` when it has none)."""

    #: Whether :meth:`record_job` keeps anything (a runner whose jobs outlive the web process,
    #: such as RQ, needs no records of its own).
    keeps_job_records = False

    @abstractmethod
    def get(self, puzzle: str, solver: str, instance: str,
            locale: str = DEFAULT_LOCALE) -> tuple[str, dict] | None:
        """(permanent key, report) for the answer stored in ``locale``, or None."""

    @abstractmethod
    def get_by_id(self, key: str) -> tuple[JobRequest, dict] | None:
        """(request, report) of the answer with this permanent key (the part of its
        ``stored-...`` id after the prefix), or None; any other text is None too. The request's
        locale is the one the answer is written in."""

    @abstractmethod
    def put(self, report: dict) -> str | None:
        """Store a solver's answer if it is a fact (solved/unsolvable) and return its permanent
        key, the same one every time the same question (in the same locale) is answered; None
        when not stored. The
        first answer stored is kept, unless it is not proved shortest and a later one found
        with other tables is better (:func:`engine.jobs.freshness.merged`). Raises
        :class:`StoreBusy` when the write cannot be done now."""

    @abstractmethod
    def count(self) -> int:
        """How many answers are stored."""

    def record_job(self, record: dict) -> None:
        """Keep a job's public record (``Job.to_json()`` without a stored answer's moves), so
        a job cut off by a restart can still be answered. Optional: the default keeps nothing.
        Raises :class:`StoreBusy` when the write cannot be done now."""
        return None

    def job_record(self, job_id: str) -> dict | None:
        """The last record kept for this job, or None."""
        return None

    def close(self) -> None:
        """Release connections."""
        return None


#: Job records older than this are dropped when a store opens.
JOB_RECORD_DAYS = 7
#: How long a write waits for another process's lock before giving up (and being retried later):
#: short, because a finishing job waits for it.
WRITE_WAIT_SECONDS = 0.25


class ResultStore(AnswerStore):
    """Solved and unsolvable answers in SQLite (WAL), keyed by (puzzle, solver, canonical
    instance, locale), in two tables:

    * ``results``, English answers: the table earlier versions wrote, unchanged (primary key
      puzzle, solver, instance). It keeps the rows they stored, their numbers (``stored-42``)
      and their keys, and a process of an earlier version that opens the same file still reads
      and writes the same English answers as this one.
    * ``answers``, the answers in every other locale, keyed by their permanent key alone
      (:func:`~engine.jobs.model.answer_key` hashes the locale in). A new table rather than a
      rebuilt ``results``: SQLite cannot change a primary key in place, and rebuilding the
      table under processes that have the file open (older ones with statements that name
      the old key) is the kind of race this store avoids. ``CREATE TABLE IF NOT EXISTS`` is
      safe for any number of processes opening the file at once.

    Reads and writes use separate connections: in WAL mode a reader is never blocked by a writer,
    so lookups stay fast even while another process holds a write lock, and a write waits at most
    :data:`WRITE_WAIT_SECONDS` before raising :class:`StoreBusy`.
    """

    keeps_job_records = True

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._read_lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._write = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._write.execute("PRAGMA journal_mode=WAL")
        self._write.execute(
            "CREATE TABLE IF NOT EXISTS results ("
            " puzzle TEXT NOT NULL, solver TEXT NOT NULL, instance TEXT NOT NULL,"
            " status TEXT NOT NULL, report TEXT NOT NULL, created REAL NOT NULL,"
            " PRIMARY KEY (puzzle, solver, instance))"
        )
        self._write.execute(
            "CREATE TABLE IF NOT EXISTS answers ("
            " key TEXT PRIMARY KEY, puzzle TEXT NOT NULL, solver TEXT NOT NULL,"
            " instance TEXT NOT NULL, locale TEXT NOT NULL, status TEXT NOT NULL,"
            " report TEXT NOT NULL, created REAL NOT NULL)"
        )
        self._write.execute(
            "CREATE TABLE IF NOT EXISTS jobs ("
            " id TEXT PRIMARY KEY, record TEXT NOT NULL, final INTEGER NOT NULL, updated REAL NOT NULL)")
        self._write.execute("DELETE FROM jobs WHERE updated < ?",
                            (time.time() - JOB_RECORD_DAYS * 86400,))
        self._write.execute(f"PRAGMA busy_timeout={int(WRITE_WAIT_SECONDS * 1000)}")
        self._add_keys()
        self._read = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)

    def _add_keys(self) -> None:
        """Give the results table its ``key`` column (a file from an earlier version has none).

        Rows stored before it keep their row number as their id (``stored-42``) and are found
        by number only; rows stored since are found by key only, so a recreated file (whose
        row numbers start again at 1) never answers an old number with another answer.
        """
        columns = {row[1] for row in self._write.execute("PRAGMA table_info(results)")}
        if "key" not in columns:
            try:
                self._write.execute("ALTER TABLE results ADD COLUMN key TEXT")
            except sqlite3.OperationalError as exc:  # another process added it just now
                if "duplicate column" not in str(exc):
                    raise
        self._write.execute("CREATE UNIQUE INDEX IF NOT EXISTS results_key ON results (key)")

    def get(self, puzzle: str, solver: str, instance: str,
            locale: str = DEFAULT_LOCALE) -> tuple[str, dict] | None:
        locale = job_locale(locale)
        if locale != DEFAULT_LOCALE:
            key = answer_key(puzzle, solver, instance, locale)
            with self._read_lock:
                row = self._read.execute("SELECT report FROM answers WHERE key=?", (key,)).fetchone()
            return (key, json.loads(row[0])) if row else None
        with self._read_lock:
            row = self._read.execute(
                "SELECT rowid, key, report FROM results WHERE puzzle=? AND solver=? AND instance=?",
                (puzzle, solver, instance)).fetchone()
        return (row[1] or str(row[0]), json.loads(row[2])) if row else None

    def get_by_id(self, key: str) -> tuple[JobRequest, dict] | None:
        kind = stored_key_kind(key)
        if kind is None:
            return None
        if kind == "key":
            # One query, one snapshot: an English key is in results, any other in answers.
            query = ("SELECT puzzle, solver, instance, ?, report FROM results WHERE key=?"
                     " UNION ALL SELECT puzzle, solver, instance, locale, report FROM answers WHERE key=?")
            args: tuple = (DEFAULT_LOCALE, key, key)
        else:
            query = ("SELECT puzzle, solver, instance, ?, report FROM results"
                     " WHERE rowid=? AND key IS NULL")
            args = (DEFAULT_LOCALE, int(key))
        with self._read_lock:
            row = self._read.execute(query, args).fetchone()
        if not row:
            return None
        return JobRequest(row[0], row[1], row[2], 0.0, locale=job_locale(row[3])), json.loads(row[4])

    def put(self, report: dict) -> str | None:
        if report.get("status") not in STORED_STATUSES:
            return None
        puzzle, solver, instance, locale = question_of(report)
        key = answer_key(puzzle, solver, instance, locale)
        # Links name the question, so a row is never replaced by another one: the same answer
        # stored twice (two identical jobs in flight) keeps the first row, an answer stored by
        # an earlier version keeps its number, and only a better answer to a provisional one
        # changes the report in place.
        with self._write_lock:
            try:
                if locale != DEFAULT_LOCALE:
                    inserted = self._write.execute(
                        "INSERT INTO answers (key, puzzle, solver, instance, locale, status, report,"
                        " created) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
                        (key, puzzle, solver, instance, locale, report["status"], json.dumps(report),
                         time.time())).rowcount
                    if not inserted:
                        self._improve("answers", "key=?", (key,), report)
                    return key
                question = (puzzle, solver, instance)
                inserted = self._write.execute(
                    "INSERT INTO results (puzzle, solver, instance, status, report, created, key)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (puzzle, solver, instance) DO NOTHING",
                    (*question, report["status"], json.dumps(report), time.time(), key)).rowcount
                if not inserted:
                    self._improve("results", "puzzle=? AND solver=? AND instance=?", question, report)
                row = self._write.execute(
                    "SELECT rowid, key FROM results WHERE puzzle=? AND solver=? AND instance=?",
                    question).fetchone()
            except sqlite3.OperationalError as exc:  # "database is locked" by another process
                raise StoreBusy(f"SQLite: {exc}") from None
        return (row[1] or str(row[0])) if row else None

    def _improve(self, table: str, where: str, args: tuple, report: dict) -> None:
        """Put the better answer in place of a provisional one (see :meth:`put`): a compare and
        set on the stored text, so a writer that raced this one is never overwritten blindly.
        ``table`` and ``where`` are this module's own constants, never caller's text."""
        old = self._write.execute(f"SELECT report FROM {table} WHERE {where}", args).fetchone()
        better = merged(json.loads(old[0]), report) if old else None
        if better is not None:
            self._write.execute(
                f"UPDATE {table} SET status=?, report=? WHERE {where} AND report=?",
                (better["status"], json.dumps(better), *args, old[0]))

    def record_job(self, record: dict) -> None:
        with self._write_lock:
            try:
                # A late "queued" record never overwrites a final one (writes may be retried).
                self._write.execute(
                    "INSERT INTO jobs (id, record, final, updated) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (id) DO UPDATE SET record=excluded.record, final=excluded.final,"
                    " updated=excluded.updated WHERE excluded.final >= jobs.final",
                    (record["id"], json.dumps(record), int(bool(record.get("done"))), time.time()))
            except sqlite3.OperationalError as exc:
                raise StoreBusy(f"SQLite: {exc}") from None

    def job_record(self, job_id: str) -> dict | None:
        with self._read_lock:
            row = self._read.execute("SELECT record FROM jobs WHERE id=?", (job_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def count(self) -> int:
        with self._read_lock:
            return self._read.execute(
                "SELECT (SELECT COUNT(*) FROM results) + (SELECT COUNT(*) FROM answers)").fetchone()[0]

    def close(self) -> None:
        with self._write_lock:
            self._write.close()
        with self._read_lock:
            self._read.close()


#: Most answers kept (a 32 x 32 sliding answer is ~1 MB of JSON, so this bounds memory too).
MEMORY_MAX_ANSWERS = 2_000
#: Most job records kept (oldest dropped first).
MEMORY_MAX_JOB_RECORDS = 10_000


class MemoryAnswerStore(AnswerStore):
    """Answers and job records in dictionaries, for a server without a writable data dir.

    They last until the server stops. The store's contract holds: an answer's permanent key
    never changes, the same answer stored twice keeps its first report, and since keys are
    hashes of the question (not numbers counted from 1), a link from before a restart either
    finds its own answer again or answers 404. Bounded: past :data:`MEMORY_MAX_ANSWERS`
    answers, new ones are not stored (the job that found one still returns it).
    """

    keeps_job_records = True

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answers: dict[str, tuple[JobRequest, dict]] = {}
        self._jobs: dict[str, dict] = {}

    def get(self, puzzle: str, solver: str, instance: str,
            locale: str = DEFAULT_LOCALE) -> tuple[str, dict] | None:
        key = answer_key(puzzle, solver, instance, locale)
        with self._lock:
            found = self._answers.get(key)
        return (key, found[1]) if found is not None else None

    def get_by_id(self, key: str) -> tuple[JobRequest, dict] | None:
        with self._lock:
            return self._answers.get(key) if isinstance(key, str) else None

    def put(self, report: dict) -> str | None:
        if report.get("status") not in STORED_STATUSES:
            return None
        key = answer_key(*question_of(report))
        with self._lock:
            if key in self._answers:
                better = merged(self._answers[key][1], report)
                if better is not None:
                    self._answers[key] = (self._answers[key][0], better)
                return key
            if len(self._answers) >= MEMORY_MAX_ANSWERS:
                return None
            self._answers[key] = (request_of(report), report)
            return key

    def count(self) -> int:
        with self._lock:
            return len(self._answers)

    def record_job(self, record: dict) -> None:
        with self._lock:
            old = self._jobs.pop(record["id"], None)
            if old is not None and old.get("done") and not record.get("done"):
                record = old  # a late "queued" record never overwrites a final one
            self._jobs[record["id"]] = record
            while len(self._jobs) > MEMORY_MAX_JOB_RECORDS:
                self._jobs.pop(next(iter(self._jobs)))

    def job_record(self, job_id: str) -> dict | None:
        with self._lock:
            return self._jobs.get(job_id)
