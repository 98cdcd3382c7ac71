"""SVG drawing of a Lights Out board.

Pure function of its arguments (same board and moves, same SVG text). The markup follows the
engine's board contract, so the generic web client animates, navigates and announces it:

* Every light is a ``<g class="light on">`` (or ``off``) keyed ``data-key="light-b3"``, with
  ``data-state="on"`` (or ``off``), ``data-action="cell:b3"`` (sent back to
  :meth:`LightsOut.edit` when clicked), ``data-cell="b3"``, ``data-row``/``data-col`` (0-based)
  and ``aria-label="light b3, on"`` (in the reader's language). A light never moves: between
  two steps only its ``data-state`` changes, which is what the client animates (a flip).
* The press just played (``last_move``) is ``last-move`` on its light, the one about to be
  played (``next_move``) ``next-move`` (only that, if it is the same light). The ``<rect>`` of
  every light such a press toggles gets ``affected``, and a dot (``press-mark press-last``,
  solid) or a dashed ring (``press-mark press-next``) marks the pressed light. Those marks sit
  on children, never on the keyed ``<g>``: its classes other than the cues say only what it is
  and whether it is on, so a client may read any other change of them as a flip.
* ``<g class="coords">`` holds the column letters and row numbers of the move notation.

The colours live in an embedded ``<style>`` so a page can restyle the board with its own CSS.
"""

from __future__ import annotations

import svgwrite

from engine import InputError, Renderer, format_number

from .board import COLUMN_LETTERS, Board, cell_index, cell_name, press_masks
from .i18n import CATALOGUE, _, ngettext

CELL = 40      # side of one light, in viewBox units
GAP = 4        # space between lights
MARGIN = 22    # room for the column letters and row numbers

STYLE = """
.lights-out { font-family: sans-serif; }
.lights-out .frame { fill: #1d2330; }
.lights-out .light rect { stroke: #0b0e14; stroke-width: 1; }
.lights-out .light { cursor: pointer; }
.lights-out .light.on rect { fill: #ffd34d; }
.lights-out .light.off rect { fill: #3a4252; }
.lights-out .light rect.affected { stroke: #ff8a3d; stroke-width: 2; }
.lights-out .light.last-move rect { stroke: #ff3d3d; stroke-width: 4; }
.lights-out .light.next-move rect { stroke: #4da3ff; stroke-width: 3; stroke-dasharray: 6 4; }
.lights-out .press-mark { pointer-events: none; }
.lights-out .press-last { fill: #ff3d3d; }
.lights-out .press-next { fill: none; stroke: #4da3ff; stroke-width: 2.5; stroke-dasharray: 4 3; }
.lights-out .coords text { fill: #8a93a6; font-size: 13px; text-anchor: middle; pointer-events: none; }
"""


def _move_cells(board: Board, move: str | None) -> tuple[int | None, int]:
    """The pressed cell of ``move`` and the cells it toggles; (None, 0) if there is no move."""
    if move is None:
        return None, 0
    try:
        index = cell_index(move, board.rows, board.cols)
    except InputError:
        return None, 0  # the contract promises legal moves; stay drawable if one is not
    return index, press_masks(board.rows, board.cols)[index]


class ClassicRenderer(Renderer):
    """Yellow lights on a dark frame, with coordinates on the top and left edges."""

    puzzle_id = "lights_out"
    name = "classic"
    catalogue = CATALOGUE

    def render(self, state: Board, *, last_move: str | None = None,
               next_move: str | None = None, selection: str | None = None) -> str:
        width = MARGIN + state.cols * (CELL + GAP) + GAP
        height = MARGIN + state.rows * (CELL + GAP) + GAP
        drawing = svgwrite.Drawing(size=("100%", "100%"), viewBox=f"0 0 {width} {height}",
                                   debug=False, class_="lights-out", role="img",
                                   **{"data-rows": state.rows, "data-cols": state.cols})
        drawing.embed_stylesheet(STYLE)
        # The labels are written in the current locale (the request's): the host keys its cache
        # of drawings by locale, so each language gets its own.
        lit = state.lit_count()
        drawing.set_desc(title=ngettext("Lights Out, {rows} x {cols}, {count} light on",
                                        "Lights Out, {rows} x {cols}, {count} lights on", lit).format(
            rows=state.rows, cols=state.cols, count=format_number(lit)))
        said_on, said_off = _("light {cell}, on"), _("light {cell}, off")
        drawing.add(drawing.rect((MARGIN, MARGIN), (width - MARGIN, height - MARGIN), rx=6,
                                 class_="frame"))

        last, last_mask = _move_cells(state, last_move)
        nxt, next_mask = _move_cells(state, next_move)
        affected = last_mask | next_mask

        coords = drawing.g(class_="coords", **{"aria-hidden": "true"})
        for col in range(state.cols):
            x = MARGIN + GAP + col * (CELL + GAP) + CELL / 2
            coords.add(drawing.text(COLUMN_LETTERS[col], insert=(x, MARGIN - 7)))
        for row in range(state.rows):
            y = MARGIN + GAP + row * (CELL + GAP) + CELL / 2 + 5
            coords.add(drawing.text(str(row + 1), insert=(MARGIN / 2, y)))
        drawing.add(coords)

        for index in range(state.size):
            row, col = divmod(index, state.cols)
            x = MARGIN + GAP + col * (CELL + GAP)
            y = MARGIN + GAP + row * (CELL + GAP)
            name = cell_name(index, state.cols)
            on = bool(state.lights >> index & 1)
            classes = ["light", "on" if on else "off"]
            if index == last and index != nxt:  # one cue per part: the next press wins
                classes.append("last-move")
            if index == nxt:
                classes.append("next-move")
            light = drawing.g(class_=" ".join(classes), **{
                "data-key": f"light-{name}", "data-state": "on" if on else "off",
                "data-action": f"cell:{name}", "data-cell": name, "data-row": row, "data-col": col,
                "aria-label": (said_on if on else said_off).format(cell=name)})
            light.add(drawing.rect((x, y), (CELL, CELL), rx=5,
                                   class_="affected" if affected >> index & 1 else "face"))
            centre = (x + CELL / 2, y + CELL / 2)
            if index == last:
                light.add(drawing.circle(centre, 5, class_="press-mark press-last"))
            if index == nxt:
                light.add(drawing.circle(centre, 9, class_="press-mark press-next"))
            drawing.add(light)
        return drawing.tostring()
