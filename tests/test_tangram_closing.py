"""Closing noisy rings exactly (plugins/tangram/closing.py) and what the reader makes of them.

The facts checked are independent of the search: a walk is checked by exact arithmetic (each
edge along one of the eight directions, the ring closed, its area 16), a reading by solving the
figure it read, replaying the cover with the independent cover check, and measuring how far the
input outline lies from the figure (Hausdorff, at most 0.25 units as the bench counts it).
"""

from __future__ import annotations

import math
import random

import pytest
from test_tangram_reading import _same

from engine import SolveContext, Solved
from plugins.tangram import reading
from plugins.tangram.closing import joined_walks, noise_level
from plugins.tangram.cover_check import is_exact_cover
from plugins.tangram.decimals import _coverable, decimal_rings
from plugins.tangram.figures import PRESETS
from plugins.tangram.geometry import direction, signed_area
from plugins.tangram.numbers import QS2
from plugins.tangram.outline import hausdorff, nesting_depths
from plugins.tangram.pieces import parse_placement
from plugins.tangram.silhouette import parse_exact_text, parse_silhouette
from plugins.tangram.solver import ExactSolver


@pytest.fixture(autouse=True)
def _no_time_limit(monkeypatch):
    """These tests check what is read, not how fast: a loaded machine must not cut the search."""
    monkeypatch.setattr(reading, "BUDGET", 60.0)
    monkeypatch.setattr(reading, "READ_BUDGET", 120.0)


def _rough_rings(text: str, noise: float, seed: str, angle: float = 0.3, scale: float = 23.0):
    """The figure's rings turned, scaled and each vertex moved by up to ``noise`` units."""
    rng = random.Random(seed)
    c, s = math.cos(angle), math.sin(angle)
    out = []
    for ring in parse_silhouette(text).rings():
        pts = []
        for x, y in ring:
            r, t = noise * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
            fx, fy = float(x) + r * math.cos(t), float(y) + r * math.sin(t)
            pts.append((scale * (c * fx - s * fy), scale * (s * fx + c * fy)))
        out.append(pts)
    return out


def _shape(points) -> frozenset:
    """A ring's vertices up to translation (from its lowest-leftmost vertex), rounded."""
    pts = [(float(x), float(y)) for x, y in points]
    ox, oy = min(pts, key=lambda p: (round(p[1], 6), round(p[0], 6)))
    return frozenset((round(x - ox, 6) + 0.0, round(y - oy, 6) + 0.0) for x, y in pts)


def _turns(points) -> list[frozenset]:
    """The ring's shape under the eight 45-degree turns (the reader knows the turn mod 45)."""
    out = []
    for k in range(8):
        c, s = math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)
        out.append(_shape([(c * float(x) - s * float(y), s * float(x) + c * float(y)) for x, y in points]))
    return out


def _corners(rings):
    norm = reading.normalise(rings)
    return [reading.corners(reading.simplify(r)) for r in norm.rings]


@pytest.mark.parametrize("seed", range(3))
def test_met_in_the_middle_walks_close_exactly_with_area_16(seed):
    (c,) = _corners(_rough_rings(PRESETS["assembly-slid"], 0.2, f"closing-{seed}"))
    walks = joined_walks(c.points, c.dirs, c.lengths, limit=10, area=16.0, sigma=noise_level(c.points, c.dirs))
    assert walks
    for w in walks:
        pts = list(w.points)
        # every edge runs along one of the eight directions, exactly, and the ring is closed
        # (the last edge goes back to the first vertex) with area 16 by exact arithmetic
        assert all(direction(pts[i], pts[(i + 1) % len(pts)]) is not None for i in range(len(pts)))
        assert abs(signed_area(pts)) == QS2(16)


@pytest.mark.parametrize("seed", [0, 1, 3, 4])
def test_ring_with_a_slid_piece_at_noise_02_is_found_and_read(seed):
    # slid-halves: the square with a piece slid by half an edge; at 0.2 units of noise the beam
    # that solves the last two edges (closed_walks) misses it for these drawings, meeting in
    # the middle finds it. (Seed 2 is left out: there the noise hides the short edge itself,
    # and the ring has five corners, which no length search can mend.)
    rings = _rough_rings(PRESETS["slid-halves"], 0.2, f"slid-{seed}")
    (c,) = _corners(rings)
    assert len(c.dirs) == 6
    walks = joined_walks(c.points, c.dirs, c.lengths, limit=30, area=16.0, sigma=noise_level(c.points, c.dirs))
    true_ring = parse_silhouette(PRESETS["slid-halves"]).rings()[0]
    assert set(_turns(true_ring)) & {_shape(w.points) for w in walks}

    got = reading.read_noisy(rings, accept=_coverable)
    sil = parse_exact_text(got.text)
    out = ExactSolver().solve(sil, SolveContext.with_timeout(20))
    assert isinstance(out, Solved), out
    assert is_exact_cover(sil, [parse_placement(m) for m in out.moves])
    exact = [[(float(x), float(y)) for x, y in r] for r in got.exact_rings]
    assert hausdorff(exact, got.fitted) <= 0.25
    assert got.moved <= 0.25


@pytest.mark.parametrize("name", ["bowtie", "islands", "assembly-hole"])
def test_figures_of_several_rings_are_read_at_noise_01(name):
    # rings placed relative to each other at one scale; a hole or a second piece touching at a
    # corner is placed on that corner exactly
    rings = _rough_rings(PRESETS[name], 0.1, f"rings-{name}")
    got = reading.read_noisy(rings, accept=_coverable)
    sil = parse_exact_text(got.text)
    assert len(sil.rings()) == len(parse_silhouette(PRESETS[name]).rings())
    out = ExactSolver().solve(sil, SolveContext.with_timeout(20))
    assert isinstance(out, Solved), out
    assert is_exact_cover(sil, [parse_placement(m) for m in out.moves])
    exact = [[(float(x), float(y)) for x, y in r] for r in got.exact_rings]
    assert hausdorff(exact, got.fitted) <= 0.25


def test_a_hole_touching_the_middle_of_the_outlines_first_edge_is_a_hole():
    # the hole's corner (1,-1) is the middle of the outline's first edge (0,-2)-(2,0)
    outer = [(0, -2), (2, 0), (3, -1), (3.25, -0.75), (7.25, -0.75), (5.25, 1.25), (4, 0), (3, 1), (1, 1),
             (-2, 4), (-2, 0), (0, 0)]
    hole = [(1, -1), (0, 0), (1, 1)]
    assert nesting_depths([outer, hole]) == [0, 1]
    assert nesting_depths([hole, outer]) == [1, 0]


def test_the_reading_reports_the_scale_it_measured_the_outline_at():
    # drawn 23 times the pieces' size: the reading's scale is the drawing's to within 1%
    rings = _rough_rings(PRESETS["house"], 0.1, "scale")
    got = reading.read_noisy(rings, accept=_coverable)
    assert got.normalised.scale == pytest.approx(23.0, rel=0.01)


@pytest.mark.parametrize("seed", [5, 7, 10, 12])
def test_a_short_edge_the_noise_turned_into_its_neighbours_direction_is_read_back(seed):
    # assembly-touch has an edge 0.09 units long where a triangle touches the figure; at 0.1
    # units of noise these drawings turn it (or the half-unit edge) into the direction of the
    # edge beside it, so the snapped ring loses a corner and no lengths can mend it. Read again
    # with the doubtful edge turned back, the figure is the one drawn, exactly.
    truth = parse_silhouette(PRESETS["assembly-touch"])
    rings = _rough_rings(PRESETS["assembly-touch"], 0.1, f"assembly-touch-{seed}")
    got = reading.read_noisy(rings, accept=_coverable, pieces=False)
    assert _same(parse_exact_text(got.text), truth)
    exact = [[(float(x), float(y)) for x, y in r] for r in got.exact_rings]
    assert hausdorff(exact, got.fitted) <= 0.25


#: assembly-touch made rough by bench/tangram_reading.py (noise 0.2, --seed 7 --figure-seed 5000):
#: the bottom of its slit is drawn 0.06 units long at 244 degrees.
ASSEMBLY_TOUCH_AT_02 = (
    "ring 175.487,-546.330 279.073,-508.137 310.295,-554.166 362.013,-529.363 332.738,-478.176 "
    "317.698,-493.310 341.266,-432.482 389.263,-453.009 405.574,-404.324 341.471,-437.760 "
    "339.657,-439.481 389.651,-410.600 322.835,-390.296 313.017,-367.693 292.304,-419.447 "
    "280.786,-390.444 177.712,-348.759 209.663,-426.800 174.220,-429.125 214.812,-449.456"
)


def test_the_bottom_of_a_slit_is_read_square_to_its_sides():
    # assembly-touch's 0.09-unit edge is the bottom of a slit between edges that run opposite
    # ways; this drawing (noise 0.2) has it run at 244 degrees, further from the true 135 than
    # any turn to the next direction mends. Its two directions square to the slit's sides are
    # tried first, and the figure drawn is read.
    truth = parse_silhouette(PRESETS["assembly-touch"])
    rings = decimal_rings(ASSEMBLY_TOUCH_AT_02)
    got = reading.read_noisy(rings, accept=_coverable, pieces=False)
    assert _same(parse_exact_text(got.text), truth)


#: The house preset made rough by bench/tangram_reading.py (noise 0.1, --seed 19 --figure-seed
#: 15000): its corner between an edge 0.59 units long and one 0.71 long bends by 17 degrees.
HOUSE_AT_01 = (
    "ring 119.733,378.618 80.756,387.536 78.108,376.650 88.004,374.811 88.333,370.337 90.029,365.954 "
    "87.779,350.835 93.293,342.117 96.125,356.185 99.653,352.236 116.709,363.555"
)


def test_a_corner_the_noise_flattened_is_read_from_the_ring_as_drawn():
    # Simplified, the flattened corner goes, and with it the edge's neighbour: the long edge
    # left runs 11 degrees off the eight directions, which read as a piece at a free angle and
    # refused a preset. Every vertex of a tracing was put at a corner, so the ring as drawn is
    # looked at for a free angle, and read when the simplified ring reads nothing.
    got = reading.read_noisy(decimal_rings(HOUSE_AT_01), accept=_coverable, pieces=False)
    assert _same(parse_exact_text(got.text), parse_silhouette(PRESETS["house"]))


#: The same house at noise 0.2: its edges of 0.59 and 0.71 units are drawn at 300 and 288
#: degrees, each in the other's direction.
HOUSE_AT_02 = (
    "ring 119.122,378.482 81.246,387.897 78.150,376.593 87.474,375.115 89.043,370.503 89.510,366.216 "
    "88.122,350.784 93.303,342.304 95.856,355.636 99.988,352.217 116.186,363.160"
)


def test_two_short_edges_the_noise_swapped_are_turned_back_together():
    # Turning either edge alone merges it with the other, and nothing reads; turned together,
    # the corner between them comes back, and an exact figure of eleven corners is read that
    # the pieces cover within 0.25 units of the drawing (at this noise a neighbour of the
    # house's, one piece slid, lies nearer than the house itself).
    got = reading.read_noisy(decimal_rings(HOUSE_AT_02), accept=_coverable, pieces=False)
    sil = parse_exact_text(got.text)
    assert [len(r) for r in sil.rings()] == [len(r) for r in parse_silhouette(PRESETS["house"]).rings()]
    out = ExactSolver().solve(sil, SolveContext.with_timeout(20))
    assert isinstance(out, Solved), out
    assert is_exact_cover(sil, [parse_placement(m) for m in out.moves])
    exact = [[(float(x), float(y)) for x, y in r] for r in got.exact_rings]
    assert hausdorff(exact, got.fitted) <= 0.25
