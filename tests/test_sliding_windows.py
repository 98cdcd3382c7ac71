"""Windows of an answer re-solved with the compact tables relabelled to the window's end
(:mod:`plugins.sliding.window_pdb`), and the shortening built on them
(:mod:`plugins.sliding.shorten`). Small tables the tests build themselves (the 5x5 ones are
never needed): the heuristic against breadth-first distances to goals with the blank anywhere,
the window search against breadth-first search and the linear-conflict IDA*. No timed
assertions."""

from __future__ import annotations

import random

import pytest
from sliding_reference import bfs_distances

from plugins.sliding.ida_lc import LinearConflictSearch
from plugins.sliding.shorten import polish, shorten, states_along
from plugins.sliding.window_pdb import (
    WindowSearch,
    broken_lookups,
    pdb_window,
    relabel,
    solve_window,
    tied_window,
    window_heuristic,
    without,
)

# The 3x3 partition's 5-tile pattern at home walls in the goal's blank cell (8): the case where
# a table's goal is not the relabelled goal.
# Ends with the blank in a corner (a symmetry makes the relabelling complete), on an edge and
# in the middle.
ENDS_3X3 = ((5, 1, 3, 8, 2, 6, 4, 7, 0), (1, 0, 3, 4, 2, 6, 7, 5, 8), (8, 1, 3, 4, 0, 2, 7, 6, 5))


def random_walk(tiles, steps, cols, rng):
    """(board after ``steps`` random moves that never undo the last one, the tiles moved)."""
    board = list(tiles)
    moves: list[int] = []
    n = len(board)
    while len(moves) < steps:
        b = board.index(0)
        q = rng.choice([c for c in (b - cols, b + cols, b - 1, b + 1)
                        if 0 <= c < n and (abs(c - b) == cols or c // cols == b // cols)])
        if moves and board[q] == moves[-1]:
            continue
        moves.append(board[q])
        board[b], board[q] = board[q], 0
    return board, moves


def replays(start, moves, end) -> bool:
    return states_along(start, moves)[-1] == list(end)


@pytest.mark.parametrize("end", ENDS_3X3)
def test_heuristic_never_exceeds_the_distance_and_windows_are_shortest(small_tables, end):
    dist = bfs_distances(3, 3, end)
    rng = random.Random(sum(i * t for i, t in enumerate(end)))
    for board, d in rng.sample(sorted(dist.items()), 150):
        assert window_heuristic(board, end, small_tables[3]) <= d
    for board, d in rng.sample(sorted(dist.items()), 25):
        path, _, exhausted = solve_window(board, end, small_tables[3], 1 << 30, lambda: False, 10**9)
        assert exhausted and len(path) == d and replays(board, path, end)
        # Cut at the shortest length: nothing shorter, and the search proves it.
        assert solve_window(board, end, small_tables[3], d, lambda: False, 10**9)[::2] == (None, True)


def test_the_walled_in_pattern_counts_zero_and_must(small_tables):
    """Pattern 4-8 at home (and its mirrored lookup, tiles 2-3-5-6-8) walls in cell 8: for a
    goal with the blank elsewhere its table's distances are to another goal. Left in, the
    heuristic overestimates some boards."""
    t = small_tables[3]
    end = (1, 2, 3, 0, 5, 6, 7, 8, 4)                   # blank at cell 3: tile 4 has no label
    lookups = {lk: {tile for tile in range(1, 9) if lk in (t.ln[tile], t.lm[tile])}
               for lk in range(2 * t.npat)}
    walled = [lk for lk, tiles in lookups.items() if {6, 8} <= tiles]   # homes 5 and 7
    broken = broken_lookups(t, 3)
    assert len(walled) == 2 and set(walled) <= set(broken) and broken_lookups(t, 8) == []
    assert any(4 not in lookups[lk] for lk in walled)   # broken for the wall alone
    dist = bfs_distances(3, 3, end)
    lost_only = [lk for lk in broken if 4 in lookups[lk]]
    over = 0
    for board, d in random.Random(3).sample(sorted(dist.items()), 400):
        relabelled, goal_cell, _ = relabel(board, end, list(range(9)))
        over += WindowSearch(relabelled, without(t, lost_only), goal_cell, ub=1 << 30).h0 > d
    assert over > 0, "the walled-in table never overestimated: this test checks nothing"


def test_window_search_equals_linear_conflict_ida_on_the_15_puzzle(small_tables):
    rng = random.Random(7)
    goal = list(range(1, 16)) + [0]
    for _ in range(12):
        start, _ = random_walk(goal, 40, 4, rng)
        end, _ = random_walk(start, rng.randrange(10, 22), 4, rng)
        exact = LinearConflictSearch(start, 4, 4, end).run()
        assert window_heuristic(start, end, small_tables[4]) <= len(exact)
        path, _, _ = solve_window(start, end, small_tables[4], 1 << 30, lambda: False, 10**9)
        assert len(path) == len(exact) and replays(start, path, end)


def test_shortening_keeps_a_solution_and_never_lengthens_it(small_tables):
    rng = random.Random(11)
    goal = list(range(1, 16)) + [0]
    for _ in range(3):
        # A long random walk back from the goal: a solution with plenty of waste.
        start, walk = random_walk(goal, 70, 4, rng)
        back = []
        board = list(goal)
        for tile in walk:
            back.append(tile)
            b, q = board.index(0), board.index(tile)
            board[b], board[q] = tile, 0
        moves = back[::-1]
        assert replays(start, moves, goal)
        short, _ = shorten(start, moves, 4, 4, lambda: False, (12, 24), 200_000,
                           pdb_window(small_tables[4]))
        assert replays(start, short, goal) and len(short) <= len(moves)
        calls = iter(range(200))
        polished, _ = polish(start, short, tied_window(small_tables[4]),
                             lambda calls=calls: next(calls, None) is None, windows=(10, 16),
                             node_cap=100_000)
        assert replays(start, polished, goal) and len(polished) <= len(short)
