"""The peg solitaire editor in Simplified Chinese, in a browser whose language is zh-CN
(docs/i18n.md): opening a preset, an edit, Solve, playback, Hint and an error in the
instance text.

Two walks of the same moments. The first checks the texts the plugin writes (title, rules,
notes, the board's accessible names, edit messages, the hint, the move words of playback, the
error). The second asks that no visible text at all is English prose, the host's included.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from test_e2e_flows import need
from test_e2e_game import axe_violations
from zh_text import assert_no_english, english_words

#: Not prose: the command line's own words, quoted in the Count task's refusal
#: ("命令行（puzzle pegs count）可以使用更多内存").
COMMAND_WORDS = frozenset({"puzzle", "pegs", "count"})
#: An instance text with rows of different lengths (a square board must be a rectangle).
BAD_TEXT = "geometry: square; board: ooo/oo"
CJK = re.compile(r"[\u4e00-\u9fff]")


def chinese(text: str, what: str) -> None:
    """``text`` is Chinese prose: some Chinese, no English word (hole names and moves are not
    words)."""
    assert CJK.search(text), f"{what} holds no Chinese: {text!r}"
    assert not english_words(text, COMMAND_WORDS), f"{what} holds English: {text!r}"


def plugin_texts(page) -> dict[str, str]:
    """The texts of the page that the pegs plugin writes, by where they are."""
    texts = {"title": page.locator("#puzzle-title").inner_text()}
    for n, note in enumerate(page.locator("#notes li").all()):
        texts[f"note {n + 1}"] = note.inner_text()
    for n, label in enumerate(page.locator("#board [data-hole]").evaluate_all(
            "cells => cells.map(c => c.getAttribute('aria-label'))")):
        texts[f"cell {n + 1}"] = label  # as the renderer wrote it: the editor adds nothing
    for n, mode in enumerate(page.locator("#modes label").all()):
        texts[f"mode {n + 1}"] = mode.inner_text()
    return texts


def walk(page, server, check) -> None:
    """The moments of a visit to the editor, calling ``check(page, moment)`` at each."""
    page.goto(f"{server}/pegs?preset=english")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator("#puzzle-title")).to_have_text("孔明棋")
    check(page, "on opening the English board")

    page.locator('input[name="mode"][value="play"]').check()
    page.locator('#board [data-action="hole:d2"]').click()
    expect(page.locator("#edit-message")).to_contain_text("已选中")
    check(page, "with a peg selected")
    page.locator('#board [data-action="hole:d4"]').click()
    expect(page.locator("#edit-message")).to_contain_text("d2-d4")
    check(page, "after a jump")

    # The jump is drawn (d4 holds a peg) before anything else is asked of this board.
    expect(page.locator('#board [data-hole="d4"]')).to_have_class(re.compile(r"\bpeg\b"))

    page.get_by_role("button", name="求解", exact=True).click()
    # (the first solve of a run may wait while the workers load their tables)
    expect(page.locator("#solve-status")).to_contain_text("已解开", timeout=90_000)
    check(page, "after Solve")
    page.get_by_role("button", name="下一步").click()
    page.get_by_role("button", name="下一步").click()
    expect(page.locator("#step-status")).to_contain_text(re.compile(r"第 2 步，共 \d+ 步：棋子 [a-g]\d 跳过"))
    check(page, "during playback")

    # Hint after Solve, when the workers are warm: it asks a solver for two seconds. Found, it
    # names the move in the plugin's words; on a busy machine it may say that none was found in
    # time (the host's sentence), which is Chinese too.
    page.get_by_role("button", name="提示").click()
    expect(page.locator("#edit-message")).to_contain_text(re.compile("提示：|没有找到提示"), timeout=30_000)
    check(page, "showing a hint")

    page.locator("#instance-text").fill(BAD_TEXT)
    page.get_by_role("button", name="求解", exact=True).click()
    expect(page.locator("#instance-error")).to_contain_text("第 1 行有 3 格")  # the answer is in
    check(page, "showing an error in the instance text")


def test_the_pegs_editor_speaks_chinese_in_every_text_of_the_plugin(zh_page, server, installed):
    need(installed, "pegs")
    seen = []

    def check(page, moment):
        seen.append(moment)
        texts = plugin_texts(page)
        assert len([k for k in texts if k.startswith("cell")]) == 49  # the 7 x 7 grid, every cell
        assert "note 1" in texts and len([k for k in texts if k.startswith("mode")]) == 3
        for where, text in texts.items():
            chinese(text, f"{where} {moment}")
        message = page.locator("#edit-message")
        if message.is_visible() and message.inner_text().strip():
            chinese(message.inner_text(), f"the edit message {moment}")
        if moment == "showing a hint" and "提示：" in message.inner_text():
            assert "棋子" in message.inner_text()  # the move in the plugin's words
        if moment == "during playback":
            chinese(page.locator("#step-status").inner_text(), "the step being played")
        if moment.startswith("showing an error"):
            error = page.locator("#instance-error").inner_text()
            # The plugin's sentence. Its place in words (where_text, 棋盘第 2 行) is left out
            # because the sentence names it already; the machine `where` is never shown.
            assert error.startswith("棋盘第 2 行有 2 格，而第 1 行有 3 格"), error
            chinese(error, "the parse error")

    walk(zh_page, server, check)
    assert len(seen) == 7


def test_the_pegs_editor_holds_no_english_prose_and_no_axe_violation_at_any_moment(zh_page, server, installed):
    need(installed, "pegs")
    axe: dict[str, str] = {}

    def check(page, moment):
        assert_no_english(page, moment, COMMAND_WORDS)
        count, report = axe_violations(page)  # html-lang-valid included: lang="zh-Hans"
        if count:
            axe[moment] = report

    walk(zh_page, server, check)
    assert not axe, "\n".join(f"axe, {moment}: {report}" for moment, report in axe.items())
