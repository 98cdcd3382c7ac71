"""Why a noisy outline could not be read as a coverable tangram figure, in words.

The reader (reading.py) calls :func:`refusal` once every nearby exact figure has failed; the
words name the likeliest cause first: a piece at a free angle, then an area that is not the
seven pieces' 16 units, then what the search itself ran into.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from .outline import FloatRing

if TYPE_CHECKING:
    from .reading import Normalised

#: An edge at least this long (figure units) and this far (degrees) from the eight directions
#: is taken as the side of a piece at a free angle (noise of 0.2 units tilts a 1.5-unit edge
#: by at most about 8 degrees).
FREE_EDGE = 1.2
FREE_ANGLE = 9.0
#: Areas within this share of 16 are taken as drawn at the pieces' own scale.
AREA_NEAR = 0.2
AREA_EXACT = 0.015

PREFIX = "no exact tangram figure lies near this outline"


def free_angle_piece(rings: Sequence[FloatRing], norm: "Normalised") -> tuple[float, tuple[float, float]] | None:
    """(turn in degrees, place in input coordinates) of the longest edge off the eight
    directions, if one is clearly off (``rings`` in figure units, as normalised)."""
    best = None
    for r in rings:
        n = len(r)
        for i in range(n):
            (x1, y1), (x2, y2) = r[i], r[(i + 1) % n]
            length = math.hypot(x2 - x1, y2 - y1)
            if length < FREE_EDGE:
                continue
            turn = math.degrees(math.atan2(y2 - y1, x2 - x1)) % 45
            if min(turn, 45 - turn) < FREE_ANGLE:
                continue
            if best is None or length > best[0]:
                best = (length, turn, norm.to_input((x1 + x2) / 2, (y1 + y2) / 2))
    return None if best is None else (best[1], best[2])


def area_words(area: float) -> str | None:
    """The area refusal when the outline looks drawn at the pieces' scale but its area is off."""
    share = area / 16 - 1
    if AREA_EXACT <= abs(share) <= AREA_NEAR:
        return (f"the outline's area is {area:.1f} units, {abs(share):.0%} "
                f"{'less' if share < 0 else 'more'} than the seven pieces (16 units)")
    return None


def refusal(norm: "Normalised", rings: Sequence[FloatRing], walks: Sequence[int], tried: int,
            unsolved: int) -> str:
    """The refusal's words (``walks``: closed exact walks found per ring; ``tried``: figures
    tried; ``unsolved``: of those, how many the solver ruled out)."""
    free = free_angle_piece(rings, norm)
    if free is not None:
        turn, (x, y) = free
        return (f"{PREFIX}: a piece seems turned by about {round(turn)} degrees near ({x:.1f}, {y:.1f}); "
                f"only turns of 45 degrees are supported")
    area = area_words(norm.area)
    if area is not None:
        return f"{PREFIX}: {area}"
    for i, w in enumerate(walks):
        if not w:
            return (f"{PREFIX}: outline {i + 1} cannot be closed with edges along the eight directions "
                    f"and lengths the pieces make")
    if unsolved:
        return (f"{PREFIX}: the {unsolved} nearest exact figure{'s' if unsolved > 1 else ''} "
                f"cannot be covered by the seven pieces")
    if tried:
        return f"{PREFIX}: the {tried} nearest exact figures with area 16 are not valid outlines"
    return f"{PREFIX}: its edges are near the eight directions but no lengths the pieces make close it"
