"""The reader's language in the web app: which locale each request gets (``?lang=``, then
Accept-Language, then English), the headers and ``<html lang>`` that say so, links that keep
the choice, the picker, and the scripts' JSON catalogue (docs/i18n.md).

Runs against the toy app (tests/pairs_toy.py): the host's own words are what is checked here.
"""

from __future__ import annotations

import re

import pytest

from web.i18n import TRADITIONAL, locale_for_tag

ZH_BRAND = "谜题引擎"  # "Puzzle engine" in the Simplified Chinese catalogue
EN_BRAND = "Puzzle engine"


def html_lang(body: str) -> str:
    return re.search(r'<html lang="([^"]+)"', body).group(1)


@pytest.mark.parametrize("tag, locale", [
    ("zh", "zh_Hans"), ("zh-CN", "zh_Hans"), ("zh-cn", "zh_Hans"), ("zh_CN", "zh_Hans"),
    ("zh-SG", "zh_Hans"), ("zh-Hans", "zh_Hans"), ("zh-Hans-CN", "zh_Hans"), ("zh_Hans_SG", "zh_Hans"),
    ("zh-TW", TRADITIONAL), ("zh-HK", TRADITIONAL), ("zh-Hant", TRADITIONAL), ("zh-Hant-TW", TRADITIONAL),
    ("en", "en"), ("en-GB", "en"), ("fr", None), ("", None), ("*", None),
])
def test_language_tags_map_to_the_host_locales(tag, locale):
    assert locale_for_tag(tag) == locale


# Each Simplified tag must reach the zh_Hans catalogue: Babel parses zh_CN as zh_Hans_CN, and
# gettext would look in zh_Hans_CN/ and zh/, never zh_Hans/, so a request for the tag as Babel
# spells it would silently show English. The page's own words prove which catalogue was read.
@pytest.mark.parametrize("header", ["zh", "zh-CN", "zh-SG", "zh-Hans", "zh-Hans-CN", "zh_CN",
                                    "fr, zh-CN;q=0.8", "zh-TW, zh-CN;q=0.8, en;q=0.5"])
def test_simplified_chinese_headers_get_the_chinese_pages(client, header):
    response = client.get("/", headers={"Accept-Language": header})
    body = response.get_data(as_text=True)
    assert ZH_BRAND in body and EN_BRAND not in body
    assert html_lang(body) == "zh-Hans"
    assert response.headers["Content-Language"] == "zh-Hans"


@pytest.mark.parametrize("header", ["zh-TW", "zh-Hant", "zh-HK", "zh-TW,zh;q=0.9,en-US;q=0.8",
                                    "fr", "", "de, *;q=0.1"])
def test_traditional_chinese_and_other_languages_get_english(client, header):
    response = client.get("/", headers={"Accept-Language": header} if header else {})
    body = response.get_data(as_text=True)
    assert EN_BRAND in body and ZH_BRAND not in body
    assert html_lang(body) == "en"
    assert response.headers["Content-Language"] == "en"


def test_lang_in_the_query_wins_over_the_header_and_links_carry_it(client):
    body = client.get("/?lang=zh-Hans", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert ZH_BRAND in body and html_lang(body) == "zh-Hans"
    assert '<a class="brand" href="/?lang=zh-Hans">' in body
    assert 'href="/-/plugins?lang=zh-Hans"' in body
    assert 'href="/pairs?lang=zh-Hans"' in body  # the gallery's card
    body = client.get("/?lang=en", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert EN_BRAND in body and html_lang(body) == "en"
    assert 'href="/pairs?lang=en"' in body


def test_without_lang_in_the_query_links_stay_plain(client):
    body = client.get("/", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    links = re.findall(r'href="([^"]*)"', body.split('class="languages"')[1].split("</nav>")[1])
    assert "/pairs" in links and not [h for h in links if "lang=" in h]


@pytest.mark.parametrize("value", ["xx", "zh-TW", "", "../../etc"])
def test_a_lang_the_host_lacks_is_not_an_error(client, value):
    response = client.get("/?lang=" + value, headers={"Accept-Language": "zh-CN"})
    assert response.status_code == 200
    # zh-TW asks for English explicitly; the others are ignored (the header decides).
    expected = "en" if value == "zh-TW" else "zh-Hans"
    assert html_lang(response.get_data(as_text=True)) == expected


def test_the_picker_names_each_language_in_its_own_script_and_keeps_the_query(client):
    body = client.get("/pairs?preset=wide&lang=en").get_data(as_text=True)
    picker = body.split('class="languages"')[1].split("</nav>")[0]
    assert '>English</span>' in picker and '>简体中文</a>' in picker  # the one shown is no link
    assert 'href="/pairs?preset=wide&amp;lang=zh-Hans" lang="zh-Hans"' in picker
    assert '<span lang="en" data-lang="en" aria-current="true">English</span>' in picker


@pytest.mark.parametrize("path", ["/", "/pairs", "/-/plugins", "/api/puzzles", "/api/nothing-here", "/no-such-page"])
def test_answers_vary_on_the_language(client, path):
    response = client.get(path, headers={"Accept-Language": "zh-CN"})
    assert "Accept-Language" in response.headers.get("Vary", "")
    assert response.headers["Content-Language"] == "zh-Hans"


def test_every_page_is_chinese_with_a_chinese_header(client):
    for path in ("/", "/pairs", "/-/plugins"):
        body = client.get(path, headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
        assert ZH_BRAND in body, path
    editor = client.get("/pairs", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    for words in ("求解", "撤销", "题目文本", "随机种子", "记法与规模限制"):
        assert words in editor
    missing = client.get("/no-such-page", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "找不到页面" in missing and "返回谜题列表" in missing


def test_the_plugins_page_words_what_each_plugin_registered_and_quotes_the_ids(client):
    # The toy plugin (tests/pairs_toy.py) registers the puzzle "pairs", solvers ("sweep", ...)
    # and a renderer: each kind is a word of the reader's language, each id is quoted as it is.
    zh = client.get("/-/plugins", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    en = client.get("/-/plugins", headers={"Accept-Language": "en"}).get_data(as_text=True)
    quoted = re.compile(r"<span>(\w+) <span data-untranslated>([\w/.-]+)</span></span>")
    zh_rows, en_rows = quoted.findall(zh), quoted.findall(en)
    assert ("pairs", "pairs") not in en_rows and ("puzzle", "pairs") in en_rows
    assert ("谜题", "pairs") in zh_rows
    assert any(kind == "求解器" and name.startswith("pairs/") for kind, name in zh_rows)
    assert [name for _, name in zh_rows] == [name for _, name in en_rows]  # the same ids in the same order
    assert {kind for kind, _ in zh_rows} <= {"谜题", "求解器", "渲染器", "任务"}
    assert ("渲染器", "pairs/default") in zh_rows and ("renderer", "pairs/default") in en_rows
    # the plugin's own name is a machine name too
    assert '<th scope="row"><span data-untranslated>pairs-plugin</span>' in zh


# -- the scripts' catalogue ----------------------------------------------------------------

def test_the_chinese_script_catalogue_has_whole_sentences_and_cldr_plurals(client):
    body = client.get("/-/i18n/zh-Hans.json").get_json()
    assert body["locale"] == "zh-Hans"
    messages = body["messages"]
    assert messages["Solved! Well played."] == "解开了！干得漂亮。"
    # Chinese has one plural category (CLDR "other"); the count is a named placeholder.
    assert messages["Solved: {count} move."] == {"other": "已解开：共 {count} 步。"}
    assert all("{count}" in form for v in messages.values() if isinstance(v, dict) for form in v.values())


def test_the_english_catalogue_is_empty_and_an_unknown_one_is_a_404(client):
    assert client.get("/-/i18n/en.json").get_json() == {"locale": "en", "messages": {}}
    response = client.get("/-/i18n/fr.json")
    assert response.status_code == 404 and "zh-Hans" in response.get_json()["error"]


def test_the_editor_loads_the_bundle_of_its_language(client):
    zh = client.get("/pairs", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    en = client.get("/pairs", headers={"Accept-Language": "en"}).get_data(as_text=True)
    zh_src = re.search(r'src="(/-/scripts/editor\.js[^"]+)"', zh).group(1).replace("&amp;", "&")
    en_src = re.search(r'src="(/-/scripts/editor\.js[^"]+)"', en).group(1).replace("&amp;", "&")
    assert "lang=zh-Hans" in zh_src and "lang=en" in en_src and zh_src != en_src
    zh_script = client.get(zh_src).get_data(as_text=True)
    assert zh_script.startswith("window.PuzzleCatalogue = {") and "干得漂亮" in zh_script
    assert "干得漂亮" not in client.get(en_src).get_data(as_text=True)
    # The bundle's language is its URL's, never the header's (one URL, one cached script).
    again = client.get(en_src, headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "干得漂亮" not in again


# -- the API's errors in the request's language ----------------------------------------------

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("method, path, body, status, chinese", [
    ("POST", "/api/pairs/jobs", {"instance": "0110", "time_limit": "soon"}, 400, "时间上限（秒）必须是用数字 0-9"),
    ("POST", "/api/pairs/jobs", {"instance": "0110", "time_limit": -3}, 400, "大于 0 的秒数"),
    ("POST", "/api/pairs/jobs", {"instance": "0110", "time_limit": 1000}, 400, "时间上限最多"),
    ("POST", "/api/pairs/jobs", {"instance": "0110", "solver": "nosuch"}, 400, "没有求解器"),
    ("POST", "/api/pairs/jobs", {"instance": "0110", "solver": 5}, 400, "必须是文本"),
    ("POST", "/api/pairs/jobs", {"instance": ""}, 400, "题目为空"),
    ("POST", "/api/pairs/validate", {}, 400, "请在 'instance' 字段中给出题目文本"),
    ("POST", "/api/pairs/edit", {"instance": "0110"}, 400, "编辑操作"),
    ("GET", "/api/pairs/render.svg?instance=0110&step=x", None, 400, "步数必须是用数字 0-9 写成的整数"),
    ("GET", "/api/nope", None, 404, "这里什么也没有"),
    ("POST", "/api/nope/jobs", {"instance": "1"}, 404, "没有谜题 'nope'"),
    ("DELETE", "/api/puzzles", None, 405, "这里不接受 DELETE 请求"),
])
def test_api_errors_follow_accept_language_and_keep_where(client, method, path, body, status, chinese):
    def ask(language):
        return client.open(path, method=method, json=body, headers={"Accept-Language": language})

    english, zh = ask("en"), ask("zh-CN")
    assert english.status_code == zh.status_code == status
    en_body, zh_body = english.get_json(), zh.get_json()
    assert not CJK.search(en_body["error"])
    assert chinese in zh_body["error"], zh_body
    assert zh_body.get("where") == en_body.get("where")  # the machine field never changes
    assert zh.headers["Content-Language"] == "zh-Hans" and english.headers["Content-Language"] == "en"
