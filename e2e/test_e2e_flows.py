"""The browser flows of the web app, driven by accessible names in a real Chromium against a
real server: every installed puzzle from the gallery through editing, solving, playback and
sharing; plus errors in the text box, cancelling a long solve, an unsolvable instance, and a
step permalink.
"""

from __future__ import annotations

import re
import time
import urllib.parse
import urllib.request

import pytest
from e2e_helpers import api
from playwright.sync_api import expect

#: The puzzles every run must cover, with an instance their default solver answers quickly, the
#: click mode whose board clicks keep the instance solvable ("play" = make a move) and, where a
#: single click is not enough, the edit steps to take: ("click", data-action of a board part) or
#: ("tool", action of a toolbar button or drop-down choice).
SCENARIOS = {
    "sliding": {"preset": "8-puzzle", "mode": "play"},
    "pegs": {"preset": "english", "mode": "play", "steps": [("click", "hole:d2"), ("click", "hole:d4")]},
    "tangram": {"preset": "square", "mode": None,
                "steps": [("tool", "add:L1"), ("click", "select:L1"), ("tool", "rotate")]},
    "lights_out": {"preset": "cross", "mode": "play"},
}
UNSOLVABLE_SLIDING = "1 2 3/4 5 6/8 7 0"  # two tiles swapped: wrong permutation parity


def solve_by_api(server: str, puzzle: str, instance: str) -> list[str]:
    job = api(server, f"/api/{puzzle}/jobs", {"instance": instance, "time_limit": 30})
    deadline = time.monotonic() + 60
    while not job["done"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
        job = api(server, f"/api/jobs/{job['id']}")
    assert job["status"] == "solved", job
    return job["result"]["moves"]


def need(installed: dict, puzzle: str) -> dict:
    if puzzle not in installed:
        pytest.skip(f"the {puzzle!r} plugin is not installed in this environment")
    return installed[puzzle]


def edit_by_steps(page, steps) -> str:
    """Take the scenario's edit steps (board clicks, tools); the new instance text."""
    before = page.locator("#instance-text").input_value()
    for kind, action in steps:
        # A part still gliding to its new place is clicked where it lands, not mid-way.
        page.wait_for_function("() => document.getAnimations().length === 0")
        with page.expect_response(re.compile(r"/edit$")) as answer:
            if kind == "click":
                page.locator(f'#board [data-action="{action}"]').click(force=True)
            elif page.locator(f'#tools [data-tool-action="{action}"]').count():
                page.locator(f'#tools [data-tool-action="{action}"]').click()
            else:
                page.locator(f'#tools select:has(option[value="{action}"])').select_option(action)
        assert answer.value.ok, answer.value.text()
        # The answer has come, but the page applies it a moment later: wait until the board
        # has no change pending, or the next step (and the text read below) sees the old board.
        expect(page.locator("#board")).not_to_have_attribute("aria-busy", "true")
    after = page.locator("#instance-text").input_value()
    assert after != before
    return after


def click_board_until_changed(page, attempts: int = 40) -> str:
    """Click clickable parts of the board until one changes the instance; the new text."""
    text = page.locator("#instance-text")
    before = text.input_value()
    parts = page.locator("#board [data-action]")
    count = parts.count()
    assert count > 0, "the board has no clickable parts"
    for index in range(min(count, attempts)):
        page.wait_for_function("() => document.getAnimations().length === 0")
        with page.expect_response(re.compile(r"/edit$")) as answer:
            parts.nth(index).click(force=True)
        if answer.value.ok:
            try:
                page.wait_for_function(
                    "before => document.getElementById('instance-text').value !== before",
                    arg=before, timeout=2000)
                return text.input_value()
            except Exception:
                continue  # a click that changed nothing (e.g. it selected a part)
    raise AssertionError("no click on the board changed the instance")


@pytest.mark.parametrize("puzzle", list(SCENARIOS))
def test_gallery_edit_solve_play_share(page, context, server, installed, puzzle):
    details = need(installed, puzzle)
    scenario = SCENARIOS[puzzle]
    preset = scenario["preset"] or next(iter(details["presets"]))
    preset_text = api(server, f"/api/{puzzle}/validate", {"instance": details["presets"][preset]})["instance"]

    page.goto(server + "/")
    page.locator(f'a.card-link[data-puzzle="{puzzle}"]').click()
    # The click only waits for the navigation to commit; the editor's script runs at the end of
    # the page, and a preset chosen before it has attached its handlers would be lost.
    page.wait_for_load_state("load")
    expect(page).to_have_url(re.compile(rf"/{puzzle}(\?|$)"))
    expect(page.get_by_role("heading", level=1)).to_have_text(details["title"])

    # Load the preset, then change it by clicking the board.
    page.get_by_label("Preset").select_option(preset)
    expect(page.locator("#instance-text")).to_have_value(preset_text)
    mode = scenario["mode"] or (details["edit_modes"][0]["name"] if details["edit_modes"] else None)
    if mode and page.locator(f'input[type="radio"][name="mode"][value="{mode}"]').count():
        page.locator(f'input[name="mode"][value="{mode}"]').check()
    if scenario.get("steps"):
        edited = edit_by_steps(page, scenario["steps"])
    else:
        edited = click_board_until_changed(page)
    assert edited != preset_text
    expect(page.get_by_role("button", name="Undo")).to_be_enabled()
    # Undo and redo the edit from the keyboard.
    page.get_by_role("heading", level=1).click()
    page.keyboard.press("Control+z")
    if scenario.get("steps"):  # several edits: undo takes back the last one only
        expect(page.locator("#instance-text")).not_to_have_value(edited)
    else:
        expect(page.locator("#instance-text")).to_have_value(preset_text)
    page.keyboard.press("Control+y")
    expect(page.locator("#instance-text")).to_have_value(edited)

    # Solve.
    page.get_by_role("button", name="Solve", exact=True).click()
    status = page.locator("#solve-status")
    expect(status).to_contain_text("Solved", timeout=60_000)
    slider = page.get_by_role("slider", name="Step")
    total = int(slider.get_attribute("max"))
    assert total > 0

    # Play to the last step, quickly; the final board is solved.
    page.get_by_label("Speed").select_option("80")
    page.get_by_role("button", name="Play").click()
    expect(slider).to_have_value(str(total), timeout=30_000)
    board = page.locator("#playback-board")
    expect(board).to_have_attribute("data-solved", "true")
    expect(board).to_have_attribute("data-step", str(total))
    expect(page.get_by_role("button", name="Play")).to_be_visible()  # stopped at the end

    # Step back with the keyboard.
    page.get_by_role("heading", level=1).click()
    page.keyboard.press("ArrowLeft")
    expect(slider).to_have_value(str(total - 1))
    expect(board).to_have_attribute("data-step", str(total - 1))
    expect(board).to_have_attribute("data-solved", "false")
    assert page.evaluate("location.hash") == f"#step={total - 1}"
    moves = page.locator("#move-list button")
    expect(page.locator('#move-list button[aria-current="step"]')).to_have_text(moves.nth(total - 2).inner_text())
    page.keyboard.press("Home")
    expect(slider).to_have_value("0")
    page.keyboard.press("End")
    expect(slider).to_have_value(str(total))

    # The share link reproduces the instance exactly.
    href = page.locator("#share-link").get_attribute("href")
    assert "instance=" in href
    shared = context.new_page()
    shared.goto(server + href)
    expect(shared.locator("#instance-text")).to_have_value(edited)
    roving = re.compile(r' tabindex="-?\d+"')  # which part holds the tab stop may differ
    assert roving.sub("", shared.locator("#board").inner_html()) == roving.sub("", page.locator("#board").inner_html())


def test_invalid_text_shows_an_error_and_the_page_keeps_working(page, server, installed):
    puzzle = "sliding" if "sliding" in installed else next(iter(installed))
    details = installed[puzzle]
    page.goto(f"{server}/{puzzle}")
    board_before = page.locator("#board").inner_html()
    box = page.get_by_label("Instance text")
    box.fill("this is not a puzzle ✗ <b>")
    error = page.locator("#instance-error")
    expect(error).not_to_be_empty()
    expect(box).to_have_attribute("aria-invalid", "true")
    page.get_by_role("button", name="Apply").click()
    expect(error).not_to_be_empty()
    assert page.locator("#board").inner_html() == board_before  # the board kept the last good one

    # Still working: a preset clears the error, and it solves.
    preset = SCENARIOS.get(puzzle, {}).get("preset") or next(iter(details["presets"]))
    page.get_by_label("Preset").select_option(preset)
    expect(error).to_be_empty()
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.locator("#solve-status")).to_contain_text("Solved", timeout=60_000)


def test_cancel_stops_a_long_solve(page, server, installed):
    need(installed, "sliding")
    page.goto(f"{server}/sliding")
    page.locator("#opt-size").fill("5x5")
    page.get_by_label("Seed").fill("7")
    page.get_by_role("button", name="Random", exact=True).click()
    expect(page.locator("#instance-text")).to_have_value(re.compile(r"^([^/]+/){4}[^/]+$"))
    page.get_by_label("Solver").select_option("optimal")
    page.get_by_label("Time limit (s)").fill("60")
    page.get_by_role("button", name="Solve", exact=True).click()
    status = page.locator("#solve-status")
    expect(status).to_have_text(re.compile("Solving|Queued"))
    page.wait_for_timeout(800)
    cancel = page.get_by_role("button", name="Cancel")
    expect(cancel).to_be_enabled()
    started = time.monotonic()
    cancel.click()
    expect(status).to_contain_text("Cancelled", timeout=8_000)
    assert time.monotonic() - started < 8
    expect(page.get_by_role("button", name="Solve", exact=True)).to_be_enabled()
    expect(page.locator("#playback-board")).to_be_hidden()


def test_unsolvable_sliding_instance_shows_the_reason(page, server, installed):
    need(installed, "sliding")
    page.goto(f"{server}/sliding?instance={urllib.parse.quote(UNSOLVABLE_SLIDING, safe='')}")
    expect(page.get_by_label("Instance text")).to_have_value(UNSOLVABLE_SLIDING)
    page.get_by_role("button", name="Solve", exact=True).click()
    status = page.locator("#solve-status")
    expect(status).to_have_attribute("data-kind", "warning", timeout=30_000)
    reason = re.sub(r"^(No solution\. |No: )", "", status.inner_text())
    assert len(reason) > 15, f"the reason is too thin: {reason!r}"
    expect(page.locator("#playback-board")).to_be_hidden()
    expect(page.locator("#moves-panel")).to_be_hidden()


def test_step_permalink_opens_that_step(page, server, installed):
    need(installed, "sliding")
    instance = api(server, "/api/sliding/validate", {"instance": "8-puzzle"})["instance"]
    moves = solve_by_api(server, "sliding", instance)
    assert len(moves) > 4
    query = urllib.parse.urlencode({"instance": instance, "moves": ",".join(moves)})
    page.goto(f"{server}/sliding?{query}#step=3")
    expect(page.get_by_role("slider", name="Step")).to_have_value("3")
    expect(page.locator("#playback-board")).to_have_attribute("data-step", "3")
    # The raw notation is there to copy, next to the move in words.
    expect(page.locator('#move-list button[aria-current="step"] code')).to_have_text(moves[2])
    # The server's own SVG for that step is what the page shows.
    step_svg = urllib.request.urlopen(
        f"{server}/api/sliding/render.svg?{query}&step=3").read().decode()
    shown = page.locator("#playback-board").inner_html()
    data_attributes = re.compile(r'data-[a-z-]+="[^"]*"')  # the board's parts, in order
    assert data_attributes.findall(shown) == data_attributes.findall(step_svg)
    # The animated SVG holds one frame per step.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download animated SVG").click()
    animated = open(download.value.path(), encoding="utf-8").read()
    assert f'data-frames="{len(moves) + 1}"' in animated and animated.count("<animate ") == len(moves) + 1
    # Changing the hash moves the playback too.
    page.evaluate("location.hash = '#step=1'")
    expect(page.get_by_role("slider", name="Step")).to_have_value("1")


@pytest.mark.parametrize("width", [375, 1280])
def test_layout_fits_phone_and_desktop(page, server, installed, width):
    page.set_viewport_size({"width": width, "height": 800})
    for path in ["/", "/-/plugins"] + [f"/{p}" for p in installed]:
        page.goto(server + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} is {overflow}px wider than a {width}px screen"
        if path not in ("/", "/-/plugins"):
            expect(page.get_by_role("button", name="Solve", exact=True)).to_be_visible()
