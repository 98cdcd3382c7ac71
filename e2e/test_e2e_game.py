"""The editor as a game, on every puzzle: what the box says is solved, steps are animated by
data-key, last and next move are distinct cues, one board in view, keyboard and screen reader
use (roving focus, Tab count, live region, axe), Random, messages and hints.

Everything is found by role and accessible name where a person would find it that way.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path

import pytest
from e2e_helpers import api
from playwright.sync_api import expect
from test_e2e_flows import need, solve_by_api

PUZZLES = ["sliding", "pegs", "tangram", "lights_out"]
#: For each puzzle: the preset the page opens with, and another instance to type in the box.
OTHER = {"sliding": "1 2 3/4 5 6/7 0 8", "pegs": "triangle-5", "tangram": "square",
         "lights_out": "small"}
ANIMATE_JS = Path(__file__).resolve().parent.parent / "web" / "static" / "animate.js"


def open_editor(page, server, puzzle, instance=None, **query):
    url = f"{server}/{puzzle}"
    if instance is not None:
        query["instance"] = instance
    if query:
        url += "?" + urllib.parse.urlencode(query)
    page.goto(url)
    page.wait_for_load_state("load")


def solve_here(page):
    page.get_by_role("button", name="Solve", exact=True).click()
    # The solve status says how it ended by its kind: success, warning or error.
    page.wait_for_function("() => ['success', 'warning', 'error'].includes("
                           "document.getElementById('solve-status').dataset.kind)", timeout=60_000)
    return page.locator("#solve-status").inner_text()


def canonical(server, puzzle, text):
    return api(server, f"/api/{puzzle}/validate", {"instance": text})["instance"]


def play_link(page, server, puzzle, preset, step=0):
    """Open the editor with a solution of ``preset`` at ``step``; the moves."""
    instance = canonical(server, puzzle, preset)
    moves = solve_by_api(server, puzzle, instance)
    query = urllib.parse.urlencode({"instance": instance, "moves": json.dumps(moves)})
    page.goto(f"{server}/{puzzle}?{query}#step={step}")
    page.wait_for_load_state("load")
    expect(page.locator("#playback-board")).to_have_attribute("data-step", str(step))
    return moves


# -- 1. solve what the box says ---------------------------------------------------------------


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_solve_uses_the_text_in_the_box(page, server, installed, puzzle):
    details = need(installed, puzzle)
    open_editor(page, server, puzzle)
    other = details["presets"].get(OTHER[puzzle], OTHER[puzzle])
    wanted = canonical(server, puzzle, other)
    assert wanted != page.get_by_label("Instance text").input_value()
    page.get_by_label("Instance text").fill(other)
    with page.expect_request(re.compile(r"/jobs$")) as submitted:
        solve_here(page)
    assert submitted.value.post_data_json["instance"] == wanted
    expect(page.get_by_label("Instance text")).to_have_value(wanted)

    # Invalid text: the error shows where it always does, and nothing is solved.
    page.get_by_label("Instance text").fill("this is not a puzzle ✗")
    jobs = []
    page.on("request", lambda r: jobs.append(r) if r.url.endswith("/jobs") else None)
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.locator("#instance-error")).not_to_be_empty()
    expect(page.locator("#solve-status")).to_contain_text("Fix the instance text first")
    assert jobs == []


def test_a_click_right_after_a_preset_applies_to_that_preset(page, server, installed):
    """A preset whose answer is slow to arrive still lands before the clicks made after it: the
    two clicks of a jump then apply to the preset, in order, and nothing is lost (the CI race
    where the preset's late answer reset the peg just picked)."""
    need(installed, "pegs")
    open_editor(page, server, "pegs")
    page.locator('input[name="mode"][value="play"]').check()
    english = canonical(server, "pegs", installed["pegs"]["presets"]["english"])

    held = []  # the preset's answer is held back until both clicks are made
    page.route(re.compile(r"/validate$"), lambda route: held.append(route))
    page.get_by_label("Preset").select_option("english")
    edits = []
    page.on("response", lambda r: edits.append(r) if r.url.endswith("/edit") else None)
    for hole in ("d2", "d4"):
        page.locator(f'#board [data-action="hole:{hole}"]').click(force=True)
    page.wait_for_timeout(500)  # time enough for edits sent out of turn to come back
    assert len(held) == 1
    held[0].continue_()
    page.unroute(re.compile(r"/validate$"))
    expect(page.get_by_label("Instance text")).not_to_have_value(english)
    assert [answer.ok for answer in edits] == [True, True], [a.text() for a in edits]
    after = api(server, "/api/pegs/edit", {"instance": english, "action": "hole:d2", "mode": "play",
                                          "selection": None})
    after = api(server, "/api/pegs/edit", {"instance": after["instance"], "action": "hole:d4",
                                          "mode": "play", "selection": after.get("selection")})
    expect(page.get_by_label("Instance text")).to_have_value(after["instance"])


# -- 2. animated steps -------------------------------------------------------------------------


FIXTURE = """<!doctype html><html><body style="margin:0">
<div id="b" class="board" style="width:300px"><svg viewBox="0 0 300 100" width="300" height="100">
<g data-key="a"><rect x="0" y="0" width="100" height="100"/></g>
<g data-key="gone"><circle cx="250" cy="50" r="40"/></g>
<g data-key="turned" transform="rotate(10 150 50)"><rect x="120" y="20" width="60" height="60"/></g>
</svg></div></body></html>"""
NEXT = """<svg viewBox="0 0 300 100" width="300" height="100">
<g data-key="a"><rect x="200" y="0" width="100" height="100"/></g>
<g data-key="new"><circle cx="50" cy="50" r="40"/></g>
<g data-key="turned" transform="rotate(10 150 50)"><rect x="120" y="20" width="60" height="60"/></g>
</svg>"""


def test_animate_js_tweens_moved_keys_and_fades_the_rest(page):
    page.set_content(FIXTURE)
    page.add_script_tag(path=str(ANIMATE_JS))
    result = page.evaluate("""next => {
        const b = document.getElementById('b');
        const count = PuzzleBoards.swap(b, next, 250);
        const a = b.querySelector('[data-key="a"]');
        const ghosts = b.querySelectorAll('.flip-ghost').length;
        const animations = document.getAnimations().length;
        return {count, animations, ghosts, x: a.getBoundingClientRect().left};
    }""", NEXT)
    # a moved (tween), "new" appeared (fade in), "gone" vanished (ghost fading out).
    assert result["count"] == 3 and result["animations"] == 3 and result["ghosts"] == 1
    assert result["x"] < 150, "the moved part starts where it was, not where it goes"
    page.wait_for_function("() => document.getAnimations().length === 0")
    assert page.evaluate("document.querySelector('[data-key=a]').getBoundingClientRect().left") == 200
    assert page.locator(".flip-ghost").count() == 0
    # A part with its own transform is tweened inside a wrapper that goes away afterwards.
    assert page.locator(".flip-wrap").count() == 0
    assert page.locator('[data-key="turned"]').get_attribute("transform") == "rotate(10 150 50)"


CHAIN_BEFORE = """<!doctype html><html><body style="margin:0">
<div id="b" class="board" style="width:300px"><svg viewBox="0 0 300 100" width="300" height="100">
<g data-key="peg-a" data-key-also="peg-b"><circle cx="150" cy="50" r="20"/></g>
<g data-key="peg-x"><circle cx="250" cy="50" r="20"/></g>
</svg></div></body></html>"""
CHAIN_AFTER = """<svg viewBox="0 0 300 100" width="300" height="100">
<g data-key="peg-b" data-key-also="peg-c"><circle cx="50" cy="50" r="20"/></g>
<g data-key="peg-x"><circle cx="250" cy="50" r="20"/></g>
</svg>"""


def test_animate_js_follows_a_chain_of_jumps_through_data_key_also(page):
    """The peg that jumped a->b is keyed peg-a (also peg-b); its next jump draws it as peg-b:
    it must glide from where it was, not fade out and in again."""
    page.set_content(CHAIN_BEFORE)
    page.add_script_tag(path=str(ANIMATE_JS))
    result = page.evaluate("""next => {
        const b = document.getElementById('b');
        const count = PuzzleBoards.swap(b, next, 250);
        const peg = b.querySelector('[data-key="peg-b"]');
        return {count, ghosts: b.querySelectorAll('.flip-ghost').length,
                x: peg.getBoundingClientRect().left};
    }""", CHAIN_AFTER)
    assert result == {"count": 1, "ghosts": 0, "x": result["x"]} and result["x"] > 100


def test_animate_js_does_not_move_under_reduced_motion(page):
    page.emulate_media(reduced_motion="reduce")
    page.set_content(FIXTURE)
    page.add_script_tag(path=str(ANIMATE_JS))
    assert page.evaluate("next => PuzzleBoards.swap(document.getElementById('b'), next, 250)", NEXT) == 0
    assert page.evaluate("document.getAnimations().length") == 0


KEYED_POSITIONS = """() => Object.fromEntries(Array.from(
    document.querySelectorAll('#playback-board [data-key]')).map(n => {
        const r = n.getBoundingClientRect(); return [n.dataset.key, [Math.round(r.x), Math.round(r.y)]]; }))"""


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_next_step_is_animated(page, server, installed, puzzle):
    details = need(installed, puzzle)
    play_link(page, server, puzzle, next(iter(details["presets"])))
    assert page.locator("#playback-board [data-key]").count(), f"the {puzzle} board has no data-key"
    before = page.evaluate(KEYED_POSITIONS)
    # Watch the animations start as the new board goes in.
    page.evaluate("""() => { window.__seen = 0; new MutationObserver(() => {
        window.__seen = Math.max(window.__seen, document.getAnimations().length); })
        .observe(document.getElementById('playback-board'), {childList: true}); }""")
    page.get_by_role("button", name="Next step").click()
    expect(page.locator("#playback-board")).to_have_attribute("data-step", "1")
    page.wait_for_function("() => window.__seen > 0 || document.getAnimations().length > 0")
    page.wait_for_function("() => document.getAnimations().length === 0")
    after = page.evaluate(KEYED_POSITIONS)
    changed = set(before) ^ set(after) or {k for k in before if k in after and before[k] != after[k]}
    if puzzle != "lights_out":  # a light flips in place; everything else moves or goes
        assert changed, "no keyed part moved, appeared or vanished in a step"


# -- 3. last and next move ---------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_last_and_next_move_are_distinct_cues(page, server, installed, puzzle):
    details = need(installed, puzzle)
    play_link(page, server, puzzle, next(iter(details["presets"])), step=1)
    board = page.locator("#playback-board")
    last = board.locator(".last-move")
    nxt = board.locator(".next-move")
    expect(last.first).to_be_attached()
    expect(nxt.first).to_be_attached()
    assert board.locator(".last-move.next-move").count() == 0
    # The host styles them differently: solid versus dashed.
    legend = page.locator("#legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("last move")
    expect(legend).to_contain_text("next move")
    assert last.count() and nxt.count()


# -- 4. readable moves -------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_moves_in_words_details_and_coordinates(page, server, installed, puzzle):
    details = need(installed, puzzle)
    moves = play_link(page, server, puzzle, next(iter(details["presets"])), step=1)
    words = api(server, f"/api/{puzzle}/describe",
                {"instance": page.get_by_label("Instance text").input_value(), "moves": moves})
    assert [m["move"] for m in words["moves"]] == moves
    first = page.get_by_role("button", name=re.compile(r"^Move 1: "))
    said = words["moves"][0]["words"]
    expect(first).to_have_attribute("aria-label", f"Move 1: {said} ({moves[0]})" if said != moves[0]
                                    else f"Move 1: {moves[0]}")
    expect(page.locator("#step-status")).to_contain_text(f"Move 1 of {len(moves)}")
    # Raw solver figures are behind a Details disclosure, closed.
    expect(page.locator("#solution-details summary, #solve-details summary").first).to_be_attached()
    assert page.locator("details[open]").count() == 0
    coords = page.locator("#playback-board .coords")
    if coords.count():
        toggle = page.get_by_label("Coordinates")
        expect(coords.first).to_be_visible()
        toggle.uncheck()
        expect(coords.first).to_be_hidden()
        toggle.check()
        expect(coords.first).to_be_visible()


# -- 5. one board in view ----------------------------------------------------------------------


def fully_in_view(page, selector):
    return page.evaluate("""sel => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; }""", selector)


@pytest.mark.parametrize("width,height", [(1280, 800), (375, 740)])
@pytest.mark.parametrize("puzzle", PUZZLES)
def test_answer_plays_on_the_one_board_in_view(page, server, installed, puzzle, width, height):
    need(installed, puzzle)
    page.set_viewport_size({"width": width, "height": height})
    open_editor(page, server, puzzle)
    solve_here(page)
    expect(page.locator("#board")).to_be_hidden()
    expect(page.locator("#playback-board")).to_be_visible()
    expect(page.get_by_role("button", name="Solution", exact=True)).to_have_attribute("aria-pressed", "true")
    # The answer's board is a picture: no buttons in it, no tab stop.
    expect(page.locator("#playback-board svg")).to_have_attribute("role", "img")
    assert page.locator("#playback-board [role=button], #playback-board [tabindex]").count() == 0
    page.wait_for_timeout(200)
    assert fully_in_view(page, "#playback-board svg"), "the answer's board is not fully in view"
    assert fully_in_view(page, ".controls"), "the step controls are not in view"
    # Focus is on the playback controls.
    assert page.evaluate("document.activeElement.closest('.controls') !== null")
    # Back to editing: the same place shows the editable board.
    page.get_by_role("button", name="Edit", exact=True).click()
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#playback-board")).to_be_hidden()


@pytest.mark.parametrize("width,height", [(1280, 800), (375, 740)])
def test_step_link_opens_with_board_and_controls_in_view(page, server, installed, width, height):
    need(installed, "pegs")
    page.set_viewport_size({"width": width, "height": height})
    play_link(page, server, "pegs", "english", step=5)
    page.wait_for_timeout(200)
    assert fully_in_view(page, "#playback-board svg")
    assert fully_in_view(page, ".controls")


# -- 6. keyboard -------------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_solve_is_at_most_ten_tabs_away_and_the_skip_link_goes_there(page, server, installed, puzzle):
    need(installed, puzzle)
    open_editor(page, server, puzzle)
    for _press in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "solve":
            break
    else:
        pytest.fail("Solve is more than 10 Tab presses from the top of the page")
    # Each board is one tab stop.
    assert page.locator("#board [tabindex='0']").count() <= 1
    page.goto(page.url)
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to Solve")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_accessible_name("Solver")


#: Play-mode boards where Enter on the focused part edits the instance.
KEYBOARD_EDIT = {"sliding": ["ArrowRight", "ArrowDown"], "pegs": [], "lights_out": ["ArrowRight"]}


@pytest.mark.parametrize("puzzle", list(KEYBOARD_EDIT))
def test_roving_focus_edits_and_keeps_the_cell(page, server, installed, puzzle):
    need(installed, puzzle)
    open_editor(page, server, puzzle)
    parts = page.locator("#board [data-action]")
    assert parts.count() > 1
    svg = page.locator("#board svg")
    expect(svg).not_to_have_attribute("role", "img")  # no buttons inside an image
    # Tab into the board lands on its one tab stop; arrows move between parts.
    page.locator("#board [tabindex='0']").focus()
    start = page.evaluate("document.activeElement.dataset.action")
    for key in KEYBOARD_EDIT[puzzle]:
        page.keyboard.press(key)
    if KEYBOARD_EDIT[puzzle]:
        assert page.evaluate("document.activeElement.dataset.action") != start
    focused = page.evaluate("[document.activeElement.dataset.key || null, document.activeElement.dataset.action]")
    assert page.locator("#board [tabindex='0']").count() == 1
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label and not label.startswith("Edit:"), label
    with page.expect_response(re.compile(r"/edit$")):
        page.keyboard.press("Enter")
    expect(page.locator("#board")).not_to_have_attribute("aria-busy", "true")  # the edit applied
    now = page.evaluate("[document.activeElement.dataset.key || null, document.activeElement.dataset.action]")
    if focused[0]:
        assert now[0] == focused[0], "focus left the part after the edit"
    else:
        assert now[1] == focused[1], "focus left the cell after the edit"


# -- 7. screen readers -------------------------------------------------------------------------


def axe_violations(page):
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return results.violations_count, results.generate_report()


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("puzzle", PUZZLES)
def test_axe_finds_nothing_on_any_editor_state(page, server, installed, puzzle, width):
    need(installed, puzzle)
    page.set_viewport_size({"width": width, "height": 800})
    open_editor(page, server, puzzle)
    states = {}
    states["editing"] = axe_violations(page)
    page.get_by_label("Instance text").fill("this is not a puzzle")
    expect(page.locator("#instance-error")).not_to_be_empty()
    states["error"] = axe_violations(page)
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.locator("#solve-status")).to_contain_text("Fix the instance text")
    states["solve error"] = axe_violations(page)
    page.goto(page.url)
    page.get_by_role("button", name="Solve", exact=True).click()
    states["solving"] = axe_violations(page)
    expect(page.locator("#solve-status")).to_contain_text("Solved", timeout=60_000)
    page.get_by_role("button", name="Next step").click()
    states["playback"] = axe_violations(page)
    bad = {name: report for name, (count, report) in states.items() if count}
    assert not bad, "\n".join(f"{name}: {report}" for name, report in bad.items())


def test_live_region_announces_steps_and_results(page, server, installed):
    need(installed, "sliding")
    open_editor(page, server, "sliding", preset="8-puzzle")
    status = page.locator("#solve-status")
    solve_here(page)
    expect(status).to_have_attribute("role", "status")
    total = int(page.get_by_role("slider", name="Step").get_attribute("max"))
    live = page.locator("#step-status")
    expect(live).to_have_attribute("aria-live", "polite")
    expect(live).to_have_text(f"Start position: {total} moves to go.")
    page.get_by_role("button", name="Next step").click()
    expect(live).to_contain_text(f"Move 1 of {total}: ")
    page.get_by_role("button", name="Last step").click()
    expect(live).to_contain_text(f"Move {total} of {total}: ")
    expect(live).to_contain_text("Solved!")


# -- 8. random ---------------------------------------------------------------------------------


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_random_gives_a_new_instance_each_press(page, context, server, installed, puzzle):
    need(installed, puzzle)
    open_editor(page, server, puzzle)
    assert page.get_by_role("button", name="Random", exact=True).count() == 1
    text = page.get_by_label("Instance text")
    seen = []
    for _ in range(2):
        before = text.input_value()
        page.get_by_role("button", name="Random", exact=True).click()
        expect(text).not_to_have_value(before)
        seen.append((page.get_by_label("Seed").input_value(), text.input_value()))
    assert seen[0][0] != seen[1][0] and seen[0][1] != seen[1][1]
    # The seed shown gives that board again.
    again = context.new_page()
    again.goto(f"{server}/{puzzle}?seed={seen[1][0]}")
    expect(again.get_by_label("Instance text")).to_have_value(seen[1][1])
    expect(page.locator("#edit-message")).to_contain_text(f"seed {seen[1][0]}")


# -- 9. messages -------------------------------------------------------------------------------


def test_plain_messages_singular_and_solved_by_hand(page, server, installed):
    need(installed, "sliding")
    open_editor(page, server, "sliding", instance="1 2 3/4 5 6/7 0 8")
    said = solve_here(page)
    assert "1 move" in said and "1 moves" not in said
    expect(page.locator("#solve-status")).not_to_contain_text("store")
    expect(page.locator("#solve-status")).to_have_attribute("data-kind", "success")
    page.get_by_role("button", name="Edit", exact=True).click()
    # Play the last move by hand: a banner and a framed board.
    page.get_by_role("radio", name=re.compile("^Play")).check()
    with page.expect_response(re.compile(r"/edit$")):
        page.locator('#board [data-action="tile:8"]').click()
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text("Solved")
    expect(page.locator("#board")).to_have_attribute("data-solved", "true")


def test_a_refused_solve_says_why_in_words(page, server, installed):
    """The server's refusal names the field for API clients ("time_limit"); the page says it
    in words, once."""
    need(installed, "sliding")
    open_editor(page, server, "sliding", instance="1 2 3/4 5 6/7 0 8")
    page.locator("#time-limit").fill("99999")
    said = solve_here(page)
    assert said.startswith("Cannot solve: The time limit is at most"), said
    assert "_" not in said and said.count("time limit") == 1
    expect(page.locator("#solve-status")).to_have_attribute("data-kind", "error")


def test_unsolvable_reason_once_with_why(page, server, installed):
    need(installed, "pegs")
    # European board, goal d4: impossible by position class.
    open_editor(page, server, "pegs", preset="european")
    solve_here(page)
    status = page.locator("#solve-status")
    expect(status).to_have_attribute("data-kind", "warning")
    reason = re.sub(r"^(No solution\. |No: )", "", status.inner_text())
    assert len(reason) > 15, reason
    # Said once: not again in the notes (in the same or other words).
    core = reason.rstrip(".").lower()
    assert all(core not in note.lower() for note in page.locator("#notes li").all_inner_texts())
    why = page.locator("#why")
    if why.is_visible():
        expect(why).not_to_have_attribute("open", "")
        why.locator("summary").click()
        expect(page.locator("#why-text")).not_to_be_empty()


def test_gave_up_offers_the_fast_solver(page, server, installed):
    need(installed, "sliding")
    hard = api(server, "/api/sliding/random?seed=7&size=5x5")["instance"]
    open_editor(page, server, "sliding", instance=hard)
    page.get_by_label("Solver").select_option("optimal")
    page.get_by_label("Time limit (s)").fill("1")
    page.get_by_role("button", name="Solve", exact=True).focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => ['success', 'warning', 'error'].includes("
                           "document.getElementById('solve-status').dataset.kind)", timeout=60_000)
    assert "Gave up" in page.locator("#solve-status").inner_text()
    fast = page.get_by_role("button", name="Try the fast solver")
    expect(fast).to_be_visible()
    expect(fast).to_be_focused()  # the keyboard is not left on the page body
    fast.click()
    expect(page.locator("#solve-status")).to_contain_text("Solved", timeout=60_000)
    expect(page.get_by_label("Solver")).to_have_value("fast")


# -- 10. hints and the live verdict ------------------------------------------------------------


#: Puzzles whose hinted move is one click on the part marked as the next move.
ONE_CLICK = {"sliding": "8-puzzle", "lights_out": "cross"}


@pytest.mark.parametrize("puzzle", ["sliding", "pegs", "lights_out"])
def test_hint_shows_a_legal_next_move(page, server, installed, puzzle):
    need(installed, puzzle)
    preset = ONE_CLICK.get(puzzle, "english")
    open_editor(page, server, puzzle, preset=preset)
    instance = page.get_by_label("Instance text").input_value()
    with page.expect_response(lambda r: r.url.endswith("/validate") and r.request.method == "POST"
                              and "next_move" in (r.request.post_data or "")) as answer:
        page.get_by_role("button", name="Hint").click()
    hint = answer.value.json()["hint"]
    expect(page.locator("#edit-message")).to_contain_text("Hint: ")
    # The move is legal from here (the server replays it) ...
    replay = api(server, f"/api/{puzzle}/replay", {"instance": instance, "moves": [hint["move"]]})
    assert replay["steps"] == 1
    expect(page.locator("#board .next-move").first).to_be_attached()
    expect(page.locator("#legend")).to_be_visible()
    if puzzle in ONE_CLICK:
        # ... and playing it keeps the position solvable.
        mode = page.locator('input[type="radio"][name="mode"][value="play"]')
        if mode.count():
            mode.check()
        with page.expect_response(re.compile(r"/edit$")):
            page.locator("#board .next-move[data-action], #board .next-move [data-action]").first.click()
        expect(page.locator("#notes [data-verdict='cannot']")).to_have_count(0)
        assert "Solved" in solve_here(page)


def test_live_verdict_after_each_move(page, server, installed):
    need(installed, "sliding")
    # Two tiles swapped: no sequence of slides can fix that (permutation parity).
    open_editor(page, server, "sliding", instance="1 2 3/4 5 6/8 7 0")
    state = api(server, "/api/sliding/validate", {"instance": "1 2 3/4 5 6/8 7 0"})
    assert state["assessment"]["verdict"] in ("cannot", "unknown")  # never a wrong "can"
    note = page.locator("#notes li[data-verdict]")
    if state["assessment"]["verdict"] == "cannot":
        expect(note).to_have_attribute("data-kind", "warning")
    # After a move the verdict is there again, for the new position.
    page.get_by_role("radio", name=re.compile("^Play")).check()
    with page.expect_response(re.compile(r"/edit$")) as answer:
        page.locator('#board [data-action="tile:7"]').click()
    verdict = answer.value.json()["assessment"]["verdict"]
    assert verdict in ("cannot", "unknown")
    expect(note).to_have_attribute("data-verdict", verdict)
    if verdict == "unknown":
        expect(note).to_contain_text("Unknown")


def test_step_tween_follows_the_speed_setting(page, server, installed):
    need(installed, "sliding")
    play_link(page, server, "sliding", "8-puzzle")
    # Record each animation's duration as it starts: polling getAnimations() can miss a short
    # tween on a loaded machine (it may start and end between two polls).
    page.evaluate("""() => {
        window.tweenDurations = [];
        const animate = Element.prototype.animate;
        Element.prototype.animate = function (frames, options) {
            window.tweenDurations.push(typeof options === "number" ? options : options.duration);
            return animate.call(this, frames, options);
        };
    }""")
    durations = {}
    for label in ("Normal", "Fast", "Slow"):
        page.get_by_label("Speed").select_option(label=label)
        page.evaluate("() => { window.tweenDurations = []; }")
        page.get_by_role("button", name="Next step").click()
        page.wait_for_function("() => window.tweenDurations.length > 0")
        durations[label] = page.evaluate("Math.max(...window.tweenDurations)")
        page.wait_for_function("() => document.getAnimations().length === 0")
    assert 150 <= durations["Normal"] <= 300
    assert durations["Fast"] < durations["Normal"] <= durations["Slow"]
