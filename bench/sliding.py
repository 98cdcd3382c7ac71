"""Sliding-tile figures: prints the tables, the 15-puzzle and the 24-puzzle side by side.

    .venv/bin/python bench/sliding.py                  # everything except building the big tables
    .venv/bin/python bench/sliding.py --build-big      # also time the 7-8 and 5x5 builds (minutes)
    .venv/bin/python bench/sliding.py --quick          # a short smoke run
    .venv/bin/python bench/sliding.py --korf 100 --k24 50 --no-peer --no-eight
    .venv/bin/python bench/sliding.py --fresh          # what a new user gets (--quick: minutes)

Sections:

* tables: 6-6-3 built from scratch in a child process into a temporary directory; the 7-8
  (4x4) and 6-6-6-6 (5x5) compact tables built the same way with ``--build-big``, else loaded
  from the cache directory (``puzzle prepare sliding`` builds them there). Build time, the
  child's peak memory, size on disk, load time;
* 15-puzzle: Korf's 100 instances (``data/korf15-1-100.txt``, blank-first goal, solved as given)
  with the ``optimal`` solver through the engine (every answer replayed), once with 6-6-3 and
  once with 7-8: lengths against the published optima, total and worst time, nodes expanded and
  generated per instance, nodes per second;
* 24-puzzle: Korf and Felner's 50 instances (``data/korf24-felner-50.txt``, published optima)
  with the default solver (``auto``, which picks ``bounded``) and with ``fast``, 10 s limit each:
  length, proven lower bound, length over the bound and over the optimum, time;
* 8-puzzle: seeded random instances against a breadth-first distance table built here;
* peer: the PyPI package ``slidingpuzzle`` (A* with linear conflict) on the same 15-puzzles and a
  sample of the 8-puzzles, each in a forked child with a per-instance time cap. A bench-only
  tool (``pip install slidingpuzzle --no-deps``), skipped if not installed.

``--fresh`` instead runs the ``puzzle`` command as a new user would, a whole process per
instance, with PUZZLE_ENGINE_CACHE at an empty temporary folder: the first pass over Korf's
15-puzzles (total time, lengths against the published optima; the tables are built inside the
first solve that needs them), then the 24-puzzles with ``--timeout 10`` before any background
build (length over the optimum); then the tables a server builds in the background after it
starts (engine.background's preparer, as ``puzzle serve`` runs it: one core, idle priority; or
``--fresh-build prepare``: ``puzzle prepare sliding --yes``), with the time each table took;
then the same 24-puzzles and 15-puzzles again on that folder: "24-puzzle quality before and
after a background build", all from one run.

Timings depend on the machine's load: say how loaded it was when quoting them.
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

KORF_FILE = ROOT / "data" / "korf15-1-100.txt"
K24_FILE = ROOT / "data" / "korf24-felner-50.txt"


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
    """(number, tiles in the blank-first goal, published optimal length)."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        v = [int(x) for x in line.split()]
        out.append((len(out) + 1, v[:-1], v[-1]))
    return out


def korf_text(tiles) -> str:
    side = int(len(tiles) ** 0.5)
    rows = [" ".join(map(str, tiles[r * side:r * side + side])) for r in range(side)]
    return "/".join(rows) + "; goal: blank-first"


def usual_goal(tiles):
    """The file's conversion: rotate 180 degrees, relabel x -> 16 - x."""
    std = [0] * 16
    for i, t in enumerate(tiles):
        std[15 - i] = 16 - t if t else 0
    return std


# -- pattern database ------------------------------------------------------------------------

def build_child(cache: str, which: str) -> None:
    """Run in a child process: build one set of tables into ``cache``; print JSON figures."""
    os.environ["PUZZLE_ENGINE_CACHE"] = cache
    from plugins.sliding import pdb, pdb_build, pdb_compact
    started, cpu = time.perf_counter(), time.process_time()
    if which == "663":
        pdb.get_tables(4, 4, pdb.PARTITION_4X4)
    elif which == "78":
        pdb_compact.get_tables(4, 4, pdb_compact.PARTITION_4X4_78)
    else:
        pdb_compact.get_tables(5, 5, pdb_compact.PARTITION_5X5)
    print(json.dumps({"seconds": time.perf_counter() - started, "peak_mb": rss_mb(),
                      "cpu": time.process_time() - cpu, "threads": pdb_build.build_threads()}))


def table_files(which: str):
    from plugins.sliding import pdb, pdb_compact
    if which == "663":
        return [pdb.pattern_path(4, 4, p) for p in pdb.PARTITION_4X4]
    part = pdb_compact.PARTITION_4X4_78 if which == "78" else pdb_compact.PARTITION_5X5
    size = 4 if which == "78" else 5
    return [pdb_compact.pattern_path(size, size, p)
            for p in pdb_compact.table_patterns(size, size, part)]


def load_tables(which: str):
    from plugins.sliding import pdb, pdb_compact
    pdb.forget_loaded()
    for key in [k for k in pdb_compact._loaded if k[0] == (4 if which == "78" else 5)]:
        del pdb_compact._loaded[key]        # measure this set's load only
    started = time.perf_counter()
    if which == "663":
        tables = pdb.get_tables(4, 4, pdb.PARTITION_4X4)
    elif which == "78":
        tables = pdb_compact.get_tables(4, 4, pdb_compact.PARTITION_4X4_78, build=False)
    else:
        tables = pdb_compact.get_tables(5, 5, pdb_compact.PARTITION_5X5, build=False)
    return tables, time.perf_counter() - started


LABELS = {"663": "4x4 6-6-3 (dense, 1 byte/entry)", "78": "4x4 7-8 (compact, 4 bits/entry)",
          "55": "5x5 6-6-6-6 (compact, 3 tables)"}


def bench_tables(cache: str, build_big: bool) -> dict:
    """Build (or find) each set of tables; print one line per set. Returns {which: loaded?}."""
    print("Pattern databases")
    print(f"  {'tables':34s} {'build (wall)':>9s} {'peak mem':>9s} {'on disk':>9s} {'load':>7s}")
    found = {}
    user_cache = os.environ.get("PUZZLE_ENGINE_CACHE")   # where `puzzle prepare` put them
    for which in ("663", "78", "55"):
        built = None
        if which == "663" or build_big:
            out = subprocess.run([sys.executable, __file__, "--build-child", cache, which],
                                 check=True, capture_output=True, text=True)
            built = json.loads(out.stdout.strip().splitlines()[-1])
            os.environ["PUZZLE_ENGINE_CACHE"] = cache
        elif user_cache:
            os.environ["PUZZLE_ENGINE_CACHE"] = user_cache
        else:
            os.environ.pop("PUZZLE_ENGINE_CACHE", None)   # the user's cache directory
        files = table_files(which)
        if not all(f.exists() for f in files):
            print(f"  {LABELS[which]:34s} not built (run with --build-big, or "
                  f"`puzzle prepare sliding`)")
            found[which] = False
            continue
        tables, load = load_tables(which)
        disk = sum(f.stat().st_size for f in files)
        build = f"{built['seconds']:.0f} s" if built else "(cached)"
        if built and which != "663":
            build += f" ({built['cpu']:.0f} s CPU, {built['threads']} threads)"
        peak = f"{built['peak_mb']:.0f} MB" if built else ""
        print(f"  {LABELS[which]:34s} {build:>9s} {peak:>9s} {disk / 2**20:>6.0f} MiB "
              f"{load:>6.2f} s   {files[0].parent}")
        found[which] = tables is not None
    os.environ["PUZZLE_ENGINE_CACHE"] = cache
    return found


# -- 15-puzzle ---------------------------------------------------------------------------------

def bench_korf(puzzle, solver, instances, verbose: bool, label: str) -> dict:
    from engine import SolveContext
    from engine.solving import run_solver
    # Warm up the compiled kernels so the first instance is not charged for loading them.
    run_solver(puzzle, solver, puzzle.parse("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"), SolveContext())
    times, nodes, expanded, wrong, heuristics = [], [], [], [], set()
    for number, tiles, optimum in instances:
        board = puzzle.parse(korf_text(tiles))
        report = run_solver(puzzle, solver, board, SolveContext())
        length = len(report.outcome.moves) if report.status == "solved" else None
        times.append(report.seconds)
        nodes.append(report.outcome.stats.get("nodes", 0))
        expanded.append(report.outcome.stats.get("expanded", 0))
        heuristics.add(report.outcome.stats.get("heuristic"))
        if length != optimum or not report.outcome.optimal:
            wrong.append((number, length, optimum))
        if verbose:
            print(f"    #{number:3d}: {length} moves (published {optimum}), "
                  f"{report.seconds:.3f} s, {expanded[-1]:,} expanded")
    total = sum(times)
    worst = max(range(len(times)), key=times.__getitem__)
    ok = len(instances) - len(wrong)
    print(f"  {label:6s} optimal {ok:3d}/{len(instances)}  total {total:6.2f} s  worst "
          f"#{instances[worst][0]:<3d} {times[worst]:6.3f} s  expanded/instance "
          f"{statistics.mean(expanded):>11,.0f}  generated/instance {statistics.mean(nodes):>11,.0f}"
          f"  {sum(nodes) / total / 1e6:5.1f} M generated/s  ({', '.join(sorted(map(str, heuristics)))})"
          + (f"  MISMATCH {wrong}" if wrong else ""))
    return {"total": total, "times": times}


def bench_korf_both(puzzle, solvers, instances, verbose: bool, found: dict) -> dict:
    optimal = solvers["optimal"]
    print(f"15-puzzle, Korf's instances 1-{len(instances)} (blank-first goal as given), solver "
          f"'optimal' through the engine (answers replayed); peak memory so far {rss_mb():.0f} MB")
    optimal.use_78 = False
    small = bench_korf(puzzle, optimal, instances, verbose, "6-6-3")
    optimal.use_78 = True
    if found.get("78"):
        bench_korf(puzzle, optimal, instances, verbose, "7-8")
    else:
        print("  7-8    tables not built: skipped")
    print(f"  peak memory of this process: {rss_mb():.0f} MB")
    return small


# -- 24-puzzle -------------------------------------------------------------------------------------

def bench_24(puzzle, solvers, instances, limit: float, verbose: bool) -> None:
    from engine import SolveContext
    from engine.solving import run_solver
    print(f"24-puzzle, Korf & Felner's instances 1-{len(instances)} (published optima), "
          f"time limit {limit:g} s each")
    default = next(iter(solvers.values()))
    for name, solver in (("default (" + default.name + ")", default), ("fast", solvers.get("fast"))):
        if solver is None:
            continue
        rows = []
        for number, tiles, optimum in instances:
            board = puzzle.parse(korf_text(tiles))
            report = run_solver(puzzle, solver, board, SolveContext.with_timeout(limit))
            if report.status != "solved":
                rows.append((number, None, None, optimum, report.seconds))
                continue
            length = len(report.outcome.moves)
            lb = report.outcome.stats.get("lower_bound")
            rows.append((number, length, lb, optimum, report.seconds))
            if verbose:
                print(f"    #{number:2d}: {length} moves, lower bound {lb}, optimum {optimum}, "
                      f"{report.seconds:.2f} s  {report.outcome.stats.get('rounds', '')}")
        solved = [r for r in rows if r[1] is not None]
        over_opt = [r[1] / r[3] for r in solved]
        over_lb = [r[1] / r[2] for r in solved if r[2]]
        proven = sum(1 for r in solved if r[2] == r[1])
        times = [r[4] for r in rows]
        print(f"  {name:18s} solved {len(solved)}/{len(rows)}  mean length "
              f"{statistics.mean(r[1] for r in solved):6.1f} (optima {statistics.mean(r[3] for r in rows):.1f})"
              f"  length/optimum mean {statistics.mean(over_opt):.3f} max {max(over_opt):.3f}"
              + (f"  length/lower bound mean {statistics.mean(over_lb):.3f} max {max(over_lb):.3f}"
                 f"  proven optimal {proven}" if over_lb else "")
              + f"  time mean {statistics.mean(times):.2f} s max {max(times):.2f} s")


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
    from plugins.sliding.ida_lc import LinearConflictSearch
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


# -- fresh: the puzzle command as a new user runs it ------------------------------------------

def puzzle_json(args, cache) -> tuple[float, dict]:
    """(wall seconds, the JSON answer) of ``puzzle ARGS --json`` with its cache in ``cache``."""
    env = dict(os.environ, PUZZLE_ENGINE_CACHE=str(cache))
    exe = Path(sys.executable).with_name("puzzle")
    started = time.perf_counter()
    done = subprocess.run([str(exe), *args, "--json"], capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    try:
        return seconds, json.loads(done.stdout)
    except ValueError:
        return seconds, {"status": "error", "reason": (done.stderr or done.stdout).strip()[-300:]}


def fresh_korf(instances, cache, label: str) -> None:
    """Korf's 15-puzzles through `puzzle solve sliding` (the default solver), one process each."""
    walls, solver, wrong, builds, heuristics = [], [], [], [], set()
    for number, tiles, optimum in instances:
        wall, answer = puzzle_json(["solve", "sliding", korf_text(tiles)], cache)
        walls.append(wall)
        solver.append(answer.get("seconds") or 0.0)
        stats = answer.get("stats") or {}
        heuristics.add(str(stats.get("heuristic")))
        if answer.get("length") != optimum or not answer.get("optimal"):
            wrong.append((number, answer.get("length"), optimum, answer.get("reason")))
        if stats.get("table_build_seconds"):
            builds.append((number, stats["table_build_seconds"], stats.get("heuristic")))
    ok = len(instances) - len(wrong)
    print(f"  {label}: {ok}/{len(instances)} equal to the published optima; whole processes "
          f"{sum(walls):.1f} s in total (first {walls[0]:.1f} s, median "
          f"{statistics.median(walls):.1f} s), solver {sum(solver):.2f} s in total "
          f"({', '.join(sorted(heuristics))})" + (f"  MISMATCH {wrong}" if wrong else ""), flush=True)
    for number, seconds, heuristic in builds:
        print(f"    tables built inside the solve of #{number} ({heuristic}): {seconds:.1f} s")


def fresh_24(instances, cache, label: str, limit: float) -> dict:
    """Korf and Felner's 24-puzzles through `puzzle solve sliding --timeout LIMIT`; the figures."""
    ratios, walls, bounds, notes, failed = [], [], [], set(), 0
    for _number, tiles, optimum in instances:
        wall, answer = puzzle_json(["solve", "sliding", korf_text(tiles), "--timeout", f"{limit:g}"],
                                   cache)
        walls.append(wall)
        if answer.get("status") != "solved":
            failed += 1
            continue
        ratios.append(answer["length"] / optimum)
        bound = (answer.get("stats") or {}).get("lower_bound")
        if bound:
            bounds.append(answer["length"] / bound)
        note = (answer.get("details") or {}).get("note")
        if note:
            notes.add(note)
    if not ratios:
        print(f"  {label}: none solved")
        return {}
    print(f"  {label}: solved {len(ratios)}/{len(instances)}, length / optimum mean "
          f"{statistics.mean(ratios):.3f} (max {max(ratios):.3f})"
          + (f", length / proven bound mean {statistics.mean(bounds):.3f}" if bounds else "")
          + f"; whole processes mean {statistics.mean(walls):.1f} s", flush=True)
    for note in sorted(notes):
        print(f"    the answer says: {note}")
    return {"ratio": statistics.mean(ratios), "max": max(ratios)}


class TableWatch:
    """When each table file first appeared in a cache folder, seen by looking every second (a
    file is renamed into place whole, so that is its build's end; its modification time is no
    use, the table cache sets it on every use)."""

    def __init__(self, cache: Path):
        self.cache, self.started = cache, time.perf_counter()
        self.seen: dict[tuple[str, int], float] = {}
        self.look()
        self.before = set(self.seen)

    def look(self) -> None:
        for p in self.cache.iterdir():
            if p.is_file() and p.suffix in (".pdb", ".npz") and not p.name.startswith("."):
                self.seen.setdefault((p.name, p.stat().st_ino), time.perf_counter() - self.started)

    def new(self) -> list[tuple[float, str, int]]:
        """(seconds after the start, file name, bytes) of the files that appeared, in order."""
        return sorted((at, name, (self.cache / name).stat().st_size)
                      for (name, ino), at in self.seen.items()
                      if (name, ino) not in self.before and (self.cache / name).exists())


def background_build(cache: Path, how: str) -> None:
    """Build the sliding tables into ``cache`` as a server would after it starts (``how`` =
    "background": engine.background's preparer, one core at idle priority, in a process of its
    own) or as `puzzle prepare sliding --yes` does (every core); print the time each table
    took, the whole wall and CPU time and the peak memory."""
    before_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    watch = TableWatch(cache)
    if how == "prepare":
        exe = Path(sys.executable).with_name("puzzle")
        child = subprocess.Popen([str(exe), "prepare", "sliding", "--yes"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True,
                                 env=dict(os.environ, PUZZLE_ENGINE_CACHE=str(cache)))
        while child.poll() is None:
            watch.look()
            time.sleep(1.0)
        if child.returncode:
            print(f"  puzzle prepare failed: {(child.stderr.read() if child.stderr else '')[-300:]}")
        label = "`puzzle prepare sliding --yes`"
    else:
        from engine.background import BackgroundPreparer
        from engine.jobs import DEFAULT_REGISTRY_FACTORY
        os.environ["PUZZLE_ENGINE_CACHE"] = str(cache)      # the preparing process inherits it
        preparer = BackgroundPreparer(DEFAULT_REGISTRY_FACTORY, ("sliding",))
        preparer.start()
        while not preparer.wait(1.0):
            watch.look()
        preparer.close()
        bad = [s.words() for s in preparer.statuses() if s.state not in ("ready",)]
        if bad:
            print("  not all ready: " + "; ".join(bad))
        label = "the background preparer (as `puzzle serve` runs it: one core, idle priority)"
    watch.look()
    wall = time.perf_counter() - watch.started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before_cpu.ru_utime + before_cpu.ru_stime)
    print(f"  built by {label}: {wall:.0f} s wall, {cpu:.0f} s CPU, peak memory of the largest "
          f"child so far {after.ru_maxrss / 2**20:.2f} GiB")
    last = 0.0
    for at, name, size in watch.new():
        print(f"    {name}: done at {at:.0f} s ({at - last:.0f} s after the one before), "
              f"{size / 2**20:.1f} MiB")
        last = at


def bench_fresh(n_korf: int, n_24: int, limit: float, how: str = "background") -> None:
    print("what a new user gets: `puzzle solve sliding` per instance (a whole process each), "
          "cache folder empty at first; then the tables a server builds after it starts, and "
          "the same runs again")
    with tempfile.TemporaryDirectory(prefix="sliding-fresh-") as folder:
        fresh = Path(folder) / "cache"
        fresh.mkdir()
        instances = korf_instances(KORF_FILE)[:n_korf]
        k24 = korf_instances(K24_FILE)[:n_24]
        print(f"15-puzzle, Korf's instances 1-{n_korf}, default solver, no time limit")
        fresh_korf(instances, fresh, "fresh   ")
        if n_24:
            print(f"24-puzzle quality before and after a background build: Korf & Felner's "
                  f"instances 1-{n_24}, default solver, --timeout {limit:g}")
            before = fresh_24(k24, fresh, "before a background build", limit)
        print("the build" + (" (background)" if how == "background" else ""))
        background_build(fresh, how)
        if n_24:
            after = fresh_24(k24, fresh, "after the build (5x5 tables)", limit)
            if before and after:
                print(f"  24-puzzle length / optimum: {before['ratio']:.3f} before, "
                      f"{after['ratio']:.3f} after")
        fresh_korf(instances, fresh, "after   ")
        files = sorted(p for p in fresh.iterdir() if p.is_file() and not p.name.startswith("."))
        print(f"tables in the cache folder at the end: {len(files)} files, "
              f"{sum(p.stat().st_size for p in files) / 2**20:.0f} MiB")


# -- main --------------------------------------------------------------------------------------

def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short smoke run")
    ap.add_argument("--korf", type=int, help="Korf 15-puzzle instances (default 100)")
    ap.add_argument("--k24", type=int, help="Korf-Felner 24-puzzle instances (default 50)")
    ap.add_argument("--limit", type=float, default=10.0, help="24-puzzle time limit, seconds")
    ap.add_argument("--build-big", action="store_true",
                    help="time building the 7-8 and 5x5 tables from scratch (minutes, ~2 GB)")
    ap.add_argument("--eight", type=int, help="8-puzzle instances (default 1000)")
    ap.add_argument("--no-eight", action="store_true")
    ap.add_argument("--fast-count", type=int, help="random 24-puzzles for `fast` (default 0)")
    ap.add_argument("--peer-cap", type=float, help="peer's per-instance cap, seconds (default 3)")
    ap.add_argument("--peer-eight", type=int, help="8-puzzles for the peer (default 100)")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="one line per instance")
    ap.add_argument("--fresh", action="store_true",
                    help="what a new user gets: the `puzzle` command from an empty cache folder")
    ap.add_argument("--fresh-build", choices=("background", "prepare"), default="background",
                    help="with --fresh: build the tables between the two passes as `puzzle serve` "
                         "does in the background (one core, idle priority; default) or with "
                         "`puzzle prepare sliding --yes` (every core, quicker)")
    ap.add_argument("--build-child", nargs=2, metavar=("DIR", "WHICH"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.build_child:
        build_child(*args.build_child)
        return
    quick = args.quick
    n_korf = args.korf or (5 if quick else 100)
    n_24 = args.k24 if args.k24 is not None else (3 if quick else 50)
    n_eight = args.eight or (100 if quick else 1000)
    cap = args.peer_cap or (1.0 if quick else 3.0)
    peer_eight = args.peer_eight or (10 if quick else 100)

    load = os.getloadavg()[0]
    print(f"bench/sliding.py on {os.cpu_count()} cores (load average {load:.1f}), python "
          f"{sys.version.split()[0]}, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    if args.fresh:
        # Whole processes cost a second or more each: the quick mode keeps to a few minutes.
        bench_fresh(args.korf or (5 if quick else 100),
                    args.k24 if args.k24 is not None else (3 if quick else 50), args.limit,
                    args.fresh_build)
        return
    with tempfile.TemporaryDirectory(prefix="puzzle-pdb-") as cache:
        found = bench_tables(cache, args.build_big)
        puzzle, solvers = engine_objects()
        instances = korf_instances(KORF_FILE)[:n_korf]
        korf = bench_korf_both(puzzle, solvers, instances, args.verbose, found)
        if n_24:
            bench_24(puzzle, solvers, korf_instances(K24_FILE)[:n_24], args.limit, args.verbose)
        eight = []
        if not args.no_eight:
            eight = bench_eight(puzzle, solvers["optimal"], n_eight)
        if args.fast_count and "fast" in solvers:
            bench_fast(puzzle, solvers["fast"], args.fast_count)
        if not args.no_peer:
            bench_peer(instances, korf["times"], eight, cap, peer_eight)


if __name__ == "__main__":
    main()
