"""Float geometry of drawn outlines: area, nesting, nearest points, a rigid fit and distances.

The reader (reading.py) works on decimals from tracings; these helpers never decide anything
exact, they only rank candidates and measure how far an outline moved.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

FloatRing = list[tuple[float, float]]
FloatPoint = tuple[float, float]


def ring_area(ring: Sequence[FloatPoint]) -> float:
    """Signed area (counter-clockwise positive)."""
    n = len(ring)
    return sum(ring[i][0] * ring[(i + 1) % n][1] - ring[(i + 1) % n][0] * ring[i][1] for i in range(n)) / 2


def point_in_ring(p: FloatPoint, ring: Sequence[FloatPoint]) -> bool:
    """Even-odd test."""
    x, y = p
    inside = False
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _probe(ring: Sequence[FloatPoint]) -> FloatPoint:
    """A point just inside the ring next to its first edge's middle (robust for nesting)."""
    (x1, y1), (x2, y2) = ring[0], ring[1]
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    dx, dy = x2 - x1, y2 - y1
    d = math.hypot(dx, dy) or 1.0
    sgn = 1 if ring_area(ring) > 0 else -1
    return mx - sgn * dy / d * 1e-6, my + sgn * dx / d * 1e-6


def nesting_depths(rings: Sequence[Sequence[FloatPoint]]) -> list[int]:
    """How many other rings contain each ring (even: an outline, odd: a hole). Only a larger
    ring can contain another: a hole touching the outline at the middle of the outline's first
    edge would otherwise seem to contain the outline (its probe point lies just inside both)."""
    areas = [abs(ring_area(r)) for r in rings]
    return [sum(1 for j, o in enumerate(rings) if j != i and areas[j] > areas[i] and point_in_ring(_probe(r), o))
            for i, r in enumerate(rings)]


def nesting_area(rings: Sequence[Sequence[FloatPoint]]) -> float:
    """Area by even-odd nesting (holes subtract), whatever the rings' orientation."""
    return sum(abs(ring_area(r)) * (-1 if d % 2 else 1) for r, d in zip(rings, nesting_depths(rings)))


def nearest_on_rings(p: FloatPoint, rings: Sequence[Sequence[FloatPoint]]) -> FloatPoint:
    """The point of the rings' boundaries nearest to ``p``."""
    best, where = math.inf, p
    for r in rings:
        n = len(r)
        for i in range(n):
            (x1, y1), (x2, y2) = r[i], r[(i + 1) % n]
            dx, dy = x2 - x1, y2 - y1
            ll = dx * dx + dy * dy
            t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - x1) * dx + (p[1] - y1) * dy) / ll))
            q = (x1 + t * dx, y1 + t * dy)
            d = math.hypot(p[0] - q[0], p[1] - q[1])
            if d < best:
                best, where = d, q
    return where


def distance_to_rings(p: FloatPoint, rings: Sequence[Sequence[FloatPoint]]) -> float:
    q = nearest_on_rings(p, rings)
    return math.hypot(p[0] - q[0], p[1] - q[1])


def nearest_points_on_rings(points: Sequence[FloatPoint] | np.ndarray,
                            rings: Sequence[Sequence[FloatPoint]]) -> np.ndarray:
    """:func:`nearest_on_rings` for many points at once, as an array of shape (points, 2): each
    point against every edge in one numpy step (the readers measure hundreds of points against
    a few dozen edges, many times over)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    starts = np.array([q for r in rings for q in r], dtype=np.float64).reshape(-1, 2)
    ends = np.array([r[(i + 1) % len(r)] for r in rings for i in range(len(r))], dtype=np.float64).reshape(-1, 2)
    if not len(starts):
        return pts.copy()
    along = ends - starts
    ll = (along * along).sum(axis=1)
    rel = pts[:, None, :] - starts[None, :, :]
    t = np.divide((rel * along[None]).sum(axis=2), ll, out=np.zeros((len(pts), len(starts))), where=ll > 0)
    near = starts[None] + np.clip(t, 0.0, 1.0)[..., None] * along[None]
    gap = pts[:, None, :] - near
    which = np.argmin((gap * gap).sum(axis=2), axis=1)
    return near[np.arange(len(pts)), which]


def distances_to_rings(points: Sequence[FloatPoint] | np.ndarray, rings: Sequence[Sequence[FloatPoint]]) -> np.ndarray:
    """How far each point lies from the rings' boundaries (see :func:`nearest_points_on_rings`)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return np.hypot(*(pts - nearest_points_on_rings(pts, rings)).T)


def largest_distance(points: Sequence[FloatPoint], rings: Sequence[Sequence[FloatPoint]]) -> float:
    """The largest distance from ``points`` to the rings' boundaries (0 for no points)."""
    return float(distances_to_rings(points, rings).max()) if len(points) else 0.0


def fit(rings: Sequence[FloatRing], exact: Sequence[Sequence[FloatPoint]], rounds: int = 6) -> list[FloatRing]:
    """The input rings turned and moved (no scaling) to lie best on the exact outline: a few
    rounds of nearest points and a least-squares rigid fit, so the reported move is not
    inflated by where the normalisation happened to put the figure."""
    cur = [list(r) for r in rings]
    for _ in range(rounds):
        pts = [p for r in cur for p in r]
        qs = nearest_points_on_rings(pts, exact).tolist()
        n = len(pts)
        mpx = sum(p[0] for p in pts) / n
        mpy = sum(p[1] for p in pts) / n
        mqx = sum(q[0] for q in qs) / n
        mqy = sum(q[1] for q in qs) / n
        sxx = sum((p[0] - mpx) * (q[0] - mqx) + (p[1] - mpy) * (q[1] - mqy) for p, q in zip(pts, qs))
        sxy = sum((p[0] - mpx) * (q[1] - mqy) - (p[1] - mpy) * (q[0] - mqx) for p, q in zip(pts, qs))
        a = math.atan2(sxy, sxx)
        c, s = math.cos(a), math.sin(a)
        cur = [[(mqx + c * (x - mpx) - s * (y - mpy), mqy + s * (x - mpx) + c * (y - mpy)) for x, y in r]
               for r in cur]
    return cur


def hausdorff(a: Sequence[Sequence[FloatPoint]], b: Sequence[Sequence[FloatPoint]], step: float = 0.1) -> float:
    """Symmetric Hausdorff distance between two sets of ring boundaries (sampled every ``step``)."""
    def samples(rings):
        out = []
        for r in rings:
            n = len(r)
            for i in range(n):
                (x1, y1), (x2, y2) = r[i], r[(i + 1) % n]
                m = max(1, int(math.hypot(x2 - x1, y2 - y1) / step))
                out.extend((x1 + (x2 - x1) * j / m, y1 + (y2 - y1) * j / m) for j in range(m))
        return out
    return max(largest_distance(samples(a), b), largest_distance(samples(b), a))
