"""Helpers shared by the browser tests (fixtures live in conftest.py)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def api(server: str, path: str, body: dict | None = None) -> dict:
    """Call the real server's JSON API (POST when ``body`` is given) and return the answer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(server + path, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def serving(data_dir: Path, *args: str, workers: int = 2, **env: str):
    """A real `puzzle serve` (waitress + worker processes) with ``data_dir``, on a free port,
    ``args`` added to its command line and ``env`` to its environment: its base URL. It waits
    up to two minutes for the server to answer (a busy machine starts it slowly)."""
    port = _free_port()
    env = {**os.environ, "PUZZLE_ENGINE_DATA": str(data_dir), "PYTHONUNBUFFERED": "1", **env}
    log = open(data_dir / "server.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "web.commands", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(data_dir), "--workers", str(workers), *args,
         # Not the big builds (minutes, up to 2.4 GB) during the browser tests: the background
         # preparer has its own tests with a small stand-in (tests/test_background_prepare.py).
         "--no-background-prepare"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(base + "/api/puzzles", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"the server did not start; see {data_dir / 'server.log'}")
        time.sleep(0.2)
    try:
        yield base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
