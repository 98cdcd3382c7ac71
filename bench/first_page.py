"""`puzzle serve` on a fresh machine: how long until the first page, and until the quick tables.

Starts the real command (a whole process, as `make run` does) with PUZZLE_ENGINE_CACHE at an
empty temporary folder, and prints for each way of starting:

* the seconds from the start of the process to the first 200 on ``/``;
* the seconds until the 15-puzzle's quick (6-6-3) tables are on disk;
* a 15-puzzle solve sent the moment the first page came: its time from submission to answer
  (it waits for the tables being built rather than building its own: each table's lock).

Ways: the default (listen first, the tables built in the background, the quick ones first),
``--no-background-prepare`` (the quick tables built before listening: what the default did
before), ``--no-prepare`` (nothing built ahead; the solve builds the tables itself).

    .venv/bin/python bench/first_page.py
    .venv/bin/python bench/first_page.py --runs 3 --only default

Timings depend on the machine's load: say how loaded it was when quoting them.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WAYS = {"default": [], "no-background-prepare": ["--no-background-prepare"],
        "no-prepare": ["--no-prepare"]}
#: A 15-puzzle that linear conflict alone does not finish in the solver's quick try (a million
#: nodes), so the answer needs the 6-6-3 tables (Korf's instance 1, 57 moves, blank-first goal).
FIFTEEN = "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3; goal: blank-first"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str, body: dict | None = None) -> tuple[int, dict | str]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as response:
        text = response.read().decode()
        kind = response.headers.get("Content-Type", "")
        return response.status, json.loads(text) if "json" in kind else text


def one_run(way: str, timeout: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="first-page-") as folder:
        cache, data = Path(folder) / "cache", Path(folder) / "data"
        port = free_port()
        env = {**os.environ, "PUZZLE_ENGINE_CACHE": str(cache)}
        exe = Path(sys.executable).with_name("puzzle")
        started = time.perf_counter()
        process = subprocess.Popen([str(exe), "serve", "--port", str(port), "--data-dir", str(data),
                                    *WAYS[way]], env=env, cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        out: dict = {}
        try:
            while "first_page" not in out:
                try:
                    status, _ = get(base + "/")
                    if status == 200:
                        out["first_page"] = time.perf_counter() - started
                except OSError:
                    if process.poll() is not None:
                        raise RuntimeError("the server stopped") from None
                    if time.perf_counter() - started > timeout:
                        raise RuntimeError("no first page") from None
                    time.sleep(0.05)
            sent = time.perf_counter()
            _, job = get(base + "/api/sliding/jobs",
                         {"instance": FIFTEEN, "solver": "optimal", "time_limit": 120})
            tables = sorted(cache.glob("sliding-pdb-v*-4x4-*.pdb")) if cache.exists() else []
            if len(tables) == 3:  # built before the server listened
                out["tables"] = out["first_page"]
            while not job["done"]:
                if len(tables) < 3:
                    tables = sorted(cache.glob("sliding-pdb-v*-4x4-*.pdb"))
                    if len(tables) == 3:
                        out["tables"] = time.perf_counter() - started
                time.sleep(0.05)
                _, job = get(f"{base}/api/jobs/{job['id']}")
            out["solve"] = time.perf_counter() - sent
            out["solved"] = job["status"] == "solved" and job["result"]["length"] == 57
            while "tables" not in out and time.perf_counter() - started < timeout:
                if len(sorted(cache.glob("sliding-pdb-v*-4x4-*.pdb"))) == 3:
                    out["tables"] = time.perf_counter() - started
                time.sleep(0.05)
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1, help="runs per way (the median is printed)")
    ap.add_argument("--only", action="append", choices=sorted(WAYS), help="only these ways")
    ap.add_argument("--timeout", type=float, default=180.0)
    args = ap.parse_args()
    print(f"bench/first_page.py on {os.cpu_count()} cores (load average "
          f"{os.getloadavg()[0]:.1f}); `puzzle serve`, empty PUZZLE_ENGINE_CACHE each run")
    for way in args.only or list(WAYS):
        runs = [one_run(way, args.timeout) for _ in range(args.runs)]

        def med(key: str, runs: list = runs) -> str:
            values = [r[key] for r in runs if key in r]
            return f"{statistics.median(values):6.1f} s" if values else "   n/a  "
        ok = all(r.get("solved") for r in runs)
        print(f"  {way:22s} first 200 on / {med('first_page')}   6-6-3 tables on disk "
              f"{med('tables')}   15-puzzle sent at the first page answered in {med('solve')}"
              f"{'' if ok else '  (NOT all answers the 57-move optimum)'}", flush=True)


if __name__ == "__main__":
    main()
