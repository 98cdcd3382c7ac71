"""Tangram pieces and placements in plain words, for move lists, labels and screen readers.

The words are in the reader's language (:mod:`i18n`); the exact numbers stay as the notation
writes them, with √2 for r2, since they read the same in every language.
"""

from __future__ import annotations

from typing import Sequence

from engine import N_

from .geometry import Point
from .i18n import _
from .numbers import QS2, format_number
from .pieces import Placement

#: Each piece's name as people read it (one whole message each, so a translator sees the number).
PIECE_TITLES = {"L1": N_("Large triangle 1"), "L2": N_("Large triangle 2"), "M": N_("Medium triangle"),
                "S1": N_("Small triangle 1"), "S2": N_("Small triangle 2"), "Q": N_("Square"),
                "P": N_("Parallelogram")}


def piece_title(name: str) -> str:
    """"L1" -> "Large triangle 1", "M" -> "Medium triangle", "Q" -> "Square"."""
    return _(PIECE_TITLES[name])


def and_list(items: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C" in the reader's language."""
    if len(items) == 1:
        return items[0]
    return _("{items} and {last}").format(items=_(", ").join(items[:-1]), last=items[-1])


def number_words(x: QS2) -> str:
    """An exact number as people read it: "1 + √2", "-1/2", "3/4√2"."""
    text = format_number(x).replace("r2", "√2")
    # spaces around a binary + or - (not a leading sign) read better: "1 + √2"
    return text[0] + text[1:].replace("+", " + ").replace("-", " - ")


def point_words(p: Point) -> str:
    return f"({number_words(p[0])}, {number_words(p[1])})"


def describe_placement(p: Placement) -> str:
    """"Large triangle 1, turned 225 degrees, flipped" (one whole phrase per orientation kind)."""
    piece, degrees = piece_title(p.name), 45 * p.rot
    if p.rot and p.flip:
        return _("{piece}, turned {degrees} degrees, flipped").format(piece=piece, degrees=degrees)
    if p.rot:
        return _("{piece}, turned {degrees} degrees").format(piece=piece, degrees=degrees)
    if p.flip:
        return _("{piece}, flipped").format(piece=piece)
    return piece
