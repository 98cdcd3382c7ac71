"""Figures for the sliding-tile `fast` solver (not a test: it prints what it measures).

    .venv/bin/python bench/sliding_fast.py            # everything (about a minute)
    .venv/bin/python bench/sliding_fast.py --quick    # fewer instances

Prints, per board family: instances, worst and mean seconds, mean length, and the mean ratio of
length to the Manhattan + linear-conflict lower bound (and, for Korf's 15-puzzles, to the
published optimum). Every solution is replayed through the puzzle's rules before it counts.
``run(quick)`` returns the figures as a dict, for bench/sliding.py.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import SolveContext, Solved, replay  # noqa: E402
from plugins.sliding.board import Board, blank_first_goal  # noqa: E402
from plugins.sliding.fast import FastSolver  # noqa: E402
from plugins.sliding.heuristics import lower_bound  # noqa: E402
from plugins.sliding.puzzle import SlidingPuzzle  # noqa: E402

KORF = ROOT / "data" / "korf15-1-50.txt"
PUZZLE = SlidingPuzzle()
FAST = FastSolver()


def korf_instances(limit: int) -> list[tuple[Board, int]]:
    """Korf's instances (blank-first goal, as published) with their optimal lengths."""
    out = []
    for line in KORF.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            numbers = list(map(int, line.split()))
            out.append((Board(4, 4, tuple(numbers[:16]), blank_first_goal(4, 4)), numbers[16]))
    return out[:limit]


def measure(name: str, boards: list[Board], optima: list[int] | None = None, timeout: float = 60
            ) -> dict:
    times, lengths, ratios, opt_ratios, methods = [], [], [], [], {}
    for i, board in enumerate(boards):
        started = time.perf_counter()
        outcome = FAST.solve(board, SolveContext.with_timeout(timeout))
        seconds = time.perf_counter() - started
        if not isinstance(outcome, Solved):
            raise SystemExit(f"{name} #{i}: {outcome}")
        if not PUZZLE.is_solved(replay(PUZZLE, board, outcome.moves)[-1]):
            raise SystemExit(f"{name} #{i}: the solution does not reach the goal")
        times.append(seconds)
        lengths.append(len(outcome.moves))
        ratios.append(len(outcome.moves) / max(1, lower_bound(board)))
        if optima:
            opt_ratios.append(len(outcome.moves) / optima[i])
        method = outcome.stats.get("method", "?")
        methods[method] = methods.get(method, 0) + 1
    row = {
        "family": name, "instances": len(boards), "worst_s": max(times), "mean_s": statistics.mean(times),
        "mean_length": statistics.mean(lengths), "mean_length_over_bound": statistics.mean(ratios),
        "methods": methods,
    }
    if opt_ratios:
        row["mean_length_over_optimum"] = statistics.mean(opt_ratios)
    extra = (f"  length/optimum {row['mean_length_over_optimum']:.3f}" if opt_ratios else "")
    print(f"{name:<28} n={len(boards):<3} worst {row['worst_s']:7.3f} s  mean {row['mean_s']:7.3f} s  "
          f"mean length {row['mean_length']:9.1f}  length/bound {row['mean_length_over_bound']:.3f}"
          f"{extra}  [{', '.join(f'{k}: {v}' for k, v in methods.items())}]", flush=True)
    return row


def random_boards(size: str, count: int, seed0: int = 0) -> list[Board]:
    return [PUZZLE.random(seed0 + i, {"size": size}) for i in range(count)]


def run(quick: bool = False) -> dict:
    """Measure every family; returns {family: figures}."""
    k = 3 if quick else 1
    figures = {}
    plan = [
        ("8-puzzle (3x3) random", random_boards("3x3", 100 // k)),
        ("15-puzzle Korf 1-50", None),
        ("24-puzzle (5x5) random", random_boards("5x5", 20 // k, 1000)),
        ("10x10 random", random_boards("10x10", 20 // k)),
        ("20x20 random", random_boards("20x20", 10 // k)),
        ("32x32 random", random_boards("32x32", 5 // k or 1)),
        ("2x32 random", random_boards("2x32", 5 // k or 1)),
    ]
    for name, boards in plan:
        if boards is None:
            korf = korf_instances(50 // k)
            figures[name] = measure(name, [b for b, _ in korf], [o for _, o in korf])
        else:
            figures[name] = measure(name, boards)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer instances per family")
    args = parser.parse_args(argv)
    print("sliding `fast` solver (targets: 10x10 well under 1 s, 20x20 <= 2 s, 24-puzzle <= 10 s each)")
    run(args.quick)


if __name__ == "__main__":
    main()
