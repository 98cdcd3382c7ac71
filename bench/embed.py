"""Embed figures, in-process (Flask's test client, no network) or over a real server.

* embed page weight: gzip bytes of the HTML without the board SVG, plus its scripts and style
  (target <= 15 KB),
* embed page time to first byte, p50,
* render.png at 600 px: p50 cold (each step's first PNG; its SVG step already cached)
  (target <= 40 ms), and warm (the same URLs again: answered from the PNG cache); in-process
  also by the request thread's CPU time, steadier than the wall clock on a shared machine,
* animation.gif time for the 31-move English peg solitaire solution.

The figure functions take ``get(path) -> (status, body, seconds to the first byte)``, so
``bench/web.py`` prints the same figures against the real server.

Run: .venv/bin/python -P bench/embed.py
"""

from __future__ import annotations

import gzip
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Callable
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

Get = Callable[[str], "tuple[int, bytes, float]"]
SLIDING = "1 2 3/4 5 6/0 7 8"
SLIDING_MOVES = "7,8"


def ms(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:.1f} ms"


def source_query(instance: str, moves: list[str]) -> str:
    return f"instance={quote(instance, safe='')}&moves={quote(','.join(moves), safe='')}"


def page_figures(get: Get, tries: int = 30) -> list[str]:
    """The embed page's weight without its board, and its time to first byte, p50."""
    source = source_query(SLIDING, SLIDING_MOVES.split(","))
    _, body, _ = get(f"/embed/sliding?{source}")
    html = body.decode()
    lean = re.sub(r'<div id="board".*?</div>', "", html, count=1, flags=re.S)
    total = len(gzip.compress(lean.encode()))
    # Static files and script bundles (/-/scripts/<page>.js): whatever the page loads.
    for src in re.findall(r'(?:src|href)="(/(?:static|-/scripts)/[^"]+)"', html):
        total += len(gzip.compress(get(src)[1]))
    times = [get(f"/embed/sliding?{source}&step={i % 3}")[2] for i in range(tries)]
    return [f"embed page weight: {total / 1024:.1f} KB gzip, scripts and style included, board "
            "excluded (target <= 15 KB)",
            f"embed page time to first byte p50: {ms(times)} ({tries} tries)"]


def png_figures(get: Get, puzzle: str, instance: str, moves: list[str], size: int = 600,
                clock: Callable[[], float] = time.perf_counter, label: str = "") -> list[str]:
    """render.png cold (each step's first request) and warm (the same again), p50 by ``clock``."""
    source = source_query(instance, moves)
    cold, warm, errors = [], [], 0
    for step in range(len(moves) + 1):
        get(f"/api/{puzzle}/render.svg?{source}&step={step}")  # the SVG step cache warm
        started = clock()
        status, _, _ = get(f"/api/{puzzle}/render.png?{source}&step={step}&size={size}")
        errors += status != 200
        cold.append(clock() - started)
    for step in range(len(moves) + 1):
        started = clock()
        status, _, _ = get(f"/api/{puzzle}/render.png?{source}&step={step}&size={size}")
        errors += status != 200
        warm.append(clock() - started)
    return [f"render.png {size} px {puzzle} ({len(moves) + 1} steps){label}: p50 cold {ms(cold)} "
            f"(target <= 40 ms), warm {ms(warm)}, {errors} answers not 200"]


def gif_figure(get: Get, puzzle: str, instance: str, moves: list[str]) -> str:
    started = time.perf_counter()
    status, body, _ = get(f"/api/{puzzle}/animation.gif?{source_query(instance, moves)}")
    return (f"animation.gif of the {len(moves)}-move {puzzle} solution (360 px): "
            f"{(time.perf_counter() - started) * 1000:.0f} ms, {len(body) / 1024:.0f} KB, status {status}")


def main() -> None:
    from engine.plugins import get_registry
    from web import create_app

    registry = get_registry()
    app = create_app({"REGISTRY": registry, "TESTING": True})
    client = app.test_client()

    def get(path: str) -> tuple[int, bytes, float]:
        started = time.perf_counter()
        response = client.get(path)
        return response.status_code, response.data, time.perf_counter() - started

    for line in page_figures(get):
        print(line + (" (in-process)" if "first byte" in line else ""))
    english = registry.puzzle("pegs").presets()["english"]
    started = time.perf_counter()
    job = client.post("/api/pegs/jobs", json={"instance": english, "time_limit": 60}).get_json()
    while not job["done"]:
        time.sleep(0.2)
        job = client.get(f"/api/jobs/{job['id']}").get_json()
    moves = list(job["result"]["moves"])
    print(f"(solved English peg solitaire in {time.perf_counter() - started:.1f} s: {len(moves)} moves)")
    cache = app.extensions.get("puzzle_raster", {}).get("png")
    hits = cache.cache_info().hits if cache else 0
    for line in png_figures(get, "pegs", english, moves):
        cache = app.extensions["puzzle_raster"]["png"]
        print(line + f"; warm requests were cache hits: {cache.cache_info().hits - hits == len(moves) + 1}")
    # On a shared machine the wall clock mostly measures the neighbours: the request thread's
    # own CPU time is the steadier figure (the PNG is drawn in that thread).
    cache.cache_clear()
    for line in png_figures(get, "pegs", english, moves, clock=time.thread_time,
                            label=", CPU time of the request thread"):
        print(line)
    print(gif_figure(get, "pegs", english, moves))
    app.extensions["puzzle_jobs"].close()


if __name__ == "__main__":
    main()
