"""Log lines a flood repeats are written once a minute, with a count, not once per request.

waitress warns "Task queue depth is N" each time a request waits for a thread. Under a flood
that is hundreds of lines a second: the log grows without bound (one attack run wrote
10,000 lines in 30 s) and writing it takes the interpreter from the requests.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

#: Seconds between two lines of the same kind.
INTERVAL_SECONDS = 60.0


class OncePerInterval(logging.Filter):
    """Let one record per message template through every ``interval`` seconds; the next one
    that passes says how many were held back."""

    def __init__(self, interval: float = INTERVAL_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key, now = str(record.msg), self.clock()
        with self._lock:
            last = self._last.get(key)
            if last is not None and now - last < self.interval:
                self._held[key] = self._held.get(key, 0) + 1
                return False
            self._last[key] = now
            held = self._held.pop(key, 0)
        if held:
            record.msg = f"{record.msg} ({held} more like this in the last {self.interval:.0f} s)"
        return True


def quiet_waitress_queue() -> None:
    """Rate-limit waitress's queue-depth warnings (its ``waitress.queue`` logger)."""
    queue_log = logging.getLogger("waitress.queue")
    if not any(isinstance(f, OncePerInterval) for f in queue_log.filters):
        queue_log.addFilter(OncePerInterval())
