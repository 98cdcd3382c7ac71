"""`puzzle serve` listens before it builds: the quick tables are the background preparer's first
pass, and a table is built once across processes (engine.TableCache.building).

The real server (serve_app in a process of its own) runs over the toy of tests/gate_toy.py,
whose table cannot finish until the test creates a gate file: the gallery must be served while
that build is held, a solve needing the table must wait for that build rather than make its own,
and a solve after it must use the table. Nothing here is timed: the waits are for events.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from gate_toy import GATE_FACTORY, TABLE_NAME, log_lines

from engine import TableCache

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _request(url: str, body: dict | None = None) -> tuple[int, str]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as response:
        return response.status, response.read().decode()


def _until(what, check, process, timeout: float = 120.0):
    """Poll ``check()`` until it gives something true; fail if the server stops or it never does."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = check()
        except OSError:
            found = None
        if found:
            return found
        assert process.poll() is None, "the server stopped"
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


def _job(base: str, instance: str, solver: str, process) -> dict:
    status, text = _request(f"{base}/api/pairs/jobs",
                            {"instance": instance, "solver": solver, "time_limit": 60})
    job = json.loads(text)

    def done():
        found = json.loads(_request(f"{base}/api/jobs/{job['id']}")[1])
        return found if found["done"] else None
    return _until(f"job {job['id']} done", done, process)


def test_the_gallery_is_served_while_a_quick_table_is_still_building(tmp_path):
    cache, gate, log = tmp_path / "cache", tmp_path / "gate", tmp_path / "log"
    port = _free_port()
    env = {**os.environ, "PUZZLE_ENGINE_CACHE": str(cache), "GATE_TOY_GATE": str(gate),
           "GATE_TOY_LOG": str(log),
           "PYTHONPATH": os.pathsep.join([str(TESTS), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    code = ("from web.commands import serve_app\n"
            f"serve_app(port={port}, workers=1, data_dir={str(tmp_path / 'data')!r}, "
            f"registry_factory={GATE_FACTORY!r}, editor_process=False)\n")
    process = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        # The background preparer holds the table's lock and waits at the gate ...
        _until("the build waits at the gate", lambda: "build waits at the gate" in log_lines(log),
               process)
        # ... and the server answers meanwhile: the gallery, and a solve needing no table.
        status, page = _until("the gallery", lambda: _request(base + "/"), process)
        assert status == 200 and "Pairs" in page
        assert not (cache / TABLE_NAME).exists()
        plain = _job(base, "0110", "plain", process)
        assert plain["status"] == "solved" and plain["result"]["moves"] == ["1"]
        assert not (cache / TABLE_NAME).exists()  # still held at the gate

        # A solve that needs the table waits for that build (it does not start its own).
        waiting: dict = {}
        thread = threading.Thread(target=lambda: waiting.update(_job(base, "1100", "gated", process)))
        thread.start()
        _until("the solve waits for the lock", lambda: "solve waits for the lock" in log_lines(log),
               process)
        gate.touch()
        thread.join(120)
        assert waiting["status"] == "solved" and waiting["result"]["optimal"] is True
        assert waiting["result"]["moves"] == ["0"]

        # A solve after the build uses the table, and nobody built it a second time.
        after = _job(base, "0011", "gated", process)
        assert after["status"] == "solved" and after["result"]["moves"] == ["2"]
        assert (cache / TABLE_NAME).read_bytes() == b"table"
        assert log_lines(log).count("built") == 1
        assert log_lines(log).count("build waits at the gate") == 1
    finally:
        process.terminate()
        out = process.communicate(timeout=30)[0].decode()
    assert "Serving the puzzle engine" in out


def test_a_build_lock_makes_the_second_builder_wait_and_stops_on_request(tmp_path):
    """The lock itself: held by one process, another waits (saying so once) and can give up."""
    cache = TableCache(tmp_path)
    path = tmp_path / "some-table.bin"
    script = ("import sys, time\nfrom pathlib import Path\nfrom engine import TableCache\n"
              "cache = TableCache(Path(sys.argv[1]))\n"
              "with cache.building(Path(sys.argv[2])) as held:\n"
              "    print('held' if held else 'not held', flush=True)\n"
              "    sys.stdin.readline()\n")
    holder = subprocess.Popen([sys.executable, "-c", script, str(tmp_path), str(path)], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        waits, stop = [], threading.Event()
        result: list = []

        def second():
            with cache.building(path, stop.is_set, lambda: waits.append(1), poll=0.01) as held:
                result.append(held)

        thread = threading.Thread(target=second)
        thread.start()
        deadline = time.monotonic() + 30
        while not waits:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        stop.set()  # given up while the other process still builds
        thread.join(30)
        assert result == [False] and waits == [1]
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(30)
        # The holder is gone: the lock is free again, at once.
        with cache.building(path, lambda: True) as held:
            assert held is True
            assert (tmp_path / ".some-table.bin.lock").exists()
    finally:
        holder.kill()
        holder.wait()
    assert list(tmp_path.iterdir()) == []  # the holder removes its lock file when done


def test_builders_queued_on_one_lock_never_hold_it_together(tmp_path):
    """Each holder removes the lock file when done, so a waiter may get the lock of a removed
    file: it must notice and lock the file now under that name. Many threads, one table: at
    most one inside at any moment."""
    cache = TableCache(tmp_path)
    path = tmp_path / "contended.bin"
    inside, most, entered = [0], [0], [0]
    guard = threading.Lock()

    def builder():
        for _ in range(20):
            with cache.building(path, poll=0.001) as held:
                assert held
                with guard:
                    inside[0] += 1
                    entered[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0.001)
                with guard:
                    inside[0] -= 1

    threads = [threading.Thread(target=builder) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert entered[0] == 120 and most[0] == 1
    assert list(tmp_path.iterdir()) == []
