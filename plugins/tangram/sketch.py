"""Drawing a silhouette by clicking points: the outline being drawn and how a click snaps.

The drawing lives in the editor's *selection* (no coordinates are typed and the instance does
not change until an outline is finished): ``"draw:RING;RING|OPEN"``, where each closed RING and
the OPEN polyline are exact points ``x,y`` separated by spaces.

A click snaps exactly: the first point of an outline to the half-unit lattice; each next point
along the nearest of the eight 45-degree directions from the previous one, at the nearest
multiple of 1/2 or of r2/2 (so edges are whole or half units, or whole or half diagonals of
the grid, and every point stays in Q(r2)); a point of the half-unit grid is preferred when the
click is near one. Clicking near the first point closes the outline.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from engine import InputError

from .geometry import DIRECTION_STEPS, Point, direction, point_text
from .i18n import _
from .numbers import QS2, parse_number

#: Limits of a drawing held in the selection.
MAX_POINTS = 80
MAX_RINGS = 8
#: A click this close (units) to the outline's first point closes it.
CLOSE_RADIUS = 0.35
HALF_R2 = QS2(0, Fraction(1, 2))
_FLOAT = re.compile(r"^\s*([-+]?[0-9]{1,5}(?:\.[0-9]{1,8})?)\s*,\s*([-+]?[0-9]{1,5}(?:\.[0-9]{1,8})?)\s*$")


@dataclass(frozen=True)
class Sketch:
    """Closed outlines and the open polyline being drawn (exact points)."""

    closed: tuple[tuple[Point, ...], ...] = ()
    open: tuple[Point, ...] = ()

    def text(self) -> str:
        """The selection text that holds this drawing."""
        rings = ";".join(" ".join(point_text(p) for p in r) for r in self.closed)
        return "draw:" + rings + "|" + " ".join(point_text(p) for p in self.open)

    def point_count(self) -> int:
        return sum(len(r) for r in self.closed) + len(self.open)


def _points(text: str) -> tuple[Point, ...]:
    out = []
    for token in text.split():
        x, _, y = token.partition(",")
        out.append((parse_number(x), parse_number(y)))
    return tuple(out)


def parse_sketch(selection: str) -> Sketch:
    """The drawing held in a ``draw:`` selection; InputError if it is malformed."""
    if not isinstance(selection, str) or not selection.startswith("draw:") or len(selection) > 8000:
        raise InputError(_("not a drawing"))
    body = selection[len("draw:"):]
    closed_text, _bar, open_text = body.rpartition("|") if "|" in body else ("", "", body)
    closed = tuple(_points(r) for r in closed_text.split(";") if r.strip())
    sketch = Sketch(closed, _points(open_text))
    if sketch.point_count() > MAX_POINTS or len(closed) > MAX_RINGS:
        raise InputError(_("a drawing has at most {points} points and {rings} outlines").format(
            points=MAX_POINTS, rings=MAX_RINGS))
    return sketch


def parse_click(text: str) -> tuple[float, float]:
    """``"1.25,-0.5"`` -> (1.25, -0.5): where the board was clicked, in puzzle units."""
    m = _FLOAT.match(text or "")
    if not m:
        raise InputError(_("cannot read the point {point}: expected decimal x,y").format(point=repr(text)))
    return float(m.group(1)), float(m.group(2))


#: A point of the drawing grid (half units) wins over an off-grid point up to this much nearer
#: (the browser previews the snapped edge with its length, so r2 steps are easy to aim at).
GRID_PREFERENCE = 0.06


def _on_grid(p: Point) -> bool:
    return all(c.b == 0 and (2 * c.a).denominator == 1 for c in p)


def _step_candidates(length: float) -> list[QS2]:
    """Multiples of 1/2 and of r2/2 next to ``length`` (positive ones)."""
    out = {QS2(Fraction(k, 2)) for k in (math.floor(2 * length), math.ceil(2 * length)) if k > 0}
    r = 2 * length / math.sqrt(2)
    out |= {HALF_R2 * k for k in (math.floor(r), math.ceil(r)) if k > 0}
    return sorted(out)


def snap_click(sketch: Sketch, fx: float, fy: float) -> tuple[Point | None, bool]:
    """(the exact point a click adds, whether it closes the outline)."""
    if not sketch.open:
        return (QS2(Fraction(round(2 * fx), 2)), QS2(Fraction(round(2 * fy), 2))), False
    first = sketch.open[0]
    if len(sketch.open) >= 3 and math.hypot(fx - float(first[0]), fy - float(first[1])) < CLOSE_RADIUS:
        return None, True
    lx, ly = sketch.open[-1]
    dx, dy = fx - float(lx), fy - float(ly)
    k = round(math.degrees(math.atan2(dy, dx)) / 45) % 8
    sx, sy = DIRECTION_STEPS[k]
    diagonal = bool(sx and sy)
    along = math.hypot(dx, dy) * math.cos(math.atan2(dy, dx) - math.radians(45 * k))
    ux, uy = (HALF_R2 * sx, HALF_R2 * sy) if diagonal else (QS2(sx), QS2(sy))
    best = None
    for step in _step_candidates(along):
        p = (lx + step * ux, ly + step * uy)
        d = math.hypot(float(p[0]) - fx, float(p[1]) - fy) - (GRID_PREFERENCE if _on_grid(p) else 0)
        if best is None or d < best[0]:
            best = (d, p)
    if best is None:
        raise InputError(_("click farther from the last point (at least half a unit)"))
    return best[1], False


def close_problem(sketch: Sketch) -> str | None:
    """Why the open outline cannot be closed (its last edge would not run at 45 degrees)."""
    if len(sketch.open) < 3:
        return _("an outline needs at least 3 points")
    if direction(sketch.open[-1], sketch.open[0]) is None:
        return _("the closing edge from the last point to the first would not run at a multiple "
                 "of 45 degrees; add a point where it can turn")
    return None
