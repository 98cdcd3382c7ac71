"""The browser journey (solve, then play the solution back) against a server in Redis mode:
`puzzle serve --redis` with a separate `puzzle worker`, both on a redis-server this test starts.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from redis_helpers import RedisServer, free_port, start_worker, stop  # noqa: E402
from sliding_reference import bfs_distances  # noqa: E402

pytestmark = pytest.mark.skipif(not os.path.exists("/usr/bin/redis-server"),
                                reason="needs Debian's redis-server (scripts/setup.sh installs it)")

#: An 8-puzzle a few moves from solved.
INSTANCE = "4 1 3/7 2 6/0 5 8"


@pytest.fixture(scope="module")
def redis_site(tmp_path_factory):
    """(base URL, Redis URL) of `puzzle serve --redis` with one `puzzle worker`."""
    data = tmp_path_factory.mktemp("redis-site")
    redis = RedisServer(data)
    redis.start()
    worker = start_worker(redis.url, "puzzle", factory="engine.plugins:get_registry", prepare=True)
    port = free_port()
    log = open(data / "server.log", "w")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("PUZZLE_ENGINE_REDIS", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "web.commands", "--host", "127.0.0.1", "--port", str(port),
         "--redis", redis.url, "--no-prepare"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/api/puzzles", timeout=2).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start; see {data / 'server.log'}") from None
                time.sleep(0.2)
        yield base, redis.url
    finally:
        server.terminate()
        server.wait(10)
        stop(worker)
        redis.stop()
        log.close()


def test_solve_and_play_back_with_jobs_on_redis(page, redis_site):
    import redis

    base, redis_url = redis_site
    page.goto(f"{base}/sliding?instance={urllib.parse.quote(INSTANCE, safe='')}")
    page.wait_for_load_state("load")
    expect(page.locator("#instance-text")).to_have_value(INSTANCE)
    page.get_by_label("Solver").select_option("optimal")
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.locator("#solve-status")).to_contain_text("Solved", timeout=60_000)
    slider = page.get_by_role("slider", name="Step")
    tiles = tuple(int(t) for t in INSTANCE.replace("/", " ").split())
    optimum = bfs_distances(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))[tiles]  # breadth-first, from the rules
    assert int(slider.get_attribute("max")) == optimum
    # The answer went through the worker into the Redis answer store.
    stored = redis.Redis.from_url(redis_url)
    assert int(stored.get("puzzle:answers:count") or 0) >= 1
    assert any(stored.scan_iter("puzzle:answers:a:*"))

    page.get_by_label("Speed").select_option("80")
    page.get_by_role("button", name="Play").click()
    expect(slider).to_have_value(str(optimum), timeout=30_000)
    board = page.locator("#playback-board")
    expect(board).to_have_attribute("data-solved", "true")
    page.get_by_role("heading", level=1).click()
    page.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-step", str(optimum - 1))
    expect(board).to_have_attribute("data-solved", "false")
