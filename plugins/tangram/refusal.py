"""Why a noisy outline could not be read as a coverable tangram figure, in words.

The reader (reading.py) calls :func:`refusal` once every nearby exact figure has failed; the
words name the likeliest cause first: a piece at a free angle, then an area that is not the
seven pieces' 16 units, then what the search itself ran into.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from engine import InputError

from .i18n import _, ngettext
from .outline import FloatRing
from .piecefit import drawing_noise

if TYPE_CHECKING:
    from .reading import Normalised

#: An edge at least this long (figure units) and this far (degrees) from the eight directions
#: is taken as the side of a piece at a free angle (noise of 0.2 units tilts a 1.5-unit edge
#: by at most about 8 degrees).
FREE_EDGE = 1.2
FREE_ANGLE = 9.0
#: How many times the drawing's noise (per coordinate, as drawing_noise measures it) an edge's
#: ends may lie across its direction before its tilt is taken as a free angle: in a refusal,
#: and before any reading (where a wrong call loses a figure that reads, so with twice the
#: margin: drawing_noise reads uniform noise of 0.2 units as 0.05-0.07, and edges of 1.4-2.2
#: units then tilt by up to 11 degrees).
FREE_MARGIN = 4.0
FREE_MARGIN_EARLY = 8.0
#: Areas within this share of 16 are taken as drawn at the pieces' own scale.
AREA_NEAR = 0.2
AREA_EXACT = 0.015

#: The words every refusal starts with (each message below writes them out in full, so that
#: a translator has whole sentences).
PREFIX = "no exact tangram figure lies near this outline"


def free_angle_piece(rings: Sequence[FloatRing], norm: "Normalised", noise: float = 0.0,
                     margin: float = FREE_MARGIN) -> tuple[float, tuple[float, float]] | None:
    """(turn in degrees, place in input coordinates) of the longest edge off the eight
    directions, if one is clearly off (``rings`` in figure units, as normalised). ``noise``
    (units per coordinate): an edge is clearly off only beyond the tilt the noise can give it
    (its ends moved across it by ``margin`` times the noise in all)."""
    best = None
    for r in rings:
        n = len(r)
        for i in range(n):
            (x1, y1), (x2, y2) = r[i], r[(i + 1) % n]
            length = math.hypot(x2 - x1, y2 - y1)
            if length < FREE_EDGE:
                continue
            turn = math.degrees(math.atan2(y2 - y1, x2 - x1)) % 45
            if min(turn, 45 - turn) < max(FREE_ANGLE, math.degrees(math.atan(margin * noise / length))):
                continue
            if best is None or length > best[0]:
                best = (length, turn, norm.to_input((x1 + x2) / 2, (y1 + y2) / 2))
    return None if best is None else (best[1], best[2])


class FreeAngle(InputError):
    """A refusal naming a piece at a free angle: the turn (degrees, modulo 45) and where (input
    coordinates), kept so that a picture's reader can say where in its own pixels."""

    def __init__(self, turn: float, at: tuple[float, float]):
        self.turn, self.at = turn, at
        super().__init__(_("no exact tangram figure lies near this outline: a piece seems turned by about {turn} "
                           "degrees near ({x}, {y}); only turns of 45 degrees are supported").format(
            turn=round(turn), x=f"{at[0]:.1f}", y=f"{at[1]:.1f}"))

    def flipped(self) -> "FreeAngle":
        """The same refusal with y pointing the other way (a picture's rows run down)."""
        return FreeAngle(self.turn, (self.at[0], -self.at[1]))


def free_angle(rings: Sequence[FloatRing], norm: "Normalised", margin: float = FREE_MARGIN) -> FreeAngle | None:
    """The refusal naming a piece at a free angle (:func:`free_angle_piece`), if one is clearly
    drawn (``rings``: the outline simplified, in figure units)."""
    free = free_angle_piece(rings, norm, drawing_noise(norm.rings), margin)
    return None if free is None else FreeAngle(*free)


def area_words(area: float) -> str | None:
    """The area refusal when the outline looks drawn at the pieces' scale but its area is off."""
    share = area / 16 - 1
    if AREA_EXACT <= abs(share) <= AREA_NEAR:
        words = (_("the outline's area is {area} units, {share} less than the seven pieces (16 units)")
                 if share < 0 else
                 _("the outline's area is {area} units, {share} more than the seven pieces (16 units)"))
        return words.format(area=f"{area:.1f}", share=f"{abs(share):.0%}")
    return None


def refusal(norm: "Normalised", rings: Sequence[FloatRing], walks: Sequence[int], tried: int,
            unsolved: int) -> str:
    """The refusal's words (``walks``: closed exact walks found per ring; ``tried``: figures
    tried; ``unsolved``: of those, how many the solver ruled out)."""
    free = free_angle(rings, norm)
    if free is not None:
        return free.message
    area = area_words(norm.area)
    if area is not None:
        return _("no exact tangram figure lies near this outline: {reason}").format(reason=area)
    for i, w in enumerate(walks):
        if not w:
            return _("no exact tangram figure lies near this outline: outline {ring} cannot be closed with "
                     "edges along the eight directions and lengths the pieces make").format(ring=i + 1)
    if unsolved:
        return ngettext("no exact tangram figure lies near this outline: the {count} nearest exact figure "
                        "cannot be covered by the seven pieces",
                        "no exact tangram figure lies near this outline: the {count} nearest exact figures "
                        "cannot be covered by the seven pieces", unsolved).format(count=unsolved)
    if tried:
        return _("no exact tangram figure lies near this outline: the {count} nearest exact figures with area "
                 "16 are not valid outlines").format(count=tried)
    return _("no exact tangram figure lies near this outline: its edges are near the eight directions but no "
             "lengths the pieces make close it")
