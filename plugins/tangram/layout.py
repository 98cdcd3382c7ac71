"""Where things go on a tangram board: the work area around the figure and the piece tray.

The renderer draws with this layout and the composing editor judges drops with it, so both
agree on where the tray is. Everything here is in floats (puzzle units, y up): the layout only
decides where to *draw*; positions of pieces stay exact numbers elsewhere.

The board never changes size while pieces are added, moved or removed: the work area depends
only on the silhouette (widened to at least ``WORK_MIN`` units while composing), and pieces not
in play wait in a tray beside it (to the right, or below a wide figure), drawn at a reduced scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from .pieces import PIECE_NAMES, oriented_shape

#: While composing, the work area is at least this many units wide and tall (a figure of the
#: seven pieces spans up to about 8 units), so there is room to lay pieces out.
WORK_MIN = 8.0
#: Space between the figure and the border of the work area.
MARGIN = 0.5
#: Largest scale of a piece in the tray (1 would be its real size).
TRAY_MAX_SCALE = 0.6
#: Gap between tray slots, in tray units (before scaling).
TRAY_GAP = 0.4
#: Tray rows (or columns, for a tray beside the figure): large pieces, then small ones.
TRAY_GROUPS = (("L1", "L2", "M"), ("S1", "S2", "Q", "P"))

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 (y up)


def _shape_box(name: str) -> Box:
    pts = [(float(x), float(y)) for x, y in oriented_shape(name[0], 0, 0)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def points_box(points: Iterable[tuple[float, float]]) -> Box | None:
    pts = list(points)
    if not pts:
        return None
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Slot:
    """Where a piece waits in the tray: drawn as ``origin + scale * (vertex - base box corner)``."""

    name: str
    origin: tuple[float, float]
    scale: float

    def draw(self, name: str) -> list[tuple[float, float]]:
        """The tray drawing of a piece in its base orientation (r0 f0), vertex 0 first."""
        bx0, by0, _, _ = _shape_box(name)
        ox, oy = self.origin
        return [(ox + self.scale * (float(x) - bx0), oy + self.scale * (float(y) - by0))
                for x, y in oriented_shape(name[0], 0, 0)]


@dataclass(frozen=True)
class Layout:
    """The work area, the tray beside it and one slot per piece (all in puzzle units, y up)."""

    work: Box
    tray: Box
    slots: dict
    tray_side: str  # "right" or "below"

    @property
    def board(self) -> Box:
        """Everything drawn: the work area and the tray."""
        return (min(self.work[0], self.tray[0]), min(self.work[1], self.tray[1]),
                max(self.work[2], self.tray[2]), max(self.work[3], self.tray[3]))

    def in_tray(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.tray
        return x0 <= x <= x1 and y0 <= y <= y1


def work_area(figure: Box | None, extra: Box | None = None, minimum: float = 0.0) -> Box:
    """The figure's box with a margin, at least ``minimum`` wide and tall, covering ``extra``
    (pieces placed outside it), with whole-number edges so the drawing grid lines up."""
    x0, y0, x1, y1 = figure if figure is not None else (0.0, 0.0, 4.0, 4.0)
    if x1 - x0 < minimum:
        c = (x0 + x1) / 2
        x0, x1 = c - minimum / 2, c + minimum / 2
    if y1 - y0 < minimum:
        c = (y0 + y1) / 2
        y0, y1 = c - minimum / 2, c + minimum / 2
    box = (math.floor(x0 - MARGIN), math.floor(y0 - MARGIN), math.ceil(x1 + MARGIN), math.ceil(y1 + MARGIN))
    if extra is None:
        return box
    # pieces beyond the area widen it just enough (no margin: pieces at its border keep it still)
    return (min(box[0], math.floor(extra[0])), min(box[1], math.floor(extra[1])),
            max(box[2], math.ceil(extra[2])), max(box[3], math.ceil(extra[3])))


def layout(figure: Box | None, extra: Box | None = None, composing: bool = False) -> Layout:
    """The board layout for a figure's box (and pieces beyond it, ``extra``)."""
    work = work_area(figure, extra, WORK_MIN if composing else 0.0)
    wx0, wy0, wx1, wy1 = work
    width, height = wx1 - wx0, wy1 - wy0
    boxes = {n: _shape_box(n) for n in PIECE_NAMES}
    # one group = a column beside the figure, or a row below it
    side = "below" if width > 1.3 * height else "right"
    along = 1 if side == "right" else 0          # the axis a group runs along
    lengths = [sum(boxes[n][2 + along] - boxes[n][along] for n in g) + TRAY_GAP * (len(g) - 1)
               for g in TRAY_GROUPS]
    room = (height if side == "right" else width) - 2 * TRAY_GAP
    scale = min(TRAY_MAX_SCALE, room / max(lengths))
    slots = {}
    across = 0.0                                 # tray units across the groups so far
    for group in TRAY_GROUPS:
        thick = max(boxes[n][3 - along] - boxes[n][1 - along] for n in group)
        pos = 0.0
        for name in group:
            bx0, by0, bx1, by1 = boxes[name]
            if side == "right":
                origin = (wx1 + TRAY_GAP + scale * across, wy1 - TRAY_GAP - scale * (pos + by1 - by0))
                pos += by1 - by0 + TRAY_GAP
            else:
                origin = (wx0 + TRAY_GAP + scale * pos, wy0 - TRAY_GAP - scale * (across + by1 - by0))
                pos += bx1 - bx0 + TRAY_GAP
            slots[name] = Slot(name, origin, scale)
        across += thick + TRAY_GAP
    extent = scale * (across - TRAY_GAP) + 2 * TRAY_GAP
    if side == "right":
        tray = (wx1, wy0, wx1 + extent, wy1)
    else:
        tray = (wx0, wy0 - extent, wx1, wy0)
    return Layout(work, tray, slots, side)


def box_of_rings(rings: Sequence[Sequence[tuple]]) -> Box | None:
    """The box of a silhouette's rings (exact points), in floats."""
    return points_box((float(x), float(y)) for r in rings for x, y in r)


def board_layout(state, composing: bool) -> Layout:
    """The layout a tangram state (silhouette, placed pieces) is drawn with; while
    ``composing``, the draft counts too. The renderer draws with it, the editor judges drops."""
    sil = state.silhouette
    pieces = list(state.placed) + (list(sil.draft) if composing else [])
    extra = points_box((float(x), float(y)) for p in pieces for x, y in p.vertices())
    return layout(box_of_rings(sil.rings()), extra, composing=composing)
