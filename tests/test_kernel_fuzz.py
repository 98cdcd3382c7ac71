"""Each compiled kernel, through its Python wrapper, on a handful of random small valid inputs,
checked by an invariant that does not trust the kernel: an exact replay of the answer from the
rules alone, and agreement with a brute force (breadth-first search, subset dynamic
programming). ``tests/test_kernel_safety.py`` runs this file under ``NUMBA_BOUNDSCHECK=1``,
where an index outside any buffer raises instead of corrupting memory, so these also find the
kernels' out-of-bounds reads and writes.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from itertools import permutations

import numpy as np
import pytest
from sliding_reference import bfs_distances, bfs_within
from test_pegs_count import brute_count
from test_pegs_fewest import bfs_fewest_moves
from test_pegs_solver import STEPS
from test_pegs_verdict import oracle

from engine import SolveContext
from engine.solving import run_solver
from plugins.pegs import tables, verdict
from plugins.pegs.board import PegInstance
from plugins.pegs.count import count_solutions
from plugins.pegs.fewest import FewestMovesSolver
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.rules import group_jumps
from plugins.sliding import pdb, ranking, wastar
from plugins.sliding.ida import PdbSearch
from plugins.sliding.ida_lc import LinearConflictSearch

PEGS = PegSolitaire()


# -- sliding ------------------------------------------------------------------------------------

def standard_goal(rows: int, cols: int) -> tuple[int, ...]:
    return tuple(range(1, rows * cols)) + (0,)


def scramble(rows: int, cols: int, goal, moves: int, rng: random.Random) -> tuple[int, ...]:
    """A board ``moves`` random slides from ``goal`` (so solvable)."""
    tiles = list(goal)
    for _ in range(moves):
        b = tiles.index(0)
        r, c = divmod(b, cols)
        cells = [r2 * cols + c2 for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                 if 0 <= r2 < rows and 0 <= c2 < cols]
        q = rng.choice(cells)
        tiles[b], tiles[q] = tiles[q], 0
    return tuple(tiles)


def replay_tiles(rows: int, cols: int, tiles, moved) -> tuple[int, ...]:
    """The board after sliding each tile of ``moved`` into the blank (each must touch it)."""
    board = list(tiles)
    for t in moved:
        b, q = board.index(0), board.index(t)
        assert abs(b // cols - q // cols) + abs(b % cols - q % cols) == 1, (tiles, moved)
        board[b], board[q] = t, 0
    return tuple(board)


@pytest.mark.parametrize("rows, cols", [(3, 3), (2, 4), (3, 4)])
def test_linear_conflict_ida_finds_shortest_paths_on_random_boards(rows, cols):
    goal = standard_goal(rows, cols)
    dist = bfs_within(rows, cols, goal, 14) if rows * cols > 9 else bfs_distances(rows, cols, goal)
    rng = random.Random(rows * 10 + cols)
    for _ in range(6):
        start = scramble(rows, cols, goal, rng.randint(5, 60), rng)
        if start not in dist:
            continue  # beyond the reference's depth on the 3x4
        path = LinearConflictSearch(start, rows, cols, goal).run()
        assert replay_tiles(rows, cols, start, path) == goal
        assert len(path) == dist[start]


def test_dense_pattern_database_search_finds_shortest_paths_on_the_8_puzzle(tmp_path,
                                                                           monkeypatch):
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    tables3 = pdb.get_tables(3, 3, ((1, 2, 3, 4), (5, 6, 7, 8)))
    goal = standard_goal(3, 3)
    dist = bfs_distances(3, 3, goal)
    rng = random.Random(5)
    for start in rng.sample(sorted(dist), 8):
        path = PdbSearch(start, 3, 3, tables3).run()
        assert replay_tiles(3, 3, start, path) == goal
        assert len(path) == dist[start]


@pytest.mark.parametrize("rows, cols", [(3, 3), (2, 4), (3, 4)])
def test_compiled_weighted_a_star_answers_replay(rows, cols):
    goal = standard_goal(rows, cols)
    rng = random.Random(rows + 7 * cols)
    for _ in range(4):
        start = scramble(rows, cols, goal, rng.randint(10, 80), rng)
        path = wastar.compiled_astar(rows, cols, start, goal, 2.0, 10**5, {})
        assert path is not None
        assert replay_tiles(rows, cols, start, path) == goal


def test_ranks_are_the_lexicographic_positions_of_placements():
    for n, k in ((6, 3), (9, 4), (12, 2)):
        fac = ranking.rank_factors(n, k)
        pos = np.zeros(k, np.int64)
        for r, placement in enumerate(permutations(range(n), k)):
            assert ranking.rank(np.array(placement, np.int64), k, fac) == r
            if r % 7 == 0:
                ranking.unrank(r, k, n, fac, pos)
                assert tuple(pos) == placement


# -- pegs ---------------------------------------------------------------------------------------

def random_peg_boards(count: int, seed: int):
    """Random small boards (at most 16 cells, so the brute forces stay quick), every geometry,
    goal "one peg anywhere" or one hole, each with at least two pegs."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        geometry = rng.choice(list(STEPS))
        rows, cols = rng.randint(3, 4), rng.randint(3, 4)
        cells = [c for c in range(rows * cols) if rng.random() < 0.85]
        pegs = [c for c in cells if rng.random() < 0.8]
        if len(pegs) < 2:
            continue
        goal = 1 << rng.choice(cells) if rng.random() < 0.5 else 0
        out.append(PegInstance(geometry, rows, cols, sum(1 << c for c in cells),
                               sum(1 << c for c in pegs), goal))
    return out


@pytest.fixture()
def fresh(monkeypatch, tmp_path):
    """A private cache and no judge carried over between boards."""
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    monkeypatch.setattr(verdict, "_judges", OrderedDict())
    monkeypatch.setattr(verdict, "_building", {})
    return monkeypatch


@pytest.mark.parametrize("inst", random_peg_boards(6, seed=1), ids=PEGS.format)
def test_level_counting_agrees_with_a_brute_force(fresh, inst):
    assert count_solutions(inst).solutions == brute_count(inst)


@pytest.mark.parametrize("inst", random_peg_boards(6, seed=2), ids=PEGS.format)
def test_chain_breadth_first_search_agrees_with_a_plain_one(fresh, inst):
    expected = bfs_fewest_moves(inst)
    report = run_solver(PEGS, FewestMovesSolver(), inst, SolveContext.with_timeout(60))
    if expected is None:
        assert report.outcome.status == "unsolvable"
        return
    assert report.outcome.status == "solved"  # the engine replayed it to the goal
    assert len(group_jumps(list(report.outcome.moves))) == expected


@pytest.mark.parametrize("inst", random_peg_boards(5, seed=3), ids=PEGS.format)
def test_compiled_search_and_probes_above_a_small_table_agree_with_the_oracle(fresh, inst):
    # A table of 40 positions: most positions are decided by the probes (``fastdfs.beam``) and
    # the exact search (``fastdfs.run``) down to it.
    fresh.setattr(tables, "LIVE_POSITIONS", 40)
    truth = oracle(inst)
    rng = random.Random(4)
    for pos in rng.sample(sorted(truth), min(60, len(truth))):
        a = verdict.assess(PegInstance(inst.geometry, inst.rows, inst.cols, inst.holes, pos,
                                       inst.goal), budget=30.0, wait=True)
        if a.verdict in ("can", "solved"):
            assert truth[pos], (PEGS.format(inst), pos)
        elif a.verdict == "cannot":
            assert not truth[pos], (PEGS.format(inst), pos)


# -- the documented bounds: tight enough to suffice, and checked ---------------------------------

def test_peg_search_stacks_of_exactly_the_documented_rows_suffice_and_one_less_is_refused(fresh):
    """From ``s`` pegs down to a table of ``top`` the stacks need ``s - top`` rows: with exactly
    that many every search finishes (under ``NUMBA_BOUNDSCHECK`` an index past them would
    raise), and with one row fewer the caller refuses before the kernel runs."""
    from plugins.pegs import fastdfs
    from plugins.pegs.judge import _Lane
    from plugins.pegs.kernel_checks import KernelInputError

    fresh.setattr(tables, "LIVE_POSITIONS", 40)
    inst = PegInstance("square", 4, 4, (1 << 16) - 1, ((1 << 16) - 1) & ~(1 << 5), 0)
    truth = oracle(inst)
    judge = verdict.judge_for(inst, wait=True)
    board = inst.board
    decided = 0
    for grid in random.Random(8).sample(sorted(truth), 300):
        pos = board.to_compact(grid)
        pegs = pos.bit_count()
        if pegs <= judge.top + 1:
            continue
        values = [pg.value(pos) for pg in judge.pagodas]
        with pytest.raises(KernelInputError, match="stacks"):
            judge._chunk(_Lane(pos, pegs - judge.top - 1, values), judge.lane_arrays[0], 10**9)
        judge.dead_table[:] = 0
        outcome = judge._chunk(_Lane(pos, pegs - judge.top, values), judge.lane_arrays[0], 10**9)
        if any(v < need for v, need in zip(values, judge.need_vals, strict=True)):
            continue  # the search assumes the start passes every pagoda
        assert outcome is not fastdfs.Outcome.BUDGET_USED
        assert outcome is not fastdfs.Outcome.FOUND or truth[grid], grid
        decided += 1
    assert decided > 20


def test_peg_kernels_refuse_arguments_past_their_bounds(fresh):
    from plugins.pegs import fastdfs
    from plugins.pegs import levels as lv
    from plugins.pegs.kernel_checks import KernelInputError

    fresh.setattr(tables, "LIVE_POSITIONS", 40)
    inst = PegInstance("square", 4, 4, (1 << 16) - 1, ((1 << 16) - 1) & ~(1 << 5), 0)
    judge = verdict.judge_for(inst, wait=True)
    start = np.uint64(inst.board.to_compact(inst.pegs))
    args = [start, judge.top, judge.levels[judge.top], judge.need, judge.to, judge.flip,
            judge.tables, judge.pag_weights, judge.loss_t, judge.need_vals, judge.dead_table,
            judge.hard, judge.nbr, 1, judge._bloom(), judge.bloom_bits]
    fastdfs.beam(*args)  # valid as given
    with pytest.raises(KernelInputError, match="width"):
        fastdfs.beam(*args[:13], 0, *args[14:])
    with pytest.raises(KernelInputError, match="filter"):
        fastdfs.beam(*args[:14], judge._bloom()[:-1], judge.bloom_bits)
    with pytest.raises(KernelInputError, match="power of two"):
        fastdfs.beam(*args[:10], judge.dead_table[:-1], *args[11:])
    with pytest.raises(KernelInputError, match="words"):
        lv.add_parents(judge.levels[judge.top], judge.need, judge.to, judge.flip, judge.tables,
                       np.zeros(3, np.uint64), 10)


def test_sliding_kernels_refuse_boards_that_are_not_permutations():
    from plugins.sliding.kernel_checks import KernelInputError

    goal = standard_goal(3, 3)
    with pytest.raises(KernelInputError, match="permutation"):
        LinearConflictSearch((1, 2, 3, 4, 5, 6, 7, 9, 0), 3, 3, goal).run()
    with pytest.raises(KernelInputError, match="permutation"):
        wastar.compiled_astar(3, 3, (1, 2, 3, 4, 5, 6, 7, 7, 0), goal, 2.0, 1000, {})
