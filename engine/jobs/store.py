"""The embedded result store: solved and unsolvable answers in SQLite."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path

from .model import STORED_STATUSES, JobRequest

class ResultStore:
    """Solved and unsolvable answers in SQLite, keyed by (puzzle, solver, canonical instance)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS results ("
            " puzzle TEXT NOT NULL, solver TEXT NOT NULL, instance TEXT NOT NULL,"
            " status TEXT NOT NULL, report TEXT NOT NULL, created REAL NOT NULL,"
            " PRIMARY KEY (puzzle, solver, instance))"
        )

    def get(self, puzzle: str, solver: str, instance: str) -> tuple[int, dict] | None:
        """(row id, report) for the stored answer, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT rowid, report FROM results WHERE puzzle=? AND solver=? AND instance=?",
                (puzzle, solver, instance)).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def get_by_id(self, row_id: int) -> tuple[JobRequest, dict] | None:
        with self._lock:
            row = self._db.execute("SELECT puzzle, solver, instance, report FROM results WHERE rowid=?",
                                   (row_id,)).fetchone()
        if not row:
            return None
        return JobRequest(row[0], row[1], row[2], 0.0), json.loads(row[3])

    def put(self, report: dict) -> int | None:
        """Store a solver's answer if it is a fact about the instance (solved/unsolvable);
        its row id, or None when it is not stored."""
        if report.get("status") not in STORED_STATUSES:
            return None
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR REPLACE INTO results (puzzle, solver, instance, status, report, created)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (report["puzzle"], report["solver"], report["instance"], report["status"],
                 json.dumps(report), time.time()))
            return cursor.lastrowid

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
