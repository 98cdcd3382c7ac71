"""Who a request comes from, for each client's fair share of the job queue.

The client is the connection's remote address, or, when ``CLIENT_HEADER`` is configured (a
reverse proxy in front sets it on every request), that header: for a list such as
``X-Forwarded-For: a, b, c`` the last entry, the one the trusted proxy itself appended (the
entries before it are whatever the client chose to send).
"""

from __future__ import annotations

from flask import current_app, request

#: Longest client name kept (a header is the client's own text up to the proxy's entry).
MAX_CLIENT_CHARS = 200


def client_of() -> str | None:
    """The current request's client: the configured header's last entry, else the remote
    address (None when neither is known, as in some test set-ups: no share is applied)."""
    header = current_app.config.get("CLIENT_HEADER")
    if header:
        value = request.headers.get(header, "")
        last = value.rsplit(",", 1)[-1].strip()
        if last:
            return last[:MAX_CLIENT_CHARS]
    return request.remote_addr or None
