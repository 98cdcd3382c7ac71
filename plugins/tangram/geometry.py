"""Exact plane geometry for polygons whose edges run at multiples of 45 degrees.

Points are pairs of :class:`~plugins.tangram.numbers.QS2`. Because every edge is horizontal,
vertical or diagonal, every line we meet is ``x = c``, ``y = c``, ``x + y = c`` or ``y - x = c``,
and two convex such polygons (or a polygon and a segment) are separated, if at all, along one of
the four "forms" x, y, x+y, y-x (separating axis theorem: the candidate axes are the edge normals).
So overlap and containment questions need only additions and exact comparisons.

Exact arithmetic on Fractions is slow (tens of microseconds per test), and input validation asks
many such questions, so the hot ones (:class:`RingLocator`, ``segments_*_prechecked``) first judge
with floats and fall back to the exact test only when a value is within 1e-12 of the coordinates'
magnitude of the decision boundary (float errors are below 1e-15 of it): the answers stay exact.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Iterator, Sequence

from .numbers import QS2, ZERO, format_number, sign_of

Point = tuple[QS2, QS2]
Ring = tuple[Point, ...]

#: Unit steps of the 8 directions, index k means k*45 degrees (counter-clockwise from +x).
DIRECTION_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def point_text(p: Point) -> str:
    return f"{format_number(p[0])},{format_number(p[1])}"


def direction(p: Point, q: Point) -> int | None:
    """The direction index 0..7 of the edge p->q, or None if it is not a multiple of 45 degrees.

    None also for a zero-length edge.
    """
    # on the rational parts directly: no QS2 objects are made (validation calls this a lot)
    (x0, y0), (x1, y1) = p, q
    dxa, dxb = x1.a - x0.a, x1.b - x0.b
    dya, dyb = y1.a - y0.a, y1.b - y0.b
    sx, sy = sign_of(dxa, dxb), sign_of(dya, dyb)
    if sx == 0 and sy == 0:
        return None
    if sx != 0 and sy != 0 and not ((dxa == dya and dxb == dyb) or (dxa == -dya and dxb == -dyb)):
        return None
    return DIRECTION_STEPS.index((sx, sy))


def signed_area(ring: Sequence[Point]) -> QS2:
    """Shoelace area: positive for counter-clockwise rings (exact, in integers internally)."""
    d = 1
    for x, y in ring:
        d = lcm(d, x.a.denominator, x.b.denominator, y.a.denominator, y.b.denominator)
    pts = [(int(x.a * d), int(x.b * d), int(y.a * d), int(y.b * d)) for x, y in ring]
    sa = sb = 0
    n = len(pts)
    for i in range(n):
        xa, xb, ya, yb = pts[i]
        xa2, xb2, ya2, yb2 = pts[(i + 1) % n]
        # x0*y1 - x1*y0 with (a + b r2)(c + d r2) = ac + 2bd + (ad + bc) r2
        sa += xa * ya2 + 2 * xb * yb2 - xa2 * ya - 2 * xb2 * yb
        sb += xa * yb2 + xb * ya2 - xa2 * yb - xb2 * ya
    return QS2(Fraction(sa, 2 * d * d), Fraction(sb, 2 * d * d))


def forms(p: Point) -> tuple[QS2, QS2, QS2, QS2]:
    """The four projections x, y, x+y, y-x of a point."""
    x, y = p
    return (x, y, x + y, y - x)


def form_ranges(points: Sequence[Point]) -> list[tuple[QS2, QS2]]:
    """(min, max) of each of the four forms over ``points``."""
    fs = [forms(p) for p in points]
    return [(min(f[k] for f in fs), max(f[k] for f in fs)) for k in range(4)]


def interiors_overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """True if convex polygons (or a segment ``a``) with 45-degree edges share interior area
    (see :func:`_interiors_overlap`; answers are cached, as checking a move and then the whole
    cover asks the same questions twice)."""
    return _interiors_overlap(tuple(a), tuple(b))


@lru_cache(maxsize=16384)
def _interiors_overlap(a: tuple[Point, ...], b: tuple[Point, ...]) -> bool:
    """True if convex polygons (or a segment ``a``) with 45-degree edges share interior area.

    For a segment ``a`` this answers whether the segment meets the open interior of ``b``.
    Separated (weakly) along any of the four forms means no overlap.

    Exact, but filtered: each form's ranges are first compared in floating point with a bound on
    the rounding error, and only a form whose ranges touch or nearly touch (pieces sharing an
    edge) is decided with exact arithmetic. Checking a solution does thousands of these tests.
    """
    fa, fb = _float_forms(a), _float_forms(b)
    exact = []
    for k in range(4):
        avals, bvals = fa[k], fb[k]
        amin, amax, bmin, bmax = min(avals), max(avals), min(bvals), max(bvals)
        margin = 2 * (fa[4][k] + fb[4][k])
        if amax < bmin - margin or bmax < amin - margin:
            return False  # clearly apart along this form
        if amax > bmin + margin and bmax > amin + margin:
            continue  # clearly overlapping along this form
        exact.append(k)
    for k in exact:
        margin = 2 * (fa[4][k] + fb[4][k])
        amin, amax = _exact_extremes(a, fa[k], k, margin)
        bmin, bmax = _exact_extremes(b, fb[k], k, margin)
        if amax <= bmin or bmax <= amin:
            return False
    return True


@lru_cache(maxsize=8192)  # the same pieces and ring edges are tested against each other often
def _float_forms(points: tuple[Point, ...]) -> tuple:
    """The four forms of each point as floats, and per form a bound on their rounding error."""
    xs, ys, ss, ds = [], [], [], []
    ex = ey = 0.0
    for x, y in points:
        fx, errx = x._approx()
        fy, erry = y._approx()
        xs.append(fx)
        ys.append(fy)
        ss.append(fx + fy)
        ds.append(fy - fx)
        ex = max(ex, errx)
        ey = max(ey, erry)
    # A sum's own rounding is below 1e-16 of its size, far inside the 1e-12 bounds added here.
    both = ex + ey + 1e-12 * max((abs(v) for v in ss + ds), default=0.0)
    return xs, ys, ss, ds, (ex, ey, both, both)


def _exact_extremes(points: Sequence[Point], approx: Sequence[float], k: int,
                    margin: float) -> tuple[QS2, QS2]:
    """The exact (min, max) of form ``k``, computing it only for the points whose float value
    could be the minimum or the maximum (within ``margin``, which bounds the rounding)."""
    low, high = min(approx), max(approx)
    form = _FORMS[k]
    lows = [form(p) for p, v in zip(points, approx) if v <= low + margin]
    highs = [form(p) for p, v in zip(points, approx) if v >= high - margin]
    return min(lows), max(highs)


_FORMS = (lambda p: p[0], lambda p: p[1], lambda p: p[0] + p[1], lambda p: p[1] - p[0])


def on_segment(p: Point, a: Point, b: Point) -> bool:
    """True if p lies on the closed segment a-b (a 45-degree segment)."""
    if _clearly_outside_box(p, a, b):
        return False
    if not (min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])):
        return False
    d = direction(a, b)
    if d is None:
        return p == a
    dx, dy = DIRECTION_STEPS[d]
    # p - a must be parallel to (dx, dy): cross product zero
    return (p[0] - a[0]) * dy - (p[1] - a[1]) * dx == ZERO


def _clearly_outside_box(p: Point, a: Point, b: Point) -> bool:
    """True if floats show p well outside the bounding box of a-b (the exact test then agrees)."""
    (px, epx), (py, epy) = p[0]._approx(), p[1]._approx()
    (ax, eax), (ay, eay) = a[0]._approx(), a[1]._approx()
    (bx, ebx), (by, eby) = b[0]._approx(), b[1]._approx()
    mx = 2 * (epx + eax + ebx)
    my = 2 * (epy + eay + eby)
    return (px < min(ax, bx) - mx or px > max(ax, bx) + mx
            or py < min(ay, by) - my or py > max(ay, by) + my)


def point_in_ring(p: Point, ring: Sequence[Point]) -> int:
    """1 if p is strictly inside the ring, 0 if on its boundary, -1 if outside (exact).

    Ray casting towards +x with the half-open rule; crossings of 45-degree edges need no division.
    """
    n = len(ring)
    inside = False
    for i in range(n):
        effect = _edge_effect(p, ring[i], ring[(i + 1) % n])
        if effect == _ON_EDGE:
            return 0
        if effect == _CROSSES_RAY:
            inside = not inside
    return 1 if inside else -1


_ON_EDGE, _CROSSES_RAY, _NO_EFFECT = 0, 1, 2


def _edge_effect(p: Point, a: Point, b: Point) -> int:
    """What edge a-b means for ray casting from p towards +x (exact): p lies on it, the ray
    crosses it (half-open rule: the edge spans p's height with one end at or below it), or neither."""
    if on_segment(p, a, b):
        return _ON_EDGE
    px, py = p
    (ax, ay), (bx, by) = a, b
    if (ay <= py) == (by <= py):
        return _NO_EFFECT  # horizontal, or both ends on one side of the ray's line
    # x of the edge at height py
    if ax == bx:
        x = ax
    elif (bx - ax) == (by - ay):  # y - x = c
        x = ax + (py - ay)
    else:  # x + y = c
        x = ax - (py - ay)
    return _CROSSES_RAY if x > px else _NO_EFFECT


def magnitude(c: QS2) -> float:
    """A bound on |a| + |b|*sqrt2, the scale of the rounding error of float(c)."""
    return abs(float(c.a)) + 1.5 * abs(float(c.b))


#: Float comparisons decide only when the gap exceeds this times the coordinates' magnitude.
#: float(QS2) is off by at most a few 1e-16 of that magnitude, so a gap this wide is certain.
FLOAT_MARGIN = 1e-12


class RingLocator:
    """A ring (edges at multiples of 45 degrees) prepared for many exact :func:`point_in_ring`
    questions: the same answers, faster.

    Each edge is first judged with floats; only when a point is within a tiny margin of an edge
    (touching it, or level with one of its ends) is the exact test of :func:`point_in_ring` run,
    so the answer is always exact.
    """

    __slots__ = ("ring", "vertices", "edges", "_edge_data", "_box", "_scale")

    def __init__(self, ring: Sequence[Point]):
        self.ring = tuple(ring)
        n = len(self.ring)
        #: the ring's vertices, and its edges in both directions (points on them are on the ring)
        self.vertices = frozenset(self.ring)
        self.edges = frozenset((self.ring[i - 1], self.ring[i]) for i in range(n)) | \
            frozenset((self.ring[i], self.ring[i - 1]) for i in range(n))
        fl = [(float(x), float(y)) for x, y in self.ring]
        self._scale = max((magnitude(c) for p in self.ring for c in p), default=0.0)
        edges = []
        for i in range(n):
            a, b = self.ring[i], self.ring[(i + 1) % n]
            (ax, ay), (bx, by) = fl[i], fl[(i + 1) % n]
            d = direction(a, b)
            # slope dx/dy of a non-horizontal 45-degree edge: 0 vertical, +1 or -1 diagonal
            # (None: not a 45-degree edge, always judged exactly)
            slope = None if d is None else 0 if d % 4 in (0, 2) else (1 if d % 4 == 1 else -1)
            flat = d is not None and d % 4 == 0
            edges.append((a, b, ax, ay, by, min(ax, bx), max(ax, bx), min(ay, by), max(ay, by), slope, flat))
        self._edge_data = edges
        xs = [f[0] for f in fl]
        ys = [f[1] for f in fl]
        self._box = (min(xs), max(xs), min(ys), max(ys)) if fl else (0.0, -1.0, 0.0, -1.0)

    def locate(self, p: Point) -> int:
        """Exactly ``point_in_ring(p, self.ring)``."""
        px, py = float(p[0]), float(p[1])
        m = FLOAT_MARGIN * max(self._scale, magnitude(p[0]), magnitude(p[1]))
        x0, x1, y0, y1 = self._box
        if px < x0 - m or px > x1 + m or py < y0 - m or py > y1 + m:
            return -1  # clearly outside the bounding box: not on the ring, and no crossing
        inside = False
        for a, b, ax, ay, by, xlo, xhi, ylo, yhi, slope, flat in self._edge_data:
            if py < ylo - m or py > yhi + m or px > xhi + m:
                continue  # p is clearly above, below or right of the edge: neither on it nor crossed
            if slope is None:
                pass  # not a 45-degree edge: exact test below
            elif flat:
                # the ray never crosses a horizontal edge; p is on it iff at its height and span
                if px < xlo - m:
                    continue
                if xlo + m < px < xhi - m:
                    if a[1] == p[1]:
                        return 0
                    continue
            else:
                x = ax + slope * (py - ay)  # the edge's line at p's height
                strictly_level = ylo + m < py < yhi - m
                if x > px + m or x < px - m:
                    # p is clearly off the edge's line; the ray crosses the edge iff the line is
                    # right of p and the edge's ends are on either side of p's height (half-open)
                    if x > px and (strictly_level or _at_or_below(a[1], ay, p[1], py, m)
                                   != _at_or_below(b[1], by, p[1], py, m)):
                        inside = not inside
                    continue
                if strictly_level and on_line(p, a, slope):
                    return 0  # on the line, strictly within the edge's height: on the edge
            effect = _edge_effect(p, a, b)  # too close to call with floats
            if effect == _ON_EDGE:
                return 0
            if effect == _CROSSES_RAY:
                inside = not inside
        return 1 if inside else -1


def on_line(p: Point, a: Point, slope: int) -> bool:
    """Exactly: is p on the line through a with the given dx/dy (0: vertical, 1 or -1: diagonal)?"""
    if slope == 0:
        return p[0] == a[0]
    if slope == 1:
        return p[0] - a[0] == p[1] - a[1]
    return p[0] - a[0] == a[1] - p[1]


def _at_or_below(y: QS2, fy: float, py: QS2, fpy: float, margin: float) -> bool:
    """Exactly ``y <= py``; floats decide when the gap exceeds ``margin``."""
    if fy < fpy - margin:
        return True
    if fy > fpy + margin:
        return False
    return y == py or y < py


_SAMPLE_FRACTIONS = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 5))


def sample_points(ring: Sequence[Point]) -> Iterator[Point]:
    """Vertices, then edge points at 1/2, 1/3, 1/5 of each edge: candidates for a test point.

    Lazy: the first point usually decides, so the exact edge points are made only when needed.
    """
    yield from ring
    n = len(ring)
    for frac in _SAMPLE_FRACTIONS:
        for i in range(n):
            a, b = ring[i], ring[(i + 1) % n]
            yield (a[0] + (b[0] - a[0]) * frac, a[1] + (b[1] - a[1]) * frac)


def ring_inside_ring(inner: Sequence[Point], outer: Sequence[Point] | RingLocator) -> bool:
    """For two rings that do not cross: is ``inner`` inside ``outer``?

    Decided at the first sample point of ``inner`` (see :func:`sample_points`) that is not on
    ``outer``'s boundary. ``outer`` may be given as a :class:`RingLocator` (prepared once, asked
    many times).
    """
    locator = outer if isinstance(outer, RingLocator) else RingLocator(outer)
    inner = tuple(inner)
    if inner == locator.ring:
        return False  # every sample point lies on the (same) boundary
    # the samples of sample_points(inner), in its order, but a vertex of outer or a point of an
    # edge of outer is known to be on the boundary without locating it (rings sharing edges
    # would otherwise cost an exact test per sample)
    n = len(inner)
    for p in inner:
        if p not in locator.vertices:
            where = locator.locate(p)
            if where != 0:
                return where > 0
    edges = [(inner[i], inner[(i + 1) % n]) for i in range(n)]
    if all(e in locator.edges for e in edges):
        return False
    for frac in _SAMPLE_FRACTIONS:
        for a, b in edges:
            if (a, b) in locator.edges:
                continue
            where = locator.locate((a[0] + (b[0] - a[0]) * frac, a[1] + (b[1] - a[1]) * frac))
            if where != 0:
                return where > 0
    # every sample is on the outer boundary: treat as the same outline, not inside
    return False


def normalize_ring(ring: Sequence[Point], ccw: bool) -> Ring:
    """Drop repeated and straight-through vertices, orient, and start at the lowest-leftmost one."""
    pts = []
    for p in ring:
        if not pts or pts[-1] != p:
            pts.append(p)
    while len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    # drop vertices where the boundary goes straight on (one pass with a stack, then the seam)
    dirs = {}

    def dir_of(a, b):
        key = (a, b)
        if key not in dirs:
            dirs[key] = direction(a, b)
        return dirs[key]

    out: list = []
    for p in pts:
        while len(out) >= 2 and dir_of(out[-2], out[-1]) == dir_of(out[-1], p):
            out.pop()
        out.append(p)
    while len(out) >= 3 and dir_of(out[-2], out[-1]) == dir_of(out[-1], out[0]):
        out.pop()
    while len(out) >= 3 and dir_of(out[-1], out[0]) == dir_of(out[0], out[1]):
        out.pop(0)
    pts = out
    if (signed_area(pts).sign() > 0) != ccw:
        pts.reverse()
    start = min(range(len(pts)), key=lambda i: (pts[i][1], pts[i][0]))
    return tuple(pts[start:] + pts[:start])
