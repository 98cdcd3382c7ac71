"""The sliding-tile ``optimal`` solver and its pattern databases, checked against independent facts:
Korf's published optima, breadth-first distance tables, brute-force pattern databases, replay.

The 4x4 databases are built once for this module into a temporary cache directory (about 10 s),
which also exercises building, saving and loading.
"""

from __future__ import annotations

import random
import threading
import time

import numpy as np
import pytest
from sliding_reference import bfs_distances, brute_force_pattern

from engine import GaveUp, SolveContext, Solved, Unsolvable, replay
from engine.solving import run_solver
from plugins.sliding import pdb
from plugins.sliding.board import Board, make_board
from plugins.sliding.ida import PdbSearch, pdb_indices
from plugins.sliding.ida_lc import LinearConflictSearch
from plugins.sliding.optimal import OptimalSolver, goal_mapping
from plugins.sliding.puzzle import SlidingPuzzle

PUZZLE = SlidingPuzzle()
SOLVER = OptimalSolver()

# Korf (1985) instances (blank-first goal 0 1 ... 15) with their published optimal lengths,
# from data/korf15-1-50.txt: number -> (tiles, optimum). The quickest few plus #1.
KORF = {
    1: ("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", 57),
    9: ("3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0", 46),
    12: ("14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15", 45),
    16: ("1 3 2 5 10 9 15 6 8 14 13 11 12 4 7 0", 42),
}


def korf_board(number: int) -> Board:
    tiles = [int(x) for x in KORF[number][0].split()]
    return make_board(4, 4, tiles, goal=list(range(16)))


def korf_converted(number: int) -> Board:
    """The file's own recipe: rotate 180 degrees and relabel x -> 16 - x (blank stays 0)."""
    tiles = [int(x) for x in KORF[number][0].split()]
    std = [0] * 16
    for i, t in enumerate(tiles):
        std[15 - i] = 16 - t if t else 0
    return make_board(4, 4, std)


@pytest.fixture(scope="module")
def dist3():
    return bfs_distances(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """A private cache directory holding the 4x4 databases, built by a solve (with progress)."""
    path = tmp_path_factory.mktemp("pdb-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PUZZLE_ENGINE_CACHE", str(path))
        pdb.forget_loaded()
        events = []
        ctx = SolveContext(on_progress=events.append, progress_interval=0)
        outcome = SOLVER.solve(korf_converted(1), ctx)
        assert isinstance(outcome, Solved) and len(outcome.moves) == 57
        yield path, events
    pdb.forget_loaded()


# -- 15-puzzle: published optima ---------------------------------------------------------------

def test_building_reports_progress_and_saves_every_pattern(cache):
    path, events = cache
    building = [e for e in events if e.get("phase") == "building pattern database"]
    assert building, "no progress was reported while building"
    done = [e["done"] for e in building]
    assert done == sorted(done) and done[-1] == building[-1]["total"]
    assert building[-1]["total"] == 2 * 16 * 15 * 14 * 13 * 12 * 11 + 16 * 15 * 14
    # (The table cache keeps a lock file of its own beside the tables; dot files are not tables.)
    assert sorted(p.name for p in path.iterdir() if not p.name.startswith(".")) == sorted(
        pdb.pattern_path(4, 4, pat).name for pat in pdb.PARTITION_4X4)


@pytest.mark.parametrize("number", sorted(KORF))
def test_korf_optimum_in_blank_first_goal(cache, number):
    board = korf_board(number)
    report = run_solver(PUZZLE, SOLVER, board)  # replays the moves through the puzzle's rules
    assert report.status == "solved" and report.outcome.optimal
    assert len(report.outcome.moves) == KORF[number][1]
    assert "pattern databases" in report.outcome.stats["heuristic"]


@pytest.mark.parametrize("number", [1, 12])
def test_korf_optimum_in_usual_goal(cache, number):
    board = korf_converted(number)
    outcome = SOLVER.solve(board, SolveContext())
    assert isinstance(outcome, Solved) and len(outcome.moves) == KORF[number][1]
    states = replay(PUZZLE, board, outcome.moves)
    assert states[-1].tiles == tuple(range(1, 16)) + (0,)


def test_mirror_image_instance_has_the_same_optimum(cache):
    """Flip Korf #12 and its goal left-right: the goal's blank is now top-right."""
    board = korf_board(12)
    flip = lambda seq: tuple(seq[r * 4 + 3 - c] for r in range(4) for c in range(4))
    flipped = make_board(4, 4, flip(board.tiles), goal=flip(board.goal))
    outcome = SOLVER.solve(flipped, SolveContext())
    assert isinstance(outcome, Solved) and len(outcome.moves) == 45
    assert PUZZLE.is_solved(replay(PUZZLE, flipped, outcome.moves)[-1])


def test_renamed_tiles_keep_the_optimum(cache):
    """Renaming the tiles of board and goal alike is the same puzzle: Korf #12 stays 45, and the
    moves come back in the renamed numbering (the engine's replay checks them)."""
    board = korf_board(12)
    names = list(range(1, 16))
    random.Random(4).shuffle(names)
    rename = [0] + names
    renamed = make_board(4, 4, [rename[t] for t in board.tiles], goal=[rename[t] for t in board.goal])
    report = run_solver(PUZZLE, SOLVER, renamed)
    assert report.status == "solved" and len(report.outcome.moves) == 45


def test_goal_mapping_is_the_published_conversion():
    for number in KORF:
        mapping = goal_mapping(korf_board(number))
        assert tuple(mapping.tiles(korf_board(number).tiles)) == korf_converted(number).tiles


def test_easy_4x4_needs_no_database(tmp_path, monkeypatch):
    """With no tables anywhere, a short scramble is answered (optimally) without building."""
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    monkeypatch.setattr(pdb, "_loaded", {})
    monkeypatch.setattr(pdb, "build_pattern", lambda *a, **k: pytest.fail("built the tables"))
    board = PUZZLE.parse("5 1 3 4/9 2 7 8/0 6 15 11/13 10 14 12")
    dist = bfs_depth_limited(board, 12)
    outcome = SOLVER.solve(board, SolveContext())
    assert isinstance(outcome, Solved) and len(outcome.moves) == dist
    assert list(tmp_path.iterdir()) == []


def bfs_depth_limited(board, limit):
    """Breadth-first distance to the standard goal, for a board known to be within ``limit``."""
    frontier, seen, goal = {board.tiles}, {board.tiles}, board.goal
    for depth in range(limit + 1):
        if goal in frontier:
            return depth
        nxt = set()
        for s in frontier:
            b = s.index(0)
            for q in (b - 4, b + 4, b - 1, b + 1):
                if 0 <= q < 16 and (q // 4 == b // 4 or q % 4 == b % 4):
                    t = list(s)
                    t[b], t[q] = t[q], 0
                    t = tuple(t)
                    if t not in seen:
                        seen.add(t)
                        nxt.add(t)
        frontier = nxt
    raise AssertionError("farther than the limit")


def test_saved_databases_load_without_building(cache, monkeypatch):
    path, _ = cache
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(path))
    before = pdb.get_tables(4, 4, pdb.PARTITION_4X4)
    pdb.forget_loaded()
    monkeypatch.setattr(pdb, "build_pattern", lambda *a, **k: pytest.fail("rebuilt a saved table"))
    loaded = pdb.get_tables(4, 4, pdb.PARTITION_4X4)
    assert np.array_equal(loaded.table, before.table)


def test_cancelled_build_saves_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    pdb.forget_loaded()
    cancel = threading.Event()
    seen = []

    def on_progress(stats):
        seen.append(stats)
        if stats.get("phase") == "building pattern database" and stats["done"] > 1000:
            cancel.set()

    ctx = SolveContext(cancel=cancel, on_progress=on_progress, progress_interval=0)
    outcome = SOLVER.solve(korf_converted(1), ctx)
    assert isinstance(outcome, GaveUp) and outcome.reason == "cancelled"
    assert seen and seen[-1]["done"] < seen[-1]["total"]
    assert list(tmp_path.iterdir()) == []   # no table, no temporary file, no build lock
    pdb.forget_loaded()


# -- pattern databases against brute force -----------------------------------------------------

@pytest.mark.parametrize("rows,cols,pattern", [(3, 3, (1, 2, 3, 4)), (4, 4, (2, 3, 4)),
                                               (3, 3, (5, 6, 7, 8))])
def test_pattern_table_equals_brute_force(rows, cols, pattern):
    table = pdb.build_pattern(rows, cols, pattern)
    expected = brute_force_pattern(rows, cols, pattern)
    n = rows * cols
    assert len(expected) == pdb.placements(n, len(pattern))
    assert int((table != pdb.UNSET).sum()) == len(expected)
    for cells, d in expected.items():
        assert table[sum(c * n ** j for j, c in enumerate(cells))] == d


@pytest.fixture(scope="module")
def tables3(tmp_path_factory):
    path = tmp_path_factory.mktemp("pdb-3x3")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PUZZLE_ENGINE_CACHE", str(path))
        yield pdb.get_tables(3, 3, ((1, 2, 3, 4), (5, 6, 7, 8)))


def pdb_h(t, tiles):
    idx = pdb_indices(np.array(tiles, dtype=np.int32), t.pat, t.pw, t.mpat, t.mpw, t.refl, t.npat)
    normal = sum(int(t.table[t.offs[p] + idx[p]]) for p in range(t.npat))
    mirror = sum(int(t.table[t.offs[p] + idx[t.npat + p]]) for p in range(t.npat))
    return normal, mirror


def test_3x3_databases_admissible_and_mirror_is_the_transpose(tables3, dist3):
    """Every lookup is a lower bound, and the mirrored lookup is the normal lookup of the board
    reflected in its main diagonal (tile t renamed to the tile whose home is t's mirror cell).

    (Consistency is not required: a database that takes the minimum over the blank's positions
    can drop by more than one in a move; IDA* stays optimal with an admissible heuristic.)"""
    transpose = [(i % 3) * 3 + i // 3 for i in range(9)]
    rename = [0] + [transpose[t - 1] + 1 for t in range(1, 9)]
    mirror_differs = 0
    for s in random.Random(7).sample(sorted(dist3), 5000):
        normal, mirror = pdb_h(tables3, s)
        assert max(normal, mirror) <= dist3[s], s
        reflected = [0] * 9
        for cell, t in enumerate(s):
            reflected[transpose[cell]] = rename[t]
        assert dist3[tuple(reflected)] == dist3[s]
        assert pdb_h(tables3, reflected)[0] == mirror
        mirror_differs += normal != mirror
    assert mirror_differs > 0


def test_3x3_database_search_is_optimal(tables3, dist3):
    rng = random.Random(3)
    for s in rng.sample(sorted(dist3), 200):
        path = PdbSearch(s, 3, 3, tables3).run()
        assert len(path) == dist3[s]
        board = Board(3, 3, s, (1, 2, 3, 4, 5, 6, 7, 8, 0))
        assert PUZZLE.is_solved(replay(PUZZLE, board, [str(m) for m in path])[-1])


# -- other sizes: linear conflict ---------------------------------------------------------------

def test_hardest_8_puzzle_takes_31():
    board = PUZZLE.parse("8 6 7/2 5 4/3 0 1")
    report = run_solver(PUZZLE, SOLVER, board)
    assert report.status == "solved" and len(report.outcome.moves) == 31
    assert report.outcome.optimal


def test_8_puzzle_lengths_equal_breadth_first(dist3):
    rng = random.Random(11)
    for s in rng.sample(sorted(dist3), 300):
        board = Board(3, 3, s, (1, 2, 3, 4, 5, 6, 7, 8, 0))
        outcome = SOLVER.solve(board, SolveContext())
        assert isinstance(outcome, Solved) and len(outcome.moves) == dist3[s]
        assert PUZZLE.is_solved(replay(PUZZLE, board, outcome.moves)[-1])


def test_goal_with_blank_in_the_middle(dist3):
    goal = (1, 2, 3, 4, 0, 5, 6, 7, 8)
    dist = bfs_distances(3, 3, goal)
    rng = random.Random(5)
    for s in rng.sample(sorted(dist), 40):
        board = Board(3, 3, s, goal)
        outcome = SOLVER.solve(board, SolveContext())
        assert isinstance(outcome, Solved) and len(outcome.moves) == dist[s]
        assert replay(PUZZLE, board, outcome.moves)[-1].tiles == goal


def test_2x3_every_state_optimal():
    goal = (1, 2, 3, 4, 5, 0)
    dist = bfs_distances(2, 3, goal)
    for s, d in dist.items():
        path = LinearConflictSearch(s, 2, 3, goal).run()
        assert len(path) == d


# -- unsolvable, deadline, cancellation ---------------------------------------------------------

def test_unsolvable_answered_without_search():
    tiles = list(korf_converted(1).tiles)
    tiles[0], tiles[1] = tiles[1], tiles[0]
    events = []
    outcome = SOLVER.solve(make_board(4, 4, tiles), SolveContext(on_progress=events.append))
    assert isinstance(outcome, Unsolvable) and "cannot be solved" in outcome.reason
    assert events == []  # no search ran: not one progress report


def test_every_sliding_solver_gives_the_parity_proof_behind_its_one_line_reason():
    from engine.plugins import load_registry
    registry = load_registry()
    swapped = make_board(3, 3, (2, 1, 3, 4, 5, 6, 7, 8, 0))
    names = [solver.name for solver in registry.solvers("sliding")]
    assert len(names) >= 3
    for solver in registry.solvers("sliding"):
        outcome = solver.solve(swapped, SolveContext())
        assert isinstance(outcome, Unsolvable), solver.name
        assert "\n" not in outcome.reason and "inversion" in outcome.detail, solver.name


def test_deadline_stops_a_hopeless_search():
    board = PUZZLE.random(1, {"size": "6x6"})
    events = []
    ctx = SolveContext.with_timeout(0.5, on_progress=events.append, progress_interval=0)
    started = time.perf_counter()
    outcome = SOLVER.solve(board, ctx)
    assert isinstance(outcome, GaveUp) and outcome.reason == "deadline"
    assert time.perf_counter() - started < 2.0
    assert outcome.stats["nodes"] > 0 and outcome.stats["bound"] > 0
    assert any("bound" in e and "nodes" in e for e in events)


def test_cancellation_stops_the_search():
    board = PUZZLE.random(2, {"size": "5x5"})
    cancel = threading.Event()
    timer = threading.Timer(0.3, cancel.set)
    timer.start()
    started = time.perf_counter()
    outcome = SOLVER.solve(board, SolveContext(cancel=cancel))
    timer.cancel()
    assert isinstance(outcome, GaveUp) and outcome.reason == "cancelled"
    assert time.perf_counter() - started < 2.0


def test_solved_board_needs_no_moves():
    outcome = SOLVER.solve(make_board(3, 4, list(range(1, 12)) + [0]), SolveContext())
    assert isinstance(outcome, Solved) and outcome.moves == ()


def test_prepare_builds_nothing_when_stopped_at_once(tmp_path, monkeypatch):
    """`puzzle prepare` must be cancellable: a stopped prepare reports not ready, saves nothing."""
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    pdb.forget_loaded()
    stopped = threading.Event()
    stopped.set()
    assert OptimalSolver().prepare(SolveContext(cancel=stopped)) is False
    assert list(tmp_path.rglob("*.pdb*")) == [] and not pdb.cached_on_disk(4, 4, OptimalSolver.partition)
