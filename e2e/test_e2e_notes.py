"""The answer's note ("What would help: ...") on the page, on a server with an empty table
cache (its own, so tables another test or a `puzzle prepare` built cannot hide the note): shown
under an answer that a table would shorten, not under a proven-shortest answer nor under an
"unsolvable"; and the default solver's description, which says what its tables do, in plain
view beside the solver menu (not only in a tooltip).
"""

from __future__ import annotations

import pytest
from e2e_helpers import serving
from playwright.sync_api import expect
from test_e2e_flows import need
from test_e2e_game import open_editor, solve_here

#: A random 5 x 5 board (the seed-3 Random one), and a 3 x 5 board with two tiles
#: swapped (the wrong parity: unsolvable).
FIVE = "6 16 22 14 1/5 20 10 9 13/24 12 3 8 21/23 0 2 15 19/11 4 17 18 7"   # puzzle random --seed 3
THIN_UNSOLVABLE = "2 1 3 4 5/6 7 8 9 10/11 12 13 14 0"


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory):
    cache = tmp_path_factory.mktemp("empty-table-cache")
    # Nothing built ahead of time either (PUZZLE_ENGINE_PREPARE=0): it listens at once.
    with serving(tmp_path_factory.mktemp("e2e-notes-data"), PUZZLE_ENGINE_CACHE=str(cache),
                 PUZZLE_ENGINE_PREPARE="0") as base:
        yield base


def solve_with_limit(page, seconds: int) -> str:
    page.get_by_label("Time limit (s)").fill(str(seconds))
    return solve_here(page)


def test_the_note_shows_where_a_table_would_change_the_answer(page, fresh_server, installed):
    need(installed, "sliding")
    open_editor(page, fresh_server, "sliding", FIVE)
    description = page.locator("#solver-description")
    expect(description).to_be_visible()
    expect(description).to_contain_text("pattern databases")       # what the default solver uses
    expect(description).to_contain_text("puzzle prepare sliding")
    # 6 s: an answer comes within a second on an idle machine, and no 5 x 5 answer is proven
    # shortest in seconds; with 2 s a machine running two other solvers once gave up first
    status = solve_with_limit(page, 6)
    assert status.startswith("Solved"), status                       # not proven shortest
    note = page.locator("#solve-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("What would help:")
    expect(note).to_contain_text("puzzle prepare sliding")
    expect(note).to_contain_text("longer than the shortest")

    # The 24-puzzle preset is proven shortest (24 moves): no table would change it.
    page.get_by_label("Preset").select_option("24-puzzle")
    expect(page.locator("#instance-text")).not_to_have_value(FIVE)
    status = solve_with_limit(page, 10)
    assert "24 moves" in status, status
    expect(note).to_be_hidden()


def test_no_note_under_an_unsolvable_answer(page, fresh_server, installed):
    need(installed, "sliding")
    open_editor(page, fresh_server, "sliding", THIN_UNSOLVABLE)
    solve_with_limit(page, 1)                   # too short to build the 3 x 5 tables
    expect(page.locator("#solve-status")).to_have_attribute("data-kind", "warning")
    expect(page.locator("#solve-note")).to_be_hidden()


def test_the_description_follows_the_chosen_solver(page, fresh_server, installed):
    details = need(installed, "sliding")
    open_editor(page, fresh_server, "sliding", "8-puzzle")
    description = page.locator("#solver-description")
    fast = next(s for s in details["solvers"] if s["name"] == "fast")
    page.get_by_label("Solver").select_option("fast")
    expect(description).to_have_text(fast["description"])
    select = page.get_by_label("Solver")
    assert select.get_attribute("aria-describedby") == "solver-description"
