"""SVG drawing of a Lights Out board.

Pure function of its arguments (same board and moves, same SVG text). Every cell is a ``<rect>``
with CSS classes (``light on`` / ``light off``, plus ``pressed`` and ``affected`` around the move
just played or about to be played) and ``data-action="cell:b3"``, which the engine's generic web
editor sends back to :meth:`LightsOut.edit` when the cell is clicked. The colours live in an
embedded ``<style>`` so a page can restyle the board with its own CSS.
"""

from __future__ import annotations

import svgwrite

from engine import InputError, Renderer

from .board import COLUMN_LETTERS, Board, cell_index, cell_name, press_masks

CELL = 40      # side of one light, in viewBox units
GAP = 4        # space between lights
MARGIN = 22    # room for the column letters and row numbers

STYLE = """
.lights-out { font-family: sans-serif; }
.lights-out .frame { fill: #1d2330; }
.lights-out .light { stroke: #0b0e14; stroke-width: 1; cursor: pointer; }
.lights-out .light.on { fill: #ffd34d; }
.lights-out .light.off { fill: #3a4252; }
.lights-out .light.affected { stroke: #ff8a3d; stroke-width: 2; }
.lights-out .light.pressed { stroke: #ff3d3d; stroke-width: 4; }
.lights-out .press-mark { fill: #ff3d3d; pointer-events: none; }
.lights-out .label { fill: #8a93a6; font-size: 13px; text-anchor: middle; pointer-events: none; }
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

    def render(self, state: Board, *, last_move: str | None = None,
               next_move: str | None = None, selection: str | None = None) -> str:
        width = MARGIN + state.cols * (CELL + GAP) + GAP
        height = MARGIN + state.rows * (CELL + GAP) + GAP
        drawing = svgwrite.Drawing(size=("100%", "100%"), viewBox=f"0 0 {width} {height}",
                                   debug=False, class_="lights-out",
                                   **{"data-rows": state.rows, "data-cols": state.cols})
        drawing.embed_stylesheet(STYLE)
        drawing.set_desc(title=f"Lights Out, {state.rows} x {state.cols}, "
                               f"{state.lit_count()} lights on")
        drawing.add(drawing.rect((MARGIN, MARGIN), (width - MARGIN, height - MARGIN), rx=6,
                                 class_="frame"))

        pressed, affected = set(), 0
        for move in (last_move, next_move):
            index, mask = _move_cells(state, move)
            if index is not None:
                pressed.add(index)
                affected |= mask

        for col in range(state.cols):
            x = MARGIN + GAP + col * (CELL + GAP) + CELL / 2
            drawing.add(drawing.text(COLUMN_LETTERS[col], insert=(x, MARGIN - 7), class_="label"))
        for row in range(state.rows):
            y = MARGIN + GAP + row * (CELL + GAP) + CELL / 2 + 5
            drawing.add(drawing.text(str(row + 1), insert=(MARGIN / 2, y), class_="label"))

        for index in range(state.size):
            row, col = divmod(index, state.cols)
            x = MARGIN + GAP + col * (CELL + GAP)
            y = MARGIN + GAP + row * (CELL + GAP)
            name = cell_name(index, state.cols)
            classes = ["light", "on" if state.lights >> index & 1 else "off"]
            if affected >> index & 1:
                classes.append("affected")
            if index in pressed:
                classes.append("pressed")
            cell = drawing.rect((x, y), (CELL, CELL), rx=5, class_=" ".join(classes),
                                **{"data-action": f"cell:{name}", "data-cell": name})
            cell.set_desc(title=name)
            drawing.add(cell)
            if index in pressed:
                drawing.add(drawing.circle((x + CELL / 2, y + CELL / 2), 5, class_="press-mark"))
        return drawing.tostring()
