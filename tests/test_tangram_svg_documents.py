"""SVG documents as drawing programs write them: transforms on shapes and groups, shapes
reused with <use>, rectangles, a background, hidden shapes, straight edges written as flat
curves. Each is read as the browser draws it, so it must give the same figure as the plain
polygons of the same drawing (known independently: the solver's own cover of a preset)."""

from __future__ import annotations

import math

import pytest

from bench.tangram_pictures import same_figure
from engine import InputError, SolveContext, Solved
from plugins.tangram.figures import PRESETS
from plugins.tangram.pieces import parse_placement
from plugins.tangram.silhouette import parse_silhouette
from plugins.tangram.solver import ExactSolver
from plugins.tangram.svg import drawn_rings, silhouette_from_svg

SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">{}</svg>'
UNIT = 40.0  # pixels per unit, as a drawing program might have it


def _pieces(name: str) -> list[list[tuple[float, float]]]:
    """The seven pieces of the solver's cover of a preset, in SVG pixels (y down)."""
    out = ExactSolver().solve(parse_silhouette(PRESETS[name]), SolveContext.with_timeout(30))
    assert isinstance(out, Solved)
    return [[(UNIT * float(x), -UNIT * float(y)) for x, y in parse_placement(m).vertices()] for m in out.moves]


def _points(poly) -> str:
    return " ".join(f"{x:.6f},{y:.6f}" for x, y in poly)


def _turned(poly, degrees: float, cx: float, cy: float):
    """The polygon turned by -degrees about (cx, cy): drawn with rotate(degrees cx cy), it is back."""
    a = math.radians(-degrees)
    c, s = math.cos(a), math.sin(a)
    return [(cx + c * (x - cx) - s * (y - cy), cy + s * (x - cx) + c * (y - cy)) for x, y in poly]


def test_each_piece_turned_and_moved_by_its_own_transform_reads_as_the_preset():
    plain = silhouette_from_svg(SVG.format("".join(f'<polygon points="{_points(p)}"/>' for p in _pieces("cat"))))
    body = []
    for k, poly in enumerate(_pieces("cat")):
        # as an editor leaves a piece the user turned and dragged: the points as first drawn,
        # the turn and the move in the transform (inside a group moved as a whole)
        angle, (dx, dy) = 30.0 * k + 15.0, (7.0 * k, -3.0 * k)
        local = [(x - dx, y - dy) for x, y in _turned(poly, angle, poly[0][0], poly[0][1])]
        cx, cy = local[0]
        body.append(f'<polygon transform="translate({dx - 100} {dy + 50}) rotate({angle} {cx + 0} {cy + 0})" '
                    f'points="{_points(local)}"/>')
    doc = SVG.format('<g transform="translate(100,-50)">' + "".join(body) + "</g>")
    assert same_figure(silhouette_from_svg(doc), plain)
    assert same_figure(plain, parse_silhouette(PRESETS["cat"]))


def test_a_piece_reused_with_use_and_a_background_rectangle_are_read_as_drawn():
    square = [(0.0, 0.0), (UNIT * 4, 0.0), (UNIT * 4, UNIT * 4), (0.0, UNIT * 4)]
    doc = SVG.format('<rect width="1000" height="1000" fill="white"/>'
                     f'<defs><polygon id="sq" points="{_points(square)}"/></defs>'
                     '<use xlink:href="#sq" transform="translate(200 300) rotate(45)"/>'
                     '<path d="M 0 0 L 5 5 L 0 5 Z" style="display:none"/>'
                     '<path d="M 0 0 L 5 5 L 0 5 Z" visibility="hidden"/>')
    rings = drawn_rings(doc)
    assert len(rings) == 1  # not the background, the definition, or the hidden paths
    assert (round(rings[0][0][0]), round(rings[0][0][1])) == (200, 300)
    sil = silhouette_from_svg(doc)
    assert same_figure(sil, parse_silhouette("outer 0,0 4,0 4,4 0,4"))  # the square, turned by 45 degrees


def test_a_square_drawn_as_a_rectangle_is_read():
    doc = SVG.format('<rect x="10" y="20" width="160" height="160"/>')
    assert same_figure(silhouette_from_svg(doc), parse_silhouette("outer 0,0 4,0 4,4 0,4"))


def test_straight_edges_written_as_flat_curves_are_straight_and_a_curve_is_refused():
    flat = SVG.format('<path d="M 0 0 C 40 0 120 0 160 0 Q 160 80 160 160 L 0 160 z"/>')
    assert same_figure(silhouette_from_svg(flat), parse_silhouette("outer 0,0 4,0 4,4 0,4"))
    curved = SVG.format('<path d="M 0 0 C 40 30 120 30 160 0 L 160 160 L 0 160 z"/>')
    with pytest.raises(InputError, match="curved edge"):
        silhouette_from_svg(curved)


@pytest.mark.parametrize("name", ["house", "cat", "convex-hexagon", "swan"])
def test_a_figure_traced_from_a_scan_by_a_bitmap_tracer_reads_back_as_the_figure(name):
    # as potrace or Inkscape's Trace Bitmap write it: one path of relative moves in tenths of a
    # pixel under a flipping transform, every obtuse corner rounded by a curve a pixel or two
    # long (such curves were refused as "curved edges"), at 30 px a unit, a pixel's noise
    import random

    from bench.tangram_inputs import as_traced_svg

    rng = random.Random(name)
    exact = parse_silhouette(PRESETS[name])
    rings = [[(30 * float(x) + rng.uniform(-0.5, 0.5), 30 * float(y) + rng.uniform(-0.5, 0.5)) for x, y in r]
             for r in exact.rings()]
    doc = as_traced_svg(rings, rng)
    assert any(word.startswith("c") for word in doc.split(' d="')[1].split())  # it has curves
    assert same_figure(silhouette_from_svg(doc), exact)


def test_a_curve_is_judged_against_the_figure_not_its_frame_and_a_point_curve_is_no_ring():
    k = 0.5523 * 40  # a circle of radius 40 drawn as four curves, in a 2000 px frame
    circle = (f'<path d="M140,100 C140,{100 + k} {100 + k},140 100,140 C{100 - k},140 60,{100 + k} 60,100 '
              f'C60,{100 - k} {100 - k},60 100,60 C{100 + k},60 140,{100 - k} 140,100 Z"/>')
    frame = '<rect x="0" y="0" width="2000" height="2000" fill="none" stroke="black"/>'
    with pytest.raises(InputError, match="curved edge"):
        silhouette_from_svg(SVG.format(frame + circle))
    for point in ('<path d="M5,5 C5,5 5,5 5,5 Z"/>', '<path d="M5,5 Q5,5 5,5"/>'):
        with pytest.raises(InputError, match="no polygon, polyline, rectangle or path"):
            silhouette_from_svg(SVG.format(point))


def test_a_document_with_nothing_to_read_is_refused_in_words():
    with pytest.raises(InputError, match="no polygon, polyline, rectangle or path"):
        silhouette_from_svg(SVG.format('<circle r="3"/><text>cat</text>'))
    with pytest.raises(InputError, match="cannot read the SVG"):
        silhouette_from_svg("<svg><polygon points='0,0 1,0 1,1'></svg>")


def test_documents_that_would_be_costly_or_break_the_parser_are_refused_in_words():
    nested = ('<defs><polygon id="p0" points="0,0 1,0 1,1"/>'
              + "".join(f'<g id="p{i + 1}"><use xlink:href="#p{i}"/><use xlink:href="#p{i}"/></g>' for i in range(20))
              + '</defs><use xlink:href="#p20"/>')  # 2**20 triangles if expanded
    with pytest.raises(InputError, match="nested uses are not read"):
        silhouette_from_svg(SVG.format(nested))
    with pytest.raises(InputError, match="nested uses are not read"):
        silhouette_from_svg(SVG.format('<g id="a"><use href="#a"/></g>'))
    with pytest.raises(InputError, match="at most 50 are read"):
        silhouette_from_svg(SVG.format('<defs><polygon id="t" points="0,0 1,0 1,1"/></defs>'
                                       + '<use xlink:href="#t"/>' * 60))
    with pytest.raises(InputError, match="at most 200 shapes"):
        silhouette_from_svg(SVG.format('<polygon points="0,0 1,0 1,1"/>' * 300))
    with pytest.raises(InputError, match="cannot read the SVG"):  # the parser's own error, in words
        silhouette_from_svg(SVG.format('<polygon points="0,0 40,0 40,40" transform="rotate(abc)"/>'))


def test_an_svg_file_handed_in_as_a_picture_is_read_as_the_drawing(tmp_path):
    # puzzle solve --image, puzzle tangram trace and POST /api/tangram/trace take files people
    # have: an SVG among them (with a byte-order mark, a declaration and a comment first)
    from click.testing import CliRunner

    from plugins.tangram.commands import tangram_group
    from plugins.tangram.puzzle import Tangram
    from plugins.tangram.svg import is_svg

    doc = ('\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n'
           + SVG.format("".join(f'<polygon points="{_points(p)}"/>' for p in _pieces("cat")))).encode()
    assert is_svg(doc) and not is_svg(b"\x89PNG\r\n\x1a\n") and not is_svg(b"<html><svg/></html>")
    answer = Tangram().read_picture(doc)
    assert same_figure(parse_silhouette(answer["instance"]), parse_silhouette(PRESETS["cat"]))
    assert "read as the union of 7 drawn pieces" in answer["notes"]
    with pytest.raises(InputError, match="no polygon, polyline, rectangle or path"):
        Tangram().read_picture(SVG.format('<circle r="4"/>').encode())
    (tmp_path / "cat.svg").write_bytes(doc)
    result = CliRunner().invoke(tangram_group, ["trace", str(tmp_path / "cat.svg")])
    assert result.exit_code == 0
    assert same_figure(parse_silhouette(result.stdout.splitlines()[0]), parse_silhouette(PRESETS["cat"]))
