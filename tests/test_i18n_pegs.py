"""Peg solitaire in Simplified Chinese through its own catalogue (``puzzle_pegs``), and in
English exactly as before (docs/i18n.md).

"English word" means what the browser walk of e2e/zh_text.py means: a run of three or more ASCII
letters. Hole names (d4), moves (f4-d4) and numbers are not words, so they may stay.
"""

from __future__ import annotations

import json
import re

import pytest
from chinese_text import assert_chinese, english_words

from engine import InputError, SolveContext, Solved, Unsolvable, use_locale
from engine.i18n import translate
from plugins.pegs.fewest import FewestMovesSolver
from plugins.pegs.presets import PRESETS
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.render import DefaultRenderer
from plugins.pegs.solver import PlainSolver, SearchSolver
from plugins.pegs.tasks import CountSolutionsTask
from plugins.pegs.verdict import assess

#: A small problem the live verdict decides at once: a1-c1 then c1-e1 leaves one peg.
SMALL = "geometry: square; goal: any; board: oo.o."


@pytest.fixture()
def puzzle() -> PegSolitaire:
    return PegSolitaire()


def svg_title(svg: str) -> str:
    match = re.search(r"<title>(.*?)</title>", svg)
    assert match, "the SVG has no <title>"
    return match.group(1)


def test_the_fixed_texts_the_host_shows_are_chinese(puzzle):
    with use_locale("zh_Hans"):
        assert translate(puzzle, puzzle.title) == "孔明棋"  # the glossary's term
        for what in ("rules", "notation", "limits"):
            assert_chinese(translate(puzzle, getattr(puzzle, what)), what)
        assert_chinese(translate(puzzle, puzzle.random_options["pegs"]), "the pegs option")
        for name in PRESETS:
            assert_chinese(puzzle.preset_label(name), f"preset {name}")
        for solver in (SearchSolver(), PlainSolver(), FewestMovesSolver()):
            # The descriptions name commands (`puzzle prepare pegs`): those are code, not prose.
            text = re.sub(r"`[^`]*`", "", translate(solver, solver.description))
            assert_chinese(text, f"the {solver.name} solver's description")
        task = CountSolutionsTask()
        assert_chinese(translate(task, task.label), "the task's label")
        assert_chinese(translate(task, task.description), "the task's description")
        for mode in puzzle.edit_modes():
            assert_chinese(mode.label, f"edit mode {mode.name}")
        tools = puzzle.edit_tools(puzzle.parse(PRESETS["english"]))
        for tool in tools:
            assert_chinese(tool.label, f"tool {tool.action or tool.label}")
        boards = next(tool for tool in tools if tool.choices and tool.choices[0][1].startswith("board:"))
        for label, action in boards.choices:
            assert_chinese(label, action)


def test_notes_and_verdicts_of_a_solvable_and_an_unsolvable_board_are_chinese(puzzle):
    with use_locale("zh_Hans"):
        solvable = puzzle.parse(PRESETS["english"])
        for note in puzzle.notes(solvable):
            assert_chinese(note, "a note on the English board")
        small = puzzle.parse(SMALL)
        verdict = assess(small, budget=5.0, wait=True)
        assert verdict.verdict == "can"
        assert_chinese(verdict.reason, "the 'can' verdict")
        assert_chinese(verdict.detail, "the proof of 'can'")

        unsolvable = puzzle.parse(PRESETS["european"])  # the French central game
        notes = puzzle.notes(unsolvable)
        assert any("无解" in note for note in notes), notes
        for note in notes:
            assert_chinese(note, "a note on the European board")
        verdict = puzzle.assess(unsolvable)
        assert verdict.verdict == "cannot"
        assert_chinese(verdict.reason, "the 'cannot' verdict")
        assert_chinese(verdict.detail, "the position-class proof")
        outcome = SearchSolver().solve(unsolvable, SolveContext())
        assert isinstance(outcome, Unsolvable)
        assert_chinese(outcome.reason, "the solver's refusal")
        assert_chinese(outcome.detail, "the solver's proof")


def test_the_moves_of_a_real_solution_are_described_in_chinese(puzzle):
    instance = puzzle.parse(PRESETS["english"])
    outcome = SearchSolver().solve(instance, SolveContext())
    assert isinstance(outcome, Solved) and len(outcome.moves) == 31
    state = instance
    with use_locale("zh_Hans"):
        for move in outcome.moves:
            words = puzzle.describe_move(state, move)
            assert_chinese(words, f"the words of {move}")
            # The three holes of the jump are all in the sentence, in the order they are used.
            src, dst = move.split("-")
            assert words.index(src) < words.index(dst)
            state = puzzle.apply_move(state, move)
    assert puzzle.is_solved(state)


@pytest.mark.parametrize("text", [
    "board: ooo/oo",                           # rows of different lengths
    "geometry: square; board: ooo/ooo; goal: ...",  # a goal pattern with no peg
    "board: ...",                              # no peg
    "goal: a9; board: ooo/o.o",                # a goal hole off the board
])
def test_errors_in_instance_text_are_chinese_and_keep_their_where(puzzle, text):
    with pytest.raises(InputError) as english:
        puzzle.parse(text)
    with use_locale("zh_Hans"), pytest.raises(InputError) as chinese:
        puzzle.parse(text)
    assert_chinese(chinese.value.message, f"the error for {text!r}")
    assert chinese.value.where == english.value.where  # machine field: unchanged


def test_errors_in_moves_and_edits_are_chinese(puzzle):
    instance = puzzle.parse(PRESETS["english"])
    with use_locale("zh_Hans"):
        for move in ("d1-d3", "d2-d4-", "f4-f5", "a1-c1"):
            with pytest.raises(InputError) as error:
                puzzle.apply_move(instance, move)
            assert_chinese(error.value.message, f"the error for {move}")
        result = puzzle.edit(instance, "hole:d2", mode="play")
        assert_chinese(result.message, "the message of a selection")
        result = puzzle.edit(instance, "goal:any")
        assert_chinese(result.message, "the message of a goal change")


def test_the_board_drawing_speaks_chinese(puzzle):
    instance = puzzle.parse(PRESETS["english"])
    with use_locale("zh_Hans"):
        svg = DefaultRenderer().render(instance, next_move="d2-d4")
    assert_chinese(svg_title(svg), "the SVG title")
    labels = re.findall(r'aria-label="([^"]*)"', svg)
    assert len(labels) == 49  # every cell of the 7 x 7 grid
    for label in labels:
        assert_chinese(label, "a cell's label")
    assert "d4，空孔、目标" in labels  # the centre: its name, then its state


def test_english_is_unchanged(puzzle):
    """The English texts, byte for byte, as they were before the catalogue existed."""
    with use_locale("en"):
        english = puzzle.parse(PRESETS["english"])
        assert translate(puzzle, puzzle.title) == "Peg solitaire"
        assert puzzle.preset_label("european-c1") == "european-c1"  # the id is the English name
        assert puzzle.notes(english) == [
            "32 pegs on 33 holes (square geometry); a solution has exactly 31 jumps.",
            "A single last peg can only end on d1, a4, d4, g4 or d7 (position classes)."]
        assert puzzle.notes(puzzle.parse(PRESETS["european"]))[1] == (
            "This cannot be solved: from this start, no single peg can end on d4 (position classes "
            "rule it out).")
        assert puzzle.describe_move(english, "d2-d4") == "peg d2 jumps over d3 to d4"
        svg = DefaultRenderer().render(english)
        assert svg_title(svg) == "Peg solitaire: 32 pegs on 33 holes (square)"
        assert 'aria-label="d4, empty hole, goal"' in svg
        assert 'aria-label="a1, no hole"' in svg
        with pytest.raises(InputError) as error:
            puzzle.parse("board: ooo/oo")
        assert error.value.message == ("board row 2 has 2 cells but row 1 has 3: the rows of a square "
                                       "board must all have the same length (draw missing holes with _)")
        with pytest.raises(InputError) as error:
            puzzle.parse("board: ooo/o")
        assert error.value.message.startswith("board row 2 has 1 cell but")  # CLDR "one" in English
        with pytest.raises(InputError) as error:
            puzzle.apply_move(english, "d1-d3")
        assert error.value.message == "d1-d3: the landing hole d3 is not empty"
        with pytest.raises(InputError) as error:
            puzzle.parse("geometry: hex; board: o")
        assert error.value.message == "unknown geometry 'hex'; choose one of: square, diagonal, triangular"


def test_a_count_in_chinese_uses_chinese_units():
    from plugins.pegs.tasks import _many

    with use_locale("zh_Hans"):
        assert _many(230_000_000) == "2.3亿"
        assert _many(51_000_000) == "5100万"
    with use_locale("en"):
        assert _many(51_000_000) == "51 million"


def test_the_board_option_takes_the_name_its_help_shows(puzzle):
    """The Chinese help of the "board" option names the boards in Chinese; typing one of those
    names gives the same random problem as the id, in whichever locale random() runs."""
    with use_locale("zh_Hans"):
        help_text = translate(puzzle, puzzle.random_options["board"])
        assert_chinese(help_text, "the board option's help")
        names = {name: puzzle.preset_label(name) for name in ("english", "triangle-5", "square-6")}
    for board, name in names.items():
        assert name in help_text
        for locale in ("en", "zh_Hans"):
            with use_locale(locale):
                assert puzzle.random(7, {"board": name}) == puzzle.random(7, {"board": board})
    with pytest.raises(InputError):
        puzzle.random(7, {"board": "英式"})  # not a name of any board


def test_the_count_command_speaks_the_locale_and_keeps_its_json():
    from click.testing import CliRunner

    from plugins.pegs.commands import pegs_group

    with use_locale("zh_Hans"):
        text = CliRunner().invoke(pegs_group, ["count", "triangle-5"])
        as_json = CliRunner().invoke(pegs_group, ["count", "triangle-5", "--json"])
    assert text.exit_code == 0, text.output
    assert "29,760 种解法" in text.stdout  # the count, as the unit test of the counter has it
    for line in (text.stdout + text.stderr).splitlines():
        assert not english_words(line), line
    with use_locale("en"):
        english_json = CliRunner().invoke(pegs_group, ["count", "triangle-5", "--json"])
    # For programs: the same keys and counts whatever the locale (only the time differs).
    def timeless(value):
        if isinstance(value, dict):
            return {k: timeless(v) for k, v in value.items() if "second" not in k}
        if isinstance(value, list):
            return [timeless(v) for v in value]
        return value

    chinese, english = json.loads(as_json.stdout), json.loads(english_json.stdout)
    assert chinese.keys() == english.keys()
    assert timeless(chinese) == timeless(english)


def test_a_report_names_its_stats_and_details_for_the_reader(puzzle):
    """The page shows a report's stats and details by name: in Chinese the report carries the
    plugin's words for them (``labels``), keyed by the machine names, which stay unchanged."""
    from engine.solving import run_solver

    instance = puzzle.parse(PRESETS["english"])
    english = run_solver(puzzle, SearchSolver(), instance, SolveContext()).to_json()
    assert "labels" not in english  # an English report is as it always was
    with use_locale("zh_Hans"):
        chinese = run_solver(puzzle, SearchSolver(), instance, SolveContext()).to_json()
    assert set(chinese["stats"]) == set(english["stats"]) and set(chinese["details"]) == set(english["details"])
    labels = chinese["labels"]
    for name in ("found_by", "jumps", "grouped", "dead"):
        assert_chinese(labels[name], f"the name of {name}")
    # The value of found_by is words for people too; in English it is the search's own name.
    assert english["stats"]["found_by"].startswith(("exact search", "probe", "backward set"))
    assert_chinese(chinese["stats"]["found_by"], "found by")
