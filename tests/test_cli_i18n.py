"""The command line speaks the language of its environment (docs/i18n.md, "The command line").

``LC_ALL``, then ``LC_MESSAGES``, then ``LANG`` choose the language of the messages meant for
people, as POSIX says; ``--json`` output, meant for programs, is the same in every language.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from engine.i18n import current_locale, locale_from_environment

PUZZLE = [sys.executable, "-m", "engine.cli"]
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def run(args, **env_vars):
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    env.update(env_vars)
    return subprocess.run(PUZZLE + args, capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "en"),
    ({"LANG": "zh_CN.UTF-8"}, "zh_Hans"),
    ({"LANG": "zh_SG"}, "zh_Hans"),
    ({"LANG": "zh_Hans"}, "zh_Hans"),
    ({"LANG": "zh_CN.GB18030"}, "zh_Hans"),
    ({"LANG": "zh_TW.UTF-8"}, "en"),  # Traditional: English until a Traditional catalogue exists
    ({"LANG": "zh_HK"}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    # The order: LC_ALL over LC_MESSAGES over LANG; an empty variable does not count.
    ({"LC_ALL": "zh_CN.UTF-8", "LC_MESSAGES": "C", "LANG": "C"}, "zh_Hans"),
    ({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"),
    ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_Hans"),
    ({"LC_MESSAGES": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
    ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8"}, "zh_Hans"),
    # The first set variable decides even when it names a language the host lacks (POSIX).
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
])
def test_the_locale_follows_lc_all_then_lc_messages_then_lang(environ, expected):
    assert locale_from_environment(environ) == expected


def test_a_bad_input_message_is_chinese_under_a_chinese_lang_and_english_otherwise():
    args = ["render", "lights_out", "101/010/101", "--moves", "a1", "--step", "5"]
    english = run(args, LANG="C.UTF-8")
    chinese = run(args, LANG="zh_CN.UTF-8")
    assert english.returncode == chinese.returncode == 2
    assert english.stderr.strip() == "error: --step must be between 0 and 1 (the number of moves)"
    assert chinese.stderr.strip() == "错误：--step 必须在 0 到 1 之间（1 是走法的步数）"
    # LC_ALL wins over LANG, as in every POSIX program.
    assert run(args, LC_ALL="C", LANG="zh_CN.UTF-8").stderr == english.stderr
    assert run(args, LANG="zh_TW.UTF-8").stderr == english.stderr


def test_json_output_is_the_same_in_every_language_and_the_summary_is_not():
    args = ["solve", "lights_out", "101/010/101"]
    english = json.loads(run(args + ["--json"], LANG="C").stdout)
    chinese = json.loads(run(args + ["--json"], LANG="zh_CN.UTF-8").stdout)
    for result in (english, chinese):
        result.pop("seconds", None)
        result.get("stats", {}).pop("elapsed", None)
    assert english.keys() == chinese.keys()
    assert (english["status"], english["moves"], english["optimal"]) == \
        (chinese["status"], chinese["moves"], chinese["optimal"]) == ("solved", english["moves"], True)
    said_en = run(args, LANG="C").stdout.splitlines()[-1]
    said_zh = run(args, LANG="zh_CN.UTF-8").stdout.splitlines()[-1]
    moves = len(english["moves"])
    assert said_en.startswith(f"solved: {moves} moves (optimal), ")
    assert said_zh.startswith(f"已解开：{moves} 步（最优），")


def test_click_commands_set_the_locale_for_their_run_only(monkeypatch):
    from engine import cli as cli_module

    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    result = CliRunner().invoke(cli_module.cli, ["random", "lights_out", "-o", "nonsense"])
    assert result.exit_code != 0
    assert "不是 KEY=VALUE 的形式" in result.output, result.output
    assert current_locale() == "en"  # the test process is left in English


def test_a_plugins_engine_range_is_worded_for_the_reader_and_kept_in_english_as_data():
    from engine import use_locale
    from engine.compat import needs_words

    needs = "needs puzzle-engine>=0.2,<0.3, this is 0.1.0"
    assert needs_words(needs) == needs
    with use_locale("zh_Hans"):
        assert needs_words(needs) == "需要 puzzle-engine>=0.2,<0.3，当前是 0.1.0"
        assert needs_words("something else") == "something else"


def test_a_plugins_failure_is_one_sentence_in_the_readers_language():
    from engine import use_locale
    from engine.errors import convert_exception
    from engine.i18n import N_

    def failure():
        return convert_exception(RuntimeError("boom"), plugin="rogue", doing=N_("rendering a {puzzle} board"),
                                 values={"puzzle": "sliding"}).message

    assert failure() == "plugin 'rogue' failed while rendering a sliding board: RuntimeError: boom"
    with use_locale("zh_Hans"):
        assert failure() == "插件 'rogue' 在绘制 sliding 的棋盘时出错：RuntimeError: boom"
        bad_input = convert_exception(ValueError("x"), what=N_("the instance"))
        assert str(bad_input) == "题目无效：x"


def test_an_input_error_joins_its_place_and_message_as_the_readers_language_does():
    # Lights Out says both the place (where_text) and the message in Chinese; the engine joins
    # them with a full-width colon, as Chinese punctuates, and an English reader sees ": ".
    args = ["solve", "lights_out", "101/01"]
    english, chinese = run(args, LANG="C.UTF-8"), run(args, LANG="zh_CN.UTF-8")
    assert english.returncode == chinese.returncode == 2
    assert english.stderr.strip() == ("error: row 2: the row has 2 lights but row 1 has 3; all rows must be "
                                      "the same length")
    assert chinese.stderr.strip() == "错误：第 2 行：这一行有 2 盏灯，而第 1 行有 3 盏；每一行的长度必须相同"


def test_the_engines_own_refusals_are_said_in_the_readers_language():
    from toy import CounterPuzzle

    from engine import InputError, use_locale
    from engine.solving import MAX_MOVES, iter_states

    puzzle = CounterPuzzle()
    for locale, words in (("en", ("moves given; the limit is", "Counter has no edit actions")),
                          ("zh_Hans", ("步；上限是", "Counter没有编辑操作"))):
        with use_locale(locale):
            with pytest.raises(InputError) as many:
                list(iter_states(puzzle, puzzle.parse("0 -> 5"), ["+1"] * (MAX_MOVES + 1)))
            with pytest.raises(InputError) as edit:
                puzzle.edit(puzzle.parse("0 -> 5"), "x")
        assert words[0] in many.value.message and words[1] in edit.value.message, locale
    # people read str(): the place and the message, joined the way their language joins them
    assert str(InputError("bad", where="row 1")) == "row 1: bad"
    with use_locale("zh_Hans"):
        assert str(InputError("坏", where="row 1", where_text="第 1 行")) == "第 1 行：坏"


def test_a_solvers_broken_contract_is_reported_in_the_readers_language():
    from toy import CounterPuzzle

    from engine import SolveContext, Solved, Solver, SolverError, use_locale
    from engine.solving import run_solver

    class Wrong(Solver):
        puzzle_id = "counter"
        name = "wrong"

        def solve(self, instance, ctx):
            return Solved(["+1"])  # one move that does not reach the goal

    puzzle = CounterPuzzle()
    instance = puzzle.parse("0 -> 5")
    said = {}
    for locale in ("en", "zh_Hans"):
        with use_locale(locale), pytest.raises(SolverError) as caught:
            run_solver(puzzle, Wrong(), instance, SolveContext())
        said[locale] = caught.value.message
    assert said["en"] == "solver 'wrong' returned 1 move that does not reach the goal"  # ngettext's singular
    assert said["zh_Hans"] == "求解器 'wrong' 返回的 1 步走不到目标"
