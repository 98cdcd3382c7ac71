"""Sliding-tile rules: the parity rule against breadth-first search, parsing, formatting, JSON,
moves, presets and random instances."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sliding_reference import bfs_distances

from engine import InputError, replay
from plugins.sliding.board import (
    Board,
    _count_inversions,
    blank_first_goal,
    board_from_json,
    board_to_json,
    format_board,
    is_solvable,
    make_board,
    parse_board,
    standard_goal,
    unsolvable_detail,
    unsolvable_reason,
)
from plugins.sliding.heuristics import Heuristic, lower_bound
from plugins.sliding.puzzle import PRESETS, SlidingPuzzle

PUZZLE = SlidingPuzzle()
KORF_FILE = Path(__file__).resolve().parents[1] / "data" / "korf15-1-50.txt"


def centre_blank_goal(rows, cols):
    """A goal with the blank in the middle and the tiles in a scrambled order."""
    tiles = list(range(1, rows * cols))
    random.Random(7).shuffle(tiles)
    tiles.insert((rows // 2) * cols + cols // 2, 0)
    return tuple(tiles)


@pytest.mark.parametrize("rows, cols, goal_maker", [
    (2, 2, standard_goal), (2, 2, blank_first_goal),
    (2, 3, standard_goal), (3, 2, standard_goal), (2, 3, blank_first_goal), (2, 3, centre_blank_goal),
    (3, 3, standard_goal), (3, 3, centre_blank_goal),
])
def test_parity_rule_matches_breadth_first_search_on_every_state(rows, cols, goal_maker):
    goal = goal_maker(rows, cols)
    reachable = bfs_distances(rows, cols, goal)
    n = rows * cols
    import math
    assert len(reachable) == math.factorial(n) // 2  # exactly half the positions, as the rule says
    mismatches = [p for p in itertools.permutations(range(n))
                  if is_solvable(Board(rows, cols, p, goal)) != (tuple(p) in reachable)]
    assert mismatches == []


def test_bfs_knows_the_hardest_8_puzzle_and_the_presets_lengths():
    dist = bfs_distances(3, 3, standard_goal(3, 3))
    assert max(dist.values()) == 31
    assert dist[parse_board(PRESETS["hard-8"]).tiles] == 31
    assert dist[parse_board(PRESETS["8-puzzle"]).tiles] == 20


def test_lower_bound_never_exceeds_the_true_distance():
    dist = bfs_distances(3, 3, standard_goal(3, 3))
    heur = Heuristic(3, 3, standard_goal(3, 3))
    rng = random.Random(3)
    states = rng.sample(sorted(dist), 6000)
    for s in states:
        assert heur.value(s) <= dist[s]
    # ... and linear conflict adds something over Manhattan somewhere.
    assert any(heur.conflicts(s) > 0 for s in states)
    goal = centre_blank_goal(3, 3)
    dist = bfs_distances(3, 3, goal)
    heur = Heuristic(3, 3, goal)
    for s in rng.sample(sorted(dist), 3000):
        assert heur.value(s) <= dist[s]


def test_incremental_bound_equals_recomputed_bound():
    rng = random.Random(5)
    board = PUZZLE.random(1, {"size": "4x5"})
    heur = Heuristic(4, 5, board.goal)
    tiles, h = board.tiles, heur.value(board.tiles)
    for _ in range(300):
        blank = tiles.index(0)
        cell = rng.choice([c for c in range(20) if abs(c // 5 - blank // 5) + abs(c % 5 - blank % 5) == 1])
        new = list(tiles)
        new[blank], new[cell] = new[cell], 0
        new = tuple(new)
        h = heur.after_slide(tiles, h, cell, blank, new)
        tiles = new
        assert h == heur.value(tiles)


@given(st.permutations(list(range(40))))
@settings(max_examples=60, deadline=None)
def test_inversion_count_matches_brute_force(perm):
    brute = sum(1 for i in range(len(perm)) for j in range(i + 1, len(perm)) if perm[i] > perm[j])
    assert _count_inversions(perm) == brute


def test_unsolvable_reason_is_one_plain_sentence_and_the_detail_gives_the_parity_proof():
    odd = parse_board("2 1 3/4 5 6/7 8 0")
    reason = unsolvable_reason(odd)
    assert reason.startswith("No: this board cannot be solved") and reason.count(".") == 1
    detail = unsolvable_detail(odd)
    assert "3 wide (odd)" in detail and "has 1 inversion " in detail and "Swapping any two" in detail
    even = parse_board("2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0")
    assert unsolvable_reason(even) == reason
    detail = unsolvable_detail(even)
    assert "4 wide (even)" in detail and "blank is 0 rows from" in detail and "1 + 0 = 1" in detail
    far = parse_board("1 2 3 4/5 6 7 8/9 10 11 0/13 14 15 12")  # one slide up, tiles 12 and 15 swapped
    swapped = parse_board("1 2 3 4/5 6 7 8/9 10 11 0/13 14 12 15")
    assert is_solvable(far) != is_solvable(swapped)
    assert "blank is 1 row from" in unsolvable_detail(far if not is_solvable(far) else swapped)
    assert unsolvable_reason(parse_board("1 2 3/4 5 6/7 8 0")) is None
    assert unsolvable_detail(parse_board("1 2 3/4 5 6/7 8 0")) == ""
    assert PUZZLE.notes(odd) == ("This board cannot be solved, because its inversions have the "
                                 "wrong parity (as if two tiles had been swapped) and no slide can "
                                 "change that.",)
    assert PUZZLE.notes(parse_board("1 2 3/4 5 6/7 0 8"))[0].startswith("Solvable; it takes at least 1 move ")
    assert "at least 2 moves " in PUZZLE.notes(parse_board("1 2 3/4 5 6/0 7 8"))[0]


# -- text ------------------------------------------------------------------------------------------

def test_parse_forms_and_canonical_format():
    board = parse_board("1 2 3/4 5 6/7 8 0")
    assert (board.rows, board.cols, board.tiles) == (3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    assert board.goal == standard_goal(3, 3)
    assert parse_board("1 2 3\n4 5 6\n7 8 0\n") == board
    assert parse_board(" 1 2 3 4 5 6 7 8 0 ") == board  # a flat square list
    assert parse_board("1,2,3/4,5,6/7,8,0") == board
    assert format_board(board) == "1 2 3/4 5 6/7 8 0"
    wide = parse_board("1 2 3 4 5/6 7 8 9 0")
    assert (wide.rows, wide.cols) == (2, 5) and format_board(wide) == "1 2 3 4 5/6 7 8 9 0"


def test_goal_syntax_round_trips():
    text = "1 2 3/4 5 6/7 8 0 ; goal: 0 1 2/3 4 5/6 7 8"
    board = parse_board(text)
    assert board.goal == (0, 1, 2, 3, 4, 5, 6, 7, 8)
    assert format_board(board) == text
    assert parse_board("1 2 3/4 5 6/7 8 0 ; goal: blank-first") == board
    assert parse_board("1 2 3/4 5 6/7 8 0\ngoal: 0 1 2 3 4 5 6 7 8") == board
    # The standard goal is not written out.
    assert format_board(parse_board("1 2 3/4 5 6/7 8 0; goal: blank-last")) == "1 2 3/4 5 6/7 8 0"


@pytest.mark.parametrize("text, words, where", [
    ("1 2 3/4 5 6/7 8", "row 1 has 3", "row 3"),                 # ragged
    ("1 2 3/4 5 5/7 8 0", "tile 5 appears twice (also at row 2, column 2); missing: tile 6",
     "row 2, column 3"),
    ("1 2 3/4 5 0/7 8 0", "blank (0) appears twice (also at row 2, column 3); missing: tile 6",
     "row 3, column 3"),
    ("1 2 3/4 5 6/7 8 9", "9 is out of range", "row 3, column 3"),
    ("1 2 3/4 x 6/7 8 0", "'x' is not a tile number", "row 2, column 2"),
    ("1 2 3/4 -5 6/7 8 0", "is not a tile number", "row 2, column 2"),
    ("1 2 3 4 5 0", "one row of 6 numbers is not a board", "row 1"),
    ("1/2/3/0", "4 x 1 board is not a puzzle", None),
    ("1 2 3/4 5 6/7 8 0 ; goal: 1 2/3 0", "the goal is 2 x 2", "goal"),
    ("1 2 3/4 5 6/7 8 0 ; goal: 1 2 3 4 5 6 7 8 8", "tile 8 appears twice", "goal row 3, column 3"),
    ("1 2 3/4 5 6/7 8 0 ; goal: sideways", "'sideways' is not a tile number", "goal row 1, column 1"),
    ("1 2 3/4 5 6/7 8 0 ; goal: 0 1 2/3 4 5 ; goal: 1", "more than once", None),
    ("", "empty", None),
    ("1 2 3//4 5 6", "this row is empty", "row 2"),
    ("1 2 3/4 5 6/7 8 0 99999999999", "out of range", None),
])
def test_parse_errors_name_the_problem_and_where(text, words, where):
    with pytest.raises(InputError) as info:
        parse_board(text)
    assert words in info.value.message
    if where is not None:
        assert info.value.where == where


def test_too_big_boards_are_refused():
    rows = "/".join(" ".join("1" for _ in range(3)) for _ in range(33))
    with pytest.raises(InputError, match="limit is 32 x 32"):
        parse_board(rows)
    with pytest.raises(InputError, match="limit is 32 x 32"):
        parse_board(" ".join(map(str, range(33 * 33))))
    with pytest.raises(InputError, match="limit is 32 x 32"):
        make_board(2, 40, list(range(80)))
    big = PUZZLE.random(0, {"size": "32x32"})  # the limit itself is fine
    assert parse_board(format_board(big)) == big


def test_json_round_trip_and_validation():
    board = parse_board("1 2 3/4 5 6/7 8 0 ; goal: blank-first")
    data = board_to_json(board)
    assert data == {"rows": 3, "cols": 3, "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 0],
                    "goal": [0, 1, 2, 3, 4, 5, 6, 7, 8]}
    assert board_from_json(data) == board
    assert board_from_json({"rows": 2, "cols": 2, "tiles": [1, 2, 3, 0]}).goal == (1, 2, 3, 0)
    assert board_from_json({"text": "1 2/3 0"}) == parse_board("1 2/3 0")
    for bad, words in [
        ([1, 2], "JSON object"),
        ({"rows": 2, "cols": 2, "tiles": [1, 2, 3]}, "needs 4 numbers"),
        ({"rows": 2, "cols": 2, "tiles": [1, 2, 3, 3]}, "appears twice"),
        ({"rows": True, "cols": 2, "tiles": [1, 2, 3, 0]}, "whole number"),
        ({"rows": 2, "cols": 2, "tiles": [1, 2.0, 3, 0]}, "whole numbers"),
        ({"rows": 1, "cols": 4, "tiles": [1, 2, 3, 0]}, "not a puzzle"),
        ({"rows": 99, "cols": 4, "tiles": []}, "limit"),
        ({"rows": 2, "cols": 2, "tiles": [1, 2, 3, 0], "goal": [0, 1, 2]}, "goal needs 4"),
        ({"rows": 2, "cols": 2, "tiles": [1, 2, 3, 0], "colour": "red"}, "unknown field"),
    ]:
        with pytest.raises(InputError) as info:
            board_from_json(bad)
        assert words in info.value.message


# -- moves -----------------------------------------------------------------------------------------

def test_moves_are_tile_numbers_next_to_the_blank():
    board = parse_board("1 2 3/4 0 6/7 5 8")
    assert sorted(PUZZLE.legal_moves(board)) == ["2", "4", "5", "6"]
    after = PUZZLE.apply_move(board, "5")
    assert after.tiles == (1, 2, 3, 4, 5, 6, 7, 0, 8)
    assert PUZZLE.is_solved(PUZZLE.apply_move(after, "8"))
    for move, words in [("1", "not next to the blank"), ("9", "no tile 9"), ("0", "no tile 0"),
                        ("x", "not a tile number"), ("", "not a tile number")]:
        with pytest.raises(InputError) as info:
            PUZZLE.apply_move(board, move)
        assert words in info.value.message
    with pytest.raises(InputError) as info:
        replay(PUZZLE, board, ["5", "8", "1"])
    assert info.value.where == "move 3 (1)"


# -- presets and random instances ------------------------------------------------------------------

def test_presets_parse_are_solvable_and_korf_instances_are_converted_right():
    for name, text in PRESETS.items():
        board = parse_board(text)
        assert format_board(board) == text, name
        assert is_solvable(board), name
    korf = [list(map(int, line.split())) for line in KORF_FILE.read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    for preset, row in (("korf-1", korf[0]), ("korf-2", korf[1])):
        # Independent conversion: solve the blank-first instance's mirror image by relabelling.
        original = Board(4, 4, tuple(row[:16]), blank_first_goal(4, 4))
        converted = parse_board(PRESETS[preset])
        assert [16 - t if t else 0 for t in reversed(converted.tiles)] == list(original.tiles)
        assert is_solvable(original) and is_solvable(converted)
        assert lower_bound(converted) == lower_bound(original)  # the same puzzle, turned around


def test_random_boards_are_solvable_reproducible_and_sized():
    seen = set()
    for seed in range(30):
        board = PUZZLE.random(seed, {"size": "4x5"})
        assert (board.rows, board.cols) == (4, 5)
        assert is_solvable(board)
        assert PUZZLE.random(seed, {"size": "4x5"}) == board
        seen.add(board.tiles)
    assert len(seen) == 30
    first = PUZZLE.random(0, {"size": "3x3", "goal": "blank-first"})
    assert first.goal == blank_first_goal(3, 3) and is_solvable(first)
    assert PUZZLE.random(4).rows == 3
    for options in ({"size": "1x5"}, {"size": "40x40"}, {"size": "big"}, {"colour": "red"},
                    {"goal": "sideways"}):
        with pytest.raises(InputError):
            PUZZLE.random(0, options)


def test_random_2x2_boards_are_uniform_over_the_solvable_ones():
    counts = Counter(PUZZLE.random(seed, {"size": "2x2"}).tiles for seed in range(6000))
    reachable = bfs_distances(2, 2, standard_goal(2, 2))
    assert set(counts) == set(reachable)  # all 12 and only those
    assert min(counts.values()) > 6000 / 12 * 0.75
    assert max(counts.values()) < 6000 / 12 * 1.25


def test_row_length_messages_agree_in_number():
    puzzle = SlidingPuzzle()
    with pytest.raises(InputError) as err:
        puzzle.parse("1 2 3/4 5 6/7")
    assert "this row has 1 number but row 1 has 3" in err.value.message
