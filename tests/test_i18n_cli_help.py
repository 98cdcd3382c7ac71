"""The plugins' command-line help in the reader's language (``engine.TranslatedGroup``).

click builds help at import time, before the command line chooses its locale; the plugins'
commands look their help texts up in their catalogues when the help is printed. The same
command objects answer in Chinese inside ``use_locale("zh_Hans")`` and in English outside it.
"""

from __future__ import annotations

import re

import click
import pytest
from click.testing import CliRunner

from engine import N_, Catalogue, TranslatedCommand, TranslatedGroup, use_locale

CJK = re.compile(r"[\u3400-\u9fff]")


def help_of(group: click.Group, args: list[str], locale: str) -> str:
    with use_locale(locale):
        result = CliRunner().invoke(group, [*args, "--help"], prog_name="puzzle " + group.name)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("module, args, chinese, english", [
    ("plugins.pegs.commands", [], ["孔明棋工具。", "统计 INSTANCE 的全部解法。", "预先建好 INSTANCE 的局面大表。"],
     ["Peg solitaire tools.", "Count the solutions of INSTANCE."]),
    ("plugins.pegs.commands", ["count"], ["每一种跳法序列", "输出一个 JSON 对象。", "内存预算"],
     ["Count every sequence of jumps", "Print one JSON object.", "Memory budget in GB"]),
    ("plugins.pegs.commands", ["table"], ["局面大表", "宝塔函数库"], ["Build the large table"]),
    ("plugins.tangram.commands", [], ["七巧板工具。", "从图片读取七巧板图形。"], ["Tangram tools."]),
    ("plugins.tangram.commands", ["trace"], ["剪影文本", "输出一个 JSON 对象"], ["Read the tangram figure in IMAGE"]),
])
def test_a_plugins_command_help_follows_the_locale(module, args, chinese, english):
    import importlib

    commands = importlib.import_module(module)
    group = next(v for v in vars(commands).values() if isinstance(v, TranslatedGroup))
    zh = help_of(group, args, "zh_Hans")
    en = help_of(group, args, "en")
    for words in chinese:  # (a Chinese line may break between any two characters)
        assert words in re.sub(r"\s*\n\s*", "", zh), zh
    for words in english:
        assert words in en and words not in zh, en
    assert not CJK.search(en)  # and English comes back after Chinese: nothing was kept
    # What programs and people type stays: option names and the arguments' names.
    for name in re.findall(r"--[a-z-]+|\b[A-Z]{4,}\b", en):
        assert name in zh, (name, zh)
    assert zh.count("\n\n") == en.count("\n\n")  # the same paragraphs


def test_a_command_whose_catalogue_lacks_a_text_shows_it_in_english(tmp_path):
    # No .mo file at all for this domain: every text falls back to English, never an error.
    toy = Catalogue("puzzle_toy_cli", tmp_path)

    @click.group("toy", cls=TranslatedGroup, catalogue=toy, help=N_("Toy tools."))
    def toy_group() -> None:
        """A toy group."""

    @toy_group.command("spin", help=N_("Spin the toy."))
    @click.option("--fast", is_flag=True, help=N_("Spin it fast."))
    def spin(fast: bool) -> None:
        """Spin."""

    assert "Toy tools." in help_of(toy_group, [], "zh_Hans")
    spun = help_of(toy_group, ["spin"], "zh_Hans")
    assert "Spin the toy." in spun and "Spin it fast." in spun
    # the subcommand was made translated by the group's decorator, with the group's catalogue
    assert toy_group.commands["spin"].catalogue is toy


def test_the_commands_a_plugin_registers_show_their_help_in_chinese():
    from engine.plugins import get_registry

    registry = get_registry()
    if "pegs" not in registry.puzzles:
        pytest.skip("the pegs plugin is not installed")
    puzzle = click.Group("puzzle")  # as `puzzle` gets them: through the register_commands hook
    registry.add_commands(puzzle)
    with use_locale("zh_Hans"):
        result = CliRunner().invoke(puzzle, ["pegs", "count", "--help"])
    assert result.exit_code == 0, result.output
    assert "每一种跳法序列" in re.sub(r"\s*\n\s*", "", result.output) and "--memory" in result.output


# -- the host's own commands -----------------------------------------------------------------------

#: What a Chinese help text keeps as it is typed or named: programs, formats, units, protocols.
KEPT = frozenset({"JSON", "SVG", "PNG", "JPEG", "WebP", "GIF", "RQ", "Redis", "WSGI", "TCP", "SQLite", "pip",
                  "uv", "README", "pyproject", "PASS", "FAIL", "SKIP", "Ctrl", "Retry", "After", "Forwarded",
                  "For", "wheel", "module", "function", "redis", "localhost", "host", "puzzle", "engine"})


def english_prose(text: str) -> list[str]:
    """The English words of a help text, less what people type: `code`, --options, $VARIABLES,
    METAVARS, file names and URLs, and the names in KEPT."""
    from engine.cli import cli

    text = text.split("\n", 1)[1]  # the usage line: the command's path and metavars
    text = re.sub(r"^  [\w-]+  ", " ", text, flags=re.M)  # the names of a group's commands
    text = re.sub(r"[\w-]+\]", " ", text)  # a flag's default is its name ("[默认：prepare]")
    text = re.sub(r"`[^`]*`|--?[\w-]+|\$\w+|\w+=\S*|\b[A-Z][A-Z0-9_]+\b|\S+://\S+|\./\S+|\S+\.\w+\b",
                  " ", text)
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in KEPT and w not in cli.commands]


def host_commands() -> list[tuple[list[str], click.Command]]:
    from engine.cli import cli
    from web.commands import serve

    found: list[tuple[list[str], click.Command]] = [([], cli)]
    found += [([name], command) for name, command in cli.commands.items()]
    return found + [(["serve"], serve)]


@pytest.mark.parametrize("args, command", host_commands(), ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_every_host_command_prints_its_help_in_the_readers_language(args, command):
    from engine.cli import cli

    def help_in(locale: str, env_value: str) -> str:
        group, path = (cli, args) if args != ["serve"] else (command, [])
        with use_locale(locale):  # the root's --help is printed before its callback reads LANG
            result = CliRunner().invoke(group, [*path, "--help"], prog_name="puzzle",
                                        env={"LC_ALL": env_value, "LC_MESSAGES": "", "LANG": ""})
        assert result.exit_code == 0, result.output
        return result.output

    zh, en = help_in("zh_Hans", "zh_CN.UTF-8"), help_in("en", "C")
    # click's own words and the command's help, options included
    assert zh.startswith("用法：puzzle") and "\n选项：\n" in zh and "显示本帮助并退出。" in zh, zh
    assert en.startswith("Usage: puzzle") and "\nOptions:\n" in en and "Show this message and exit." in en
    assert not english_prose(zh), (english_prose(zh), zh)
    assert not CJK.search(en), en
    # What people type stays: option names and the arguments' names.
    for name in re.findall(r"--[a-z][a-z-]+|\b[A-Z]{4,}\b", en):
        assert name in zh, (name, zh)
    if not args:  # the group lists its commands with their summaries, in Chinese too
        assert "\n命令：\n" in zh and "求解 INSTANCE" in zh and "…" in zh


def test_the_words_of_click_that_the_engine_translates_are_click_s_own():
    # A click release that rewords one of them would silently show it in English again.
    import importlib
    import inspect as inspecting

    from engine.cli_help import CLICK_MODULES, CLICK_PLURAL_WORDS, CLICK_WORDS

    source = "".join(inspecting.getsource(importlib.import_module(name)) for name in CLICK_MODULES)
    for words in (*CLICK_WORDS, *(w for pair in CLICK_PLURAL_WORDS for w in pair)):
        assert f'"{words}"' in source, words


def test_a_usage_error_is_one_line_in_the_readers_language():
    import os
    import subprocess
    import sys

    def run(args, lang):
        env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
        return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                              env={**env, "LANG": lang}, timeout=120)

    zh = run(["solve", "--bogus", "x"], "zh_CN.UTF-8")
    en = run(["solve", "--bogus", "x"], "C.UTF-8")
    assert zh.returncode == en.returncode == 2
    assert zh.stderr.strip() == "错误：没有选项 '--bogus'。（详见 `puzzle solve --help`）"
    assert en.stderr.strip() == "error: No such option '--bogus'. (see `puzzle solve --help`)"
    assert run(["nosuch"], "zh_CN.UTF-8").stderr.strip() == "错误：没有命令 'nosuch'。（详见 `puzzle --help`）"
    # --help from the console script, as a person types it
    said = run(["--help"], "zh_CN.UTF-8")
    assert said.returncode == 0 and said.stdout.startswith("用法：puzzle [OPTIONS] COMMAND [ARGS]...")


def test_a_help_option_made_while_another_language_was_read_prints_in_this_one():
    # click makes a command's --help option once and keeps it; its text is said at each printing.
    @click.command("toy", cls=TranslatedCommand, catalogue=None, help=N_("Toy."))
    def toy() -> None:
        """Toy."""

    with use_locale("zh_Hans"):
        assert "显示本帮助并退出。" in CliRunner().invoke(toy, ["--help"]).output
    with use_locale("en"):
        out = CliRunner().invoke(toy, ["--help"]).output
    assert "Show this message and exit." in out and not CJK.search(out)
