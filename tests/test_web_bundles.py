"""The editor's and the embed player's scripts are sent as one bundle each: the same code as
the files in web/static, in load order, smaller over the wire than the files one by one."""

from __future__ import annotations

import gzip
import html as html_module
import re

import pytest

from web import bundles, create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app({"DATA_DIR": str(tmp_path_factory.mktemp("data"))})
    return app.test_client()


@pytest.mark.parametrize("page,bundle", [("/sliding", "editor"), ("/embed/sliding", "embed")])
def test_each_page_loads_its_bundle_and_the_bundle_is_its_scripts_in_order(client, page,
                                                                           bundle):
    html = client.get(page).get_data(as_text=True)
    sources = [html_module.unescape(src) for src in re.findall(r'<script src="([^"]+)"', html)]
    # The page's language is in the URL (docs/i18n.md), then the content hash.
    assert any(src.startswith(f"/-/scripts/{bundle}.js?lang=en&v=") for src in sources), sources
    assert not any(src.endswith(("/editor.js", "/playback.js")) for src in sources)
    url = next(src for src in sources if src.startswith(f"/-/scripts/{bundle}.js"))
    answer = client.get(url)
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert "immutable" in answer.headers["Cache-Control"]
    text = answer.get_data(as_text=True)
    at = -1
    for name in (bundles.FIRST, *bundles.BUNDLES[bundle]):
        body = (bundles.STATIC / name).read_text(encoding="utf-8")
        found = text.find(body)
        assert found > at, f"{name} missing or out of order"
        at = found
    again = client.get(url, headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_the_bundle_is_smaller_over_the_wire_than_its_files_one_by_one():
    text, _ = bundles.bundle_text("editor")
    one = len(gzip.compress(text.encode(), 6))
    apart = sum(len(gzip.compress((bundles.STATIC / f).read_bytes(), 6))
                for f in bundles.BUNDLES["editor"])
    assert one < apart


def test_an_unknown_bundle_is_a_404_in_words(client):
    answer = client.get("/-/scripts/nothing.js")
    assert answer.status_code == 404
    assert "nothing" in answer.get_data(as_text=True)
