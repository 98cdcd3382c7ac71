"""Broken plugins in the browser: the gallery's notice and the plugins page at phone width.

Starts its own server with a deliberately broken plugin installed on a temporary path (a package
folder plus a dist-info holding its entry point), so the notice has something to show.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request

import pytest
from e2e_helpers import ROOT, _free_port


@pytest.fixture(scope="module")
def broken_server(tmp_path_factory):
    base = tmp_path_factory.mktemp("broken-plugin")
    pkg = base / "raw_wonky"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "hooks.py").write_text("import numpyy  # a typo: this plugin cannot import\n")
    info = base / "raw_wonky-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: raw-wonky\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[puzzle_engine]\nwonky = raw_wonky.hooks\n")
    data = base / "data"
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(base), "PUZZLE_ENGINE_PLUGINS": "lights_out,wonky",
           "PUZZLE_ENGINE_DATA": str(data), "PYTHONUNBUFFERED": "1"}
    log_path = base / "server.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "web.commands", "--port", str(port), "--workers", "1", "--no-prepare",
             "--data-dir", str(data)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/api/puzzles", timeout=2):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"the server did not start: {log_path.read_text()[-2000:]}") from None
            time.sleep(0.2)
    yield url, log_path
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()


def test_serve_logs_the_broken_plugin_at_start(broken_server):
    _, log_path = broken_server
    log = log_path.read_text()
    assert "warning: plugin wonky failed to load and is left out: failed to import: ModuleNotFoundError" in log


def test_gallery_notice_links_to_the_reason_which_fits_a_phone(page, broken_server):
    url, _ = broken_server
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(url + "/")
    notice = page.locator(".plugin-notice")
    assert notice.is_visible()
    assert "1 plugin failed to load" in notice.inner_text() and "wonky" in notice.inner_text()
    assert page.locator('.card-link[data-puzzle="lights_out"]').is_visible()  # the others still work
    notice.get_by_role("link").click()
    page.wait_for_url("**/-/plugins#failed")
    reason = page.locator("#failed .reason")
    assert "No module named 'numpyy'" in reason.inner_text()
    box = reason.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    # The table's own copy of the reason wraps inside the phone width too, no sideways scroll.
    status = page.locator("tr.failed td.plugin-status")
    status_box = status.bounding_box()
    assert status_box["x"] + status_box["width"] <= 375
    assert page.evaluate("(() => { const w = document.querySelector('.table-wrap');"
                         " return w.scrollWidth - w.clientWidth; })()") <= 0
