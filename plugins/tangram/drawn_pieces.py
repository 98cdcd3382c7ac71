"""Seven drawn pieces read as the pieces they are.

Tangram programs and drawing tools export a figure as seven polygons, one per piece, with
decimal coordinates at any turn and scale, each corner a little off. Their union is an outline
that the outline readers would have to read again from scratch; but each polygon already says
which piece it is, how it is turned and where it lies. So each polygon is matched to a piece's
exact shape in one of its sixteen orientations (turned to the figure's eight directions and
scaled so the seven make 16 units), and the pieces' contacts then make the positions exact
(:func:`.contacts.exact_placements`): the union of the exact pieces is the figure, covered by
construction.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from typing import Sequence

from .contacts import FloatPlacement, exact_placements, float_shape, touch_distance
from .outline import FloatRing, ring_area
from .pieces import PIECE_NAMES, SHAPE_OF, Placement
from .reading import Normalised, normalise

#: A polygon whose corners lie further than this (units) from a piece's shape is not that piece.
MAX_CORNER_MOVE = 0.35
#: The least noise (units) assumed when making the positions exact. Drawn pieces leave gaps
#: and overlaps between them (a stroke's width, a piece drawn a little small) even where each
#: piece's own corners are exact, so pieces this close count as touching (contacts.TOUCH times
#: this: 0.075 units). More reads gaps of 0.06 units as well but joins more of the pieces an
#: exact export has slid by a few hundredths (`bench/tangram_pictures.py --svg-pieces`).
MIN_NOISE = 0.03
#: How many pieces of each shape the seven are.
SHAPE_COUNTS = Counter(SHAPE_OF[name] for name in PIECE_NAMES)
SHAPES_BY_CORNERS = {3: ("L", "M", "S"), 4: ("Q", "P")}


@dataclass(frozen=True)
class DrawnPieces:
    """The seven pieces at exact positions (the first at the origin), the drawing as read, and
    the largest distance (units) from a drawn corner to its piece's exact corner."""

    pieces: list[Placement]
    normalised: Normalised
    moved: float


def read_drawn_pieces(rings: Sequence[FloatRing]) -> DrawnPieces | None:
    """The seven pieces ``rings`` draw (one polygon each, input coordinates, y up), at exact
    positions; None when they are not the seven tangram pieces (another count, a polygon no
    piece matches, pieces that would overlap once exact, or a corner that would end up further
    than MAX_CORNER_MOVE from where it was drawn)."""
    if len(rings) != len(PIECE_NAMES):
        return None
    norm = normalise(rings)
    # normalise() takes a ring inside another as a hole; pieces touching at a corner can pass
    # for that, so the scale is set again from the pieces' own areas (16 units together)
    drawn_area = sum(abs(ring_area(r)) for r in norm.rings)
    if not drawn_area > 0:
        return None
    k = math.sqrt(16 / drawn_area)
    norm = replace(norm, rings=[[(k * x, k * y) for x, y in r] for r in norm.rings], scale=norm.scale / k)
    matched = [_match(_corners(ring)) for ring in norm.rings]
    if any(m is None for m in matched):
        return None
    if Counter(m[0] for m in matched if m is not None) != SHAPE_COUNTS:
        return None
    names = {shape: [n for n in PIECE_NAMES if SHAPE_OF[n] == shape] for shape in SHAPE_COUNTS}
    floats: list[FloatPlacement] = []
    for shape, rot, flip, x, y, _error in (m for m in matched if m is not None):
        floats.append(FloatPlacement(names[shape].pop(0), rot, flip, x, y))
    # the corners' typical move, not the largest: how close counts as touching and how simple
    # a slide is made follow it, and one stray corner would make every slide a round number
    drawn = [_aligned(f, _corners(ring)) for f, ring in zip(floats, norm.rings)]
    moves = [math.dist(p, q) for f, corners in zip(floats, drawn) for p, q in zip(f.points(), corners)]
    typical = math.sqrt(sum(m * m for m in moves) / len(moves))
    # edges in line only as far as the corners' own noise says: exact exports stay exact
    placed = exact_placements(floats, max(MIN_NOISE, typical), lines=touch_distance(typical))
    if placed is None:
        return None
    # exact_placements puts the first piece at the origin; the drawing has it where it was drawn
    dx, dy = floats[0].x - float(placed[0].x), floats[0].y - float(placed[0].y)
    moved = max(math.dist(p, (float(x) + dx, float(y) + dy))
                for corners, e in zip(drawn, placed) for p, (x, y) in zip(corners, e.vertices()))
    # contacts that pulled a piece far from where it was drawn joined pieces that do not touch
    return DrawnPieces(placed, norm, moved) if moved <= MAX_CORNER_MOVE else None


def _corners(ring: FloatRing) -> FloatRing:
    """The polygon's corners, counter-clockwise: repeated points and points on a straight run
    (a closing point, an exporter's extra vertex) dropped."""
    pts = [p for i, p in enumerate(ring) if math.dist(p, ring[i - 1]) > 1e-9]
    changed = True
    while changed and len(pts) > 3:
        changed = False
        for i in range(len(pts)):
            a, b, c = pts[i - 1], pts[i], pts[(i + 1) % len(pts)]
            cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
            if abs(cross) < 0.05 * math.dist(a, b) * math.dist(b, c):  # turns by under 3 degrees
                del pts[i]
                changed = True
                break
    return pts if ring_area(pts) > 0 else pts[::-1]


def _aligned(piece: FloatPlacement, corners: FloatRing) -> FloatRing:
    """The drawn corners in the order of the piece's vertices (the cyclic shift nearest them)."""
    pts = piece.points()
    n = len(corners)
    shifts = [corners[k:] + corners[:k] for k in range(n)]
    return min(shifts, key=lambda c: sum(math.dist(p, q) for p, q in zip(pts, c)))


def _match(corners: FloatRing) -> tuple[str, int, int, float, float, float] | None:
    """The piece shape and orientation the polygon is, with the position of its vertex 0 and
    the largest corner move: (shape, rot, flip, x, y, move), or None if none is within
    MAX_CORNER_MOVE."""
    best = None
    n = len(corners)
    for shape in SHAPES_BY_CORNERS.get(n, ()):
        for rot in range(8):
            for flip in (0, 1):
                model = float_shape(shape, rot, flip)
                for shift in range(n):
                    drawn = corners[shift:] + corners[:shift]
                    x = sum(p[0] - q[0] for p, q in zip(drawn, model)) / n
                    y = sum(p[1] - q[1] for p, q in zip(drawn, model)) / n
                    move = max(math.dist(p, (q[0] + x, q[1] + y)) for p, q in zip(drawn, model))
                    if best is None or move < best[-1]:
                        best = (shape, rot, flip, x, y, move)
    return best if best is not None and best[-1] <= MAX_CORNER_MOVE else None
