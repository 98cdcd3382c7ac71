"""Tangram pieces and placements in plain words, for move lists, labels and screen readers."""

from __future__ import annotations

from .geometry import Point
from .numbers import QS2, format_number
from .pieces import TITLES, Placement


def piece_title(name: str) -> str:
    """"L1" -> "Large triangle 1", "M" -> "Medium triangle", "Q" -> "Square"."""
    title = TITLES[name[0]]
    title = title[0].upper() + title[1:]
    return f"{title} {name[1:]}" if len(name) > 1 else title


def orientation_words(rot: int, flip: int) -> str:
    """", turned 225 degrees, flipped" (empty for the base orientation)."""
    out = f", turned {45 * rot} degrees" if rot else ""
    return out + (", flipped" if flip else "")


def number_words(x: QS2) -> str:
    """An exact number as people read it: "1 + √2", "-1/2", "3/4√2"."""
    text = format_number(x).replace("r2", "√2")
    # spaces around a binary + or - (not a leading sign) read better: "1 + √2"
    return text[0] + text[1:].replace("+", " + ").replace("-", " - ")


def point_words(p: Point) -> str:
    return f"({number_words(p[0])}, {number_words(p[1])})"


def describe_placement(p: Placement) -> str:
    """"Large triangle 1, turned 225 degrees, flipped"."""
    return piece_title(p.name) + orientation_words(p.rot, p.flip)
