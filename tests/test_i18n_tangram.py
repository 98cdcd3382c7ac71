"""The tangram plugin in Simplified Chinese (its own domain ``puzzle_tangram``, docs/i18n.md):
under ``use_locale("zh_Hans")`` every text it writes for people holds no English word, while
the machine-facing values (instance text, move notation, ``where``) stay the same; in English
its words are exactly what they were before the catalogue existed."""

from __future__ import annotations

import re

import pytest
from chinese_text import assert_chinese

from engine import SolveContext, Solved, Unsolvable, use_locale
from engine.errors import InputError
from engine.i18n import translate
from plugins.tangram.i18n import CATALOGUE
from plugins.tangram.puzzle import Tangram
from plugins.tangram.render import DefaultRenderer
from plugins.tangram.solver import ExactSolver

PUZZLE = Tangram()
CAT = PUZZLE.presets()["cat"]
#: A 16 x 1 strip: area 16, but its short edges (length 1) are no sum of piece edges.
STRIP = "outer 0,0 16,0 16,1 0,1\n"


def solution(text: str) -> list[str]:
    outcome = ExactSolver().solve(PUZZLE.parse(text), SolveContext.with_timeout(30))
    assert isinstance(outcome, Solved), outcome
    return list(outcome.moves)


def test_every_class_of_the_plugin_reads_its_words_from_the_plugin_catalogue():
    assert PUZZLE.catalogue is CATALOGUE
    assert ExactSolver.catalogue is CATALOGUE and DefaultRenderer.catalogue is CATALOGUE
    assert "zh_Hans" in CATALOGUE.locales()


def test_title_rules_notation_limits_options_and_solver_are_chinese():
    with use_locale("zh_Hans"):
        assert translate(PUZZLE, PUZZLE.title) == "七巧板"  # the glossary's term
        for text in (PUZZLE.rules, PUZZLE.notation, PUZZLE.limits, PUZZLE.solved_sentence,
                     *PUZZLE.random_options.values()):
            assert_chinese(translate(PUZZLE, text))
        assert_chinese(translate(ExactSolver, ExactSolver.description))
        # the rules name the pieces with the glossary's word
        assert "板块" in translate(PUZZLE, PUZZLE.rules)


def test_every_preset_has_a_chinese_name_and_keeps_its_id():
    with use_locale("zh_Hans"):
        labels = {name: PUZZLE.preset_label(name) for name in PUZZLE.presets()}
    for label in labels.values():
        assert_chinese(label)
    assert labels["cat"] == "猫"
    assert len(set(labels.values())) == len(labels), "two presets share a name"
    with use_locale("en"):
        assert all(PUZZLE.preset_label(name) == name for name in PUZZLE.presets())


def test_notes_and_verdicts_of_a_solvable_and_an_unsolvable_figure_are_chinese():
    with use_locale("zh_Hans"):
        cat_notes = PUZZLE.notes(PUZZLE.parse(CAT))
        strip = PUZZLE.parse(STRIP)
        strip_notes = PUZZLE.notes(strip)
        verdict = PUZZLE.assess(PUZZLE.start(strip))
        refusal = ExactSolver().solve(strip, SolveContext.with_timeout(10))
    for note in cat_notes + strip_notes:
        assert_chinese(note)
    assert "11 个顶点" in cat_notes[0]
    assert any("无法拼满" in n for n in strip_notes), strip_notes
    assert verdict.verdict == "cannot"
    assert_chinese(verdict.reason)
    assert_chinese(verdict.detail)
    assert isinstance(refusal, Unsolvable)
    assert_chinese(refusal.reason)
    assert refusal.reason.startswith("不存在拼法：")


def test_the_words_of_a_real_solution_and_the_solved_verdict_are_chinese():
    moves = solution(CAT)
    with use_locale("zh_Hans"):
        state = PUZZLE.start(PUZZLE.parse(CAT))
        words = []
        for move in moves:
            words.append(PUZZLE.describe_move(state, move))
            state = PUZZLE.apply_move(state, move)
        done = PUZZLE.assess(state)
        described = PUZZLE.describe_solution(PUZZLE.parse(CAT), moves)
    assert len(words) == 7
    for text in words:
        assert_chinese(text)
    # each of the seven pieces is named once, by its Chinese name
    names = ["大三角形 1", "大三角形 2", "中三角形", "小三角形 1", "小三角形 2", "正方形", "平行四边形"]
    assert sorted(next(n for n in names if w.startswith(n)) for w in words) == sorted(names)
    assert done.verdict == "solved"
    assert_chinese(done.reason)
    assert [p["piece"] for p in described["pieces"]] == words


def test_errors_for_bad_text_moves_and_edits_are_chinese_with_the_same_where():
    bad_text = "outer 0,0 4,0 4,4 0,x\n"
    with use_locale("zh_Hans"):
        with pytest.raises(InputError) as zh_text:
            PUZZLE.parse(bad_text)
        with pytest.raises(InputError) as zh_area:
            PUZZLE.parse("outer 0,0 3,0 3,1 0,1\n")
        with pytest.raises(InputError) as zh_move:
            PUZZLE.apply_move(PUZZLE.start(PUZZLE.parse(CAT)), "X9 r3 f0 @ 0,0")
        with pytest.raises(InputError) as zh_edit:
            PUZZLE.edit(PUZZLE.parse(CAT), "rotate")
    with use_locale("en"):
        with pytest.raises(InputError) as en_text:
            PUZZLE.parse(bad_text)
    for exc in (zh_text, zh_area, zh_move, zh_edit):
        assert_chinese(exc.value.message)
    # `where` is for programs (and the host says it in words): the same in every language
    assert zh_text.value.where == en_text.value.where == "line 1"
    assert "'x'" in zh_text.value.message  # the text quoted back as typed


def test_edit_tools_and_messages_are_chinese():
    with_draft = PUZZLE.parse("outer 0,0 4,0 4,4 0,4\ndraft M r0 f0 @ -2,-2\n")
    with use_locale("zh_Hans"):
        tools = PUZZLE.edit_tools(with_draft)
        added = PUZZLE.edit(with_draft, "add:Q")
        drawing = PUZZLE.edit(with_draft, "draw")
    labels = [t.label for t in tools] + [label for t in tools for label, _action in t.choices]
    assert len(labels) > 10
    for label in labels:
        # "√2/2" and "45°" are numbers; the keys R and F are single letters
        assert_chinese(label)
    # the actions (for the page and the API) are not translated
    assert ("rotate", "flip") == tuple(t.action for t in tools if t.action in ("rotate", "flip"))
    assert_chinese(added.message)
    assert_chinese(drawing.message)


def test_the_boards_titles_and_spoken_labels_are_chinese():
    renderer = DefaultRenderer()
    moves = solution(CAT)
    cat = PUZZLE.parse(CAT)
    with use_locale("zh_Hans"):
        state = PUZZLE.apply_move(PUZZLE.start(cat), moves[0])
        svgs = [
            renderer.render(PUZZLE.start(cat)),  # the composer
            renderer.render(state, last_move=moves[0], next_move=moves[1]),  # playback
            renderer.render(PUZZLE.start(cat), selection="draw:|0,0 1,0"),  # drawing
            renderer.render(PUZZLE.start(PUZZLE.parse(
                "outer 0,0 4,0 4,4 0,4\ndraft M r0 f0 @ 0,0\ndraft Q r0 f0 @ 0,0\n")), selection="M"),
        ]
    for svg in svgs:
        spoken = re.findall(r"<title>(.*?)</title>", svg) + re.findall(r'aria-label="(.*?)"', svg)
        shown = re.findall(r"<text[^>]*>(.*?)</text>", svg)
        assert spoken, "the board says nothing"
        for text in spoken + shown:
            assert_chinese(text)
    assert "七巧板：已摆好 7 块中的 1 块" in svgs[1]


def test_english_is_what_it_was():
    """The English words are the msgids, unchanged from before the catalogue."""
    moves = solution(CAT)
    with use_locale("en"):
        cat = PUZZLE.parse(CAT)
        assert translate(PUZZLE, PUZZLE.title) == "Tangram"
        assert PUZZLE.notes(cat)[0] == ("Area 16, the total of the seven pieces (the 4 x 4 square's unit); "
                                        "1 component, 0 holes, 11 vertices.")
        state = PUZZLE.start(cat)
        words = []
        for move in moves:
            words.append(PUZZLE.describe_move(state, move))
            state = PUZZLE.apply_move(state, move)
        assert all(re.fullmatch(r"(Large|Medium|Small) triangle( [12])?(, turned \d+ degrees)?(, flipped)?"
                                r"|(Square|Parallelogram)(, turned \d+ degrees)?(, flipped)?", w) for w in words), words
        assert PUZZLE.assess(state).reason == "Solved: the silhouette is covered exactly."
        assert PUZZLE.solved_sentence == "Solved: the figure is covered with the seven pieces."
        refusal = ExactSolver().solve(PUZZLE.parse(STRIP), SolveContext.with_timeout(10))
        assert refusal.reason.startswith("no cover exists: the boundary edge from ")
        with pytest.raises(InputError, match=r"^unknown piece 'X9'; the pieces are L1, L2, M, S1, S2, Q, P$"):
            PUZZLE.apply_move(PUZZLE.start(cat), "X9 r3 f0 @ 0,0")
        svg = DefaultRenderer().render(PUZZLE.start(cat))
        assert "<title>Tangram composer: 0 of 7 pieces placed</title>" in svg
        assert 'aria-label="Large triangle 1, in the tray"' in svg


def test_machine_values_do_not_depend_on_the_language():
    moves = solution(CAT)
    out = {}
    for locale in ("en", "zh_Hans"):
        with use_locale(locale):
            cat = PUZZLE.parse(CAT)
            state = PUZZLE.start(cat)
            out[locale] = (PUZZLE.format(cat), PUZZLE.to_json(cat), list(PUZZLE.legal_moves(state)),
                           [t.action for t in PUZZLE.edit_tools(cat)])
    assert out["en"] == out["zh_Hans"]
    # the English notation is read in every language
    with use_locale("zh_Hans"):
        state = PUZZLE.start(PUZZLE.parse(CAT))
        for move in moves:
            state = PUZZLE.apply_move(state, move)
        assert PUZZLE.is_solved(state)


def test_the_editor_scripts_carry_their_own_words_for_each_language():
    from plugins.tangram.client import SCRIPTS, STATIC, script_messages, words_table

    messages = script_messages([(STATIC / name).read_text(encoding="utf-8") for name in SCRIPTS])
    assert "From a picture…" in messages and "Use as silhouette" in messages
    table = words_table(messages)
    # every message the scripts show has its Chinese words, keyed by the page's language tag
    assert set(table) == {"zh-Hans"}
    assert sorted(table["zh-Hans"]) == messages
    for text in table["zh-Hans"].values():
        assert_chinese(re.sub(r"\{\w+\}", "", text))  # a placeholder is filled in on the page
    assert '"From a picture…": "从图片读取……"' in PUZZLE.client_script
    # the scripts' own text is unchanged after the table: English stays the fallback
    assert PUZZLE.client_script.endswith((STATIC / SCRIPTS[-1]).read_text(encoding="utf-8"))


def test_notes_kept_with_an_instance_are_said_in_the_language_of_whoever_reads_them():
    # The host caches parsed instances by their text alone: a figure parsed for an English
    # reader (a snapped decimal, a scaling) is shown to the next reader, in Chinese.
    text = "outer 0,0 2.8284,0 0,2.8284\nouter 10,0 12,0 12,2 10,2\n"
    with use_locale("en"):
        figure = PUZZLE.parse(text)
        english = PUZZLE.notes(figure)
    with use_locale("zh_Hans"):
        chinese = PUZZLE.notes(figure)
    assert english[1:] == ["2.8284 snapped to 2r2 (moved 2.7e-05)",
                           "area 8 scaled exactly to 16 (coordinates times r2)"]
    assert chinese[1:] == ["2.8284 已对齐到 2r2（移动了 2.7e-05）", "面积 8 已精确缩放为 16（坐标乘以 r2）"]
    # the stored value stays the English text (it compares and serialises as before)
    assert list(figure.messages) == english[1:]


def test_the_svg_reader_says_its_refusals_and_notes_in_chinese():
    from plugins.tangram.svg import silhouette_from_svg, union_rings

    # Drawn pieces that enclose no area: refused in the reader's language.
    flat = [[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)], [(3.0, 0.0), (4.0, 1.0), (5.0, 2.0)]]
    with use_locale("en"), pytest.raises(InputError) as english:
        union_rings(flat)
    with use_locale("zh_Hans"), pytest.raises(InputError) as chinese:
        union_rings(flat)
    assert english.value.message == "the SVG's polygons enclose no area"
    assert_chinese(chinese.value.message, "the empty-area refusal", {"SVG"})
    # The seven pieces of the square preset, drawn as polygons: read as their union, said with
    # the count in the reader's words (a note kept with the instance, said when shown).
    from plugins.tangram.pieces import parse_placement

    pieces = [parse_placement(move).vertices() for move in solution(PUZZLE.presets()["square"])]
    svg = '<svg xmlns="http://www.w3.org/2000/svg">' + "".join(
        '<polygon points="' + " ".join(f"{float(x):.6f},{-float(y):.6f}" for x, y in piece) + '"/>'
        for piece in pieces) + "</svg>"
    figure = silhouette_from_svg(svg)
    note = figure.messages[0]
    assert note == "read as the union of 7 drawn pieces"
    with use_locale("zh_Hans"):
        assert str(note) == "已读成所画 7 块板块的并集"



def _png(width: int, height: int, draw=None) -> bytes:
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), "white")
    if draw:
        draw(ImageDraw.Draw(image))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@pytest.mark.parametrize("case, body, english", [
    ("not a picture", b"this is text, not an image", "this is not a PNG, JPEG, WebP or GIF picture"),
    ("a picture with no figure", _png(64, 64), "no figure stands out from the ground in this picture"),
])
def test_a_picture_that_cannot_be_read_is_refused_in_the_readers_language(tangram_client, case, body, english):
    def ask(language):
        return tangram_client.post("/api/tangram/trace", data=body, content_type="application/octet-stream",
                                   headers={"Accept-Language": language})

    en, zh = ask("en"), ask("zh-CN")
    assert en.status_code == zh.status_code == 400, (en.get_json(), zh.get_json())
    assert english in en.get_json()["error"]
    assert_chinese(zh.get_json()["error"], case)
    assert zh.headers["Content-Language"] == "zh-Hans"


def test_the_words_a_picture_reading_gives_back_are_in_the_readers_language(tangram_client):
    # A black square on white: read as the square figure; its note says how, in Chinese.
    body = _png(120, 120, lambda d: d.rectangle([20, 20, 99, 99], fill="black"))

    def ask(language):
        answer = tangram_client.post("/api/tangram/trace", data=body, content_type="image/png",
                                     headers={"Accept-Language": language})
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    en, zh = ask("en"), ask("zh-CN")
    assert en["instance"] == zh["instance"]  # the figure text is the same in every language
    assert en["notes"] and len(zh["notes"]) == len(en["notes"])
    assert en["notes"][0].startswith("read from a 120 x 120 PNG picture as an exact figure")
    for note in zh["notes"]:
        assert_chinese(note, "a note of the reading")
    assert zh["notes"][0].startswith("已从一张 120×120 的 PNG 图片中读出精确图形")
