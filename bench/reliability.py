"""Reliability figures: memory and time of checking answers, tangram end to end, bounded stdin.

    .venv/bin/python bench/reliability.py            # everything (~1-2 minutes)
    .venv/bin/python bench/reliability.py --quick    # skip the 32 x 32 solve (uses no cache)

Prints:
  1. peak RSS of `puzzle solve` on the 32 x 32 board of `puzzle random sliding --seed 11
     --size 32x32` with `--solver fast` (target <= 400 MB), and of `puzzle list` for reference
     (what loading the plugins costs);
  2. the time to check that solution (~83,000 moves) with engine.solving.verify_solution, and
     the per-move replay (iter_states) for comparison (target: well under 1 s);
  3. tangram parse + solve + check through engine.solving.solve over the 161 figures of
     bench/tangram_figures.py: median and max, wall and CPU time (target: median <= 10 ms);
  4. peak RSS of `puzzle solve sliding -` fed 100 MB on stdin (it reads the limit + 1 only);
  5. job API latency while another process holds the SQLite write lock: runs the job system's
     own bench (JOB_LOCK_BENCH below, bench/jobs_store_lock.py) when it is there.

Peak RSS is ru_maxrss of the command and the children it waited for (the CLI solves in a child
process), read by a small wrapper process. Times on a busy machine are pessimistic; CPU times
are less so.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PUZZLE = [sys.executable, "-m", "engine.cli"]
#: Runs a command (argv after -c) and prints the peak RSS of it and its waited-for children.
_PEAK = ("import resource, subprocess, sys\n"
         "stdin = open(sys.argv[1], 'rb') if sys.argv[1] != '-' else None\n"
         "done = subprocess.run(sys.argv[2:], stdin=stdin, stdout=subprocess.PIPE, "
         "stderr=subprocess.PIPE)\n"
         "sys.stdout.write(f'{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss} "
         "{done.returncode}\\n')\n"
         "sys.stdout.buffer.write(done.stdout)\n")
#: Where the job system's lock benchmark lives, when it exists (section 5).
JOB_LOCK_BENCH = ROOT / "bench" / "jobs_store_lock.py"


def peak_rss(args: list[str], stdin_path: str = "-") -> tuple[float, int, bytes]:
    """(peak RSS in MB, exit code, stdout) of running ``args``."""
    out = subprocess.run([sys.executable, "-c", _PEAK, stdin_path, *args], capture_output=True,
                         check=True).stdout
    head, _, body = out.partition(b"\n")
    kb, code = head.split()
    return int(kb) / 1024, int(code), body


def section_32x32(quick: bool) -> tuple[str, list[str]] | None:
    text = subprocess.run(PUZZLE + ["random", "sliding", "--seed", "11", "--size", "32x32"],
                          capture_output=True, text=True, check=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    base, _, _ = peak_rss(PUZZLE + ["list"])
    print(f"   plugins loaded (`puzzle list`): peak {base:.0f} MB")
    if quick:
        print("   (--quick: 32 x 32 solve skipped)")
        return None
    mb, code, out = peak_rss(PUZZLE + ["solve", "sliding", "-", "--solver", "fast", "--json"], f.name)
    os.unlink(f.name)
    report = json.loads(out)
    print(f"   solve + check of the 32 x 32 board (seed 11), --solver fast: peak {mb:.0f} MB "
          f"(target <= 400), exit {code}, {report['length']:,} moves, solver {report['seconds']:.2f} s")
    return text, report["moves"]


def section_check(case) -> None:
    from engine.plugins import get_registry
    from engine.solving import iter_states, verify_solution
    if case is None:
        print("   (no solution: run without --quick)")
        return
    text, moves = case
    puzzle = get_registry().puzzle("sliding")
    instance = puzzle.parse(text)
    runs = []
    for _ in range(3):
        t = time.perf_counter()
        verify_solution(puzzle, instance, moves, "fast")
        runs.append(time.perf_counter() - t)
    print(f"   verify_solution, {len(moves):,} moves: median {statistics.median(runs) * 1000:.0f} ms "
          f"of 3 (target well under 1 s)")
    t = time.perf_counter()
    for _ in iter_states(puzzle, instance, moves):
        pass
    print(f"   for comparison, move by move (iter_states): {time.perf_counter() - t:.2f} s")


def section_tangram() -> None:
    from bench.tangram_figures import figures
    from engine.plugins import get_registry
    from engine.solving import solve
    from plugins.tangram.assembly import random_assembly
    from plugins.tangram.silhouette import format_silhouette

    registry = get_registry()
    for seed in range(5000, 5020):  # warm up (imports, caches) on figures not measured
        solve(registry, "tangram", format_silhouette(random_assembly(seed)[0]))
    walls, cpus = [], []
    figs = figures()
    for name, text in figs:
        w, c = time.perf_counter(), time.process_time()
        report = solve(registry, "tangram", text, timeout=30)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        if report.status != "solved":
            print(f"   ! {name}: {report.status}")
    print(f"   {len(figs)} figures, parse + solve + check: median {statistics.median(walls) * 1000:.1f} ms, "
          f"max {max(walls) * 1000:.1f} ms wall; median {statistics.median(cpus) * 1000:.1f} ms, "
          f"max {max(cpus) * 1000:.1f} ms CPU (target: median <= 10 ms)")


def section_stdin() -> None:
    with tempfile.NamedTemporaryFile("wb", delete=False) as f:
        chunk = b"1 2 3 " * 100_000
        while f.tell() < 100_000_000:
            f.write(chunk)
        path = f.name
    try:
        mb, code, _ = peak_rss(PUZZLE + ["solve", "sliding", "-"], path)
    finally:
        os.unlink(path)
    print(f"   `puzzle solve sliding -` with 100 MB on stdin: peak {mb:.0f} MB, exit {code} "
          f"(2: refused after reading the limit + 1 characters)")


def section_sqlite_lock() -> None:
    if JOB_LOCK_BENCH.exists():
        subprocess.run([sys.executable, str(JOB_LOCK_BENCH), "--jobs", "20"], check=False)
    else:
        print(f"   not measured here: the job system's bench ({JOB_LOCK_BENCH.name}) prints it")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip the 32 x 32 solve")
    args = ap.parse_args()
    print("1. peak memory of the 32 x 32 check")
    case = section_32x32(args.quick)
    print("2. check time of the 32 x 32 solution")
    section_check(case)
    print("3. tangram end to end")
    section_tangram()
    print("4. CLI peak memory on 100 MB of stdin")
    section_stdin()
    print("5. job API latency under an outside SQLite write lock")
    section_sqlite_lock()


if __name__ == "__main__":
    main()
