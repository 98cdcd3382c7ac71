"""Peg solitaire instance text: the format, its canonical form and the errors it names."""

from __future__ import annotations

import pytest

from engine import InputError
from plugins.pegs.board import MAX_HOLES
from plugins.pegs.parse import format_instance, parse_instance
from plugins.pegs.presets import PRESETS

ENGLISH_TEXT = """geometry: square
goal: d4
board:
__ooo__
__ooo__
ooooooo
ooo.ooo
ooooooo
__ooo__
__ooo__"""


def test_english_board_parses_to_33_holes_with_the_centre_empty_and_named_d4():
    inst = parse_instance(PRESETS["english"])
    assert (inst.rows, inst.cols) == (7, 7)
    assert inst.holes.bit_count() == 33 and inst.pegs.bit_count() == 32
    centre = 1 << (3 * 7 + 3)
    assert inst.goal == centre and not inst.pegs & centre
    assert format_instance(inst) == ENGLISH_TEXT


def test_one_line_and_multi_line_forms_are_the_same_instance():
    one_line = "geometry: square; goal: d4; board: __ooo__/__ooo__/ooooooo/ooo.ooo/ooooooo/__ooo__/__ooo__"
    assert parse_instance(one_line) == parse_instance(ENGLISH_TEXT)
    spaces = "goal: d4\n  ooo  \n  ooo  \nooooooo\nooo.ooo\nooooooo\n  ooo  \n  ooo  "
    assert parse_instance(spaces) == parse_instance(ENGLISH_TEXT)  # square is the default


@pytest.mark.parametrize("name", list(PRESETS))
def test_presets_round_trip_through_the_canonical_text(name):
    inst = parse_instance(PRESETS[name])
    text = format_instance(inst)
    assert parse_instance(text) == inst
    assert format_instance(parse_instance(text)) == text


def test_triangular_boards_are_drawn_left_justified():
    inst = parse_instance(PRESETS["triangle-5"])
    assert inst.holes.bit_count() == 15 and inst.pegs.bit_count() == 14
    assert format_instance(inst).splitlines()[3:] == [".", "oo", "ooo", "oooo", "ooooo"]
    # Row r has r holes at columns a.. : e5 is the last hole of the last row, e4 is no hole.
    assert inst.holes >> (4 * 5 + 4) & 1 and not inst.holes >> (3 * 5 + 4) & 1


def test_goal_kinds_any_hole_and_pattern():
    assert parse_instance("goal: any; board: oo.").goal_kind == "any"
    assert parse_instance("board: oo.").goal_kind == "any"
    assert parse_instance("goal: c1; board: oo.").goal == 1 << 2
    pattern = parse_instance("goal: ./../.../..../o...o; geometry: triangular; board: ./oo/ooo/oooo/ooooo")
    assert pattern.goal_kind == "pattern" and pattern.goal.bit_count() == 2
    multi = parse_instance("geometry: triangular\ngoal:\n.\n..\n...\n....\no...o\nboard:\n.\noo\nooo\noooo\nooooo")
    assert multi == pattern


@pytest.mark.parametrize("text, words, where", [
    ("board: ooo/oo", "same length", "board row 2"),
    ("board: ooo/oxo", "unknown character 'x'", "board row 2, column 2"),
    ("board: .../...", "no peg", None),
    ("goal: z9; board: oo./ooo", "off the board", None),
    ("goal: a1; board: _o./ooo", "not a hole", "row 1, column 1"),
    ("goal: o/o/o; board: o/./.", "goal has 3 pegs but the start has only 1", None),
    ("board: " + "o" * 13, "limit is 12", None),
    ("board: " + "/".join(["o" * 11] * 10), f"limit is {MAX_HOLES}", None),
    ("geometry: hexagonal; board: o.o", "unknown geometry", None),
    ("goal: oo/oo; board: ooo/ooo", "goal pattern is 2 x 2 but the board is 2 x 3", None),
    ("goal: o_o; board: ooo", "the board has a hole at b1", "goal row 1, column 2"),
    ("geometry: square", "no board given", None),
    ("goal: d4; goal: d4; board: o", "given twice", None),
    # Text that is no drawing at all hears what a board looks like, not that it is too wide.
    ("nonsense board", "draw it row by row with o for a peg", "board row 1, column 1"),
    ("nonsense board", "e.g. board: _o_/ooo/_._", None),
])
def test_bad_input_is_named(text, words, where):
    with pytest.raises(InputError) as info:
        parse_instance(text)
    assert words in info.value.message
    if where:
        assert info.value.where == where


def test_twelve_by_twelve_is_the_size_limit_and_is_accepted_with_few_enough_holes():
    rows = ["o" * 12 if r % 2 else "." + "_" * 11 for r in range(12)]
    inst = parse_instance("board: " + "/".join(rows))
    assert (inst.rows, inst.cols) == (12, 12)
