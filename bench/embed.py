"""Embed figures (in-process, Flask's test client; no network):

* embed page weight: gzip bytes of the HTML without the board SVG, plus its scripts and style
  (target <= 15 KB),
* embed page time to first byte, p50 (the whole answer in-process),
* render.png at 600 px: p50 cold (PNG cache cleared; the SVG step cache warm) (target <= 40 ms)
  and whether a second request is a cache hit,
* animation.gif time for the 31-move English peg solitaire solution.

Run: .venv/bin/python -P bench/embed.py
"""

from __future__ import annotations

import gzip
import re
import statistics
import time
from urllib.parse import quote

from engine.plugins import get_registry
from web import create_app


def ms(times):
    return f"{statistics.median(times) * 1000:.1f} ms"


def main() -> None:
    registry = get_registry()
    app = create_app({"REGISTRY": registry, "TESTING": True})
    client = app.test_client()
    text = "1 2 3/4 5 6/0 7 8"
    source = f"instance={quote(text, safe='')}&moves=7,8"
    html = client.get(f"/embed/sliding?{source}").get_data(as_text=True)
    lean = re.sub(r'<div id="board".*?</div>', "", html, count=1, flags=re.S)
    total = len(gzip.compress(lean.encode()))
    for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
        total += len(gzip.compress(client.get(src).data))
    print(f"embed page weight: {total / 1024:.1f} KB gzip, scripts and style included, board excluded "
          "(target <= 15 KB)")
    times = []
    for i in range(30):
        started = time.perf_counter()
        client.get(f"/embed/sliding?{source}&step={i % 3}")
        times.append(time.perf_counter() - started)
    print(f"embed page time to first byte (in-process) p50: {ms(times)}")

    pegs = registry.puzzle("pegs")
    english = pegs.presets()["english"]
    started = time.perf_counter()
    job = client.post("/api/pegs/jobs", json={"instance": english, "time_limit": 60}).get_json()
    while not job["done"]:
        time.sleep(0.2)
        job = client.get(f"/api/jobs/{job['id']}").get_json()
    moves = list(job["result"]["moves"])
    print(f"(solved English peg solitaire in {time.perf_counter() - started:.1f} s: {len(moves)} moves)")
    peg_source = f"instance={quote(english, safe='')}&moves={quote(','.join(moves), safe='')}"
    cold = []
    for step in range(len(moves) + 1):
        client.get(f"/api/pegs/render.svg?{peg_source}&step={step}")  # the SVG step cache warm
        app.extensions.get("puzzle_raster", {}).get("png") and app.extensions["puzzle_raster"]["png"].cache_clear()
        started = time.perf_counter()
        client.get(f"/api/pegs/render.png?{peg_source}&step={step}&size=600")
        cold.append(time.perf_counter() - started)
    cache = app.extensions["puzzle_raster"]["png"]
    hits = cache.cache_info().hits
    started = time.perf_counter()
    client.get(f"/api/pegs/render.png?{peg_source}&step={len(moves)}&size=600")
    warm = time.perf_counter() - started
    print(f"render.png 600 px pegs p50 cold: {ms(cold)} (target <= 40 ms); warm: {warm * 1000:.1f} ms, "
          f"cache hit: {cache.cache_info().hits == hits + 1}")
    cache.cache_clear()
    started = time.perf_counter()
    r = client.get(f"/api/pegs/animation.gif?{peg_source}")
    print(f"animation.gif of the {len(moves)}-move peg solution (360 px): "
          f"{(time.perf_counter() - started) * 1000:.0f} ms, {len(r.data) / 1024:.0f} KB, status {r.status_code}")
    app.extensions["puzzle_jobs"].close()


if __name__ == "__main__":
    main()
