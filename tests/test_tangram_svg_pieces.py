"""SVG exported by other programs as the seven drawn pieces (seven <polygon>s): read as their
union, exactly when the coordinates are exact, and across small gaps between pieces otherwise.
The pieces come from the solver's own cover of a preset, so the union is known independently:
it must be the preset."""

from __future__ import annotations

import math
import random

import pytest

from bench.tangram_pictures import _cover_distance, same_figure
from engine import InputError, SolveContext, Solved
from plugins.tangram.figures import PRESETS
from plugins.tangram.pieces import parse_placement
from plugins.tangram.silhouette import parse_silhouette
from plugins.tangram.solver import ExactSolver
from plugins.tangram.svg import silhouette_from_svg


@pytest.fixture(autouse=True)
def budgets_that_do_not_depend_on_load(monkeypatch):
    """Wall-clock budgets ten times longer, as in test_tangram_picture.py: the tests check what
    is read, the bench how fast."""
    from plugins.tangram import decimals, reading
    monkeypatch.setattr(reading, "BUDGET", reading.BUDGET * 10)
    monkeypatch.setattr(reading, "READ_BUDGET", reading.READ_BUDGET * 10)
    monkeypatch.setattr(decimals, "CANDIDATE_BUDGET", decimals.CANDIDATE_BUDGET * 10)


def _pieces(name: str) -> list[list[tuple[float, float]]]:
    """The seven pieces of the solver's cover of a preset, as float polygons."""
    out = ExactSolver().solve(parse_silhouette(PRESETS[name]), SolveContext.with_timeout(30))
    assert isinstance(out, Solved)
    return [[(float(x), float(y)) for x, y in parse_placement(m).vertices()] for m in out.moves]


def _svg(polys: list[list[tuple[float, float]]], digits: int = 6) -> str:
    body = "".join('<polygon points="' + " ".join(f"{x:.{digits}f},{-y:.{digits}f}" for x, y in p) + '"/>'
                   for p in polys)
    return f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>'


@pytest.mark.parametrize("name", ["cat", "house", "assembly-hole"])
def test_seven_exact_pieces_read_exactly_as_their_union(name):
    sil = silhouette_from_svg(_svg(_pieces(name)))
    assert same_figure(sil, parse_silhouette(PRESETS[name]))
    assert sil.messages[0] == "read as the union of 7 drawn pieces"  # the exact path, not a fit


@pytest.mark.parametrize("name", ["cat", "house", "assembly-hole"])
def test_seven_pieces_with_small_gaps_turned_and_scaled_read_as_the_preset(name):
    rng = random.Random(name)
    angle, scale = rng.uniform(0, 2 * math.pi), 37.3
    c, s = math.cos(angle), math.sin(angle)
    polys = []
    for piece in _pieces(name):
        # each piece shrunk towards its middle by 0.03 units, so neighbours leave a gap of
        # about 0.06 units between them, then turned and scaled like any drawing
        mx = sum(x for x, _ in piece) / len(piece)
        my = sum(y for _, y in piece) / len(piece)
        shrunk = []
        for x, y in piece:
            d = math.hypot(x - mx, y - my)
            x, y = x - 0.03 * (x - mx) / d, y - 0.03 * (y - my) / d
            shrunk.append((scale * (c * x - s * y) + 200, scale * (s * x + c * y) - 300))
        polys.append(shrunk)
    sil = silhouette_from_svg(_svg(polys, digits=3))
    # each polygon is read as its piece; the house's square, tied to its neighbours along one
    # edge only, comes back a little slid (0.09 units): a figure still within 0.25 units
    preset = parse_silhouette(PRESETS[name])
    assert same_figure(sil, preset) or (name == "house" and _cover_distance(sil, preset) <= 0.25)
    assert any("read as an exact figure" in m for m in sil.messages)


@pytest.mark.parametrize("name", ["cat", "house", "swan", "assembly-touch", "assembly-slid", "assembly-hole-slid"])
def test_seven_pieces_each_drawn_by_hand_are_read_as_those_pieces(name):
    # every corner of every piece moved on its own by up to 0.08 units (pieces open gaps and
    # overlap), turned and scaled: each polygon is read as the piece it is, and the pieces'
    # contacts give back the preset. Pieces touching at a corner (assembly-touch) make rings
    # that look nested to a point-in-ring test; they are pieces all the same
    rng = random.Random(name)
    angle, scale = rng.uniform(0, 2 * math.pi), rng.uniform(5, 80)
    c, s = math.cos(angle), math.sin(angle)
    polys = []
    for piece in _pieces(name):
        drawn = []
        for x, y in piece:
            r, a = 0.08 * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
            x, y = x + r * math.cos(a), y + r * math.sin(a)
            drawn.append((scale * (c * x - s * y) + 50, scale * (s * x + c * y) - 90))
        polys.append(drawn)
    sil = silhouette_from_svg(_svg(polys, digits=3))
    # a slide of 3/4 r2 and one of 1 lie 0.06 units apart, within this noise: a slid piece may
    # come back at the simpler slide nearby, a figure the pieces still cover within 0.25 units
    preset = parse_silhouette(PRESETS[name])
    assert same_figure(sil, preset) or _cover_distance(sil, preset) <= 0.25
    assert sil.messages[0] == "read as the union of 7 drawn pieces"
    assert "read as an exact figure; vertices moved at most" in sil.messages[1]


def test_seven_polygons_that_are_not_the_pieces_are_not_read_as_pieces():
    # seven squares of area 16/7 tile a 16-unit strip... but no tangram piece is such a square:
    # the polygons are left to the outline readers, which refuse the strip's outline in words
    side = math.sqrt(16 / 7)
    polys = [[(i * side, 0.0), ((i + 1) * side, 0.0), ((i + 1) * side, side), (i * side, side)] for i in range(7)]
    with pytest.raises(InputError) as refused:
        silhouette_from_svg(_svg(polys, digits=4))
    assert "drawn pieces" not in refused.value.message


def test_an_outline_with_a_hole_is_still_read_as_rings_not_pieces():
    # two nested squares: an outline and its hole, whose areas do not add up to more than the
    # region they enclose; read exactly as before (area 25 - 9 = 16)
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><polygon points="0,0 5,0 5,5 0,5"/>'
           '<polygon points="1,1 4,1 4,4 1,4"/></svg>')
    sil = silhouette_from_svg(svg)
    assert len(sil.components) == 1 and len(sil.components[0].holes) == 1
