"""The JSON API through Flask's test client: validation, edits, rendering, caching, and that
every bad parameter is a 4xx JSON error (never a 500).

Runs against the toy "pairs" puzzle (tests/pairs_toy.py), whose answers are easy to check
independently, plus the installed sliding puzzle when it is there.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import quote

import pytest
from pairs_toy import Bits

from engine.plugins import get_registry
from web import create_app
from web.api import SVG_MAX_AGE

# -- puzzles, validation, edits ----------------------------------------------------------------

def test_list_puzzles_describes_solvers_modes_and_presets(client):
    body = client.get("/api/puzzles").get_json()
    (pairs,) = body["puzzles"]
    assert pairs["id"] == "pairs"
    assert [s["name"] for s in pairs["solvers"]] == ["sweep", "patient", "stubborn", "liar"]
    assert [m["name"] for m in pairs["edit_modes"]] == ["toggle", "pick"]
    assert list(pairs["presets"].items()) == [("easy", "0110"), ("wide", "100000000001"), ("odd", "1000")]
    assert pairs["client_script"] == "/-/client/pairs.js"


def test_validate_gives_canonical_text_notes_and_board(client):
    body = client.post("/api/pairs/validate", json={"instance": "  1000\n"}).get_json()
    assert body["instance"] == "1000"
    assert body["notes"] == ["An odd number of ones: this row cannot be solved."]
    assert body["svg"].startswith("<svg") and 'data-action="flip:3"' in body["svg"]
    assert [t["label"] for t in body["tools"]] == ["Clear", "Length"]
    # preset names are accepted too
    assert client.post("/api/pairs/validate", json={"instance": "wide"}).get_json()["instance"] == "100000000001"


def test_validate_error_says_what_and_where(client):
    response = client.post("/api/pairs/validate", json={"instance": "01x1"})
    assert response.status_code == 400
    assert response.get_json() == {"error": "'x' is not a bit (use 0 and 1)", "where": "column 3"}


def test_edit_applies_the_action_of_a_clicked_part(client):
    body = client.post("/api/pairs/edit", json={"instance": "0000", "action": "flip:2"}).get_json()
    assert body["instance"] == "0010"
    assert body["svg"] == Bits().render((0, 0, 1, 0))
    body = client.post("/api/pairs/edit", json={"instance": "0110", "action": "length:8"}).get_json()
    assert body["instance"] == "01100000"


def test_random_is_reproducible_and_takes_options(client):
    a = client.get("/api/pairs/random?seed=42&bits=12").get_json()
    b = client.get("/api/pairs/random?seed=42&bits=12").get_json()
    assert a["instance"] == b["instance"] and len(a["instance"]) == 12 and a["seed"] == 42
    assert a["instance"].count("1") % 2 == 0  # random instances must be solvable


# -- SVG -----------------------------------------------------------------------------------------

def test_step_svg_is_the_replayed_state(client):
    moves = ["0", "2"]  # 1111 -> 0011 -> 0000
    for step, bits in enumerate(["1111", "0011", "0000"]):
        r = client.get(f"/api/pairs/render.svg?instance=1111&moves={','.join(moves)}&step={step}")
        assert r.status_code == 200 and r.mimetype == "image/svg+xml"
        assert r.get_data(as_text=True) == Bits().render(tuple(int(c) for c in bits))
        assert r.headers["X-Puzzle-Solved"] == ("true" if bits == "0000" else "false")
        assert r.headers["Access-Control-Allow-Origin"] == "*"  # embeddable from other sites
    # no step: the state after all the moves; JSON move lists work too
    r = client.get("/api/pairs/render.svg?instance=1111&moves=" + quote('["0","2"]'))
    assert r.headers["X-Puzzle-Solved"] == "true"


def test_step_svg_revalidates_with_etag(client):
    url = "/api/pairs/render.svg?instance=1111&moves=0&step=1"
    etag = client.get(url).headers["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    assert client.get(url.replace("step=1", "step=0"), headers={"If-None-Match": etag}).status_code == 200


def test_step_rendering_is_cached(app, client):
    boards = app.extensions["puzzle_boards"]
    url = "/api/pairs/render.svg?instance=110011&moves=0,4&step=1"
    client.get(url)
    hits = boards._step.cache_info().hits
    assert client.get(url).status_code == 200
    assert boards._step.cache_info().hits == hits + 1


def test_animated_svg_holds_every_frame(client):
    r = client.get("/api/pairs/animation.svg?instance=1111&moves=0,2&download=1")
    assert r.status_code == 200
    assert "attachment" in r.headers["Content-Disposition"]
    root = ET.fromstring(r.get_data(as_text=True))
    ns = "{http://www.w3.org/2000/svg}"
    frames = root.findall(f"{ns}g")
    assert [f.get("data-step") for f in frames] == ["0", "1", "2"]
    assert all(f.find(f"{ns}animate") is not None for f in frames)
    assert frames[0].get("display") == "inline" and frames[1].get("display") == "none"
    boards = [f.find(f"{ns}svg") for f in frames]
    assert all(b is not None and b.get("width") == "100%" for b in boards)  # each fills the frame


def test_animation_frames_are_nested_as_elements_whatever_text_they_hold():
    """A frame holding text that looks like markup stays inside its own group."""
    from web.rendering import animate
    tricky = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 2" width="40px">'
              '<text>&lt;/g&gt;&lt;/svg&gt; width="1"</text></svg>')
    plain = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 2"/>'
    root = ET.fromstring(animate([tricky, plain], 0.5, "a <title> & more"))
    ns = "{http://www.w3.org/2000/svg}"
    assert root.get("viewBox") == "0 0 4 2" and root.find(f"{ns}title").text == "a <title> & more"
    frames = root.findall(f"{ns}g")
    assert len(frames) == 2 and frames[0].find(f"{ns}svg/{ns}text").text == '</g></svg> width="1"'
    assert frames[0].find(f"{ns}svg").get("width") == "100%"


def test_replay_reports_solved_and_details(client):
    body = client.post("/api/pairs/replay", json={"instance": "1111", "moves": ["0", "2"]}).get_json()
    assert body == {"instance": "1111", "moves": ["0", "2"], "steps": 2, "solved": True,
                    "details": {"flips": 2}}
    assert client.post("/api/pairs/replay", json={"instance": "1111", "moves": ["0"]}).get_json()["solved"] is False


# -- pages -------------------------------------------------------------------------------------

def test_share_link_text_with_slashes_reproduces_the_instance(client):
    html = client.get("/pairs?instance=" + quote("0110", safe="")).get_data(as_text=True)
    assert '"instance": "0110"' in html


def test_bad_instance_in_link_keeps_the_page_working(client):
    r = client.get("/pairs?instance=0x")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "is not a bit" in html and ">0x</textarea>" in html


def test_unknown_puzzle_page_is_a_404_page(client):
    r = client.get("/nosuchpuzzle")
    assert r.status_code == 404 and "unknown puzzle" in r.get_data(as_text=True)
    r = client.get("/api/puzzles/nosuchpuzzle")
    assert r.status_code == 404 and r.get_json()["error"].startswith("unknown puzzle 'nosuchpuzzle'")


# -- every bad parameter is a 4xx JSON error ------------------------------------------------------

BAD_REQUESTS = [
    ("GET", "/api/puzzles/nosuch", None, 404),
    ("POST", "/api/nosuch/validate", {"instance": "01"}, 404),
    ("POST", "/api/pairs/validate", {}, 400),
    ("POST", "/api/pairs/validate", {"instance": ""}, 400),
    ("POST", "/api/pairs/validate", {"instance": 12}, 400),
    ("POST", "/api/pairs/validate", {"instance": "1" * 300_000}, 400),
    ("POST", "/api/pairs/validate", {"instance": "1" * 25}, 400),
    ("POST", "/api/pairs/validate", ["0110"], 400),
    ("POST", "/api/pairs/edit", {"instance": "0110"}, 400),
    ("POST", "/api/pairs/edit", {"instance": "0110", "action": "explode"}, 400),
    ("POST", "/api/pairs/edit", {"instance": "0110", "action": "flip:99"}, 400),
    ("POST", "/api/pairs/edit", {"instance": "0110", "action": "flip:1", "mode": "nosuch"}, 400),
    ("POST", "/api/pairs/edit", {"instance": "0110", "action": ["flip:1"]}, 400),
    ("GET", "/api/pairs/random?seed=-1", None, 400),
    ("GET", "/api/pairs/random?seed=abc", None, 400),
    ("GET", "/api/pairs/random?seed=99999999999999999999999", None, 400),
    ("GET", "/api/pairs/random?seed=1&colour=red", None, 400),
    ("GET", "/api/pairs/random?seed=1&bits=lots", None, 400),  # the plugin raises ValueError
    ("GET", "/api/pairs/render.svg", None, 400),
    ("GET", "/api/pairs/render.svg?instance=01x", None, 400),
    ("GET", "/api/pairs/render.svg?instance=0110&moves=7", None, 400),
    ("GET", "/api/pairs/render.svg?instance=0110&moves=0,,1", None, 400),
    ("GET", "/api/pairs/render.svg?instance=0110&moves=%5B1", None, 400),
    ("GET", "/api/pairs/render.svg?instance=0110&moves=%5B1%5D", None, 400),
    ("GET", "/api/pairs/render.svg?instance=0110&moves=0&step=2", None, 400),
    ("GET", "/api/pairs/render.svg?instance=0110&moves=0&step=-1", None, 400),
    ("GET", "/api/pairs/render.svg?instance=0110&moves=0&step=one", None, 400),
    ("GET", "/api/pairs/render.svg?instance=0110&renderer=neon", None, 400),
    ("GET", "/api/pairs/animation.svg?instance=0110&moves=1&delay=0", None, 400),
    ("GET", "/api/pairs/animation.svg?instance=0110&moves=1&delay=soon", None, 400),
    ("POST", "/api/pairs/replay", {"instance": "0110", "moves": "0,9"}, 400),
    ("POST", "/api/pairs/replay", {"instance": "0110", "moves": {"a": 1}}, 400),
    ("POST", "/api/pairs/jobs", {}, 400),
    ("POST", "/api/pairs/jobs", {"instance": "0110", "solver": "nosuch"}, 400),
    ("POST", "/api/pairs/jobs", {"instance": "0110", "time_limit": 0}, 400),
    ("POST", "/api/pairs/jobs", {"instance": "0110", "time_limit": -3}, 400),
    ("POST", "/api/pairs/jobs", {"instance": "0110", "time_limit": 1000}, 400),
    ("POST", "/api/pairs/jobs", {"instance": "0110", "time_limit": "soon"}, 400),
    ("POST", "/api/pairs/jobs", {"instance": "0110", "time_limit": "nan"}, 400),
    ("POST", "/api/pairs/jobs", {"instance": "01x0"}, 400),
    ("GET", "/api/jobs/nosuchjob", None, 404),
    ("GET", "/api/jobs/stored-abc", None, 404),
    ("GET", "/api/jobs/stored-999999", None, 404),
    ("POST", "/api/jobs/nosuchjob/cancel", None, 404),
    ("GET", "/api/pairs/edit", None, 405),
    ("GET", "/api/no/such/path/here", None, 404),
    # An unknown puzzle is a 404 like an unknown job, whatever the route (not a 400).
    ("GET", "/api/puzzles/nope", None, 404),
    ("GET", "/api/nope/render.svg?instance=1", None, 404),
    ("GET", "/api/nope/random", None, 404),
    ("POST", "/api/nope/validate", {"instance": "1"}, 404),
    ("POST", "/api/nope/jobs", {"instance": "1"}, 404),
]


@pytest.mark.parametrize("method,url,body,status", BAD_REQUESTS,
                         ids=[f"{m} {u[:60]}" for m, u, _, _ in BAD_REQUESTS])
def test_bad_parameters_are_4xx_json_errors(client, method, url, body, status):
    response = client.open(url, method=method, json=body) if body is not None else client.open(url, method=method)
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    payload = response.get_json()
    assert isinstance(payload, dict) and isinstance(payload["error"], str) and payload["error"]
    assert "Traceback" not in response.get_data(as_text=True)


def test_non_json_body_is_a_400(client):
    r = client.post("/api/pairs/validate", data="{not json", content_type="application/json")
    assert r.status_code == 400 and "JSON object" in r.get_json()["error"]


def test_huge_body_is_a_413_json_error(client):
    r = client.post("/api/pairs/validate", data="x" * 2_000_000, content_type="application/json")
    assert r.status_code == 413 and "too large" in r.get_json()["error"]


def test_unexpected_errors_are_json_500_without_traceback(app):
    # A renderer bug must not leak a traceback; the plugin's own error is logged instead.
    boards = app.extensions["puzzle_boards"]
    original = boards._step
    boards._step = lambda *a: (_ for _ in ()).throw(RuntimeError("secret internal detail"))
    try:
        r = app.test_client().get("/api/pairs/render.svg?instance=0110")
    finally:
        boards._step = original
    assert r.status_code == 500
    assert "secret" not in r.get_data(as_text=True) and r.get_json()["error"].startswith("internal error")


# -- the real sliding puzzle, when installed ------------------------------------------------------

def test_sliding_step_svg_and_cache_when_installed(tmp_path):
    registry = get_registry()
    if "sliding" not in registry.puzzles:
        pytest.skip("the sliding plugin is not installed")
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path)})
    client = app.test_client()
    try:
        text = registry.puzzle("sliding").format(registry.puzzle("sliding").random(3))
        url = f"/api/sliding/render.svg?instance={quote(text, safe='')}&step=0"
        steps = app.extensions["puzzle_boards"]._step
        r = client.get(url)
        assert r.status_code == 200 and "viewBox" in r.get_data(as_text=True)
        # The server's step cache: the same board again is a hit, rendered once.
        before = steps.cache_info()
        again = client.get(url)
        after = steps.cache_info()
        assert again.get_data() == r.get_data()
        assert (after.hits, after.misses) == (before.hits + 1, before.misses)
        # The browser's cache: the URL says everything, so it may be kept, and revalidated by tag.
        assert r.headers["Cache-Control"] == f"public, max-age={SVG_MAX_AGE}"
        assert client.get(url, headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
        assert client.get(f"/api/sliding/render.svg?instance={quote(text, safe='')}&moves=99").status_code == 400
    finally:
        app.extensions["puzzle_jobs"].close()


# -- junk sent to every installed puzzle through the web is never a 500 ---------------------------

JUNK = ["", " ", "\x00", "0", "-1", "1e9", "[]", "{}", "a" * 500, "é/ü", "1 2/3", "9" * 30, "\n\n", "/",
        "//", "1,2", "nan", "x:y", "toggle:", "resize:0x0", "resize:99x99", "resize:-1x3", "tile:99",
        "tile:-1", "random:abc", "shuffle:", ":", "goal:nope", "<script>"]


@pytest.mark.parametrize("puzzle_id", sorted(get_registry().puzzles) or ["none-installed"])
def test_junk_through_the_api_is_4xx_never_500(tmp_path, puzzle_id):
    import random
    import string

    registry = get_registry()
    if puzzle_id not in registry.puzzles:
        pytest.skip("no puzzle plugin is installed")
    puzzle = registry.puzzle(puzzle_id)
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path)})
    client = app.test_client()
    rng = random.Random(puzzle_id)
    presets = list(puzzle.presets().values())
    modes = [None] + [m.name for m in puzzle.edit_modes()]
    try:
        for _ in range(150):
            junk = rng.choice(JUNK + presets + ["".join(rng.choice(string.printable)
                                                        for _ in range(rng.randint(0, 30)))])
            kind = rng.choice(["validate", "edit", "render", "random", "replay"])
            if kind == "validate":
                r = client.post(f"/api/{puzzle_id}/validate", json={"instance": junk})
            elif kind == "edit":
                r = client.post(f"/api/{puzzle_id}/edit", json={
                    "instance": rng.choice(presets), "action": junk, "mode": rng.choice(modes),
                    "selection": rng.choice([None, junk, "a1", "0"])})
            elif kind == "render":
                r = client.get(f"/api/{puzzle_id}/render.svg", query_string={
                    "instance": rng.choice(presets), "moves": junk, "step": rng.choice(["", "0", junk])})
            elif kind == "random":
                options = {name: junk for name in puzzle.random_options}
                r = client.get(f"/api/{puzzle_id}/random",
                               query_string={"seed": rng.choice(["1", junk]), **options})
            else:
                r = client.post(f"/api/{puzzle_id}/replay", json={"instance": rng.choice(presets), "moves": junk})
            assert r.status_code < 500, (kind, junk, r.get_data(as_text=True)[:300])
            if r.status_code >= 400:
                assert r.get_json()["error"]
    finally:
        app.extensions["puzzle_jobs"].close()


def test_serve_command_is_contributed_through_the_hook():
    import click
    from click.testing import CliRunner

    from web.commands import register_commands

    group = click.Group("puzzle")
    register_commands(cli=group)
    result = CliRunner().invoke(group, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--host" in result.output and "--port" in result.output and "[default: 8000" in result.output
    assert CliRunner().invoke(group, ["serve", "--port", "99999"]).exit_code == 2  # refused, not started
