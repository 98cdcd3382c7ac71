"""Thin boards with the default solver: shortest answers up to 16 cells, bounds beyond.

For 20 random boards each of 2x5, 2x6, 2x7, 2x8, 3x4 and 3x5 (and two tall shapes, searched
through the transposed tables), prints the mean and worst solve time and the share proved
shortest (target: 100%, mean at most 1 s), plus the one-off build time of each shape's tables.
For 3x6, 4x5 and 3x7 it prints the mean answer length over the proven lower bound.

The solve times are warm (the shape's tables loaded or built first); each line also says what
the tables took to load or build and adds that to the first solve and to the mean, which with
``--fresh`` is what a new user sees (the tables are built on the first board of a shape).

    .venv/bin/python bench/sliding_small.py              # the user's cache folder
    .venv/bin/python bench/sliding_small.py --fresh      # an empty cache, as on a new machine
    .venv/bin/python bench/sliding_small.py --boards 5 --timeout 10
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


def random_board(rows: int, cols: int, rng: random.Random):
    from plugins.sliding.board import Board, is_solvable, standard_goal
    goal = standard_goal(rows, cols)
    while True:
        tiles = list(goal)
        rng.shuffle(tiles)
        board = Board(rows, cols, tuple(tiles), goal)
        if is_solvable(board):
            return board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="time limit per solve in seconds (default 60)")
    parser.add_argument("--fresh", action="store_true",
                        help="point PUZZLE_ENGINE_CACHE at an empty folder first")
    args = parser.parse_args()
    if args.fresh:
        os.environ["PUZZLE_ENGINE_CACHE"] = tempfile.mkdtemp(prefix="sliding-small-")
        print(f"fresh cache: {os.environ['PUZZLE_ENGINE_CACHE']}")

    from engine import SolveContext
    from plugins.sliding import small_boards
    from plugins.sliding.auto import AutoSolver
    from plugins.sliding.board import slide

    solver = AutoSolver()
    rng = random.Random(2026)
    print(f"{args.boards} random boards per shape, default solver, {args.timeout:g} s limit")
    for rows, cols in EXACT_SHAPES:
        wide = small_boards.wide(random_board(rows, cols, rng))
        started = time.perf_counter()
        small_boards.get_tables(wide.rows, wide.cols)
        build = time.perf_counter() - started
        times, proved, nodes = [], 0, []
        for _ in range(args.boards):
            board = random_board(rows, cols, rng)
            started = time.perf_counter()
            outcome = solver.solve(board, SolveContext.with_timeout(args.timeout))
            times.append(time.perf_counter() - started)
            final = board
            for move in outcome.moves:
                final = slide(final, int(move))
            assert final.tiles == board.goal, "an answer that does not replay"
            proved += bool(outcome.optimal)
            nodes.append(outcome.stats.get("nodes", 0))
        # Warm: the tables were loaded or built above. Cold: what a new user sees on a fresh
        # cache, the build added to the first solve (and spread over all the boards).
        print(f"{rows}x{cols}: proved shortest {proved}/{args.boards}, warm mean "
              f"{statistics.mean(times):.2f} s, median {statistics.median(times):.2f} s, worst "
              f"{max(times):.2f} s, mean nodes {statistics.mean(nodes) / 1e6:.2f} M (target "
              f"100%, mean <= 1 s); tables {build:.1f} s to load or build; with them: first "
              f"solve {build + times[0]:.2f} s, mean {(build + sum(times)) / args.boards:.2f} s")
    for rows, cols in BOUNDED_SHAPES:
        gaps, lengths = [], []
        for _ in range(max(1, args.boards // 4)):
            board = random_board(rows, cols, rng)
            outcome = solver.solve(board, SolveContext.with_timeout(min(args.timeout, 20)))
            bound = outcome.stats.get("lower_bound") or 1
            lengths.append(len(outcome.moves))
            gaps.append(len(outcome.moves) / bound)
        print(f"{rows}x{cols}: mean length {statistics.mean(lengths):.1f}, mean length over the "
              f"proven bound {statistics.mean(gaps):.3f}x ({len(gaps)} boards, 20 s each)")


if __name__ == "__main__":
    main()
