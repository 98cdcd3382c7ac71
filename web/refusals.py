"""A client that was just told to wait gets the same answer again without the app's work.

A client that has spent its share of the editor's CPU answers ``429`` with ``Retry-After``. A
well-behaved client waits; a flood does not, and answering each of its requests through Flask
(routing, request hooks, the error handler, JSON) takes the interpreter lock from every cheap
request of every other visitor, hundreds of times a second.

:class:`RefusalMemory` wraps the WSGI app. When the app marks a refusal with
:data:`MARK_HEADER`, it keeps that answer for the client and the endpoint for the rest of its
``Retry-After``, at most :data:`HOLD_SECONDS`. A request from the same client to the same
endpoint in that time gets the kept answer straight from the WSGI layer, with ``Retry-After``
counted down; after that the app answers (and words it) afresh.

Only refusals that any request of that client to that endpoint would get are marked: a spent
CPU budget. A client with too many editor requests in flight is not (one may end a moment
later), nor one past its share of the job queue (a solve already in the answer store is still
answered at once), nor a server busy for everyone.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable

from flask import Flask
from werkzeug.exceptions import HTTPException

#: The response header the app sets on a refusal for the client's own share (removed here).
MARK_HEADER = "X-Puzzle-Client-Refusal"
#: How long a refusal is kept at most; after it the app answers (and words it) again.
HOLD_SECONDS = 2.0
#: Kept refusals at most (clients are many in a flood from many addresses; each entry is small).
MAX_KEPT = 10_000


class RefusalMemory:
    """WSGI middleware: repeat a client's fresh ``429`` without calling the app (see module)."""

    def __init__(self, app: Flask, wsgi_app: Callable, *, hold_seconds: float = HOLD_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.hold_seconds = hold_seconds
        self.clock = clock
        self._lock = threading.Lock()
        # client -> {endpoint: (until, retry_at, status line, headers, body)}
        self._kept: dict[str, dict[str, tuple[float, float, str, list[tuple[str, str]], bytes]]] = {}

    # -- who and what ---------------------------------------------------------------------------

    def _client(self, environ: dict) -> str | None:
        from .clients import client_from_environ
        return client_from_environ(environ, self.app.config.get("CLIENT_HEADER"))

    def _endpoint(self, environ: dict) -> str | None:
        try:
            adapter = self.app.url_map.bind_to_environ(
                environ, server_name=self.app.config.get("SERVER_NAME"))
            endpoint, _ = adapter.match()
        except HTTPException:  # no such page, wrong method, a redirect: the app answers
            return None
        # The answer is in the request's language: a kept one is for the same language hints.
        query = environ.get("QUERY_STRING", "")
        lang = next((part for part in query.split("&") if part.startswith("lang=")), "")
        return f"{endpoint}|{lang}|{environ.get('HTTP_ACCEPT_LANGUAGE', '')}"

    # -- WSGI -----------------------------------------------------------------------------------

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        client = self._client(environ)
        if client is None:
            return self.wsgi_app(environ, start_response)
        kept = self._kept.get(client)  # a dict read: no lock needed for the common miss
        endpoint = self._endpoint(environ) if kept else None
        if kept and endpoint is not None:
            answer = self._still_kept(client, endpoint)
            if answer is not None:
                return self._repeat(answer, start_response)
        return self._call_app(environ, start_response, client, endpoint)

    def _still_kept(self, client: str, endpoint: str):
        now = self.clock()
        with self._lock:
            entries = self._kept.get(client)
            answer = entries.get(endpoint) if entries else None
            if answer is not None and answer[0] <= now:
                del entries[endpoint]  # type: ignore[union-attr]
                if not entries:
                    self._kept.pop(client, None)
                return None
            return answer

    def _repeat(self, answer, start_response: Callable) -> list[bytes]:
        _, retry_at, status, headers, body = answer
        wait = max(1, math.ceil(retry_at - self.clock()))
        start_response(status, [(name, str(wait) if name.lower() == "retry-after" else value)
                                for name, value in headers])
        return [body]

    def _call_app(self, environ: dict, start_response: Callable, client: str,
                  endpoint: str | None) -> Iterable[bytes]:
        seen: dict = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info=None):
            marked = any(name == MARK_HEADER for name, _ in headers)
            if marked:
                headers = [(name, value) for name, value in headers if name != MARK_HEADER]
                seen.update(status=status, headers=headers)
            return start_response(status, headers, exc_info) if exc_info else \
                start_response(status, headers)

        body = self.wsgi_app(environ, capture)
        if not seen:
            return body
        chunks = list(body)  # a refusal is a few hundred bytes of JSON
        if hasattr(body, "close"):
            body.close()
        self._keep(client, endpoint or self._endpoint(environ), seen["status"], seen["headers"],
                   b"".join(chunks))
        return chunks

    def _keep(self, client: str, endpoint: str | None, status: str,
              headers: list[tuple[str, str]], body: bytes) -> None:
        retry = next((value for name, value in headers if name.lower() == "retry-after"), "")
        if endpoint is None or not retry.isdigit():
            return
        now = self.clock()
        retry_at = now + int(retry)
        until = now + min(self.hold_seconds, int(retry))
        with self._lock:
            if len(self._kept) >= MAX_KEPT:
                self._forget_expired(now)
                if len(self._kept) >= MAX_KEPT:
                    return  # a flood of clients: answer them through the app, as before
            self._kept.setdefault(client, {})[endpoint] = (until, retry_at, status, headers, body)

    def _forget_expired(self, now: float) -> None:
        for client in list(self._kept):
            entries = {k: v for k, v in self._kept[client].items() if v[0] > now}
            if entries:
                self._kept[client] = entries
            else:
                del self._kept[client]

    def kept_clients(self) -> int:
        """How many clients have a kept refusal (for tests)."""
        with self._lock:
            return len(self._kept)


def install(app: Flask) -> RefusalMemory:
    """Wrap the app's WSGI callable in a :class:`RefusalMemory`."""
    memory = RefusalMemory(app, app.wsgi_app)
    app.wsgi_app = memory  # type: ignore[method-assign]
    app.extensions["puzzle_refusal_memory"] = memory
    return memory
