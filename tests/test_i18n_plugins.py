"""A plugin's own translations (docs/plugins.md, section 13): Lights Out ships a Simplified
Chinese catalogue in its own gettext domain, found through ``Puzzle.catalogue``; a toy plugin
with an incomplete catalogue falls back to English for what it lacks, never to an error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from pairs_toy import Pairs as PairsPuzzle

from engine import Catalogue, InputError, use_locale
from engine.i18n import translate
from engine.plugins import get_registry
from web import create_app

ZH = {"Accept-Language": "zh-CN"}
CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    registry = get_registry()
    if "lights_out" not in registry.puzzles:
        pytest.skip("the example plugin is not installed (scripts/setup.sh installs it)")
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path_factory.mktemp("data")), "TESTING": True})
    yield app.test_client()
    app.extensions["puzzle_jobs"].close()


def test_lights_out_shows_its_title_rules_and_presets_in_chinese(client):
    gallery = client.get("/", headers=ZH).get_data(as_text=True)
    assert "关灯游戏" in gallery and "把所有的灯都关掉" in gallery
    english = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "关灯游戏" not in english and "Lights Out" in english
    editor = client.get("/lights_out", headers=ZH).get_data(as_text=True)
    assert "<h1 id=\"puzzle-title\">关灯游戏</h1>" in editor
    assert '<option value="all-on">全亮</option>' in editor  # the id stays, the name is Chinese
    assert "按下的格子" in editor  # notation
    assert "玩：点击即按下一盏灯" in editor  # edit mode label


def test_lights_out_notes_moves_and_verdicts_follow_the_request(client):
    board = "11111/11111/11111/11111/11111"  # 5 x 5 has unsolvable patterns: every note is said
    zh = client.post("/api/lights_out/validate", json={"instance": board}, headers=ZH).get_json()
    en = client.post("/api/lights_out/validate", json={"instance": board}).get_json()
    assert zh["instance"] == en["instance"]  # machine values are the same
    assert any("这一局可以解开" in n for n in zh["notes"]), zh["notes"]
    assert any("有 4 种不同的按法组合" in n for n in zh["notes"]), zh["notes"]
    assert any("This board can be solved." in n for n in en["notes"])
    assert zh["assessment"]["verdict"] == en["assessment"]["verdict"] == "can"
    assert "能：最少按" in zh["assessment"]["reason"]
    assert [t["label"] for t in zh["tools"]] == ["全部熄灭", "调整大小"]
    moves = client.post("/api/lights_out/describe", json={"instance": "101/010/101", "moves": ["a1", "c3"]},
                        headers=ZH).get_json()["moves"]
    assert [m["words"] for m in moves] == ["按 a1", "按 c3"]
    refused = client.post("/api/lights_out/validate", json={"instance": "10x/010/101"}, headers=ZH).get_json()
    assert "无法识别的字符 'x'" in refused["error"] and refused["where"] == "row 1, column 3"


def test_a_puzzle_without_a_catalogue_stays_english():
    puzzle = PairsPuzzle()
    assert puzzle.catalogue is None
    with use_locale("zh_Hans"):
        assert translate(puzzle, puzzle.title) == puzzle.title


def _toy_catalogue(folder: Path, messages: dict[str, str]) -> Catalogue:
    catalog = Catalog(locale="zh_Hans", domain="toy_plugin")
    for msgid, text in messages.items():
        catalog.add(msgid, text)
    target = folder / "zh_Hans" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "toy_plugin.mo").open("wb") as f:
        write_mo(f, catalog)
    return Catalogue("toy_plugin", folder)


def test_an_incomplete_catalogue_falls_back_to_english(tmp_path):
    catalogue = _toy_catalogue(tmp_path / "locale", {"Pairs <&> test": "成对"})

    class TranslatedPairs(PairsPuzzle):
        pass

    TranslatedPairs.catalogue = catalogue
    puzzle = TranslatedPairs()
    with use_locale("zh_Hans"):
        assert translate(puzzle, puzzle.title) == "成对"
        assert translate(puzzle, puzzle.rules) == puzzle.rules  # not in the catalogue: English
        assert catalogue.ngettext("{n} pair", "{n} pairs", 3) == "{n} pairs"
    with use_locale("en"):
        assert translate(puzzle, puzzle.title) == puzzle.title
    assert catalogue.locales() == ("en", "zh_Hans")


def test_a_missing_or_broken_catalogue_is_english_not_an_error(tmp_path):
    missing = Catalogue("nothing_here", tmp_path / "no-such-folder")
    broken_dir = tmp_path / "broken" / "zh_Hans" / "LC_MESSAGES"
    broken_dir.mkdir(parents=True)
    (broken_dir / "broken.mo").write_bytes(b"this is not a catalogue")
    broken = Catalogue("broken", tmp_path / "broken")
    with use_locale("zh_Hans"):
        assert missing.gettext("Solved") == "Solved"
        assert broken.gettext("Solved") == "Solved"
    assert missing.locales() == ("en",)


def test_format_number_follows_the_current_locale(monkeypatch):
    from engine import format_number, i18n, use_locale

    assert format_number(12000) == "12,000"
    assert format_number(0.14321, 2) == "0.14"
    with use_locale("zh_Hans"):
        # CLDR: Chinese groups by thousands with a comma too; the point is a full stop.
        assert format_number(1234567.5) == "1,234,567.5"
    with use_locale("fr"):  # not a host locale: English
        assert format_number(1234.5) == "1,234.5"
    # Both host locales write numbers alike, so a locale that does not shows the number is
    # really written by the current locale's rules (German: 1.234,5).
    monkeypatch.setitem(i18n.LOCALES, "de", "Deutsch")
    with use_locale("de"):
        assert format_number(1234.5) == "1.234,5"
        assert format_number(0.14321, 2) == "0,14"


def test_the_board_speaks_the_readers_language_and_the_step_cache_keeps_languages_apart(client):
    path = "/api/lights_out/render.svg?instance=101/010/101&moves=a1&step=1"
    zh = client.get(path, headers=ZH)
    en = client.get(path, headers={"Accept-Language": "en"})  # the same step, asked again
    assert 'aria-label="灯 a1，熄灭"' in zh.get_data(as_text=True)
    assert 'aria-label="light a1, off"' in en.get_data(as_text=True)
    assert "灯" not in en.get_data(as_text=True)
    assert "Accept-Language" in zh.headers["Vary"] and zh.headers["Content-Language"] == "zh-Hans"
    editor = client.get("/lights_out", headers=ZH).get_data(as_text=True)
    assert '<label for="opt-size">大小</label>' in editor  # the Random option's label
    english = client.get("/lights_out", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<label for="opt-size">Size</label>' in english


def test_an_error_keeps_its_where_and_adds_the_place_in_words_outside_english(client):
    zh = client.post("/api/lights_out/validate", json={"instance": "10x/010/101"}, headers=ZH).get_json()
    en = client.post("/api/lights_out/validate", json={"instance": "10x/010/101"}).get_json()
    assert zh["where"] == en["where"] == "row 1, column 3"
    assert zh["where_text"] == "第 1 行第 3 列"
    assert "where_text" not in en
    limit = client.post("/api/sliding/jobs", json={"instance": "1 2 3/4 5 6/7 0 8", "time_limit": "x"},
                        headers=ZH).get_json()
    assert limit["where"] == "time_limit" and limit["where_text"] == "时间上限"


def test_the_embed_player_is_written_in_the_readers_language(client):
    path = "/embed/lights_out?instance=101/010/101&moves=a1,c3"
    zh = client.get(path, headers=ZH).get_data(as_text=True)
    en = client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="zh-Hans"' in zh and "<title>关灯游戏：2 步</title>" in zh
    assert 'aria-label="下一步"' in zh and "在编辑器中打开" in zh and "初始局面：还需 2 步。" in zh
    assert '<html lang="en"' in en and "<title>Lights Out: 2 moves</title>" in en
    assert "Start position: 2 moves to go." in en and "Open in the editor" in en
    # A language chosen with ?lang= is carried on by the step links.
    chosen = client.get(path + "&lang=zh-Hans").get_data(as_text=True)
    assert "step=1&amp;lang=zh-Hans" in chosen


def test_a_plugins_client_script_comes_with_its_own_words_in_the_readers_language(tmp_path):
    from pairs_toy import Bits, Sweep

    from engine import hookimpl
    from engine.plugins import Registry

    class Scripted(PairsPuzzle):
        client_script = 'button.textContent = PuzzleI18n.t("Flip them all");'

    Scripted.catalogue = _toy_catalogue(tmp_path / "locale", {"Flip them all": "全部翻转", "Unused": "没用到"})

    class Plugin:
        @hookimpl
        def register_puzzles(self, register):
            register(Scripted())

        @hookimpl
        def register_solvers(self, register):
            register(Sweep())

        @hookimpl
        def register_renderers(self, register):
            register(Bits())

    registry = Registry()
    registry.add_plugin("scripted", Plugin(), version="1.0")
    registry.collect()
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path / "data"), "TESTING": True})
    try:
        client = app.test_client()
        editor = client.get("/pairs", headers=ZH).get_data(as_text=True)
        assert '<script src="/-/client/pairs.js?lang=zh-Hans"></script>' in editor
        script = client.get("/-/client/pairs.js?lang=zh-Hans")
        text = script.get_data(as_text=True)
        # Only the messages the script uses, then the script as the plugin wrote it.
        assert text == ('window.PuzzleI18n && window.PuzzleI18n.add({"Flip them all": "全部翻转"});\n'
                        + Scripted.client_script)
        assert "Accept-Language" in script.headers["Vary"]
        assert client.get("/-/client/pairs.js").get_data(as_text=True) == Scripted.client_script
        assert '<script src="/-/client/pairs.js"></script>' in client.get("/pairs").get_data(as_text=True)
        # English chosen in the address, in a Chinese browser: the script is asked for in English.
        chosen = client.get("/pairs?lang=en", headers=ZH).get_data(as_text=True)
        assert '<script src="/-/client/pairs.js?lang=en"></script>' in chosen
        assert client.get("/-/client/pairs.js?lang=en", headers=ZH).get_data(as_text=True) == Scripted.client_script
    finally:
        app.extensions["puzzle_jobs"].close()


def test_a_jobs_stored_message_is_worded_for_each_reader(client):
    from engine import use_locale
    from web.api import job_message_words

    killed = "the solver overran its 1.5 s time limit and did not stop, so its worker process was killed"
    # A request in Chinese: Flask-Babel's locale (the request's) and the engine's (set per request).
    with client.application.test_request_context(headers=ZH), use_locale("zh_Hans"):
        assert job_message_words(killed) == "求解器超过了 1.5 秒的时间上限仍未停止，所以被强行终止了"
        assert job_message_words("cancelled before it started") == "在开始之前就被取消了"
        assert job_message_words("the plugin's own words") == "the plugin's own words"


# -- Lights Out's input errors, in the reader's language ----------------------------------------

#: Words of the plugin's notation that a Chinese message quotes as they are typed.
LIGHTS_NOTATION = frozenset({"cell", "clear", "random", "SEED", "resize", "RxC", "size", "play", "toggle",
                             "rows"})


def _lights_out_refusals():
    """Each way Lights Out refuses input, as (what, call): parse, from_json, random, edit."""
    from puzzle_lights_out.board import MAX_SIDE
    from puzzle_lights_out.puzzle import LightsOut

    p = LightsOut()
    board = p.parse("101/010/101")
    return [
        ("uneven rows", lambda: p.parse("101/01")),
        ("too many rows", lambda: p.parse("/".join(["1"] * (MAX_SIDE + 1)))),
        ("too long a row", lambda: p.parse("1" * (MAX_SIDE + 1))),
        ("an empty row", lambda: p.parse("101//101")),
        ("an unknown character", lambda: p.parse("10x")),
        ("rows not strings", lambda: p.from_json({"rows": [1, 2]})),
        ("a row with a slash", lambda: p.from_json({"rows": ["1/0"]})),
        ("not a board object", lambda: p.from_json([])),
        ("options not a mapping", lambda: p.random(1, ["size"])),
        ("an unknown option (echoed: no English word)", lambda: p.random(1, {"zz": "1"})),
        ("a size out of range", lambda: p.random(1, {"size": "11x2"})),
        ("an action not text", lambda: p.edit(board, 5)),
        ("an unknown mode", lambda: p.edit(board, "cell:a1", mode="qq")),
        ("an unknown action", lambda: p.edit(board, "zz")),
        ("a bad seed", lambda: p.edit(board, "random:x")),
        ("a cell off the board", lambda: p.edit(board, "cell:e9")),
    ]


def test_every_input_error_of_lights_out_is_said_in_the_readers_language():
    from chinese_text import assert_chinese

    pytest.importorskip("puzzle_lights_out")
    for what, call in _lights_out_refusals():
        said = {}
        for locale in ("en", "zh_Hans"):
            with use_locale(locale), pytest.raises(InputError) as caught:
                call()
            said[locale] = caught.value
        english, chinese = said["en"], said["zh_Hans"]
        assert not CJK.search(english.message), (what, english.message)
        assert_chinese(chinese.message, what, LIGHTS_NOTATION)
        assert chinese.where == english.where, what  # the machine field is the same words
        if english.where:  # the place, said to people
            assert_chinese(chinese.where_text, f"the place of {what}")


def test_the_uneven_rows_error_names_the_row_and_counts_its_lights_in_either_language():
    pytest.importorskip("puzzle_lights_out")
    from puzzle_lights_out.puzzle import LightsOut

    for locale, message, place in (
            ("en", "the row has 2 lights but row 1 has 3; all rows must be the same length", "row 2"),
            ("zh_Hans", "这一行有 2 盏灯，而第 1 行有 3 盏；每一行的长度必须相同", "第 2 行")):
        with use_locale(locale), pytest.raises(InputError) as caught:
            LightsOut().parse("101/01/111")
        assert caught.value.message == message and caught.value.where == "row 2"
        assert caught.value.place == place
    with use_locale("en"), pytest.raises(InputError) as one:
        LightsOut().parse("101/1/111")
    assert one.value.message.startswith("the row has 1 light but")  # the singular, from ngettext


def test_lights_out_writes_sizes_the_chinese_way():
    pytest.importorskip("puzzle_lights_out")
    from puzzle_lights_out.puzzle import LightsOut

    p = LightsOut()
    board = p.parse("1000/0100/0010/0001")
    with use_locale("zh_Hans"):
        notes = p.notes(board)
        resize = next(t for t in p.edit_tools(board) if t.choices)
    assert any(note.startswith("在 4×4 的棋盘上") for note in notes), notes
    assert ("4×6", "resize:4x6") in resize.choices
    with use_locale("en"):
        assert any("On a 4 x 4 board" in note for note in p.notes(board))
        assert ("4 x 6", "resize:4x6") in next(t for t in p.edit_tools(board) if t.choices).choices
