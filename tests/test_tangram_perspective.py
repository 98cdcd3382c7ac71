"""A photograph taken at a slant: the traced outline straightened (plugins/tangram/perspective.py).
Checked against what is known without it: an exact figure's edges all run along the eight
directions, so a slant put on one by hand must come off with every edge back on them."""

from __future__ import annotations

import math

import pytest

from plugins.tangram.figures import PRESETS
from plugins.tangram.perspective import Straightening, straightening
from plugins.tangram.silhouette import parse_silhouette


def _rings(name: str, unit: float = 30.0):
    """The preset's exact outline in picture pixels, turned by 10 degrees."""
    c, s = math.cos(0.17), math.sin(0.17)
    return [[(unit * (c * float(x) - s * float(y)) + 200, unit * (s * float(x) + c * float(y)) + 150)
             for x, y in ring] for ring in parse_silhouette(PRESETS[name]).rings()]


def _worst_off_directions(rings) -> float:
    """The largest angle (degrees) of an edge off the eight directions once turned as a whole
    by the angle that fits the first edge."""
    first = rings[0]
    turn = math.atan2(first[1][1] - first[0][1], first[1][0] - first[0][0])
    worst = 0.0
    for ring in rings:
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
            a = math.degrees(math.atan2(y1 - y0, x1 - x0) - turn)
            worst = max(worst, abs((a + 22.5) % 45 - 22.5))
    return worst


def _slanted(rings, p: float, q: float):
    # about the picture's middle, not the figure's: a squash and a shear come with it there
    return Straightening(p, q, 0.0, 0.0, (210.0, 160.0), 120.0, 0.0, 0.0).apply(rings)


@pytest.mark.parametrize("name", ["cat", "house", "convex-hexagon"])
@pytest.mark.parametrize("p, q", [(0.1, -0.06), (-0.05, 0.12)])
def test_a_slanted_outline_comes_back_onto_the_eight_directions(name, p, q):
    slanted = _slanted(_rings(name), p, q)
    assert _worst_off_directions(slanted) > 1.0  # the slant turned edges by a degree and more
    found = straightening(slanted)
    assert found is not None and found.after < found.before
    assert _worst_off_directions(found.apply(slanted)) < 0.2


def test_an_outline_square_to_the_camera_is_left_as_it_is():
    assert straightening(_rings("cat")) is None


def test_undo_takes_the_outline_back_where_it_was_traced():
    slanted = _slanted(_rings("house"), 0.08, 0.03)
    found = straightening(slanted)
    assert found is not None
    back = found.undo(found.apply(slanted))
    assert max(math.dist(a, b) for r, s in zip(back, slanted) for a, b in zip(r, s)) < 1e-6
