"""Web figures: the step SVG endpoint under load, and a stored answer end to end.

Starts the real server (``python -m web.commands``: waitress, 8 threads, worker processes) on a
free localhost port with a temporary data directory, then for each installed built-in puzzle:

* solves its first preset (the 15-puzzle for sliding) through the job API to get a solution,
* fires a bounded number of GET /api/<puzzle>/render.svg?...&step=N requests, cycling over the
  solution's steps, from 8 client threads with keep-alive connections: requests/s and latency
  percentiles (targets for the 15-puzzle: >= 200 requests/s, p99 <= 100 ms),
* submits the same solve again and times the answer from the result store, end to end
  (target: <= 50 ms);

then, in Debian's Chromium driven by Playwright (skipped if either is missing), for every
installed puzzle's editor page:

* page weight: the bytes of the HTML, scripts and styles the editor page loads, in English and
  in Simplified Chinese (a browser whose language is zh-CN; target <= 60 KB in each),
* from a Next step click to the new board painted, p50 (target <= 50 ms; clicks 350 ms apart,
  as a person steps, so the next step's prefetch has landed),
* from a click on a board part to the updated board painted, p50 (target <= 60 ms);

and bench/embed.py's figures over the same server: the embed page's weight and time to first
byte, render.png at 600 px cold and warm, and the animated GIF of the peg solution.

Run: .venv/bin/python bench/web.py [--requests 2000] [--concurrency 8] [--clicks 20] [--no-browser]
     .venv/bin/python bench/web.py --weight-only     # only the page weights, in both languages
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN = {"sliding": "15-puzzle", "pegs": "english", "tangram": None}
CHROMIUM = "/usr/bin/chromium"

# In the page: click Next step n times, each time until the new board is painted (the first
# animation frame after the swap, then a task: the frame has been handed to the compositor).
NEXT_STEP_JS = """async (n) => {
  const board = document.getElementById('playback-board');
  const painted = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const times = [];
  for (let i = 0; i < n && !document.getElementById('next-step').disabled; i++) {
    const want = String(Number(board.dataset.step) + 1);
    const t0 = performance.now();
    document.getElementById('next-step').click();
    while (board.dataset.step !== want) await new Promise((r) => requestAnimationFrame(r));
    await painted();
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 350));
  }
  return times;
}"""

# In the page: click board parts (in turn) until n of them redrew the board; time each one.
EDIT_CLICK_JS = """async (n) => {
  const board = document.getElementById('board');
  const painted = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const times = [];
  for (let i = 0; times.length < n && i < 4 * n; i++) {
    const parts = board.querySelectorAll('[data-action]');
    if (!parts.length) break;
    const part = parts[(i * 7) % parts.length];
    const svg = board.querySelector('svg');
    const t0 = performance.now();
    part.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    const until = t0 + 2000;
    while (board.querySelector('svg') === svg && performance.now() < until) {
      await new Promise((r) => requestAnimationFrame(r));
    }
    if (board.querySelector('svg') === svg) continue;  // that click was refused: no redraw
    await painted();
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 250));
  }
  return times;
}"""

PAGE_WEIGHT_JS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const assets = performance.getEntriesByType('resource')
    .filter((r) => ['script', 'link', 'css'].includes(r.initiatorType));
  return {html: [nav.encodedBodySize, nav.decodedBodySize],
          assets: assets.map((r) => [r.name, r.encodedBodySize, r.decodedBodySize])};
}"""


def median_ms(times: list[float]) -> str:
    return f"{statistics.median(times):.1f} ms" if times else "n/a"


#: The languages the page weight is measured in: (browser locale, label).
WEIGHT_LANGUAGES = (("en-US", "English"), ("zh-CN", "Chinese"))
PAGE_WEIGHT_TARGET = 60 * 1024


def page_weight(browser, url: str, locale: str) -> tuple[int, int, str]:
    """(bytes sent, bytes uncompressed, the parts) of the editor page at ``url`` with an empty
    cache, in a browser whose language is ``locale`` (the page follows Accept-Language)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_load_state("load")
        weight = page.evaluate(PAGE_WEIGHT_JS)
        lang = page.evaluate("() => document.documentElement.lang")
    finally:
        context.close()
    sent = weight["html"][0] + sum(a[1] for a in weight["assets"])
    raw = weight["html"][1] + sum(a[2] for a in weight["assets"])
    parts = ", ".join(f"{a[0].rsplit('/', 1)[-1].split('?', 1)[0]} {a[1] / 1024:.1f}" for a in weight["assets"])
    return sent, raw, f"<html lang={lang}>: HTML {weight['html'][0] / 1024:.1f}, {parts} KB"


def weight_figures(browser, base: str, installed: dict) -> bool:
    """Every editor page's weight in each language; whether all are within the target."""
    ok = True
    for puzzle in installed:
        for locale, label in WEIGHT_LANGUAGES:
            sent, raw, parts = page_weight(browser, f"{base}/{puzzle}", locale)
            within = sent <= PAGE_WEIGHT_TARGET
            ok &= within
            print(f"{puzzle} ({label}): editor page weight {sent / 1024:.1f} KB sent "
                  f"({'within' if within else 'OVER'} the 60 KB target; {raw / 1024:.1f} KB uncompressed) {parts}")
    return ok


def launch(pw):
    return pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])


def browser_figures(port: int, installed: dict, solutions: dict, clicks: int) -> None:
    """Page weight (both languages), Next-step-to-paint and edit-click-to-paint in a real Chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("browser figures: playwright is not installed, skipped")
        return
    if not os.path.exists(CHROMIUM):
        print(f"browser figures: {CHROMIUM} is missing, skipped")
        return
    base = f"http://127.0.0.1:{port}"
    with sync_playwright() as pw:
        browser = launch(pw)
        weight_figures(browser, base, installed)
        for puzzle in installed:
            context = browser.new_context(viewport={"width": 1280, "height": 800})  # empty cache
            page = context.new_page()
            page.goto(f"{base}/{puzzle}")
            page.wait_for_load_state("load")
            edits = page.evaluate(EDIT_CLICK_JS, clicks)
            print(f"{puzzle}: edit click to updated board painted: p50 {median_ms(edits)} "
                  f"(target <= 60 ms; {len(edits)} clicks"
                  f"{'' if edits else ': the start board has no clickable parts'})")
            if puzzle in solutions:
                instance, moves = solutions[puzzle]
                query = urllib.parse.urlencode({"instance": instance, "moves": json.dumps(moves)})
                page.goto(f"{base}/{puzzle}?{query}#step=0")
                page.wait_for_load_state("load")
                page.wait_for_function("() => document.getElementById('playback-board').dataset.step === '0'")
                page.wait_for_timeout(300)
                steps = page.evaluate(NEXT_STEP_JS, clicks)
                print(f"{puzzle}: Next step click to new board painted: p50 {median_ms(steps)} "
                      f"(target <= 50 ms; {len(steps)} clicks)")
            context.close()
        browser.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Client:
    """A keep-alive HTTP/1.1 connection to the server."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def request(self, method: str, path: str, body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data else {}
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        payload = response.read()
        return response.status, payload

    def timed_get(self, path: str) -> tuple[int, bytes, float]:
        """GET ``path``: status, body and the seconds until the answer's headers arrived."""
        started = time.perf_counter()
        self.conn.request("GET", path)
        response = self.conn.getresponse()
        first_byte = time.perf_counter() - started
        return response.status, response.read(), first_byte

    def json(self, method: str, path: str, body: dict | None = None) -> dict:
        status, payload = self.request(method, path, body)
        result = json.loads(payload)
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {result}")
        return result


def start_server(data_dir: str, threads: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "web.commands", "--port", str(port), "--threads", str(threads),
         "--data-dir", data_dir],
        cwd=ROOT, env={**os.environ, "PUZZLE_ENGINE_DATA": data_dir},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            status, _ = Client(port).request("GET", "/api/puzzles")
            if status == 200:
                return process, port
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def solve(client: Client, puzzle: str, instance: str, solver: str | None) -> dict:
    body = {"instance": instance, "time_limit": 120}
    if solver:
        body["solver"] = solver
    job = client.json("POST", f"/api/{puzzle}/jobs", body)
    while not job["done"]:
        time.sleep(0.05)
        job = client.json("GET", f"/api/jobs/{job['id']}")
    return job


def load(port: int, paths: list[str], total: int, concurrency: int) -> dict:
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    counter = iter(range(total))

    def worker():
        client = Client(port)
        mine = []
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                break
            started = time.perf_counter()
            status, _ = client.request("GET", paths[i % len(paths)])
            mine.append(time.perf_counter() - started)
            if status != 200:
                errors[0] += 1
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    latencies.sort()

    def pct(p):
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000

    return {"requests": len(latencies), "errors": errors[0], "seconds": wall,
            "rps": len(latencies) / wall, "p50": pct(50), "p99": pct(99), "max": latencies[-1] * 1000}


def embed_figures(client: Client, solutions: dict) -> None:
    """bench/embed.py's figures, over this server."""
    sys.path.insert(0, str(ROOT / "bench"))
    import embed as embed_bench  # bench/embed.py

    for line in embed_bench.page_figures(client.timed_get):
        print(line)
    if "pegs" in solutions:
        instance, moves = solutions["pegs"]
        for line in embed_bench.png_figures(client.timed_get, "pegs", instance, moves):
            print(line)
        print(embed_bench.gif_figure(client.timed_get, "pegs", instance, moves))


def weight_only(threads: int) -> int:
    """The page weights alone: no load test, no solving (quick on a busy machine)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("page weight: playwright is not installed")
        return 2
    with tempfile.TemporaryDirectory() as data_dir:
        process, port = start_server(data_dir, threads)
        try:
            installed = {p["id"]: p for p in Client(port).json("GET", "/api/puzzles")["puzzles"]}
            with sync_playwright() as pw:
                browser = launch(pw)
                try:
                    return 0 if weight_figures(browser, f"http://127.0.0.1:{port}", installed) else 1
                finally:
                    browser.close()
        finally:
            process.terminate()
            process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests per puzzle (bounded)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--threads", type=int, default=8, help="waitress threads")
    parser.add_argument("--clicks", type=int, default=20, help="browser clicks per figure")
    parser.add_argument("--no-browser", action="store_true", help="skip the browser figures")
    parser.add_argument("--weight-only", action="store_true",
                        help="only the editor pages' weight, in English and in Chinese (exit 1 if one is over)")
    args = parser.parse_args()
    if args.weight_only:
        sys.exit(weight_only(args.threads))
    solutions: dict[str, tuple[str, list[str]]] = {}

    with tempfile.TemporaryDirectory() as data_dir:
        process, port = start_server(data_dir, args.threads)
        try:
            client = Client(port)
            installed = {p["id"]: p for p in client.json("GET", "/api/puzzles")["puzzles"]}
            print(f"server: waitress, {args.threads} threads, localhost:{port}; "
                  f"{args.requests} requests per puzzle at concurrency {args.concurrency}")
            for puzzle, preset in BUILT_IN.items():
                if puzzle not in installed:
                    print(f"{puzzle}: not installed, skipped")
                    continue
                details = installed[puzzle]
                preset = preset if preset in details["presets"] else next(iter(details["presets"]))
                instance = client.json("POST", f"/api/{puzzle}/validate",
                                       {"instance": details["presets"][preset]})["instance"]
                started = time.perf_counter()
                job = solve(client, puzzle, instance, None)
                first_solve = time.perf_counter() - started
                if job["status"] != "solved":
                    print(f"{puzzle} {preset}: first solve ended {job['status']} "
                          f"({job.get('message') or job['result'].get('reason')}); skipped")
                    continue
                moves = job["result"]["moves"]
                solutions[puzzle] = (instance, moves)
                query = urllib.parse.urlencode({"instance": instance,
                                                "moves": json.dumps(moves) if any("," in m for m in moves)
                                                else ",".join(moves)})
                paths = [f"/api/{puzzle}/render.svg?{query}&step={s}" for s in range(len(moves) + 1)]
                for path in paths:  # warm the render cache: the figure is for cached steps
                    client.request("GET", path)
                result = load(port, paths, args.requests, args.concurrency)
                print(f"{puzzle} {preset} ({len(moves)} moves, first solve {first_solve:.2f} s via "
                      f"{job['solver']}): step SVG {result['rps']:.0f} requests/s, "
                      f"p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms, max {result['max']:.1f} ms, "
                      f"{result['errors']} errors")

                # The same request again: answered from the store.
                timings = []
                for _ in range(20):
                    started = time.perf_counter()
                    again = client.json("POST", f"/api/{puzzle}/jobs",
                                        {"instance": instance, "time_limit": 120})
                    timings.append((time.perf_counter() - started) * 1000)
                    assert again["from_store"] and again["result"]["moves"] == moves
                print(f"{puzzle} {preset}: second solve from the store, end to end: "
                      f"median {statistics.median(timings):.1f} ms, max {max(timings):.1f} ms (20 tries)")
            embed_figures(client, solutions)
            if not args.no_browser:
                for puzzle in installed:  # third-party puzzles too (e.g. Lights Out)
                    if puzzle not in solutions and puzzle not in BUILT_IN:
                        details = installed[puzzle]
                        instance = client.json("POST", f"/api/{puzzle}/validate", {
                            "instance": next(iter(details["presets"].values()))})["instance"]
                        job = solve(client, puzzle, instance, None)
                        if job["status"] == "solved":
                            solutions[puzzle] = (instance, job["result"]["moves"])
                browser_figures(port, installed, solutions, args.clicks)
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
