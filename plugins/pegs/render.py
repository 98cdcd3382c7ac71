"""SVG drawing of peg solitaire boards (svgwrite), styled by an embedded stylesheet.

The markup follows the engine's board contract, so the web client can animate, navigate and
announce the board without knowing the puzzle.

Cells. Every cell of the bounding grid is a ``<g class="cell ...">`` with ``data-action="hole:d4"``
(no-hole cells too, so the editor's "Edit holes" mode can add a hole there), ``data-hole="d4"``,
``data-row``/``data-col`` (0-based grid row and column) and an ``aria-label`` with its name and
state: "d4, peg", "d4, peg, can jump", "d4, empty hole, goal", "a1, no hole" (", selected" for the
editor's selection). Its classes: ``hole`` or ``nohole``; ``peg`` or ``empty``; ``goal`` for a goal
hole; ``selected``.

Pegs. Each peg is drawn in a layer above the cells (``<g class="pegs">``, ignoring the pointer so
clicks reach the cell) as ``<g class="peg-piece" data-key="peg-d4">``, keyed by the hole it stands
on. A state does not know which peg is which, so the jump just played (``last_move``, say d2-d4)
keys the peg that landed by the hole it came from (``peg-d2``) and lists its own hole in
``data-key-also="peg-d4"``. So, between the SVG of a step and the next one, the jumping peg keeps
its key and glides, the jumped peg's key vanishes (it fades out), every other peg keeps its key.
A client that also matches ``data-key-also`` keeps the glide through a multi-jump (d2-d4 then
d4-f4); one that matches ``data-key`` only fades that peg out and in on the second jump.

Moves. ``last_move``: its from and to cells get ``last-move`` (and ``jumper-from`` / ``landed``),
the jumped hole ``jumped``; a cell the next jump lands in keeps only ``next-move`` (one cue per
part). ``next_move``: the jumping peg and the landing cell get ``next-move``
(the cells also ``jumper``, ``jumped``, ``landing``), the ball of the peg about to be removed
``captured``, and ``<g class="move-arrow next-move">`` is an arrow from the jumping peg to the
landing hole. A keyed peg's own classes are only ``peg-piece`` and the cues, so a client never
mistakes a cue for a change of the peg.

Coordinates. ``<g class="coords">`` holds the column letters (a, b, ...) above the grid and the
row numbers (1 = top) to its left, as in the move notation. Square boards are drawn on a square
grid; triangular boards on a true equilateral lattice (row ``r`` shifted half a hole left per
row, rows sqrt(3)/2 apart), where the labels follow the slanted columns.
"""

from __future__ import annotations

import math

import svgwrite

from engine import InputError, Renderer

from .board import COLUMN_LETTERS, PegInstance, cell_name, parse_cell_name
from .i18n import CATALOGUE, _
from .rules import legal_moves, parse_jump
from .wording import count_holes, count_pegs, geometry_label

SPACING = 60
MARGIN = 40
HOLE_R = 13
PEG_R = 20

#: How far outside the grid the coordinate labels sit, in hole spacings.
LABEL_OFFSET = 0.75

STYLE = """
.pegs-board .frame { fill: #c8a26b; stroke: #c8a26b; }
/* 'none' rather than 'transparent': resvg paints a transparent fill (a quarter of
   render.png's time); pointer-events keeps the whole spot clickable in the editor. */
.pegs-board .cell .spot { fill: none; pointer-events: all; }
.pegs-board .nohole .dot { fill: #000; fill-opacity: 0.15; }
.pegs-board .hole .pit { fill: #5a4025; }
.pegs-board .ball { fill: #2f5fa7; stroke: #173463; stroke-width: 2; }
.pegs-board .goal .ring { fill: none; stroke: #e0b000; stroke-width: 4; stroke-dasharray: 6 4; }
.pegs-board .cell.last-move .spot { fill: #ffd166; fill-opacity: 0.75; }
.pegs-board .cell.jumped .spot { fill: #c0392b; fill-opacity: 0.25; }
.pegs-board .cell.next-move .spot { stroke: #1f77d0; stroke-width: 3; stroke-dasharray: 6 5; }
.pegs-board .peg-piece.next-move .ball { stroke: #8ec2ff; stroke-width: 4; stroke-dasharray: 6 4; }
.pegs-board .ball.captured { fill-opacity: 0.45; }
.pegs-board .move-arrow { pointer-events: none; }
.pegs-board .move-arrow line { stroke: #1f77d0; stroke-width: 6; stroke-linecap: round; opacity: 0.85; }
.pegs-board .move-arrow polygon { fill: #1f77d0; opacity: 0.85; }
.pegs-board .cell.selected .spot { stroke: #ffef5a; stroke-width: 6; }
.pegs-board .coords text { fill: currentColor; fill-opacity: 0.7; font-size: 18px;
  font-family: 'DejaVu Sans', Verdana, Arial, sans-serif; text-anchor: middle;
  dominant-baseline: central; }
.pegs-board .pegs { pointer-events: none; }
.pegs-board [data-action] { cursor: pointer; }
"""

_SQRT3_2 = math.sqrt(3) / 2


def _position(inst: PegInstance, r: float, c: float) -> tuple[float, float]:
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
    """(from, over, to) of ``move`` played just before ``state`` (checked in reverse: a peg on
    ``to``, ``from`` and ``over`` empty), else None."""
    if not move or "-" not in move:
        return None
    a, _dash, b = move.partition("-")
    try:
        fr, fc = parse_cell_name(a, state.rows, state.cols)
        tr, tc = parse_cell_name(b, state.rows, state.cols)
    except InputError:
        return None
    frm, to = fr * state.cols + fc, tr * state.cols + tc
    over = state.board.jump_by_cells.get((frm, to))
    if over is None or not state.pegs >> to & 1 or state.pegs & ((1 << frm) | (1 << over)):
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


def _label(state: PegInstance, cell: int, name: str, can_jump: set[str], selected: bool) -> str:
    """The cell's accessible name: its place, then its state ("d4, peg, can jump"), each part a
    word of its own in the reader's language, listed with the locale's separator."""
    if not state.holes >> cell & 1:
        return _("{hole}, no hole").format(hole=name)
    words = [name, _("peg") if state.pegs >> cell & 1 else _("empty hole")]
    if name in can_jump:
        words.append(_("can jump"))
    if state.goal >> cell & 1:
        words.append(_("goal"))
    if selected:
        words.append(_("selected"))
    return _("{hole}, {state}").format(hole=name, state=_(", ").join(words[1:]))


def _arrow(dwg: svgwrite.Drawing, start: tuple[float, float], end: tuple[float, float]):
    """An arrow from the centre of ``start`` to just short of the centre of ``end``."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 - ux * (HOLE_R + 2), y1 - uy * (HOLE_R + 2))
    base = (tip[0] - ux * 18, tip[1] - uy * 18)
    wing = (-uy * 11, ux * 11)
    group = dwg.g(class_="move-arrow next-move")
    group.attribs["aria-hidden"] = "true"
    group.add(dwg.line(_round(x0 + ux * 8, y0 + uy * 8), _round(*base)))
    group.add(dwg.polygon([_round(*tip), _round(base[0] + wing[0], base[1] + wing[1]),
                           _round(base[0] - wing[0], base[1] - wing[1])]))
    return group


def _round(x: float, y: float) -> tuple[float, float]:
    return round(x, 2), round(y, 2)


def render_state(state: PegInstance, *, last_move: str | None = None, next_move: str | None = None,
                 selection: str | None = None) -> str:
    """SVG text of ``state``; see the module docstring for classes and attributes."""
    points = {(r, c): _position(state, r, c) for r in range(state.rows) for c in range(state.cols)}
    labels = ([(COLUMN_LETTERS[c], _position(state, -LABEL_OFFSET, c)) for c in range(state.cols)]
              + [(str(r + 1), _position(state, r, -LABEL_OFFSET)) for r in range(state.rows)])
    xs = [x for x, _y in points.values()] + [x for _text, (x, _y) in labels]
    ys = [y for _x, y in points.values()] + [y for _text, (_x, y) in labels]
    min_x, min_y = min(xs), min(ys)
    width = max(xs) - min_x + 2 * MARGIN
    height = max(ys) - min_y + 2 * MARGIN

    def at(x: float, y: float) -> tuple[float, float]:
        return _round(x - min_x + MARGIN, y - min_y + MARGIN)

    dwg = svgwrite.Drawing(size=(f"{width * 0.8:.0f}px", f"{height * 0.8:.0f}px"), debug=False,
                           viewBox=f"0 0 {width:.1f} {height:.1f}")
    dwg.attribs["class"] = "pegs-board"
    dwg.attribs["role"] = "img"
    dwg.set_desc(title=_("Peg solitaire: {pegs} on {holes} ({geometry})").format(
        pegs=count_pegs(state.peg_count), holes=count_holes(state.holes.bit_count()),
        geometry=geometry_label(state.geometry)))
    dwg.defs.add(dwg.style(STYLE))
    hole_points = [at(x, y) for (r, c), (x, y) in points.items()
                   if state.holes >> (r * state.cols + c) & 1]
    # The frame follows the holes' convex hull (a true triangle for a triangular board), padded
    # by a thick round-joined outline in the fill colour.
    hull = _convex_hull(hole_points)
    if len(hull) >= 3:
        dwg.add(dwg.polygon([_round(x, y) for x, y in hull], class_="frame",
                            style=f"stroke-width:{2 * PEG_R + 24}; stroke-linejoin:round"))
    else:
        x, y = hull[0] if hull else (width / 2, height / 2)
        dwg.add(dwg.circle(center=_round(x, y), r=PEG_R + 12, class_="frame"))
    coords = dwg.g(class_="coords")
    coords.attribs["aria-hidden"] = "true"
    for text, (x, y) in labels:
        coords.add(dwg.text(text, insert=at(x, y)))
    dwg.add(coords)

    marks: dict[int, list[str]] = {}
    nxt = _jump_cells(state, next_move)
    if nxt:
        for cell, cls in zip(nxt, (("jumper",), ("jumped",), ("landing", "next-move"))):
            marks.setdefault(cell, []).extend(cls)
    last = _undone_jump_cells(state, last_move)
    if last:
        for cell, cls in zip(last, (("jumper-from", "last-move"), ("jumped",), ("landed", "last-move"))):
            mine = marks.setdefault(cell, [])
            for c in cls:
                # One cue per part: a cell the next jump lands in keeps only next-move.
                if c not in mine and not (c == "last-move" and "next-move" in mine):
                    mine.append(c)
    selected = (selection or "").strip().lower()
    can_jump = {move.split("-")[0] for move in legal_moves(state)}

    for (r, c), (x, y) in sorted(points.items()):
        centre = at(x, y)
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
        group.attribs["data-row"] = str(r)
        group.attribs["data-col"] = str(c)
        group.attribs["aria-label"] = _label(state, cell, name, can_jump, is_hole and name == selected)
        group.add(dwg.circle(center=centre, r=SPACING / 2 - 2, class_="spot"))
        if not is_hole:
            group.add(dwg.circle(center=centre, r=4, class_="dot"))
        else:
            group.add(dwg.circle(center=centre, r=HOLE_R, class_="pit"))
            if state.goal >> cell & 1:
                group.add(dwg.circle(center=centre, r=PEG_R + 5, class_="ring"))
        dwg.add(group)

    # Pegs above the cells; the ones taking part in a move last, so a gliding peg passes over
    # the others.
    pegs = dwg.g(class_="pegs")
    moving = {last[2] if last else None, nxt[0] if nxt else None}
    cells = [cell for cell in range(state.rows * state.cols) if state.pegs >> cell & 1]
    for cell in sorted(cells, key=lambda cell: (cell in moving, cell)):
        r, c = divmod(cell, state.cols)
        classes = ["peg-piece"]
        key = f"peg-{cell_name(r, c)}"
        piece = dwg.g()
        if last and cell == last[2]:
            # The peg that just landed keeps the key it had before the jump.
            piece.attribs["data-key-also"] = key
            key = f"peg-{cell_name(*divmod(last[0], state.cols))}"
        if nxt and cell == nxt[0]:
            classes.append("next-move")
        piece.attribs["class"] = " ".join(classes)
        piece.attribs["data-key"] = key
        captured = bool(nxt and cell == nxt[1])
        piece.add(dwg.circle(center=at(*points[r, c]), r=PEG_R, class_="ball captured" if captured else "ball"))
        pegs.add(piece)
    dwg.add(pegs)
    if nxt:
        frm, to = divmod(nxt[0], state.cols), divmod(nxt[2], state.cols)
        dwg.add(_arrow(dwg, at(*points[frm]), at(*points[to])))
    return dwg.tostring()


class DefaultRenderer(Renderer):
    """Wooden board, blue pegs; the last jump in solid yellow, the next one dashed blue with an
    arrow, coordinates around the board."""

    puzzle_id = "pegs"
    name = "default"
    catalogue = CATALOGUE

    def render(self, state, *, last_move=None, next_move=None, selection=None) -> str:
        return render_state(state, last_move=last_move, next_move=next_move, selection=selection)
