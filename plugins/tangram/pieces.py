"""The seven tangram pieces, their orientations, and placements written as move text.

Unit: the seven pieces form a 4 x 4 square (total area 16). Each piece has a *base shape* whose
vertex 0 is at the origin; an orientation is a rotation by ``r`` * 45 degrees (r = 0..7,
counter-clockwise) applied after an optional mirror ``f1`` (x -> -x). A placement translates
the oriented shape so that vertex 0 lands on the given position. So the move
``"P r3 f1 @ 1+r2,2"`` rebuilds exactly as ``position + rotate(r, mirror(f, base vertex))``.

Base shapes (counter-clockwise, vertex 0 first)::

    L1, L2  large triangle   (0,0) (2r2,0) (0,2r2)     legs 2r2, area 4
    M       medium triangle  (0,0) (2,0) (0,2)         legs 2,   area 2
    S1, S2  small triangle   (0,0) (r2,0) (0,r2)       legs r2,  area 1
    Q       square           (0,0) (r2,0) (r2,r2) (0,r2)         area 2
    P       parallelogram    (0,0) (2,0) (3,1) (1,1)   sides 2 and r2, area 2
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engine import N_, InputError

from .geometry import Point, point_text
from .i18n import _
from .numbers import QS2, R2, parse_number

_B = {  # base vertices as (a, b) coefficient pairs of x and y: value = a + b*sqrt2
    "L": (((0, 0), (0, 0)), ((0, 2), (0, 0)), ((0, 0), (0, 2))),
    "M": (((0, 0), (0, 0)), ((2, 0), (0, 0)), ((0, 0), (2, 0))),
    "S": (((0, 0), (0, 0)), ((0, 1), (0, 0)), ((0, 0), (0, 1))),
    "Q": (((0, 0), (0, 0)), ((0, 1), (0, 0)), ((0, 1), (0, 1)), ((0, 0), (0, 1))),
    "P": (((0, 0), (0, 0)), ((2, 0), (0, 0)), ((3, 0), (1, 0)), ((1, 0), (1, 0))),
}

#: Piece names in the order a solution lists them; shapes are the first letter.
PIECE_NAMES = ("L1", "L2", "M", "S1", "S2", "Q", "P")
SHAPE_OF = {name: name[0] for name in PIECE_NAMES}
AREA = {"L": 4, "M": 2, "S": 1, "Q": 2, "P": 2}
#: Shape names (translate where shown: ``_(TITLES[shape])``).
TITLES = {"L": N_("large triangle"), "M": N_("medium triangle"), "S": N_("small triangle"), "Q": N_("square"),
          "P": N_("parallelogram")}


def base_shape(shape: str) -> tuple[Point, ...]:
    return tuple((QS2(*x), QS2(*y)) for x, y in _B[shape])


def _rotate45(p: Point) -> Point:
    # (x, y) -> ((x - y)/r2, (x + y)/r2); dividing by r2 keeps Q(sqrt 2)
    x, y = p
    return ((x - y) / R2, (x + y) / R2)


@lru_cache(maxsize=None)
def oriented_shape(shape: str, rot: int, flip: int) -> tuple[Point, ...]:
    """Vertices (counter-clockwise, vertex 0 at the origin) of a base shape mirrored then rotated."""
    pts = base_shape(shape)
    if flip:
        pts = tuple((-x, y) for x, y in pts)
        pts = (pts[0],) + tuple(reversed(pts[1:]))  # keep counter-clockwise, vertex 0 first
    for _turn in range(rot % 8):
        pts = tuple(_rotate45(p) for p in pts)
    return pts


@dataclass(frozen=True, order=True)
class Placement:
    """One placed piece: its name, orientation and the exact position of its vertex 0."""

    name: str
    rot: int
    flip: int
    x: QS2
    y: QS2

    @property
    def shape(self) -> str:
        return SHAPE_OF[self.name]

    def vertices(self) -> tuple[Point, ...]:
        """The piece's vertices in counter-clockwise order, exactly."""
        return tuple((self.x + px, self.y + py) for px, py in oriented_shape(self.shape, self.rot, self.flip))

    def notation(self) -> str:
        return f"{self.name} r{self.rot} f{self.flip} @ {point_text((self.x, self.y))}"

    def moved(self, dx: QS2, dy: QS2) -> "Placement":
        return Placement(self.name, self.rot, self.flip, self.x + dx, self.y + dy)

    def __str__(self):
        return self.notation()


_MOVE = re.compile(r"^\s*([A-Za-z][0-9]?)\s+r([0-9])\s+f([01])\s*@\s*(\S+?)\s*,\s*(\S+?)\s*$")


def parse_placement(text: str) -> Placement:
    """Parse move text like ``"L1 r3 f0 @ 1+r2,2"``; InputError naming what is wrong."""
    if not isinstance(text, str) or len(text) > 200:
        raise InputError(_("a move is text like 'L1 r3 f0 @ 1+r2,2' (piece, rotation, flip, position)"))
    m = _MOVE.match(text)
    if not m:
        raise InputError(_("cannot read the move {move}: write piece, rotation 0-7, flip 0/1 "
                           "and position, like 'L1 r3 f0 @ 1+r2,2'").format(move=repr(text)))
    name = m.group(1).upper()
    if name not in PIECE_NAMES:
        raise InputError(_("unknown piece {name}; the pieces are {pieces}").format(
            name=repr(m.group(1)), pieces=_(", ").join(PIECE_NAMES)))
    rot = int(m.group(2))
    if rot > 7:
        raise InputError(_("rotation r{rot} is out of range: use r0 to r7 (steps of 45 degrees)").format(rot=rot))
    return Placement(name, rot, int(m.group(3)), parse_number(m.group(4)), parse_number(m.group(5)))


def distinct_orientations(shape: str) -> list[tuple[int, int]]:
    """(rot, flip) pairs giving shapes distinct up to translation (square 2, triangles 8, P 8)."""
    seen = {}
    for flip in (0, 1):
        for rot in range(8):
            pts = oriented_shape(shape, rot, flip)
            lx, ly = min(pts, key=lambda p: (p[1], p[0]))
            key = frozenset((x - lx, y - ly) for x, y in pts)
            if key not in seen:
                seen[key] = (rot, flip)
    return list(seen.values())
