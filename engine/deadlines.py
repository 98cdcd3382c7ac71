"""When a supervisor kills a solve: the one rule the CLI, the local pool and RQ workers share.

A solve runs in a child process under a cooperative deadline (its time limit). The supervisor
kills the child only when it overran:

* while the solver searches: at ``started + time_limit + grace``;
* once :func:`engine.solving.run_solver` reports ``progress(phase="checking", moves=n)`` (the
  search returned an answer of ``n`` moves and the engine checks it): not before
  ``checking_started + grace + check_time_bound(n)``. Checking is not charged to the time limit,
  so an answer found just before the deadline is checked and kept, however long it is.

Times are whatever clock the caller uses (monotonic in one process, wall-clock across the RQ
worker and its work horse), as long as one rule sees one clock.
"""

from __future__ import annotations

from typing import Any, Mapping

from .solving import check_time_bound

#: Seconds a solver may run past its deadline (or a cancel) before it is killed.
DEFAULT_GRACE = 2.0


def kill_time(started: float, time_limit: float | None, grace: float,
              checking: tuple[float, int] | None = None) -> float | None:
    """The moment to kill a solve started at ``started`` (None: no time limit, never).

    ``checking`` is ``(checking_started, n_moves)`` once the solve said it checks an answer.
    The check never shortens the search's own allowance.
    """
    if time_limit is None:
        return None
    at = started + time_limit + grace
    if checking is not None:
        checking_started, n_moves = checking
        at = max(at, checking_started + grace + check_time_bound(n_moves))
    return at


def checking_moves(stats: Mapping[str, Any]) -> int | None:
    """The answer's move count if this progress report says the check began, else None."""
    if stats.get("phase") != "checking":
        return None
    try:
        return max(0, int(stats.get("moves") or 0))
    except (TypeError, ValueError):
        return 0


class KillClock:
    """:func:`kill_time` for one solve, fed with its progress reports as they come."""

    def __init__(self, started: float, time_limit: float | None, grace: float = DEFAULT_GRACE):
        self.started = started
        self.time_limit = time_limit
        self.grace = float(grace)
        self.checking: tuple[float, int] | None = None

    def observe(self, stats: Mapping[str, Any], now: float) -> None:
        """Take one progress report (the first "checking" report starts the check's bound)."""
        moves = checking_moves(stats)
        if moves is not None and self.checking is None:
            self.checking = (now, moves)

    @property
    def at(self) -> float | None:
        """When to kill, as known now (None: never)."""
        return kill_time(self.started, self.time_limit, self.grace, self.checking)

    def passed(self, now: float) -> bool:
        """Whether the solve overran and is to be killed now."""
        at = self.at
        return at is not None and now > at
