"""Silhouette input: text/JSON/SVG forms, exact scaling, and refusals that name the problem."""

import json

import pytest

from engine import InputError
from plugins.tangram.figures import PRESETS
from plugins.tangram.numbers import QS2
from plugins.tangram.silhouette import (
    MAX_VERTICES,
    format_silhouette,
    parse_silhouette,
    silhouette_from_json,
    silhouette_to_json,
)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_round_trip_in_text_and_json(name):
    s = parse_silhouette(PRESETS[name])
    assert parse_silhouette(format_silhouette(s)) == s
    assert silhouette_from_json(json.loads(json.dumps(silhouette_to_json(s)))) == s
    data = silhouette_to_json(s)
    del data["text"]  # the structured form alone also round-trips
    assert silhouette_from_json(data) == s


def test_scaling_to_area_16_is_exact():
    unit = parse_silhouette("outer 0,0 1,0 1,1 0,1")                  # classic unit square
    assert unit == parse_silhouette("outer 0,0 4,0 4,4 0,4")
    eight = parse_silhouette("outer 0,0 4,0 0,4")                      # area 8: times r2
    assert eight.components[0].outer[1] == (QS2(0, 4), QS2(0))
    assert any("scaled" in m for m in eight.messages)
    eighteen = parse_silhouette("outer 0,0 6,0 6,3 0,3")               # 18 = 16 * (3/(2r2))^2
    xs = {p[0] for p in eighteen.components[0].outer}
    assert QS2(0, 2) * 2 in xs                                        # 6 * 2r2/3 = 4r2


def test_wrong_area_is_refused_with_the_area():
    with pytest.raises(InputError, match=r"area is 12"):
        parse_silhouette("outer 0,0 4,0 4,3 0,3")
    with pytest.raises(InputError, match=r"area is 1\+r2"):
        parse_silhouette("outer 0,0 1+r2,0 1+r2,1 0,1 ")


def test_non_45_degree_edges_are_named():
    with pytest.raises(InputError) as exc:
        parse_silhouette("outer 0,0 4,0 4,4 1,5")
    assert "edge 3 (4,4 to 1,5)" in str(exc.value) and "161.6 degrees" in str(exc.value)


@pytest.mark.parametrize("text, words", [
    ("outer 0,0 4,0", "at least 3 points"),
    ("outer 0,0 4,0 4;4", "cannot read the point"),
    ("outer 0,0 4,0 4,x 0,4", "line 1"),
    ("circle 0,0 4", "unknown line start"),
    ("outer 0,0 4,0 0,4 4,4", "crosses"),
    ("hole 0,0 4,0 4,4 0,4", "not inside an outline"),
    ("outer 0,0 4,0 0,4\nouter 4,0 4,4 0,4", "share an edge"),
    ("", "no outline"),
])
def test_bad_input_is_named(text, words):
    with pytest.raises(InputError) as exc:
        parse_silhouette(text)
    assert words in str(exc.value)


def test_size_limits():
    ring = " ".join(f"{i},0 {i},1" for i in range(0, 2 * MAX_VERTICES, 2))
    with pytest.raises(InputError, match="limit"):
        parse_silhouette("outer " + ring)
    with pytest.raises(InputError, match="too fine"):
        parse_silhouette("outer 40000,0 40004,0 40004,4 40000,4")


def test_holes_and_nesting_are_found_from_rings():
    s = parse_silhouette("ring 0,0 5,0 5,5 0,5\nring 1,1 1,4 4,4 4,1")
    assert len(s.components) == 1 and len(s.components[0].holes) == 1
    assert format_silhouette(s).splitlines()[1].startswith("hole")


def test_decimals_are_snapped_and_reported():
    s = parse_silhouette("outer 0,0 2.8284,0 2.8284,5.6569 0,5.6569")
    assert s == parse_silhouette("outer 0,0 2r2,0 2r2,4r2 0,4r2")
    assert any("2.8284 snapped to 2r2" in m for m in s.messages)


def test_svg_polygons_and_paths_import():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><polygon points="0,0 40,0 40,40 0,40"/></svg>')
    s = parse_silhouette(svg)
    assert s == parse_silhouette("outer 0,-4 4,-4 4,0 0,0")   # scaled and y flipped
    path = '<svg><path d="M0 0 L 2.8284 0 L 2.8284 2.8284 Z M 10 10 h 2 v 2 h-2z"/></svg>'
    s2 = parse_silhouette(path)
    assert len(s2.components) == 2
    with pytest.raises(InputError):
        parse_silhouette("<svg><circle r='3'/></svg>")
    with pytest.raises(InputError):
        parse_silhouette('<!DOCTYPE x [<!ENTITY a "b">]><svg/>')


def test_draft_round_trips_and_is_not_solver_input():
    text = "outer 0,0 4,0 4,4 0,4\ndraft M r2 f0 @ 1/3,r2\ndraft L1 r0 f1 @ 7,0\n"
    s = parse_silhouette(text)
    assert [p.name for p in s.draft] == ["L1", "M"]
    assert parse_silhouette(format_silhouette(s)) == s
    assert s != parse_silhouette("outer 0,0 4,0 4,4 0,4")
    with pytest.raises(InputError, match="twice"):
        parse_silhouette("outer 0,0 4,0 4,4 0,4\ndraft M r0 f0 @ 0,0\ndraft M r1 f0 @ 0,0")


# ------------------------------------------------------------------------------------------------
# Validation cost: rings that are far apart or clearly nested must not need exact point tests
# (24 separate unit squares took 0.6 s, 24 staircase rings over 2 s, before the float pre-check).


def _count_exact_edge_tests(monkeypatch):
    """Count calls of the exact point-on-edge test, the inner step of exact point location."""
    from plugins.tangram import geometry
    calls = {"n": 0}
    real = geometry.on_segment

    def counting(*args):
        calls["n"] += 1
        return real(*args)

    monkeypatch.setattr(geometry, "on_segment", counting)
    return calls


def _squares(n, gap):
    return "\n".join(f"outer {gap * i},0 {gap * i + 1},0 {gap * i + 1},1 {gap * i},1" for i in range(n))


def test_separate_rings_are_refused_by_area_without_exact_point_tests(monkeypatch):
    calls = _count_exact_edge_tests(monkeypatch)
    with pytest.raises(InputError, match=r"area is 24 "):
        parse_silhouette(_squares(24, gap=4))   # the old code ran 552 exact ring-in-ring tests
    assert calls["n"] == 0


def test_clearly_nested_rings_need_no_exact_point_tests(monkeypatch):
    # 24 concentric squares: every pair is nested, yet each is decided by the float pre-check
    text = "\n".join(f"ring {-k},{-k} {k},{-k} {k},{k} {-k},{k}" for k in range(1, 25))
    calls = _count_exact_edge_tests(monkeypatch)
    with pytest.raises(InputError, match=r"area is 1200 "):   # 4 * (24^2 - 23^2 + ... - 1^2)
        parse_silhouette(text)
    assert calls["n"] == 0


def test_sample_points_are_made_lazily():
    from plugins.tangram.geometry import sample_points
    ring = [(QS2(0), QS2(0)), (QS2(4), QS2(0)), (QS2(0), QS2(4))]
    points = sample_points(ring)
    assert next(points) == ring[0]            # a generator: nothing else is computed yet
    rest = list(points)
    assert len(rest) == 4 * 3 - 1 and rest[2] == (QS2(2), QS2(0))   # vertices, then midpoints


def _rings_for_location():
    from plugins.tangram.numbers import parse_number as n
    stair = [(0, 0), (4, 0), (4, 1), (3, 1), (3, 2), (2, 2), (2, 3), (1, 3), (1, 4), (0, 4)]
    octagon = ["1,0", "1+r2,0", "2+r2,1", "2+r2,1+r2", "1+r2,2+r2", "1,2+r2", "0,1+r2", "0,1"]
    touching = [(0, 0), (2, 0), (1, 1), (2, 2), (0, 2), (1, 1)]   # a ring that touches itself
    yield [(QS2(x), QS2(y)) for x, y in stair]
    yield [tuple(n(c) for c in p.split(",")) for p in octagon]
    yield [(QS2(x), QS2(y)) for x, y in touching]


@pytest.mark.parametrize("ring", list(_rings_for_location()))
def test_ring_locator_agrees_with_exact_point_in_ring(ring):
    from fractions import Fraction

    from plugins.tangram.geometry import RingLocator, point_in_ring, sample_points
    locator = RingLocator(ring)
    # points on vertices and edges, level with vertices, and on a fine grid (with r2 parts)
    points = list(sample_points(ring))
    points += [(x + QS2(Fraction(dx, 4)), y) for x, y in ring for dx in (-1, 1)]
    points += [(QS2(Fraction(i, 4), Fraction(j, 8)), QS2(Fraction(k, 4))) for i in range(-2, 22, 3)
               for j in (0, 1, -3) for k in range(-2, 22)]
    answers = [point_in_ring(p, ring) for p in points]
    assert {-1, 0, 1} <= set(answers)
    assert [locator.locate(p) for p in points] == answers


def test_prechecked_segment_tests_agree_with_the_exact_ones():
    import random

    from plugins.tangram.geometry import direction
    from plugins.tangram.segments import (
        coordinate_scale,
        float_point,
        segments_cross,
        segments_cross_prechecked,
        segments_overlap,
        segments_overlap_prechecked,
    )
    rng = random.Random(7)
    steps = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
    unit = QS2(1, 1)   # an irrational scale: floats are never exact here
    def point():
        return (QS2(rng.randint(-3, 3)) * unit, QS2(rng.randint(-3, 3)) * unit)
    def segment():
        a = point()
        dx, dy = rng.choice(steps)
        k = QS2(rng.randint(1, 4)) * unit
        return a, (a[0] + k * dx, a[1] + k * dy)
    seen = set()
    for _ in range(1500):
        (a, b), (c, d) = segment(), segment()
        fl = tuple(float_point(p) for p in (a, b, c, d))
        scale = coordinate_scale((a, b, c, d))
        cross = segments_cross(a, b, c, d)
        overlap = segments_overlap(a, b, c, d)
        assert segments_cross_prechecked(a, b, c, d, fl, scale) == cross
        assert segments_overlap_prechecked(a, b, c, d, direction(a, b), direction(c, d), fl, scale) == overlap
        seen.add((cross, overlap))
    assert seen == {(False, False), (True, False), (False, True)}


# ------------------------------------------------------------------------------------------------
# Crossings through a vertex: boundaries that meet where one of them has a corner may touch there,
# but not cross (the proper-crossing test alone let such overlapping figures through).


@pytest.mark.parametrize("text, words", [
    # the diamond's corners (4,1) and (4,3) lie on the square's right edge: the insides overlap
    ("outer 0,0 4,0 4,4 0,4\nouter 3,2 4,1 5,2 4,3",
     "ring 2 crosses ring 1 at 4,1 (ring 2 vertex 2, ring 1 edge 2 (4,0 to 4,4))"),
    # the same with both crossing points corners of both rings (4,2 is a straight-through corner)
    ("outer 0,0 4,0 4,2 4,4 0,4\nouter 4,0 5,1 4,2 3,1", "ring 1 crosses ring 2 at 4,0"),
    # a hole that pokes out of its outline through two of the outline's corners
    ("outer 0,0 7,0 7,2 0,2\nhole 6,1 7,0 8,1 7,2", "ring 1 crosses ring 2 at 7,0"),
    # one ring passing twice through 2,2 as an X (lobes of areas 24 and 8: net area 16)
    ("outer 0,0 2,2 4,4 9,4 9,0 4,0 2,2 0,4 -1,4 -1,0", "ring 1 crosses itself at 2,2"),
    # a figure eight whose loops cancel: refused as a crossing, not as "encloses no area"
    ("outer 0,0 1,1 2,2 2,0 1,1 0,2", "ring 1 crosses itself at 1,1"),
])
def test_crossings_through_a_vertex_are_refused(text, words):
    with pytest.raises(InputError) as exc:
        parse_silhouette(text)
    assert words in str(exc.value) and "may touch at points but not cross" in str(exc.value)


@pytest.mark.parametrize("text, rings", [
    ("outer 0,0 4,0 0,4\nouter 4,0 8,4 4,4", 2),                  # the bowtie preset
    ("outer 0,0 4,0 4,4 0,4\nouter 4,4 5,3 6,4 5,5", 2),          # corner to corner, outside
    ("outer 0,0 2,2 4,0 4,4 2,2 0,4", 1),                         # one outline through 2,2 twice
    ("outer 0,0 6,0 6,3 0,3\nhole 4,1 5,0 6,1 5,2", 2),           # a hole touching its outline
    ("outer 0,0 4,0 4,4 0,4\nouter 4,1 5,1 6,2 5,3 4,3 5,2", 2),  # two corners on an edge
])
def test_rings_touching_at_points_are_still_accepted(text, rings):
    s = parse_silhouette(text)
    assert len(s.rings()) == rings
    assert parse_silhouette(format_silhouette(s)) == s


def test_random_assemblies_with_point_contacts_are_accepted():
    from plugins.tangram.assembly import random_assembly
    contacts = 0
    for seed in range(60):
        sil, _ = random_assembly(seed)
        corners = [p for r in sil.rings() for p in r]
        contacts += len(set(corners)) < len(corners)
        assert parse_silhouette(format_silhouette(sil)) == sil
    assert contacts > 0   # the generator did make corner contacts to re-check


def _shape(kind, x, y):
    """Small simple rings with integer corners and edges at multiples of 45 degrees."""
    shapes = {
        "square": [(0, 0), (2, 0), (2, 2), (0, 2)],
        "diamond": [(1, 0), (2, 1), (1, 2), (0, 1)],
        "triangle": [(0, 0), (2, 0), (0, 2)],
        "slanted": [(0, 0), (2, 2), (0, 2)],
        "stair": [(0, 0), (3, 0), (3, 1), (2, 1), (2, 2), (1, 2), (1, 3), (0, 3)],
        "arrow": [(0, 0), (3, 0), (3, 3), (2, 2), (2, 1), (1, 1)],
    }
    return [(QS2(x + px), QS2(y + py)) for px, py in shapes[kind]]


def _inside(p, ring):
    """Even-odd ray casting in floats: exact enough for points well away from every edge."""
    x, y = p
    inside = False
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def test_crossing_check_agrees_with_sampled_insides():
    """Two simple rings are refused exactly when their insides overlap without nesting (found by
    sampling points between the lattice's lines) or they share a piece of edge."""
    import random

    from plugins.tangram.segments import segments_overlap
    from plugins.tangram.silhouette import check_no_crossings
    rng = random.Random(5)
    kinds = ["square", "diamond", "triangle", "slanted", "stair", "arrow"]
    # at least 1/32 off every line x, y = k/2 and x +- y = k/2 that these rings' edges lie on
    samples = [((8 * i + 1) / 16, (16 * j + 3) / 32) for i in range(-1, 14) for j in range(-1, 14)]
    verdicts = set()
    for _ in range(400):
        a = _shape(rng.choice(kinds), rng.randint(0, 3), rng.randint(0, 3))
        b = _shape(rng.choice(kinds), rng.randint(0, 3), rng.randint(0, 3))
        if a == b:
            continue
        fa = [(float(x), float(y)) for x, y in a]
        fb = [(float(x), float(y)) for x, y in b]
        ina = [_inside(p, fa) for p in samples]
        inb = [_inside(p, fb) for p in samples]
        both = any(x and y for x, y in zip(ina, inb))
        only_a = any(x and not y for x, y in zip(ina, inb))
        only_b = any(y and not x for x, y in zip(ina, inb))
        shared = any(segments_overlap(a[i - 1], a[i], b[j - 1], b[j])
                     for i in range(len(a)) for j in range(len(b)))
        crossing = both and only_a and only_b
        try:
            check_no_crossings([a, b])
            refused = False
        except InputError:
            refused = True
        assert refused == (crossing or shared), (a, b)
        verdicts.add((crossing, shared, refused))
    assert {(True, False, True), (False, False, False), (False, True, True)} <= verdicts
