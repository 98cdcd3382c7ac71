"""The embed routes through Flask's test client: the embed page without script, oEmbed, PNG
pixels, GIF and WebP frames, and every bad parameter answered 4xx in words."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from urllib.parse import quote

import pytest
from PIL import Image

from engine.plugins import get_registry
from web import create_app

#: Tile 7 then tile 8 slide left into the blank, and the board is solved.
INSTANCE = "1 2 3/4 5 6/0 7 8"
SOURCE = f"instance={quote(INSTANCE, safe='')}&moves=7,8"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    registry = get_registry()
    if "sliding" not in registry.puzzles:
        pytest.skip("the sliding plugin is not installed")
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path_factory.mktemp("data")), "TESTING": True})
    yield app.test_client()
    app.extensions["puzzle_jobs"].close()


def words(response) -> str:
    body = response.get_json()
    assert body and isinstance(body.get("error"), str) and len(body["error"].split()) >= 3, body
    return body["error"]


# -- the embed page ------------------------------------------------------------------------


def test_embed_page_is_a_still_board_with_step_links(client):
    r = client.get(f"/embed/sliding?{SOURCE}&step=1&bg=dark&list=1")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert 'class="site"' not in html  # no site header
    assert '<svg' in html and 'data-step="1"' in html
    assert "Move 1 of 2: Tile 7" in html
    links = dict(re.findall(r'id="(first|prev|next|last)-step" class="step-button" href="([^"]+)"', html))
    assert set(links) == {"first", "prev", "next", "last"}
    assert links["next"].endswith("step=2") and links["prev"].endswith("step=0")
    assert "bg=dark" in links["next"] and "list=1" in links["next"]  # parameters survive
    assert 'data-bg="dark"' in html
    assert 'href="/sliding?instance=1%202%203%2F4%205%206%2F0%207%208&amp;moves=7%2C8#step=1"' in html
    # Cacheable, a pure function of the URL: the same bytes again, and a 304 for its ETag.
    assert "public" in r.headers["Cache-Control"]
    again = client.get(f"/embed/sliding?{SOURCE}&step=1&bg=dark&list=1", headers={"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304


def test_only_embed_routes_may_be_framed_and_they_set_no_cookie(client):
    embed = client.get(f"/embed/sliding?{SOURCE}")
    assert "frame-ancestors *" in embed.headers["Content-Security-Policy"]
    assert "Set-Cookie" not in embed.headers
    editor = client.get(f"/sliding?{SOURCE}")
    assert "frame-ancestors 'self'" in editor.headers["Content-Security-Policy"]
    # Every script, style and link of the page is on this site.
    html = embed.get_data(as_text=True)
    for url in re.findall(r'(?:src|href)="([^"]*)"', html):
        assert url.startswith(("/", "#", "data:")) and not url.startswith("//"), url


def test_user_text_is_escaped(client):
    r = client.get(f"/embed/sliding?{SOURCE}&id=%3C/script%3E%3Cscript%3Ealert(1)%3C/script%3E")
    assert r.status_code == 200
    assert "<script>alert(1)" not in r.get_data(as_text=True)


def test_embed_without_moves_offers_the_solution(client):
    html = client.get(f"/embed/sliding?instance={quote(INSTANCE, safe='')}").get_data(as_text=True)
    assert 'id="show-solution"' in html and 'id="next-step"' not in html


@pytest.mark.parametrize("query, where", [
    ("bg=purple", "bg"), ("controls=2", "controls"), ("autoplay=yes", "autoplay"),
    ("moves=7,8&step=9", "step 9"), ("moves=5", "tile 5"),
])
def test_bad_embed_parameters_are_400_in_words(client, query, where):
    r = client.get(f"/embed/sliding?instance={quote(INSTANCE, safe='')}&{query}")
    assert r.status_code == 400
    assert "frame-ancestors *" in r.headers["Content-Security-Policy"]  # the host still sees why
    assert where in r.get_data(as_text=True)


def test_unknown_puzzle_is_404(client):
    assert client.get("/embed/nope").status_code == 404
    assert client.get("/api/nope/render.png?instance=x").status_code == 404
    assert client.get("/api/nope/animation.gif?instance=x").status_code == 404


def test_host_script(client):
    r = client.get("/embed.js")
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert "puzzle-embed-height" in r.get_data(as_text=True)


# -- oEmbed ----------------------------------------------------------------------------------


def test_oembed_answers_every_required_field(client):
    url = f"http://localhost/sliding?{SOURCE}#step=1"
    body = client.get("/oembed?url=" + quote(url, safe="")).get_json()
    for key in ("type", "version", "html", "width", "height", "title", "provider_name", "provider_url",
                "thumbnail_url", "thumbnail_width", "thumbnail_height", "cache_age"):
        assert key in body, key
    assert body["type"] == "rich" and body["version"] == "1.0"
    assert '<iframe src="http://localhost/embed/sliding?' in body["html"] and "#step=1" in body["html"]
    assert f'width="{body["width"]}"' in body["html"] and f'height="{body["height"]}"' in body["html"]
    assert "2 moves" in body["title"]
    thumb = client.get(body["thumbnail_url"].removeprefix("http://localhost"))
    assert thumb.status_code == 200 and thumb.mimetype == "image/png"
    assert Image.open(io.BytesIO(thumb.data)).size == (body["thumbnail_width"], body["thumbnail_height"])
    # The embed URL itself is accepted too.
    assert client.get("/oembed?url=" + quote(f"http://localhost/embed/sliding?{SOURCE}", safe="")).status_code == 200


def test_oembed_respects_maxwidth_and_maxheight(client):
    url = quote(f"http://localhost/sliding?{SOURCE}", safe="")
    narrow = client.get(f"/oembed?url={url}&maxwidth=300").get_json()
    assert narrow["width"] <= 300
    short = client.get(f"/oembed?url={url}&maxheight=400").get_json()
    assert short["height"] <= 400


@pytest.mark.parametrize("query, status", [
    ("url=" + quote("http://evil.example/sliding", safe=""), 404),
    ("url=" + quote("http://localhost/-/plugins", safe=""), 404),
    ("url=" + quote("http://localhost/nope", safe=""), 404),
    ("url=" + quote("http://localhost/sliding", safe="") + "&format=xml", 501),
    ("url=" + quote("http://localhost/sliding?instance=1 2/3 9", safe=""), 400),
    ("url=" + quote("http://localhost/sliding", safe="") + "&maxwidth=wide", 400),
    ("", 400),
])
def test_oembed_errors(client, query, status):
    r = client.get("/oembed?" + query)
    assert r.status_code == status
    words(r)


def test_editor_pages_carry_previews_and_oembed_discovery(client):
    html = client.get(f"/sliding?{SOURCE}").get_data(as_text=True)
    for tag in ('property="og:title"', 'property="og:description"', 'property="og:image"',
                'property="og:image:alt"', 'name="twitter:card"'):
        assert tag in html, tag
    image = re.search(r'property="og:image" content="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert image.startswith("http://localhost/api/sliding/render.png?")
    assert client.get(image.removeprefix("http://localhost")).status_code == 200
    link = re.search(r'type="application/json\+oembed" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert client.get(link.removeprefix("http://localhost")).get_json()["type"] == "rich"


# -- raster images --------------------------------------------------------------------------


def tile_box(svg: str, tile: str) -> tuple[float, float, float, float]:
    """(x, y, width, height) of a tile's rect, and the board's viewBox width, from the SVG."""
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    for group in root.iter(ns + "g"):
        if group.get("data-tile") == tile:
            rect = group.find(ns + "rect")
            return tuple(float(rect.get(k)) for k in ("x", "y", "width", "height"))
    raise AssertionError(f"no tile {tile}")


def test_png_shows_the_board(client):
    size = 312 * 2
    r = client.get(f"/api/sliding/render.png?{SOURCE}&step=1&size={size}")
    assert r.status_code == 200 and r.mimetype == "image/png"
    image = Image.open(io.BytesIO(r.data)).convert("RGB")
    svg = client.get(f"/api/sliding/render.svg?{SOURCE}&step=1").get_data(as_text=True)
    view_width = float(ET.fromstring(svg).get("viewBox").split()[2])
    assert image.width == size
    scale = size / view_width

    def corner(tile):  # inside the tile, away from its number and its border
        x, y, w, h = tile_box(svg, tile)
        return image.getpixel((int((x + w * 0.2) * scale), int((y + h * 0.2) * scale)))

    blank, plain, moved = corner("0"), corner("1"), corner("7")
    assert sum(abs(a - b) for a, b in zip(blank, plain)) > 150, (blank, plain)
    # The last move's tile is coloured (a saturated cue), unlike a plain tile.
    saturation = lambda c: max(c) - min(c)
    assert saturation(moved) > 100 and saturation(moved) > saturation(plain) + 50, (moved, plain)


def test_png_cache_etag_and_cors(client):
    url = f"/api/sliding/render.png?{SOURCE}&size=200"
    cache = client.application.extensions.get("puzzle_raster")
    first = client.get(url)
    hits = client.application.extensions["puzzle_raster"]["png"].cache_info().hits
    again = client.get(url)
    assert again.data == first.data
    assert client.application.extensions["puzzle_raster"]["png"].cache_info().hits == hits + 1
    assert first.headers["Access-Control-Allow-Origin"] == "*"
    assert "public" in first.headers["Cache-Control"]
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    del cache


@pytest.mark.parametrize("size", ["63", "1601", "big", "-5", "1e3"])
def test_png_bad_sizes_are_400_in_words(client, size):
    r = client.get(f"/api/sliding/render.png?{SOURCE}&size={size}")
    assert r.status_code == 400
    assert "64 to 1600" in words(r)


@pytest.mark.parametrize("kind", ["gif", "webp"])
def test_animations_have_one_frame_per_step(client, kind):
    r = client.get(f"/api/sliding/animation.{kind}?{SOURCE}&size=120&delay=0.5")
    assert r.status_code == 200 and r.mimetype == f"image/{kind}"
    image = Image.open(io.BytesIO(r.data))
    assert image.n_frames == 3
    durations = []
    for i in range(image.n_frames):
        image.seek(i)
        image.load()  # WebP tells a frame's duration once the frame is decoded
        durations.append(image.info["duration"])
    assert durations[0] == 500 and durations[-1] > durations[0]  # the solved board stays up longer
    download = client.get(f"/api/sliding/animation.{kind}?{SOURCE}&size=120&download=1")
    assert "attachment" in download.headers["Content-Disposition"]


def test_over_long_animations_are_refused_in_words(client):
    back_and_forth = ",".join(["7"] * 600)
    r = client.get(f"/api/sliding/animation.gif?instance={quote(INSTANCE, safe='')}&moves={back_and_forth}")
    assert r.status_code == 400 and "at most" in words(r)
    r = client.get(f"/api/sliding/animation.webp?{SOURCE}&delay=0")
    assert r.status_code == 400 and "delay" in words(r)


def test_images_without_an_instance_are_400(client):
    assert "instance" in words(client.get("/api/sliding/render.png"))


def test_a_full_editor_share_does_not_hold_back_embeds_or_images(client):
    """A page of several embeds: while the visitor's share of editor requests is taken, the
    embed page and its pictures still answer (only the move words wait, and the player asks
    again for them)."""
    gate = client.application.extensions["puzzle_heavy_gate"]
    held = [gate.enter("127.0.0.1") for _ in range(gate.per_client)]
    try:
        busy = client.post("/api/sliding/describe", json={"instance": INSTANCE, "moves": ["7", "8"]})
        assert busy.status_code == 429 and busy.headers["Retry-After"]
        for path in (f"/embed/sliding?{SOURCE}&id={n}" for n in range(6)):
            assert client.get(path).status_code == 200, path
        for path in (f"/api/sliding/render.svg?{SOURCE}&step=1", f"/api/sliding/render.png?{SOURCE}&size=200",
                     f"/api/sliding/animation.gif?{SOURCE}&size=120", "/embed.js"):
            assert client.get(path).status_code == 200, path
    finally:
        for _ in held:
            gate.leave("127.0.0.1")
    assert client.post("/api/sliding/describe", json={"instance": INSTANCE, "moves": ["7", "8"]}).status_code == 200


def test_a_stored_jobs_solution_animates_frame_by_frame(client):
    import time

    job = client.post("/api/sliding/jobs", json={"instance": "4 1 3/7 2 6/0 5 8"}).get_json()
    deadline = time.monotonic() + 120
    while not job.get("done") and time.monotonic() < deadline:
        time.sleep(0.2)
        job = client.get(f"/api/jobs/{job['id']}").get_json()
    assert job["status"] == "solved", job
    moves = job["result"]["moves"]
    r = client.get(f"/api/sliding/animation.gif?job={job['stored_id']}&size=120")
    assert r.status_code == 200 and r.headers["Cache-Control"].startswith("public")
    image = Image.open(io.BytesIO(r.data))
    assert image.n_frames == len(moves) + 1  # the start, then one frame per move of the job
    image.seek(0)
    start = image.convert("RGB").tobytes()
    image.seek(image.n_frames - 1)
    assert image.convert("RGB").tobytes() != start
