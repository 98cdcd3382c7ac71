"""Web figures: the step SVG endpoint under load, and a stored answer end to end.

Starts the real server (``python -m web.commands``: waitress, 8 threads, worker processes) on a
free localhost port with a temporary data directory, then for each installed built-in puzzle:

* solves its first preset (the 15-puzzle for sliding) through the job API to get a solution,
* fires a bounded number of GET /api/<puzzle>/render.svg?...&step=N requests, cycling over the
  solution's steps, from 8 client threads with keep-alive connections: requests/s and latency
  percentiles (targets for the 15-puzzle: >= 200 requests/s, p99 <= 100 ms),
* submits the same solve again and times the answer from the result store, end to end
  (target: <= 50 ms).

Run: .venv/bin/python bench/web.py [--requests 2000] [--concurrency 8]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests per puzzle (bounded)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--threads", type=int, default=8, help="waitress threads")
    args = parser.parse_args()

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
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
