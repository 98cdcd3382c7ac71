"""Pattern databases for thin boards (2 x N, 3 x 4, 3 x 5, ...): checked against breadth-first
distances, and the default solver's use of them (built when the limit allows, else a note).

The tables are small for these shapes (under 2 MB on 2 x 4 and 2 x 5), so they are built here
in a private cache folder; the 2 x 8 and 3 x 5 figures are in bench/sliding_small.py."""

from __future__ import annotations

import random

import pytest
from sliding_reference import bfs_distances, bfs_within

from engine import SolveContext
from plugins.sliding import ida, pdb, small_boards
from plugins.sliding.auto import AutoSolver
from plugins.sliding.board import Board, slide, standard_goal
from plugins.sliding.optimal import OptimalSolver


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    pdb.forget_loaded()
    yield
    pdb.forget_loaded()


def heuristic(tables, rows, cols, tiles) -> int:
    return small_boards.PartitionSearch(list(tiles), rows, cols, tables).root_h()


def test_both_partitions_cover_every_tile_once_for_every_shape():
    for rows in range(2, 9):
        for cols in range(2, 9):
            if not small_boards.covers(rows, cols):
                continue
            wide = (rows, cols) if cols >= rows else (cols, rows)
            for partition in small_boards.partitions(*wide):
                tiles = sorted(t for group in partition for t in group)
                assert tiles == list(range(1, rows * cols)), (rows, cols, partition)
                assert max(len(group) for group in partition) <= 6


def test_on_2x4_the_heuristic_is_admissible_on_every_board():
    # Admissible, not consistent: a table entry is the least over where the blank may be, so
    # one slide can raise it by more than one. IDA* needs only admissibility for shortest
    # answers (the 4x4 tables are the same).
    rows, cols = 2, 4
    goal = standard_goal(rows, cols)
    dist = bfs_distances(rows, cols, goal)
    tables = small_boards.get_tables(rows, cols)
    assert heuristic(tables, rows, cols, goal) == 0
    exact = 0
    for state, d in dist.items():
        h = heuristic(tables, rows, cols, state)
        assert h <= d, (state, h, d)
        exact += h == d
    # Far stronger than nothing: most 2 x 4 boards are estimated exactly.
    assert exact > len(dist) // 2


@pytest.mark.parametrize("rows,cols,depth", [(2, 5, 13), (3, 4, 11)])
def test_near_the_goal_the_heuristic_never_overestimates(rows, cols, depth):
    goal = standard_goal(rows, cols)
    tables = small_boards.get_tables(rows, cols)
    checked = 0
    for state, d in bfs_within(rows, cols, goal, depth).items():
        assert heuristic(tables, rows, cols, state) <= d
        checked += 1
    assert checked > 1000


def test_the_optimal_solver_finds_breadth_first_lengths_on_a_2x5_and_its_transpose():
    rng = random.Random(5)
    goal = standard_goal(2, 5)
    # Every board within 18 moves, and six of those at exactly 18.
    dist = bfs_within(2, 5, goal, 18)
    states = rng.sample(sorted(s for s, d in dist.items() if d == 18), 6)
    solver = OptimalSolver()
    small_boards.get_tables(2, 5)   # built first, so no quick linear-conflict try answers
    for state in states:
        outcome = solver.solve(Board(2, 5, state, goal), SolveContext.with_timeout(60))
        assert len(outcome.moves) == dist[state]
        assert outcome.stats["heuristic"].startswith("pattern databases")
    # A 5 x 2 board: transpose of a 2 x 5; solved through the 2 x 5 tables.
    state = states[0]
    flip = tuple(state[r * 5 + c] for c in range(5) for r in range(2))
    board = Board(5, 2, flip, tuple(goal[r * 5 + c] for c in range(5) for r in range(2)))
    outcome = solver.solve(board, SolveContext.with_timeout(60))
    assert len(outcome.moves) == dist[state]
    final = board
    for move in outcome.moves:
        final = slide(final, int(move))
    assert final.tiles == board.goal


def test_a_generous_limit_builds_the_tables_and_a_tight_one_says_what_would_help(monkeypatch):
    board = Board(2, 6, _scramble(2, 6, 11), standard_goal(2, 6))
    assert not small_boards.available(2, 6)
    # The quick linear-conflict try (which solves many 2 x 6 boards by itself) gives up after
    # its first small chunk, so what is tested is the choice to build or not.
    monkeypatch.setattr(ida.Search, "chunk", 1000)
    monkeypatch.setattr(OptimalSolver, "quick_try_nodes", 0)
    tight = AutoSolver()
    small_boards_seconds = small_boards.build_seconds(2, 6)
    ctx = SolveContext.with_timeout(small_boards_seconds / 10)
    outcome = tight.solve(board, ctx)
    assert "puzzle prepare sliding" in outcome.stats.get("note", "")
    assert not small_boards.available(2, 6), "a tight limit must not build"
    outcome = OptimalSolver().solve(board, SolveContext.with_timeout(120))
    assert small_boards.available(2, 6)
    assert outcome.stats["heuristic"] == small_boards.label(2, 6)
    final = board
    for move in outcome.moves:
        final = slide(final, int(move))
    assert final.tiles == board.goal and outcome.optimal


def _adjacent(state, cols, tile) -> bool:
    a, b = state.index(tile), state.index(0)
    return (abs(a - b) == 1 and a // cols == b // cols) or abs(a - b) == cols


def _scramble(rows, cols, seed):
    rng = random.Random(seed)
    board = Board(rows, cols, standard_goal(rows, cols), standard_goal(rows, cols))
    for _ in range(400):
        tiles = [t for t in board.tiles if t and _adjacent(board.tiles, cols, t)]
        board = slide(board, rng.choice(tiles))
    return board.tiles



@pytest.mark.parametrize("rows,cols", [(2, 5), (3, 4), (4, 4)])
def test_reading_blank_regions_from_a_table_builds_the_same_tables_as_flooding(rows, cols):
    # The fast build (region table, one pass to merge each level) against the plain one, which
    # floods the board at every move: every entry the same. Thin shapes: every pattern of
    # their partitions; the 4x4: its 3-tile pattern of the 6-6-3.
    chosen = small_boards.patterns(rows, cols) if small_boards.covers(rows, cols) \
        else [pdb.PARTITION_4X4[2]]
    for pattern in chosen:
        fast = pdb.build_pattern(rows, cols, pattern, region_table=True)
        plain = pdb.build_pattern(rows, cols, pattern, region_table=False)
        assert (fast == plain).all(), pattern
        assert (fast != pdb.UNSET).sum() == pdb.placements(rows * cols, len(pattern))


def test_three_partitions_sharing_a_pattern_give_breadth_first_lengths(monkeypatch):
    # The 2 x 8's layout (three partitions, a pattern shared by two of them) on a 2 x 4, where
    # breadth-first search gives every distance: admissible on every board, exact lengths.
    order = small_boards._strip_order(2, 4)
    three = tuple(small_boards._cut(order, sizes) for sizes in ((3, 3, 1), (3, 1, 3), (1, 3, 3)))
    monkeypatch.setattr(small_boards, "partitions", lambda rows, cols: three)
    assert len(small_boards.patterns(2, 4)) == 7          # 9 groups, two of them repeated
    tables = small_boards.get_tables(2, 4)
    assert tables.pat.shape[0] == 3
    assert tables.table.shape[0] == sum(8 ** len(p) for p in small_boards.patterns(2, 4))
    goal = standard_goal(2, 4)
    dist = bfs_distances(2, 4, goal)
    stronger = 0
    for state, d in dist.items():
        sums = small_boards.PartitionSearch(list(state), 2, 4, tables).sums()
        assert max(sums) <= d, (state, sums, d)
        stronger += max(sums) > min(sums)
    assert stronger > len(dist) // 10       # the maximum is often above some partition's sum
    far = sorted(s for s, d in dist.items() if d >= 30)
    for state in random.Random(3).sample(far, 8):
        search = small_boards.PartitionSearch(list(state), 2, 4, tables)
        path = search.run()
        assert path is not None and len(path) == dist[state]
        board = Board(2, 4, state, goal)
        for move in path:
            board = slide(board, int(move))
        assert board.tiles == goal
