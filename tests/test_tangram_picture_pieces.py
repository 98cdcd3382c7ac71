"""Pictures of coloured pieces read as the seven pieces they show (trace.drawn_pieces): each
region between the dividing lines made the triangle or quadrilateral it is (trace.piece_shapes)
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


@pytest.fixture(autouse=True)
def budgets_that_do_not_depend_on_load(monkeypatch):
    """Ten times the picture's wall-clock budgets (the colour split stops at the outlines'
    time), so what is read does not depend on a busy machine."""
    for name in ("OUTLINES_UNTIL", "READING_BUDGET"):
        monkeypatch.setattr(trace, name, getattr(trace, name) * 10)


@pytest.mark.parametrize("seed", [2, 8])
def test_coloured_pieces_traced_apart_are_read_as_the_pieces_without_the_outline_readers(seed, without_outline_readers):
    # pieces slid by odd amounts and touching at corners: the outline readers are taken away,
    # so the figure can only come from the seven pieces themselves
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
    fits = trace.piece_shapes(np.asarray(ring), area, turn, unit)
    assert fits and len(fits[0]) == len(model)
    got = fits[0]
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


def _pieces_without_lines(sil, pieces, size: int, rng: random.Random, ground=(30, 30, 40)) -> bytes:
    """The pieces in seven colours, touching with no dividing line between them (a coloured
    tangram app's screenshot), drawn large, turned, and scaled down to ``size`` px as JPEG."""
    import io

    from bench.tangram_pictures import PALETTE
    angle = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(angle), math.sin(angle)
    turn = lambda p: (c * float(p[0]) - s * float(p[1]), s * float(p[0]) + c * float(p[1]))  # noqa: E731
    pts = [turn(p) for r in sil.rings() for p in r]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    big = 4 * size
    k = 0.76 * big / max(max(xs) - min(xs), max(ys) - min(ys))
    ox, oy = big / 2 - k * (max(xs) + min(xs)) / 2, big / 2 + k * (max(ys) + min(ys)) / 2
    img = Image.new("RGB", (big, big), ground)
    d = ImageDraw.Draw(img)
    for i, piece in enumerate(pieces):
        d.polygon([(ox + k * x, oy - k * y) for x, y in map(turn, piece.vertices())], fill=PALETTE[i])
    img = img.resize((size, size), Image.Resampling.LANCZOS).filter(ImageFilter.GaussianBlur(0.6))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=70)
    return out.getvalue()


@pytest.mark.parametrize("seed", [2, 8, 11])
def test_coloured_pieces_with_no_lines_between_them_are_told_apart_by_colour(seed, without_outline_readers):
    # at 128 px, pieces that touch with no line between them form one region of the map: only
    # their colours part them; the outline readers are taken away, so the figure read can only
    # come from the seven pieces told apart by colour
    sil, pieces = random_assembly(seed, {"slide": "0", "touch": "0", "hole": "0"})
    data = _pieces_without_lines(sil, pieces, 128, random.Random(seed))
    fig = trace.figure_map(trace.decode(data))
    unit = trace._prepared(fig).unit
    lines = trace.traced_pieces(fig, unit)
    assert lines is None or len(lines) < 7  # the lines alone do not part them
    read = parse_silhouette(trace.trace_picture(data).text)
    assert same_figure(read, sil) or _cover_distance(read, sil) <= 0.25, f"read as {read}"


def test_colour_regions_part_touching_pieces_down_the_edge_between_them():
    from plugins.tangram.colour_regions import colour_labels
    # a red and a blue square side by side on a dark ground, the edge between them blurred
    img = Image.new("RGB", (200, 120), (30, 30, 40))
    d = ImageDraw.Draw(img)
    d.rectangle((20, 20, 99, 99), fill=(230, 57, 70))
    d.rectangle((100, 20, 179, 99), fill=(58, 134, 255))
    colour = np.asarray(img.filter(ImageFilter.GaussianBlur(2)), dtype=np.float32) / 255
    figure = np.zeros(colour.shape[:2], bool)
    figure[20:100, 20:180] = True
    labels, count = colour_labels(colour, figure)
    assert count == 2
    left, right = labels[60, 50], labels[60, 150]
    assert {left, right} == {1, 2}
    # every point of the figure has its square's label, give or take the blurred column between
    cols_left = np.nonzero((labels == left).any(axis=0))[0]
    assert abs(cols_left.max() - 99) <= 2 and (labels[20:100, 20:180] > 0).all()
    # one colour is one region: no labels for a plain silhouette's single flat place
    flat = np.zeros_like(colour) + np.array([0.9, 0.9, 0.9], np.float32)
    assert colour_labels(flat, figure) is None
