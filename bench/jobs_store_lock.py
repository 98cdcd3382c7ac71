"""Job API latency while another process holds the SQLite store's write lock.

    .venv/bin/python bench/jobs_store_lock.py            # 40 jobs, lock held throughout
    .venv/bin/python bench/jobs_store_lock.py --jobs 100

Starts the web app (in process, 2 local workers, the toy "pairs" puzzle from tests/ so the solves
themselves cost nothing) on a fresh data directory. Then, once with the store free and once
while another process holds ``BEGIN IMMEDIATE`` on it, it submits jobs one after another and
polls each until done, timing every submit and poll. Before the fix, each finishing job stalled
submits and polls for SQLite's 5 s busy timeout and its answer was dropped silently; now writes
happen outside the runner's lock and are retried once the lock is gone. It prints p50 / p99 /
max latency, and how many answers were stored after the lock was released.
Timings on a shared machine are pessimistic: re-run on a quiet one.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from pairs_toy import TOY_FACTORY, toy_registry  # noqa: E402

from web import create_app  # noqa: E402

LOCKER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
"""


def ms(values):
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(round(0.99 * (len(values) - 1))))]
    return (f"p50 {statistics.median(values) * 1000:7.1f} ms   p99 {p99 * 1000:7.1f} ms   "
            f"max {values[-1] * 1000:7.1f} ms")


def run(client, jobs: int, offset: int) -> tuple[list[float], list[float]]:
    submits, polls = [], []
    for i in range(jobs):
        bits = format(offset + i, "020b")
        if bits.count("1") % 2:
            bits = "1" + bits[1:] if bits[0] == "0" else "0" + bits[1:]
        started = time.perf_counter()
        job = client.post("/api/pairs/jobs", json={"instance": bits, "solver": "sweep"}).get_json()
        submits.append(time.perf_counter() - started)
        while not job["done"]:
            time.sleep(0.01)
            started = time.perf_counter()
            job = client.get(f"/api/jobs/{job['id']}").get_json()
            polls.append(time.perf_counter() - started)
    return submits, polls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        app = create_app({"REGISTRY": toy_registry(), "REGISTRY_FACTORY": TOY_FACTORY,
                          "DATA_DIR": data, "JOB_WORKERS": 2})
        service = app.extensions["puzzle_jobs"]
        service.runner.start()
        client = app.test_client()
        run(client, 4, 900_000)  # warm up the workers
        submits, polls = run(client, args.jobs, 0)
        print(f"store free       submit {ms(submits)}")
        print(f"                 poll   {ms(polls)}")
        before = service.store.count()
        locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(Path(data) / "results.sqlite3")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert locker.stdout.readline().strip() == "locked"
            started = time.perf_counter()
            submits, polls = run(client, args.jobs, 100_000)
            held = time.perf_counter() - started
            stored_while_locked = service.store.count() - before
            print(f"store locked     submit {ms(submits)}")
            print(f"                 poll   {ms(polls)}")
            print(f"  {args.jobs} jobs done in {held:.2f} s with the lock held; "
                  f"answers stored meanwhile: {stored_while_locked}")
        finally:
            locker.stdin.write("\n")
            locker.stdin.close()
            locker.wait()
        deadline = time.monotonic() + 60
        while service.store.count() < before + args.jobs and time.monotonic() < deadline:
            time.sleep(0.1)
        print(f"  after release: {service.store.count() - before} of {args.jobs} answers stored, "
              f"{len(service.later.pending())} writes still waiting")
        service.close()


if __name__ == "__main__":
    main()
