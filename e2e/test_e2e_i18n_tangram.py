"""The tangram editor in Simplified Chinese, in a browser whose language is zh-CN: opening a
preset, an edit in the composer, Solve, stepping through the playback, Hint, drawing and an
error in the instance text show no English prose at all, neither the plugin's nor the
host's (docs/i18n.md; e2e/zh_text.py says what counts as English prose).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

PRESET = "cat"
#: Area 3 is not 16 times a square of Q(sqrt 2): refused with the area, on no line in particular.
BAD_AREA = "outer 0,0 3,0 3,1 0,1"


@pytest.fixture()
def zh_page(zh_page, installed):
    """The shared Chinese page (e2e/conftest.py), for a server that has the tangram plugin."""
    if "tangram" not in installed:
        pytest.skip("the tangram plugin is not installed")
    return zh_page


def walk(page, server, check) -> None:
    """Every moment of the walk, calling ``check(page, moment)`` at each."""
    page.goto(f"{server}/tangram?preset={PRESET}")
    page.wait_for_selector('#board svg[data-view="compose"]')
    page.wait_for_function("() => window.PuzzleEditor !== undefined")
    expect(page.get_by_role("heading", level=1)).to_have_text("七巧板")
    expect(page.locator("#picture-button")).to_have_text("从图片读取……")  # the plugin's script
    check(page, "on opening a preset")

    # an edit: a piece from the tray into the composition
    with page.expect_response(re.compile(r"/api/tangram/edit$")):
        page.get_by_role("combobox", name="添加板块").select_option("add:M")
    page.wait_for_function("() => /^draft M /m.test(document.querySelector('#instance-text').value)")
    expect(page.locator("#board")).to_contain_text("拖到这里移除")
    check(page, "after an edit")

    page.get_by_role("button", name="求解", exact=True).click()
    # Issue #21: a cover says the figure is covered with the seven pieces, not "7 moves".
    expect(page.locator("#solve-status")).to_have_text("已解开：七块板块恰好拼满了图形。", timeout=90_000)
    check(page, "after Solve")

    page.get_by_role("button", name="下一步").click()
    page.get_by_role("button", name="下一步").click()
    expect(page.locator("#step-status")).to_contain_text(re.compile(r"^第 2 步，共 7 步：.*(三角形|正方形|平行四边形)"))
    check(page, "during playback")

    page.get_by_role("button", name="编辑", exact=True).click()
    # Hint after Solve: the first solve of a run may wait while the workers load their tables,
    # and a hint has only a few seconds
    page.get_by_role("button", name="提示", exact=True).click()
    expect(page.locator("#edit-message")).to_contain_text(re.compile(r"^提示：.*(三角形|正方形|平行四边形)"),
                                                          timeout=30_000)
    check(page, "showing a hint")
    page.get_by_role("button", name="画剪影", exact=True).click()
    page.wait_for_selector('#board svg[data-view="draw"]')
    expect(page.locator("#board")).to_contain_text("结束绘制")
    check(page, "while drawing a silhouette")

    page.locator("#instance-text").fill(BAD_AREA)
    page.get_by_role("button", name="应用", exact=True).click()
    expect(page.locator("#instance-error")).to_contain_text("图形面积是 3")
    check(page, "showing an error in the instance text")


def test_the_tangram_editor_holds_no_english_prose_and_no_axe_violation_at_all(zh_page, server):
    from test_e2e_game import axe_violations
    from zh_text import assert_no_english

    axe: dict[str, str] = {}

    def check(page, moment):
        assert_no_english(page, moment)
        count, report = axe_violations(page)  # html-lang-valid included: lang="zh-Hans"
        if count:
            axe[moment] = report

    walk(zh_page, server, check)
    assert not axe, "\n".join(f"axe, {moment}: {report}" for moment, report in axe.items())
