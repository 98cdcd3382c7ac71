"""The sliding-tile editor (数字华容道) in a browser whose language is zh-CN (docs/i18n.md).

Two walks through the same moments (opening a preset, a slide, a swap, Solve, playback, Hint, an
unsolvable board and bad instance text):

* every text the plugin writes (title, rules, notation, notes, the board's spoken labels, the
  edit messages, the move words, the parse error) is Chinese, with no English word;
* no visible text node on the whole page is English prose (e2e/zh_text.py), the host's included,
  and axe finds no violation at any moment (``html-lang-valid`` included).
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from test_e2e_flows import need
from test_e2e_game import axe_violations
from zh_text import english_prose, english_words

#: Words of the instance-text notation that the page quotes in the plugin's help ("; goal:
#: blank-first", the Goal option's blank-last): parse() reads them as they are in every language.
NOTATION = frozenset({"goal", "blank", "last", "first"})
PRESET = "0 3 7/2 8 4/1 6 5"     # the 8-puzzle preset: the blank top left, tile 3 beside it
UNSOLVABLE = "1 2 3/4 5 6/8 7 0"
BAD_TEXT = "1 2 3/4 5 6/7 8 8"   # tile 8 twice, the blank missing


def chinese(text: str, what: str) -> str:
    """``text`` itself, after checking it holds Chinese and no English word."""
    assert re.search(r"[\u4e00-\u9fff]", text), f"{what}: no Chinese in {text!r}"
    assert not english_words(text, NOTATION), f"{what}: English in {text!r}"
    return text


def walk(page, server, check) -> None:
    """The moments of the editor, calling ``check(moment)`` at each."""
    page.goto(f"{server}/sliding?preset=8-puzzle")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.get_by_role("heading", level=1)).to_have_text("数字华容道")
    expect(page.locator("#notes")).to_contain_text("有解")
    check("on opening a preset")

    # A slide in play mode ...
    page.locator('input[name="mode"][value="play"]').check()
    with page.expect_response(re.compile(r"/edit$")):
        page.locator('#board [data-action="tile:3"]').click()
    expect(page.locator("#instance-text")).to_have_value(re.compile(r"^3 0 7/"))
    check("after a slide")
    # ... and a swap started, whose message names the tile.
    page.locator('input[name="mode"][value="swap"]').check()
    with page.expect_response(re.compile(r"/edit$")):
        page.locator('#board [data-action="tile:8"]').click()
    expect(page.locator("#edit-message")).to_contain_text("已选中方块 8")
    check("with a tile selected for a swap")
    with page.expect_response(re.compile(r"/edit$")):
        page.locator('#board [data-action="tile:8"]').click()
    expect(page.locator("#edit-message")).to_contain_text("已取消选中方块 8")

    page.get_by_role("button", name="求解", exact=True).click()
    expect(page.locator("#solve-status")).to_contain_text("已解开", timeout=90_000)
    check("after Solve")
    page.get_by_role("button", name="下一步").click()
    page.get_by_role("button", name="下一步").click()
    expect(page.get_by_role("slider", name="当前步")).to_have_value("2")
    expect(page.locator("#step-status")).to_contain_text(re.compile(r"方块 \d+ 向[上下左右]滑"))
    check("during playback")

    # Hint, once the workers are warm: it asks a solver for two seconds. Found, it names the
    # slide in the plugin's words; on a busy machine it may say that none was found in time (the
    # host's sentence), which is Chinese too.
    page.get_by_role("button", name="编辑", exact=True).click()
    page.get_by_role("button", name="提示", exact=True).click()
    expect(page.locator("#edit-message")).to_contain_text(re.compile("提示：|没有找到提示"), timeout=30_000)
    check("after Hint")

    # An unsolvable board: the notes say so at once; Solve gives the refusal and its proof.
    page.locator("#instance-text").fill(UNSOLVABLE)
    page.get_by_role("button", name="求解", exact=True).click()
    expect(page.locator("#solve-status")).to_have_attribute("data-kind", "warning", timeout=60_000)
    expect(page.locator("#notes")).to_contain_text("无解")
    why = page.locator("#why")
    if why.is_visible():
        why.locator("summary").click()
    check("refusing an unsolvable board")

    # Bad instance text.
    page.locator("#instance-text").fill(BAD_TEXT)
    page.get_by_role("button", name="求解", exact=True).click()
    expect(page.locator("#instance-error")).to_contain_text("出现了两次")
    check("showing an error")


def test_every_text_the_sliding_plugin_writes_on_the_page_is_chinese(zh_page, server, installed):
    need(installed, "sliding")
    page = zh_page
    seen: set[str] = set()

    def check(moment: str) -> None:
        seen.add(moment)
        chinese(page.locator(".rules").inner_text(), f"the rules, {moment}")
        for note in page.locator("#notes > li").all_inner_texts():
            chinese(note, f"a note, {moment}")
        # The board's spoken labels, as the renderer wrote them (the editor adds nothing to a
        # label the renderer wrote, the selected tile's included).
        for label in page.locator("#board svg g[aria-label]").evaluate_all(
                "(nodes) => nodes.map((n) => n.getAttribute('aria-label'))"):
            chinese(label, f"a tile's label, {moment}")
        message = page.locator("#edit-message")
        if message.is_visible() and message.inner_text().strip():
            chinese(message.inner_text(), f"the edit message, {moment}")
        if moment == "on opening a preset":
            for option in page.locator("#preset option").all_inner_texts()[1:]:
                chinese(option, "a preset's name")
            details = page.locator("summary", has_text="记法")
            details.click()
            for paragraph in page.locator("details:has(summary:has-text('记法')) p").all_inner_texts():
                chinese(paragraph, "the notation and limits")
            details.click()
        if moment == "during playback":
            chinese(page.locator("#step-status").inner_text(), "the step being shown")
        if moment == "after Hint" and "提示：" in message.inner_text():
            assert re.search(r"方块 \d+ 向[上下左右]滑", message.inner_text()), message.inner_text()
        if moment == "showing an error":
            # The place in words (the error's where_text, not its English `where`), then the
            # message: all of it Chinese.
            error = page.locator("#instance-error").inner_text()
            chinese(error, "the parse error")

    walk(page, server, check)
    assert {"on opening a preset", "during playback", "after Hint", "showing an error"} <= seen


def test_the_sliding_editor_holds_no_english_prose_while_editing_solving_and_playing(
        zh_page, server, installed):
    need(installed, "sliding")
    page = zh_page
    left: dict[str, list[str]] = {}
    axe: dict[str, str] = {}

    def check(moment: str) -> None:
        found = english_prose(page, NOTATION)
        if found:
            left[moment] = found
        count, report = axe_violations(page)  # html-lang-valid included: lang="zh-Hans"
        if count:
            axe[moment] = report

    walk(page, server, check)
    assert not left, "English prose on the Chinese sliding page:\n" + "\n".join(
        f"{moment}:\n  " + "\n  ".join(texts) for moment, texts in left.items())
    assert not axe, "\n".join(f"axe, {moment}: {report}" for moment, report in axe.items())
