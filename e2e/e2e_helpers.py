"""Helpers shared by the browser tests (fixtures live in conftest.py)."""

from __future__ import annotations

import json
import urllib.request


def api(server: str, path: str, body: dict | None = None) -> dict:
    """Call the real server's JSON API (POST when ``body`` is given) and return the answer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server + path, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)
