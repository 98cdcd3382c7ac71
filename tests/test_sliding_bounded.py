"""The ``bounded`` and ``auto`` sliding solvers: the proven bound is honest (never claims the
shortest answer is longer than it is: checked against breadth-first distances on small boards),
answers replay, and the default solver suits the board size. No timed assertions; small boards
and reduced tables only (the 5x5 6-6-6-6 tables are never built here)."""

from __future__ import annotations

import random
import threading

import pytest
from sliding_reference import bfs_distances

from engine import SolveContext, Solved
from engine.solving import run_solver
from plugins.sliding import anytime
from plugins.sliding import bounded as bounded_mod
from plugins.sliding import pdb_compact as pc
from plugins.sliding.auto import AutoSolver
from plugins.sliding.board import make_board
from plugins.sliding.bounded import BoundedSolver
from plugins.sliding.ida_compact import CompactSearch
from plugins.sliding.pdb import BuildCancelled
from plugins.sliding.puzzle import SlidingPuzzle

PUZZLE = SlidingPuzzle()
SMALL_3X3 = ((1, 2, 3), (4, 5, 6, 7, 8))


def solver(seconds=0.3) -> BoundedSolver:
    s = BoundedSolver()
    s.seconds = seconds
    return s


def check_honest(report, optimum):
    """The engine's facts about a bounded answer hold against the true optimum."""
    assert report.status == "solved"
    length = len(report.outcome.moves)
    lb = report.outcome.stats["lower_bound"]
    assert lb <= optimum <= length                       # the bound never overclaims
    gap = report.details["longer_than_shortest_at_most"]
    assert gap == length - lb and gap >= length - optimum
    assert report.details["shortest_at_least"] == lb
    assert isinstance(lb, int) and report.outcome.optimal == (lb == length)
    if report.outcome.optimal:
        assert length == optimum


@pytest.mark.parametrize("rows,cols", [(3, 3)])
def test_bound_is_honest_without_tables(rows, cols):
    goal = tuple(range(1, rows * cols)) + (0,)
    dist = bfs_distances(rows, cols, goal)
    rng = random.Random(rows * 10 + cols)
    deepest = max(dist.values())
    far = sorted(b for b, d in dist.items() if d >= deepest - 6)
    for board in rng.sample(far, 8) + rng.sample(sorted(dist), 8):
        report = run_solver(PUZZLE, solver(0.05), make_board(rows, cols, list(board)))
        check_honest(report, dist[board])


@pytest.fixture
def small_3x3_tables(tmp_path, monkeypatch):
    """Let the bounded solver use compact tables on the 3x3 (a reduced partition), so the
    anytime weighted search runs where BFS knows every optimum."""
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    pc.forget_loaded()
    tables = pc.get_tables(3, 3, SMALL_3X3)
    # Compile the search now: on a fresh checkout (no numba cache) compiling takes seconds,
    # more than the first weighted round's slice of the time limit, and the solver would
    # rightly fall back to `fast`, testing nothing here.
    for weight in ((1, 1), (3, 1)):
        CompactSearch([1, 2, 3, 4, 5, 6, 7, 0, 8], tables, weight=weight).run()
    monkeypatch.setitem(bounded_mod.PARTITIONS, 3, SMALL_3X3)
    yield
    pc.forget_loaded()


def test_bound_is_honest_with_weighted_rounds(small_3x3_tables, monkeypatch):
    dist = bfs_distances(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    rng = random.Random(5)
    boards = rng.sample(sorted(dist), 40)
    # One heavily weighted round on one lane, no exact phase: answers longer than the shortest
    # do occur.
    monkeypatch.setattr(anytime, "FIRST_WEIGHTS", ((3, 1),))
    monkeypatch.setattr(anytime, "LIGHTER", ())
    # Nor windows re-solved: on the 3x3 one window is the whole answer.
    monkeypatch.setattr(anytime, "SHORTEN_WINDOWS", ())
    monkeypatch.setattr(anytime, "POLISH_SHARE", 0.0)
    weighted_only = solver(5.0)
    weighted_only.exact_phase = False
    weighted_only.lanes = 1
    longer = 0
    for board in boards:
        report = run_solver(PUZZLE, weighted_only, make_board(3, 3, list(board)))
        check_honest(report, dist[board])
        longer += len(report.outcome.moves) > dist[board]
        assert "pattern databases" in report.outcome.stats["heuristic"]
    assert longer > 0, "no suboptimal answer: the honesty check above tested nothing"


def test_anytime_search_proves_optimality_given_time(small_3x3_tables):
    dist = bfs_distances(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    for board in random.Random(6).sample(sorted(dist), 25):
        report = run_solver(PUZZLE, solver(5.0), make_board(3, 3, list(board)))
        check_honest(report, dist[board])
        assert report.outcome.optimal and len(report.outcome.moves) == dist[board]


def test_cancelled_before_any_answer_gives_up(small_3x3_tables):
    import threading
    stop = threading.Event()
    stop.set()
    board = make_board(3, 3, [8, 6, 7, 2, 5, 4, 3, 0, 1])
    outcome = solver(5.0).solve(board, SolveContext(cancel=stop))
    assert outcome.status in ("gave_up", "solved")
    if outcome.status == "solved":   # the fast fallback may still answer; then honestly
        assert outcome.stats["lower_bound"] <= 31


def test_auto_picks_by_board_size():
    auto = AutoSolver()
    pick = lambda r, c: auto.choose(make_board(r, c, list(range(1, r * c)) + [0])).name
    assert pick(3, 3) == "optimal" and pick(4, 4) == "optimal" and pick(3, 4) == "optimal"
    # Up to 16 cells, thin boards included: shortest answers (per-shape pattern databases).
    assert pick(3, 5) == "optimal" and pick(2, 8) == "optimal" and pick(8, 2) == "optimal"
    assert pick(5, 5) == "bounded" and pick(4, 6) == "bounded" and pick(3, 6) == "bounded"
    assert pick(6, 6) == "fast" and pick(5, 6) == "fast"
    for word in ("optimal", "bounded", "fast"):
        assert word in auto.description


def test_auto_answers_the_8_puzzle_optimally_through_the_engine():
    dist = bfs_distances(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    board = max(sorted(dist), key=dist.get)      # a hardest 8-puzzle (31 moves)
    report = run_solver(PUZZLE, AutoSolver(), make_board(3, 3, list(board)))
    assert report.outcome.optimal and len(report.outcome.moves) == dist[board] == 31
    assert report.outcome.stats["solver_used"] == "optimal"
    assert report.details["longer_than_shortest_at_most"] == 0


def test_engine_rejects_a_lower_bound_above_the_answer():
    """A claimed bound longer than a verified answer is a provable lie: the engine says so."""
    from engine import Solver
    from engine.errors import SolverError

    class Liar(Solver):
        puzzle_id, name = "sliding", "liar"

        def solve(self, instance, ctx):
            return Solved(("8",), stats={"lower_bound": 3})

    board = make_board(3, 3, [1, 2, 3, 4, 5, 6, 7, 0, 8])
    with pytest.raises(SolverError, match="claimed no solution is shorter than 3"):
        run_solver(PUZZLE, Liar(), board)


# -- tables built inside a solve when the time limit leaves room ---------------------------------

@pytest.fixture
def no_3x3_tables(tmp_path, monkeypatch):
    """An empty cache, and the bounded solver's compact tables on the 3x3 (a reduced
    partition, built in a moment) standing in for the 5x5's (minutes)."""
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    pc.forget_loaded()
    monkeypatch.setitem(bounded_mod.PARTITIONS, 3, SMALL_3X3)
    yield tmp_path
    pc.forget_loaded()


HARD_8 = [8, 6, 7, 2, 5, 4, 3, 0, 1]        # 31 moves, the most an 8-puzzle needs


def table_files(folder):
    return sorted(p.name for p in folder.iterdir() if p.suffix == ".pdb")


def test_a_generous_limit_builds_the_tables_and_uses_them(no_3x3_tables):
    events = []
    ctx = SolveContext.with_timeout(60, on_progress=events.append, progress_interval=0)
    assert bounded_mod.build_plan(3, ctx.remaining(), 0.3).go
    report = run_solver(PUZZLE, solver(0.3), make_board(3, 3, HARD_8), ctx)
    check_honest(report, 31)
    stats = report.outcome.stats
    assert "pattern databases" in stats["heuristic"] and stats["table_build_seconds"] >= 0
    building = [e for e in events if e.get("phase") == "building pattern database"]
    assert building and building[-1]["done"] == building[-1]["total"]
    assert len(table_files(no_3x3_tables)) == len(pc.table_patterns(3, 3, SMALL_3X3))
    assert "note" not in report.details


def test_a_tight_limit_does_not_build(no_3x3_tables, monkeypatch):
    monkeypatch.setattr(pc, "SECONDS_PER_PLACEMENT", 1.0)     # the build would take hours
    ctx = SolveContext.with_timeout(30)
    assert not bounded_mod.build_plan(3, ctx.remaining(), 0.3).go
    report = run_solver(PUZZLE, solver(0.3), make_board(3, 3, HARD_8), ctx)
    check_honest(report, 31)
    assert report.outcome.stats["heuristic"] == "linear conflict"
    assert table_files(no_3x3_tables) == []
    # Without a time limit the solver answers in its own budget and builds nothing either.
    assert not bounded_mod.build_plan(3, None, 0.3).go


def test_a_cancelled_build_keeps_nothing_half_built(no_3x3_tables, monkeypatch):
    cancel = threading.Event()

    def progress(stats):
        if stats.get("phase") == "building pattern database" and stats["done"] < stats["total"]:
            cancel.set()

    # Many small pieces, so the cancel is seen in the middle of a table.
    real = pc.build_compact
    monkeypatch.setattr(pc, "build_compact", lambda *a, **k: real(*a, **{**k, "chunk": 64}))
    ctx = SolveContext.with_timeout(60, cancel=cancel, on_progress=progress, progress_interval=0)
    solver(0.3).solve(make_board(3, 3, HARD_8), ctx)
    assert cancel.is_set()
    built = table_files(no_3x3_tables)
    assert len(built) < len(pc.table_patterns(3, 3, SMALL_3X3))
    for name in built:           # whatever is there is whole: it loads, checksum and all
        pattern = tuple(int(t) for t in name.rsplit("-", 1)[1][:-4].split("."))
        assert pc.load_pattern(3, 3, pattern) is not None
    assert not [p for p in no_3x3_tables.iterdir() if p.suffix != ".pdb" and not p.name.startswith(".")]


def test_a_build_slower_than_its_estimate_is_stopped_and_the_solve_still_answers(no_3x3_tables,
                                                                                  monkeypatch):
    def slow(rows, cols, pattern, progress=None, should_stop=None, **kwargs):
        while not should_stop():
            threading.Event().wait(0.01)
        raise BuildCancelled()

    monkeypatch.setattr(pc, "build_compact", slow)
    s = solver(0.3)
    s.seconds = 0.3
    # Room for the build by the estimate, and 1 s kept for the search.
    ctx = SolveContext.with_timeout(bounded_mod.build_plan(3, None, 0.3).needs + 0.5)
    report = run_solver(PUZZLE, s, make_board(3, 3, HARD_8), ctx)
    check_honest(report, 31)
    if not report.outcome.optimal:
        assert "took longer here than the time limit left" in report.details["note"]
    assert table_files(no_3x3_tables) == []


def test_the_5x5_decision_and_note(tmp_path, monkeypatch):
    """The real 6-6-6-6 tables are never built here: the plan and the note are checked."""
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    plan = bounded_mod.build_plan(5, 10.0)
    assert not plan.go and plan.seconds > 60
    assert plan.needs > bounded_mod.BUILD_MARGIN * plan.seconds + bounded_mod.DEFAULT_SECONDS
    monkeypatch.setattr(pc, "available_memory", lambda: 64 << 30)
    assert bounded_mod.build_plan(5, plan.needs + 1).go
    board = PUZZLE.random(3, {"size": "5x5"})
    report = run_solver(PUZZLE, solver(0.3), board, SolveContext.with_timeout(5))
    note = report.details["note"]
    assert "`puzzle prepare sliding`" in note and f"a time limit of {plan.limit} s or more" in note
    assert plan.limit >= plan.needs
    monkeypatch.setattr(pc, "available_memory", lambda: 1 << 20)
    assert not bounded_mod.build_plan(5, 10_000.0).go
    report = run_solver(PUZZLE, solver(0.3), board, SolveContext.with_timeout(5))
    assert "cannot be built here now: not enough memory" in report.details["note"]


def test_tables_partly_on_disk_and_partly_built_now_search_together(no_3x3_tables):
    """A build stopped after some tables (kept on disk) and finished by a later solve: the
    tables loaded from files and the ones just built are searched together."""
    tables = pc.get_tables(3, 3, SMALL_3X3)
    first = pc.pattern_path(3, 3, pc.table_patterns(3, 3, SMALL_3X3)[0])
    first.unlink()
    pc.forget_loaded()
    report = run_solver(PUZZLE, solver(5.0), make_board(3, 3, HARD_8),
                        SolveContext.with_timeout(60))
    assert report.outcome.stats["table_build_seconds"] >= 0 and first.exists()
    check_honest(report, 31)
    assert "pattern databases" in report.outcome.stats["heuristic"]
    assert len(tables.packed) == len(pc.get_tables(3, 3, SMALL_3X3).packed)
