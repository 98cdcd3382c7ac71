"""Exact tests on segments of the 45-degree lattice: crossings, overlaps, contacts.

Split from geometry.py. The ``*_prechecked`` forms first decide with floats and fall back to the
exact test only within ``FLOAT_MARGIN`` of the decision boundary (see geometry.py), which is
what keeps validating a 400-vertex silhouette quick.
"""

from __future__ import annotations

from typing import Iterable

from .geometry import DIRECTION_STEPS, FLOAT_MARGIN, Point, direction, magnitude, on_line, on_segment
from .numbers import ZERO


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True if segments a-b and c-d cross at a single point interior to both (a proper crossing).

    Boundaries that meet at a vertex are judged by :func:`boundaries_cross_at` instead.
    """

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


def _float_orient(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def float_point(p: Point) -> tuple[float, float]:
    return (float(p[0]), float(p[1]))


def coordinate_scale(points: Iterable[Point]) -> float:
    """The largest magnitude of the points' coordinates: float errors are a tiny fraction of it."""
    return max((magnitude(c) for p in points for c in p), default=0.0)


def segments_cross_prechecked(a: Point, b: Point, c: Point, d: Point,
                              fl: tuple[tuple[float, float], ...], scale: float) -> bool:
    """Exactly ``segments_cross(a, b, c, d)``, usually decided with floats.

    ``fl`` holds the four points as floats, ``scale`` is :func:`coordinate_scale` of them (or more).
    """
    if a == c or a == d or b == c or b == d:
        return False  # a shared end is on the other segment's line: not a proper crossing
    fa, fb, fc, fd = fl
    m = FLOAT_MARGIN * 16 * scale * scale  # orientations are products of coordinate differences
    o1, o2 = _float_orient(fa, fb, fc), _float_orient(fa, fb, fd)
    if (o1 > m and o2 > m) or (o1 < -m and o2 < -m):
        return False  # c and d clearly on the same side of a-b
    o3, o4 = _float_orient(fc, fd, fa), _float_orient(fc, fd, fb)
    if (o3 > m and o4 > m) or (o3 < -m and o4 < -m):
        return False
    if min(abs(o1), abs(o2), abs(o3), abs(o4)) > m:
        return o1 * o2 < 0 and o3 * o4 < 0  # every sign is certain
    return segments_cross(a, b, c, d)


def segments_overlap_prechecked(a: Point, b: Point, c: Point, d: Point, dir_ab: int | None,
                                dir_cd: int | None, fl: tuple[tuple[float, float], ...],
                                scale: float) -> bool:
    """Exactly ``segments_overlap(a, b, c, d)`` given the edges' directions, usually without
    exact arithmetic: segments that are not parallel, or clearly not on one line, cannot overlap."""
    if dir_ab is None or dir_cd is None or dir_ab % 4 != dir_cd % 4:
        return False
    fa, _, fc, fd = fl
    dx, dy = DIRECTION_STEPS[dir_ab]
    m = FLOAT_MARGIN * 8 * scale
    for fp in (fc, fd):
        if abs((fp[0] - fa[0]) * dy - (fp[1] - fa[1]) * dx) > m:
            return False  # c or d clearly off the line through a and b
    return segments_overlap(a, b, c, d)


def point_inside_segment_prechecked(p: Point, a: Point, b: Point, dir_ab: int | None,
                                    fp: tuple[float, float], fa: tuple[float, float],
                                    fb: tuple[float, float], scale: float) -> bool:
    """Exactly: does p lie on the segment a-b (direction index ``dir_ab``) but on neither end?

    ``fp``, ``fa``, ``fb`` are the points as floats, ``scale`` their :func:`coordinate_scale` (or
    more). Floats decide when p is clearly off the segment's line or beyond an end; exact
    arithmetic confirms the rest.
    """
    if dir_ab is None:
        return False  # not a 45-degree edge: refused before anyone asks
    dx, dy = DIRECTION_STEPS[dir_ab]
    m = FLOAT_MARGIN * 8 * scale
    if abs((fp[0] - fa[0]) * dy - (fp[1] - fa[1]) * dx) > m:
        return False  # clearly off the line through a and b
    k = 0 if dx else 1  # position along the line: x, or y for a vertical edge
    lo, hi = (fa[k], fb[k]) if fa[k] <= fb[k] else (fb[k], fa[k])
    if fp[k] < lo - m or fp[k] > hi + m:
        return False  # clearly beyond an end
    if lo + m < fp[k] < hi - m:
        return on_line(p, a, dx * dy) if dy else p[1] == a[1]  # exactly on the line?
    return p != a and p != b and on_segment(p, a, b)  # near an end: exactly


def _strictly_between(x: int, start: int, end: int) -> bool:
    """Is direction x strictly inside the counter-clockwise arc of directions from start to end?"""
    return 0 < (x - start) % 8 < (end - start) % 8


def boundaries_cross_at(first: tuple[int, int], second: tuple[int, int]) -> bool:
    """Do two boundary passes through one point cross there, rather than just touch?

    A pass is the pair of directions (indices 0..7) in which a boundary leaves the point: towards
    the previous and the next vertex of a ring passing through a vertex, or both ways along an edge
    passing through its interior. Near the point each pass splits a small circle around it in two
    arcs; the boundaries cross iff the second pass has one direction in each arc of the first (the
    four directions interleave). This is exact: directions are small integers. Passes sharing a
    direction run along a common edge, which is a different refusal; they are reported as not
    crossing here.
    """
    u1, w1 = first
    u2, w2 = second
    if len({u1, w1, u2, w2}) < 4:
        return False
    return _strictly_between(u2, u1, w1) != _strictly_between(w2, u1, w1)


