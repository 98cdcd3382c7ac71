"""Peg solitaire rules, notes, random instances and editing."""

from __future__ import annotations

import random

import pytest

from engine import InputError, SolveContext, replay
from plugins.pegs.board import board_for
from plugins.pegs.classes import invariant_for
from plugins.pegs.pagoda import pagodas_for
from plugins.pegs.parse import format_instance, parse_instance
from plugins.pegs.presets import PRESETS
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.solver import SearchSolver

PUZZLE = PegSolitaire()


def english():
    return PUZZLE.parse(PRESETS["english"])


def test_english_start_has_the_four_jumps_into_the_centre():
    assert sorted(PUZZLE.legal_moves(english())) == ["b4-d4", "d2-d4", "d6-d4", "f4-d4"]


def test_a_jump_moves_the_peg_and_removes_the_jumped_one():
    after = PUZZLE.apply_move(english(), "f4-d4")
    cell = lambda name: 1 << ((int(name[1:]) - 1) * 7 + "abcdefg".index(name[0]))
    assert after.pegs & cell("d4") and not after.pegs & cell("e4") and not after.pegs & cell("f4")
    assert after.peg_count == 31


@pytest.mark.parametrize("move, words", [
    ("f4d4", "not a jump; write it as from-to"),
    ("d4-f4", "no peg at d4"),
    ("e3-e5", "landing hole e5 is not empty"),
    ("f4-c4", "not a jump: the landing hole must be two holes away"),
    ("a1-c1", "a1 is not a hole"),
    ("q4-d4", "off the board"),
])
def test_illegal_jumps_are_refused_with_a_clear_message(move, words):
    with pytest.raises(InputError) as info:
        PUZZLE.apply_move(english(), move)
    assert words in info.value.message


def test_jumped_hole_must_hold_a_peg():
    state = PUZZLE.apply_move(english(), "f4-d4")  # e4 and f4 are now empty
    with pytest.raises(InputError, match="no peg at f4 to jump over"):
        PUZZLE.apply_move(state, "g4-e4")


def test_triangular_jumps_follow_rows_columns_and_the_down_right_diagonal():
    tri = PUZZLE.parse(PRESETS["triangle-5"])  # vacancy at the top, a1
    assert sorted(PUZZLE.legal_moves(tri)) == ["a3-a1", "c3-a1"]
    with pytest.raises(InputError):
        PUZZLE.apply_move(parse_instance("geometry: triangular; board: ./oo/ooo"), "a3-c1")


def test_diagonal_geometry_allows_diagonal_jumps_and_square_does_not():
    diag = parse_instance("geometry: diagonal; board: ooo/ooo/oo.")
    square = parse_instance("geometry: square; board: ooo/ooo/oo.")
    assert "a1-c3" in PUZZLE.legal_moves(diag)
    assert "a1-c3" not in PUZZLE.legal_moves(square)


def test_describe_solution_groups_jumps_of_the_same_peg():
    inst = parse_instance("goal: any; board: oo.o./..o..")
    # a1 jumps b1 into c1, then on over d1 into e1: one move of two jumps.
    facts = PUZZLE.describe_solution(inst, ["a1-c1", "c1-e1"])
    assert facts == {"jumps": 2, "moves": 1, "grouped": ["a1-c1-e1"]}
    facts = PUZZLE.describe_solution(inst, ["d2-d4", "d4-f4", "a1-c1"])
    assert facts["grouped"] == ["d2-d4-f4", "a1-c1"] and facts["jumps"] == 3 and facts["moves"] == 2


def test_notes_explain_the_european_central_game_and_list_english_finishes():
    notes = PUZZLE.notes(PUZZLE.parse(PRESETS["european"]))
    assert notes[1] == ("This cannot be solved: from this start, no single peg can end on d4 "
                        "(position classes rule it out).")
    notes = " ".join(PUZZLE.notes(english()))
    assert "can only end on d1, a4, d4, g4 or d7" in notes and "31 jumps" in notes


def test_class_of_a_position_never_changes_along_random_games():
    rng = random.Random(7)
    for name in ("english", "european-c1", "triangle-6", "diamond"):
        state = PUZZLE.parse(PRESETS[name])
        board = state.board
        inv = invariant_for(board.geometry, board.rows, board.cols, board.holes)
        first = inv.of(board.to_compact(state.pegs))
        while moves := PUZZLE.legal_moves(state):
            state = PUZZLE.apply_move(state, rng.choice(moves))
            assert inv.of(board.to_compact(state.pegs)) == first


def test_pagoda_values_never_grow_along_random_games():
    rng = random.Random(3)
    for name in ("english", "wiegleb", "triangle-6", "diamond"):
        state = PUZZLE.parse(PRESETS[name])
        board = state.board
        pagodas = pagodas_for(board, board.to_compact(state.goal) or 1)
        assert pagodas
        for _ in range(5):
            s = state
            values = [p.value(board.to_compact(s.pegs)) for p in pagodas]
            while moves := PUZZLE.legal_moves(s):
                s = PUZZLE.apply_move(s, rng.choice(moves))
                now = [p.value(board.to_compact(s.pegs)) for p in pagodas]
                assert all(a <= b for a, b in zip(now, values))
                values = now


def test_random_instances_are_reproducible_solvable_and_validated():
    for seed in range(4):
        inst = PUZZLE.random(seed)
        assert PUZZLE.format(inst) == PUZZLE.format(PUZZLE.random(seed))
        outcome = SearchSolver().solve(inst, SolveContext.with_timeout(20))
        assert outcome.status == "solved"
        assert PUZZLE.is_solved(replay(PUZZLE, inst, outcome.moves)[-1])
    inst = PUZZLE.random(5, {"board": "wiegleb", "pegs": "12"})
    assert inst.board.n == 45 and inst.peg_count == 12
    for options, words in [({"board": "moon"}, "unknown board"), ({"pegs": "1"}, "from 2 to"),
                           ({"pegs": "x"}, "whole number"), ({"colour": "red"}, "unknown option")]:
        with pytest.raises(InputError, match=words):
            PUZZLE.random(0, options)


# -- editing ---------------------------------------------------------------------------------


def test_play_mode_selects_a_peg_then_jumps_to_the_clicked_hole():
    first = PUZZLE.edit(english(), "hole:f4", mode="play")
    assert first.selection == "f4" and first.instance == english() and "d4" in first.message
    second = PUZZLE.edit(first.instance, "hole:d4", mode="play", selection=first.selection)
    assert second.selection is None
    assert second.instance == PUZZLE.apply_move(english(), "f4-d4")
    with pytest.raises(InputError, match="click a peg first"):
        PUZZLE.edit(english(), "hole:d4", mode="play")


def test_toggle_cycles_peg_empty_no_hole_peg():
    inst = english()
    a = PUZZLE.edit(inst, "hole:c1", mode="toggle").instance
    b = PUZZLE.edit(a, "hole:c1", mode="toggle").instance
    c = PUZZLE.edit(b, "hole:c1", mode="toggle").instance
    assert a.peg_count == 31 and a.holes == inst.holes
    assert b.holes.bit_count() == 32
    assert c == inst
    added = PUZZLE.edit(inst, "hole:a1", mode="toggle").instance  # no hole -> peg
    assert added.holes.bit_count() == 34 and PUZZLE.parse(PUZZLE.format(added)) == added
    lone = parse_instance("board: o.")
    with pytest.raises(InputError, match="at least one peg"):
        PUZZLE.edit(lone, "hole:a1", mode="toggle")


def test_goal_mode_and_tools():
    inst = PUZZLE.edit(english(), "hole:d1", mode="goal").instance
    assert format_instance(inst).splitlines()[1] == "goal: d1"
    assert PUZZLE.edit(inst, "hole:d1", mode="goal").instance.goal == 0  # clicking again: any
    assert PUZZLE.edit(inst, "goal:any").instance.goal == 0
    tri = PUZZLE.edit(english(), "geometry:triangular").instance
    assert tri.geometry == "triangular" and tri.holes == english().holes
    big = PUZZLE.edit(english(), "resize:9x9").instance
    assert (big.rows, big.cols) == (9, 9) and PUZZLE.parse(PUZZLE.format(big)) == big
    reset = PUZZLE.edit(PUZZLE.apply_move(english(), "f4-d4"), "reset").instance
    assert reset == english()
    assert PUZZLE.edit(english(), "board:triangle-5").instance == PUZZLE.parse(PRESETS["triangle-5"])
    for bad in ("hole:z99", "resize:40x40", "geometry:hex", "board:moon", "jump", "hole:a1"):
        with pytest.raises(InputError):
            PUZZLE.edit(english(), bad, mode="play")


def test_every_edit_tool_gives_a_valid_instance():
    inst = english()
    for tool in PUZZLE.edit_tools(inst):
        for action in [tool.action] * bool(tool.action) + [a for _, a in tool.choices]:
            edited = PUZZLE.edit(inst, action).instance
            assert PUZZLE.parse(PUZZLE.format(edited)) == edited
            assert board_for(edited.geometry, edited.rows, edited.cols, edited.holes).n > 0


def test_validate_refuses_a_goal_with_more_pegs_than_the_board():
    """Edits go through ``validate``: a goal of two pegs on a one-peg board can never be met."""
    from dataclasses import replace

    from plugins.pegs.rules import validate
    start = english()
    one_peg = start.pegs & -start.pegs                     # the lowest peg alone
    two_goal = start.pegs & ~one_peg
    two_goal &= -two_goal                                  # another peg's hole
    two_goal |= one_peg
    with pytest.raises(InputError, match="the goal has 2 pegs but the board has only 1"):
        validate(replace(start, pegs=one_peg, goal=two_goal))
    assert validate(replace(start, pegs=two_goal, goal=two_goal)).goal == two_goal
