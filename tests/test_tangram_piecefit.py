"""Reading a drawing by fitting the seven pieces to it (plugins/tangram/piecefit.py) and making
the fit exact from the pieces' contacts (plugins/tangram/contacts.py)."""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

import plugins.tangram.assembly as assembly
import plugins.tangram.reading as reading
from engine import InputError, SolveContext, Solved
from plugins.tangram.assembly import random_assembly, union_silhouette
from plugins.tangram.contacts import FloatPlacement, exact_placements, refitted
from plugins.tangram.cover_check import is_exact_cover
from plugins.tangram.decimals import coverable
from plugins.tangram.outline import hausdorff
from plugins.tangram.pieces import parse_placement
from plugins.tangram.silhouette import format_silhouette, parse_exact_text, parse_silhouette
from plugins.tangram.solver import ExactSolver


def _floats(pieces, wobble: float = 0.0, seed: int = 0) -> list[FloatPlacement]:
    rng = random.Random(seed)
    return [FloatPlacement(p.name, p.rot, p.flip, float(p.x) + rng.uniform(-wobble, wobble),
                           float(p.y) + rng.uniform(-wobble, wobble)) for p in pieces]


@pytest.mark.parametrize("seed", range(30))
def test_exact_positions_give_back_the_assembly(seed):
    # the pieces where an assembly put them, as floats: touching where they touch, slid by
    # the halves, thirds and quarters the assembly slid them by
    figure, pieces = random_assembly(seed)
    got = exact_placements(_floats(pieces), noise=0.002)
    assert got is not None
    dx, dy = pieces[0].x - got[0].x, pieces[0].y - got[0].y
    moved_back = [p.moved(dx, dy) for p in got]
    assert format_silhouette(union_silhouette(moved_back)) == format_silhouette(figure)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), wobble=st.floats(0.0, 0.15))
def test_exact_positions_never_overlap(seed, wobble):
    # pieces knocked about by up to 0.15 units: whatever comes back is a valid placement
    _figure, pieces = random_assembly(seed)
    got = exact_placements(_floats(pieces, wobble, seed), noise=max(0.002, wobble / 2))
    if got is not None:
        union_silhouette(got)  # raises on any overlap


def test_refitting_the_slides_to_the_outline_brings_the_pieces_nearer_it(monkeypatch):
    # pieces slid by 37/100 of an edge, each knocked about by up to 0.1 units, made exact from
    # their contacts: each slide is where its float piece was. Refitted to the true outline,
    # the slides move back towards it and the union lies nearer the outline
    monkeypatch.setattr(assembly, "_SLIDES", (Fraction(37, 100),))
    before, after = [], []
    for seed in range(12):
        figure, pieces = random_assembly(seed, {"slide": "1", "touch": "0", "hole": "0"})
        placed = exact_placements(_floats(pieces, 0.1, seed), noise=0.06)
        assert placed is not None
        ox, oy = float(pieces[0].x), float(pieces[0].y)
        outline = [[(float(x) - ox, float(y) - oy) for x, y in r] for r in figure.rings()]
        far = hausdorff(_float_rings(union_silhouette(placed)), outline)
        better = refitted(placed, outline, noise=0.06)
        nearer = far if better is None else hausdorff(_float_rings(union_silhouette(better)), outline)
        before.append(far)
        after.append(nearer)
    assert statistics.median(after) <= 0.6 * statistics.median(before), (before, after)


def _float_rings(figure) -> list[list[tuple[float, float]]]:
    return [[(float(x), float(y)) for x, y in r] for r in figure.rings()]


def _slid_by(seed: int, slide: Fraction):
    """A figure whose pieces are each slid along the edge they join by ``slide`` of it, as a
    person lays them (not the halves, thirds and quarters the presets use)."""
    kept = assembly._SLIDES
    assembly._SLIDES = (slide,)
    try:
        return random_assembly(seed, {"slide": "1", "touch": "0", "hole": "0"})[0]
    finally:
        assembly._SLIDES = kept


def _drawn(figure, noise: float, seed: int) -> list[list[tuple[float, float]]]:
    rng = random.Random(seed)
    out = []
    for ring in figure.rings():
        pts = []
        for x, y in ring:
            r, t = noise * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
            pts.append((3 * (float(x) + r * math.cos(t)) + 10, 3 * (float(y) + r * math.sin(t)) - 4))
        out.append(pts)
    return out


@pytest.mark.parametrize("seed", [2, 3, 4, 7, 9, 11])
def test_pieces_slid_by_any_amount_are_read_and_covered(monkeypatch, seed):
    # Every piece slid by 37/100 of an edge, each corner moved by up to 0.05 units: the exact
    # outline search finds no outline of these (its lengths are the pieces' sums and simple
    # slides), the pieces fitted to the drawing do. Generous budgets: what is read must not
    # depend on how busy the machine is.
    monkeypatch.setattr(reading, "PIECE_BUDGET", 20.0)
    monkeypatch.setattr(reading, "READ_BUDGET", 30.0)
    rings = _drawn(_slid_by(seed, Fraction(37, 100)), 0.05, seed)
    got = reading.read_noisy(rings, accept=coverable)
    assert got.moved <= reading.MAX_MOVED
    exact = [[(float(x), float(y)) for x, y in ring] for ring in got.exact_rings]
    assert hausdorff(exact, got.fitted) <= reading.MAX_MOVED
    figure = parse_exact_text(got.text)
    out = ExactSolver().solve(figure, SolveContext.with_timeout(30))
    assert isinstance(out, Solved)
    assert is_exact_cover(figure, [parse_placement(m) for m in out.moves])


def test_an_outline_no_pieces_make_is_refused_with_the_closest_partial_cover(monkeypatch):
    # a 5 x 3 rectangle has area 15: scaled to 16 it is 5.16 x 3.10, which neither an exact
    # outline nor the seven pieces come within 0.35 units of
    rings = [[(0.0, 0.0), (50.0, 0.0), (50.0, 30.0), (0.0, 30.0)]]
    # (the first partial fit is there after a few milliseconds; the budgets leave room for a
    # busy machine, and a refusal takes its whole budget)
    got, partial = reading._read_by_pieces(reading.normalise(rings), coverable, 2.0)
    assert got is None
    assert partial is not None and 0 < partial.share < 1
    # the partial cover's pieces are real pieces, apart, within the rectangle (figure units)
    shapes = [Polygon(piece) for piece in partial.pieces]
    assert 1 <= len(shapes) <= 7  # all seven, when they come near but not near enough
    assert sum(s.area for s in shapes) == pytest.approx(partial.share * 16, rel=0.05)
    assert all(a.intersection(b).area < 0.05 for i, a in enumerate(shapes) for b in shapes[i + 1:])
    monkeypatch.setattr(reading, "PIECE_BUDGET", 4.0)  # the same on a busy machine
    monkeypatch.setattr(reading, "READ_BUDGET", 4.0)
    words = r"the closest fit found places \d pieces?, covering \d+% of the outline"
    with pytest.raises(InputError, match=words) as caught:
        parse_silhouette("outer 0,0 50.0,0 50.0,30.0 0,30.0")
    cover = caught.value.details["partial_cover"]
    assert 1 <= len(cover["pieces"]) <= 7 and 0 < cover["share"] < 1
    # in the input's own units: every corner of the cover lies on the 50 x 30 rectangle, give
    # or take the 0.35 units (3.4 here: a unit is about 9.7) a fit may stray from the drawing
    assert all(-3.5 < x < 53.5 and -3.5 < y < 33.5 for piece in cover["pieces"] for x, y in piece)


def _gap_between(placed) -> float:
    return float(placed[1].x) - float(placed[0].x) - math.sqrt(2)


def test_pieces_are_not_made_to_touch_across_a_slit_the_drawing_shows():
    # two squares side by side 0.03 apart, nearer than the noise lets a gap be told from a
    # contact: where the drawing is solid between them they touch; where it shows the slit
    # (open above a short bridge) they stay apart, so the figure keeps its slit
    from shapely.geometry import box

    r2 = math.sqrt(2)
    pieces = [FloatPlacement("Q", 0, 0, 0.0, 0.0), FloatPlacement("Q", 0, 0, r2 + 0.03, 0.5)]
    solid = box(0, 0, 2 * r2 + 0.03, 1.914)
    slit = box(0, 0, r2, r2).union(box(r2 + 0.03, 0.5, 2 * r2 + 0.03, r2 + 0.5)).union(box(r2, 0.5, r2 + 0.03, 0.7))
    touching = exact_placements(pieces, noise=0.02, drawn=solid)
    apart = exact_placements(pieces, noise=0.02, drawn=slit)
    assert touching is not None and apart is not None
    assert _gap_between(touching) == 0
    assert 0.01 < _gap_between(apart) < 0.05


def _a_square_and_a_triangle_a_sixth_apart() -> list[FloatPlacement]:
    # the square, and the middle triangle to its right with its upright edge along the
    # square's right edge, slid a sixth of a unit away from it (drawn a little off, as a
    # noisy corner puts a piece)
    r2 = math.sqrt(2)
    return [FloatPlacement("Q", 0, 0, 0.0, 0.0), FloatPlacement("M", 0, 0, r2 + 1 / 6 + 0.012, -0.009)]


def test_pieces_a_slide_apart_touch_only_within_the_touching_distance():
    # under noise of 0.08 the pieces count as touching within 0.2 units, so the sixth between
    # them is closed; asked to take as touching only what lies within 0.12, the sixth stays
    pieces = _a_square_and_a_triangle_a_sixth_apart()
    closed = exact_placements(pieces, noise=0.08)
    kept = exact_placements(pieces, noise=0.08, touch=0.12)
    assert closed is not None and kept is not None
    assert _gap_between(closed) == 0
    assert abs(_gap_between(kept) - 1 / 6) < 0.03


def test_a_fit_is_also_read_with_its_least_sure_contacts_left_free():
    from plugins.tangram.piecefit import Fit, PieceFitter

    pieces = _a_square_and_a_triangle_a_sixth_apart()
    rings = [[(x, y) for x, y in piece.points()] for piece in pieces]
    fitter = PieceFitter(rings, noise=0.08, budget=0.0)
    found = exact_placements(pieces, noise=0.08)
    looser = fitter.loosened(Fit(found, (0.0, 0.0), 1.0, pieces, None))
    # one other reading (1.5 and 1.0 times the noise both leave the sixth free: the same
    # placement, given once), with the slide kept
    assert len(looser) == 1
    assert looser[0] != found
    assert abs(_gap_between(looser[0]) - 1 / 6) < 0.03


def test_the_fit_stops_early_only_while_it_has_not_placed_all_seven_pieces():
    from plugins.tangram.piecefit import PieceFitter

    # a 5 x 3 rectangle: no path of the search places all seven pieces, so the search keeps to
    # its short time (a refusal comes within about a second, not at the end of the budget)
    rectangle = [[(0.0, 0.0), (5.16, 0.0), (5.16, 3.1), (0.0, 3.1)]]
    fitter = PieceFitter(rectangle, noise=0.002, budget=60.0, quick=0.3)
    assert list(fitter.fits()) == []
    assert not any(search.placed_all for _scale, search in fitter.searches)
    assert fitter._until() == fitter.soft_deadline < fitter.deadline
    # the square drawn a little rough: once a path places all seven (its first fit comes in
    # about 0.3 s), the whole budget is open
    square = [[(0.01, -0.02), (4.02, 0.0), (3.99, 4.01), (0.0, 3.98)]]
    fitter = PieceFitter(square, noise=0.02, budget=60.0, quick=10.0)
    next(fitter.fits())
    assert any(search.placed_all for _scale, search in fitter.searches)
    assert fitter._until() == fitter.deadline > fitter.soft_deadline


def test_of_two_pieces_along_as_much_outline_the_one_lying_within_the_drawing_ranks_first():
    from shapely.geometry import box

    from plugins.tangram.piecefit import WASTE, Tolerance, _Search

    # a 4 x 2 drawing with nothing placed yet; two unit squares each share two sides (2 units)
    # with its outline at its lower-left corner, but the second is pushed 0.05 out of it,
    # which the noise of 0.05 allows
    drawn = box(0, 0, 4, 2)
    search = _Search(drawn, Tolerance(0.05))
    edge = drawn.boundary.buffer(0.1)
    inside = search._snugness(box(0, 0, 1, 1), Polygon(), edge)
    outside = search._snugness(box(-0.05, 0, 0.95, 1), Polygon(), edge)
    assert inside is not None and outside is not None
    assert outside < inside
    # by the area out of the drawing (0.05) times WASTE, no more: the shared outline is about equal
    assert inside - outside == pytest.approx(WASTE * 0.05, abs=0.12)
