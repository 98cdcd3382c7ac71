"""SVG drawing of peg solitaire boards (svgwrite), styled by an embedded stylesheet.

Every cell of the bounding grid is a ``<g class="cell ...">`` with ``data-action="hole:d4"``
(no-hole cells too, so the editor's toggle mode can add a hole there) and ``data-hole="d4"``.
Its classes say what it is: ``hole`` or ``nohole``; ``peg`` or ``empty``; ``goal`` for a goal
hole; ``selected`` for the editor's selection. In playback, ``next_move`` marks the ``jumper``
(the peg about to jump), the ``jumped`` peg and the ``landing`` hole; ``last_move`` marks the
hole the peg left (``jumper-from``), the hole of the removed peg (``jumped``) and the peg that
landed (``landed``). Square boards are drawn on a square grid; triangular boards on a true
equilateral lattice (row ``r`` shifted half a hole left per row, rows sqrt(3)/2 apart).
"""

from __future__ import annotations

import math

import svgwrite

from engine import InputError, Renderer

from .board import PegInstance, cell_name, parse_cell_name
from .rules import parse_jump

SPACING = 60
MARGIN = 40
HOLE_R = 13
PEG_R = 20

STYLE = """
.pegs-board .frame { fill: #c8a26b; stroke: #c8a26b; }
.pegs-board .cell .spot { fill: transparent; }
.pegs-board .nohole .dot { fill: #000; fill-opacity: 0.15; }
.pegs-board .hole .pit { fill: #5a4025; }
.pegs-board .peg .ball { fill: #2f5fa7; stroke: #173463; stroke-width: 2; }
.pegs-board .goal .ring { fill: none; stroke: #e0b000; stroke-width: 4; stroke-dasharray: 6 4; }
.pegs-board .jumper .ball { fill: #2fa75f; stroke: #176336; }
.pegs-board .landed .ball { fill: #2fa75f; stroke: #176336; }
.pegs-board .jumped .ball { fill: #c0392b; stroke: #7b241c; }
.pegs-board .jumped .pit { fill: #c0392b; }
.pegs-board .landing .pit, .pegs-board .jumper-from .pit { fill: #2fa75f; }
.pegs-board .selected .ball { stroke: #ffef5a; stroke-width: 6; }
.pegs-board [data-action] { cursor: pointer; }
"""

_SQRT3_2 = math.sqrt(3) / 2


def _position(inst: PegInstance, r: int, c: int) -> tuple[float, float]:
    if inst.geometry == "triangular":
        return c * SPACING - r * SPACING / 2, r * SPACING * _SQRT3_2
    return c * SPACING, r * SPACING


def _jump_cells(state: PegInstance, move: str | None) -> tuple[int, int, int] | None:
    """(from, over, to) of ``move`` if it is a legal jump of ``state``, else None."""
    if not move:
        return None
    try:
        return parse_jump(state, move)
    except InputError:
        return None


def _undone_jump_cells(state: PegInstance, move: str | None) -> tuple[int, int, int] | None:
    """(from, over, to) of ``move`` played just before ``state`` (checked in reverse)."""
    if not move or "-" not in move:
        return None
    a, _, b = move.partition("-")
    try:
        fr, fc = parse_cell_name(a, state.rows, state.cols)
        tr, tc = parse_cell_name(b, state.rows, state.cols)
    except InputError:
        return None
    frm, to = fr * state.cols + fc, tr * state.cols + tc
    over = state.board.jump_by_cells.get((frm, to))
    if over is None:
        return None
    return frm, over, to


def _convex_hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Andrew's monotone chain; collinear points dropped."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 1e-9:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 1e-9:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def render_state(state: PegInstance, *, last_move: str | None = None, next_move: str | None = None,
                 selection: str | None = None) -> str:
    """SVG text of ``state``; see the module docstring for classes and attributes."""
    points = {(r, c): _position(state, r, c) for r in range(state.rows) for c in range(state.cols)}
    xs = [x for x, _ in points.values()]
    ys = [y for _, y in points.values()]
    min_x, min_y = min(xs), min(ys)
    width = max(xs) - min_x + 2 * MARGIN
    height = max(ys) - min_y + 2 * MARGIN
    dwg = svgwrite.Drawing(size=(f"{width * 0.8:.0f}px", f"{height * 0.8:.0f}px"), debug=False,
                           viewBox=f"0 0 {width:.1f} {height:.1f}")
    dwg.attribs["class"] = "pegs-board"
    dwg.attribs["role"] = "img"
    dwg.set_desc(title=f"Peg solitaire: {state.peg_count} pegs on {state.holes.bit_count()} holes "
                       f"({state.geometry})")
    dwg.defs.add(dwg.style(STYLE))
    hole_points = [(x - min_x + MARGIN, y - min_y + MARGIN) for (r, c), (x, y) in points.items()
                   if state.holes >> (r * state.cols + c) & 1]
    # The frame follows the holes' convex hull (a true triangle for a triangular board), padded
    # by a thick round-joined outline in the fill colour.
    hull = _convex_hull(hole_points)
    if len(hull) >= 3:
        dwg.add(dwg.polygon([(round(x, 2), round(y, 2)) for x, y in hull], class_="frame",
                            style=f"stroke-width:{2 * PEG_R + 24}; stroke-linejoin:round"))
    else:
        x, y = hull[0] if hull else (width / 2, height / 2)
        dwg.add(dwg.circle(center=(round(x, 2), round(y, 2)), r=PEG_R + 12, class_="frame"))

    marks: dict[int, list[str]] = {}
    nxt = _jump_cells(state, next_move)
    if nxt:
        for cell, cls in zip(nxt, ("jumper", "jumped", "landing")):
            marks.setdefault(cell, []).append(cls)
    last = _undone_jump_cells(state, last_move)
    if last:
        for cell, cls in zip(last, ("jumper-from", "jumped", "landed")):
            marks.setdefault(cell, []).append(cls)
    selected = (selection or "").strip().lower()

    for (r, c), (x, y) in sorted(points.items()):
        cx, cy = x - min_x + MARGIN, y - min_y + MARGIN
        cell = r * state.cols + c
        name = cell_name(r, c)
        is_hole = bool(state.holes >> cell & 1)
        classes = ["cell", "hole" if is_hole else "nohole"]
        if is_hole:
            classes.append("peg" if state.pegs >> cell & 1 else "empty")
            if state.goal >> cell & 1:
                classes.append("goal")
            if name == selected:
                classes.append("selected")
            classes.extend(marks.get(cell, []))
        group = dwg.g(class_=" ".join(classes))
        group.attribs["data-action"] = f"hole:{name}"
        group.attribs["data-hole"] = name
        group.set_desc(title=name)
        group.add(dwg.circle(center=(round(cx, 2), round(cy, 2)), r=SPACING / 2 - 2, class_="spot"))
        if not is_hole:
            group.add(dwg.circle(center=(round(cx, 2), round(cy, 2)), r=4, class_="dot"))
        else:
            group.add(dwg.circle(center=(round(cx, 2), round(cy, 2)), r=HOLE_R, class_="pit"))
            if state.goal >> cell & 1:
                group.add(dwg.circle(center=(round(cx, 2), round(cy, 2)), r=PEG_R + 5, class_="ring"))
            if state.pegs >> cell & 1:
                group.add(dwg.circle(center=(round(cx, 2), round(cy, 2)), r=PEG_R, class_="ball"))
        dwg.add(group)
    return dwg.tostring()


class DefaultRenderer(Renderer):
    """Wooden board, blue pegs; playback highlights in green (moving) and red (removed)."""

    puzzle_id = "pegs"
    name = "default"

    def render(self, state, *, last_move=None, next_move=None, selection=None) -> str:
        return render_state(state, last_move=last_move, next_move=next_move, selection=selection)
