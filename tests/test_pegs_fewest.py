"""The ``fewest-moves`` solver against a plain breadth-first search over moves and against
George Bell's published catalogue of the 15-hole triangle.

The BFS below builds every move (a chain of jumps by one peg) explicitly from jumps recomputed
from the drawing, and searches positions level by level: it shares nothing with the solver's
A* over (position, last landing hole) and its lower bound.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_pegs_solver import brute_jumps

from engine import SolveContext, replay
from engine.solving import run_solver
from plugins.pegs.fewest import FewestMovesSolver
from plugins.pegs.parse import parse_instance
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.rules import group_jumps

PUZZLE = PegSolitaire()


@pytest.fixture(autouse=True)
def private_cache(monkeypatch, tmp_path):
    """The solver's small-board tables go to a temporary cache, not the user's."""
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))


SOLVER = FewestMovesSolver()
TRIANGLE_5 = "./oo/ooo/oooo/ooooo"


def bfs_fewest_moves(inst) -> int | None:
    jumps = brute_jumps(inst)

    def is_goal(pos):
        return pos == inst.goal if inst.goal else pos.bit_count() == 1

    def chains(pos):
        """Every position one move away: each peg, each chain of its jumps."""
        out = set()
        for a0 in range(inst.rows * inst.cols):
            if not pos >> a0 & 1:
                continue
            todo = [(pos, a0)]
            while todo:
                cur, at = todo.pop()
                for a, b, c in jumps:
                    if a == at and cur >> b & 1 and not cur >> c & 1:
                        nxt = cur & ~(1 << a) & ~(1 << b) | (1 << c)
                        if nxt not in out:
                            out.add(nxt)
                            todo.append((nxt, c))
        return out

    level, seen, depth = {inst.pegs}, {inst.pegs}, 0
    while level:
        if any(is_goal(p) for p in level):
            return depth
        nxt = set()
        for pos in level:
            for child in chains(pos):
                if child not in seen:
                    seen.add(child)
                    nxt.add(child)
        level, depth = nxt, depth + 1
    return None


def vacancy(text, hole):
    inst = parse_instance(text)
    cell = inst.board.cells[inst.board.names.index(hole)]
    return replace(inst, pegs=inst.holes & ~(1 << cell))


SMALL = [
    vacancy("geometry: triangular; goal: any; board: ./oo/ooo/oooo", "a1"),
    vacancy("geometry: triangular; goal: a4; board: ./oo/ooo/oooo", "b3"),
    vacancy(f"geometry: triangular; goal: any; board: {TRIANGLE_5}", "a1"),
    vacancy(f"geometry: triangular; goal: any; board: {TRIANGLE_5}", "b3"),
    parse_instance("geometry: square; goal: c2; board: ooooo/oo.oo/ooooo"),
    parse_instance("geometry: square; goal: any; board: _ooo_/ooooo/oo.oo/_ooo_"),
    parse_instance("geometry: diagonal; goal: any; board: oooo/o.oo/oooo"),
    parse_instance("geometry: square; goal: b2; board: .oo/ooo/oo_"),
]


@pytest.mark.parametrize("inst", SMALL, ids=lambda i: PUZZLE.format(i)[:60])
def test_agrees_with_a_plain_bfs_over_moves(inst):
    expected = bfs_fewest_moves(inst)
    report = run_solver(PUZZLE, SOLVER, inst, SolveContext.with_timeout(60))
    if expected is None:
        assert report.outcome.status == "unsolvable"
        return
    assert report.outcome.status == "solved" and report.outcome.optimal
    states = replay(PUZZLE, inst, list(report.outcome.moves))
    assert PUZZLE.is_solved(states[-1])
    assert len(group_jumps(list(report.outcome.moves))) == expected
    data = report.to_json()
    assert data["details"]["moves"] == expected
    assert len(data["details"]["grouped"]) == expected


# George I. Bell, catalogue of the 15-hole triangular board (gibell.net/pegsolitaire/Catalogs/
# Triangular15): the shortest solution, in moves, of single vacancy -> single survivor problems.
BELL = [("a1", "a1", 10), ("a4", "a1", 10), ("c5", "a1", 9), ("c5", "b3", 10),
        ("b3", "c5", 11), ("c5", "c5", 9), ("a1", "a4", 11), ("d4", "a4", 11)]


@pytest.mark.parametrize("start,finish,moves", BELL)
def test_triangle_matches_bells_catalogue(start, finish, moves):
    inst = vacancy(f"geometry: triangular; goal: {finish}; board: {TRIANGLE_5}", start)
    outcome = run_solver(PUZZLE, SOLVER, inst, SolveContext.with_timeout(120)).outcome
    assert outcome.status == "solved" and outcome.optimal
    assert len(group_jumps(list(outcome.moves))) == moves


def test_gives_up_without_claiming_optimality():
    inst = parse_instance("geometry: square; goal: d4; "
                          "board: __ooo__/__ooo__/ooooooo/ooo.ooo/ooooooo/__ooo__/__ooo__")
    outcome = SOLVER.solve(inst, SolveContext.with_timeout(0.3))
    assert outcome.status == "gave_up"
    assert outcome.stats["bound"] >= 1


# -- the breadth-first search over chain moves (boards of at most 64 holes) ------------------

from plugins.pegs import chainbfs, tables, verdict  # noqa: E402
from plugins.pegs.fewest import fewest_moves  # noqa: E402
from plugins.pegs.presets import PRESETS  # noqa: E402

PATTERN = parse_instance(PRESETS["triangle-corners"])  # a goal of two pegs, not one


def solve_checked(inst, expected):
    """Solve with the default path and check it against ``expected`` (the plain BFS)."""
    outcome = run_solver(PUZZLE, SOLVER, inst, SolveContext.with_timeout(60)).outcome
    if expected is None:
        assert outcome.status == "unsolvable"
        return outcome
    assert outcome.status == "solved" and outcome.optimal
    assert outcome.stats["method"] == "breadth-first over chain moves"
    states = replay(PUZZLE, inst, list(outcome.moves))
    assert PUZZLE.is_solved(states[-1])
    assert len(group_jumps(list(outcome.moves))) == expected == outcome.stats["moves"]
    return outcome


def test_a_goal_pattern_agrees_with_a_plain_bfs():
    solve_checked(PATTERN, bfs_fewest_moves(PATTERN))


@pytest.mark.parametrize("inst", SMALL[2:7] + [PATTERN], ids=lambda i: PUZZLE.format(i)[:60])
def test_partial_table_and_growing_tables_agree(inst, monkeypatch):
    """A table that stops a few pegs short of the start (positions above it pruned by pagodas
    only), a visited table and level arrays that must grow many times: same answer, and the
    unsolvable ones are refuted by running out of positions."""
    monkeypatch.setattr(tables, "LIVE_POSITIONS", 40)
    monkeypatch.setattr(chainbfs, "TABLE_BITS", 3)
    monkeypatch.setattr(chainbfs, "LEVEL_MIN", 2)
    verdict._judges.clear()
    try:
        judge = verdict.judge_for(inst, wait=True)
        assert judge.top < inst.board.to_compact(inst.pegs).bit_count()
        outcome = solve_checked(inst, bfs_fewest_moves(inst))
        assert outcome.stats["method"] == "breadth-first over chain moves"
    finally:
        verdict._judges.clear()  # the tiny table must not serve later tests


def test_position_cap_gives_up_with_a_proved_bound(monkeypatch):
    inst = SMALL[2]
    expected = bfs_fewest_moves(inst)
    monkeypatch.setattr(chainbfs, "MAX_POSITIONS", 30)
    outcome = run_solver(PUZZLE, SOLVER, inst, SolveContext.with_timeout(60)).outcome
    assert outcome.status == "gave_up"
    assert 1 <= outcome.stats["bound"] <= expected
    assert outcome.stats["nodes"] <= 30


@pytest.mark.parametrize("inst", [SMALL[0], SMALL[4], PATTERN], ids=("tri4", "rect", "pattern"))
def test_the_a_star_fallback_agrees_with_a_plain_bfs(inst):
    """Boards over 64 holes use A*: check it on small ones by calling it directly."""
    moves, count, _ = fewest_moves(inst, SolveContext.with_timeout(60))
    expected = bfs_fewest_moves(inst)
    if expected is None:
        assert moves is None
        return
    assert count == expected == len(group_jumps(moves))
    assert PUZZLE.is_solved(replay(PUZZLE, inst, moves)[-1])
