"""Lights Out solver timings: prints figures, asserts nothing (speed is not a test).

Run from the repository root:  .venv/bin/python examples/lights-out/bench.py
Per size: the one-off elimination (cached afterwards), then the mean time of a solve over 200
random boards (solvable ones from random(); plus arbitrary ones, mostly unsolvable on sizes
with quiet patterns).
"""

import random
import time

from engine import SolveContext
from puzzle_lights_out.board import Board
from puzzle_lights_out.gf2 import reduce_system
from puzzle_lights_out.puzzle import LightsOut
from puzzle_lights_out.solver import GF2Solver

SIZES = ((3, 3), (4, 4), (5, 5), (7, 7), (9, 9), (10, 10))
BOARDS = 200


def main():
    puzzle, solver = LightsOut(), GF2Solver()
    print(f"{'size':>7} {'k':>2} {'reduce ms':>10} {'solvable us':>12} {'arbitrary us':>13} {'max presses':>12}")
    for rows, cols in SIZES:
        reduce_system.cache_clear()
        t0 = time.perf_counter()
        k = len(reduce_system(rows, cols).null_basis)
        reduce_ms = (time.perf_counter() - t0) * 1e3
        solvable = [puzzle.random(seed, {"size": f"{rows}x{cols}"}) for seed in range(BOARDS)]
        rng = random.Random(1)
        arbitrary = [Board(rows, cols, rng.getrandbits(rows * cols)) for _ in range(BOARDS)]
        timings, longest = [], 0
        for boards in (solvable, arbitrary):
            t0 = time.perf_counter()
            for board in boards:
                outcome = solver.solve(board, SolveContext())
                longest = max(longest, len(getattr(outcome, "moves", ())))
            timings.append((time.perf_counter() - t0) / len(boards) * 1e6)
        print(f"{rows:>3}x{cols:<3} {k:>2} {reduce_ms:>10.2f} {timings[0]:>12.1f} {timings[1]:>13.1f} {longest:>12}")


if __name__ == "__main__":
    main()
