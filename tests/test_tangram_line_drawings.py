"""Figures drawn as lines (plugins/tangram/line_drawing.py): a pen tracing of a figure's
outline, holes included, and a solution drawn with every piece's edges, both as photographed
pencil-and-paper pictures by the bench's generator (bench/tangram_pictures.py --lines), read
back and checked against the figure drawn."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bench.tangram_pictures import _cover_distance, draw, same_figure
from plugins.tangram import reading, trace
from plugins.tangram.assembly import random_assembly
from plugins.tangram.figures import PRESETS
from plugins.tangram.line_drawing import line_drawing
from plugins.tangram.picture import decode, figure_map
from plugins.tangram.silhouette import parse_silhouette


@pytest.fixture(autouse=True)
def budgets_that_do_not_depend_on_load(monkeypatch):
    """Ten times the wall-clock budgets, so what is read does not depend on a busy machine
    (how fast it reads is bench/tangram_pictures.py)."""
    from plugins.tangram import decimals
    for name in ("BUDGET", "PIECE_BUDGET", "READ_BUDGET"):
        monkeypatch.setattr(reading, name, getattr(reading, name) * 10)
    monkeypatch.setattr(decimals, "CANDIDATE_BUDGET", decimals.CANDIDATE_BUDGET * 10)
    for name in ("OUTLINES_UNTIL", "READING_BUDGET"):
        monkeypatch.setattr(trace, name, getattr(trace, name) * 10)


@pytest.mark.parametrize("name", ["cat", "swan", "house", "assembly-hole"])
def test_a_pen_tracing_of_the_outline_reads_back_as_the_figure(name):
    # assembly-hole has a hole whose outline touches the figure's at a corner: the places
    # alternate (figure, hole) from the outside in, and a corner is not a border
    sil = parse_silhouette(PRESETS[name])
    data = draw(sil, 256, random.Random(5), lines="outline", pen=2.0, jpeg=True)
    fig = figure_map(decode(data))
    assert fig.inset > 0  # taken for a drawing in lines, its outline half a pen inside the ink
    got = parse_silhouette(trace.trace_picture(data).text)
    # the figure, or one within the tolerance of it (a hand's corners are 0.05 off)
    assert same_figure(got, sil) or _cover_distance(got, sil) <= 0.25, f"{name} read as {got}"


@pytest.mark.parametrize("seed", [3, 6])
def test_a_drawn_solution_is_read_as_its_seven_pieces(seed, without_outline_readers):
    # every piece's edges drawn by hand, a hole among them: the outline readers are taken
    # away, so the figure can only come from the places between the lines read as pieces
    sil, pieces = random_assembly(seed, {"slide": "0", "touch": "0", "hole": "1"})
    data = draw(sil, 256, random.Random(seed), pieces=pieces, lines="pieces", pen=2.0, jpeg=True)
    fig = figure_map(decode(data))
    assert fig.places is not None and int(fig.places.max()) in (7, 8)
    got = parse_silhouette(trace.trace_picture(data).text)
    assert same_figure(got, sil) or _cover_distance(got, sil) <= 0.25, f"read as {got}"


def test_a_filled_silhouette_is_not_taken_for_a_line_drawing():
    sil = parse_silhouette(PRESETS["assembly-hole"])  # a hole encloses ground too
    data = draw(sil, 256, random.Random(2), jpeg=False, coloured=False, dark_ground=False)
    fig = figure_map(decode(data))
    assert fig.inset == 0 and fig.places is None
    level = np.zeros((200, 200), np.float32)
    level[50:150, 50:150] = 1.0
    level[90:110, 90:110] = 0.0  # a small hole: encloses little against the ink
    assert line_drawing(level, 0.5) is None


def test_the_web_api_reads_a_pen_tracing_and_draws_its_outline_on_the_pen_line(tangram_client):
    sil = parse_silhouette(PRESETS["square"])
    data = draw(sil, 240, random.Random(8), lines="outline", pen=2.5, jpeg=True)
    answer = tangram_client.post("/api/tangram/trace", data=data, content_type="image/jpeg")
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert parse_silhouette(body["instance"]) == sil
    # the preview's outline runs along the middle of the pen's line, where the ink is darkest
    # (paper is about 245, the ink's middle under 80, its outer edge, half a pen out, about 140)
    from scipy.ndimage import map_coordinates
    picture = np.asarray(decode(data).convert("L"), dtype=np.float32)
    ring = body["outline"][0]
    samples = [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
               for a, b in zip(ring, ring[1:] + ring[:1]) for t in np.linspace(0.1, 0.9, 20)]
    along = map_coordinates(picture, [[y for _x, y in samples], [x for x, _y in samples]], order=1)
    assert float(np.median(along)) < 100, float(np.median(along))


def test_a_filled_figure_in_a_drawn_frame_or_a_grid_is_no_line_drawing():
    # a frame is thin ink enclosing a great deal, but the figure inside it is deep ink
    level = np.zeros((300, 300), np.float32)
    level[10:290, 10:13] = level[10:290, 287:290] = level[10:13, 10:290] = level[287:290, 10:290] = 1.0
    level[100:200, 100:200] = 1.0
    assert line_drawing(level, 0.5) is None
    # a fine grid of thin lines encloses hundreds of places: not a drawing of seven pieces
    grid = np.zeros((400, 400), np.float32)
    grid[::12, :] = grid[:, ::12] = 1.0
    grid[:, 396:] = grid[396:, :] = 0.0  # the picture's border stays ground
    assert line_drawing(grid, 0.5) is None
    # and the pen tracing of a square's outline is one
    square = np.zeros((300, 300), np.float32)
    square[50:250, 50:53] = square[50:250, 247:250] = square[50:53, 50:250] = square[247:250, 50:250] = 1.0
    found = line_drawing(square, 0.5)
    assert found is not None and 1.0 <= found.half_pen <= 2.0 and int(found.places.max()) == 1
