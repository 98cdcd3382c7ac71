"""The editor's task buttons (engine.Task), on peg solitaire's "Count solutions": the button
beside Solve, progress while it runs, the number it finds, Cancel, a board it refuses (the
button disabled, the reason said), and axe on each of those states at 1280 and 375 px.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_e2e_flows import need
from test_e2e_game import axe_violations, open_editor

#: The 15-hole triangle, top hole empty, one peg to be left anywhere: 29,760 jump sequences,
#: by an independent brute force (tests/test_pegs_count.py).
TOP_VACANCY = "geometry: triangular; goal: any; board: ./oo/ooo/oooo/ooooo"
TOP_VACANCY_SOLUTIONS = "29,760"


def count_button(page):
    return page.get_by_role("button", name="Count solutions")


def wait_ended(page):
    page.wait_for_function("() => ['success', 'warning', 'error'].includes("
                           "document.getElementById('solve-status').dataset.kind)", timeout=60_000)


@pytest.mark.parametrize("width", [1280, 375])
def test_count_solutions_runs_as_a_job_and_gives_the_number(page, server, installed, width):
    need(installed, "pegs")
    page.set_viewport_size({"width": width, "height": 900})
    open_editor(page, server, "pegs", TOP_VACANCY)
    button = count_button(page)
    expect(button).to_be_enabled()
    states = {"tool": axe_violations(page)}
    with page.expect_response(lambda r: r.url.endswith("/tasks/count") and r.request.method == "POST") as started:
        button.click()
    # A job: 202 while it runs, or 200 when it has already ended (this count takes
    # milliseconds, and a repeated request is answered from the stored job).
    assert started.value.status in (200, 202)
    assert started.value.headers["location"].startswith("/api/jobs/")
    states["running"] = axe_violations(page)
    wait_ended(page)
    status = page.locator("#solve-status")
    expect(status).to_have_attribute("data-kind", "success")
    expect(status).to_contain_text(f"Count solutions: {TOP_VACANCY_SOLUTIONS} solutions")
    expect(page.locator("#progress")).to_have_attribute("value", "1")
    # The figures behind Details: the exact number among them.
    page.locator("#solve-details summary").click()
    expect(page.locator("#stats")).to_contain_text(TOP_VACANCY_SOLUTIONS)
    expect(button).to_be_enabled()  # ready again
    states["result"] = axe_violations(page)
    bad = {name: report for name, (count, report) in states.items() if count}
    assert not bad, "\n".join(f"{name}: {report}" for name, report in bad.items())


def test_count_shows_progress_and_cancel_stops_it(page, server, installed):
    need(installed, "pegs")
    open_editor(page, server, "pegs", "english")  # ~20 s of counting: time to see it run
    count_button(page).click()
    status = page.locator("#solve-status")
    expect(status).to_contain_text("Counting level sets", timeout=30_000)
    expect(status).to_contain_text("positions")  # the level being built, in words
    expect(count_button(page)).to_be_disabled()
    expect(page.get_by_role("button", name="Solve", exact=True)).to_be_disabled()
    page.get_by_role("button", name="Cancel").click()
    expect(status).to_have_text("Count solutions: cancelled.", timeout=15_000)
    expect(count_button(page)).to_be_enabled()
    expect(page.get_by_role("button", name="Cancel")).to_be_disabled()


@pytest.mark.parametrize("width", [1280, 375])
def test_a_board_too_big_to_count_disables_the_button_and_says_why(page, server, installed, width):
    need(installed, "pegs")
    page.set_viewport_size({"width": width, "height": 900})
    open_editor(page, server, "pegs", "european-c1")
    button = count_button(page)
    expect(button).to_be_disabled()
    note = page.locator("#" + button.get_attribute("aria-describedby"))
    expect(note).to_be_visible()
    expect(note).to_contain_text("GB of memory")
    count, report = axe_violations(page)
    assert not count, report
    # Loading a small board enables it again, without reloading the page.
    page.get_by_label("Instance text").fill(TOP_VACANCY)
    page.get_by_role("button", name="Apply").click()
    expect(button).to_be_enabled()
    expect(page.locator("#task-notes")).to_be_hidden()
