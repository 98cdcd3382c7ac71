"""Sliding-tile figures (issue 3): prints the table as measured on this machine.

    .venv/bin/python bench/sliding.py            # everything (a few minutes with the peer)
    .venv/bin/python bench/sliding.py --quick    # a short smoke run
    .venv/bin/python bench/sliding.py --instances 10 --eight 200 --peer-cap 2

Sections:

* pattern database: built from scratch in a child process into a temporary cache directory
  (build time, the child's peak memory), then loaded here (load time, size on disk);
* 15-puzzle: Korf's instances 1-50 (``data/korf15-1-50.txt``, blank-first goal, solved as
  given) with the registered ``optimal`` solver through the engine (every answer replayed):
  lengths against the published optima, total and worst time, nodes, nodes per second, and
  this process's peak memory while solving;
* 8-puzzle: 1,000 seeded random instances against a breadth-first distance table built here;
* ``fast`` solver (if registered): 24-puzzle, 20 seeded random instances, length and length
  over the Manhattan + linear-conflict lower bound; a 20 x 20 random board;
* peer: the PyPI package ``slidingpuzzle`` (A* with linear conflict) on the same 15-puzzle and a
  sample of the 8-puzzle instances, each in a forked child with a per-instance time cap. It is
  a bench-only tool (``pip install slidingpuzzle --no-deps``), skipped if not installed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KORF_FILE = ROOT / "data" / "korf15-1-50.txt"


def rss_mb(who=resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


# -- setup -----------------------------------------------------------------------------------

def engine_objects():
    """The sliding puzzle and its solvers, through the engine registry like any caller."""
    from engine.plugins import get_registry
    registry = get_registry()
    puzzle = registry.puzzle("sliding")
    solvers = {s.name: s for s in registry.solvers("sliding")}
    return puzzle, solvers


def korf_instances(path: Path):
    """(number, 16 tiles in the blank-first goal, published optimal length)."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        v = [int(x) for x in line.split()]
        out.append((len(out) + 1, v[:16], v[16]))
    return out


def korf_text(tiles) -> str:
    rows = [" ".join(map(str, tiles[r * 4:r * 4 + 4])) for r in range(4)]
    return "/".join(rows) + "; goal: blank-first"


def usual_goal(tiles):
    """The file's conversion: rotate 180 degrees, relabel x -> 16 - x."""
    std = [0] * 16
    for i, t in enumerate(tiles):
        std[15 - i] = 16 - t if t else 0
    return std


# -- pattern database ------------------------------------------------------------------------

def build_child(cache: str) -> None:
    """Run in a child process: build the 4x4 databases into ``cache``; print JSON figures."""
    os.environ["PUZZLE_ENGINE_CACHE"] = cache
    from plugins.sliding import pdb
    from plugins.sliding.ida import neighbour_table  # noqa: F401  (import cost outside timing)
    started = time.perf_counter()
    pdb.get_tables(4, 4, pdb.PARTITION_4X4)
    print(json.dumps({"seconds": time.perf_counter() - started, "peak_mb": rss_mb()}))


def bench_pdb(cache: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--build-child", cache], check=True,
                         capture_output=True, text=True)
    built = json.loads(out.stdout.strip().splitlines()[-1])
    os.environ["PUZZLE_ENGINE_CACHE"] = cache
    from plugins.sliding import pdb
    pdb.forget_loaded()
    started = time.perf_counter()
    tables = pdb.get_tables(4, 4, pdb.PARTITION_4X4)
    load = time.perf_counter() - started
    disk = sum(pdb.pattern_path(4, 4, p).stat().st_size for p in pdb.PARTITION_4X4)
    print("Pattern databases (4x4, 6-6-3 + mirrored lookup)")
    print(f"  build (fresh process, empty cache): {built['seconds']:.1f} s, "
          f"peak memory {built['peak_mb']:.0f} MB")
    print(f"  load (from {cache}): {load:.3f} s")
    print(f"  size on disk: {disk / 1e6:.1f} MB in {len(pdb.PARTITION_4X4)} files; "
          f"in memory {tables.nbytes / 1e6:.1f} MB")
    return {"build": built["seconds"], "load": load, "disk": disk}


# -- 15-puzzle ---------------------------------------------------------------------------------

def bench_korf(puzzle, solver, instances, verbose: bool) -> dict:
    from engine import SolveContext
    from engine.solving import run_solver
    # Warm up the compiled kernels so the first instance is not charged for loading them.
    run_solver(puzzle, solver, puzzle.parse("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"), SolveContext())
    times, nodes, expanded, wrong = [], [], [], []
    for number, tiles, optimum in instances:
        board = puzzle.parse(korf_text(tiles))
        report = run_solver(puzzle, solver, board, SolveContext())
        length = len(report.outcome.moves) if report.status == "solved" else None
        times.append(report.seconds)
        nodes.append(report.outcome.stats.get("nodes", 0))
        expanded.append(report.outcome.stats.get("expanded", 0))
        if length != optimum or not report.outcome.optimal:
            wrong.append((number, length, optimum))
        if verbose:
            print(f"    #{number:2d}: {length} moves (published {optimum}), "
                  f"{report.seconds:.3f} s, {nodes[-1]:,} nodes")
    total = sum(times)
    worst = max(range(len(times)), key=times.__getitem__)
    print(f"15-puzzle, Korf's instances 1-{len(instances)} (blank-first goal as given), "
          f"solver {solver.name!r}")
    print(f"  lengths equal to the published optimum: {len(instances) - len(wrong)}/{len(instances)}"
          + (f"  MISMATCH {wrong}" if wrong else ""))
    print(f"  total {total:.2f} s, worst #{instances[worst][0]} {times[worst]:.3f} s, "
          f"median {statistics.median(times) * 1000:.1f} ms")
    print(f"  nodes: mean {statistics.mean(nodes):,.0f} generated, {statistics.mean(expanded):,.0f} "
          f"expanded per instance; {sum(nodes) / total / 1e6:.1f} M generated nodes/s "
          f"(whole solve time, engine replay included)")
    print(f"  peak memory of this process after solving: {rss_mb():.0f} MB")
    return {"total": total, "times": times}


# -- 8-puzzle ----------------------------------------------------------------------------------

def bfs_table(goal):
    nbrs = {b: [q for q in (b - 3, b + 3, b - 1, b + 1)
                if 0 <= q < 9 and (q // 3 == b // 3 or q % 3 == b % 3)] for b in range(9)}
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        s = queue.popleft()
        d = dist[s] + 1
        b = s.index(0)
        for q in nbrs[b]:
            t = list(s)
            t[b], t[q] = t[q], 0
            t = tuple(t)
            if t not in dist:
                dist[t] = d
                queue.append(t)
    return dist


def bench_eight(puzzle, solver, count: int) -> list:
    from engine import SolveContext
    from engine.solving import run_solver
    started = time.perf_counter()
    dist = bfs_table((1, 2, 3, 4, 5, 6, 7, 8, 0))
    table_s = time.perf_counter() - started
    run_solver(puzzle, solver, puzzle.parse("1 2 3/4 5 6/7 0 8"), SolveContext())  # warm up
    times, bad, boards = [], 0, []
    for seed in range(count):
        board = puzzle.random(seed, {"size": "3x3"})
        report = run_solver(puzzle, solver, board, SolveContext())
        times.append(report.seconds)
        bad += len(report.outcome.moves) != dist[tuple(board.tiles)]
        boards.append(board)
    print(f"8-puzzle, {count} seeded random instances (seeds 0-{count - 1}), solver {solver.name!r}")
    print(f"  optimal (equal to the breadth-first distance; table of {len(dist):,} states built "
          f"in {table_s:.2f} s): {count - bad}/{count}")
    print(f"  median {statistics.median(times) * 1000:.2f} ms, mean "
          f"{statistics.mean(times) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms")
    return list(zip(boards, times))


# -- fast solver -------------------------------------------------------------------------------

def bench_fast(puzzle, solver, count: int) -> None:
    from engine import SolveContext
    from engine.solving import run_solver
    from plugins.sliding.ida import LinearConflictSearch
    lengths, ratios, times, failed = [], [], [], 0
    solver.prepare(SolveContext())  # as `puzzle prepare` does before serving
    for seed in range(count):
        board = puzzle.random(seed, {"size": "5x5"})
        report = run_solver(puzzle, solver, board, SolveContext.with_timeout(10))
        times.append(report.seconds)
        if report.status != "solved":
            failed += 1
            continue
        bound = LinearConflictSearch(board.tiles, 5, 5, board.goal).root_h()
        lengths.append(len(report.outcome.moves))
        ratios.append(len(report.outcome.moves) / bound)
    print(f"24-puzzle, {count} seeded random instances (seeds 0-{count - 1}), solver {solver.name!r}, "
          f"10 s each")
    print(f"  solved {count - failed}/{count}; max {max(times):.2f} s, mean {statistics.mean(times):.2f} s")
    if lengths:
        print(f"  mean length {statistics.mean(lengths):.1f}; mean length / lower bound "
              f"(Manhattan + linear conflict) {statistics.mean(ratios):.3f}")
    board = puzzle.random(0, {"size": "20x20"})
    report = run_solver(puzzle, solver, board, SolveContext.with_timeout(60))
    length = len(report.outcome.moves) if report.status == "solved" else None
    print(f"20x20 random (seed 0), solver {solver.name!r}: {report.status}, {report.seconds:.2f} s, "
          f"{length} moves (replayed by the engine)")


# -- peer --------------------------------------------------------------------------------------

def _peer_child(rows, tiles, conn):
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # keep A* from eating the machine
    import slidingpuzzle
    board = slidingpuzzle.from_rows(*[tiles[r * rows:(r + 1) * rows] for r in range(rows)])
    started = time.perf_counter()
    try:
        result = slidingpuzzle.search(board, "a*")
        conn.send((time.perf_counter() - started, len(result.solution)))
    except MemoryError:
        conn.send((None, "memory"))


def run_peer(rows, tiles, cap):
    """(seconds, length) for the peer, or (None, why) past the cap."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_peer_child, args=(rows, list(tiles), child))
    proc.start()
    if parent.poll(cap):
        out = parent.recv()
    else:
        out = (None, f"over {cap:g} s")
    proc.kill()
    proc.join()
    return out


def bench_peer(instances, korf_times, eight, cap: float, eight_count: int) -> None:
    try:
        import slidingpuzzle  # noqa: F401
        version = getattr(__import__("slidingpuzzle.__about__").__about__, "__version__", "?")
    except ImportError:
        print("Peer: slidingpuzzle is not installed (pip install slidingpuzzle --no-deps); skipped")
        return
    print(f"Peer: slidingpuzzle {version} (PyPI; A* with linear conflict, pure Python), "
          f"per-instance cap {cap:g} s")
    for label, rows, cases in (
        ("8-puzzle", 3, [(list(b.tiles), t) for b, t in eight[:eight_count]]),
        ("15-puzzle Korf", 4, [(usual_goal(tiles), t) for (_, tiles, _), t in zip(instances, korf_times)]),
    ):
        solved, peer_sum, ours_sum, capped_peer, capped_ours = 0, 0.0, 0.0, 0.0, 0.0
        for tiles, ours in cases:
            seconds, length = run_peer(rows, tiles, cap)
            if seconds is not None:
                solved += 1
                peer_sum += seconds
                ours_sum += ours
            capped_peer += seconds if seconds is not None else cap
            capped_ours += ours
        line = f"  {label}: peer solved {solved}/{len(cases)} within the cap"
        if solved:
            line += (f"; on those, peer {peer_sum:.2f} s vs ours {ours_sum:.3f} s "
                     f"(peer/ours = {peer_sum / ours_sum:,.0f}x)")
        if solved < len(cases):
            line += (f"; all {len(cases)}, unsolved counted at the cap: peer >= {capped_peer:.1f} s "
                     f"vs ours {capped_ours:.2f} s (ratio >= {capped_peer / capped_ours:,.0f}x)")
        print(line)


# -- main --------------------------------------------------------------------------------------

def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short smoke run")
    ap.add_argument("--instances", type=int, help="Korf instances to solve (default 50)")
    ap.add_argument("--eight", type=int, help="8-puzzle instances (default 1000)")
    ap.add_argument("--fast-count", type=int, help="24-puzzle instances for `fast` (default 20)")
    ap.add_argument("--peer-cap", type=float, help="peer's per-instance cap, seconds (default 3)")
    ap.add_argument("--peer-eight", type=int, help="8-puzzles for the peer (default 100)")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="one line per Korf instance")
    ap.add_argument("--build-child", metavar="DIR", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.build_child:
        build_child(args.build_child)
        return
    quick = args.quick
    n_korf = args.instances or (5 if quick else 50)
    n_eight = args.eight or (100 if quick else 1000)
    n_fast = args.fast_count or (3 if quick else 20)
    cap = args.peer_cap or (1.0 if quick else 3.0)
    peer_eight = args.peer_eight or (10 if quick else 100)

    print(f"bench/sliding.py on {os.cpu_count()} cores, python {sys.version.split()[0]}, "
          f"{time.strftime('%Y-%m-%d %H:%M:%S')}")
    with tempfile.TemporaryDirectory(prefix="puzzle-pdb-") as cache:
        bench_pdb(cache)
        puzzle, solvers = engine_objects()
        instances = korf_instances(KORF_FILE)[:n_korf]
        korf = bench_korf(puzzle, solvers["optimal"], instances, args.verbose)
        eight = bench_eight(puzzle, solvers["optimal"], n_eight)
        if "fast" in solvers:
            bench_fast(puzzle, solvers["fast"], n_fast)
        else:
            print("fast solver: not registered; skipped")
        if not args.no_peer:
            bench_peer(instances, korf["times"], eight, cap, peer_eight)


if __name__ == "__main__":
    main()
