"""The `fast` sliding-tile solver: every answer replays, unsolvable boards are refused at once,
and the context's deadline, cancellation and progress are honoured."""

from __future__ import annotations

import random
import threading
import time

import pytest

from engine import GaveUp, SolveContext, Solved, Unsolvable, replay
from plugins.sliding.board import Board, blank_first_goal, is_solvable, parse_board
from plugins.sliding.fast import FastSolver
from plugins.sliding.heuristics import lower_bound
from plugins.sliding.puzzle import PRESETS, SlidingPuzzle, shuffled
from plugins.sliding.reduction import Reducer
from plugins.sliding.shorten import cancel_undos

PUZZLE = SlidingPuzzle()
FAST = FastSolver()


def solve_and_replay(board: Board, seconds: float = 60) -> tuple[str, ...]:
    outcome = FAST.solve(board, SolveContext.with_timeout(seconds))
    assert isinstance(outcome, Solved), outcome
    states = replay(PUZZLE, board, outcome.moves)          # every move legal ...
    assert PUZZLE.is_solved(states[-1])                     # ... and the goal reached
    assert len(outcome.moves) >= lower_bound(board)         # no answer beats an admissible bound
    # Each slide moves the blank one cell, so the length's parity is fixed by the blank's trip.
    start_blank, goal_blank = board.tiles.index(0), board.goal.index(0)
    trip = abs(start_blank // board.cols - goal_blank // board.cols) + \
        abs(start_blank % board.cols - goal_blank % board.cols)
    assert len(outcome.moves) % 2 == trip % 2
    assert outcome.optimal is False
    return outcome.moves


@pytest.mark.parametrize("size, seed", [
    ("3x3", 0), ("3x3", 1), ("4x4", 0), ("4x4", 1), ("5x5", 0), ("6x6", 0), ("6x6", 1),
    ("2x2", 0), ("2x6", 0), ("6x2", 1), ("3x7", 0), ("7x3", 1), ("4x6", 0), ("2x9", 0), ("9x3", 0),
])
def test_random_boards_are_solved_and_replay(size, seed):
    solve_and_replay(PUZZLE.random(seed, {"size": size}))


def test_a_12x12_board_is_solved_and_replays():
    board = PUZZLE.random(12, {"size": "12x12"})
    moves = solve_and_replay(board)
    assert len(moves) < 6 * lower_bound(board)  # the reduction stays within a small factor


@pytest.mark.parametrize("rows, cols, goal_kind", [
    (4, 4, "blank-first"), (8, 8, "blank-first"), (7, 7, "centre"), (6, 9, "centre"), (9, 5, "edge"),
])
def test_other_goals_are_reached(rows, cols, goal_kind):
    rng = random.Random(rows * 100 + cols)
    if goal_kind == "blank-first":
        goal = blank_first_goal(rows, cols)
    else:
        tiles = list(range(1, rows * cols))
        rng.shuffle(tiles)
        at = (rows // 2) * cols + cols // 2 if goal_kind == "centre" else cols  # "edge": row 2, left
        tiles.insert(at, 0)
        goal = tuple(tiles)
    solve_and_replay(shuffled(rows, cols, goal, rng))


def test_the_reduction_alone_solves_small_and_odd_shapes():
    # Boards the weighted search would normally take, forced through the reduction.
    for size in ("3x3", "4x4", "5x5", "3x4", "4x3", "2x5", "5x2"):
        for seed in range(4):
            board = PUZZLE.random(seed, {"size": size})
            moves = cancel_undos(Reducer(board).solve())
            assert PUZZLE.is_solved(replay(PUZZLE, board, [str(m) for m in moves])[-1])


def test_presets_and_a_hard_15_puzzle():
    for name in ("8-puzzle", "15-puzzle", "24-puzzle", "3x5", "hard-8", "korf-1"):
        moves = solve_and_replay(parse_board(PRESETS[name]))
        if name == "hard-8":
            assert len(moves) >= 31   # the known optimum
        if name == "korf-1":
            assert len(moves) >= 57


def test_unsolvable_boards_are_answered_at_once_with_the_reason():
    for text in ("2 1 3/4 5 6/7 8 0", "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0"):
        started = time.perf_counter()
        outcome = FAST.solve(parse_board(text), SolveContext())
        assert isinstance(outcome, Unsolvable)
        assert "cannot be solved" in outcome.reason and "inversions" in outcome.reason
        assert time.perf_counter() - started < 0.5
    big = PUZZLE.random(3, {"size": "32x32"})
    tiles = list(big.tiles)
    a, b = [i for i, t in enumerate(tiles) if t][:2]
    tiles[a], tiles[b] = tiles[b], tiles[a]
    broken = Board(32, 32, tuple(tiles), big.goal)
    assert not is_solvable(broken)
    assert isinstance(FAST.solve(broken, SolveContext()), Unsolvable)


def test_solved_board_needs_no_moves():
    outcome = FAST.solve(parse_board("1 2 3/4 5 6/7 8 0"), SolveContext())
    assert isinstance(outcome, Solved) and outcome.moves == ()


def test_cancellation_and_deadline_give_up_and_progress_is_reported():
    board = PUZZLE.random(5, {"size": "5x5"})
    flag = threading.Event()
    flag.set()
    assert isinstance(FAST.solve(board, SolveContext(cancel=flag)), GaveUp)
    outcome = FAST.solve(PUZZLE.random(5, {"size": "30x30"}), SolveContext(deadline=time.monotonic()))
    assert isinstance(outcome, GaveUp) and outcome.reason == "deadline"
    reports = []
    ctx = SolveContext(on_progress=reports.append, progress_interval=0)
    assert isinstance(FAST.solve(PUZZLE.random(2, {"size": "4x4"}), ctx), Solved)
    assert reports and all("nodes" in r for r in reports)


def test_a_short_deadline_does_not_wait_for_numba_to_compile(monkeypatch):
    from plugins.sliding import wastar

    if wastar.fast_kernel is None:
        pytest.skip("numba is not available")

    class NotCompiledYet:
        signatures = []

    monkeypatch.setattr(wastar.fast_kernel, "wastar", NotCompiledYet)
    assert wastar.use_compiled(SolveContext()) is True                        # no deadline: compile
    assert wastar.use_compiled(SolveContext.with_timeout(5)) is False          # 5 s: Python search
    assert wastar.use_compiled(SolveContext.with_timeout(60)) is True


def test_both_searches_with_weight_1_find_shortest_paths_on_the_8_puzzle():
    from sliding_reference import bfs_distances  # the breadth-first table of every 3x3 position

    from plugins.sliding import wastar

    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    dist = bfs_distances(3, 3, goal)
    for seed in range(12):
        board = PUZZLE.random(seed)
        python = wastar.weighted_astar(3, 3, board.tiles, goal, 1.0, 10**6)
        assert len(python) == dist[board.tiles]
        if wastar.fast_kernel is not None:
            compiled = wastar.compiled_astar(3, 3, board.tiles, goal, 1.0, 10**6, {})
            assert len(compiled) == dist[board.tiles]
            assert PUZZLE.is_solved(replay(PUZZLE, board, [str(t) for t in compiled])[-1])
    # Weighted answers are longer at most by the weight's factor (a property of weighted A*).
    for seed in range(6):
        board = PUZZLE.random(seed)
        moves = wastar.search(3, 3, board.tiles, goal, 2.0, 10**6, None, {})
        assert len(moves) <= 2 * dist[board.tiles]


def test_the_pure_python_search_still_solves_when_the_compiled_one_is_unavailable(monkeypatch):
    from plugins.sliding import fast, wastar

    monkeypatch.setattr(wastar, "fast_kernel", None)
    assert wastar.use_compiled() is False
    assert fast.schedule_for(4, 4, False) == dict(fast.PY_SCHEDULES)[16]
    for size in ("4x4", "3x4", "7x7"):
        solve_and_replay(PUZZLE.random(3, {"size": size}))


def test_prepare_makes_the_compiled_search_available_under_short_deadlines():
    """Web workers solve under a 10 s limit: after prepare they must not fall back to Python.

    Run in a fresh process, where the kernel is not loaded yet (in this one other tests may
    have loaded it already)."""
    import subprocess
    import sys
    code = (
        "from engine import SolveContext\n"
        "from plugins.sliding import fast, wastar\n"
        "if wastar.fast_kernel is None: raise SystemExit(3)\n"
        "assert not wastar.use_compiled(SolveContext.with_timeout(5)), 'loaded before prepare'\n"
        "assert fast.FastSolver().prepare(SolveContext()) is True\n"
        "assert wastar.use_compiled(SolveContext.with_timeout(5)), 'not loaded by prepare'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    if result.returncode == 3:
        pytest.skip("numba is not available")
    assert result.returncode == 0, result.stderr
