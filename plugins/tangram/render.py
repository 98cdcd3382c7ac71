"""SVG drawing of a tangram state (svgwrite), styled by an embedded stylesheet.

Two views, both on the same :mod:`layout` (a work area around the figure, a tray beside it):

* **play** (a solution being played, or any state with pieces placed): the silhouette, the
  placed pieces and, in the tray, the pieces still to place. The piece ``last_move`` placed has
  class ``last-move``; the piece ``next_move`` places has class ``next-move`` in the tray, a
  dashed ghost (``ghost next-move``) shows where it goes and ``<g class="move-arrow next-move">``
  points there. So between two steps the piece flies from the tray to its place.
* **compose** (the editor: nothing placed, no move given, and not the host's
  ``engine.THUMBNAIL`` still picture, which gets the play view): the draft composition on the work
  area, each piece clickable (``data-action="select:NAME"``), the others in the tray
  (``data-action="add:NAME"``). Overlapping pieces get class ``overlap`` and a count is shown;
  the selected piece gets ``selected`` and a rotate handle. With a ``draw:`` selection the board
  shows the drawing grid and the outline being drawn (see :mod:`sketch`).

Every piece is a ``<g data-key="piece-NAME">`` (same key in the tray, the draft and its place),
so the host can tween it between two boards. Actionable parts carry ``aria-label`` ("place,
state"); the host adds focus and roles. Coordinates are puzzle units with y up, flipped into
SVG's y-down viewBox.
"""

from __future__ import annotations

import math

import svgwrite

from engine import THUMBNAIL, InputError, Renderer

from .i18n import CATALOGUE, _, count, ngettext
from .layout import Layout, board_layout
from .pieces import PIECE_NAMES, Placement, parse_placement
from .sketch import parse_sketch
from .snapping import overlapping
from .words import and_list, describe_placement, piece_title

STYLE = """
.tangram-board { user-select: none; -webkit-user-select: none; }
.tangram-board .tray-bg { fill: #8a94a3; fill-opacity: 0.12; stroke: #8a94a3; stroke-opacity: 0.5;
  stroke-width: 0.03; stroke-dasharray: 0.12 0.08; }
.tangram-board .tray-label, .tangram-board .overlap-count
  { font: 0.36px system-ui, sans-serif; fill: #3a4048; }
.tangram-board .overlap-count { font-size: 0.5px; }
.tangram-board .work-bg { fill: none; stroke: #8a94a3; stroke-opacity: 0.5; stroke-width: 0.03; }
.tangram-board .faint { opacity: 0.35; }
.tangram-board .dragging { opacity: 0.85; cursor: grabbing; }
.tangram-board .board-button rect { fill: #fff; stroke: #3a4048; stroke-width: 0.04; }
.tangram-board .board-button text { font: 0.4px system-ui, sans-serif; fill: #1d2733; }
.tangram-board .silhouette { fill: #5b6470; fill-opacity: 0.35; stroke: #3a4048; stroke-width: 0.04; }
.tangram-board .piece polygon { stroke: #222; stroke-width: 0.04; stroke-linejoin: round; }
.tangram-board .shape-L polygon { fill: #e4572e; }
.tangram-board .piece-L2 polygon { fill: #f3a712; }
.tangram-board .shape-M polygon { fill: #29335c; }
.tangram-board .shape-S polygon { fill: #669bbc; }
.tangram-board .piece-S2 polygon { fill: #2a9d8f; }
.tangram-board .shape-Q polygon { fill: #a8c686; }
.tangram-board .shape-P polygon { fill: #9b5de5; }
.tangram-board .in-tray polygon { fill-opacity: 0.85; }
.tangram-board .last-move polygon { stroke: #111; stroke-width: 0.12; }
.tangram-board .next-move polygon { stroke-dasharray: 0.14 0.09; stroke-width: 0.07; }
.tangram-board .ghost polygon { fill: #fff; fill-opacity: 0.25; stroke: #222; stroke-width: 0.06;
  stroke-dasharray: 0.14 0.09; }
.tangram-board .move-arrow line { stroke: #222; stroke-width: 0.07; stroke-dasharray: 0.2 0.12; }
.tangram-board .move-arrow polygon { fill: #222; }
.tangram-board .overlap polygon { fill: #d1001f; fill-opacity: 0.75; stroke: #d1001f;
  stroke-width: 0.1; }
.tangram-board .overlap-count { fill: #b00020; font-weight: bold; }
.tangram-board .selected polygon { stroke: #111; stroke-width: 0.14; }
.tangram-board .handle circle { fill: #fff; stroke: #222; stroke-width: 0.05; }
.tangram-board .handle path { fill: none; stroke: #222; stroke-width: 0.06; }
.tangram-board .handle .arrowhead { fill: #222; stroke: none; }
.tangram-board .grid { stroke: #5b6470; stroke-opacity: 0.45; stroke-linecap: round; }
.tangram-board .sketch polyline, .tangram-board .sketch polygon { fill: #669bbc; fill-opacity: 0.2;
  stroke: #1d4f91; stroke-width: 0.06; }
.tangram-board .sketch circle { fill: #1d4f91; }
.tangram-board .sketch .first-point { fill: #fff; stroke: #1d4f91; stroke-width: 0.06; }
.tangram-board .draw-preview { stroke: #1d4f91; stroke-width: 0.05; stroke-dasharray: 0.12 0.08; }
.tangram-board .draw-preview-length { font: bold 0.4px system-ui, sans-serif; fill: #1d4f91; }
.tangram-board [data-action] { cursor: pointer; }
.tangram-board[data-view="compose"] .piece { cursor: grab; }
.tangram-board[data-view="draw"] { cursor: crosshair; }
/* Chrome decides touch-action by the box of the <svg>, not by its shapes: while composing or
   drawing, a finger on the board drags or draws and never scrolls the page. */
.tangram-board[data-view="compose"], .tangram-board[data-view="draw"] { touch-action: none; }
"""


def _f(v) -> float:
    return round(float(v), 4)


def _maybe(move: str | None) -> Placement | None:
    if not move:
        return None
    try:
        return parse_placement(move)
    except InputError:
        return None


def _points(pts) -> list[tuple[float, float]]:
    """Puzzle points (exact or float) as SVG points (y flipped)."""
    return [(_f(x), _f(-float(y))) for x, y in pts]


def _centre(pts) -> tuple[float, float]:
    xs, ys = [float(p[0]) for p in pts], [float(p[1]) for p in pts]
    return sum(xs) / len(xs), sum(ys) / len(ys)


class DefaultRenderer(Renderer):
    puzzle_id = "tangram"
    name = "default"
    catalogue = CATALOGUE

    def render(self, state, *, last_move=None, next_move=None, selection=None) -> str:
        sil = state.silhouette
        # The editor's board (nothing placed, no move) is the composer; a thumbnail of the same
        # state is drawn as playback shows it: the figure with the pieces in the tray.
        still = selection == THUMBNAIL
        composing = not state.placed and last_move is None and next_move is None and not still
        lay = board_layout(state, composing)
        # A thumbnail is the figure alone (and what is placed on it), filling the picture.
        x0, y0, x1, y1 = lay.work if still else lay.board
        dwg = svgwrite.Drawing(size=("100%", "100%"), profile="full", debug=False)
        dwg.viewbox(_f(x0), _f(-y1), _f(x1 - x0), _f(y1 - y0))
        sketch = None
        if composing and isinstance(selection, str) and selection.startswith("draw:"):
            try:
                sketch = parse_sketch(selection)
            except InputError:
                sketch = None
        view = "draw" if sketch is not None else ("compose" if composing else "play")
        dwg.attribs.update({"class": "tangram-board", "preserveAspectRatio": "xMidYMid meet",
                            "data-view": view,
                            "data-work": " ".join(str(_f(v)) for v in lay.work),
                            "data-tray": " ".join(str(_f(v)) for v in lay.tray)})
        if view == "play":
            dwg.attribs["role"] = "img"  # nothing to act on: one image with a title
        dwg.defs.add(dwg.style(STYLE))
        tx0, ty0, tx1, ty1 = lay.tray
        if not still:
            dwg.add(dwg.rect((_f(tx0), _f(-ty1)), (_f(tx1 - tx0), _f(ty1 - ty0)), class_="tray-bg", rx=0.15))
        if composing and sketch is None:
            dwg.add(dwg.text(_("Drop here to remove"), class_="tray-label",
                             insert=(_f((tx0 + tx1) / 2), _f(-ty0 - 0.25)), text_anchor="middle"))
        wx0, wy0, wx1, wy1 = lay.work
        if composing:
            dwg.add(dwg.rect((_f(wx0), _f(-wy1)), (_f(wx1 - wx0), _f(wy1 - wy0)), class_="work-bg"))
        if sketch is not None:
            self._grid(dwg, lay)
        if sil.components:
            d = []
            for ring in sil.rings():
                d.append("M " + " L ".join(f"{x} {y}" for x, y in _points(ring)) + " Z")
            dwg.add(dwg.path(d=" ".join(d), class_="silhouette", fill_rule="evenodd"))
        if sketch is not None:
            for p in sil.draft:
                dwg.add(self._piece(dwg, p.name, p.vertices(), "draft faint"))
            self._draw_buttons(dwg, lay)
            title = ""
        elif composing:
            title = self._compose(dwg, state, lay, selection)
        else:
            title = self._play(dwg, state, lay, _maybe(last_move), _maybe(next_move), tray=not still)
        if sketch is not None:
            self._sketch(dwg, sketch)
            points = sketch.point_count()
            title = ngettext("Tangram: drawing a silhouette, {count} point",
                             "Tangram: drawing a silhouette, {count} points", points).format(count=count(points))
        dwg.set_desc(title=title)
        return dwg.tostring()

    # -- play ----------------------------------------------------------------------------------
    def _play(self, dwg, state, lay: Layout, last: Placement | None, nxt: Placement | None,
              tray: bool = True) -> str:
        placed = {p.name: p for p in state.placed}
        for p in state.placed:
            cls = "last-move" if last is not None and last.name == p.name else ""
            dwg.add(self._piece(dwg, p.name, p.vertices(), cls, title=describe_placement(p)))
        for name in PIECE_NAMES if tray else ():
            if name in placed:
                continue
            cls = "in-tray" + (" next-move" if nxt is not None and nxt.name == name else "")
            dwg.add(self._piece(dwg, name, lay.slots[name].draw(name), cls,
                                title=_("{piece}, in the tray").format(piece=piece_title(name))))
        if nxt is not None and nxt.name not in placed:
            ghost = dwg.g(class_=f"ghost next-move shape-{nxt.shape}")
            ghost.attribs["data-ghost"] = nxt.name
            ghost.add(dwg.polygon(_points(nxt.vertices())))
            dwg.add(ghost)
            start = _centre(lay.slots[nxt.name].draw(nxt.name))
            dwg.add(self._arrow(dwg, start, _centre(nxt.vertices())))
        return _("Tangram: {placed} of 7 pieces placed").format(placed=len(state.placed))

    # -- compose -------------------------------------------------------------------------------
    def _compose(self, dwg, state, lay: Layout, selection: str | None) -> str:
        draft = list(state.silhouette.draft)
        pairs = overlapping(draft)
        clashing = {n for pair in pairs for n in pair}
        with_whom = {n: sorted({b if a == n else a for a, b in pairs if n in (a, b)}) for n in clashing}
        names = {p.name for p in draft}
        for name in PIECE_NAMES:
            if name in names:
                continue
            g = self._piece(dwg, name, lay.slots[name].draw(name), "in-tray")
            g.attribs["data-action"] = f"add:{name}"
            g.attribs["aria-label"] = _("{piece}, in the tray").format(piece=piece_title(name))
            g.attribs["data-place"] = f"{name} r0 f0"
            g.attribs["data-scale"] = str(round(lay.slots[name].scale, 4))
            dwg.add(g)
        selected = None
        for p in draft:
            cls = "draft"
            label = describe_placement(p)
            if p.name in clashing:
                cls += " overlap"
                label = _("{piece}, overlaps {others}").format(
                    piece=label, others=and_list([piece_title(n) for n in with_whom[p.name]]))
            if selection == p.name:
                cls += " selected"
                label = _("{piece}, selected").format(piece=label)
                selected = p
            g = self._piece(dwg, p.name, p.vertices(), cls)
            g.attribs["data-action"] = f"select:{p.name}"
            g.attribs["aria-label"] = label
            g.attribs["data-place"] = f"{p.name} r{p.rot} f{p.flip}"
            g.attribs["data-scale"] = "1"
            dwg.add(g)
        if selected is not None:
            dwg.add(self._rotate_handle(dwg, selected, lay.board))
        usable = len(draft) == 7 and not pairs
        dwg.attribs["data-overlaps"] = str(len(pairs))
        dwg.attribs["data-can-use"] = "true" if usable else "false"
        wx0, wy1 = lay.work[0], lay.work[3]
        if pairs:
            text = ngettext("{count} overlap", "{count} overlaps", len(pairs)).format(count=len(pairs))
            dwg.add(dwg.text(text, insert=(_f(wx0 + 0.2), _f(-wy1 + 0.55)), class_="overlap-count"))
            return _("Tangram composer: {placed} of 7 pieces placed, {count} overlapping").format(
                placed=len(draft), count=len(pairs))
        return _("Tangram composer: {placed} of 7 pieces placed").format(placed=len(draft))

    # -- parts ---------------------------------------------------------------------------------
    @staticmethod
    def _piece(dwg, name: str, pts, extra: str, title: str | None = None):
        g = dwg.g(class_=f"piece piece-{name} shape-{name[0]} {extra}".strip())
        g.attribs["data-key"] = f"piece-{name}"
        g.attribs["data-piece"] = name
        poly = dwg.polygon(_points(pts))
        g.add(poly)
        if title:
            g.set_desc(title=title)
        return g

    @staticmethod
    def _arrow(dwg, start, end):
        """A dashed arrow from the tray slot to where the next piece goes (puzzle units)."""
        (sx, sy), (ex, ey) = start, end
        dx, dy = ex - sx, ey - sy
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        # stop short of the centre so the head sits inside the ghost, not on top of its centre
        tip = (ex - 0.3 * ux, ey - 0.3 * uy)
        base = (tip[0] - 0.35 * ux, tip[1] - 0.35 * uy)
        g = dwg.g(class_="move-arrow next-move")
        g.add(dwg.line((_f(sx), _f(-sy)), (_f(base[0]), _f(-base[1]))))
        head = [tip, (base[0] - 0.18 * uy, base[1] + 0.18 * ux), (base[0] + 0.18 * uy, base[1] - 0.18 * ux)]
        g.add(dwg.polygon([(_f(x), _f(-y)) for x, y in head]))
        return g

    @staticmethod
    def _rotate_handle(dwg, p: Placement, board):
        xs = [float(x) for x, _ in p.vertices()]
        ys = [float(y) for _, y in p.vertices()]
        # above the piece's top-right corner, but inside the board (a piece may touch its edge)
        cx = min(max(xs) + 0.35, board[2] - 0.35)
        cy = min(max(ys) + 0.35, board[3] - 0.35)
        g = dwg.g(class_="handle rotate-handle")
        g.attribs["data-action"] = "rotate"
        g.attribs["aria-label"] = _("Turn {piece} 45 degrees").format(piece=piece_title(p.name))
        g.add(dwg.circle((_f(cx), _f(-cy)), 0.32))
        # an open circle with an arrowhead at its end: the usual "turn" glyph (anticlockwise,
        # as R turns). Drawn in SVG's y-down coordinates around the handle's centre.
        X, Y, r = cx, -cy, 0.17
        a0, a1 = math.radians(-60), math.radians(40)   # 260 degrees the short way round is not taken
        sx, sy = X + r * math.cos(a0), Y + r * math.sin(a0)
        ex, ey = X + r * math.cos(a1), Y + r * math.sin(a1)
        g.add(dwg.path(d=f"M {_f(sx)} {_f(sy)} A {r} {r} 0 1 0 {_f(ex)} {_f(ey)}"))
        # the arrowhead points along the tangent of the anticlockwise (on screen) arc at its end
        tx, ty = math.sin(a1), -math.cos(a1)
        nx, ny = -ty, tx
        head = [(ex + 0.11 * tx, ey + 0.11 * ty), (ex + 0.08 * nx, ey + 0.08 * ny),
                (ex - 0.08 * nx, ey - 0.08 * ny)]
        g.add(dwg.polygon([(_f(x), _f(y)) for x, y in head], class_="arrowhead"))
        return g

    @staticmethod
    def _draw_buttons(dwg, lay: Layout):
        """"Undo point" and "Stop drawing", in the tray while drawing (touch has no keys)."""
        tx0, tx1, ty1 = lay.tray[0], lay.tray[2], lay.tray[3]
        width = min(3.2, tx1 - tx0 - 0.4)
        for i, (action, label) in enumerate((("draw-undo", _("Undo point")), ("draw-cancel", _("Stop drawing")))):
            top = ty1 - 0.3 - i * 1.1
            g = dwg.g(class_="board-button")
            g.attribs["data-action"] = action
            g.attribs["aria-label"] = label
            g.add(dwg.rect((_f(tx0 + 0.2), _f(-top)), (_f(width), 0.8), rx=0.12))
            g.add(dwg.text(label, insert=(_f(tx0 + 0.2 + width / 2), _f(-top + 0.53)), text_anchor="middle"))
            dwg.add(g)

    @staticmethod
    def _grid(dwg, lay: Layout):
        """Dots on the half-unit lattice of the work area (bigger on whole units)."""
        x0, y0, x1, y1 = lay.work
        small, big = [], []
        for i in range(int(2 * x0), int(2 * x1) + 1):
            for j in range(int(2 * y0), int(2 * y1) + 1):
                (big if i % 2 == 0 and j % 2 == 0 else small).append(f"M{i / 2} {-j / 2}h0")
        dwg.add(dwg.path(d="".join(small), class_="grid", stroke_width=0.06))
        dwg.add(dwg.path(d="".join(big), class_="grid", stroke_width=0.12))

    @staticmethod
    def _sketch(dwg, sketch):
        g = dwg.g(class_="sketch")
        for ring in sketch.closed:
            g.add(dwg.polygon(_points(ring)))
        if sketch.open:
            pts = _points(sketch.open)
            if len(pts) > 1:
                g.add(dwg.polyline(pts))
            for x, y in pts[1:]:
                g.add(dwg.circle((x, y), 0.09))
            g.add(dwg.circle(pts[0], 0.16, class_="first-point"))
        dwg.add(g)
