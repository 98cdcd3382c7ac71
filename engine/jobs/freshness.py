"""When a stored answer is still the best one: answers not proved shortest, and better tables.

A solved answer that is not proved shortest (``"optimal": false``) depends on the tables its
solver had: the 5x5 pattern databases, say, give the bounded solver shorter answers. Such an
answer is *provisional*. Its report carries the fingerprint of the tables that the worker had
when it solved (:data:`TABLES_FIELD`, :meth:`engine.TableCache.fingerprint`). Once the tables
have changed (a background or ``puzzle prepare`` build finished), a repeated request is solved
again instead of answered from the store (:class:`TablesNow`), and the store keeps the better of
the two answers (:func:`merged`) under the same permanent key. Unsolvable answers and answers
proved shortest are final: they are never solved again.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from ..tablecache import table_cache

#: The report field naming the tables an answer was found with.
TABLES_FIELD = "tables"
#: Seconds between two looks at this machine's table folder (a scan of the folder).
LOOK_EVERY = 5.0


def provisional(report: dict) -> bool:
    """Whether ``report`` is a solution not proved shortest (better tables may improve it)."""
    return report.get("status") == "solved" and not report.get("optimal")


def stamp(report: dict, fingerprint: str) -> dict:
    """``report`` with the tables it was found with, when that matters (provisional answers)."""
    return {**report, TABLES_FIELD: fingerprint} if provisional(report) else report


def merged(old: dict, new: dict) -> dict | None:
    """The report to store in place of ``old`` now that ``new`` answers the same question, or
    None to leave ``old`` as it is. A final ``old`` is kept. A provisional one found with other
    tables gives way to a ``new`` answer that is proved shortest or not longer; a longer ``new``
    only renews the stamp of ``old`` (so the question is not solved again for those tables)."""
    if not provisional(old) or new.get("status") != "solved":
        return None
    if new.get(TABLES_FIELD) == old.get(TABLES_FIELD) and not new.get("optimal"):
        return None
    if new.get("optimal") or _length(new) <= _length(old):
        return new
    return {**old, TABLES_FIELD: new.get(TABLES_FIELD, "")}


def _length(report: dict) -> int:
    length = report.get("length")
    return length if isinstance(length, int) else len(report.get("moves") or ())


class TablesNow:
    """The job service's idea of which tables the workers have now.

    Two sources, the one that changed last wins: this machine's folder (looked at no more than
    every :data:`LOOK_EVERY` seconds; the local workers share it) and the stamp of the last
    finished job (RQ workers on other machines have folders of their own). A stored provisional
    answer whose stamp differs is :meth:`stale`.
    """

    def __init__(self, look: Callable[[], str] | None = None, every: float | None = None) -> None:
        self._look = look or (lambda: table_cache().fingerprint())
        self._every = LOOK_EVERY if every is None else every
        self._lock = threading.Lock()
        self._local: tuple[str, float] | None = None   # (fingerprint, when it last changed)
        self._looked = -float("inf")
        self._reported: tuple[str, float] | None = None

    def current(self) -> str:
        """The fingerprint the workers most likely have now."""
        now = time.monotonic()
        with self._lock:
            due = now - self._looked >= self._every
            if due:
                self._looked = now
        if due:
            seen = self._look()
            with self._lock:
                if self._local is None or self._local[0] != seen:
                    self._local = (seen, now)
        with self._lock:
            picks = [s for s in (self._local, self._reported) if s is not None]
            return max(picks, key=lambda s: s[1])[0] if picks else ""

    def observe(self, report: dict) -> None:
        """Learn from a finished job's report which tables its worker had."""
        seen = report.get(TABLES_FIELD)
        if not isinstance(seen, str):
            return
        with self._lock:
            if self._reported is None or self._reported[0] != seen:
                self._reported = (seen, time.monotonic())

    def stale(self, report: dict) -> bool:
        """Whether a stored ``report`` should be solved again: provisional, and found with
        other tables than the workers have now. An answer stored without the stamp (by a
        version before it, or put there by hand) is kept: which tables found it is unknown."""
        return (provisional(report) and TABLES_FIELD in report
                and report[TABLES_FIELD] != self.current())
