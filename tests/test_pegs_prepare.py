"""Peg tables that pay for themselves: ``prepare`` builds the presets' tables, a fewest-moves
solve with room in its time limit builds the large table itself, one without room says what
would help.

The big tables are never built here: the table budgets are shrunk to tiny stand-ins
(``LIVE_POSITIONS``, ``LARGE_POSITIONS``) on the 15-hole triangle, and answers are checked
against an independent breadth-first search over moves (``test_pegs_fewest``) and by replay.
"""

from __future__ import annotations

import threading

import pytest
from test_pegs_fewest import bfs_fewest_moves

from engine import SolveContext, replay
from engine.solving import run_solver
from plugins.pegs import chainbfs, prepare, tables, verdict
from plugins.pegs.fewest import FewestMovesSolver
from plugins.pegs.presets import PRESETS
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.rules import group_jumps
from plugins.pegs.search import compile_problem

PUZZLE = PegSolitaire()
SOLVER = FewestMovesSolver()
TRIANGLE = PUZZLE.parse(PRESETS["triangle-5"])  # corner hole a1 empty, one peg anywhere


@pytest.fixture(autouse=True)
def private_cache(monkeypatch, tmp_path):
    """An empty cache folder and no judges in memory: every test starts as a new user."""
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    verdict._judges.clear()
    yield
    verdict._judges.clear()


@pytest.fixture()
def tiny_tables(monkeypatch):
    """A small table that stops well below the triangle's start and a large one that holds
    every position (the triangle has 2,383 that can finish, up to symmetry)."""
    monkeypatch.setattr(tables, "LIVE_POSITIONS", 60)
    monkeypatch.setattr(tables, "LARGE_POSITIONS", 100_000)
    monkeypatch.setattr(prepare, "QUICK_TRY_SECONDS", 0.0)  # straight to the build


def large_file(inst):
    return tables.cache_path(compile_problem(inst), tables.LARGE_POSITIONS)


def check_fewest(inst, outcome):
    """The answer replays to the goal, in as few moves as a plain BFS over moves finds."""
    assert outcome.status == "solved" and outcome.optimal
    assert PUZZLE.is_solved(replay(PUZZLE, inst, list(outcome.moves))[-1])
    assert len(group_jumps(list(outcome.moves))) == bfs_fewest_moves(inst)


def test_the_triangle_from_its_corner_hole_is_solved_in_the_fewest_moves():
    outcome = run_solver(PUZZLE, SOLVER, TRIANGLE, SolveContext.with_timeout(60)).outcome
    check_fewest(TRIANGLE, outcome)


def test_prepare_builds_the_presets_tables_and_a_solve_uses_them(monkeypatch):
    monkeypatch.setattr(prepare, "preset_states", lambda: [("triangle-5", TRIANGLE)])
    assert prepare.prepare_cost(False).what == ("triangle-5 small table",)
    built = []
    ctx = SolveContext(on_progress=lambda stats: built.append(stats.get("built")))
    assert SOLVER.prepare(ctx) is True
    assert [b for b in built if b] == ["triangle-5: small table, 2,383 positions up to 14 pegs, "
                                       f"{_kib(TRIANGLE)} KiB on disk"]
    assert prepare.prepare_cost(False).what == ()  # nothing left to build
    # A new process: no judge in memory, and no table may be built, only read.
    verdict._judges.clear()

    def no_build(*args, **kwargs):
        raise AssertionError("the prepared table should have been read from disk")

    monkeypatch.setattr(tables, "build_levels", no_build)
    outcome = run_solver(PUZZLE, SOLVER, TRIANGLE, SolveContext.with_timeout(60)).outcome
    check_fewest(TRIANGLE, outcome)
    assert outcome.stats["table_positions"] == 2383


def _kib(inst) -> int:
    path = tables.cache_path(compile_problem(inst), tables.LIVE_POSITIONS)
    return max(1, round(path.stat().st_size / 2**10))


def test_prepare_without_big_builds_leaves_the_large_tables(monkeypatch, tiny_tables):
    english = PUZZLE.parse(PRESETS["english"])
    monkeypatch.setattr(prepare, "preset_states", lambda: [("english", english)])
    assert prepare.prepare_cost(False).what == ("english small table",)
    assert prepare.prepare_cost(True).what == ("english small table", "english large table")


def test_a_generous_limit_builds_the_large_table_and_uses_it(tiny_tables):
    phases = []
    ctx = SolveContext.with_timeout(60, on_progress=lambda s: phases.append(s.get("phase")))
    report = run_solver(PUZZLE, SOLVER, TRIANGLE, ctx)
    check_fewest(TRIANGLE, report.outcome)
    stats = report.outcome.stats
    assert stats["table_built"].startswith("now")
    assert stats["table_pegs"] == 14 and stats["table_positions"] == 2383  # every position
    assert large_file(TRIANGLE).exists()
    assert "building the table of positions that can reach the goal" in phases
    assert "note" not in report.to_json()["details"]


def test_a_tight_limit_does_not_build_and_says_what_would_help(monkeypatch, tiny_tables):
    monkeypatch.setattr(prepare, "SECONDS_PER_POSITION", 1.0)  # the build would take a day
    monkeypatch.setattr(chainbfs, "MAX_POSITIONS", 50)  # and the small table is not enough
    report = run_solver(PUZZLE, SOLVER, TRIANGLE, SolveContext.with_timeout(30))
    assert report.outcome.status == "gave_up"
    note = report.to_json()["details"]["note"]
    assert "`puzzle pegs table triangle-5`" in note and "once" in note
    plan_limit = prepare.large_plan(verdict.judge_for(TRIANGLE)).limit
    assert f"a time limit of {plan_limit} s or more" in note
    assert not large_file(TRIANGLE).exists()


def test_the_english_board_names_puzzle_prepare_pegs():
    english = PUZZLE.parse(PRESETS["english"])
    plan = prepare.Plan(24_000_000, 72.0, 10**9, 2 * 10**8, None)
    sentence = prepare.help_sentence(english, plan)
    assert "`puzzle prepare pegs` (about 70 s, once)" in sentence
    assert sentence.count(".") == 0  # one sentence, the caller ends it
    short = prepare.Plan(24_000_000, 72.0, 10**9, 2 * 10**8, "building needs about 1 GiB")
    assert "building needs about 1 GiB" in prepare.help_sentence(english, short)
    assert not short.fits(None) and plan.fits(None) and not plan.fits(90) and plan.fits(101)


def test_a_cancelled_build_keeps_nothing(tiny_tables):
    cancel = threading.Event()

    def on_progress(stats):
        if stats.get("phase", "").startswith("building"):
            cancel.set()  # cancel as soon as the build reports its first level

    ctx = SolveContext.with_timeout(60, cancel=cancel, on_progress=on_progress)
    ctx.progress_interval = 0
    outcome = run_solver(PUZZLE, SOLVER, TRIANGLE, ctx).outcome
    assert outcome.status == "gave_up" and outcome.reason == "cancelled"
    assert not large_file(TRIANGLE).exists()
    assert not list(large_file(TRIANGLE).parent.glob("*.tmp"))


def test_the_estimate_of_a_larger_table():
    # Growing by the last ratio seen, capped by the budget...
    assert prepare.estimated_positions({1: 1, 2: 10, 3: 100}, 33, 24_000_000) == 24_000_000
    # ... and by C(n, pegs) per level on a small board: 6 holes, at most 20 with 3 pegs, 15
    # with 4 and 6 with 5 (ratio 2.5 would give 37, 93 and 234).
    assert prepare.estimated_positions({1: 6, 2: 15}, 6, 10**6) == 6 + 15 + 20 + 15 + 6
