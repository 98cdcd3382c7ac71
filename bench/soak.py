"""Soak test of the web app (not part of the test suite): a few minutes of mixed load.

    .venv/bin/python bench/soak.py                  # 12 clients, 150 s
    .venv/bin/python bench/soak.py --clients 16 --seconds 60
    .venv/bin/python bench/soak.py --adversarial --seconds 40   # quiet baseline, then attack
    .venv/bin/python bench/soak.py --adversarial --no-editor-process   # the same, one process
    .venv/bin/python bench/soak.py --refusal-cost   # CPU of one 429, through Flask and kept

Starts `puzzle serve` on a free localhost port (with a deliberately misbehaving plugin added,
tests/rogue.py, whose "sleeper" solver ignores its deadline: the runaways), then runs clients
that mix step renders, edits and solves (sliding, pegs, tangram, and runaways with a 1 s time
limit), while
  * a sampler reads the RSS of the server and of each worker process every 5 s,
  * a prober times a cheap GET (/api/puzzles) five times a second.
At the end it prints the RSS samples, the count of 5xx answers, whether every accepted job
reached a final state, and the p50/p99 of the cheap GET. Bounded to 3 minutes of load.

``--adversarial`` runs two phases of ``--seconds`` each against `puzzle serve` with its default
threads and shares: a quiet baseline, then an attack. In both, a prober (from 127.0.0.3) times
cheap GETs and another client (127.0.0.2) solves one small sliding board after another. The
attack adds an editor flood (16 clients, 127.0.1.1-16, validate and edit without pause), a
slow-connection hold (120 sockets from 127.0.0.4 sending one header line a second) and a queue
flood from 127.0.0.1 (8 threads submitting hard solves without pause). It prints, per phase, the
p50/p99 of the cheap GETs and of the other client's job latency (submit to answer, retries after
429/503 included), the flood's answers, and the server's CPU time per editor request.
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
                              env=env, stdout=(log_file := open(tmp / "server.log", "w+")),
                              stderr=subprocess.STDOUT)  # a file, not a pipe: see adversarial()
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
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log_file.seek(0)
        out = log_file.read()
        log_file.close()
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


# -- the adversarial mix ---------------------------------------------------------------------------


def call(port: int, source: str, method: str, path: str, body: dict | None = None,
         timeout: float = 30) -> tuple[int, dict, bytes]:
    """One request from the loopback address ``source`` (the server tells clients apart by it)."""
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json"})
        answer = conn.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        conn.close()


def shuffled(size: int, steps: int, rng: random.Random) -> str:
    """A solvable board: a random walk of the blank from the goal."""
    cells = list(range(1, size * size)) + [0]
    blank = size * size - 1
    for _ in range(steps):
        r, c = divmod(blank, size)
        options = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                   if 0 <= r + dr < size and 0 <= c + dc < size]
        nr, nc = rng.choice(options)
        other = nr * size + nc
        cells[blank], cells[other] = cells[other], cells[blank]
        blank = other
    return "/".join(" ".join(str(v) for v in cells[i * size:(i + 1) * size]) for i in range(size))


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def editor_processes(pid: int) -> list[int]:
    """The server's editor process (web.editor_process names it ``puzzle-editor``)."""
    return [child for child in children(pid)
            if Path(f"/proc/{child}/comm").read_text().strip() == "puzzle-editor"]


def web_cpu_seconds(pid: int) -> float:
    """CPU of the web process and of its editor process (not the solver workers)."""
    total = cpu_seconds(pid)
    for child in editor_processes(pid):
        try:
            total += cpu_seconds(child)
        except OSError:
            pass
    return total


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def phase(port: int, server_pid: int, seconds: float, attack: bool) -> dict:
    stop = threading.Event()
    lock = threading.Lock()
    out: dict = {"cheap_ms": [], "job_s": [], "job_codes": Counter(), "editor": Counter(),
                 "flood": Counter(), "held": 0}

    def prober() -> None:
        paths = ["/api/puzzles", "/api/puzzles/sliding"]
        i = 0
        while not stop.is_set():
            t = time.perf_counter()
            try:
                call(port, "127.0.0.3", "GET", paths[i % 2], timeout=30)
                ms = (time.perf_counter() - t) * 1000
            except OSError:
                ms = 30_000.0
            with lock:
                out["cheap_ms"].append(ms)
            i += 1
            stop.wait(0.1)

    def other_client() -> None:
        rng = random.Random(2)
        while not stop.is_set():
            board = shuffled(3, 30 + rng.randrange(1000), rng)
            began = time.perf_counter()
            job = None
            while job is None and not stop.is_set():
                code, headers, body = call(port, "127.0.0.2", "POST", "/api/sliding/jobs",
                                           {"instance": board, "solver": "optimal", "time_limit": 5})
                with lock:
                    out["job_codes"][code] += 1
                if code in (200, 202):
                    job = json.loads(body)
                else:
                    stop.wait(float(headers.get("Retry-After", 1)))
            while job is not None and not job.get("done") and not stop.is_set():
                stop.wait(0.1)
                job = json.loads(call(port, "127.0.0.2", "GET", f"/api/jobs/{job['id']}")[2])
            if job is not None and job.get("done"):
                with lock:
                    out["job_s"].append(time.perf_counter() - began)

    def editor(n: int) -> None:
        rng = random.Random(100 + n)
        source = f"127.0.1.{n + 1}"
        while not stop.is_set():
            if rng.random() < 0.5:
                path, body = "/api/sliding/validate", {"instance": shuffled(rng.choice((4, 5)), 200, rng)}
            elif rng.random() < 0.5:
                path, body = "/api/pegs/validate", {"instance": rng.choice(["english", "triangle-5"])}
            else:
                path, body = "/api/sliding/edit", {"instance": shuffled(4, 100, rng), "action": "shuffle:5"}
            try:
                code = call(port, source, "POST", path, body)[0]
            except OSError:
                code = 599
            with lock:
                out["editor"][code] += 1

    def queue_flood(n: int) -> None:
        rng = random.Random(200 + n)
        while not stop.is_set():
            try:
                code = call(port, "127.0.0.1", "POST", "/api/sliding/jobs",
                            {"instance": shuffled(4, 500, rng), "solver": "optimal", "time_limit": 5})[0]
            except OSError:
                code = 599
            with lock:
                out["flood"][code] += 1
            if code != 202:
                stop.wait(0.05)

    def hold() -> None:
        socks = []
        for _ in range(120):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                                source_address=("127.0.0.4", 0))
                sock.sendall(b"GET /api/puzzles HTTP/1.1\r\nHost: x\r\n")
                socks.append(sock)
            except OSError:
                break
        out["held"] = len(socks)
        while not stop.wait(1.0):
            for sock in list(socks):
                try:
                    sock.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    socks.remove(sock)
        for sock in socks:
            sock.close()

    threads = [threading.Thread(target=prober), threading.Thread(target=other_client)]
    if attack:
        threads += [threading.Thread(target=editor, args=(i,)) for i in range(16)]
        threads += [threading.Thread(target=queue_flood, args=(i,)) for i in range(8)]
        threads.append(threading.Thread(target=hold))
    cpu0 = web_cpu_seconds(server_pid)
    for t in threads:
        t.daemon = True
        t.start()
    time.sleep(seconds)
    stop.set()
    out["cpu"] = web_cpu_seconds(server_pid) - cpu0
    for t in threads:
        t.join(timeout=40)
    return out


def adversarial(seconds: float, workers: int, editor_process: bool = True) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="soak-adv-"))
    port = free_port()
    # The server's output goes to a file: a pipe nobody reads until the end fills up (64 KB of
    # waitress's "queue depth" warnings) and then blocks the server's main loop in a write.
    log_file = open(tmp / "server.log", "w+")
    server = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--port", str(port),
                               "--data-dir", str(tmp / "data"), "--workers", str(workers),
                               "--no-prepare", "--editor-process" if editor_process
                               else "--no-editor-process"], stdout=log_file, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                if call(port, "127.0.0.3", "GET", "/api/puzzles", timeout=2)[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            raise SystemExit("the server did not start")
        call(port, "127.0.0.3", "POST", "/api/sliding/jobs", {"instance": "1 2 3/4 5 6/0 7 8"})  # warm up
        time.sleep(3)
        print(f"adversarial soak: {seconds:.0f} s quiet, then {seconds:.0f} s under attack "
              f"({workers} workers, default threads and shares, editor requests "
              f"{'in their own process' if editor_process else 'in the web process'})")
        results = [("quiet", phase(port, server.pid, seconds, attack=False)),
                   ("attack", phase(port, server.pid, seconds, attack=True))]
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log_file.seek(0)
        log = log_file.read()
        log_file.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{'phase':7} {'cheap GET p50/p99 ms':>22} {'other client job p50/p99 s':>28} {'jobs':>5}  "
          f"other client's submits")
    for name, r in results:
        print(f"{name:7} {percentile(r['cheap_ms'], .5):10.1f} /{percentile(r['cheap_ms'], .99):9.1f} "
              f"{percentile(r['job_s'], .5):14.2f} /{percentile(r['job_s'], .99):11.2f} "
              f"{len(r['job_s']):5}  {dict(r['job_codes'])}")
    attack = results[1][1]
    answered = attack["editor"][200]
    print(f"editor flood answers: {dict(attack['editor'])}; server CPU {attack['cpu']:.1f} s in the "
          f"attack phase, {1000 * attack['cpu'] / max(1, answered):.1f} ms per answered editor request "
          f"(the web and editor processes' work counted, an upper bound)")
    print(f"queue flood from 127.0.0.1: {dict(attack['flood'])}; slow sockets held: {attack['held']}")
    tail = [line for line in log.splitlines() if "Traceback" in line]
    print(f"server output: {len(log.splitlines())} lines; tracebacks: {tail[:3]}")
    stopped = [line for line in log.splitlines() if "took longer than" in line]
    print(f"editor requests stopped at their time bound: {len(stopped)} {stopped[:2]}")


def refusal_cost(count: int = 3000) -> None:
    """Microseconds of one refused editor request: through Flask, and kept by web.refusals."""
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]  # bench/web.py is not web
    sys.path.insert(0, str(Path(here).parent))
    from flask import Flask
    from werkzeug.test import EnvironBuilder

    from web import errors, refusals
    from web.clients import Busy

    app = Flask("refusal-cost")

    @app.post("/api/<puzzle>/validate")
    def validate(puzzle):
        raise Busy("your editor requests used 20 CPU-seconds; try again in 30 s", retry_after=30,
                   lasting=True)

    errors.install(app)
    refusals.install(app)
    template = EnvironBuilder(path="/api/sliding/validate", method="POST", json={}).get_environ()
    body = template["wsgi.input"].read()

    def run(addresses) -> float:
        import io
        began = time.perf_counter()
        for address in addresses:
            environ = dict(template, REMOTE_ADDR=address, **{"wsgi.input": io.BytesIO(body)})
            list(app(environ, lambda status, headers, exc_info=None: None))
        return (time.perf_counter() - began) / len(addresses) * 1e6

    fresh = run([f"10.{i // 62500}.{i // 250 % 250}.{i % 250}" for i in range(count)])  # all new
    kept = run(["10.255.0.1"] * count)
    print(f"one refused editor request: {fresh:.0f} us through Flask, {kept:.0f} us kept "
          f"by web.refusals ({count} each, this process, one thread)")


if __name__ == "__main__":
    if "--refusal-cost" in sys.argv:
        refusal_cost()
    elif "--adversarial" in sys.argv:
        ap = argparse.ArgumentParser(description="the adversarial mix: a quiet baseline, then an attack")
        ap.add_argument("--adversarial", action="store_true")
        ap.add_argument("--seconds", type=float, default=40)
        ap.add_argument("--workers", type=int, default=2)
        ap.add_argument("--no-editor-process", action="store_true",
                        help="serve editor requests in the web process, as before the editor process")
        opts = ap.parse_args()
        adversarial(min(opts.seconds, MAX_SECONDS / 2), opts.workers,
                    editor_process=not opts.no_editor_process)
    else:
        main()
