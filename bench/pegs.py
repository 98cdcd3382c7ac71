"""Peg solitaire figures: solvers against the textbook DFS, counting, live verdicts.

    .venv/bin/python bench/pegs.py            # everything (several minutes: the baseline is capped)
    .venv/bin/python bench/pegs.py --cap 5    # a shorter cap for the baseline
    .venv/bin/python bench/pegs.py --no-plain # the default solver only
    .venv/bin/python bench/pegs.py --only count      # or: solvers, verdict, fewest (repeatable)
    .venv/bin/python bench/pegs.py --only verdict --positions 2000
    .venv/bin/python bench/pegs.py --fresh    # what a new user gets, from an empty cache folder
    .venv/bin/python bench/pegs.py --fresh --with-prepare  # and `puzzle prepare pegs` (minutes)

``--fresh`` points PUZZLE_ENGINE_CACHE at an empty folder and runs the `puzzle` command, whole
processes timed: the English fewest-moves proof with --timeout 120 (target 90 s or less, the
large table built inside the solve), the same with --timeout 20 in another empty folder (no
room to build: the answer says what would help), and the presets' small tables as
`puzzle serve` prepares them; with ``--with-prepare``, `puzzle prepare pegs --yes` too.

Counting prints the number of solutions, the time and the peak memory (Python allocations
including numpy's, and the process's maximum resident size) beside the published figures.
The live verdict plays random games on the English (goal d4) and European (vacancy c1, goal
e1) boards and judges every position reached, after building each board's table, pagoda
libraries and opening book once, as `puzzle pegs table` does (their time printed separately;
the libraries come from the board alone and the book from every position within seven jumps
of the start, never from these positions); it prints the latency distribution and the share
of "unknown".

Each row: the problem, the answer, the solver's time and positions visited (forward positions +
backward-set positions), then the plain DFS with a visited set (jumps in board order, nothing
else) on the same problem, capped per problem, and the ratio of positions and of time. Every
solution is replayed by the engine (run_solver verifies it).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import SolveContext  # noqa: E402
from engine.solving import run_solver  # noqa: E402
from plugins.pegs.board import PegInstance  # noqa: E402
from plugins.pegs.classes import class_verdict  # noqa: E402
from plugins.pegs.parse import parse_instance  # noqa: E402
from plugins.pegs.presets import PRESETS  # noqa: E402
from plugins.pegs.puzzle import PegSolitaire  # noqa: E402
from plugins.pegs.solver import PlainSolver, SearchSolver  # noqa: E402

PUZZLE = PegSolitaire()
SEARCH = SearchSolver()
PLAIN = PlainSolver()
HOPELESS = ("geometry: square; goal: d4; "
            "board: __o.o__/__ooo__/oo..oo./o.oo.o./oooo.o./__...__/__..o__")


def positions(outcome) -> int:
    stats = outcome.stats
    nodes = stats.get("nodes", 0)
    nodes = nodes if isinstance(nodes, int) else 0
    return nodes + int(stats.get("backward_positions", 0) or 0)


def run(solver, inst, seconds, collect=True):
    """(outcome, wall seconds of the solve, CPU seconds of the solve)."""
    if collect:
        gc.collect()  # the baseline leaves millions of positions behind: do not time their cleanup
    cpu_before = time.thread_time()
    report = run_solver(PUZZLE, solver, inst, SolveContext.with_timeout(seconds))
    return report.outcome, report.seconds, time.thread_time() - cpu_before


def verdict(outcome) -> str:
    if outcome.status == "solved":
        return f"solved, {len(outcome.moves)} jumps"
    if outcome.status == "unsolvable":
        proof = outcome.stats.get("proof")
        return "unsolvable (class)" if proof == "position class" else "unsolvable (search)"
    return f"gave up ({outcome.reason})"


def row(label, insts, cap, plain, limit=600):
    """Solve each instance with both solvers; print one summary line for the group."""
    outs, secs, pos = [], [], []
    for inst in insts:
        o, s, _ = run(SEARCH, inst, limit)
        outs.append(o)
        secs.append(s)
        pos.append(positions(o))
    answer = verdict(outs[0]) if len(outs) == 1 else summarise(outs)
    time_txt = f"{sum(secs):8.3f} s" if len(secs) == 1 else f"{sum(secs):8.3f} s (max {max(secs):.3f})"
    line = f"{label:<44} {answer:<26} {time_txt:<24} {sum(pos):>11,}"
    if plain:
        p_secs, p_pos, capped = 0.0, 0, 0
        for inst in insts:
            o, s, _ = run(PLAIN, inst, cap)
            p_secs += s
            p_pos += positions(o)
            capped += o.status == "gave_up"
        if capped and sum(pos) == 0:
            p_txt = f"> cap ({capped} of {len(insts)} capped at {cap:g} s)"
            ratio = f"search: no positions needed; > {p_secs / max(1e-9, sum(secs)):,.0f}x time"
        elif capped:
            p_txt = f"> cap ({capped} of {len(insts)} capped at {cap:g} s)"
            ratio = f"> {p_pos / max(1, sum(pos)):,.0f}x pos, > {p_secs / max(1e-9, sum(secs)):,.0f}x time"
        else:
            p_txt = f"{p_secs:8.3f} s"
            ratio = f"{p_pos / max(1, sum(pos)):,.1f}x pos, {p_secs / max(1e-9, sum(secs)):,.1f}x time"
        line += f" | {p_txt:<28} {p_pos:>11,}  {ratio}"
    print(line, flush=True)
    return outs, secs


def summarise(outs) -> str:
    solved = sum(o.status == "solved" for o in outs)
    unsolvable = sum(o.status == "unsolvable" for o in outs)
    gave_up = len(outs) - solved - unsolvable
    return f"{solved} solved, {unsolvable} unsolv." + (f", {gave_up} gave up" if gave_up else "")


def european_single_vacancy(distinct_only: bool):
    shape = parse_instance(PRESETS["european"])
    board = shape.board
    seen, out = set(), []
    for s in range(board.n):
        for t in range(board.n):
            start = board.full ^ (1 << s)
            if not class_verdict(board, start, 1 << t).feasible:
                continue
            key = min((perm[s], perm[t]) for perm in board.symmetries())
            if distinct_only and key in seen:
                continue
            seen.add(key)
            out.append(PegInstance("square", shape.rows, shape.cols, shape.holes,
                                   board.to_grid(start), board.to_grid(1 << t)))
    return out


def class_infeasible_problems():
    """Every single-vacancy -> single-peg problem on the presets' boards that fails the class test."""
    out = []
    for name in ("english", "european", "wiegleb", "triangle-5", "triangle-6"):
        shape = parse_instance(PRESETS[name])
        board = shape.board
        for s in range(board.n):
            for t in range(board.n):
                start = board.full ^ (1 << s)
                if not class_verdict(board, start, 1 << t).feasible:
                    out.append(PegInstance(shape.geometry, shape.rows, shape.cols, shape.holes,
                                           board.to_grid(start), board.to_grid(1 << t)))
    return out


def bench_count() -> None:
    import resource
    import tracemalloc

    from plugins.pegs.count import count_solutions

    print("\ncounting every solution (jump sequences to the goal), meeting in the middle")
    cases = [("15-hole triangle, corner vacancy, 1 peg anywhere", PRESETS["triangle-5"],
              "29,760 (brute force)"),
             ("English central game (33 holes)", PRESETS["english"],
              "40,861,647,040,079,968 (published); target <= 60 s, <= 4 GB")]
    for label, text, known in cases:
        inst = PUZZLE.parse(text)
        count_solutions(PUZZLE.parse(PRESETS["triangle-5"]))  # load the compiled kernels first
        tracemalloc.start()
        t0, c0 = time.perf_counter(), time.process_time()
        result = count_solutions(inst)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"  {label:<50} {result.solutions:>26,} solutions  {seconds:7.2f} s (CPU {cpu:.2f} s)  "
              f"peak {peak / 2**20:,.0f} MB traced (process max RSS {rss:,.0f} MB)  "
              f"{result.positions:,} positions up to symmetry, meet at {result.meet_pegs} pegs"
              f"   | quoted: {known}", flush=True)


def random_positions(inst, count, rng):
    """Positions reached by random play from ``inst`` (each move played until stuck)."""
    out = []
    while len(out) < count:
        state = inst
        while len(out) < count:
            moves = PUZZLE.legal_moves(state)
            if not moves:
                break
            state = PUZZLE.apply_move(state, moves[rng.randrange(len(moves))])
            out.append(state)
    return out


def book_progress():
    """A progress callback for one opening book's build: a line per tenth."""
    printed = [-1]

    def show(done) -> None:
        tenth = 10 * done.done // done.total
        if tenth > printed[0]:
            printed[0] = tenth
            print(f"  (building the opening book: {done.done:,} of {done.total:,} positions, "
                  f"{done.seconds:.0f} s)", flush=True)

    return show


def bench_verdict(total: int, budget: float, seed: int = 12) -> None:
    import random

    from plugins.pegs import verdict

    print(f"\nlive verdict (Puzzle.assess, budget {budget * 1000:g} ms) over {total:,} positions "
          f"from random play; target p99 <= 50 ms and <= 1% unknown")
    rng = random.Random(seed)
    every, unknown = [], 0
    for label, name in (("English, goal d4", "english"), ("European, c1 -> e1", "european-c1")):
        inst = PUZZLE.parse(PRESETS[name])
        t0 = time.perf_counter()
        # The large table and the opening book, as `puzzle pegs table` builds them (minutes
        # the first time on the 37-hole board, then loaded from disk).
        judge = verdict.prepare_table(inst, book_progress=book_progress())
        build = time.perf_counter() - t0
        states = random_positions(inst, total // 2, rng)
        lat, cpu, seen = [], [], {"solved": 0, "can": 0, "cannot": 0, "unknown": 0}
        for state in states:
            t, c = time.perf_counter(), time.process_time()
            a = PUZZLE.assess(state, budget=budget)
            lat.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            seen[a.verdict] += 1
        cpu.sort()
        every += lat
        unknown += seen["unknown"]
        lat.sort()
        print(f"  {label:<22} table {judge.backward_size:,} positions up to {judge.top} pegs, "
              f"{len(judge.pagodas)} pagodas (fixed and libraries), opening book {len(judge.book):,} "
              f"positions (built or loaded in {build:.1f} s)")
        print(f"  {'':<22} {len(lat):,} positions: p50 {lat[len(lat) // 2] * 1000:.2f} ms, p90 "
              f"{lat[int(0.9 * len(lat))] * 1000:.2f} ms, p99 {lat[int(0.99 * len(lat))] * 1000:.2f}"
              f" ms, max {lat[-1] * 1000:.2f} ms; can {seen['can']:,}, cannot {seen['cannot']:,}, "
              f"solved {seen['solved']:,}, unknown {seen['unknown']:,} "
              f"({100 * seen['unknown'] / len(lat):.1f}%)", flush=True)
        print(f"  {'':<22} CPU time per verdict (immune to other processes): p50 "
              f"{cpu[len(cpu) // 2] * 1000:.2f} ms, p99 {cpu[int(0.99 * len(cpu))] * 1000:.2f} ms, "
              f"max {cpu[-1] * 1000:.2f} ms", flush=True)
    every.sort()
    print(f"  {'both boards':<22} {len(every):,} positions (random seed {seed}): p99 "
          f"{every[int(0.99 * len(every))] * 1000:.2f} ms, unknown {unknown:,} "
          f"({100 * unknown / len(every):.2f}%)")


def bench_fewest(cap: float = 60.0) -> None:
    from dataclasses import replace

    from plugins.pegs import tables, verdict
    from plugins.pegs.fewest import FewestMovesSolver
    from plugins.pegs.rules import group_jumps
    from plugins.pegs.search import compile_problem

    solver = FewestMovesSolver()
    print(f"\nfewest moves (a move = a chain of jumps by one peg), cap {cap:g} s each; time "
          f"includes loading or building the board's table of positions that can reach the goal")

    def one(label, inst, quoted):
        verdict._judges.clear()  # each problem loads (or builds) its own table, as a fresh run
        t0, c0 = time.perf_counter(), time.process_time()
        report = run_solver(PUZZLE, solver, inst, SolveContext.with_timeout(cap))
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        o = report.outcome
        if o.status == "solved":
            answer = (f"{len(group_jumps(list(o.moves)))} moves"
                      f"{' (proved optimal)' if o.optimal else ''}")
        else:
            answer = f"{o.status} ({o.reason}; lower bound {o.stats.get('bound')})"
        table = (f"table to {o.stats['table_pegs']} pegs" if "table_pegs" in o.stats
                 else "A*")
        print(f"  {label:<46} {answer:<40} {seconds:7.2f} s ({cpu:.2f} s CPU)  "
              f"{o.stats.get('nodes', 0):>10,} positions, {table} | quoted: {quoted}",
              flush=True)
        return o

    tri = "geometry: triangular; goal: {g}; board: ./oo/ooo/oooo/ooooo"
    for start, goal, quoted in (("a1", "a1", "10 (Bell)"), ("c5", "a1", "9 (Bell)"),
                                ("b3", "c5", "11 (Bell)"), ("c5", "c5", "9 (Bell)")):
        inst = PUZZLE.parse(tri.format(g=goal))
        cell = inst.board.cells[inst.board.names.index(start)]
        one(f"15-hole triangle, vacancy {start}, last peg {goal}",
            replace(inst, pegs=inst.holes & ~(1 << cell)), quoted)
    one("21-hole triangle, vacancy a1, one peg anywhere", PUZZLE.parse(PRESETS["triangle-6"]),
        "(Bell: 9 for the best vacancy and finish)")
    one("37-hole board, vacancy c1, last peg e1", PUZZLE.parse(PRESETS["european-c1"]),
        "(where affordable)")
    english = PUZZLE.parse(PRESETS["english"])
    path = tables.cache_path(compile_problem(english), tables.LARGE_POSITIONS)
    if not path.exists():
        t0 = time.perf_counter()
        verdict.prepare_table(english)  # what `puzzle pegs table english` does, once
        print(f"  (built the English table first, as `puzzle pegs table english` does: "
              f"{time.perf_counter() - t0:.1f} s, kept on disk)", flush=True)
    one("English central game (table on disk)", english,
        "18 (Bergholt 1912, Beasley); target found and proved <= 60 s")


def _puzzle(args, cache):
    """(wall seconds, completed process) of `puzzle ARGS` with its cache in ``cache``."""
    import os
    import subprocess

    env = dict(os.environ, PUZZLE_ENGINE_CACHE=str(cache))
    exe = Path(sys.executable).with_name("puzzle")
    t0 = time.perf_counter()
    done = subprocess.run([str(exe), *args], capture_output=True, text=True, env=env)
    return time.perf_counter() - t0, done


def bench_fresh(with_prepare: bool) -> None:
    import json
    import os
    import subprocess
    import tempfile

    print("what a new user gets: each run a whole `puzzle` process, cache folder empty at first")
    with tempfile.TemporaryDirectory(prefix="pegs-fresh-") as folder:
        base = Path(folder)
        for label, limit in (("generous limit", 120), ("tight limit", 20)):
            cache = base / f"cache-{limit}"
            cache.mkdir()
            seconds, done = _puzzle(["solve", "pegs", "english", "--solver", "fewest-moves",
                                     "--timeout", str(limit), "--json"], cache)
            answer = json.loads(done.stdout) if done.stdout.strip() else {}
            stats = answer.get("stats", {})
            if answer.get("status") == "solved":
                result = (f"solved, {answer['details'].get('moves')} moves"
                          f"{' (proved fewest)' if answer.get('optimal') else ''}")
            else:
                result = f"{answer.get('status')} ({answer.get('reason')})"
            built = stats.get("table_build_seconds")
            print(f"  English fewest moves, --timeout {limit} ({label}): {seconds:6.1f} s whole "
                  f"process, solver {answer.get('seconds', 0):.1f} s; {result}; table "
                  f"{stats.get('table_positions', 0):,} positions"
                  + (f", built in the solve in {built:.1f} s" if built else "")
                  + ("; target <= 90 s" if limit == 120 else ""), flush=True)
            note = answer.get("details", {}).get("note")
            if note:
                print(f"    note: {note}")
        cache = base / "cache-prepare"
        cache.mkdir()
        code = ("from engine import SolveContext\nfrom plugins.pegs import prepare\n"
                "prepare.prepare(SolveContext(), False)\n")
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True,
                       env={**os.environ, "PUZZLE_ENGINE_CACHE": str(cache)},
                       cwd=Path(__file__).resolve().parents[1])
        size = sum(f.stat().st_size for f in cache.iterdir() if f.is_file())
        print(f"  the presets' small tables (prepare without big builds, as a server does): "
              f"{time.perf_counter() - t0:.1f} s whole process, {size / 2**20:.1f} MiB", flush=True)
        if with_prepare:
            seconds, done = _puzzle(["prepare", "pegs", "--yes"], cache)
            print(f"  `puzzle prepare pegs --yes` after them: {seconds:.1f} s, exit "
                  f"{done.returncode}", flush=True)
            for line in (done.stdout + done.stderr).splitlines():
                print(f"    {line}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cap", type=float, default=20.0, help="seconds per problem for the plain DFS")
    ap.add_argument("--no-plain", action="store_true", help="skip the textbook baseline")
    ap.add_argument("--only", action="append",
                    choices=("solvers", "count", "verdict", "fewest"),
                    help="run only these parts (default: all)")
    ap.add_argument("--positions", type=int, default=10_000, help="positions for the verdict")
    ap.add_argument("--budget", type=float, default=0.05, help="seconds per verdict")
    ap.add_argument("--seed", type=int, default=12, help="random seed of the verdict's games")
    ap.add_argument("--fresh", action="store_true",
                    help="what a new user gets, from an empty cache folder (about 2 minutes)")
    ap.add_argument("--with-prepare", action="store_true",
                    help="with --fresh: also `puzzle prepare pegs --yes` (several minutes)")
    args = ap.parse_args()
    if args.fresh:
        bench_fresh(args.with_prepare)
        return
    parts = set(args.only or ("solvers", "count", "verdict", "fewest"))
    if "solvers" in parts:
        bench_solvers(args)
    if "count" in parts:
        bench_count()
    if "verdict" in parts:
        bench_verdict(args.positions, args.budget, args.seed)
    if "fewest" in parts:
        bench_fewest()


def bench_solvers(args) -> None:
    plain = not args.no_plain
    print(f"peg solitaire bench; default solver 'search' vs 'plain' DFS with a visited set "
          f"(cap {args.cap:g} s per problem); positions = forward positions + backward set")
    head = f"{'problem':<44} {'answer':<26} {'search time':<24} {'positions':>11}"
    if plain:
        head += f" | {'plain DFS time':<28} {'positions':>11}  ratio (plain / search)"
    print(head)
    print("-" * len(head))

    row("English central game (33 holes)", [PUZZLE.parse(PRESETS["english"])], args.cap, plain)
    row("European central game (37 holes)", [PUZZLE.parse(PRESETS["european"])], args.cap, plain)

    tri = parse_instance(PRESETS["triangle-5"])
    starts = []
    for cell in tri.board.cells:
        starts.append(PegInstance("triangular", tri.rows, tri.cols, tri.holes,
                                  tri.holes & ~(1 << cell), 0))
    row("15-hole triangle, all 15 vacancies, 1 peg", starts, args.cap, plain)

    distinct = european_single_vacancy(distinct_only=True)
    outs, secs = row(f"European single vacancy, {len(distinct)} distinct*", distinct, args.cap, plain)
    every = european_single_vacancy(distinct_only=False)
    outs, secs = row(f"European single vacancy, all {len(every)} pairs", every, args.cap, False)

    row("Wiegleb central game (45 holes)", [PUZZLE.parse(PRESETS["wiegleb"])], args.cap, plain)
    row("hopeless custom (English, 19 pegs, class ok)", [PUZZLE.parse(HOPELESS)], args.cap, plain)

    infeasible = class_infeasible_problems()
    times, cpu, cold = [], [], []
    boards_seen = set()
    for inst in infeasible:
        # CPU time too: immune to other processes on a shared machine.
        outcome, seconds, cpu_used = run(SEARCH, inst, 10, collect=False)
        assert outcome.status == "unsolvable" and outcome.stats.get("proof") == "position class"
        first = inst.holes not in boards_seen  # includes building the board's invariant once
        boards_seen.add(inst.holes)
        if first:
            cold.append(seconds)
        else:
            times.append(seconds)
            cpu.append(cpu_used)
    times.sort()
    print(f"{'class-infeasible problems (' + str(len(infeasible)) + ', 5 boards)':<44} "
          f"{'all unsolvable (class)':<26} solver wall time: mean {statistics.mean(times) * 1000:.3f}"
          f" ms, 99th pct {times[int(0.99 * len(times))] * 1000:.3f} ms, max "
          f"{times[-1] * 1000:.3f} ms (CPU max {max(cpu) * 1000:.3f} ms); "
          f"first problem per board (builds the invariant) max "
          f"{max(cold) * 1000:.3f} ms")
    print("* single-vacancy -> single-survivor problems that pass the class test, one per "
          "symmetry class of (start, finish); the next line runs every pair")


if __name__ == "__main__":
    main()
