"""SVG drawing of sliding-tile boards (svgwrite), styled by an embedded stylesheet.

Each cell is a ``<g>`` with ``class="tile tile-N"`` (``"blank tile-0"`` for the blank), plus
``home`` when the tile stands on its goal cell, ``moving`` for the tile of ``last_move`` /
``next_move`` and ``selected`` for the editor's selection; it carries ``data-tile="N"`` and
``data-action="tile:N"`` (the editor's current mode decides what a click does). Coordinates are in
cell units of 100 so fonts scale with the board through the viewBox.
"""

from __future__ import annotations

import re

import svgwrite

from engine import Renderer

from .board import Board

CELL = 100
GAP = 4
MARGIN = 6

STYLE = """
.board { fill: #3b3f46; }
.tile rect { fill: #f4e3c1; stroke: #b08a4f; stroke-width: 2; }
.tile.home rect { fill: #e9f2d8; stroke: #7d9a4a; }
.tile text { fill: #3a2a12; font-family: 'DejaVu Sans', Verdana, Arial, sans-serif;
  font-weight: bold; text-anchor: middle; dominant-baseline: central; }
.blank rect { fill: #2a2d33; stroke: none; }
.tile.moving rect { fill: #ffd166; stroke: #d08a00; stroke-width: 5; }
.tile.selected rect, .blank.selected rect { stroke: #1f77d0; stroke-width: 8; }
.blank.selected rect { fill: #27476b; }
[data-action] { cursor: pointer; }
"""


def _tile_of(move: str | None) -> int | None:
    if move is not None and re.fullmatch(r"[0-9]{1,5}", str(move).strip()):
        return int(move)
    return None


def _font_size(n: int) -> int:
    """Font size in cell units for the widest tile number."""
    digits = len(str(n - 1))
    return {1: 56, 2: 50, 3: 38}.get(digits, 30)


def render_board(board: Board, *, last_move: str | None = None, next_move: str | None = None,
                 selection: str | None = None) -> str:
    """SVG text of ``board``; see the module docstring for classes and attributes."""
    width = board.cols * CELL + 2 * MARGIN
    height = board.rows * CELL + 2 * MARGIN
    # Natural size (for <img> embedding): 60 px per cell, the longer side at most 480 px.
    scale = min(0.6, 480 / max(width, height))
    dwg = svgwrite.Drawing(size=(f"{width * scale:.0f}px", f"{height * scale:.0f}px"), debug=False,
                           viewBox=f"0 0 {width} {height}")
    dwg.attribs["class"] = "sliding-board"
    dwg.attribs["role"] = "img"
    dwg.set_desc(title=f"{board.rows} x {board.cols} sliding-tile board")
    dwg.defs.add(dwg.style(STYLE))
    dwg.add(dwg.rect((0, 0), (width, height), rx=10, class_="board"))
    moving = {_tile_of(last_move), _tile_of(next_move)} - {None, 0}
    selected = _tile_of(selection)
    font = _font_size(board.size)
    inner = CELL - GAP
    for cell, tile in enumerate(board.tiles):
        r, c = divmod(cell, board.cols)
        x, y = MARGIN + c * CELL + GAP / 2, MARGIN + r * CELL + GAP / 2
        classes = ["blank" if tile == 0 else "tile", f"tile-{tile}"]
        if tile and board.goal[cell] == tile:
            classes.append("home")
        if tile in moving:
            classes.append("moving")
        if tile == selected:
            classes.append("selected")
        group = dwg.g(class_=" ".join(classes))
        group.attribs["data-tile"] = str(tile)
        group.attribs["data-action"] = f"tile:{tile}"
        group.add(dwg.rect((x, y), (inner, inner), rx=8))
        if tile:
            group.add(dwg.text(str(tile), insert=(x + inner / 2, y + inner / 2), font_size=font))
        dwg.add(group)
    return dwg.tostring()


class DefaultRenderer(Renderer):
    """Wooden tiles on a dark tray; tiles on their goal cell are tinted green."""

    puzzle_id = "sliding"
    name = "default"

    def render(self, state: Board, *, last_move: str | None = None, next_move: str | None = None,
               selection: str | None = None) -> str:
        return render_board(state, last_move=last_move, next_move=next_move, selection=selection)
