"""Figures drawn as lines: a pen tracing of a figure's outline, or a solution drawn with every
piece's edges, photographed or scanned.

The pen's ink is thin and encloses places of paper that do not reach the picture's border. The
figure is those places filled in, with the outline along the middle of the pen's line (half a
pen inside the ink's outer edge). Which places are the figure depends on what was drawn:

- outlines only: places alternate between figure and hole from the outside in (a hole's outline
  inside the figure's, an island inside the hole);
- every piece's edges: every place is a piece, and a hole among the pieces is one more place.

Both readings are kept, the likelier first (:func:`line_drawing`); a drawn solution's seven
places are also read as the seven pieces (:func:`.trace.drawn_solution`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage
from skimage.morphology import skeletonize
from skimage.segmentation import expand_labels

#: A figure is drawn as lines when what its lines enclose is at least ENCLOSED_SHARE of their
#: own area, and the pen is at most LINE_WIDTH units wide (a filled silhouette encloses only
#: its holes, a small share, and its ink is units wide).
ENCLOSED_SHARE = 0.6
LINE_WIDTH = 0.4


@dataclass(frozen=True)
class LineDrawing:
    """A figure drawn as lines, read (:func:`line_drawing`): maps of the filled figure, the
    likelier first; half the pen's width (working pixels); and the places the lines enclose,
    labelled 1 to their count (the pieces, in a drawn solution)."""

    readings: list[np.ndarray]
    half_pen: float
    places: np.ndarray
    depths: np.ndarray  # per place (index 0 the outside): how many lines in from the outside


def line_drawing(level: np.ndarray, threshold: float) -> LineDrawing | None:
    """A figure drawn as lines (a pen tracing of its outline, perhaps with the pieces' edges
    inside) as maps of the filled figure, the likelier first (see :func:`_inside_the_lines`),
    and half the pen's width (working pixels): the figure's outline runs along the middle of
    the pen's line. None for a filled figure.

    The figure's ink encloses places of ground that do not reach the picture's border; when
    those are larger than the ink and the ink is thin (its area over the length of its
    skeleton), the places inside the figure are filled in at the ink's level."""
    inside = level > threshold
    ink = int(inside.sum())
    if ink == 0:
        return None
    filled = ndimage.binary_fill_holes(inside)
    enclosed = filled & ~inside
    if int(enclosed.sum()) < ENCLOSED_SHARE * ink:
        return None
    width = ink / max(1, int(skeletonize(inside).sum()))
    unit = float(np.sqrt(filled.sum() / 16))
    if width > LINE_WIDTH * unit:
        return None
    # thin everywhere, not only on average: a filled figure inside a drawn frame has a thin
    # frame's worth of skeleton but a deep inside
    if float(np.percentile(ndimage.distance_transform_edt(inside)[inside], 99)) > max(2.0, width):
        return None
    places, count = ndimage.label(enclosed)
    if count > MAX_PLACES:
        return None  # a grid, a texture: no drawing of seven pieces
    plateau = float(np.percentile(level[inside], 90))
    pen = max(2, round(width))
    depths = place_depths(inside, enclosed, places, count, pen)
    readings = [np.where(figure, np.maximum(level, plateau), level)
                for figure in _inside_the_lines(enclosed, places, count, depths)]
    return LineDrawing(readings, width / 2, places.astype(np.int32), depths)


#: A line drawing of seven pieces encloses a few places (the pieces, holes, places cut off where
#: an outline touches itself); more is something else, and their depths would cost time.
MAX_PLACES = 60
#: A line drawing with at least this many enclosed places draws the pieces' edges (a drawn
#: solution): every place is a piece. With fewer, it draws outlines, and places alternate
#: between figure and hole from the outside in.
PIECE_PLACES = 5


#: Places are neighbours across a line when their border is at least this many pens long.
NEIGHBOUR_PENS = 4


def _inside_the_lines(enclosed: np.ndarray, places: np.ndarray, count: int, depths: np.ndarray) -> list[np.ndarray]:
    """The enclosed places (``enclosed``, ground the ink cuts off from the border) that are
    the figure's inside, two ways, the likelier first: all of them (the lines are the pieces'
    edges), and those an odd number of lines in from the outside (the lines are outlines: a
    figure's, a hole's inside it, an island's in the hole). A drawing with PIECE_PLACES places
    or more is likelier the pieces'; an outline that touches itself at corners makes several
    places too, so both are read. Places are neighbours when one pen's width of ink parts
    them. One way only when both are the same (no holes)."""
    odd = depths % 2 == 1
    alternate = odd[places] & enclosed
    if not (alternate ^ enclosed).any():
        return [enclosed]
    return [enclosed, alternate] if count >= PIECE_PLACES else [alternate, enclosed]


def place_depths(ink: np.ndarray, enclosed: np.ndarray, places: np.ndarray, count: int, pen: int) -> np.ndarray:
    """How many lines in from the outside each place lies (index 1 to count; index 0 is the
    outside, 0 lines): places are neighbours when their border along one pen's width of ink
    is several pens long. A place no such path reaches counts as one line in."""
    outside = ~ink & ~enclosed
    labels = np.where(outside, count + 1, places)  # the outside is one more place
    grown = expand_labels(labels, distance=pen + 2)
    # neighbours along a line, not only at a corner where lines meet (a hole touching the
    # outline at a corner is still a hole): their border is several pens long
    codes = []
    for a, b in ((grown[1:, :], grown[:-1, :]), (grown[:, 1:], grown[:, :-1])):
        differ = (a != b) & (a > 0) & (b > 0)
        low, high = np.minimum(a[differ], b[differ]), np.maximum(a[differ], b[differ])
        codes.append(low.astype(np.int64) * (count + 2) + high)
    found, length = np.unique(np.concatenate(codes), return_counts=True)
    neighbours: dict[int, list[int]] = {}
    for code, n in zip(found.tolist(), length.tolist()):
        if n >= NEIGHBOUR_PENS * (pen + 2):
            a, b = divmod(code, count + 2)
            neighbours.setdefault(a, []).append(b)
            neighbours.setdefault(b, []).append(a)
    depth = {count + 1: 0}
    frontier = [count + 1]
    while frontier:  # breadth first from the outside: each place and border once
        nxt = []
        for place in frontier:
            for other in neighbours.get(place, ()):
                if other not in depth:
                    depth[other] = depth[place] + 1
                    nxt.append(other)
        frontier = nxt
    return np.array([0] + [depth.get(place, 1) for place in range(1, count + 1)])
