"""The pages in Simplified Chinese in a browser whose language is zh-CN, and the language
picker: it switches the page to English and back, keeping the board and the step shown
(docs/i18n.md)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_e2e_flows import need
from test_e2e_game import axe_violations


def test_the_picker_switches_language_and_keeps_the_board_and_the_step(zh_page, server, installed):
    need(installed, "lights_out")
    page = zh_page
    page.goto(f"{server}/lights_out?preset=cross")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.get_by_role("heading", level=1)).to_have_text("关灯游戏")
    # An edit first: the board the picker must keep is not the one in the page's own link.
    page.locator('input[name="mode"][value="play"]').check()
    page.locator('#board [data-action="cell:a1"]').click()
    expect(page.locator("#instance-text")).not_to_have_value("00100/00100/11111/00100/00100")
    instance = page.locator("#instance-text").input_value()
    # The scripts speak Chinese too (the bundle's catalogue): solve and step.
    page.get_by_role("button", name="求解", exact=True).click()
    # (the first solve of a run may wait while the workers load their tables)
    expect(page.locator("#solve-status")).to_contain_text("已解开", timeout=90_000)
    page.get_by_role("button", name="下一步").click()
    page.get_by_role("button", name="下一步").click()
    expect(page.get_by_role("slider", name="当前步")).to_have_value("2")
    expect(page.locator("#step-status")).to_contain_text(re.compile(r"第 2 步，共 \d+ 步：按 [a-e]\d"))

    page.get_by_role("navigation", name="语言").get_by_role("link", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Lights Out")
    expect(page.locator("#instance-text")).to_have_value(instance)
    expect(page.get_by_role("slider", name="Step")).to_have_value("2")
    expect(page.locator("#step-status")).to_contain_text(re.compile(r"Move 2 of \d+: Press [a-e]\d"))
    assert "lang=en" in page.url
    # The choice in the address wins over the browser's zh-CN, and links carry it on.
    expect(page.locator("a.brand")).to_have_attribute("href", "/?lang=en")
    assert not axe_violations(page)[0]

    page.get_by_role("navigation", name="Language").get_by_role("link", name="简体中文").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator("#instance-text")).to_have_value(instance)
    expect(page.get_by_role("slider", name="当前步")).to_have_value("2")
    count, report = axe_violations(page)
    assert count == 0, report


# A board whose parts carry no aria-label of their own (the editor names them from their
# <title> and place) beside one whose renderer wrote its label, selection included.
_DECORATE = """() => {
  const box = document.createElement("div");
  box.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg">'
    + '<g data-action="flip:0" data-row="0" data-col="1" class="selected"><title>T</title></g>'
    + '<g data-action="flip:1" class="selected" aria-label="OWN"></g>'
    + '<g data-action="flip:2" data-row="1" data-col="0"><title>T</title></g></svg>';
  document.body.append(box);
  window.PuzzleBoards.decorate(box, "board");
  window.PuzzleBoards.decorate(box, "board");  // a second time: nothing is said twice
  const names = Array.from(box.querySelectorAll("g")).map((g) => g.getAttribute("aria-label"));
  box.remove();
  return names;
}"""


@pytest.mark.parametrize("lang, names", [
    ("zh-Hans", ["T，第 1 行第 2 列，已选中", "OWN", "T，第 2 行第 1 列"]),
    ("en", ["T, row 1, column 2, selected", "OWN", "T, row 2, column 1"]),
])
def test_the_editor_names_board_parts_in_the_pages_language(zh_page, server, installed, lang, names):
    # keyboard.js says "selected" in the page's words, and only in names it made itself: a
    # renderer's own label (which says the selection in the plugin's words) is kept as written.
    need(installed, "lights_out")
    zh_page.goto(f"{server}/lights_out?lang={lang}")
    zh_page.wait_for_function("() => window.PuzzleBoards !== undefined")
    assert zh_page.evaluate(_DECORATE) == names


def test_the_gallery_holds_no_english_prose(zh_page, server, installed):
    from zh_text import assert_no_english

    zh_page.goto(f"{server}/")
    assert_no_english(zh_page, "on the gallery")


def test_the_plugins_page_holds_no_english_prose(zh_page, server, installed):
    # The kinds are words ("求解器"); the ids, plugin and package names are quoted as they are.
    from zh_text import assert_no_english

    zh_page.goto(f"{server}/-/plugins")
    assert_no_english(zh_page, "on the plugins page")


def test_the_lights_out_editor_holds_no_english_prose_while_editing_solving_and_playing(
        zh_page, server, installed):
    from zh_text import assert_no_english

    need(installed, "lights_out")
    page = zh_page
    page.goto(f"{server}/lights_out?preset=cross")
    assert_no_english(page, "on opening")
    page.locator('input[name="mode"][value="play"]').check()
    page.locator('#board [data-action="cell:a1"]').click()
    # The edit's answer first: a Solve sent before it would solve the board before the press, and
    # the page rightly drops that solution when the edit lands (a race on a loaded machine).
    expect(page.locator("#instance-text")).not_to_have_value("00100/00100/11111/00100/00100")
    assert_no_english(page, "after an edit")
    page.get_by_role("button", name="求解", exact=True).click()
    expect(page.locator("#solve-status")).to_contain_text("已解开", timeout=90_000)
    assert_no_english(page, "after Solve")
    page.get_by_role("button", name="下一步").click()
    assert_no_english(page, "during playback")
    page.locator("#instance-text").fill("not a board")
    # The editor says what is wrong under the text, and Solve refuses in words (no role=alert:
    # the page's error states are the instance error and the solve status's kind).
    expect(page.locator("#instance-error")).not_to_be_empty()
    page.get_by_role("button", name="求解", exact=True).click()
    expect(page.locator("#solve-status")).to_have_attribute("data-kind", "error")
    assert_no_english(page, "showing an error")


def test_the_plugins_page_and_the_embed_player_hold_no_english_prose(zh_page, server, installed):
    from zh_text import assert_no_english

    need(installed, "lights_out")
    page = zh_page
    page.goto(f"{server}/-/plugins")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    assert_no_english(page, "on the plugins page")  # plugin, distribution and solver ids are marked
    page.goto(f"{server}/embed/lights_out?instance=101/010/101&moves=a1,c3&list=1")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator("#step-status")).to_contain_text("初始局面")
    assert_no_english(page, "on the embed player")
    page.locator("#next-step").click()
    expect(page.locator("#step-status")).to_contain_text("第 1 步，共 2 步")
    assert_no_english(page, "on the embed player after a step")
    count, report = axe_violations(page)  # lang="zh-Hans" is valid, the labels are named
    assert count == 0, report
    page.goto(f"{server}/embed/lights_out")
    assert_no_english(page, "on the embed player of a board with no solution yet")
    page.goto(f"{server}/embed/lights_out?instance=10x")
    assert_no_english(page, "on the embed player's error")
