"""Soak test of the web app (not part of the test suite): a few minutes of mixed load.

    .venv/bin/python bench/soak.py                  # 12 clients, 150 s
    .venv/bin/python bench/soak.py --clients 16 --seconds 60

Starts `puzzle serve` on a free localhost port (with a deliberately misbehaving plugin added,
tests/rogue.py, whose "sleeper" solver ignores its deadline: the runaways), then runs clients
that mix step renders, edits and solves (sliding, pegs, tangram, and runaways with a 1 s time
limit), while
  * a sampler reads the RSS of the server and of each worker process every 5 s,
  * a prober times a cheap GET (/api/puzzles) five times a second.
At the end it prints the RSS samples, the count of 5xx answers, whether every accepted job
reached a final state, and the p50/p99 of the cheap GET. Bounded to 3 minutes of load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_SECONDS = 180
FINAL = {"solved", "unsolvable", "gave_up", "cancelled", "error"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rogue_site(tmp: Path) -> Path:
    site = tmp / "site"
    site.mkdir()
    for name in ("toy.py", "rogue.py"):
        shutil.copy(ROOT / "tests" / name, site / name)
    info = site / "puzzle_rogue-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: puzzle-rogue\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[puzzle_engine]\nrogue = rogue\n")
    return site


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.codes = Counter()
        self.kinds = Counter()
        self.errors: list[str] = []
        self.accepted: dict[str, str] = {}  # job id -> last status seen
        self.probe_ms: list[float] = []

    def record(self, kind: str, code: int, detail: str = "") -> None:
        with self.lock:
            self.codes[code] += 1
            self.kinds[kind] += 1
            if code >= 500 and len(self.errors) < 10:
                self.errors.append(f"{kind} {code} {detail[:200]}")


def request(base: str, method: str, path: str, body: dict | None = None, timeout: float = 30):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json",
                                          "Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


SLIDING = ["1 2 3/4 5 6/0 7 8", "8 6 7/2 5 4/3 0 1", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"]
PEGS = ["english", "french"]


def client(base: str, stop: threading.Event, stats: Stats, seed: int, tangram: list[str]) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        kind = rng.choice(["step", "step", "edit", "solve", "solve", "runaway"])
        try:
            if kind == "step":
                q = urllib.parse.urlencode({"instance": "1 2 3/4 5 6/7 8 0", "moves": "8,7",
                                            "step": rng.randrange(3)})
                code, body = request(base, "GET", f"/api/sliding/render.svg?{q}")
                stats.record(kind, code, body.decode(errors="replace"))
            elif kind == "edit":
                code, body = request(base, "POST", "/api/sliding/edit",
                                     {"instance": "1 2 3/4 5 6/7 8 0",
                                      "action": rng.choice(["tile:8", "tile:6", "reset", "shuffle:3"])})
                stats.record(kind, code, body.decode(errors="replace"))
            else:
                if kind == "runaway":
                    job = {"instance": "1 -> 5", "solver": "sleeper", "time_limit": 1}
                    pid = "rogue"
                else:
                    pid, job = rng.choice([
                        ("sliding", {"instance": rng.choice(SLIDING), "solver": "optimal", "time_limit": 5}),
                        ("sliding", {"instance": f"{rng.randrange(10**6)}", "solver": "fast"}),
                        ("pegs", {"instance": rng.choice(PEGS), "time_limit": 3}),
                        ("tangram", {"instance": rng.choice(tangram), "time_limit": 5}),
                    ])
                    if job["instance"].isdigit():  # a random 8 x 8 board for the fast solver
                        code, body = request(base, "GET", f"/api/sliding/random?seed={job['instance']}&size=8x8")
                        stats.record("random", code, body.decode(errors="replace"))
                        if code != 200:
                            continue
                        job["instance"] = json.loads(body)["instance"]
                code, body = request(base, "POST", f"/api/{pid}/jobs", job)
                stats.record(kind, code, body.decode(errors="replace"))
                if code not in (200, 202):
                    continue
                data = json.loads(body)
                with stats.lock:
                    stats.accepted[data["id"]] = data["status"]
                deadline = time.monotonic() + 60
                while not data.get("done") and time.monotonic() < deadline:
                    time.sleep(0.2)
                    code, body = request(base, "GET", f"/api/jobs/{data['id']}")
                    stats.record("poll", code, body.decode(errors="replace"))
                    if code != 200:
                        break
                    data = json.loads(body)
                with stats.lock:
                    stats.accepted[data["id"]] = data["status"]
        except (OSError, ValueError) as exc:
            stats.record(kind, 599, f"{type(exc).__name__}: {exc}")


def prober(base: str, stop: threading.Event, stats: Stats) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        try:
            code, _ = request(base, "GET", "/api/puzzles", timeout=30)
        except OSError:
            code = 599
        ms = (time.perf_counter() - t) * 1000
        stats.record("probe", code)
        with stats.lock:
            stats.probe_ms.append(ms)
        stop.wait(0.2)


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description="soak the web app with mixed load")
    ap.add_argument("--clients", type=int, default=12)
    ap.add_argument("--seconds", type=float, default=150)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    seconds = min(args.seconds, MAX_SECONDS)
    clients = max(1, min(args.clients, 16))

    sys.path.insert(0, str(ROOT))
    from bench.tangram_figures import figures
    tangram = [text for _, text in figures(40)]

    tmp = Path(tempfile.mkdtemp(prefix="soak-"))
    port = free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(rogue_site(tmp)), os.environ.get("PYTHONPATH", "")]))
    server = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--port", str(port),
                               "--data-dir", str(tmp / "data"), "--workers", str(args.workers),
                               "--threads", "16", "--no-prepare"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if request(base, "GET", "/api/puzzles", timeout=2)[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            raise SystemExit("the server did not start")
        stats, stop = Stats(), threading.Event()
        threads = [threading.Thread(target=client, args=(base, stop, stats, i, tangram), daemon=True)
                   for i in range(clients)]
        threads.append(threading.Thread(target=prober, args=(base, stop, stats), daemon=True))
        for t in threads:
            t.start()
        print(f"soak: {clients} clients for {seconds:.0f} s against {base} ({args.workers} workers)")
        print("   t(s)  server MB  workers MB")
        started = time.monotonic()
        samples = []
        while time.monotonic() - started < seconds:
            time.sleep(5)
            kids = children(server.pid)
            # the server runs as `python -m engine.cli serve`; workers are its children
            sample = (time.monotonic() - started, rss_mb(server.pid), [rss_mb(k) for k in kids])
            samples.append(sample)
            print(f"   {sample[0]:5.0f}  {sample[1]:9.0f}  {' '.join(f'{m:.0f}' for m in sample[2])}")
        stop.set()
        for t in threads:
            t.join(timeout=70)
        time.sleep(3)  # let the last runaways be killed
        pending = []
        for job_id, status in list(stats.accepted.items()):
            if status not in FINAL:
                code, body = request(base, "GET", f"/api/jobs/{job_id}")
                status = json.loads(body).get("status") if code == 200 else f"HTTP {code}"
                stats.accepted[job_id] = status
                if status not in FINAL:
                    pending.append((job_id, status))
    finally:
        server.send_signal(signal.SIGINT)
        try:
            out, _ = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            out, _ = server.communicate()
        shutil.rmtree(tmp, ignore_errors=True)

    fives = sum(n for code, n in stats.codes.items() if code >= 500)
    statuses = Counter(stats.accepted.values())
    probe = sorted(stats.probe_ms)
    p = lambda q: probe[min(len(probe) - 1, int(q * len(probe)))] if probe else float("nan")  # noqa: E731
    warm = [s for s in samples if s[0] >= 30] or samples
    print(f"requests: {sum(stats.codes.values()):,} {dict(sorted(stats.kinds.items()))}")
    print(f"HTTP codes: {dict(sorted(stats.codes.items()))}; 5xx: {fives}")
    for line in stats.errors:
        print(f"   5xx: {line}")
    print(f"jobs accepted: {len(stats.accepted)}; final: {sum(statuses[s] for s in FINAL)}; "
          f"by status: {dict(statuses)}; not final: {pending[:5]}")
    print(f"cheap GET /api/puzzles: {len(probe)} probes, p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, "
          f"max {max(probe, default=float('nan')):.1f} ms")
    if warm:
        first, last = warm[0], warm[-1]
        print(f"RSS after warm-up (t={first[0]:.0f} s -> t={last[0]:.0f} s): server "
              f"{first[1]:.0f} -> {last[1]:.0f} MB; workers {sum(first[2]):.0f} -> {sum(last[2]):.0f} MB total")
    tail = [line for line in out.splitlines() if "Traceback" in line or "leaked" in line]
    print(f"server output: {len(out.splitlines())} lines; tracebacks/leaks: {tail[:3]}")


if __name__ == "__main__":
    main()
