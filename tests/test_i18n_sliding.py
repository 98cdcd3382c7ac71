"""The sliding-tile plugin (数字华容道) in Simplified Chinese, from its own catalogue
``puzzle_sliding``, and unchanged in English (docs/i18n.md).

Each text a reader sees is checked for English words under ``use_locale("zh_Hans")``: a word is a
run of three or more ASCII letters, as in e2e/zh_text.py, so tile numbers, sizes ("3×3") and
single letters never count. The catalogue's completeness is tests/test_i18n_catalogues.py.
"""

from __future__ import annotations

import re

import pytest
from chinese_text import assert_chinese

from engine import InputError, SolveContext, Solved, Unsolvable, use_locale
from engine.i18n import translate
from plugins.sliding import hooks
from plugins.sliding.fast import FastSolver
from plugins.sliding.i18n import CATALOGUE
from plugins.sliding.optimal import OptimalSolver
from plugins.sliding.puzzle import PRESETS, SlidingPuzzle
from plugins.sliding.render import DefaultRenderer

PUZZLE = SlidingPuzzle()
RENDERER = DefaultRenderer()
#: A board one swap away from solved: no slide sequence reaches the goal (3 wide, 1 inversion).
UNSOLVABLE = "1 2 3/4 5 6/8 7 0"
#: The same on an even-width board (the proof then counts the blank's row too).
UNSOLVABLE_4 = "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0"

#: Not English prose: the names of the goals in the instance text, which parse() reads as they
#: are (``; goal: blank-first``), and the search methods' names.
NOTATION = {"goal", "blank", "last", "first", "IDA"}


def chinese(text: str | None, allowed: set[str] = frozenset()) -> str:
    """``text`` itself, after checking it holds Chinese and no English word but ``allowed``."""
    return assert_chinese(text, allowed=allowed)


def svg_texts(svg: str) -> list[str]:
    """The title and every aria-label of an SVG drawing: what a screen reader speaks."""
    return re.findall(r"<title>([^<]*)</title>", svg) + re.findall(r'aria-label="([^"]*)"', svg)


def registered() -> list:
    objects: list = []
    for hook in (hooks.register_puzzles, hooks.register_solvers, hooks.register_renderers):
        hook(objects.append)
    return objects


def test_every_class_of_the_plugin_names_the_plugin_catalogue():
    assert CATALOGUE.domain == "puzzle_sliding"
    assert "zh_Hans" in CATALOGUE.locales()
    objects = registered()
    assert len(objects) == 6  # the puzzle, four solvers, the renderer
    for obj in objects:
        assert obj.catalogue is CATALOGUE, type(obj).__name__


def test_the_fixed_texts_the_host_shows_are_chinese():
    with use_locale("zh_Hans"):
        assert chinese(translate(PUZZLE, PUZZLE.title)) == "数字华容道"
        chinese(translate(PUZZLE, PUZZLE.rules))
        chinese(translate(PUZZLE, PUZZLE.notation), NOTATION)
        chinese(translate(PUZZLE, PUZZLE.limits))
        for text in PUZZLE.random_options.values():
            chinese(translate(PUZZLE, text), NOTATION)
        for name in PRESETS:
            label = PUZZLE.preset_label(name)
            chinese(label)
        assert PUZZLE.preset_label("15-puzzle") == "4×4 数字华容道"
        for mode in PUZZLE.edit_modes():
            chinese(mode.label)
        for tool in PUZZLE.edit_tools(PUZZLE.parse(PRESETS["8-puzzle"])):
            chinese(tool.label)
            for label, _action in tool.choices:
                # The sizes ("3 x 3") are numbers; the goal choices are words.
                if not re.fullmatch(r"\d+ x \d+", label):
                    chinese(label)
        for solver in registered()[1:5]:
            # The descriptions name the other solvers by their ids (shown in the solver menu)
            # and the shell command that builds the tables, so only Chinese is checked here.
            description = translate(solver, solver.description)
            assert description != solver.description and re.search(r"[\u4e00-\u9fff]", description)


def test_notes_and_assess_are_chinese_for_a_solvable_and_an_unsolvable_board():
    with use_locale("zh_Hans"):
        solvable = PUZZLE.parse(PRESETS["8-puzzle"])
        (note,) = PUZZLE.notes(solvable)
        assert chinese(note).startswith("有解")
        verdict = PUZZLE.assess(solvable)
        assert verdict.verdict == "can"
        chinese(verdict.reason)
        chinese(verdict.detail)
        for text in (UNSOLVABLE, UNSOLVABLE_4):
            board = PUZZLE.parse(text)
            (note,) = PUZZLE.notes(board)
            chinese(note)
            verdict = PUZZLE.assess(board)
            assert verdict.verdict == "cannot"
            chinese(verdict.reason)
            assert "1 个逆序对" in chinese(verdict.detail)
        assert chinese(PUZZLE.assess(PUZZLE.parse("1 2 3/4 5 6/7 8 0")).reason) == "已解开。"
        assert chinese(PUZZLE.notes(PUZZLE.parse("1 2 3/4 5 6/7 8 0"))[0])


def test_the_moves_of_a_real_solution_are_described_in_chinese():
    board = PUZZLE.parse(PRESETS["8-puzzle"])
    with use_locale("zh_Hans"):
        outcome = FastSolver().solve(board, SolveContext.with_timeout(30))
        assert isinstance(outcome, Solved) and outcome.moves
        state = board
        for move in outcome.moves:
            words = chinese(PUZZLE.describe_move(state, move))
            # The move names its tile and one of the four ways a tile slides.
            assert re.fullmatch(rf"方块 {move} 向[上下左右]滑", words), words
            state = PUZZLE.apply_move(state, move)  # the English notation (a number) still parses
        assert PUZZLE.is_solved(state)
        chinese(outcome.stats["method"], NOTATION)


def test_refusals_and_errors_are_chinese_and_keep_their_where():
    with use_locale("zh_Hans"):
        outcome = OptimalSolver().solve(PUZZLE.parse(UNSOLVABLE), SolveContext.with_timeout(5))
        assert isinstance(outcome, Unsolvable)
        chinese(outcome.reason)
        chinese(outcome.detail)
        for text, where in [("1 2 3/4 x 6/7 8 0", "row 2, column 2"), ("1 2 3/4 5 6/7 8 8", "row 3, column 3"),
                            ("1 2/3", "row 2"), ("1 2 3 4 5", "row 1"), ("", None),
                            ("1 2 3/4 5 6/7 8 0 ; goal: 1 2/3 0", "goal")]:
            with pytest.raises(InputError) as error:
                PUZZLE.parse(text)
            chinese(error.value.message)
            assert error.value.where == where  # a machine field: the same in every language
        board = PUZZLE.parse(PRESETS["8-puzzle"])
        for move in ("x", "9", "8"):
            with pytest.raises(InputError) as error:
                PUZZLE.apply_move(board, move)
            chinese(error.value.message)
        for action, mode in (("tile:0", "play"), ("tile:1", "paint"), ("explode", None)):
            with pytest.raises(InputError) as error:
                PUZZLE.edit(board, action, mode=mode)
            chinese(error.value.message, {"tile", "shuffle", "seed", "reset", "resize", "RxC", "goal",
                                           "blank", "last", "first", "play", "swap", "paint",
                                           "explode"})
        with pytest.raises(InputError) as error:
            PUZZLE.random(1, {"colour": "red"})
        chinese(error.value.message, {"colour", "size", "goal"})
        first = PUZZLE.edit(board, "tile:1", mode="swap")
        chinese(first.message)
        chinese(PUZZLE.edit(board, "tile:2", mode="swap", selection="1").message)


def test_the_svg_title_and_labels_are_chinese():
    board = PUZZLE.parse(PRESETS["8-puzzle"])
    with use_locale("zh_Hans"):
        svg = RENDERER.render(board, selection="3")
    texts = svg_texts(svg)
    assert texts[0] == "3×3 数字华容道棋盘"
    assert len(texts) == 1 + 9
    for text in texts:
        chinese(text)
    assert "方块 3，可向左滑，第 1 行第 2 列，已选中" in texts


def test_english_is_unchanged():
    board = PUZZLE.parse(PRESETS["8-puzzle"])
    with use_locale("en"):
        assert translate(PUZZLE, PUZZLE.title) == "Sliding tiles"
        assert translate(PUZZLE, PUZZLE.limits) == "boards from 2 x 2 up to 32 x 32"
        assert PUZZLE.preset_label("korf-1") == "korf-1"
        assert PUZZLE.notes(board) == ("Solvable; it takes at least 16 moves (each tile's distance "
                                       "from its goal cell, plus tiles in a line that must pass "
                                       "each other).",)
        assert PUZZLE.assess(board).reason == "Yes: this board can still be solved."
        assert PUZZLE.describe_move(board, "3") == "tile 3 slides left"
        svg = RENDERER.render(board)
        assert svg_texts(svg)[0] == "3 x 3 sliding-tile board"
        assert "tile 3, can slide left, row 1, column 2" in svg_texts(svg)
        with pytest.raises(InputError) as error:
            PUZZLE.parse("1 2 3/4 5 6/7 8 8")
        assert error.value.message == "tile 8 appears twice (also at row 3, column 2); missing: the blank (0)"
        detail = PUZZLE.assess(PUZZLE.parse(UNSOLVABLE_4)).detail
        assert "This board has 1 inversion (an inversion is" in detail
        assert "its blank is 0 rows from the goal's blank: 1 + 0 = 1 is odd" in detail
        # Two tiles swapped flip the parity; the blank and its neighbour are one slide (no change).
        swapped = PUZZLE.edit(board, "tile:2", mode="swap", selection="1")
        assert swapped.message == "Swapped tile 1 and tile 2. The board can no longer be solved."
        assert PUZZLE.edit(board, "tile:0", mode="swap", selection="3").message == "Swapped tile 3 and the blank."
        assert [t.label for t in PUZZLE.edit_tools(board)] == ["Reset to goal", "Resize", "Blank ends"]


def test_the_default_solvers_stats_are_named_for_the_reader():
    """The default solver's stats (iterations, search seconds, solver used) get the plugin's
    Chinese names in the report's labels; the stats' keys stay the machine names."""
    from engine.solving import run_solver
    from plugins.sliding.auto import AutoSolver

    board = PUZZLE.parse(PRESETS["8-puzzle"])
    with use_locale("zh_Hans"):
        report = run_solver(PUZZLE, AutoSolver(), board, SolveContext.with_timeout(30)).to_json()
    assert "solver_used" in report["stats"]
    for name in ("solver_used", "search_seconds"):
        chinese(report["labels"][name])
