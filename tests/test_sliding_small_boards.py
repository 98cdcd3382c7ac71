"""Pattern databases for thin boards (2 x N, 3 x 4, 3 x 5, ...): checked against breadth-first
distances, and the default solver's use of them (built when the limit allows, else a note).

The tables are small for these shapes (under 2 MB on 2 x 4 and 2 x 5), so they are built here
in a private cache folder; the 2 x 8 and 3 x 5 figures are in bench/sliding_small.py."""

from __future__ import annotations

import math
import random
import re
import threading

import numpy as np
import pytest
from sliding_reference import bfs_codes, bfs_distances, bfs_within, brute_force_pattern, decode

import engine.resources as engine_resources
from engine import GaveUp, SolveContext
from engine.solving import run_solver
from plugins.sliding import ida, pdb, small_boards
from plugins.sliding import optimal as optimal_mod
from plugins.sliding.auto import AutoSolver
from plugins.sliding.board import Board, slide, standard_goal
from plugins.sliding.goals import home_mapping
from plugins.sliding.optimal import OptimalSolver
from plugins.sliding.puzzle import SlidingPuzzle

PUZZLE = SlidingPuzzle()


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


def home_goal(rows: int, cols: int, blank: int) -> tuple[int, ...]:
    """The goal in home order with the blank's home at ``blank`` (plugins/sliding/pdb.py):
    the cells before it hold 1, 2, ..., the cells after it continue from there."""
    return tuple(0 if c == blank else c + 1 if c < blank else c for c in range(rows * cols))


def heuristics(tables, tiles: np.ndarray) -> np.ndarray:
    """The heuristic of many boards at once (``tiles[i, cell]``): the largest of the
    partitions' sums, read from the tables as the search reads them."""
    count, n = tiles.shape
    pos = np.empty_like(tiles)
    pos[np.arange(count)[:, None], tiles] = np.arange(n)        # pos[i, t]: the cell of tile t
    best = np.zeros(count, dtype=np.int64)
    for j, ids in enumerate(tables.ids):
        total = np.zeros(count, dtype=np.int64)
        for gid in ids:
            idx = sum(pos[:, t] * int(tables.pw[j, t]) for t in range(1, n) if tables.pat[j, t] == gid)
            total += tables.table[int(tables.offs[gid]) + idx]
        best = np.maximum(best, total)
    return best


#: Shapes and goals checked against breadth-first search: the standard goal (blank None) and
#: goals with the blank's home away from the corners, each a home-order goal its tables are
#: built for (the highest cell of its class under the board's flips, so no mapping is needed).
#: 2 x 4 and 2 x 5: every board; 3 x 4 (239.5 million boards): every board within 22 moves.
BFS_CASES = [(2, 4, None, None), (2, 4, 6, None),
             (2, 5, None, None), (2, 5, 7, None), (2, 5, 8, None),
             (3, 4, None, 22), (3, 4, 6, 22), (3, 4, 10, 22)]


@pytest.mark.slow
@pytest.mark.parametrize("rows,cols,blank,depth", BFS_CASES)
def test_the_tables_never_overestimate_the_breadth_first_distance(rows, cols, blank, depth):
    n = rows * cols
    goal = home_goal(rows, cols, n - 1 if blank is None else blank)
    assert home_mapping(Board(rows, cols, goal, goal))[1] == \
        (n - 1 if blank is None else blank)                     # a goal the tables are built for
    tables = small_boards.get_tables(rows, cols, blank=blank)
    codes, dist = bfs_codes(rows, cols, goal, depth)
    if depth is None:
        assert len(codes) == math.factorial(n) // 2            # every board reachable
    else:
        assert len(codes) > 1_000_000
    h = heuristics(tables, decode(codes, n))
    assert h[0] == 0                                           # the goal
    over = np.flatnonzero(h > dist)
    assert over.size == 0, [(decode(codes[i:i + 1], n)[0].tolist(), h[i], dist[i]) for i in over[:5]]
    # Far stronger than Manhattan distance alone: most boards are estimated exactly or within 4.
    assert (dist - h <= 4).mean() > 0.5


def regions(rows: int, cols: int) -> np.ndarray:
    """``count[occupied cells as a bit set]``: how many connected regions the other cells
    form (flood fill from the rules, independent of the plugin's region tables)."""
    n = rows * cols
    count = np.zeros(1 << n, dtype=np.int8)
    for occ in range(1 << n):
        free = {c for c in range(n) if not occ >> c & 1}
        while free:
            count[occ] += 1
            stack = [free.pop()]
            while stack:
                r, c = divmod(stack.pop(), cols)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < rows and 0 <= cc < cols and rr * cols + cc in free:
                        free.remove(rr * cols + cc)
                        stack.append(rr * cols + cc)
    return count


@pytest.mark.slow
@pytest.mark.parametrize("rows,cols,blank", [(2, 4, None), (2, 4, 6), (2, 5, None), (2, 5, 7),
                                             (2, 5, 8), (3, 4, None), (3, 4, 10)])
def test_the_tables_are_consistent_wherever_the_blank_has_one_region(rows, cols, blank):
    """h(s) <= 1 + h(s') for every slide s -> s' whose two placements of a pattern both leave
    the other cells connected, checked on every placement of every pattern of the shape (so on
    every board). The sums and their maximum are then consistent for those slides too: a slide
    changes one pattern's value per partition.

    Not everywhere, by design: an entry is the least number of pattern moves over all the
    places the blank may be, and on a thin board a wall of pattern tiles often cuts the free
    cells in two; one slide can then move the blank to the side from which the pattern is
    much farther from home (on a 2 x 7, by up to 19). IDA* needs admissibility only, which
    the test above checks on every board of 2 x 4 and 2 x 5; docs/sliding-pdb.md says so."""
    n = rows * cols
    count = regions(rows, cols)
    checked = 0
    for pattern in small_boards.patterns(rows, cols, blank):
        k = len(pattern)
        table = pdb.build_pattern(rows, cols, pattern, blank=blank).astype(np.int64)
        idx = np.arange(n ** k, dtype=np.int64)
        cells = [(idx // n ** j) % n for j in range(k)]
        occ = np.zeros(n ** k, dtype=np.int64)
        for cell in cells:
            occ |= np.int64(1) << cell
        placed = table != pdb.UNSET       # (on a 2 x 4, six tiles leave placements unreached)
        for j in range(k):
            a = cells[j]
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                r, c = a // cols + dr, a % cols + dc
                ok = placed & (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
                b = np.where(ok, r * cols + c, 0)
                for other in range(k):
                    if other != j:
                        ok &= cells[other] != b         # the blank is there: no pattern tile
                moved = (occ & ~(np.int64(1) << a)) | (np.int64(1) << b)
                ok &= (count[occ] == 1) & (count[np.where(ok, moved, 0)] == 1)
                after = idx + (b - a) * n ** j
                steps = np.abs(table[ok] - table[after[ok]])
                assert steps.size == 0 or steps.max() <= 1, (pattern, j, int(steps.max()))
                checked += int(ok.sum())
    assert checked > 1000


@pytest.mark.parametrize("rows,cols,blank,pattern", [(2, 4, 6, (1, 2, 5)), (2, 4, 6, (3, 4, 7)),
                                                     (2, 5, 7, (1, 2, 5, 6)), (3, 4, 6, (3, 7, 11)),
                                                     (3, 4, 10, (1, 4, 5, 8))])
def test_a_table_for_a_blank_away_from_the_corners_equals_brute_force(rows, cols, blank, pattern):
    """Each entry is the fewest pattern moves to the tiles' and the blank's homes in the goal,
    found by an independent 0-1 breadth-first search that reads the homes off the goal."""
    goal = home_goal(rows, cols, blank)
    table = pdb.build_pattern(rows, cols, pattern, blank=blank)
    expected = brute_force_pattern(rows, cols, pattern, goal)
    n = rows * cols
    assert int((table != pdb.UNSET).sum()) == len(expected) == pdb.placements(n, len(pattern))
    for cells, d in expected.items():
        assert table[sum(c * n ** j for j, c in enumerate(cells))] == d


def _random_goal(rows, cols, rng, blank_cell):
    names = list(range(1, rows * cols))
    rng.shuffle(names)
    goal = names[:blank_cell] + [0] + names[blank_cell:]
    return tuple(goal)


@pytest.mark.slow
@pytest.mark.parametrize("rows,cols,blank_cell", [(2, 5, 1), (2, 5, 7), (5, 2, 4), (3, 4, 5)])
def test_any_goal_gets_breadth_first_lengths_from_tables_built_for_it(rows, cols, blank_cell):
    """Goals with the blank away from the corners and the tiles in any order (the board's
    flips, transposes and renamed tiles are mapped onto a goal the tables are built for):
    shortest answers, by breadth-first search from that very goal."""
    rng = random.Random(rows * 100 + cols * 10 + blank_cell)
    goal = _random_goal(rows, cols, rng, blank_cell)
    depth = None if rows * cols <= 10 else 20
    codes, dist = bfs_codes(rows, cols, goal, depth)
    far = np.flatnonzero(dist >= dist.max() - 2)
    solver = OptimalSolver()
    aim = small_boards.target(Board(rows, cols, goal, goal))
    assert aim.blank is not None                       # tables of this goal's own
    small_boards.get_tables(aim.rows, aim.cols, blank=aim.blank)   # built first: no quick try
    for i in rng.sample(sorted(far.tolist()), 4):
        tiles = tuple(int(t) for t in decode(codes[i:i + 1], rows * cols)[0])
        board = Board(rows, cols, tiles, goal)
        report = run_solver(PUZZLE, solver, board, SolveContext.with_timeout(60))
        assert len(report.outcome.moves) == dist[i] and report.outcome.optimal
        assert report.outcome.stats["heuristic"].startswith("pattern databases")
        final = board
        for move in report.outcome.moves:
            final = slide(final, int(move))
        assert final.tiles == goal


def test_goals_that_are_mirror_images_share_tables():
    rows, cols = 2, 8
    a = home_goal(rows, cols, 11)                       # the blank mid bottom row
    b = home_goal(rows, cols, 3)                        # mid top row, the mirror image
    ka = small_boards.target(Board(rows, cols, a, a))
    kb = small_boards.target(Board(rows, cols, b, b))
    assert (ka.rows, ka.cols, ka.blank) == (kb.rows, kb.cols, kb.blank) == (2, 8, 12)
    corner = small_boards.target(Board(rows, cols, home_goal(rows, cols, 0), home_goal(rows, cols, 0)))
    assert corner.blank is None                         # a corner is the standard goal's tables


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


def test_when_the_build_runs_out_of_time_the_default_solver_still_answers(monkeypatch):
    """The 2 x 7 case: a limit just above the build's estimate, and a build (or a quick try)
    slower than estimated on a busy machine. Here the build is made as slow as the limit, so
    it always runs out: the default solver must still answer, with a proven bound, from the
    time it kept back, and its note must not name the limit that failed."""
    board = _random_board(2, 7, 5)      # too hard for linear conflict alone in the reserve
    monkeypatch.setattr(OptimalSolver, "quick_try_nodes", 0)
    monkeypatch.setattr(small_boards, "BUILD_SECONDS_PER_ENTRY", 1e-12)   # "it fits"
    started = []

    def build_until_stopped(rows, cols, progress=None, should_stop=None, blank=None):
        started.append((rows, cols))
        while not should_stop():
            threading.Event().wait(0.01)
        raise pdb.BuildCancelled()

    monkeypatch.setattr(small_boards, "get_tables", build_until_stopped)
    limit = 2.0
    report = run_solver(PUZZLE, AutoSolver(), board, SolveContext.with_timeout(limit))
    assert started == [(2, 7)], "the build was meant to start"
    assert report.status == "solved"                  # replayed to the goal by the engine
    stats = report.outcome.stats
    assert stats["solver_used"] == "bounded"
    assert stats["optimal_stopped_while"] == "building pattern database"
    assert 0 < report.details["shortest_at_least"] <= len(report.outcome.moves)
    assert not small_boards.available(2, 7)
    if report.outcome.optimal:          # the bounded search proved it: nothing would help
        assert "note" not in report.details
    else:
        note = report.details["note"]
        named = int(re.search(r"a time limit of (\d+) s or more", note).group(1))
        assert named > limit


def test_a_note_never_names_a_limit_that_was_not_enough():
    estimate = optimal_mod.build_limit(2, 7)
    assert estimate >= small_boards.BUILD_MARGIN * small_boards.build_seconds(2, 7)
    assert optimal_mod.build_limit(2, 7, given=estimate - 1) == estimate
    for given in (estimate, estimate + 0.5, 3 * estimate):
        assert optimal_mod.build_limit(2, 7, given=given) > given


def test_when_the_exact_solver_gives_up_the_default_solver_answers_with_a_bound():
    """Whatever ``optimal`` runs out on (here it gives up at once, as at a deadline), the
    default solver answers with ``bounded`` in the time it kept."""
    class OutOfTime(OptimalSolver):
        def solve(self, instance, ctx):
            return GaveUp("deadline", stats={"phase": "searching"})

    board = Board(3, 3, (8, 6, 7, 2, 5, 4, 3, 0, 1), standard_goal(3, 3))   # 31 moves
    report = run_solver(PUZZLE, AutoSolver(optimal=OutOfTime()), board,
                        SolveContext.with_timeout(1.0))
    assert report.status == "solved" and report.outcome.stats["solver_used"] == "bounded"
    assert report.details["shortest_at_least"] <= 31 <= len(report.outcome.moves)
    # A cancel is not a deadline: no answer is owed.
    stop = threading.Event()
    stop.set()
    outcome = AutoSolver(optimal=OutOfTime()).solve(board, SolveContext.with_timeout(1.0, cancel=stop))
    assert outcome.status == "gave_up"


def test_a_build_that_does_not_fit_on_disk_is_not_started(monkeypatch):
    board = Board(2, 6, _scramble(2, 6, 11), standard_goal(2, 6))
    monkeypatch.setattr(OptimalSolver, "quick_try_nodes", 0)
    monkeypatch.setattr(ida.Search, "chunk", 1000)
    monkeypatch.setattr(engine_resources, "free_disk", lambda *a: 1 << 20)   # 1 MiB free
    outcome = OptimalSolver().solve(board, SolveContext.with_timeout(1.0))
    assert not small_boards.available(2, 6)
    assert "MiB of disk" in outcome.stats["note"] and "is free" in outcome.stats["note"]


def _adjacent(state, cols, tile) -> bool:
    a, b = state.index(tile), state.index(0)
    return (abs(a - b) == 1 and a // cols == b // cols) or abs(a - b) == cols


def _random_board(rows, cols, seed) -> Board:
    """A random solvable board (the puzzle's own Random, which draws uniformly)."""
    return PUZZLE.random(seed, {"size": f"{rows}x{cols}"})


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
    monkeypatch.setattr(small_boards, "partitions", lambda rows, cols, blank=None: three)
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
