"""The solve context: deadline, cancellation and progress for one solve.

Solvers are cooperative: a search loop calls :meth:`SolveContext.should_stop` every few thousand
nodes and returns :class:`~engine.outcomes.GaveUp` when it is true, and calls
:meth:`SolveContext.progress` as often as it likes (calls are throttled here, so that is cheap).
The web app's runner also kills a worker that overruns its deadline, so a solver that forgets to
check cannot hog the server, but it then loses its stats.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Mapping, Protocol

from .outcomes import GaveUp


class CancelFlag(Protocol):
    def is_set(self) -> bool: ...


ProgressCallback = Callable[[Mapping[str, Any]], None]


class SolveContext:
    """Deadline, cancellation and progress reporting for one solve.

    ``deadline`` is a :func:`time.monotonic` value or None (no limit); ``cancel`` is anything with
    ``is_set()`` (a ``threading.Event`` or ``multiprocessing.Event``); ``on_progress`` receives a
    mapping of stats, at most once per ``progress_interval`` seconds (the final call of a solve may
    be forced with ``force=True``).
    """

    def __init__(
        self,
        deadline: float | None = None,
        cancel: CancelFlag | None = None,
        on_progress: ProgressCallback | None = None,
        progress_interval: float = 0.25,
    ):
        self.deadline = deadline
        self.cancel = cancel
        self.on_progress = on_progress
        self.progress_interval = progress_interval
        self.started = time.monotonic()
        self._last_report = 0.0

    @classmethod
    def with_timeout(cls, seconds: float | None, **kwargs: Any) -> "SolveContext":
        """A context whose deadline is ``seconds`` from now (None: no deadline)."""
        deadline = None if seconds is None else time.monotonic() + float(seconds)
        return cls(deadline=deadline, **kwargs)

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def remaining(self) -> float | None:
        """Seconds left before the deadline (never negative), or None without a deadline."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def stop_reason(self) -> str | None:
        """``"cancelled"``, ``"deadline"`` or None while the solve may go on."""
        if self.cancel is not None and self.cancel.is_set():
            return "cancelled"
        if self.deadline is not None and time.monotonic() >= self.deadline:
            return "deadline"
        return None

    def should_stop(self) -> bool:
        """True once the solve is cancelled or past its deadline."""
        return self.stop_reason() is not None

    def progress(self, force: bool = False, **stats: Any) -> None:
        """Report progress (e.g. ``nodes=..., bound=...``); throttled unless ``force``."""
        if self.on_progress is None:
            return
        now = time.monotonic()
        if not force and now - self._last_report < self.progress_interval:
            return
        self._last_report = now
        self.on_progress({"elapsed": round(now - self.started, 3), **stats})

    def gave_up(self, **stats: Any) -> GaveUp:
        """The outcome to return when :meth:`should_stop` said stop."""
        return GaveUp(reason=self.stop_reason() or "deadline", stats=stats)
