"""Caches that keep words keep them per language: a board rendered for a Chinese reader (its
``<title>``, its parts' spoken names) is never given to an English one, nor the other way round.

Each test asks in one language, then the other, then the first again: the second answer must
be in its own language (a cache keyed without the locale would hand back the first), and the
third must still be right.
"""

from __future__ import annotations

import re

import pytest

from engine import use_locale
from engine.plugins import get_registry
from web import create_app

ZH = {"Accept-Language": "zh-CN"}
EN = {"Accept-Language": "en"}
CJK = re.compile(r"[\u3400-\u9fff]")
BOARD = {"instance": "1 2 3/4 5 6/7 0 8", "moves": "8"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    registry = get_registry()
    if "sliding" not in registry.puzzles:
        pytest.skip("the sliding plugin is not installed (scripts/setup.sh)")
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path_factory.mktemp("data")), "TESTING": True})
    yield app.test_client()
    app.extensions["puzzle_jobs"].close()


def title(svg: str) -> str:
    return re.search(r"<title>(.*?)</title>", svg, re.S).group(1)


@pytest.mark.parametrize("step", ["0", "1"])
def test_a_cached_board_comes_back_in_the_language_it_is_asked_in(client, step):
    query = {**BOARD, "step": step}
    answers = [client.get("/api/sliding/render.svg", query_string=query, headers=headers)
               for headers in (ZH, EN, ZH, EN)]
    assert all(a.status_code == 200 for a in answers)
    zh, en, zh_again, en_again = (a.get_data(as_text=True) for a in answers)
    assert CJK.search(title(zh)) and "数字华容道" in title(zh), title(zh)
    assert not CJK.search(en) and "sliding-tile board" in title(en), title(en)
    # the parts' spoken names too, not only the title
    assert re.search(r'aria-label="[^"]*[\u3400-\u9fff]', zh) and not CJK.search(en)
    assert zh_again == zh and en_again == en  # and each language is then served from the cache
    # and shared HTTP caches are told the board follows the language
    assert "Accept-Language" in answers[0].headers.get("Vary", "")
    assert answers[0].headers["Content-Language"] == "zh-Hans"


def test_the_board_cache_still_hits_within_one_language(client):
    steps = client.application.extensions["puzzle_boards"]._step
    query = {**BOARD, "step": "0", "renderer": ""}
    client.get("/api/sliding/render.svg", query_string=query, headers=ZH)
    hits = steps.cache_info().hits
    client.get("/api/sliding/render.svg", query_string=query, headers=ZH)
    assert steps.cache_info().hits == hits + 1


def test_a_cached_picture_is_drawn_for_each_language(client):
    first = client.get("/api/sliding/render.png", query_string={**BOARD, "size": "120"}, headers=ZH)
    assert first.status_code == 200, first.get_data(as_text=True)
    pngs = client.application.extensions["puzzle_raster"]["png"]
    entries = pngs.cache_info().entries
    client.get("/api/sliding/render.png", query_string={**BOARD, "size": "120"}, headers=EN)
    assert pngs.cache_info().entries == entries + 1  # drawn again, from the English board
    hits = pngs.cache_info().hits
    client.get("/api/sliding/render.png", query_string={**BOARD, "size": "120"}, headers=ZH)
    assert pngs.cache_info().hits == hits + 1
    assert "Accept-Language" in first.headers.get("Vary", "")


def test_the_pegs_count_refusal_is_worded_for_each_reader():
    from plugins.pegs.parse import parse_instance
    from plugins.pegs.presets import PRESETS
    from plugins.pegs.tasks import count_refusal

    board = parse_instance(PRESETS["square-6"])  # too large to count on the server
    said = []
    for locale in ("zh_Hans", "en", "zh_Hans"):
        with use_locale(locale):
            said.append(count_refusal(board))
    zh, en, zh_again = said
    assert zh and CJK.search(zh) and "内存" in zh
    assert en and not CJK.search(en) and "memory" in en
    assert zh_again == zh
