"""Who a request comes from, and each client's fair share of the server.

* :func:`client_of`: the connection's remote address, or, when ``CLIENT_HEADER`` is configured
  (a reverse proxy in front sets it on every request), that header: for a list such as
  ``X-Forwarded-For: a, b, c`` the last entry, the one the trusted proxy itself appended (the
  entries before it are whatever the client chose to send). The job service uses it for each
  client's share of the job queue (``JOBS_PER_CLIENT``).
* :class:`HeavyGate`: the editor's requests (validate, edit, random, replay, describe, tasks)
  cost milliseconds of CPU each, under the one interpreter lock; a flood of them once took every
  request thread, and ``/api/puzzles`` went from a p50 of 2.6 ms to 108 ms. At most
  ``HEAVY_REQUESTS`` of them are served at once (default: half the server's threads), at most
  ``HEAVY_PER_CLIENT`` for one client; past that a request answers ``429`` with
  ``Retry-After: 1`` at once, without waiting (a waiting request would hold a thread too), so
  cheap requests always find a free thread and a free interpreter most of the time.
"""

from __future__ import annotations

import threading
from collections import Counter

from flask import Flask, current_app, g, request
from flask_babel import gettext, ngettext

#: Longest client name kept (a header is the client's own text up to the proxy's entry).
MAX_CLIENT_CHARS = 200
#: The WSGI server's request threads when the configuration does not say (``puzzle serve``'s).
DEFAULT_THREADS = 8
#: Heavy requests one client may have in flight (the editor sends its edits one at a time; a
#: validate while typing and a describe may overlap).
DEFAULT_HEAVY_PER_CLIENT = 3
#: The endpoints that compute an editor state (with its verdict) or a replay from user input.
#: Not the SVG renders: pages load several at once as images, and they are cacheable.
HEAVY_ENDPOINTS = frozenset({
    "api.validate", "api.edit", "api.random_instance", "api.replay_moves", "api.describe_moves",
    "api.describe_job_moves", "api.list_tasks",
})


def client_of() -> str | None:
    """The current request's client: the configured header's last entry, else the remote
    address (None when neither is known, as in some test set-ups: no share is applied)."""
    return client_from_environ(request.environ, current_app.config.get("CLIENT_HEADER"))


def client_from_environ(environ: dict, header: str | None) -> str | None:
    """:func:`client_of` for a WSGI environ (``header``: the configured ``CLIENT_HEADER``)."""
    if header:
        value = environ.get("HTTP_" + header.upper().replace("-", "_"), "")
        last = value.rsplit(",", 1)[-1].strip()
        if last:
            return last[:MAX_CLIENT_CHARS]
    return environ.get("REMOTE_ADDR") or None


class Busy(Exception):
    """Too many heavy requests in flight (for everyone, or for this client): a 429.

    ``lasting``: any request of this client to this endpoint would be refused the same way until
    ``retry_after`` (its CPU budget is spent), so :mod:`web.refusals` may repeat the answer
    without the app. Not so for requests in flight: one may end a moment later."""

    def __init__(self, message: str, retry_after: int = 1, lasting: bool = False):
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after
        self.lasting = lasting


class HeavyGate:
    """Counts heavy requests in flight, in total and per client (thread-safe)."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total = max(1, int(total))
        self.per_client = max(1, int(per_client))
        self._lock = threading.Lock()
        self._in_flight = 0
        self._by_client: Counter[str] = Counter()

    def enter(self, client: str | None) -> None:
        """Take a place, or raise :class:`Busy` at once."""
        key = client or ""
        with self._lock:
            if self._by_client[key] >= self.per_client:
                raise Busy(ngettext("you already have %(num)s editor request in progress; send the next one "
                                    "when it is answered",
                                    "you already have %(num)s editor requests in progress; send the next one "
                                    "when one is answered", self.per_client))
            if self._in_flight >= self.total:
                raise Busy(gettext("the server is busy with other editor requests; try again in a second"))
            self._in_flight += 1
            self._by_client[key] += 1

    def leave(self, client: str | None) -> None:
        key = client or ""
        with self._lock:
            self._in_flight -= 1
            self._by_client[key] -= 1
            if self._by_client[key] <= 0:
                del self._by_client[key]


def install(app: Flask) -> None:
    """Put the heavy-request gate in front of the app's heavy endpoints."""
    threads = int(app.config.get("THREADS") or DEFAULT_THREADS)
    total = app.config.get("HEAVY_REQUESTS") or max(1, threads // 2)
    gate = HeavyGate(total, app.config.get("HEAVY_PER_CLIENT") or DEFAULT_HEAVY_PER_CLIENT)
    app.extensions["puzzle_heavy_gate"] = gate

    @app.before_request
    def _enter_heavy() -> None:
        if request.endpoint in HEAVY_ENDPOINTS:
            client = client_of()
            gate.enter(client)  # Busy: a 429 (web.errors)
            g.heavy_client = (client,)

    @app.teardown_request
    def _leave_heavy(exc: BaseException | None) -> None:
        held = g.pop("heavy_client", None)
        if held is not None:
            gate.leave(held[0])
