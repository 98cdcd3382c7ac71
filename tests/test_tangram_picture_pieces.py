"""Pictures of coloured pieces read as the seven pieces they show (trace.drawn_pieces): each
region between the dividing lines made the triangle or quadrilateral it is (trace.piece_shape)
and the seven matched to the pieces and made exact (drawn_pieces.py), before any outline is
read. The figures are random assemblies drawn by the bench's own generator, so what is read
back is checked against the figure drawn."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter
from skimage import measure

from bench.tangram_pictures import _cover_distance, draw, same_figure
from plugins.tangram import trace
from plugins.tangram.assembly import random_assembly
from plugins.tangram.silhouette import parse_silhouette


@pytest.mark.parametrize("seed", [2, 8])
def test_coloured_pieces_traced_apart_are_read_as_the_pieces_without_the_outline_readers(seed, monkeypatch):
    # pieces slid by odd amounts and touching at corners: the outline readers are taken away,
    # so the figure can only come from the seven pieces themselves
    def no_outline(*_args, **_kwargs):
        raise AssertionError("the outline was read")
    monkeypatch.setattr(trace, "read_noisy", no_outline)
    monkeypatch.setattr(trace, "read_by_pieces", no_outline)
    sil, pieces = random_assembly(seed, {"slide": "0.5", "touch": "0.3", "hole": "0"})
    data = draw(sil, 320, random.Random(seed), pieces=pieces, coloured=True, blur=0.5, noise=3, jpeg=True)
    got = trace.trace_picture(data)
    # a slide by an odd amount is read as a simple exact one near it: the figure, or one whose
    # outline lies within a tenth of a unit of it
    read = parse_silhouette(got.text)
    assert same_figure(read, sil) or _cover_distance(read, sil) <= 0.1, f"read as {got.text}"
    assert got.moved < 0.15
    # the preview's exact outline lies on the picture's figure: every corner within 2 px of a traced piece
    from shapely.geometry import Point, Polygon
    from shapely.ops import unary_union
    traced = unary_union([Polygon(r) for r in got.traced])
    assert max(traced.distance(Point(p)) for r in got.outline for p in r) < 2.0


def _blurred_polygon(points, size: int = 200, blur: float = 1.5) -> np.ndarray:
    """A light polygon on black, anti-aliased and blurred, as a float map (0 to 1)."""
    img = Image.new("L", (size * 4, size * 4), 0)
    ImageDraw.Draw(img).polygon([(4 * x, 4 * y) for x, y in points], fill=255)
    img = img.resize((size, size), Image.Resampling.LANCZOS).filter(ImageFilter.GaussianBlur(blur))
    return np.asarray(img, dtype=np.float64) / 255


@pytest.mark.parametrize("shape", ["triangle", "parallelogram"])
def test_a_blurred_piece_becomes_the_polygon_it_is_with_sharp_corners(shape):
    turn = math.radians(17)
    unit = 30.0
    model = {"triangle": [(0, 0), (4, 0), (2, 2)], "parallelogram": [(0, 0), (2, 0), (3, 1), (1, 1)]}[shape]
    c, s = math.cos(turn), math.sin(turn)
    corners = [(60 + unit * (c * x - s * y), 40 + unit * (s * x + c * y)) for x, y in model]
    level = _blurred_polygon(corners)
    rng = np.random.default_rng(1)
    level = level + rng.normal(0, 0.03, level.shape)  # wavy edges, as noise and JPEG make them
    contour = max(measure.find_contours(level, 0.5), key=len)
    ring = [(float(col), float(row)) for row, col in contour]  # x right, y down
    area = trace._area(ring)
    got = trace.piece_shape(np.asarray(ring), area, turn, unit)
    assert got is not None and len(got) == len(model)
    # blur rounds the corners by a few pixels; the lines met put them back within a pixel
    assert max(min(math.dist(p, q) for q in corners) for p in got) < 1.0


def test_pieces_parted_by_a_faint_gap_are_joined_where_they_touch():
    # the seven pieces of a figure, each shrunk towards its middle by a pixel (a faint line
    # the map does not show, so no width is measured from it): the gap between them is
    # measured from the pieces, and the pieces read back touch as in the figure
    sil, pieces = random_assembly(3, {"slide": "0", "touch": "0", "hole": "0"})
    unit, shrink = 20.0, 1.0
    traced = []
    for piece in pieces:
        pts = [(unit * float(x), -unit * float(y)) for x, y in piece.vertices()]  # y down
        mx, my = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
        inradius = 2 * abs(trace._area(pts)) / sum(math.dist(a, b) for a, b in zip(pts, pts[1:] + pts[:1]))
        k = 1 - shrink / inradius if len(pts) == 3 else 1 - shrink / (unit / 2)
        pts = [(mx + k * (x - mx), my + k * (y - my)) for x, y in pts]
        if trace._area(pts) < 0:
            pts = pts[::-1]
        traced.append(trace.TracedPiece(pts, trace._area(pts), True, True, pts))
    assert trace.piece_gap([p.points for p in traced]) > 1.0
    found = trace.drawn_pieces(traced, 0.0)
    assert found is not None
    from plugins.tangram.assembly import union_silhouette
    assert same_figure(union_silhouette(found[0].pieces), sil)
