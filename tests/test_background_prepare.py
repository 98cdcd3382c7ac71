"""Background preparation (engine/background.py, web/preparing.py): a running server builds its
solvers' big tables in a process of its own, says how far in words, and its answers get better
without a restart. The toy solver of tests/prepare_toy.py stands in for the real 2.4 GB builds:
it answers two wasted moves until its table exists, and the shortest answer after."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from job_polling import wait_done
from prepare_toy import PREPARE_FACTORY, STEPS, TABLE_NAME, prepare_registry

from engine.background import BackgroundPreparer, TableStatus, percent_of
from web import create_app, preparing

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(folder))
    monkeypatch.setattr("engine.jobs.freshness.LOOK_EVERY", 0.0)  # see a new table at once
    return folder


def make_app(tmp_path, background: bool):
    return create_app({"REGISTRY": prepare_registry(), "REGISTRY_FACTORY": PREPARE_FACTORY,
                       "DATA_DIR": str(tmp_path / "data"), "JOB_WORKERS": 1,
                       "PREPARE_IN_BACKGROUND": background})


def solve(client, instance="0110") -> dict:
    job = client.post("/api/pairs/jobs", json={"instance": instance, "solver": "tabled"}).get_json()
    return wait_done(client, job)


def wait_preparing(client, until: str, timeout: float = 60.0) -> list[dict]:
    """Every status /-/preparing gave until its state is ``until``."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        status = client.get("/-/preparing").get_json()
        seen.append(status)
        if status["state"] == until:
            return seen
        assert time.monotonic() < deadline, f"still {status} after {timeout} s"
        time.sleep(0.05)


def test_background_preparation_switches_the_answers_without_a_restart(tmp_path, cache):
    app = make_app(tmp_path, background=True)
    try:
        client = app.test_client()
        first = solve(client)
        # "0110": one move (flip bits 1 and 2) solves it; without its table the toy wastes two.
        assert first["status"] == "solved" and first["result"]["length"] == 3
        assert first["result"]["optimal"] is False
        again = solve(client)
        assert again["from_store"] and again["result"]["moves"] == first["result"]["moves"]

        assert preparing.start(app)
        seen = wait_preparing(client, "finished")
        lines = [t["text"] for status in seen for t in status["tables"]]
        assert any(line.startswith("Faster tables for the pairs rows: building") for line in lines)
        assert any("%" in line for line in lines)  # progress in percent while it builds
        assert seen[-1]["tables"][-1]["text"] == "Faster tables for the pairs rows: ready"
        assert (cache / TABLE_NAME).exists()

        better = solve(client)  # the same server, the same workers: no restart
        assert not better["from_store"]
        assert better["result"]["length"] == 1 and better["result"]["optimal"] is True
        assert better["result"]["moves"] == ["1"]
        assert better["stored_id"] == first["stored_id"]  # the link names the better answer now
        stored = client.get(f"/api/jobs/{first['stored_id']}").get_json()
        assert stored["result"]["length"] == 1
        assert solve(client)["from_store"]  # proved shortest: final, never solved again

        page = client.get("/").get_data(as_text=True)
        assert "Faster tables for the pairs rows: ready" in page
        assert "Faster tables for the pairs rows: ready" in client.get("/pairs").get_data(as_text=True)
    finally:
        preparing.stop(app)
        app.extensions["puzzle_jobs"].close()


def test_no_background_preparation_builds_nothing(tmp_path, cache):
    app = make_app(tmp_path, background=False)
    try:
        client = app.test_client()
        assert preparing.start(app) is False
        assert client.get("/-/preparing").get_json() == {"state": "off", "note": None, "tables": []}
        assert 'id="preparing"' not in client.get("/").get_data(as_text=True)
        answer = solve(client)
        assert answer["result"]["length"] == 3 and answer["result"]["optimal"] is False
        assert not (cache / TABLE_NAME).exists()
    finally:
        app.extensions["puzzle_jobs"].close()


def test_a_build_left_out_for_memory_says_why(cache, monkeypatch):
    monkeypatch.setenv("PREPARE_TOY_SHORT", "1")  # inherited by the preparing process
    preparer = BackgroundPreparer(PREPARE_FACTORY)
    preparer.start()
    try:
        assert preparer.wait(60)
        [status] = preparer.to_json()["tables"]
        assert status["state"] == "skipped"
        assert status["text"] == ("Faster tables for the pairs rows: skipped: not enough memory "
                                  "(needs 2.4 GB, 1.1 GB free)")
        assert preparer.state == "finished" and not (cache / TABLE_NAME).exists()
    finally:
        preparer.close()


def test_closing_stops_a_build_and_leaves_no_file(cache, monkeypatch):
    monkeypatch.setenv("PREPARE_TOY_STEP_SECONDS", "5")
    preparer = BackgroundPreparer(PREPARE_FACTORY)
    preparer.start()
    deadline = time.monotonic() + 60
    while not any(s.state == "building" and s.built for s in preparer.statuses()):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    started = time.monotonic()
    preparer.close()
    assert time.monotonic() - started < 10
    assert preparer.state == "stopped"
    assert [s.state for s in preparer.statuses()] == ["stopped"]
    assert not cache.exists() or list(cache.iterdir()) == []


def test_the_status_in_words():
    status = TableStatus("sliding", "bounded", "the 24-puzzle", "building", 43.7, built=True)
    assert status.words() == "Faster tables for the 24-puzzle: building, 43%"
    assert TableStatus("sliding", "bounded", "the 24-puzzle", "ready").words() == \
        "Faster tables for the 24-puzzle: ready"
    assert not TableStatus("tangram", "x", "Tangram", "ready").worth_saying  # nothing was built
    assert percent_of({"done": 1, "total": 4}) == 25.0
    assert percent_of({"percent": 150}) == 100.0
    assert percent_of({"done": 1}) is None and percent_of({"done": True, "total": 2}) is None


def test_puzzle_serve_with_no_prepare_builds_nothing(tmp_path):
    """The real command: with --no-prepare the first page is served and the cache stays empty."""
    port = _free_port()
    cache = tmp_path / "cache"
    env = {**os.environ, "PUZZLE_ENGINE_CACHE": str(cache), "PUZZLE_ENGINE_PLUGINS": "sliding"}
    process = subprocess.Popen(
        [sys.executable, "-m", "web.commands", "--port", str(port), "--workers", "1",
         "--data-dir", str(tmp_path / "data"), "--no-prepare"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        page = _get_when_up(base + "/", process)
        assert "Puzzles" in page and 'id="preparing"' not in page
        assert '"state": "off"' in _get_when_up(base + "/-/preparing", process).replace('":"', '": "')
        time.sleep(1.0)
        assert not cache.exists() or [p.name for p in cache.iterdir()] == []
    finally:
        process.terminate()
        out = process.communicate(timeout=20)[0].decode()
    assert "in the background" not in out


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get_when_up(url: str, process, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode()
        except OSError:
            assert process.poll() is None, "the server stopped"
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.2)


def test_the_status_counts_finished_builds():
    preparer = BackgroundPreparer(PREPARE_FACTORY)
    preparer._apply(("plan", [("pairs", "Pairs", "tabled")]))
    preparer._apply(("progress", "pairs", "tabled", {"tables": "the pairs rows", "done": 1, "total": STEPS}))
    assert preparer.builds_done() == 0
    assert preparer.to_json()["tables"][0]["text"] == "Faster tables for the pairs rows: building, 20%"
    preparer._apply(("done", "pairs", "tabled", True, None))
    assert preparer.builds_done() == 1
