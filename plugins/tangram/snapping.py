"""Turning a rough position (a drag in the browser) into an exact placement.

The browser proposes where a piece was dropped, in floats; the server picks the exact position:

1. a vertex of the piece on a vertex of another piece or of the silhouette;
2. a vertex of the piece on an edge of another piece or of the silhouette, at a multiple of 1/2
   or of r2/2 from either end of that edge (so pieces sit flush and slide in natural steps);
3. otherwise a vertex of the piece on the half-unit lattice.

Among candidates near the drop, the closest wins (vertex contacts are preferred over edge
contacts, and both over the lattice), and a position that overlaps no other piece is preferred
to one that does. Every result is exact: offsets of piece vertices are exact, and so are the
anchors, so nothing is rounded.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Iterable, Sequence

from engine import InputError

from .cover_check import pieces_overlap
from .geometry import DIRECTION_STEPS, Point, direction
from .i18n import _
from .numbers import QS2
from .pieces import PIECE_NAMES, Placement, oriented_shape

#: How close (units) a piece vertex must come to a vertex / an edge to snap to it.
VERTEX_RADIUS = 0.45
EDGE_RADIUS = 0.3
#: Score penalties: a vertex contact beats an edge contact beats the plain lattice.
EDGE_PENALTY = 0.2
LATTICE_PENALTY = 0.3
#: Candidates within this score of the best are checked for overlaps (the first free one wins).
OVERLAP_SLACK = 0.4
HALF_R2 = QS2(0, "1/2")
R2F = math.sqrt(2)

_FLOAT = r"[-+]?[0-9]{1,5}(?:\.[0-9]{1,8})?"
_DROP = re.compile(rf"^\s*([A-Za-z][0-9]?)\s+r([0-9])\s+f([01])\s*@\s*({_FLOAT})\s*,\s*({_FLOAT})\s*$")


def parse_drop(text: str) -> tuple[str, int, int, float, float]:
    """``"L1 r3 f0 @ 1.25,-0.5"`` -> (name, rot, flip, x, y): where a dragged piece was dropped."""
    m = _DROP.match(text or "")
    if not m:
        raise InputError(_("cannot read the drop {drop}: expected 'NAME rR fF @ x,y' with decimal x, y").format(
            drop=repr(text)))
    name = m.group(1).upper()
    if name not in PIECE_NAMES:
        raise InputError(_("unknown piece {name}; the pieces are {pieces}").format(
            name=repr(m.group(1)), pieces=_(", ").join(PIECE_NAMES)))
    rot = int(m.group(2))
    if rot > 7:
        raise InputError(_("rotation r{rot} is out of range: use r0 to r7").format(rot=rot))
    return name, rot, int(m.group(3)), float(m.group(4)), float(m.group(5))


def _unit(k: int) -> tuple[QS2, QS2]:
    sx, sy = DIRECTION_STEPS[k]
    if sx and sy:
        return HALF_R2 * sx, HALF_R2 * sy  # (±1, ±1) / r2
    return QS2(sx), QS2(sy)


def _round_half(v: float) -> QS2:
    return QS2(Fraction(round(2 * v), 2))


def _steps_along(t: float, length: float) -> list[QS2]:
    """Exact distances near ``t`` along an edge: multiples of 1/2 and of r2/2 within the edge."""
    out = []
    for k in {math.floor(2 * t), math.ceil(2 * t)}:
        if 0 <= k / 2 <= length + 1e-9:
            out.append(QS2(Fraction(k, 2)))
    for k in {math.floor(2 * t / R2F), math.ceil(2 * t / R2F)}:
        if 0 <= k * R2F / 2 <= length + 1e-9:
            out.append(HALF_R2 * k)
    return out


def _edges(rings: Iterable[Sequence[Point]]):
    for ring in rings:
        n = len(ring)
        for i in range(n):
            a, b = ring[i], ring[(i + 1) % n]
            k = direction(a, b)
            if k is not None:
                yield a, b, k


def snap(name: str, rot: int, flip: int, fx: float, fy: float,
         others: Sequence[Placement], figure_rings: Sequence[Sequence[Point]] = ()) -> Placement:
    """The exact placement of piece ``name`` (orientation ``rot``, ``flip``) nearest to having
    its vertex 0 at (``fx``, ``fy``), touching ``others`` and the figure where it can."""
    offsets = oriented_shape(name[0], rot, flip)
    foff = [(float(x), float(y)) for x, y in offsets]
    verts = [(fx + ox, fy + oy) for ox, oy in foff]
    cands: list[tuple[float, QS2, QS2]] = []  # (score, exact x0, exact y0)

    anchor_rings = [p.vertices() for p in others] + [tuple(r) for r in figure_rings]
    for ring in anchor_rings:
        for ax, ay in ring:
            fax, fay = float(ax), float(ay)
            for (vx, vy), (ox, oy) in zip(verts, offsets):
                d = math.hypot(vx - fax, vy - fay)
                if d < VERTEX_RADIUS:
                    cands.append((d, ax - ox, ay - oy))
    for a, b, k in _edges(anchor_rings):
        fa = (float(a[0]), float(a[1]))
        length = math.hypot(float(b[0]) - fa[0], float(b[1]) - fa[1])
        ux, uy = _unit(k)
        fux, fuy = float(ux), float(uy)
        for (vx, vy), (ox, oy) in zip(verts, offsets):
            wx, wy = vx - fa[0], vy - fa[1]
            t = wx * fux + wy * fuy
            perp = abs(wx * fuy - wy * fux)
            if perp >= EDGE_RADIUS or t < -EDGE_RADIUS or t > length + EDGE_RADIUS:
                continue
            for s in _steps_along(t, length):
                px, py = a[0] + s * ux, a[1] + s * uy
                d = math.hypot(vx - float(px), vy - float(py))
                cands.append((d + EDGE_PENALTY, px - ox, py - oy))
    for (vx, vy), (ox, oy) in zip(verts, offsets):
        px, py = _round_half(vx), _round_half(vy)
        d = math.hypot(vx - float(px), vy - float(py))
        cands.append((d + LATTICE_PENALTY, px - ox, py - oy))

    cands.sort(key=lambda c: c[0])
    best = cands[0]
    seen = set()
    for score, x0, y0 in cands:
        if score > best[0] + OVERLAP_SLACK:
            break
        if (x0, y0) in seen:
            continue
        seen.add((x0, y0))
        if len(seen) > 40:
            break
        p = Placement(name, rot, flip, x0, y0)
        if not any(overlaps(p, o) for o in others):
            return p
    return Placement(name, rot, flip, best[1], best[2])


def centroid(p: Placement) -> Point:
    vs = p.vertices()
    n = len(vs)
    return (sum((v[0] for v in vs), QS2(0)) / n, sum((v[1] for v in vs), QS2(0)) / n)


def turned(p: Placement, turns: int) -> Placement:
    """The piece turned by ``turns`` x 45 degrees about its centre, exactly."""
    rot = (p.rot + turns) % 8
    cx, cy = centroid(p)
    ref = oriented_shape(p.shape, rot, p.flip)
    n = len(ref)
    # the new shape's own centroid offset from its vertex 0: put that centroid where the old was
    ox = sum((v[0] for v in ref), QS2(0)) / n
    oy = sum((v[1] for v in ref), QS2(0)) / n
    return Placement(p.name, rot, p.flip, cx - ox, cy - oy)


def flipped(p: Placement) -> Placement:
    """The piece mirrored left-right about the vertical line through its centre, exactly.

    Mirroring after ``rotate(R) . mirror^F`` equals ``rotate(-R) . mirror^(1-F)``.
    """
    rot, flip = (-p.rot) % 8, 1 - p.flip
    cx, cy = centroid(p)
    ref = oriented_shape(p.shape, rot, flip)
    n = len(ref)
    ox = sum((v[0] for v in ref), QS2(0)) / n
    oy = sum((v[1] for v in ref), QS2(0)) / n
    return Placement(p.name, rot, flip, cx - ox, cy - oy)


def shift_inside(name: str, rot: int, flip: int, fx: float, fy: float,
                 box: tuple[float, float, float, float]) -> tuple[float, float]:
    """Float (x, y) of vertex 0 after shifting the piece into ``box`` where it sticks out."""
    vs = [(fx + float(x), fy + float(y)) for x, y in oriented_shape(name[0], rot, flip)]
    x0, y0, x1, y1 = box
    dx = dy = 0.0
    lo, hi = min(v[0] for v in vs), max(v[0] for v in vs)
    if lo < x0:
        dx = x0 - lo
    elif hi > x1:
        dx = x1 - hi
    lo, hi = min(v[1] for v in vs), max(v[1] for v in vs)
    if lo < y0:
        dy = y0 - lo
    elif hi > y1:
        dy = y1 - hi
    return fx + dx, fy + dy


def _box(p: Placement) -> tuple[float, float, float, float]:
    vs = [(float(x), float(y)) for x, y in p.vertices()]
    return (min(v[0] for v in vs), min(v[1] for v in vs), max(v[0] for v in vs), max(v[1] for v in vs))


#: Float boxes more than this apart are apart exactly too (draft coordinates stay below 1000,
#: where a float is off by far less), so the exact test is skipped only for them; boxes that
#: touch or nearly touch always get the exact test.
_BOX_MARGIN = 1e-6


def may_overlap(a: Placement, b: Placement) -> bool:
    """False when the pieces' boxes are clearly apart (then they cannot overlap)."""
    ax0, ay0, ax1, ay1 = _box(a)
    bx0, by0, bx1, by1 = _box(b)
    return not (ax1 < bx0 - _BOX_MARGIN or bx1 < ax0 - _BOX_MARGIN
                or ay1 < by0 - _BOX_MARGIN or by1 < ay0 - _BOX_MARGIN)


def overlaps(a: Placement, b: Placement) -> bool:
    """The exact overlap test, after a cheap float check of the boxes."""
    return may_overlap(a, b) and pieces_overlap(a, b)


def overlapping(pieces: Sequence[Placement]) -> list[tuple[str, str]]:
    """The pairs of pieces that overlap in area (exact test), in piece order."""
    pairs = []
    for i, a in enumerate(pieces):
        for b in pieces[i + 1:]:
            if overlaps(a, b):
                pairs.append((a.name, b.name))
    return pairs
