"""The tangram composer in a real Chromium: a mouse drag and a touch drag move a piece (the
server snaps it exactly), R turns the selected piece, overlaps are counted on the board, and
"Use as silhouette" is enabled only for seven pieces without overlap."""

from __future__ import annotations

import re
import urllib.parse

import pytest

SQUARE = "outer 0,0 4,0 4,4 0,4"
#: A cover of the 4 x 4 square, moved 2 left and 3 down (so it sits beside the silhouette).
SEVEN = ["L1 r5 f0 @ 0,-1", "L2 r3 f0 @ 0,-1", "M r4 f0 @ 2,1", "Q r1 f0 @ 1,-2",
         "S1 r7 f0 @ 1,-2", "S2 r1 f0 @ 0,-1", "P r0 f1 @ 1,0"]


@pytest.fixture(autouse=True)
def _need_tangram(installed):
    if "tangram" not in installed:
        pytest.skip("the tangram plugin is not installed")


def open_composer(page, server, drafts) -> None:
    text = SQUARE + "".join(f"\ndraft {d}" for d in drafts) + "\n"
    page.goto(f"{server}/tangram?instance={urllib.parse.quote(text)}")
    page.wait_for_selector('#board svg[data-view="compose"]')
    page.wait_for_function("() => window.PuzzleEditor !== undefined")


def draft_line(page, name: str) -> str:
    text = page.locator("#instance-text").input_value()
    found = re.search(rf"^draft {name} .*$", text, re.M)
    return found.group(0) if found else ""


def wait_draft(page, pattern: str) -> None:
    """Wait until the instance text has a draft line matching ``pattern`` (a regex)."""
    page.wait_for_function(
        "(p) => new RegExp(p, 'm').test(document.querySelector('#instance-text').value)", arg=pattern)


def piece_centre(page, name: str) -> tuple[float, float]:
    box = page.locator(f'#board g[data-key="piece-{name}"]').bounding_box()
    assert box, f"piece {name} is not drawn"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def px_per_unit(page) -> float:
    """Screen pixels per puzzle unit on the board (from the SVG's own transform)."""
    return page.evaluate("() => document.querySelector('#board svg').getScreenCTM().a")


def test_mouse_drag_moves_a_piece_and_it_snaps(page, server):
    open_composer(page, server, ["M r0 f0 @ -2,-2"])
    before = draft_line(page, "M")
    x, y = piece_centre(page, "M")
    unit = px_per_unit(page)
    with page.expect_response(re.compile(r"/api/tangram/edit$")) as answer:
        page.mouse.move(x, y)
        page.mouse.down()
        for i in range(1, 11):      # 3 units right and 1 up, in steps as a hand would
            page.mouse.move(x + 3.05 * unit * i / 10, y - 1.02 * unit * i / 10)
        page.mouse.up()
    assert answer.value.ok
    page.wait_for_function("(b) => !document.querySelector('#instance-text').value.includes(b)", arg=before)
    assert draft_line(page, "M") == "draft M r0 f0 @ 1,-1"          # snapped exactly
    nx, ny = piece_centre(page, "M")
    assert abs(nx - x - 3 * unit) < 2 and abs(ny - y + 1 * unit) < 2
    # nothing on the page was selected as text by the drag
    assert page.evaluate("() => String(window.getSelection())") == ""


def test_drag_from_the_tray_places_a_new_piece(page, server):
    open_composer(page, server, [])
    x, y = piece_centre(page, "S1")
    bx = page.locator("#board svg").bounding_box()
    with page.expect_response(re.compile(r"/api/tangram/edit$")):
        page.mouse.move(x, y)
        page.mouse.down()
        for i in range(1, 11):      # to the middle of the work area
            page.mouse.move(x + (bx["x"] + bx["width"] * 0.25 - x) * i / 10, y)
        page.mouse.up()
    page.wait_for_function("() => /^draft S1 /m.test(document.querySelector('#instance-text').value)")
    assert "in-tray" not in page.locator('#board g[data-key="piece-S1"]').get_attribute("class")


def test_touch_drag_moves_a_piece(browser, server):
    context = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        open_composer(page, server, ["M r0 f0 @ -2,-2"])
        page.locator("#board").scroll_into_view_if_needed()
        before = draft_line(page, "M")
        x, y = piece_centre(page, "M")
        unit = px_per_unit(page)
        cdp = context.new_cdp_session(page)

        def touch(kind, px, py):
            points = [] if kind == "touchEnd" else [{"x": px, "y": py, "id": 1}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        with page.expect_response(re.compile(r"/api/tangram/edit$")):
            touch("touchStart", x, y)
            for i in range(1, 13):   # 2 units right and 2 up
                touch("touchMove", x + 2 * unit * i / 12, y - 2 * unit * i / 12)
            touch("touchEnd", x + 2 * unit, y - 2 * unit)
        page.wait_for_function("(b) => !document.querySelector('#instance-text').value.includes(b)",
                               arg=before)
        assert draft_line(page, "M") == "draft M r0 f0 @ 0,0"
        assert not errors
    finally:
        context.close()


def test_r_turns_the_selected_piece_and_shift_r_turns_it_back(page, server):
    open_composer(page, server, ["P r0 f0 @ -2,-2"])
    page.locator('#board g[data-key="piece-P"]').click()
    page.wait_for_function("() => window.PuzzleEditor.getSelection() === 'P'")
    page.keyboard.press("r")
    wait_draft(page, "^draft P r1 f0 ")
    page.keyboard.press("Shift+R")
    wait_draft(page, "^draft P r0 f0 ")
    page.keyboard.press("f")
    wait_draft(page, "^draft P r0 f1 ")


def test_overlaps_are_counted_and_use_as_silhouette_waits_for_seven_apart(page, server):
    overlapping = SEVEN[:-1] + ["P r0 f0 @ 0,-1"]           # P dropped on top of the others
    open_composer(page, server, overlapping)
    count = page.locator("#board .overlap-count")
    assert re.fullmatch(r"\d+ overlaps?", count.text_content())
    assert int(page.locator("#board svg").get_attribute("data-overlaps")) >= 1
    use = page.locator('#tools [data-tool-action="use"]')
    assert use.is_disabled()
    open_composer(page, server, SEVEN)
    assert page.locator("#board .overlap-count").count() == 0
    use = page.locator('#tools [data-tool-action="use"]')
    assert use.is_enabled()
    use.click()
    page.wait_for_function("() => document.querySelector('#instance-text').value"
                           ".startsWith('outer -2,-3 2,-3 2,1 -2,1')")


def test_a_silhouette_is_drawn_by_clicking_grid_points(page, server):
    open_composer(page, server, [])
    page.locator('#tools [data-tool-action="draw"]').click()
    page.wait_for_selector('#board svg[data-view="draw"]')
    page.locator("#board").scroll_into_view_if_needed()

    def click_at(ux, uy):
        x, y = page.evaluate("""([ux, uy]) => {
            const m = document.querySelector('#board svg').getScreenCTM();
            return [m.e + m.a * ux, m.f - m.d * uy]; }""", [ux, uy])
        with page.expect_response(re.compile(r"/api/tangram/edit$")):
            page.mouse.click(x, y)

    # a 2 x 8 strip, clicked a little off each grid point; the last click closes it
    for i, (ux, uy) in enumerate([(0.08, -2.05), (1.95, -1.9), (2.1, 6.04), (-0.06, 5.9)]):
        click_at(ux, uy)
        page.wait_for_function("(n) => document.querySelectorAll('#board .sketch circle').length === n",
                               arg=i + 1)
    click_at(0.05, -2.0)
    page.wait_for_function("() => document.querySelector('#instance-text').value"
                           ".startsWith('outer 0,-2 2,-2 2,6 0,6')")
    page.wait_for_selector('#board svg[data-view="compose"]')
