"""Writes that may wait: a background thread retries store writes that could not be done at once.

A store can be busy (another process holds SQLite's write lock, Redis is restarting). The job
API must not wait for it, and an answer must not be dropped silently: :class:`LaterWrites`
keeps each failed write, retries it with growing pauses, logs one warning when the store turns
busy and one when it takes writes again (and each kept write at INFO), and on close logs
every write it could not do.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import Callable

from .store import StoreBusy

log = logging.getLogger("engine.jobs")

#: Pauses between retries grow from the first to the last, then stay there.
FIRST_PAUSE, LAST_PAUSE = 0.5, 30.0
#: Writes kept at most; past this the oldest is dropped (and logged): memory stays bounded.
MAX_KEPT = 10_000


class LaterWrites:
    """Run writes now if possible, else keep them and retry in a background thread.

    Writes may land in any order, so each must be safe to repeat and to reorder (the stores'
    writes are: an answer is never replaced, and a job record never goes back from final).
    """

    def __init__(self, name: str = "answer store"):
        self.name = name
        self._busy = False
        self._lock = threading.Lock()
        self._kept: deque[tuple[str, Callable[[], None]]] = deque()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    def pending(self) -> list[str]:
        """What is waiting to be written, in words."""
        with self._lock:
            return [what for what, _ in self._kept]

    def _kept_any(self) -> bool:
        with self._lock:
            return bool(self._kept)

    @property
    def busy(self) -> bool:
        """True from a failed write until the kept writes went through."""
        return self._busy

    def write(self, what: str, action: Callable[[], None], *, now: bool = True) -> bool:
        """Do ``action`` (a write that may raise StoreBusy); True if done now. ``what`` says in
        words what is written, for the log. With ``now=False``, or while the store is known to
        be busy, it is only kept (so nobody waits for a store that is known to be stuck)."""
        if now and not self._busy:
            try:
                action()
                return True
            except StoreBusy as exc:
                self._became_busy(exc)
        log.info("not written yet, kept for later: %s", what)
        self._keep(what, action)
        return False

    def _became_busy(self, exc: Exception) -> None:
        with self._lock:
            if self._busy:
                return
            self._busy = True
        # StoreBusy covers a held lock and a full disk alike; only the first is "busy".
        state = "cannot write: its disk is full" if "full" in str(exc).lower() else "is busy"
        log.warning("the %s %s (%s): writes are kept and retried", self.name, state, exc)

    def _keep(self, what: str, action: Callable[[], None]) -> None:
        with self._lock:
            if len(self._kept) >= MAX_KEPT:
                dropped, _ = self._kept.popleft()
                log.error("not written (too many writes waiting): %s", dropped)
            self._kept.append((what, action))
            if self._thread is None and not self._closed:
                self._thread = threading.Thread(target=self._retry, name="puzzle-store-retry",
                                                daemon=True)
                self._thread.start()
        self._wake.set()

    def _retry(self) -> None:
        pause = 0.0
        while True:
            self._wake.wait(pause)
            self._wake.clear()
            with self._lock:
                if not self._kept or self._closed:
                    self._thread = None
                    return
                what, action = self._kept[0]
            try:
                action()
            except StoreBusy as exc:
                self._became_busy(exc)
                pause = min(LAST_PAUSE, max(FIRST_PAUSE, pause * 2))
                continue
            except Exception:  # a write that can never succeed: say so, and go on
                log.exception("not written (failed): %s", what)
            with self._lock:
                if self._kept and self._kept[0][1] is action:
                    self._kept.popleft()
                caught_up = not self._kept and self._busy
                if caught_up:
                    self._busy = False
            if caught_up:
                log.warning("the %s takes writes again; every kept write is done", self.name)
            pause = 0.0

    def close(self, wait: float = 2.0) -> list[str]:
        """Try the kept writes once more (for up to ``wait`` seconds), then log and return what
        could not be written."""
        deadline = time.monotonic() + wait
        while self._kept_any() and time.monotonic() < deadline:
            self._wake.set()
            time.sleep(0.05)
        with self._lock:
            self._closed = True
            left = [what for what, _ in self._kept]
            self._kept.clear()
        self._wake.set()
        for what in left:
            log.error("not written (the server stopped first): %s", what)
        return left
