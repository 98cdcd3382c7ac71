"""Where an input error is, in the reader's language: ``InputError.where_text`` (docs/plugins.md).

``where`` is a machine field ("row 3, column 3", "line 1", "move 2 (9)") and stays the same
English words in every language; ``where_text`` is the same place said to people, written by
the plugin (or the engine) with its own catalogue. The API gives it next to ``where`` when it
says more than ``where`` does, so English answers are what they always were.

Each case below names the place independently of the code: the row and column of the bad cell
as a person counts them in the text that was sent.
"""

from __future__ import annotations

import json
import re

import pytest

from engine import InputError
from engine.plugins import get_registry
from web import create_app

ZH = {"Accept-Language": "zh-CN"}
EN = {"Accept-Language": "en"}
CJK = re.compile(r"[\u3400-\u9fff]")

# (puzzle, instance text, where, where_text in Chinese): the bad cell or line, counted by hand.
CASES = [
    # the second 8 is the last cell of the third row
    ("sliding", "1 2 3/4 5 6/7 8 8", "row 3, column 3", "第 3 行第 3 列"),
    # 'x' is the second number of the second row
    ("sliding", "1 2 3/4 x 6/7 8 0", "row 2, column 2", "第 2 行第 2 列"),
    # the second row of the goal holds two numbers where the first holds three
    ("sliding", "1 2 3/4 5 6/7 8 0 ; goal: 1 2 3/4 5/6 7 8 0", "goal row 2", "目标第 2 行"),
    ("sliding", "1 2 3/4 5 6/7 8 0 ; goal: 1 2/3 0", "goal", "目标"),
    # 'x' is the middle of the second row of the drawing
    ("pegs", "board: ooo/oxo", "board row 2, column 2", "棋盘第 2 行第 2 列"),
    ("pegs", "board: ooo/oo", "board row 2", "棋盘第 2 行"),
    # the goal has no hole in the middle of its second row, where the board has one
    ("pegs", "board: ooo/o.o; goal: ooo/._.", "goal row 2, column 2", "目标图案第 2 行第 2 列"),
    # the bad point is on the first line
    ("tangram", "outer 0,0 4,0 4,4 0,x", "line 1", "第 1 行"),
    ("tangram", "# a figure\nouter 0,0 4,0 4,4\nbogus 1,1", "line 3", "第 3 行"),
]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    registry = get_registry()
    missing = {"sliding", "pegs", "tangram"} - set(registry.puzzles)
    if missing:
        pytest.skip(f"the built-in plugins {sorted(missing)} are not installed (scripts/setup.sh)")
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path_factory.mktemp("data")), "TESTING": True})
    yield app.test_client()
    app.extensions["puzzle_jobs"].close()


@pytest.mark.parametrize("puzzle, text, where, chinese_place", CASES)
def test_an_error_keeps_its_where_and_says_the_place_in_chinese(client, puzzle, text, where, chinese_place):
    english = client.post(f"/api/{puzzle}/validate", json={"instance": text}, headers=EN)
    zh = client.post(f"/api/{puzzle}/validate", json={"instance": text}, headers=ZH)
    assert english.status_code == zh.status_code == 400
    en_body, zh_body = english.get_json(), zh.get_json()
    assert en_body["where"] == zh_body["where"] == where  # the machine field never changes
    assert zh_body["where_text"] == chinese_place
    assert CJK.search(zh_body["error"]), zh_body  # the message is Chinese too
    # English answers are as they were: where_text would only repeat where
    assert "where_text" not in en_body and not CJK.search(en_body["error"])


def test_a_bad_move_is_placed_by_the_engine_in_the_readers_language(client):
    query = {"instance": "1 2 3/4 5 6/7 8 0", "moves": "8,9"}  # there is no tile 9 on a 3 x 3 board
    english = client.get("/api/sliding/render.svg", query_string=query, headers=EN).get_json()
    zh = client.get("/api/sliding/render.svg", query_string=query, headers=ZH).get_json()
    assert english["where"] == zh["where"] == "move 2 (9)"
    assert zh["where_text"] == "第 2 步（9）" and "where_text" not in english


def test_the_editor_page_shows_the_place_of_an_error_in_the_link_in_chinese(client):
    page = client.get("/sliding", query_string={"instance": "1 2 3/4 5 6/7 8 8"}, headers=ZH)
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    data = json.loads(re.search(r'<script id="page-data" type="application/json">(.*?)</script>', body, re.S).group(1))
    # The page's JSON carries both: the script shows where_text (jobs.js, errorText).
    assert data["error"]["where"] == "row 3, column 3"
    assert data["error"]["where_text"] == "第 3 行第 3 列"


def test_an_error_page_says_the_place_in_the_readers_language(client):
    # The HTML answer (error.html) of an InputError with a place, on a page path.
    from web.errors import error_response

    app = client.application
    cases = ((ZH, "坏", "第 3 行第 3 列", "第 3 行第 3 列：坏", "row 3, column 3"),
             (EN, "bad", None, "row 3, column 3: bad", "第 3 行"))
    for headers, message, where_text, said, unsaid in cases:
        with app.test_request_context("/sliding", headers=headers):
            app.preprocess_request()  # chooses the request's locale
            text = error_response(message, 400, "row 3, column 3", where_text=where_text).get_data(as_text=True)
        assert said in text and unsaid not in text


def test_where_text_is_in_the_json_only_when_it_says_more_than_where():
    assert InputError("bad", where="row 1").to_json() == {"error": "bad", "where": "row 1"}
    assert InputError("bad", where="row 1", where_text="row 1").to_json() == {"error": "bad", "where": "row 1"}
    said = InputError("坏", where="row 1", where_text="第 1 行")
    assert said.to_json() == {"error": "坏", "where": "row 1", "where_text": "第 1 行"}
    # people read str(): the place in their words
    assert str(said) == "第 1 行: 坏" and said.place == "第 1 行"
    assert str(InputError("bad", where="row 1")) == "row 1: bad"
