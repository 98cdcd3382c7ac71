"""Pagoda functions found by linear programming (``plugins.pegs.lp``) against independent facts.

- small boards: every position is decided by the exhaustive oracle of ``test_pegs_verdict``; a
  weighting must only ever be returned for a position that cannot reach the goal, and must be a
  pagoda for the jumps recomputed from the drawing (``brute_jumps``);
- Farkas: no pagoda refutes a position the programme leaves alone, so every position that the
  goal's fixed pagodas refute must be refuted by it too;
- the 37-hole board: every position along a solution replayed through the rules can reach the
  goal, so neither the programme nor the board's library may refute one.
"""

from __future__ import annotations

import random

import pytest
from test_pegs_solver import brute_jumps
from test_pegs_verdict import BOARDS, oracle

from engine import SolveContext
from engine.solving import run_solver
from plugins.pegs import lp
from plugins.pegs.parse import parse_instance
from plugins.pegs.presets import PRESETS
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.search import compile_problem
from plugins.pegs.solver import SearchSolver

pytestmark = pytest.mark.skipif(not lp.AVAILABLE, reason="scipy is not installed")
PUZZLE = PegSolitaire()
GOAL_BOARDS = [text for text in BOARDS if "goal: any" not in text]


def is_pagoda_on_drawing(inst, weights) -> bool:
    """The pagoda inequality for every jump recomputed from the drawing (grid cells)."""
    compact = {cell: k for k, cell in enumerate(inst.board.cells)}
    return all(weights[compact[a]] + weights[compact[b]] >= weights[compact[c]]
               for a, b, c in brute_jumps(inst))


@pytest.mark.parametrize("text", GOAL_BOARDS)
def test_a_refutation_is_a_true_pagoda_and_the_position_is_dead(text):
    inst = parse_instance(text)
    board = inst.board
    truth = oracle(inst)
    solver = lp.PagodaLP(board)
    goal = board.to_compact(inst.goal)
    fixed = compile_problem(inst).pagodas
    refuted = by_fixed = 0
    for grid in random.Random(5).sample(sorted(truth), min(700, len(truth))):
        pos = board.to_compact(grid)
        pagoda = solver.refute(pos, goal)
        if any(pg.value(pos) < pg.value(goal) for pg in fixed):
            by_fixed += 1
            assert pagoda is not None, "a fixed pagoda refutes it, so the programme must"
        if pagoda is None:
            continue
        refuted += 1
        assert not truth[grid], f"refuted a position that can reach the goal: {grid:b}"
        assert is_pagoda_on_drawing(inst, pagoda.weights)
        assert pagoda.value(pos) < pagoda.value(goal)
    assert refuted > by_fixed  # it finds more than the fixed pagodas


def test_positions_along_a_solution_are_never_refuted():
    inst = PUZZLE.parse(PRESETS["european-c1"])
    report = run_solver(PUZZLE, SearchSolver(), inst, SolveContext.with_timeout(60))
    assert report.outcome.status == "solved"  # run_solver replays the jumps through the rules
    board = inst.board
    goal = board.to_compact(inst.goal)
    solver = lp.PagodaLP(board)
    library = lp.pagoda_library(board, goal, samples=150)
    assert library
    for pg in library:
        assert is_pagoda_on_drawing(inst, pg.weights)
    state = inst
    for move in report.outcome.moves:
        pos = board.to_compact(state.pegs)
        assert solver.refute(pos, goal) is None
        assert all(pg.value(pos) >= pg.value(goal) for pg in library)
        state = PUZZLE.apply_move(state, move)
    assert PUZZLE.is_solved(state)


def test_the_library_is_the_same_every_time():
    board = parse_instance(GOAL_BOARDS[1]).board
    goal = board.to_compact(parse_instance(GOAL_BOARDS[1]).goal)
    first = lp.pagoda_library(board, goal, samples=120)
    assert first and first == lp.pagoda_library(board, goal, samples=120)


def test_no_goal_peg_means_no_programme():
    board = parse_instance(BOARDS[1]).board  # "one peg anywhere"
    assert lp.PagodaLP(board).refute(board.full, 0) is None
    assert lp.pagoda_library(board, 0) == []


@pytest.mark.parametrize("text", GOAL_BOARDS)
def test_the_table_library_holds_true_pagodas(text):
    """Weights aimed at a table's bound are pagodas for the drawing's jumps (their bound itself
    is computed by the judge and checked by the verdict tests)."""
    from plugins.pegs.judge import Judge

    inst = parse_instance(text)
    judge = Judge(inst, 200)
    library = lp.table_library(inst.board, judge.levels[judge.top], samples=40)
    assert library
    for pg in library:
        assert is_pagoda_on_drawing(inst, pg.weights)
