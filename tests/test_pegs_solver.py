"""Peg solitaire solvers, checked against replay and an independent brute force.

The brute force below does not use the plugin's jump tables: it recomputes jumps from the
drawing's coordinates, so a bug in the board tables, the class invariant, the symmetry
reduction or the search shows up as a disagreement.
"""

from __future__ import annotations

import threading

import pytest

from engine import GaveUp, SolveContext, Solved, Unsolvable, replay
from plugins.pegs.board import PegInstance
from plugins.pegs.classes import class_verdict
from plugins.pegs.parse import parse_instance
from plugins.pegs.presets import PRESETS
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.search import compile_problem
from plugins.pegs.solver import PlainSolver, SearchSolver, search

PUZZLE = PegSolitaire()
SEARCH = SearchSolver()
SMALL_HOPELESS = ("geometry: square; goal: d4; "
                  "board: __o.o__/__.oo__/......o/.o..ooo/.oo.o.o/__ooo__/__o..__")

# -- an independent brute force --------------------------------------------------------------

STEPS = {
    "square": [(0, 1), (1, 0), (0, -1), (-1, 0)],
    "diagonal": [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)],
    "triangular": [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, -1)],
}


def brute_jumps(inst: PegInstance) -> list[tuple[int, int, int]]:
    holes = {(cell // inst.cols, cell % inst.cols) for cell in range(inst.rows * inst.cols)
             if inst.holes >> cell & 1}
    out = []
    for r, c in holes:
        for dr, dc in STEPS[inst.geometry]:
            if (r + dr, c + dc) in holes and (r + 2 * dr, c + 2 * dc) in holes:
                out.append(tuple((r + k * dr) * inst.cols + c + k * dc for k in range(3)))
    return out


def reachable(inst: PegInstance) -> set[int]:
    """Every position (grid bitboard) reachable from the start."""
    jumps = brute_jumps(inst)
    seen = {inst.pegs}
    todo = [inst.pegs]
    while todo:
        pos = todo.pop()
        for a, b, c in jumps:
            if pos >> a & 1 and pos >> b & 1 and not pos >> c & 1:
                nxt = pos & ~(1 << a) & ~(1 << b) | (1 << c)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    return seen


def single_vacancy_problems(preset_board: str, geometry: str):
    """(start instance with each single vacancy, its reachable set)."""
    shape = parse_instance(f"geometry: {geometry}; board: {preset_board}")
    holes = [cell for cell in range(shape.rows * shape.cols) if shape.holes >> cell & 1]
    for vacancy in holes:
        start = PegInstance(geometry, shape.rows, shape.cols, shape.holes,
                            shape.holes & ~(1 << vacancy), 0)
        yield start, holes, reachable(start)


SMALL_BOARDS = [
    ("./oo/ooo/oooo/ooooo", "triangular"),        # the 15-hole triangle
    ("oooo/oooo/oooo", "diagonal"),               # 3 x 4 with diagonal jumps
    ("_ooo_/ooooo/ooooo/_ooo_", "square"),        # a small custom cross
]
#: On the 3 x 4 diagonal board every hole is in every position's class (diagonal jumps mix
#: the classes), so the invariant rejects nothing there; on the others it must reject some.
CLASS_REJECTS_SOME = {"triangular": True, "diagonal": False, "square": True}


def check_replay(inst: PegInstance, outcome) -> PegInstance:
    states = replay(PUZZLE, inst, list(outcome.moves))
    assert PUZZLE.is_solved(states[-1])
    return states[-1]


# -- the figures of the issue, as facts ---------------------------------------------------------


def test_english_central_game_is_solved_in_31_jumps_ending_at_d4():
    inst = PUZZLE.parse(PRESETS["english"])
    outcome = SEARCH.solve(inst, SolveContext.with_timeout(30))
    assert isinstance(outcome, Solved) and len(outcome.moves) == 31
    final = check_replay(inst, outcome)
    assert final.pegs == 1 << (3 * 7 + 3)  # one peg, in d4


def test_european_central_game_is_unsolvable_by_position_class_with_the_reason_in_words():
    outcome = SEARCH.solve(PUZZLE.parse(PRESETS["european"]), SolveContext.with_timeout(30))
    assert isinstance(outcome, Unsolvable)
    assert outcome.stats["proof"] == "position class" and outcome.stats["nodes"] == 0
    # One plain sentence first; the proof (and what to try instead) behind it.
    assert outcome.reason == "No: from this start, no single peg can end on d4."
    assert "position classes" in outcome.detail.lower()
    assert "No single-vacancy start on this board can finish at d4" in outcome.detail
    assert "vacancy c1 -> e1 or b4 or e4 or e7" in outcome.detail


def test_european_problem_that_passes_the_class_test_is_solved():
    inst = PUZZLE.parse(PRESETS["european-c1"])
    outcome = SEARCH.solve(inst, SolveContext.with_timeout(30))
    assert isinstance(outcome, Solved) and len(outcome.moves) == 35
    check_replay(inst, outcome)


def test_hopeless_position_in_the_right_class_is_proved_unsolvable_by_search():
    inst = PUZZLE.parse(SMALL_HOPELESS)
    board = inst.board
    assert class_verdict(board, board.to_compact(inst.pegs), board.to_compact(inst.goal)).feasible
    outcome = SEARCH.solve(inst, SolveContext.with_timeout(60))
    assert isinstance(outcome, Unsolvable) and "search" in outcome.detail.lower()
    assert outcome.reason.startswith("No: from this start, no ")
    assert inst.goal not in reachable(inst)  # the brute force agrees


# -- classes and the search against the brute force -------------------------------------------


@pytest.mark.parametrize("drawing, geometry", SMALL_BOARDS)
def test_class_verdicts_never_contradict_exhaustive_search(drawing, geometry):
    """Class-infeasible implies unreachable, for every single-vacancy start and single-peg goal."""
    rejected = 0
    for start, holes, seen in single_vacancy_problems(drawing, geometry):
        board = start.board
        for goal in holes:
            feasible = class_verdict(board, board.to_compact(start.pegs),
                                     board.to_compact(1 << goal)).feasible
            if not feasible:
                rejected += 1
                assert (1 << goal) not in seen
    # The test would be empty if the invariant never said anything.
    assert (rejected > 0) == CLASS_REJECTS_SOME[geometry]


@pytest.mark.parametrize("compiled", [True, False], ids=["numba", "python"])
@pytest.mark.parametrize("drawing, geometry", SMALL_BOARDS[:2])
def test_search_agrees_with_exhaustive_search_on_every_goal_incl_off_centre(
        monkeypatch, drawing, geometry, compiled):
    """Every single-vacancy start against every single-peg goal (most goals are off-centre, so
    most problems keep only some symmetries): the search answers exactly as brute force, both
    with its heuristic probes and with the exact search alone (the symmetric dead table), with
    the compiled kernel and with the Python search."""
    import plugins.pegs.solver as solver_module

    monkeypatch.setattr(solver_module, "USE_COMPILED", compiled)
    for start, holes, seen in single_vacancy_problems(drawing, geometry):
        for goal in holes:
            inst = PegInstance(geometry, start.rows, start.cols, start.holes, start.pegs, 1 << goal)
            truth = (1 << goal) in seen
            outcome = SEARCH.solve(inst, SolveContext.with_timeout(30))
            assert outcome.status == ("solved" if truth else "unsolvable"), PUZZLE.format(inst)
            if truth:
                check_replay(inst, outcome)
            exact = search(compile_problem(inst), SolveContext.with_timeout(30),
                           backward_budgets=(0,), probe_widths=())
            assert (exact.moves is not None) == truth, PUZZLE.format(inst)


def test_one_peg_anywhere_on_the_15_hole_triangle_agrees_with_exhaustive_search():
    for start, _, seen in single_vacancy_problems(*SMALL_BOARDS[0]):
        truth = any(pos.bit_count() == 1 for pos in seen)
        outcome = SEARCH.solve(start, SolveContext.with_timeout(30))
        assert outcome.status == ("solved" if truth else "unsolvable")
        plain = PlainSolver().solve(start, SolveContext.with_timeout(30))
        assert plain.status == outcome.status


def test_off_centre_goal_keeps_only_the_symmetries_that_fix_it_and_is_still_found():
    centre = compile_problem(PUZZLE.parse(PRESETS["english"]))
    text = PRESETS["english"].replace("goal: d4", "goal: d1")
    off = compile_problem(PUZZLE.parse(text))
    assert centre.symmetry_count == 8
    assert off.symmetry_count == 2  # the identity and the mirror through column d
    inst = PUZZLE.parse(text)
    outcome = SEARCH.solve(inst, SolveContext.with_timeout(30))
    assert isinstance(outcome, Solved)
    assert check_replay(inst, outcome).pegs == 1 << 3  # one peg, in d1


# -- deadline, cancellation, progress ------------------------------------------------------------


#: 99 pegs on a 10 x 10 board with diagonal jumps: far too big to finish in a test.
HUGE = "geometry: diagonal; goal: e5; board: " + "/".join(["o" * 10] * 4 + ["oooo.ooooo"] + ["o" * 10] * 5)


def test_deadline_and_cancellation_give_up_with_progress_reported():
    inst = PUZZLE.parse(HUGE)
    seen = []
    # 1 s, not less: the search reports at node checkpoints, and on a loaded machine a shorter
    # deadline can pass before the first one, leaving only the final forced report.
    outcome = SEARCH.solve(inst, SolveContext.with_timeout(1.0, on_progress=seen.append,
                                                           progress_interval=0.0))
    assert isinstance(outcome, GaveUp) and outcome.reason == "deadline"
    assert outcome.stats["nodes"] > 0
    assert seen and "nodes" in seen[0] and "pegs" in seen[0]
    cancel = threading.Event()
    cancel.set()
    outcome = SEARCH.solve(inst, SolveContext(cancel=cancel))
    assert isinstance(outcome, GaveUp) and outcome.reason == "cancelled"
    outcome = PlainSolver().solve(inst, SolveContext(cancel=cancel))
    assert isinstance(outcome, GaveUp) and outcome.reason == "cancelled"


@pytest.mark.parametrize("compiled", [True, False], ids=["numba", "python"])
@pytest.mark.parametrize("tiny_stages", [False, True])
def test_random_small_problems_agree_with_brute_force(monkeypatch, tiny_stages, compiled):
    """Random boards of every geometry and goal kind. With ``tiny_stages`` the stage budgets are
    shrunk so that every path of the search (probes meeting a small backward set, capped exact
    searches whose dead table carries over) is exercised on boards small enough to brute-force."""
    import random

    import plugins.pegs.solver as solver_module

    monkeypatch.setattr(solver_module, "USE_COMPILED", compiled)
    if tiny_stages:
        monkeypatch.setattr(solver_module, "QUICK_CAP", 0)
        monkeypatch.setattr(solver_module, "EXACT_CAPS", (2048, 4096))
        monkeypatch.setattr(solver_module, "BACKWARD_BUDGETS", (50, 300, 2000))
        monkeypatch.setattr(solver_module, "PROBE_WIDTHS", (2, 8, 32))
    rng = random.Random(11 + tiny_stages)
    checked = 0
    while checked < 60:
        geometry = rng.choice(list(STEPS))
        rows, cols = rng.randint(3, 4), rng.randint(3, 5)
        cells = [c for c in range(rows * cols) if rng.random() < 0.85]
        pegs = [c for c in cells if rng.random() < 0.75]
        if not pegs:
            continue
        kind = rng.choice(["any", "hole", "pattern"])
        goal = 0
        if kind == "hole":
            goal = 1 << rng.choice(cells)
        elif kind == "pattern":
            for c in rng.sample(cells, rng.randint(1, max(1, len(pegs) - 1))):
                goal |= 1 << c
            if goal.bit_count() > len(pegs):
                continue
        inst = PegInstance(geometry, rows, cols, sum(1 << c for c in cells),
                           sum(1 << c for c in pegs), goal)
        seen = reachable(inst)
        truth = any(p.bit_count() == 1 for p in seen) if goal == 0 else goal in seen
        outcome = SEARCH.solve(inst, SolveContext.with_timeout(30))
        assert outcome.status == ("solved" if truth else "unsolvable"), PUZZLE.format(inst)
        if truth:
            check_replay(inst, outcome)
        checked += 1


def test_compiled_exact_search_honours_the_deadline():
    """The European central game without its class test: a search that cannot finish."""
    import time

    problem = compile_problem(PUZZLE.parse(PRESETS["european"]))
    started = time.monotonic()
    result = search(problem, SolveContext.with_timeout(0.5), backward_budgets=(0,), probe_widths=())
    assert result.stopped == "deadline" and result.nodes > 0
    assert time.monotonic() - started < 3
