"""A photograph taken at a slant: the traced outline straightened before it is read.

A phone held a few degrees off square to the page draws the figure through a perspective: one
side of the picture comes out narrower than the other, so parallel edges converge and edges
turn by a degree or three, and the reader's tolerance (a quarter of a unit) is used up before
the noise is. A tangram figure's edges all run along four directions (modulo 180 degrees), so the
map that brings the traced edges nearest to four directions 45 degrees apart, turned however
they like, undoes the slant. Up to a turn, a move and a scale (which the reader finds itself),
a perspective has four numbers: how the depth tilts along x and along y, and the squash and the
shear that the figure's place off the picture's middle adds. They are found by minimising the
length-weighted squared angle of the edges off the nearest direction (Nelder-Mead from no slant;
the best turn for each try is the circular mean of eight times the edges' angles).
"""

from __future__ import annotations

import cmath
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .outline import FloatRing

#: The largest of each of the four numbers (the depth's tilt along x and y, the squash, the
#: shear): 0.3 lets the scale change by 30% from the figure's middle to its edge along either
#: axis, far more than a hand-held photograph of a page.
MOST = 0.3
#: A straightening is kept only when it brings the edges this much nearer the directions (in the
#: root mean square of their angles): less is the noise's doing, not a slant's.
GAIN = 0.95
#: Edges within a twentieth of a degree of the directions (squared, in radians) are square already.
SQUARE = math.radians(0.05) ** 2


@dataclass(frozen=True)
class Straightening:
    """In coordinates centred on ``centre`` and divided by ``size`` (the figure's half-extent):
    the perspective ``(u, v) -> (u, v) / (1 + p u + q v)``, then ``(u, v) -> ((1 + a) u + b v,
    v)``; and how far off the nearest directions the edges ran before and after (root mean
    square, degrees)."""

    p: float
    q: float
    a: float
    b: float
    centre: tuple[float, float]
    size: float
    before: float
    after: float

    def apply(self, rings: Sequence[FloatRing]) -> list[FloatRing]:
        return _mapped(rings, (self.p, self.q, self.a, self.b), self.centre, self.size)

    def undo(self, rings: Sequence[FloatRing]) -> list[FloatRing]:
        """The inverse of :meth:`apply`."""
        cx, cy = self.centre
        out = []
        for ring in rings:
            pts = []
            for x, y in ring:
                u, v = (x - cx) / self.size, (y - cy) / self.size
                u = (u - self.b * v) / (1 + self.a)
                w = 1 - self.p * u - self.q * v  # the perspective's inverse has the signs turned
                pts.append((cx + self.size * u / w, cy + self.size * v / w))
            out.append(pts)
        return out


def straightening(rings: Sequence[FloatRing]) -> Straightening | None:
    """The map that best straightens the outline ``rings`` (see the module docstring), or None
    when it would not bring the edges clearly nearer the four directions (no slant, or one the
    noise hides) or would change them by more than :data:`MOST`."""
    pts = np.array([p for r in rings for p in r], dtype=float)
    if len(pts) < 3:
        return None
    centre = pts.mean(axis=0)
    size = float(np.abs(pts - centre).max())
    if size <= 0:
        return None
    c = (float(centre[0]), float(centre[1]))
    from scipy.optimize import minimize  # imported by the reader before a picture's clock starts

    def off(params: Sequence[float]) -> float:
        if max(abs(v) for v in params) > MOST:
            return math.inf
        return _angle_spread(_mapped(rings, params, c, size))

    before = off((0.0, 0.0, 0.0, 0.0))
    found = minimize(off, (0.0, 0.0, 0.0, 0.0), method="Nelder-Mead",
                     options={"xatol": 1e-5, "fatol": 1e-14, "maxiter": 800, "initial_simplex": _SIMPLEX})
    after = float(found.fun)
    if before < SQUARE or not math.isfinite(after) or after > GAIN * GAIN * before:
        return None
    p, q, a, b = (float(v) for v in found.x)
    return Straightening(p, q, a, b, c, size, math.degrees(math.sqrt(before)), math.degrees(math.sqrt(after)))


#: The first simplex: steps of 0.05 in each number (a slant of a few per cent).
_SIMPLEX = np.vstack([np.zeros(4), 0.05 * np.eye(4)])


def _mapped(rings: Sequence[FloatRing], params: Sequence[float], centre: tuple[float, float],
            size: float) -> list[FloatRing]:
    p, q, a, b = params
    cx, cy = centre
    out = []
    for ring in rings:
        pts = []
        for x, y in ring:
            u, v = (x - cx) / size, (y - cy) / size
            w = 1 + p * u + q * v
            u, v = u / w, v / w
            pts.append((cx + size * ((1 + a) * u + b * v), cy + size * v))
        out.append(pts)
    return out


def _angle_spread(rings: Sequence[FloatRing]) -> float:
    """The edges' mean squared angle (radians squared) off the nearest of four directions 45
    degrees apart, turned to fit them best, weighted by length."""
    lengths, angles = [], []
    for ring in rings:
        for i, (x0, y0) in enumerate(ring):
            x1, y1 = ring[(i + 1) % len(ring)]
            lengths.append(math.hypot(x1 - x0, y1 - y0))
            angles.append(math.atan2(y1 - y0, x1 - x0))
    weight = np.array(lengths)
    angle = np.array(angles)
    turn = cmath.phase(complex((weight * np.exp(8j * angle)).sum())) / 8
    off = np.angle(np.exp(8j * (angle - turn))) / 8
    return float((weight * off * off).sum() / max(weight.sum(), 1e-12))
