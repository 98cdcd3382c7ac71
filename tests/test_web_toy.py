"""The web app serves a puzzle it has never heard of: the toy "pairs" plugin (tests/pairs_toy.py)."""

from __future__ import annotations

import sys

import pytest
from pairs_toy import TOY_FACTORY, Pairs, toy_registry


@pytest.fixture()
def toy_client(tmp_path):
    from web import create_app

    app = create_app({"REGISTRY": toy_registry(), "DATA_DIR": str(tmp_path),
                      "REGISTRY_FACTORY": TOY_FACTORY, "TESTING": True})
    yield app.test_client()
    app.extensions["puzzle_jobs"].close()


def test_editor_page_of_unknown_third_party_puzzle(toy_client):
    page = toy_client.get("/pairs?instance=0110")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Pairs &lt;&amp;&gt; test" in html and "<&>" not in html.split("<body")[1].split("<script")[0]
    assert "/-/client/pairs.js" in html  # its own client script is loaded
    assert toy_client.get("/-/client/pairs.js").get_data(as_text=True) == Pairs.client_script


def test_two_click_edit_with_selection(toy_client):
    first = toy_client.post("/api/pairs/edit", json={"instance": "0000", "action": "flip:1", "mode": "pick"})
    assert first.status_code == 200
    body = first.get_json()
    assert body["instance"] == "0000" and body["selection"] == "1" and body["message"] == "Bit 1 picked"
    assert 'class="bit selected"' in body["svg"]
    second = toy_client.post("/api/pairs/edit", json={"instance": "0000", "action": "flip:3",
                                                      "mode": "pick", "selection": "1"})
    assert second.get_json()["instance"] == "0101"
    assert second.get_json()["selection"] is None


def test_gallery_lists_the_toy(toy_client):
    html = toy_client.get("/").get_data(as_text=True)
    assert 'href="/pairs"' in html and Pairs.rules in html
    # The thumbnail asks for a still picture (renderers may drop their editor-only parts).
    assert "/api/pairs/render.svg?instance=" in html and "&amp;selection=%40thumbnail" in html


def test_plugins_page_shows_versions_and_hooks(toy_client):
    html = toy_client.get("/-/plugins").get_data(as_text=True)
    assert "pairs-plugin" in html and "9.9" in html and "register_solvers" in html


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
