"""SVG drawing of sliding-tile boards (svgwrite), styled by an embedded stylesheet.

The markup follows the engine's board contract, so the web client can animate, navigate and
announce the board without knowing the puzzle:

* Each tile is a ``<g class="tile tile-N">`` keyed ``data-key="tile-N"`` (a tile keeps its key
  wherever it stands, so the client tweens it between two steps), with ``data-tile="N"``,
  ``data-action="tile:N"`` (the editor's current mode decides what a click does),
  ``data-row``/``data-col`` (0-based) and ``aria-label`` naming it and its state ("tile 5, can
  slide left, row 2, column 3"). ``home`` marks a tile on its goal cell, ``selected`` the
  editor's selection.
* The blank is ``<g class="blank tile-0">`` with the same attributes but no key: it has no
  identity to follow. It is drawn first, so a tile sliding into it passes over it.
* ``last-move`` marks the tile ``last_move`` slid; ``next-move`` the tile ``next_move`` will
  slide (only ``next-move`` if that is the same tile: a part carries one cue), and
  ``<g class="move-arrow next-move">`` draws an arrow from that tile to the blank.

Coordinates are in cell units of 100 so fonts scale with the board through the viewBox.
"""

from __future__ import annotations

import re

import svgwrite

from engine import N_, Renderer

from .board import Board, movable_tiles
from .i18n import CATALOGUE, _, pgettext

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
.tile.last-move rect { fill: #ffd166; stroke: #d08a00; stroke-width: 6; }
.tile.next-move rect { stroke: #1f77d0; stroke-width: 5; stroke-dasharray: 12 8; }
.move-arrow { pointer-events: none; }
.move-arrow line { stroke: #1f77d0; stroke-width: 8; stroke-linecap: round; opacity: 0.8; }
.move-arrow polygon { fill: #1f77d0; opacity: 0.8; }
.tile.selected rect, .blank.selected rect { stroke: #1f77d0; stroke-width: 8; stroke-dasharray: none; }
.blank.selected rect { fill: #27476b; }
[data-action] { cursor: pointer; }
"""

#: The word for the direction a tile moves when it slides into the blank, by (row, col) step
#: (machine words: the puzzle and the labels below turn each into a whole phrase to translate).
DIRECTIONS = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
#: "can slide left" in a tile's spoken label, one phrase per direction.
CAN_SLIDE = {"up": N_("can slide up"), "down": N_("can slide down"),
             "left": N_("can slide left"), "right": N_("can slide right")}


def _tile_of(move: str | None) -> int | None:
    if move is not None and re.fullmatch(r"[0-9]{1,5}", str(move).strip()):
        return int(move)
    return None


def slide_direction(board: Board, tile: int) -> str | None:
    """"up", "down", "left" or "right": where ``tile`` goes if it slides now (None: it cannot)."""
    if not 0 < tile < board.size:
        return None
    cell, blank = board.tiles.index(tile), board.blank
    (r, c), (br, bc) = divmod(cell, board.cols), divmod(blank, board.cols)
    return DIRECTIONS.get((br - r, bc - c))


def _font_size(n: int) -> int:
    """Font size in cell units for the widest tile number."""
    digits = len(str(n - 1))
    return {1: 56, 2: 50, 3: 38}.get(digits, 30)


def _centre(board: Board, cell: int) -> tuple[float, float]:
    r, c = divmod(cell, board.cols)
    return MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2


def _arrow(dwg: svgwrite.Drawing, start: tuple[float, float], end: tuple[float, float]):
    """An arrow from ``start`` towards ``end`` (cell centres), its head stopping short of it."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = (x1 - x0) / CELL, (y1 - y0) / CELL  # a unit step: neighbouring cells
    tip = (x1 - dx * 22, y1 - dy * 22)
    base = (tip[0] - dx * 26, tip[1] - dy * 26)
    wing = (-dy * 16, dx * 16)
    group = dwg.g(class_="move-arrow next-move")
    group.attribs["aria-hidden"] = "true"
    group.add(dwg.line((x0 + dx * 10, y0 + dy * 10), base))
    group.add(dwg.polygon([tip, (base[0] + wing[0], base[1] + wing[1]),
                           (base[0] - wing[0], base[1] - wing[1])]))
    return group


def _label(board: Board, tile: int, cell: int, movable: set[int], selected: bool) -> str:
    """The spoken name of a cell: "tile 5, can slide up, in place, row 2, column 3, selected"."""
    r, c = divmod(cell, board.cols)
    words = [_("blank") if tile == 0 else _("tile {tile}").format(tile=tile)]
    direction = slide_direction(board, tile) if tile in movable else None
    if direction:
        words.append(_(CAN_SLIDE[direction]))
    if tile and board.goal[cell] == tile:
        words.append(_("in place"))
    words.append(_("row {row}, column {column}").format(row=r + 1, column=c + 1))
    if selected:
        words.append(_("selected"))
    # The parts of one spoken label ("，" in Chinese), not a list of things ("、").
    return pgettext("spoken label", ", ").join(words)


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
    dwg.set_desc(title=_("{rows} x {cols} sliding-tile board").format(rows=board.rows, cols=board.cols))
    dwg.defs.add(dwg.style(STYLE))
    dwg.add(dwg.rect((0, 0), (width, height), rx=10, class_="board"))
    last, nxt = _tile_of(last_move), _tile_of(next_move)
    movable = set(movable_tiles(board))
    if nxt not in movable:
        nxt = None  # the contract promises a legal move; draw nothing rather than a wrong cue
    selected = _tile_of(selection)
    font = _font_size(board.size)
    inner = CELL - GAP
    # The blank first: a tile tweened into it is drawn above it.
    order = sorted(range(board.size), key=lambda cell: board.tiles[cell] != 0)
    for cell in order:
        tile = board.tiles[cell]
        r, c = divmod(cell, board.cols)
        x, y = MARGIN + c * CELL + GAP / 2, MARGIN + r * CELL + GAP / 2
        classes = ["blank" if tile == 0 else "tile", f"tile-{tile}"]
        if tile and board.goal[cell] == tile:
            classes.append("home")
        if tile and tile == last and tile != nxt:  # one cue per part: the next move wins
            classes.append("last-move")
        if tile and tile == nxt:
            classes.append("next-move")
        if tile == selected:
            classes.append("selected")
        group = dwg.g(class_=" ".join(classes))
        if tile:
            group.attribs["data-key"] = f"tile-{tile}"
        group.attribs["data-tile"] = str(tile)
        group.attribs["data-action"] = f"tile:{tile}"
        group.attribs["data-row"] = str(r)
        group.attribs["data-col"] = str(c)
        group.attribs["aria-label"] = _label(board, tile, cell, movable, tile == selected)
        group.add(dwg.rect((x, y), (inner, inner), rx=8))
        if tile:
            group.add(dwg.text(str(tile), insert=(x + inner / 2, y + inner / 2), font_size=font))
        dwg.add(group)
    if nxt:
        dwg.add(_arrow(dwg, _centre(board, board.tiles.index(nxt)), _centre(board, board.blank)))
    return dwg.tostring()


class DefaultRenderer(Renderer):
    """Wooden tiles on a dark tray; tiles on their goal cell are tinted green."""

    puzzle_id = "sliding"
    name = "default"
    catalogue = CATALOGUE

    def render(self, state: Board, *, last_move: str | None = None, next_move: str | None = None,
               selection: str | None = None) -> str:
        return render_board(state, last_move=last_move, next_move=next_move, selection=selection)
