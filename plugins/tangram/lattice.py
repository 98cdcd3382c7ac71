"""The fast exact representation the solver works in: integer lattices and boundary chains.

**Integers instead of fractions.** All coordinates of one problem are brought to a common
denominator ``D``; a number is then the integer pair ``(A, B)`` meaning ``(A + B*sqrt2) / D``. A
point is ``(xa, xb, ya, yb)``. Identity (vertex equality, which line an edge lies on) uses the
integers. *Order* uses the float ``A + B*sqrt2``, and that is exact too, because the sizes are
bounded (:data:`MAX_UNITS`): a nonzero ``A + B*sqrt2`` equals ``(A^2 - 2B^2)/(A - B*sqrt2)``, so its
absolute value is at least ``1/(|A| + 1.42|B|)`` >= 1.5e-6 for the differences that occur, while
the float rounding error stays below 1e-9. So two values compare equal exactly when their floats
are within :data:`EPS`, and otherwise the float order is the true order. (The independent cover
check in :mod:`cover_check` uses Fractions and never relies on this.)

**Boundary chains instead of polygon clipping.** A region is stored as its oriented boundary
(region on the left), edge by edge, grouped by the line the edge lies on. Every edge lies on one
of the lines ``y = c``, ``y - x = c``, ``x = c``, ``x + y = c``; on each line the boundary is a
sorted list of intervals with a direction. Removing a piece that lies inside the region is just
adding its boundary reversed: where the piece's edge runs along the region's boundary the two
cancel, everywhere else the piece's edge becomes new boundary. No intersection point is ever
computed (a contained piece meets the boundary only at vertices of either), which is why the
lattice never grows. Adding pieces' boundaries forward builds the union of non-overlapping pieces
the same way (shared edges cancel).
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import lcm
from typing import Iterable, Sequence

from .geometry import DIRECTION_STEPS, Point
from .numbers import QS2

SQ2 = math.sqrt(2.0)
#: Floats of lattice values closer than this are the same exact value (see module docstring).
EPS = 1e-7
#: Largest |A| or |B| allowed for a coordinate in lattice units (common denominator included).
MAX_UNITS = 1 << 15

#: Per line family: the direction index of increasing parameter.
FORWARD = (0, 1, 2, 7)


def common_denominator(numbers: Iterable[QS2]) -> int:
    d = 1
    for q in numbers:
        d = lcm(d, q.a.denominator, q.b.denominator)
    return d


class Lattice:
    """Conversion between exact QS2 values and integer pairs with common denominator ``d``."""

    def __init__(self, d: int):
        self.d = d

    def num(self, q: QS2) -> tuple[int, int]:
        a, b = q.a * self.d, q.b * self.d
        if a.denominator != 1 or b.denominator != 1:
            raise ValueError("value not in this lattice")
        return (int(a), int(b))

    def point(self, p: Point) -> tuple[int, int, int, int]:
        (xa, xb), (ya, yb) = self.num(p[0]), self.num(p[1])
        return (xa, xb, ya, yb)

    def qs2(self, a: int, b: int) -> QS2:
        return QS2(Fraction(a, self.d), Fraction(b, self.d))

    def to_point(self, p: tuple[int, int, int, int]) -> Point:
        return (self.qs2(p[0], p[1]), self.qs2(p[2], p[3]))


def fval(a: int, b: int) -> float:
    return a + b * SQ2


def direction_of(p, q) -> int:
    """Direction index of lattice points p->q (assumed to be a 45-degree edge)."""
    dx = fval(q[0] - p[0], q[1] - p[1])
    dy = fval(q[2] - p[2], q[3] - p[3])
    sx = 0 if abs(dx) < EPS else (1 if dx > 0 else -1)
    sy = 0 if abs(dy) < EPS else (1 if dy > 0 else -1)
    return DIRECTION_STEPS.index((sx, sy))


def _line_of(p, d: int):
    """(line key, parameter of p) for a point on an edge of direction d."""
    fam = d % 4
    xa, xb, ya, yb = p
    if fam == 0:
        return (0, ya, yb), (xa, xb)
    if fam == 1:
        return (1, ya - xa, yb - xb), (xa, xb)
    if fam == 2:
        return (2, xa, xb), (ya, yb)
    return (3, xa + ya, xb + yb), (xa, xb)


def _point_at(key, t):
    fam, ca, cb = key
    ta, tb = t
    if fam == 0:
        return (ta, tb, ca, cb)
    if fam == 1:
        return (ta, tb, ta + ca, tb + cb)
    if fam == 2:
        return (ca, cb, ta, tb)
    return (ta, tb, ca - ta, cb - tb)


def _crossing(k1, k2):
    """The lattice point where two lines of different families meet (None if not a lattice point)."""
    if k1[0] == k2[0]:
        return None
    (f1, a1, b1), (f2, a2, b2) = sorted((k1, k2))
    if (f1, f2) == (0, 1):
        return (a1 - a2, b1 - b2, a1, b1)
    if (f1, f2) == (0, 2):
        return (a2, b2, a1, b1)
    if (f1, f2) == (0, 3):
        return (a2 - a1, b2 - b1, a1, b1)
    if (f1, f2) == (1, 2):
        return (a2, b2, a1 + a2, b1 + b2)
    if (f1, f2) == (1, 3):
        xa, xb, ya, yb = a2 - a1, b2 - b1, a2 + a1, b2 + b1
        if xa % 2 or xb % 2 or ya % 2 or yb % 2:
            return None
        return (xa // 2, xb // 2, ya // 2, yb // 2)
    return (a1, b1, a2 - a1, b2 - b1)  # (2, 3)


class ChainError(ValueError):
    """Boundary edges ran twice the same way: the polygons overlap (or a bug)."""


def _merge(intervals, t0, t1, s):
    """Add the directed interval (t0 < t1 by value, direction s) to a line's interval tuple."""
    pts = {t0, t1}
    for a, b, _ in intervals:
        pts.add(a)
        pts.add(b)
    ordered = sorted(pts, key=lambda t: t[0] + t[1] * SQ2)
    allv = list(intervals) + [(t0, t1, s)]
    vals = {t: t[0] + t[1] * SQ2 for t in ordered}
    out = []
    for u, w in zip(ordered, ordered[1:]):
        mid = (vals[u] + vals[w]) / 2
        cov = 0
        for a, b, sgn in allv:
            if vals[a] < mid < vals[b]:
                cov += sgn
        if cov > 1 or cov < -1:
            raise ChainError("boundary edges overlap in the same direction")
        if cov:
            if out and out[-1][2] == cov and out[-1][1] == u:
                out[-1] = (out[-1][0], w, cov)
            else:
                out.append((u, w, cov))
    return tuple(out)


def _records(key, intervals):
    """Edge records of one line: (start, end, dir, sx, sy, minx, maxx, miny, maxy, mins, maxs, mind, maxd)."""
    fam = key[0]
    recs = []
    for t0, t1, s in intervals:
        p, q = _point_at(key, t0), _point_at(key, t1)
        if s > 0:
            start, end, d = p, q, FORWARD[fam]
        else:
            start, end, d = q, p, (FORWARD[fam] + 4) % 8
        x0, y0 = fval(p[0], p[1]), fval(p[2], p[3])
        x1, y1 = fval(q[0], q[1]), fval(q[2], q[3])
        sx, sy = (x0, y0) if start is p else (x1, y1)
        s0, s1 = x0 + y0, x1 + y1
        d0, d1 = y0 - x0, y1 - x1
        recs.append((start, end, d, sx, sy,
                     min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1),
                     min(s0, s1), max(s0, s1), min(d0, d1), max(d0, d1)))
    return tuple(recs)


class Chain:
    """An oriented boundary (region on the left), stored per line. Treat as immutable."""

    __slots__ = ("lines", "records")

    def __init__(self, lines=None, records=None):
        self.lines = lines if lines is not None else {}
        self.records = records if records is not None else {}

    def with_polygon(self, pts: Sequence, reverse: bool = False) -> "Chain":
        """A new chain with the polygon's boundary added (``reverse``: subtracted)."""
        lines = dict(self.lines)
        touched = set()
        n = len(pts)
        for i in range(n):
            p, q = pts[i], pts[(i + 1) % n]
            if reverse:
                p, q = q, p
            d = direction_of(p, q)
            key, tp = _line_of(p, d)
            _, tq = _line_of(q, d)
            if d == FORWARD[d % 4]:
                t0, t1, s = tp, tq, 1
            else:
                t0, t1, s = tq, tp, -1
            lines[key] = _merge(lines.get(key, ()), t0, t1, s)
            touched.add(key)
        records = dict(self.records)
        for key in touched:
            if lines[key]:
                records[key] = _records(key, lines[key])
            else:
                del lines[key]
                records.pop(key, None)
        return Chain(lines, records)

    def edges(self) -> list:
        out = []
        for recs in self.records.values():
            out.extend(recs)
        return out

    def is_empty(self) -> bool:
        return not self.lines

    def rings(self) -> list[list]:
        """The boundary as closed rings of lattice points (outer rings counter-clockwise).

        At a vertex where the region touches itself the walk keeps the empty space on its right
        consistently: pieces meeting corner to corner around a gap give a hole ring, and two
        lobes meeting at a point give one outline passing twice through that point.
        """
        # Split edges at vertices of other edges lying on them (a corner touching the middle
        # of an edge), so that around every vertex the boundary alternates out, in, out, in.
        raw = [(e[0], e[1], e[2]) for e in self.edges()]
        verts = {e[0] for e in raw} | {e[1] for e in raw}
        # Straight runs can also cross each other at a point where pieces meet corner to corner
        # (sectors alternate filled/empty around it) without any edge ending there.
        keys = sorted({_line_of(e[0], e[2])[0] for e in raw})
        for i, k1 in enumerate(keys):
            for k2 in keys[i + 1:]:
                pt = _crossing(k1, k2)
                if pt is not None:
                    verts.add(pt)
        pieces = []
        for s0, e1, d in raw:
            key, t0 = _line_of(s0, d)
            _, t1 = _line_of(e1, d)
            f0, f1 = fval(*t0), fval(*t1)
            lo, hi = min(f0, f1), max(f0, f1)
            inner = []
            for v in verts:
                k, tv = _line_of(v, d)
                if k == key and lo + EPS < fval(*tv) < hi - EPS:
                    inner.append((abs(fval(*tv) - f0), v))
            chain_pts = [s0] + [v for _, v in sorted(inner)] + [e1]
            for a, b in zip(chain_pts, chain_pts[1:]):
                pieces.append((a, b, d))
        outgoing: dict = {}
        for e in pieces:
            outgoing.setdefault(e[0], []).append(e)
        used = set()
        rings = []
        for e0 in sorted(pieces, key=lambda e: (fval(e[0][2], e[0][3]), fval(e[0][0], e[0][1]), e[2])):
            if id(e0) in used:
                continue
            ring = []
            e = e0
            while True:
                used.add(id(e))
                ring.append(e[0])
                back = (e[2] + 4) % 8
                # take the outgoing edge closest counter-clockwise from the way back: it bounds
                # the same empty sector, so a hole whose corners are pinch points closes into one
                # clockwise ring (and lobes touching at a point become one outline through that
                # point). This pairs incoming and outgoing edges one to one around each vertex
                # (they alternate), so the walk closes at e0.
                e = min(outgoing[e[1]], key=lambda o: (o[2] - back) % 8 or 8)
                if e is e0:
                    break
                if len(ring) > len(pieces):
                    raise ChainError("boundary walk did not close (overlapping polygons?)")
            rings.append(ring)
        return rings


def polygon_chain(polygons: Iterable[Sequence]) -> Chain:
    """The boundary chain of the union of non-overlapping convex/simple lattice polygons (CCW)."""
    chain = Chain()
    for pts in polygons:
        chain = chain.with_polygon(pts)
    return chain


def ring_area2(ring) -> float:
    """Twice the signed area of a lattice ring, as a float (for ordering only)."""
    s = 0.0
    n = len(ring)
    for i in range(n):
        p, q = ring[i], ring[(i + 1) % n]
        s += fval(p[0], p[1]) * fval(q[2], q[3]) - fval(q[0], q[1]) * fval(p[2], p[3])
    return s
