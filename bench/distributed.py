"""Jobs on RQ and Redis: throughput with 1 and 2 workers, enqueue-to-start latency, and the
overhead of a trivial job against the local runner.

    .venv/bin/python bench/distributed.py              # 200 mixed jobs (a few minutes)
    .venv/bin/python bench/distributed.py --jobs 60    # shorter

Starts its own redis-server (Debian's, on a free port, in a temp dir) and `puzzle worker`
processes with every installed plugin, prepared before the clock starts. Then it prints:

1. the same N mixed solve jobs (random 8-puzzles with the optimal solver, random 4x4 boards with
   the fast one, random Lights Out and tangram figures) with 1 worker, then with 2 workers (the
   answer store emptied between runs): jobs per second and the ratio;
2. enqueue-to-start latency (p50, p99) of jobs submitted one at a time to an idle worker;
3. submit-to-done time of a trivial job (an 8-puzzle two moves from solved), RQ against the
   local process pool, and the difference: the overhead per job of the distributed mode.

This machine has 2 cores shared with other work: the ratio and the latencies are pessimistic;
re-run on a quiet machine for real figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from redis_helpers import RedisServer, start_worker, stop  # noqa: E402

from engine.jobs import JobService, LocalProcessRunner, ResultStore  # noqa: E402
from engine.jobs.rq_runner import redis_jobs  # noqa: E402
from engine.plugins import get_registry  # noqa: E402

FACTORY = "engine.plugins:get_registry"


def mixed(registry, n: int, seed: int = 0) -> list[tuple[str, str, str]]:
    """(puzzle, solver, instance) for n jobs, all different."""
    kinds = [("sliding", "optimal", {"size": "3x3"}), ("sliding", "fast", {"size": "4x4"}),
             ("lights_out", "gf2", {"size": "6x6"}), ("tangram", "exact", None)]
    jobs = []
    for i in range(n):
        puzzle_id, solver, options = kinds[i % len(kinds)]
        puzzle = registry.puzzle(puzzle_id)
        jobs.append((puzzle_id, solver, puzzle.format(puzzle.random(seed + i, options))))
    return jobs


def trivial(registry, n: int, seed: int = 0) -> list[tuple[str, str, str]]:
    """n different 8-puzzles a few blank moves from solved (solved in well under a millisecond),
    so none comes from the store and the job's cost is the machinery around it."""
    import random

    rng = random.Random(seed)
    seen: set[str] = set()
    jobs = []
    while len(jobs) < n:
        grid, blank = [1, 2, 3, 4, 5, 6, 7, 8, 0], 8
        for _ in range(rng.randint(2, 10)):
            r, c = divmod(blank, 3)
            options = [(r + dr) * 3 + c + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                       if 0 <= r + dr < 3 and 0 <= c + dc < 3]
            target = rng.choice(options)
            grid[blank], grid[target] = grid[target], grid[blank]
            blank = target
        text = "/".join(" ".join(map(str, grid[i:i + 3])) for i in (0, 3, 6))
        if text not in seen and grid != [1, 2, 3, 4, 5, 6, 7, 8, 0]:
            seen.add(text)
            jobs.append(("sliding", "optimal", text))
    return jobs


def run_all(service: JobService, jobs, timeout: float = 900.0) -> float:
    started = time.perf_counter()
    submitted = [service.submit(p, text, solver, 30) for p, solver, text in jobs]
    pending = {job.id for job in submitted if not job.done}
    deadline = time.monotonic() + timeout
    while pending and time.monotonic() < deadline:
        for job_id in list(pending):
            if service.get(job_id).done:
                pending.discard(job_id)
        time.sleep(0.05)
    if pending:
        raise SystemExit(f"{len(pending)} jobs did not finish")
    return time.perf_counter() - started


def one_by_one(service: JobService, jobs) -> tuple[list[float], list[float]]:
    """Per job: enqueue-to-start and submit-to-done seconds, one job at a time."""
    to_start, to_done = [], []
    for puzzle_id, solver, text in jobs:
        t0 = time.perf_counter()
        job = service.submit(puzzle_id, text, solver, 30)
        while not job.done:
            time.sleep(0.002)
            job = service.get(job.id)
        to_done.append(time.perf_counter() - t0)
        if job.started_at and job.submitted_at:
            to_start.append(max(0.0, job.started_at - job.submitted_at))
    return to_start, to_done


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--trivial", type=int, default=40)
    args = parser.parse_args()
    registry = get_registry()
    jobs = mixed(registry, args.jobs)
    with tempfile.TemporaryDirectory() as tmp:
        server = RedisServer(Path(tmp))
        server.start()
        workers = []
        try:
            runner, store = redis_jobs(server.url, queue="bench", max_queued=args.jobs + 10)
            service = JobService(registry, runner, store)
            rates = {}
            for count in (1, 2):
                store.redis.flushdb()
                while len(workers) < count:
                    workers.append(start_worker(server.url, "bench", factory=FACTORY, prepare=True))
                time.sleep(1)
                run_all(service, trivial(registry, 4, seed=99))  # every worker has prepared and waits
                store.redis.flushdb()
                seconds = run_all(service, jobs)
                rates[count] = args.jobs / seconds
                print(f"{args.jobs} mixed jobs, {count} worker{'s' if count > 1 else ''}: "
                      f"{seconds:7.2f} s   {rates[count]:6.2f} jobs/s")
            print(f"ratio 2 workers / 1 worker: {rates[2] / rates[1]:.2f}x")
            for process in workers[1:]:
                stop(process)
            workers = workers[:1]
            store.redis.flushdb()
            small = trivial(registry, args.trivial)
            to_start, rq_done = one_by_one(service, small)
            print(f"enqueue-to-start ({len(to_start)} jobs, idle worker): "
                  f"p50 {statistics.median(to_start) * 1000:.1f} ms   p99 {pct(to_start, 0.99) * 1000:.1f} ms")
            service.close()
        finally:
            for process in workers:
                stop(process)
            server.stop()
        local = JobService(registry, LocalProcessRunner(workers=1, prepare_solvers=True),
                           ResultStore(Path(tmp) / "results.sqlite3"))
        try:
            local.runner.start()
            one_by_one(local, trivial(registry, 2, seed=98))  # the worker is ready
            _, local_done = one_by_one(local, small)
        finally:
            local.close()
        rq_p50, local_p50 = statistics.median(rq_done), statistics.median(local_done)
        print(f"trivial job submit-to-done, p50: RQ {rq_p50 * 1000:.1f} ms, local pool "
              f"{local_p50 * 1000:.1f} ms: overhead {(rq_p50 - local_p50) * 1000:+.1f} ms per job")


if __name__ == "__main__":
    main()
