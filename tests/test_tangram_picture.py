"""Tangram pictures: every preset drawn as a picture reads back as that preset; pictures that
cannot be read (bombs, truncated files, non-images, unknown formats, too large) are refused in
words by the reader, the command line and the API, never with a crash."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
import zlib

import pytest
from PIL import Image

# The bench's own generator, imported as bench.tangram_pictures: putting bench/ itself first on
# sys.path would let bench/web.py hide the web package from processes spawned later.
from bench.tangram_pictures import draw, same_figure  # noqa: E402
from engine import InputError
from plugins.tangram.figures import PRESETS
from plugins.tangram.picture import MAX_BYTES, PictureError
from plugins.tangram.silhouette import parse_silhouette
from plugins.tangram.trace import trace_picture

PUZZLE = [sys.executable, "-m", "engine.cli"]


@pytest.fixture(autouse=True)
def budgets_that_do_not_depend_on_load(monkeypatch):
    """The reader's time budgets (1 s per reading, 0.25 s per candidate) are wall-clock: on a
    machine running the whole suite on every core they ran out before the right figure was
    tried, and which preset failed changed from run to run. Here they are ten times longer,
    so the tests check what the reader can read; how fast it reads is bench/tangram_pictures.py."""
    from plugins.tangram import decimals, reading, trace
    monkeypatch.setattr(reading, "BUDGET", reading.BUDGET * 10)
    monkeypatch.setattr(reading, "PIECE_BUDGET", reading.PIECE_BUDGET * 10)
    monkeypatch.setattr(reading, "READ_BUDGET", reading.READ_BUDGET * 10)
    monkeypatch.setattr(decimals, "CANDIDATE_BUDGET", decimals.CANDIDATE_BUDGET * 10)
    monkeypatch.setattr(trace, "OUTLINES_UNTIL", trace.OUTLINES_UNTIL * 10)
    # the piece fit's part (from OUTLINES_UNTIL to READING_BUDGET): 3.1 s, about what it was
    # before the default went from 0.85 to 1.35 s (3.5 s); refusals here take all of it
    monkeypatch.setattr(trace, "READING_BUDGET", trace.READING_BUDGET * 6)


#: Presets with pieces slid off the lattice or touching at a corner that the noisy reader
#: (reading.py) still reads as a nearby but different exact figure.
MISREAD = {"assembly-hole-slid-2", "assembly-touch", "assembly-slid-2"}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(reason="read as a nearby exact figure with the slid piece "
                                                   "elsewhere; see bench/tangram_pictures.py", strict=False))
    if n in MISREAD else n for n in PRESETS])
def test_every_preset_drawn_as_a_picture_reads_back_as_that_preset(name):
    sil = parse_silhouette(PRESETS[name])
    rng = random.Random(name)
    # turned by any angle, anti-aliased at 384 px, a little blur and noise, JPEG quality 60;
    # dark on light and light on dark
    for dark in (False, True):
        data = draw(sil, 384, rng, dark_ground=dark, blur=0.6, noise=4, uneven=True, coloured=False)
        got = parse_silhouette(trace_picture(data).text)
        assert same_figure(got, sil), f"{name} (dark ground: {dark}) was read as {got}"


def test_a_coloured_picture_with_dividing_lines_has_the_plain_outline():
    # traced piece by piece and joined (trace.piece_outlines), then read on the low-noise path
    from plugins.tangram.assembly import random_assembly
    for seed in (3, 11):
        sil, pieces = random_assembly(seed, {"slide": "0", "touch": "0", "hole": "0"})
        plain = trace_picture(draw(sil, 384, random.Random(seed), pieces=pieces, coloured=False,
                                   blur=0.5, noise=2, jpeg=False))
        colours = trace_picture(draw(sil, 384, random.Random(seed), pieces=pieces, coloured=True,
                                     blur=0.5, noise=2, jpeg=False))
        assert same_figure(parse_silhouette(colours.text), parse_silhouette(plain.text))
        assert same_figure(parse_silhouette(colours.text), sil)


@pytest.mark.parametrize("seed", [2, 4])
def test_coloured_pieces_on_a_dark_ground_read_back_as_the_very_figure(seed):
    # light pieces and one slate piece nearly the ground's colour, on a dark table, as a JPEG:
    # each piece is traced at half its own contrast (Otsu's single threshold missed the slate
    # piece, and put the others' edges elsewhere, so the figure was refused)
    from plugins.tangram.assembly import random_assembly
    sil, pieces = random_assembly(seed, {"slide": "0", "touch": "0", "hole": "0"})
    data = draw(sil, 384, random.Random(seed), pieces=pieces, coloured=True, dark_ground=True,
                blur=0.5, noise=2, jpeg=True)
    got = parse_silhouette(trace_picture(data).text)
    assert same_figure(got, sil), f"read as {got}"


def test_small_coloured_pieces_are_told_from_a_plain_figure():
    # at 160 px and less the dividing lines blur away and the pieces make one region; what
    # tells them from a plain silhouette is how much the level varies well inside the figure
    from plugins.tangram.assembly import random_assembly
    from plugins.tangram.picture import decode, figure_map
    from plugins.tangram.trace import COLOUR_SPREAD, deep_spread, pieces_in_colours
    for seed in (1, 2, 3):
        sil, pieces = random_assembly(seed, {"slide": "0", "touch": "0", "hole": "0"})
        for dark in (False, True):
            for coloured in (False, True):
                data = draw(sil, 128, random.Random(seed), pieces=pieces, coloured=coloured, dark_ground=dark,
                            blur=0.8, noise=6, jpeg=True)
                fig = figure_map(decode(data))
                assert pieces_in_colours(fig) == coloured, (seed, dark, coloured, deep_spread(fig))
                spread = deep_spread(fig)  # and clearly so, on either side
                assert spread > 1.5 * COLOUR_SPREAD if coloured else spread < COLOUR_SPREAD / 1.5


def test_small_coloured_pieces_with_a_slate_piece_on_a_dark_ground_read_near_the_figure():
    # 160 px: the slate piece lies under Otsu's threshold and the lines do not part the
    # pieces; before, the picture was taken as a plain one and refused. Now it is read (the
    # pieces fitted to the evened silhouette) as the figure or, as the bench counts a picture
    # solved, one whose outline lies within 0.25 units of it
    from bench.tangram_pictures import _cover_distance
    from plugins.tangram.assembly import random_assembly
    sil, pieces = random_assembly(4, {"slide": "0", "touch": "0", "hole": "0"})
    data = draw(sil, 160, random.Random(4), pieces=pieces, coloured=True, dark_ground=True,
                blur=0.5, noise=2, jpeg=True)
    got = parse_silhouette(trace_picture(data).text)
    assert same_figure(got, sil) or _cover_distance(got, sil) <= 0.25, f"read as {got}"


class _Scripted(random.Random):
    """A generator that gives the bench's drawing these values in turn (its picture exactly as
    the bench drew it at one step of a run), and these bits for the pixel noise."""

    def __init__(self, values, bits: int):
        super().__init__(0)
        self.values, self.bits = list(values), bits

    def uniform(self, a, b):
        return self.values.pop(0)

    def random(self):
        return self.values.pop(0)

    def getrandbits(self, k):
        return self.bits


def test_a_coloured_picture_whose_pieces_trace_ragged_is_still_fitted_by_its_evened_silhouette(monkeypatch):
    # The bench's random-11002 at 128 px (figure seed 11000, seed 13): coloured pieces on a
    # dark ground, one nearly the ground's colour. The pieces traced apart make an outline of
    # 33 corners, refused at once as "no tangram figure"; the evened silhouette has 25 and is a
    # figure the pieces come close to. The pieces are fitted to that one, and any refusal is
    # its own (with the closest partial cover), not the ragged outline's.
    from plugins.tangram import trace
    from plugins.tangram.assembly import random_assembly

    monkeypatch.setattr(trace, "OUTLINES_UNTIL", 1.0)  # twice the default, not ten times
    monkeypatch.setattr(trace, "READING_BUDGET", 2.7)
    sil, pieces = random_assembly(11002, {"slide": "0.3", "touch": "0.15", "hole": "0.2"})
    # turn, dark ground, coloured, blur, uneven light and its slope, noise: the bench's own
    # values (rounded further, the pixels differ and the pieces trace otherwise)
    values = [1.3378120484680172, 0.0039, 0.2213, 1.0077020884379946, 0.161, 0.6940479681085336,
              0.376505372744969, 7.096706573133302]
    data = draw(sil, 128, _Scripted(values, 1157353064), pieces=pieces)
    try:
        got = parse_silhouette(trace_picture(data).text)
    except InputError as exc:
        assert "corners even once the noise is smoothed out" not in exc.message, exc.message
        assert "partial_cover" in exc.details, exc.message
    else:
        from bench.tangram_pictures import _cover_distance
        assert same_figure(got, sil) or _cover_distance(got, sil) <= 0.25, f"read as {got}"


def test_the_preview_outline_lies_on_the_picture():
    sil = parse_silhouette(PRESETS["cat"])
    result = trace_picture(draw(sil, 300, random.Random(1), blur=0, noise=0, jpeg=False))
    answer = result.to_json()
    assert answer["width"] == answer["height"] == 300
    assert 0 <= answer["moved"] < 0.1
    xs = [x for ring in answer["outline"] for x, _ in ring]
    ys = [y for ring in answer["outline"] for _, y in ring]
    # drawn with a 12% margin: the exact outline fills the middle of the picture
    assert 20 < min(xs) and max(xs) < 280 and 20 < min(ys) and max(ys) < 280
    assert max(max(xs) - min(xs), max(ys) - min(ys)) == pytest.approx(300 * 0.76, abs=4)


def _png(width: int, height: int, colour: int = 255) -> bytes:
    out = io.BytesIO()
    Image.new("L", (width, height), colour).save(out, "PNG")
    return out.getvalue()


def _bomb() -> bytes:
    """A valid PNG header claiming 30,000 x 30,000 pixels, with little data behind it."""
    import struct
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", 30000, 30000, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 30001)) + \
        chunk(b"IEND", b"")


BAD = {
    "non-image": (b"hello, this is text and not a picture", "not a PNG, JPEG, WebP or GIF"),
    "empty": (b"", "empty"),
    "unknown format": (b"BM" + b"\0" * 200, "not a PNG, JPEG, WebP or GIF"),  # a BMP header
    "bomb": (_bomb(), "pixels"),
    "truncated": (_png(400, 300, 0)[:60], "truncated"),
    "no figure": (_png(200, 200), "no figure"),
    "too large": (b"\x89PNG" + b"\0" * (MAX_BYTES + 10), "limit is 5 MB"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_pictures_are_refused_in_words(case):
    data, words = BAD[case]
    with pytest.raises(PictureError) as caught:
        trace_picture(data)
    assert words in caught.value.message
    assert isinstance(caught.value, InputError)  # so the web answers 400 and the CLI exits 2


def test_a_picture_of_no_tangram_figure_is_refused_in_words():
    img = Image.new("L", (200, 200), 255)
    from PIL import ImageDraw
    ImageDraw.Draw(img).ellipse((40, 40, 160, 160), fill=0)  # a disc: no edges at all
    out = io.BytesIO()
    img.save(out, "PNG")
    with pytest.raises(InputError) as caught:
        trace_picture(out.getvalue())
    assert "no exact tangram figure" in caught.value.message


@pytest.mark.parametrize("name", ["cat", "house", "square"])
def test_a_book_figure_with_its_caption_under_it_reads_back_as_the_figure(name):
    # a scanned page: the figure, then its number in print below it (each letter was an outline
    # of its own, and such scans read one figure in twelve)
    from PIL import ImageDraw, ImageFont

    rng = random.Random(name)
    sil = parse_silhouette(PRESETS[name])
    drawn = Image.open(io.BytesIO(draw(sil, 384, rng, jpeg=False, dark_ground=False, coloured=False)))
    page = Image.new("RGB", (384, 450), (245, 243, 236))
    page.paste(drawn.convert("RGB"), (0, 0))
    ImageDraw.Draw(page).text((140, 405), "Fig. 127", fill=(25, 25, 30), font=ImageFont.load_default(size=24))
    out = io.BytesIO()
    page.save(out, "JPEG", quality=70)
    assert same_figure(parse_silhouette(trace_picture(out.getvalue()).text), sil)


def test_a_figure_photographed_at_a_slant_is_straightened_and_read():
    # one side of the picture 12% narrower than the other (a phone tilted by about 12 degrees):
    # refused before the outline was straightened
    sil = parse_silhouette(PRESETS["bird"])
    data = draw(sil, 256, random.Random("bird0"), keystone=0.12, coloured=False)
    traced = trace_picture(data)
    assert same_figure(parse_silhouette(traced.text), sil)
    assert any("taken at a slant" in note for note in traced.notes)


def test_only_bold_small_parts_apart_from_the_figure_are_marks():
    import numpy as np

    from plugins.tangram.picture import small_marks

    level = np.zeros((400, 400), np.float32)
    level[50:250, 50:250] = 1.0  # the figure
    level[330:345, 100:110] = 1.0  # a letter far below it: a mark
    level[330:345, 300:310] = 0.55  # as far, but barely above the threshold: a pale piece's fragment
    level[255:265, 100:110] = 1.0  # small, but next to the figure
    marks = small_marks(level, 0.5)
    assert marks is not None
    assert marks[335, 105] and marks[328, 105]  # the letter, and the glow around it
    assert not marks[335, 305] and not marks[260, 105] and not marks[150, 150]


def test_a_faint_speckled_picture_is_refused_for_its_many_corners():
    # a square barely lighter than the ground under noise of 8 grey levels: the threshold finds
    # the noise's speckles, whose outline has hundreds of corners; it took 3 to 7 seconds to
    # refuse for another reason (sharpening and simplifying every corner again per corner
    # dropped), and is now refused at once for what it is
    import numpy as np
    from PIL import ImageDraw

    img = Image.new("L", (256, 256), 245)
    ImageDraw.Draw(img).polygon([(60, 60), (196, 60), (196, 196), (60, 196)], fill=238)
    speckled = np.asarray(img, np.float32) + np.random.default_rng(1).normal(0, 8, (256, 256))
    out = io.BytesIO()
    Image.fromarray(np.clip(speckled, 0, 255).astype(np.uint8)).save(out, "PNG")
    with pytest.raises(InputError) as caught:
        trace_picture(out.getvalue())
    found = re.search(r"the outline has (\d+) corners even once the noise is smoothed out", caught.value.message)
    assert found and int(found.group(1)) > 23, caught.value.message


def test_cli_trace_and_solve_from_a_picture(tmp_path):
    picture = tmp_path / "figure.png"
    picture.write_bytes(draw(parse_silhouette(PRESETS["house"]), 256, random.Random(2), jpeg=False))
    traced = subprocess.run(PUZZLE + ["tangram", "trace", str(picture)], capture_output=True, text=True)
    assert traced.returncode == 0, traced.stderr
    assert same_figure(parse_silhouette(traced.stdout), parse_silhouette(PRESETS["house"]))
    assert "vertices moved at most" in traced.stderr
    solved = subprocess.run(PUZZLE + ["solve", "tangram", "--image", str(picture)], capture_output=True, text=True)
    assert solved.returncode == 0, solved.stderr
    assert len([line for line in solved.stdout.splitlines() if " @ " in line]) == 7
    # how the picture was read comes before the answer
    assert solved.stdout.startswith("note: read from a 256 x 256 PNG picture as an exact figure; vertices moved")
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not a picture")
    for args in (["tangram", "trace", str(junk)], ["solve", "tangram", "--image", str(junk)],
                 ["solve", "tangram", "--image", str(tmp_path / "missing.png")]):
        bad = subprocess.run(PUZZLE + args, capture_output=True, text=True)
        assert bad.returncode == 2 and bad.stderr.startswith("error: "), (args, bad.stderr)
        assert "Traceback" not in bad.stderr



def test_api_trace_takes_the_body_or_a_multipart_file(tangram_client):
    data = draw(parse_silhouette(PRESETS["square"]), 200, random.Random(4))
    raw = tangram_client.post("/api/tangram/trace", data=data, content_type="image/jpeg")
    assert raw.status_code == 200, raw.get_json()
    body = raw.get_json()
    assert parse_silhouette(body["instance"]) == parse_silhouette(PRESETS["square"])
    assert body["width"] == 200 and body["outline"]
    form = tangram_client.post("/api/tangram/trace", data={"image": (io.BytesIO(data), "square.jpg")},
                               content_type="multipart/form-data")
    assert form.status_code == 200 and form.get_json()["instance"] == body["instance"]
    # the instance text is what the rest of the API takes
    valid = tangram_client.post("/api/tangram/validate", json={"instance": body["instance"]})
    assert valid.status_code == 200


@pytest.mark.parametrize("case", ["non-image", "bomb", "truncated", "unknown format", "empty"])
def test_api_refuses_bad_pictures_with_a_400_in_words(tangram_client, case):
    data, words = BAD[case]
    r = tangram_client.post("/api/tangram/trace", data=data, content_type="application/octet-stream")
    assert r.status_code == 400
    assert words in r.get_json()["error"]


def test_api_refuses_too_large_a_picture_and_puzzles_that_read_none(tangram_client):
    big = tangram_client.post("/api/tangram/trace", data=b"\0" * (MAX_BYTES + 100 * 1024))
    assert big.status_code == 413 and "too large" in big.get_json()["error"]
    pegs = tangram_client.post("/api/pegs/trace", data=_png(50, 50))
    assert pegs.status_code == 400 and "cannot read an instance from a picture" in pegs.get_json()["error"]
    form = tangram_client.post("/api/tangram/trace", data={"note": "no file"}, content_type="multipart/form-data")
    assert form.status_code == 400 and "no file" in form.get_json()["error"]


def test_the_tangram_page_says_the_figure_is_covered():
    from plugins.tangram.puzzle import Tangram
    assert "covered with the seven pieces" in Tangram.solved_sentence


def test_the_bench_measures_a_figure_read_upside_down_as_the_figure_itself():
    # a picture fixes no turn: the figure read may come back turned by any multiple of 45
    # degrees, and is then no distance from the one drawn (turns of 180-315 degrees were missed)
    from bench.tangram_pictures import _cover_distance
    from plugins.tangram.silhouette import symmetric_image
    sil = parse_silhouette(PRESETS["cat"])
    for turns in range(8):
        assert _cover_distance(symmetric_image(sil, turns), sil) < 1e-6, turns


def _rectangle_png(width: int = 300, height: int = 200) -> bytes:
    """A dark 5 x 3 rectangle (area 15 in the pieces' units: no tangram figure) on white."""
    from PIL import ImageDraw
    img = Image.new("L", (width, height), 255)
    ImageDraw.Draw(img).rectangle((50, 50, 250, 170), fill=20)
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def test_api_refusal_shows_the_closest_partial_cover_on_the_picture(tangram_client):
    r = tangram_client.post("/api/tangram/trace", data=_rectangle_png(), content_type="image/png")
    assert r.status_code == 400
    body = r.get_json()
    assert "no exact tangram figure lies near this outline" in body["error"]
    assert re.search(r"the closest fit found places \d pieces?, covering \d+% of the outline", body["error"])
    cover = body["details"]["partial_cover"]
    assert 0 < cover["share"] < 1 and 1 <= len(cover["pieces"]) <= 7
    # in the picture's own pixels (y down): every corner on the drawn rectangle (50-250 by
    # 50-170), give or take the 0.35 units (15 px here) a fit may stray from the drawing
    corners = [p for piece in cover["pieces"] for p in piece]
    assert all(35 <= x <= 265 and 35 <= y <= 185 for x, y in corners), corners
