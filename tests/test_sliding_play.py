"""Sliding tiles while playing: moves in words and the live verdict (assess), checked against
breadth-first search over every position of small boards."""

from __future__ import annotations

import itertools
import random

import pytest
from sliding_reference import bfs_distances

from plugins.sliding.board import Board, blank_first_goal, standard_goal
from plugins.sliding.puzzle import SlidingPuzzle

PUZZLE = SlidingPuzzle()


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 2), (2, 4)])
@pytest.mark.parametrize("make_goal", [standard_goal, blank_first_goal])
def test_assess_agrees_with_breadth_first_search_on_every_position(rows, cols, make_goal):
    goal = make_goal(rows, cols)
    reachable = bfs_distances(rows, cols, goal)
    verdicts = {"can": 0, "cannot": 0, "solved": 0}
    for tiles in itertools.permutations(range(rows * cols)):
        verdict = PUZZLE.assess(Board(rows, cols, tiles, goal))
        expected = "solved" if tiles == goal else ("can" if tiles in reachable else "cannot")
        assert verdict.verdict == expected, (tiles, verdict)
        assert verdict.reason and (verdict.detail or expected == "solved")
        verdicts[verdict.verdict] += 1
    assert verdicts["cannot"] == verdicts["can"] + 1  # exactly half the positions are reachable


def test_assess_agrees_with_breadth_first_search_on_3x3_samples():
    goal = standard_goal(3, 3)
    reachable = bfs_distances(3, 3, goal)
    rng = random.Random(9)
    for _ in range(400):
        tiles = list(range(9))
        rng.shuffle(tiles)
        verdict = PUZZLE.assess(Board(3, 3, tuple(tiles), goal)).verdict
        assert verdict == ("can" if tuple(tiles) in reachable else "cannot")
        if verdict == "cannot":
            assert PUZZLE.assess(Board(3, 3, tuple(tiles), goal)).reason.startswith("No: ")


def test_assess_decides_the_largest_boards_too():
    big = PUZZLE.random(5, {"size": "32x32"})
    assert PUZZLE.assess(big).verdict == "can"
    tiles = list(big.tiles)
    a, b = [i for i, t in enumerate(tiles) if t][:2]
    tiles[a], tiles[b] = tiles[b], tiles[a]
    assert PUZZLE.assess(Board(32, 32, tuple(tiles), big.goal)).verdict == "cannot"


def test_describe_move_names_the_tile_and_the_way_it_slides():
    board = PUZZLE.parse("1 2 3/4 0 6/7 5 8")
    words = {move: PUZZLE.describe_move(board, move) for move in PUZZLE.legal_moves(board)}
    # The blank is in the middle: the tile above it moves down, the one to its right moves left.
    assert words == {"2": "tile 2 slides down", "5": "tile 5 slides up",
                     "4": "tile 4 slides right", "6": "tile 6 slides left"}
    for move, text in words.items():
        after = PUZZLE.apply_move(board, move)
        dr, dc = (divmod(after.tiles.index(int(move)), 3)[i] - divmod(board.tiles.index(int(move)), 3)[i]
                  for i in (0, 1))
        assert text.endswith({(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}[dr, dc])
