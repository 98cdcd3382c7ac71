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

from engine import N_, Catalogue, TranslatedGroup, use_locale

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
    for words in chinese:
        assert words in zh, zh
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
    assert "每一种跳法序列" in result.output and "--memory" in result.output
