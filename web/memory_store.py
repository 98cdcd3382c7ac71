"""An answer store kept in memory: what ``puzzle serve`` uses when no data directory is writable.

Answers and job records last until the server stops. It keeps the store's contract (see
:class:`engine.jobs.store.AnswerStore`): an answer's permanent number never changes, and the same
answer stored twice keeps its first number. Bounded: past :data:`MAX_ANSWERS` answers, new ones
are not stored (they are still returned to the job that found them).
"""

from __future__ import annotations

import threading

from engine.jobs.model import STORED_STATUSES, JobRequest
from engine.jobs.store import AnswerStore

#: Most answers kept (a 32 x 32 sliding answer is ~1 MB of JSON, so this bounds memory too).
MAX_ANSWERS = 2_000
#: Most job records kept (oldest dropped first).
MAX_JOB_RECORDS = 10_000


class MemoryAnswerStore(AnswerStore):
    """Answers and job records in dictionaries, for a server without a writable data dir."""

    keeps_job_records = True

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._numbers: dict[tuple[str, str, str], int] = {}
        self._answers: dict[int, tuple[JobRequest, dict]] = {}
        self._jobs: dict[str, dict] = {}

    def get(self, puzzle: str, solver: str, instance: str) -> tuple[int, dict] | None:
        with self._lock:
            number = self._numbers.get((puzzle, solver, instance))
            return (number, self._answers[number][1]) if number is not None else None

    def get_by_id(self, number: int) -> tuple[JobRequest, dict] | None:
        with self._lock:
            return self._answers.get(number)

    def put(self, report: dict) -> int | None:
        if report.get("status") not in STORED_STATUSES:
            return None
        key = (report["puzzle"], report["solver"], report["instance"])
        with self._lock:
            if key in self._numbers:
                return self._numbers[key]
            if len(self._answers) >= MAX_ANSWERS:
                return None
            number = len(self._answers) + 1
            self._numbers[key] = number
            self._answers[number] = (JobRequest(*key, 0.0), report)
            return number

    def count(self) -> int:
        with self._lock:
            return len(self._answers)

    def record_job(self, record: dict) -> None:
        with self._lock:
            old = self._jobs.pop(record["id"], None)
            if old is not None and old.get("done") and not record.get("done"):
                record = old  # a late "queued" record never overwrites a final one
            self._jobs[record["id"]] = record
            while len(self._jobs) > MAX_JOB_RECORDS:
                self._jobs.pop(next(iter(self._jobs)))

    def job_record(self, job_id: str) -> dict | None:
        with self._lock:
            return self._jobs.get(job_id)
