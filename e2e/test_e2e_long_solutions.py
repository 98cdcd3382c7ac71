"""Long solutions in the browser: a move list far longer than the move buttons shown at once,
and a solution played back by job id (the step URLs do not carry the moves).
"""

from __future__ import annotations

import re
import time
import urllib.parse
import urllib.request

import pytest
from e2e_helpers import api
from playwright.sync_api import expect


def test_a_long_move_list_shows_a_window_and_steps_quickly(page, server, installed):
    if "sliding" not in installed:
        pytest.skip("the sliding plugin is not installed")
    # 2,500 slides of one tile back and forth on the 8-puzzle: the last state is the start.
    instance = api(server, "/api/sliding/validate", {"instance": "1 2 3/4 0 5/6 7 8"})["instance"]
    moves = ["2"] * 2500
    query = urllib.parse.urlencode({"instance": instance, "moves": ",".join(moves)})
    page.goto(f"{server}/sliding?{query}#step=2500")
    expect(page.locator("#playback-board")).to_have_attribute("data-step", "2500")
    # Not 2,500 buttons: the part of the list around the current step, numbered as in the list.
    assert page.locator("#move-list li").count() == 500
    current = page.locator('#move-list button[aria-current="step"]')
    # (the words, when the puzzle gives them, come with the notation in brackets)
    expect(current).to_have_attribute("aria-label", re.compile(r"^Move 2,?500: (2|.+ \(2\))$"))
    started = time.monotonic()
    page.get_by_role("button", name="First step", exact=True).click()
    expect(page.locator("#playback-board")).to_have_attribute("data-step", "0")
    page.get_by_role("button", name="Next step", exact=True).click()
    expect(page.locator("#playback-board")).to_have_attribute("data-step", "1")
    expect(current).to_have_attribute("aria-label", re.compile(r"^Move 1: (2|.+ \(2\))$"))
    assert time.monotonic() - started < 5


def test_a_solved_job_plays_back_by_job_id(page, server, installed):
    if "sliding" not in installed:
        pytest.skip("the sliding plugin is not installed")
    page.goto(f"{server}/sliding?preset=8-puzzle")
    step_urls = []
    page.on("request", lambda r: step_urls.append(r.url) if "render.svg" in r.url else None)
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.locator("#playback-board")).to_be_visible(timeout=30_000)
    page.get_by_role("button", name="Last step", exact=True).click()
    expect(page.locator("#playback-board")).to_have_attribute("data-solved", "true")
    assert step_urls and all("/api/jobs/" in url and "moves=" not in url for url in step_urls)
