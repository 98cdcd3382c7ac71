"""Thin boards with the default solver: shortest answers up to 16 cells, bounds beyond.

For 20 random boards each of 2x5, 2x6, 2x7, 2x8, 3x4 and 3x5 (and two tall shapes, searched
through the transposed tables), prints the mean and worst solve time and the share proved
shortest (target: 100%, mean at most 1 s), plus the one-off build time of each shape's tables.
For 3x6, 4x5 and 3x7 it prints the mean answer length over the proven lower bound.

The solves come after the shape's tables are loaded or built (with ``--fresh``: built then, on
an empty cache, so the first solve is the cold one); each line says what the tables took apart,
and the mean with that build spread over the boards (a new user's first boards pay it). A table
of the per-shape figures follows. ``--compare-2x8`` instead runs IDA* alone with each of the 2 x 8
partition sets tried, on the same boards (how the default set was picked).

    .venv/bin/python bench/sliding_small.py              # the user's cache folder
    .venv/bin/python bench/sliding_small.py --fresh      # an empty cache, as on a new machine
    .venv/bin/python bench/sliding_small.py --boards 5 --timeout 10
    .venv/bin/python bench/sliding_small.py --fresh --blank-mid    # goals with the blank mid-edge

``--blank-mid`` solves towards goals whose blank is not in a corner: the middle of the bottom row
(of the right-hand column on a tall board), tiles in order around it, each shape's tables for
that goal built first; the 4 x 4 is added (its goal's blank mid-edge, so it gets such tables too).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

EXACT_SHAPES = [(2, 5), (2, 6), (3, 4), (2, 7), (3, 5), (2, 8), (5, 3), (8, 2)]
BOUNDED_SHAPES = [(3, 6), (4, 5), (3, 7)]


def _temporary_cache(prefix: str) -> str:
    """An empty folder for the tables, removed when the bench ends."""
    import atexit
    import shutil
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, True)
    return folder


def mid_goal(rows: int, cols: int) -> tuple[int, ...]:
    """Tiles 1, 2, ... row by row around a blank in the middle of the long bottom edge (of the
    right-hand column on a tall board)."""
    blank = (rows - 1) * cols + cols // 2 if cols >= rows else (rows // 2) * cols + cols - 1
    return tuple(0 if c == blank else c + 1 if c < blank else c for c in range(rows * cols))


def random_board(rows: int, cols: int, rng: random.Random, blank_mid: bool = False):
    from plugins.sliding.board import Board, is_solvable, standard_goal
    goal = mid_goal(rows, cols) if blank_mid else standard_goal(rows, cols)
    while True:
        tiles = list(goal)
        rng.shuffle(tiles)
        board = Board(rows, cols, tuple(tiles), goal)
        if is_solvable(board):
            return board


#: Partition sets tried for the 2 x 8 (``--compare-2x8``): strips of these sizes in goal order.
CANDIDATES_2X8 = {
    "6-6-3 | 6-3-6 | 3-6-6": ((6, 6, 3), (6, 3, 6), (3, 6, 6)),
    "6-6-3 | 6-3-6": ((6, 6, 3), (6, 3, 6)),
    "6-6-3 | 3-6-6": ((6, 6, 3), (3, 6, 6)),
    "5-5-5 | 6-6-3": ((5, 5, 5), (6, 6, 3)),
    "5-5-5 | 6-6-3 | 6-3-6": ((5, 5, 5), (6, 6, 3), (6, 3, 6)),
}


def compare_2x8(boards: int, cap: float) -> None:
    """IDA* alone on the same random 2 x 8 boards with each partition set of
    :data:`CANDIDATES_2X8`, in a private empty cache: each set's build time (its distinct
    tables, one thread, as a fresh solve builds them), and per board the first solve after the
    build and the mean, worst and nodes; every set must find the same lengths."""
    from plugins.sliding import pdb, small_boards
    from plugins.sliding.optimal import goal_mapping

    os.environ["PUZZLE_ENGINE_CACHE"] = _temporary_cache("sliding-2x8-")
    os.environ["PUZZLE_ENGINE_BUILD_THREADS"] = "1"
    rows, cols = 2, 8
    tiles = small_boards._strip_order(rows, cols)
    rng = random.Random(2026)
    sample = [random_board(rows, cols, rng) for _ in range(boards)]
    built: dict = {}

    def table(pattern):
        if pattern not in built:
            started = time.perf_counter()
            built[pattern] = (pdb.load_or_build(rows, cols, pattern), time.perf_counter() - started)
        return built[pattern]

    lengths: dict = {}
    print(f"2x8: {boards} random boards (seed 2026), IDA* alone, {cap:g} s cap per board, "
          f"tables built on one thread")
    for name, sizes in CANDIDATES_2X8.items():
        parts = tuple(small_boards._cut(tiles, s) for s in sizes)
        distinct = list(dict.fromkeys(p for part in parts for p in part))
        tables = {p: table(p)[0] for p in distinct}
        build = sum(table(p)[1] for p in distinct)
        joined = small_boards.PartitionTables.join(rows, cols, parts, tables)
        times, nodes, capped = [], [], 0
        for k, board in enumerate(sample):
            mapping = goal_mapping(board)
            search = small_boards.PartitionSearch(mapping.tiles(board.tiles), rows, cols, joined)
            started = time.perf_counter()
            path = search.run(lambda _s, _t=started: time.perf_counter() - _t > cap)
            times.append(time.perf_counter() - started)
            nodes.append(search.stats()["nodes"])
            if path is None:
                capped += 1
                continue
            assert lengths.setdefault(k, len(path)) == len(path), "sets disagree on a length"
        size = sum(t.nbytes for t in tables.values()) / 1e6
        print(f"  {name:24s} build {build:5.1f} s ({len(distinct)} tables, {size:.0f} MB)  first "
              f"solve {times[0]:.2f} s  mean {statistics.mean(times):.3f} s  median "
              f"{statistics.median(times):.3f} s  worst {max(times):.2f} s  mean nodes "
              f"{statistics.mean(nodes) / 1e6:.2f} M" + (f"  CAPPED {capped}" if capped else ""),
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="time limit per solve in seconds (default 60)")
    parser.add_argument("--fresh", action="store_true",
                        help="point PUZZLE_ENGINE_CACHE at an empty folder first")
    parser.add_argument("--compare-2x8", action="store_true",
                        help="only: compare the 2x8 partition sets on the same boards")
    parser.add_argument("--blank-mid", action="store_true",
                        help="goals with the blank mid-edge, not in a corner (and the 4x4)")
    args = parser.parse_args()
    if args.compare_2x8:
        compare_2x8(args.boards, args.timeout)
        return
    if args.fresh:
        os.environ["PUZZLE_ENGINE_CACHE"] = _temporary_cache("sliding-small-")
        print(f"fresh cache: {os.environ['PUZZLE_ENGINE_CACHE']}")

    from engine import SolveContext
    from plugins.sliding import small_boards
    from plugins.sliding.auto import AutoSolver
    from plugins.sliding.board import slide

    solver = AutoSolver()
    rng = random.Random(2026)
    mid = args.blank_mid
    print(f"{args.boards} random boards per shape, default solver, {args.timeout:g} s limit"
          + (", goals with the blank mid-edge" if mid else ""))
    summary = []
    for rows, cols in EXACT_SHAPES + ([(4, 4)] if mid else []):
        aim = small_boards.target(random_board(rows, cols, rng, mid))
        started = time.perf_counter()
        small_boards.get_tables(aim.rows, aim.cols, blank=aim.blank)
        build = time.perf_counter() - started
        times, proved, nodes = [], 0, []
        for _ in range(args.boards):
            board = random_board(rows, cols, rng, mid)
            started = time.perf_counter()
            outcome = solver.solve(board, SolveContext.with_timeout(args.timeout))
            times.append(time.perf_counter() - started)
            final = board
            for move in outcome.moves:
                final = slide(final, int(move))
            assert final.tiles == board.goal, "an answer that does not replay"
            proved += bool(outcome.optimal)
            nodes.append(outcome.stats.get("nodes", 0))
        # The solves come after the tables were loaded or built (with --fresh: built just
        # now, on an empty cache: the first solve is the cold one). The build is said apart,
        # and also spread over the boards, as a new user's first boards of a shape pay it.
        summary.append((f"{rows}x{cols}", proved, statistics.mean(times), max(times), build))
        print(f"{rows}x{cols}: proved shortest {proved}/{args.boards}, mean "
              f"{statistics.mean(times):.2f} s, median {statistics.median(times):.2f} s, worst "
              f"{max(times):.2f} s, first solve after the tables {times[0]:.2f} s, mean nodes "
              f"{statistics.mean(nodes) / 1e6:.2f} M (target 100%, mean <= 1 s); tables "
              f"{build:.1f} s to {'build' if args.fresh else 'load or build'}, apart (spread "
              f"over the boards: mean {(build + sum(times)) / args.boards:.2f} s)", flush=True)
    print("\n| board | proved shortest | mean | worst | tables, built apart |")
    print("|---|---|---|---|---|")
    for shape, proved, mean, worst, build in summary:
        print(f"| {shape} | {proved}/{args.boards} | {mean:.2f} s | {worst:.2f} s | {build:.1f} s |")
    for rows, cols in ([] if mid else BOUNDED_SHAPES):
        gaps, lengths = [], []
        for _ in range(max(1, args.boards // 4)):
            board = random_board(rows, cols, rng)
            outcome = solver.solve(board, SolveContext.with_timeout(min(args.timeout, 20)))
            bound = outcome.stats.get("lower_bound") or 1
            lengths.append(len(outcome.moves))
            gaps.append(len(outcome.moves) / bound)
        print(f"{rows}x{cols}: mean length {statistics.mean(lengths):.1f}, mean length over the "
              f"proven bound {statistics.mean(gaps):.3f}x, max {max(gaps):.3f}x ({len(gaps)} "
              f"boards, {min(args.timeout, 20):g} s each)", flush=True)


if __name__ == "__main__":
    main()
