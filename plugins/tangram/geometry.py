"""Exact plane geometry for polygons whose edges run at multiples of 45 degrees.

Points are pairs of :class:`~plugins.tangram.numbers.QS2`. Because every edge is horizontal,
vertical or diagonal, every line we meet is ``x = c``, ``y = c``, ``x + y = c`` or ``y - x = c``,
and two convex such polygons (or a polygon and a segment) are separated, if at all, along one of
the four "forms" x, y, x+y, y-x (separating axis theorem: the candidate axes are the edge normals).
So overlap and containment questions need only additions and exact comparisons.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Sequence

from .numbers import QS2, ZERO, format_number

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
    dx = q[0] - p[0]
    dy = q[1] - p[1]
    sx, sy = dx.sign(), dy.sign()
    if sx == 0 and sy == 0:
        return None
    if sx != 0 and sy != 0 and dx != dy and dx != -dy:
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
    """True if convex polygons (or a segment ``a``) with 45-degree edges share interior area.

    For a segment ``a`` this answers whether the segment meets the open interior of ``b``.
    Separated (weakly) along any of the four forms means no overlap.
    """
    ra, rb = form_ranges(a), form_ranges(b)
    for (amin, amax), (bmin, bmax) in zip(ra, rb):
        if amax <= bmin or bmax <= amin:
            return False
    return True


def on_segment(p: Point, a: Point, b: Point) -> bool:
    """True if p lies on the closed segment a-b (a 45-degree segment)."""
    if not (min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])):
        return False
    d = direction(a, b)
    if d is None:
        return p == a
    dx, dy = DIRECTION_STEPS[d]
    # p - a must be parallel to (dx, dy): cross product zero
    return (p[0] - a[0]) * dy - (p[1] - a[1]) * dx == ZERO


def point_in_ring(p: Point, ring: Sequence[Point]) -> int:
    """1 if p is strictly inside the ring, 0 if on its boundary, -1 if outside (exact).

    Ray casting towards +x with the half-open rule; crossings of 45-degree edges need no division.
    """
    n = len(ring)
    inside = False
    px, py = p
    for i in range(n):
        a, b = ring[i], ring[(i + 1) % n]
        if on_segment(p, a, b):
            return 0
        (ax, ay), (bx, by) = a, b
        if (ay <= py) == (by <= py):
            continue  # horizontal, or both ends on one side of the ray's line
        # x of the edge at height py
        if ax == bx:
            x = ax
        elif (bx - ax) == (by - ay):  # y - x = c
            x = ax + (py - ay)
        else:  # x + y = c
            x = ax - (py - ay)
        if x > px:
            inside = not inside
    return 1 if inside else -1


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True if segments a-b and c-d cross at a single point interior to both (a proper crossing)."""

    def orient(p, q, r):
        return ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])).sign()

    o1, o2 = orient(a, b, c), orient(a, b, d)
    o3, o4 = orient(c, d, a), orient(c, d, b)
    return o1 * o2 < 0 and o3 * o4 < 0


def segments_overlap(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True if collinear segments a-b and c-d share a piece of positive length."""
    da, dc = direction(a, b), direction(c, d)
    if da is None or dc is None or da % 4 != dc % 4:
        return False
    if not on_segment(c, a, b) and not on_segment(d, a, b) and not on_segment(a, c, d):
        return False
    # collinear?  c and d both on the line through a, b
    dx, dy = DIRECTION_STEPS[da]
    for p in (c, d):
        if (p[0] - a[0]) * dy - (p[1] - a[1]) * dx != ZERO:
            return False
    k = 1 if da % 4 == 2 else 0  # parameter along the line: y for vertical, else x
    lo = max(min(a[k], b[k]), min(c[k], d[k]))
    hi = min(max(a[k], b[k]), max(c[k], d[k]))
    return lo < hi


def sample_points(ring: Sequence[Point]) -> list[Point]:
    """Vertices, then edge points at 1/2, 1/3, 1/5 of each edge: candidates for a test point."""
    out = list(ring)
    n = len(ring)
    for frac in ((1, 2), (1, 3), (1, 5)):
        num, den = frac
        for i in range(n):
            a, b = ring[i], ring[(i + 1) % n]
            out.append((a[0] + (b[0] - a[0]) * QS2(num, 0) / den, a[1] + (b[1] - a[1]) * QS2(num, 0) / den))
    return out


def ring_inside_ring(inner: Sequence[Point], outer: Sequence[Point]) -> bool:
    """For two rings that do not cross: is ``inner`` inside ``outer``?

    Decided at the first sample point of ``inner`` that is not on ``outer``'s boundary.
    """
    for p in sample_points(inner):
        where = point_in_ring(p, outer)
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
