"""Tracing a picture of a tangram figure: picture -> outlines with holes -> exact figure.

The steps after :mod:`.picture` has made the figure-ness map:

1. a grey closing (a few pixels wide) bridges thin dividing lines between pieces, so a
   coloured picture that shows each piece has the same outline as a plain silhouette;
2. scikit-image's marching squares finds every outline at the threshold, outer edges and holes
   alike, to a fraction of a pixel (it interpolates the map, which a binary mask cannot);
   scikit-image was chosen over OpenCV by measurement (docs/tangram.md, "Pictures");
3. specks (rings under half a per cent of the figure) are dropped and each ring is simplified
   by Douglas-Peucker to about a fiftieth of a unit, which keeps every real corner;
4. the rings (y turned up) go to :func:`.reading.read_noisy`, the same reader as decimal text,
   which finds scale, rotation and the nearest exact figure.

The preview is the exact outline drawn back onto the picture (turned and moved to fit it best)
with the largest distance a traced vertex moved.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from dataclasses import dataclass, field, replace
from typing import Iterator

import numpy as np
from scipy import ndimage
from skimage import measure
from skimage.morphology import skeletonize
from skimage.segmentation import expand_labels

from engine import InputError

from .colour_regions import FLAT_SHARES, colour_gradient, colour_labels
from .decimals import coverable
from .drawn_pieces import DrawnPieces, read_drawn_pieces
from .i18n import _
from .perspective import Straightening, straightening
from .picture import Figure, PictureError, decode, figure_map
from .pieces import PIECE_NAMES, SHAPE_OF
from .reading import TooRough, fit, loaded, nesting_area, normalise, read_by_pieces, read_noisy
from .refusal import FreeAngle

FloatRing = list[tuple[float, float]]
#: Rings smaller than this share of the largest are specks of noise or dust.
MIN_RING_SHARE = 0.005
#: Douglas-Peucker tolerance in figure units (one unit is a quarter of the big square's side).
SIMPLIFY_UNITS = 0.02
#: Most rings traced (a tangram figure has a few; hundreds mean a photo of something else).
MAX_RINGS = 24
_H = math.sqrt(0.5)
#: Bridged dividing lines count when their skeleton is this many times the square root of the
#: figure's area in pixels (the seven pieces' inner edges are about 4 times it; a filled point
#: contact is a speck).
LINE_LENGTH_SHARE = 0.5
#: A notch left by a dividing line is at most this many times ``short`` deep and wide: the line
#: is drawn across each piece's own corner, so its mouth is wider than a rounded corner.
NOTCH = 1.5
#: Seconds for reading a picture's outlines as exact figures (each outline traced, and the
#: first turned by 45 degrees), then for fitting the pieces, from the start of the reading; an
#: outline is not begun with less than MIN_READ left. (Each read alone may take a second:
#: without a shared budget a coloured picture took up to 4.4 s to refuse. Once the outline
#: search and the piece fit were made faster, 0.5 s and 0.85 s read as many of the mixed and
#: held-out pictures as 1.0 s and 2.5 s did, and refuse within a second with the decoding;
#: 0.6 s and 1.2 s read three more pen tracings of 60 at 128 px, and refuse within 1.35 s.)
OUTLINES_UNTIL = 0.5
#: A contour whose simplification keeps more corners than this is not sharpened: the bench's
#: pictures keep at most 54 (128 to 512 px, filled, coloured and pen-drawn), while a speckled,
#: faint photograph's outline kept a thousand, and sharpening that took seconds.
SHARPEN_MOST = 200
#: The pieces are fitted until 1.35 s (0.85 s before 2026-12-08): at 0.85 s the held-out set
#: 11000 read 88.3% at 128 px in four runs of six and 90.0% in two, at or under the 90% aimed
#: at; at 1.35 s, 90.0-93.3% (a blurred figure's fit needs about a second: random-11014 read
#: in 1.0 s), the other sets as before. A picture no figure fits is refused in about 1.45 s
#: with the decoding.
READING_BUDGET = 1.35
MIN_READ = 0.1


@dataclass(frozen=True)
class Trace:
    """What a picture was read as: the exact figure's text, how far the outline moved, and the
    exact outline in the picture's own pixels (x right, y down) for a preview."""

    text: str
    moved: float  # figure units
    width: int
    height: int
    outline: list[FloatRing]  # the exact figure, fitted onto the picture
    traced: list[FloatRing]  # the simplified outlines found in the picture
    seconds: float
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        """The JSON answer of the trace endpoint (coordinates rounded to 0.1 pixel)."""
        def rings(rs: list[FloatRing]) -> list[list[list[float]]]:
            return [[[round(x, 1), round(y, 1)] for x, y in r] for r in rs]
        return {"instance": self.text, "moved": round(self.moved, 3), "width": self.width,
                "height": self.height, "outline": rings(self.outline), "traced": rings(self.traced),
                "seconds": round(self.seconds, 3), "notes": self.notes}


def outlines(fig: Figure) -> list[FloatRing]:
    """The figure's outlines (outer edges and holes) in picture pixels, x right and y down."""
    return candidate_outlines(fig)[0]


def candidate_outlines(fig: Figure) -> list[list[FloatRing]]:
    """The figure's outlines as traced one or more ways, the likeliest first: a plain
    silhouette once; coloured pieces as the union of the pieces traced one by one, then as one
    silhouette of the map evened out piece by piece (:func:`silhouette_outlines`)."""
    return _candidates(fig, _prepared(fig), None)


@dataclass(frozen=True)
class _Prepared:
    """A first look at the figure-ness map: the map closed over thin dividing lines, how far
    inside the true edge the lines put the outline (:func:`dividing_line_inset`, picture
    pixels), the rings traced on the closed map (largest first, specks dropped), the figure's
    unit in picture pixels and whether the picture shows coloured pieces."""

    closed: np.ndarray
    grow: float
    kept: list[FloatRing]
    unit: float
    coloured: bool


def _prepared(fig: Figure) -> _Prepared:
    level = fig.level
    size = max(3, round(0.012 * max(level.shape)))
    closed = ndimage.grey_closing(level, size=(size, size))
    # out by half the dividing lines, or in by half the pen of a figure drawn as lines
    grow = dividing_line_inset(level, closed, fig.threshold) / fig.zoom - fig.inset
    low = float(min(closed.min(), fig.threshold)) - 1.0
    padded = np.pad(closed, 1, constant_values=low)  # so outlines touching the border close
    contours = measure.find_contours(padded, fig.threshold)
    rings = []
    for c in contours:
        if len(c) < 4:
            continue
        ring = [((float(col) - 1) / fig.zoom, (float(row) - 1) / fig.zoom) for row, col in c]
        rings.append(ring)
    if not rings:
        raise PictureError(_("no outline was found in the picture"))
    areas = [abs(_area(r)) for r in rings]
    biggest = max(areas)
    kept = [r for r, a in sorted(zip(rings, areas), key=lambda t: -t[1]) if a >= MIN_RING_SHARE * biggest]
    if len(kept) > MAX_RINGS:
        raise PictureError(_("the picture has {count} separate outlines; a tangram figure has at most "
                             "{limit} (is it a photograph of something else?)").format(
            count=len(kept), limit=MAX_RINGS))
    unit = math.sqrt(max(nesting_area([r for r in kept]), biggest) / 16)
    # a line drawing's places are not pieces in colours, whatever their paper's shading
    coloured = fig.places is None and (grow > 0 or pieces_in_colours(fig))
    return _Prepared(closed, grow, kept, unit, coloured)


def _candidates(fig: Figure, prep: _Prepared, pieces: list[TracedPiece] | None) -> list[list[FloatRing]]:
    """:func:`candidate_outlines` from the first look, with the coloured picture's pieces when
    they are already traced."""
    grow, unit = prep.grow, prep.unit
    px = 1 / fig.zoom  # one working pixel, in picture pixels
    if prep.coloured:
        if pieces is None:
            pieces = traced_pieces(fig, unit)
        found = [None if pieces is None else joined_pieces(pieces, fig, grow, unit),
                 silhouette_outlines(fig, unit, grow)]
        if any(found):
            return [f for f in found if f]
    out = []
    for r in prep.kept:
        pts = sharpen(np.asarray(r), tolerance=max(0.6 * px, 0.012 * unit),
                      short=max(4.0, 0.15 * unit) * (NOTCH if grow > 0 else 1.0),
                      reach=max(8.0, 0.35 * unit))
        if len(pts) >= 3 and grow != 0:
            pts = offset(pts, grow, prep.closed > fig.threshold, fig.zoom)
        if len(pts) >= 3:
            out.append(pts)
    return [out]


def even_map(fig: Figure) -> np.ndarray:
    """The figure-ness map with every piece's own contrast taken as 1 and the ground as 0, so
    the half level (0.5) is each piece's edge whatever its colour. Each pixel is divided by the
    level well inside the piece nearest it (the plateau, read from the map with the thin
    dividing lines closed and smoothed against noise)."""
    level = fig.level
    mu, smooth, deep = _inner(fig)
    if not deep.any():
        return ((level - mu) / max(1e-6, fig.threshold - mu) / 2).astype(np.float32)
    _dist, (rows, cols) = ndimage.distance_transform_edt(~deep, return_indices=True)
    # smoothed, so the plateau does not jump where the nearest inner point changes piece
    plateau = ndimage.gaussian_filter(smooth[rows, cols], sigma=_depth(fig) / 2 / INNER_STEP)
    h, w = level.shape
    plateau = np.repeat(np.repeat(plateau, INNER_STEP, axis=0), INNER_STEP, axis=1)[:h, :w]
    deep = np.repeat(np.repeat(deep, INNER_STEP, axis=0), INNER_STEP, axis=1)[:h, :w]
    even = (level - mu) / np.maximum(plateau - mu, 1e-6)
    # well inside the figure is figure, however a brighter neighbour's plateau divided it
    return np.where(deep, np.maximum(even, 1.0), even).astype(np.float32)


def silhouette_outlines(fig: Figure, unit: float, grow: float) -> list[FloatRing]:
    """The outline of a picture of coloured pieces as one silhouette: the map evened out
    (:func:`even_map`) so each piece's edge is at half level, the thin dividing lines closed,
    and traced like a plain picture, then moved out by ``grow`` (half the lines' width, as
    :func:`dividing_line_inset` measured it on the picture's own map: the evened map has the
    lines filled in)."""
    level = even_map(fig)
    size = max(3, round(0.012 * max(level.shape)))
    closed = ndimage.grey_closing(level, size=(size, size))
    low = float(min(closed.min(), 0.5)) - 1.0
    padded = np.pad(closed, 1, constant_values=low)
    rings = []
    for c in measure.find_contours(padded, 0.5):
        if len(c) < 4:
            continue
        rings.append([((float(col) - 1) / fig.zoom, (float(row) - 1) / fig.zoom) for row, col in c])
    if not rings:
        return []
    areas = [abs(_area(r)) for r in rings]
    biggest = max(areas)
    kept = [r for r, a in sorted(zip(rings, areas), key=lambda t: -t[1]) if a >= MIN_RING_SHARE * biggest]
    px = 1 / fig.zoom
    out = []
    for r in kept[:MAX_RINGS]:
        # no floor of a few pixels under the short edges and the reach, as for a plain
        # silhouette: at 128 px that is a third of a unit, and the wavier edges of coloured
        # pieces then lose whole tips (traced 0.26 units off, not 0.46, on 30 pictures)
        pts = sharpen(np.asarray(r), tolerance=max(0.6 * px, 0.012 * unit),
                      short=0.15 * unit, reach=0.35 * unit)
        if len(pts) >= 3 and grow > 0:
            pts = offset(pts, grow, closed > 0.5, fig.zoom)
        if len(pts) >= 3:
            out.append(pts)
    return out


#: Pieces (separate regions of a coloured picture) smaller than this share of the figure are specks.
MIN_PIECE_SHARE = 0.01


#: A picture whose separate regions differ this much in contrast with the ground (over the
#: brightest) shows pieces in several colours, even when its dividing lines are too short to
#: count (pieces meeting mostly at corners).
COLOUR_SPREAD = 0.25


def pieces_in_colours(fig: Figure) -> bool:
    """Whether the picture shows coloured pieces: its level well inside the figure varies
    clearly (:func:`deep_spread`), or it has at least three separate regions in clearly
    different contrasts with the ground. A plain silhouette's parts (islands, pieces meeting at
    a point) share one ink."""
    if deep_spread(fig) > COLOUR_SPREAD:
        return True
    inside = fig.level > fig.threshold
    labels, count = ndimage.label(inside)
    if count < 3 or count > 60:
        return False
    sizes = ndimage.sum(inside, labels, index=range(1, count + 1))
    medians = ndimage.median(fig.level, labels, index=range(1, count + 1))
    big = [float(m) for m, s in zip(medians, sizes) if s >= MIN_PIECE_SHARE * float(sizes.sum())]
    if len(big) < 3:
        return False
    mu, _floor = ground_level(fig.level, fig.threshold)
    return (max(big) - min(big)) / max(1e-6, max(big) - mu) > COLOUR_SPREAD


#: The inner points of a figure are looked at on every second working pixel (a median over
#: the full map took a second on a large picture).
INNER_STEP = 2


def _depth(fig: Figure) -> float:
    """How far inside the figure (working pixels) its blurred edge surely ends."""
    return max(3.0, 2 + 2.5 * fig.zoom)


def _inner(fig: Figure) -> tuple[float, np.ndarray, np.ndarray]:
    """The ground's level, the map smoothed and its points well inside the figure (above the
    floor of :func:`ground_level` and further than the blurred edge from the ground), both on
    every :data:`INNER_STEP` th working pixel. A median, not a closing: a closing lifts the
    level above the noise's middle, which puts the half level too high and shortens the tips
    (0.05 units off on plain pictures, against 0.03)."""
    mu, floor = ground_level(fig.level, fig.threshold)
    smooth = ndimage.median_filter(fig.level[::INNER_STEP, ::INNER_STEP], size=5)
    inside = smooth > floor
    deep = ndimage.distance_transform_edt(inside) >= _depth(fig) / INNER_STEP
    return mu, smooth, deep


def deep_spread(fig: Figure) -> float:
    """How much the figure's level differs from place to place well inside it (its edges are
    blurred), over its contrast with the ground: a few hundredths for a plain silhouette (noise
    and uneven light), a third and more for pieces in several colours, even when they form one
    region (at 128 px the dividing lines blur away)."""
    mu, smooth, deep = _inner(fig)
    if int(deep.sum()) < 16:
        return 0.0
    low, high = np.percentile(smooth[deep], [5, 95])
    return float((high - low) / max(1e-6, high - mu))


def ground_level(level: np.ndarray, threshold: float) -> tuple[float, float]:
    """The ground's level in the figure-ness map and the least level a piece can have: the
    ground's median plus well above its noise (six robust deviations), and at least a quarter
    of the way up to Otsu's threshold. A piece in a colour close to the ground's (a dark slate
    piece on a dark table) lies under Otsu's threshold, which sits between the ground and the
    pieces' mean; it still stands well clear of the ground's noise."""
    ground = level[level < threshold]
    if ground.size < 16:
        return 0.0, threshold
    mu = float(np.median(ground))
    sigma = 1.4826 * float(np.median(np.abs(ground - mu)))
    return mu, min(threshold, mu + max(6 * sigma, 0.25 * (threshold - mu)))


def piece_outlines(fig: Figure, grow: float, unit: float) -> list[FloatRing] | None:
    """The outline of a picture of coloured pieces with dividing lines, as the union of its
    pieces (:func:`traced_pieces`); None when the picture does not split into pieces."""
    pieces = traced_pieces(fig, unit)
    return None if pieces is None else joined_pieces(pieces, fig, grow, unit)


@dataclass(frozen=True)
class TracedPiece:
    """One region between a coloured picture's dividing lines, in picture pixels (x right, y
    down): its sharpened polygon (the triangle or quadrilateral it is, when it is convex), its
    traced signed area (a hole's is negative), whether it is a convex region and whether it
    was made the triangle or quadrilateral with edges at the pieces' turn (:func:`convex_piece`)."""

    points: FloatRing
    area: float
    convex: bool
    shaped: bool = False
    shape: FloatRing | None = None  # the piece's polygon from its edges' directions (:func:`piece_shapes`)
    other: FloatRing | None = None  # the other polygon that fits them (a triangle for a quadrilateral)


def traced_pieces(fig: Figure, unit: float) -> list[TracedPiece] | None:
    """The regions of a picture of coloured pieces with dividing lines, traced one by one.

    Each piece (a region between the lines, found above :func:`ground_level`'s floor) is
    traced on its own at half its own contrast with the ground, where its anti-aliased edge
    really is (pieces differ in contrast, so one threshold for all would put each edge
    elsewhere, and miss a piece nearly the ground's colour), and sharpened. Shapely joins them,
    closing the lines between them by a buffer out and back in (mitred, so corners stay sharp).
    The lines' width is then measured from the pieces themselves (the area the closing added
    over the length of the lines it filled) and the outline moved out by half of it: the half
    line each piece lost at the figure's edge (:func:`joined_pieces`). A closing of the picture
    instead would also fill the outline's concave corners. None when the picture does not split
    into pieces."""
    ground = ground_level(fig.level, fig.threshold)  # a median over the map: found once
    found = line_labels(fig, ground)
    return None if found is None else pieces_of(fig, *found, unit, ground)


def coloured_pieces(fig: Figure, unit: float, until: float = math.inf) -> Iterator[list[TracedPiece]]:
    """The seven pieces of a coloured picture told apart by their colours
    (:mod:`.colour_regions`), for pictures whose dividing lines blurred away: each way of
    telling them apart that gives seven regions, likeliest first, until ``until`` (a
    time.monotonic() value: the outline readers that follow share the time); none for a
    picture without colours."""
    if fig.colour is None or time.monotonic() > until:
        return
    ground = ground_level(fig.level, fig.threshold)
    figure = fig.level > ground[1]
    gradient = colour_gradient(fig.colour)
    for share in FLAT_SHARES:
        if time.monotonic() > until:
            return
        found = colour_labels(fig.colour, figure, share, gradient)
        if found is not None and found[1] == len(PIECE_NAMES):
            yield pieces_of(fig, *found, unit, ground)


def drawn_solution(fig: Figure, unit: float) -> Iterator[list[TracedPiece]]:
    """The seven pieces of a figure drawn as lines with every piece's edges (a solution drawn
    by hand): seven places the lines enclose, each traced where the pen's line begins, as
    pieces between dividing lines are. A figure with a hole has the hole as an eighth place:
    each place is then left out in turn, smallest first. Nothing for any other picture."""
    if fig.places is None:
        return
    count = int(fig.places.max())
    seven = len(PIECE_NAMES)
    if count == seven:
        left_out: list[int | None] = [None]
    elif count == seven + 1:
        # the hole first among the places no line of the outline borders, smallest first
        sizes = ndimage.sum(fig.places > 0, fig.places, index=range(1, count + 1))
        inner = [fig.place_depths is not None and fig.place_depths[k] > 1 for k in range(1, count + 1)]
        left_out = [k + 1 for k in sorted(range(count), key=lambda k: (not inner[k], sizes[k]))]
    else:
        return
    for hole in left_out:
        places = fig.places if hole is None else _without(fig.places, hole)
        inside = (places > 0).astype(np.float32)
        yield pieces_of(replace(fig, level=inside, threshold=0.5, others=()), places, seven, unit)


def _without(places: np.ndarray, hole: int) -> np.ndarray:
    """The places labelled 1 to count - 1, place ``hole`` left out (made ground)."""
    return np.where(places == hole, 0, np.where(places > hole, places - 1, places))


def line_labels(fig: Figure, ground: tuple[float, float]) -> tuple[np.ndarray, int] | None:
    """The regions of a coloured picture between its dividing lines (see
    :func:`traced_pieces`; ``ground`` is :func:`ground_level` of its map), labelled 1 to count
    on the working map; None when there are too many or fewer than two."""
    level = fig.level
    _mu, floor = ground
    above = level > floor
    strong = level > fig.threshold
    seeds, count = ndimage.label(strong)
    if count > 60:
        return None
    # a piece nearly the ground's colour stays under Otsu's threshold: its own seed is what
    # lies above the floor and away from every brighter piece
    reach = max(3, round(0.006 * max(level.shape)))
    dim, extra = ndimage.label(above & (ndimage.distance_transform_edt(~strong) > 2 * reach))
    if extra:
        seeds = np.where(dim > 0, dim + count, seeds)
        count += extra
    # each piece is what lies above the floor nearest its seed: a line the blur did not part
    # is cut at its middle
    labels = np.where(above, expand_labels(seeds, distance=3 * reach), 0)
    return (labels, count) if 2 <= count else None


def pieces_of(fig: Figure, labels: np.ndarray, count: int, unit: float,
              ground: tuple[float, float] | None = None) -> list[TracedPiece]:
    """Each labelled region of a coloured picture traced on its own at half its own contrast
    with the ground (``ground``: :func:`ground_level` of the map, found if not given; see
    :func:`traced_pieces`) and sharpened into a piece."""
    level = fig.level
    mu, floor = ground if ground is not None else ground_level(level, fig.threshold)
    sizes = ndimage.sum(labels > 0, labels, index=range(1, count + 1))
    total = float(sizes.sum())
    # a piece's own level: well inside it (its edges are blurred), its dimmer part (a region
    # may be two pieces the lines did not part)
    deep = ndimage.distance_transform_edt(labels > 0) >= 3
    low = float(level.min()) - 1.0
    traced: list[tuple[FloatRing, float, bool, np.ndarray]] = []  # (polygon, signed area, convex, contour)
    for i, (sl, size) in enumerate(zip(ndimage.find_objects(labels), sizes), start=1):
        if size < MIN_PIECE_SHARE * total:
            continue
        r0, r1 = max(0, sl[0].start - 4), min(level.shape[0], sl[0].stop + 4)
        c0, c1 = max(0, sl[1].start - 4), min(level.shape[1], sl[1].stop + 4)
        own = labels[r0:r1, c0:c1] == i
        core = level[r0:r1, c0:c1][own & deep[r0:r1, c0:c1]]
        plateau = float(np.percentile(core, 25)) if core.size >= 8 else float(np.median(level[r0:r1, c0:c1][own]))
        cut = max(floor, (mu + plateau) / 2)
        # this piece's grey edge, not its neighbours' (they lie beyond the line between them)
        near = ndimage.binary_dilation(own, iterations=2) & ~((labels[r0:r1, c0:c1] > 0) & ~own)
        patch = np.pad(np.where(near, level[r0:r1, c0:c1], low), 1, constant_values=low)
        for c in measure.find_contours(patch, cut):
            if len(c) < 4:
                continue
            ring = np.array([((col - 1 + c0) / fig.zoom, (row - 1 + r0) / fig.zoom) for row, col in c])
            signed = _area([(float(x), float(y)) for x, y in ring])
            if abs(signed) * fig.zoom ** 2 < MIN_PIECE_SHARE * total:
                continue
            pts = sharpen(ring, tolerance=max(0.6 / fig.zoom, 0.012 * unit), short=max(4.0, 0.15 * unit),
                          reach=max(8.0, 0.35 * unit))
            if len(pts) >= 3:
                traced.append((pts, signed, signed > 0 and abs(signed) >= 0.97 * _hull_area(ring), ring))
    turn = _turn45([pts for pts, _, _, _ in traced])
    out = []
    for pts, signed, convex, ring in traced:
        shape = convex_piece(pts, abs(signed), turn) if convex else None
        fits = piece_shapes(ring, signed, turn, unit) if signed > 0 else []
        out.append(TracedPiece(shape or pts, signed, convex, shape is not None, *(fits + [None, None])[:2]))
    return out


def piece_shapes(contour: np.ndarray, area: float, turn: float, unit: float) -> list[FloatRing]:
    """A traced piece's contour (picture pixels, positive signed ``area``) as the triangle or
    quadrilateral it is, from the directions its edges run in: the likelier first, then the
    other when it fits too (see :data:`TRIANGLE_SHARE`); empty when it is neither.

    Every edge of every piece runs at the pieces' ``turn`` plus a multiple of 45 degrees. Each
    point of the contour is put in the direction its neighbourhood runs in (if within 15
    degrees of one); the three, else four, directions with the most points are the edges, each
    a line at its exact direction through the median of its points across it, and consecutive
    lines meet at the corners. Noise and JPEG blocks make a piece's edges wavy, so a
    simplified contour breaks one edge into several; the directions do not care."""
    n = len(contour)
    pts = np.asarray(contour, dtype=np.float64)
    if n < 12:
        return []
    steps = np.hypot(*(np.roll(pts, -1, axis=0) - pts).T)
    spacing = float(steps.mean()) or 1.0
    half = max(2, round(0.12 * unit / spacing))  # the neighbourhood's half span, in contour points
    if 4 * half >= n:
        return []
    tangent = np.roll(pts, -half, axis=0) - np.roll(pts, half, axis=0)
    angle = np.arctan2(tangent[:, 1], tangent[:, 0]) - turn
    step = math.pi / 4
    k = np.round(angle / step)
    off = np.abs(angle - k * step)
    k = k.astype(int) % 8
    good = off < math.radians(15)
    counts = np.bincount(k[good], minlength=8)
    order = [int(d) for d in np.argsort(-counts, kind="stable")]
    classified = float(counts.sum())
    if classified == 0:
        return []
    fits: list[FloatRing] = []
    for sides in (3, 4):
        dirs = sorted(order[:sides])
        if sides == 3 and (any((a - b) % 8 == 4 for a in dirs for b in dirs)
                           or counts[dirs].sum() < TRIANGLE_SHARE_OTHER * classified):
            continue
        if counts[dirs].min() == 0:
            break
        lines = []
        for d in dirs:
            direction = np.array([math.cos(turn + d * step), math.sin(turn + d * step)])
            normal = np.array([direction[1], -direction[0]])
            across = float(np.median(pts[good & (k == d)] @ normal))
            lines.append((across * normal, direction))
        out = _corners_of(lines)
        if out is not None and 0.9 * area <= _area(out) <= 1.3 * area:
            fits.append(out)
    triangle_share = counts[sorted(order[:3])].sum() / classified
    if len(fits) == 2 and triangle_share < TRIANGLE_SHARE:
        fits.reverse()  # a quadrilateral first, unless three directions hold nearly every point
    return fits


#: A piece's contour is a triangle first when its three main directions hold this share of its
#: points, and a triangle at all down to the lower share (after the quadrilateral, when that
#: fits too): at 128 px a piece told apart by its colour has a wavy edge where it meets
#: another, and a small triangle's blurred tip can pass for a fourth edge. A weak triangle is
#: still checked with the other six against the pieces' shapes (drawn_pieces); asking the
#: higher share of a triangle that fits alone lost 7 of 60 coloured pictures at 128 px
#: (bench/tangram_pictures.py --coloured all --random-only: 90.0% -> 78.3%).
TRIANGLE_SHARE = 0.85
TRIANGLE_SHARE_OTHER = 0.7


def joined_pieces(pieces: list[TracedPiece], fig: Figure, grow: float, unit: float) -> list[FloatRing] | None:
    """The union of the traced pieces, the lines between them closed and the outline moved out
    by ``grow`` (see :func:`traced_pieces`); None with fewer than two pieces."""
    from shapely.geometry import MultiPolygon, Polygon
    from shapely.ops import unary_union

    polys: list[Polygon] = []
    holes: list[Polygon] = []
    for piece in pieces:
        signed = piece.area
        poly = Polygon(piece.points).buffer(0)
        if poly.area > 0:
            # marching squares runs round a region one way and round a hole in it the other:
            # here a region's ring has positive signed area, a hole's negative
            (polys if signed > 0 else holes).append(poly)
    if len(polys) < 2:
        return None
    gap = 2 * grow + 1.5  # the lines' width, and a little
    joined = unary_union(polys)
    if holes:
        joined = joined.difference(unary_union(holes))
    union = joined.buffer(gap + grow, join_style="mitre", mitre_limit=10.0) \
        .buffer(-gap, join_style="mitre", mitre_limit=10.0)
    # where two pieces' edges continue one edge of the outline, their fitted lines meet with a
    # jog of a fraction of a pixel; the reader would take each jog for a corner
    union = union.simplify(max(0.6 / fig.zoom, 0.025 * unit), preserve_topology=True)
    parts = list(union.geoms) if isinstance(union, MultiPolygon) else [union]
    out = []
    for part in parts:
        if part.is_empty or part.area < MIN_RING_SHARE * union.area:
            continue
        for r in (part.exterior, *part.interiors):
            ring_pts = [(float(x), float(y)) for x, y in r.coords[:-1]]
            if len(ring_pts) >= 3 and abs(_area(ring_pts)) >= MIN_RING_SHARE * union.area:
                out.append(ring_pts)
    return out or None


def _turn45(polygons: list[FloatRing]) -> float:
    """The pieces' common turn modulo 45 degrees (radians), from all their edges weighted by
    length: every edge of every piece runs at this turn plus a multiple of 45 degrees."""
    sx = sy = 0.0
    for pts in polygons:
        for a, b in zip(pts, pts[1:] + pts[:1]):
            length = math.dist(a, b)
            angle = 8 * math.atan2(b[1] - a[1], b[0] - a[0])
            sx, sy = sx + length * math.cos(angle), sy + length * math.sin(angle)
    return math.atan2(sy, sx) / 8


def convex_piece(pts: FloatRing, area: float, turn: float) -> FloatRing | None:
    """A traced piece as the triangle or quadrilateral it is, or None when it is neither.

    Every tangram piece is a triangle or a convex quadrilateral with its edges at multiples of
    45 degrees from the figure's ``turn``, and blur cuts its acute corners most: near a small
    triangle's 45-degree tip both edges bend in, which tilts the lines fitted to them and
    leaves the tip a few pixels short. So the piece's three (else four) longest edges are
    kept, each turned to its 45-degree direction about its middle, and their lines met; the
    result is taken when it is convex and its area is the traced one's or a little more (the
    corners blur took off)."""
    n = len(pts)
    edges = [(math.dist(pts[k], pts[(k + 1) % n]), k) for k in range(n)]
    step = math.pi / 4
    for sides in (3, 4):
        if n < sides:
            return None
        keep = sorted(k for _, k in sorted(edges, reverse=True)[:sides])
        lines = []
        for k in keep:
            a, b = np.array(pts[k]), np.array(pts[(k + 1) % n])
            angle = math.atan2(b[1] - a[1], b[0] - a[0])
            snapped = turn + round((angle - turn) / step) * step
            lines.append(((a + b) / 2, np.array([math.cos(snapped), math.sin(snapped)])))
        out = _corners_of(lines)
        if out is None:
            continue
        signed = _area(out)
        crosses = [(out[(k + 1) % sides][0] - out[k][0]) * (out[(k + 2) % sides][1] - out[(k + 1) % sides][1])
                   - (out[(k + 1) % sides][1] - out[k][1]) * (out[(k + 2) % sides][0] - out[(k + 1) % sides][0])
                   for k in range(sides)]
        if signed > 0 and all(c > 0 for c in crosses) and 0.97 * area <= signed <= 1.25 * area:
            return out
    return None


def dividing_line_inset(level: np.ndarray, closed: np.ndarray, threshold: float) -> float:
    """How far (working pixels) the outline of a picture of coloured pieces lies inside the
    figure's true edge, 0 for a plain silhouette.

    Dividing lines in the ground's colour are drawn over the pieces' edges, so each piece is
    smaller by half a line's width, at the figure's outer edge too: the figure then reads a
    few per cent small, which is enough to be read at the wrong scale. The closing bridges
    the lines inside the figure; their width is the bridged area over its skeleton's length,
    and the outline is half of that inside. Bridged specks at point contacts are not lines:
    lines are counted only when their skeleton is long against the figure's size."""
    inside = level > threshold
    bridged = (closed > threshold) & ~inside
    count = int(bridged.sum())
    if count == 0:
        return 0.0
    length = int(skeletonize(bridged).sum())
    if length < LINE_LENGTH_SHARE * math.sqrt(max(1, int(inside.sum()))):
        return 0.0
    return count / length / 2


def offset(ring: FloatRing, distance: float, figure: np.ndarray, zoom: float) -> FloatRing:
    """The polygon with every edge moved ``distance`` picture pixels away from the figure
    (``figure``: the closed working mask, to tell the sides apart), corners re-met."""
    n = len(ring)
    lines = []
    for k in range(n):
        (x0, y0), (x1, y1) = ring[k], ring[(k + 1) % n]
        dx, dy = x1 - x0, y1 - y0
        norm = math.hypot(dx, dy) or 1.0
        nx, ny = dy / norm, -dx / norm
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        # a little way out on this side: two pixels of the picture and of the working map at
        # least (a large picture is worked smaller), and past an outward move (not far past an
        # inward one: across a small hole lies the figure again)
        probe = max(2.0, 2.0 / zoom, 2 * distance)
        row, col = round((my + ny * probe) * zoom), round((mx + nx * probe) * zoom)
        if 0 <= row < figure.shape[0] and 0 <= col < figure.shape[1] and figure[row, col]:
            nx, ny = -nx, -ny  # that side is the figure: move the other way
        lines.append((np.array([x0 + nx * distance, y0 + ny * distance]), np.array([dx, dy]) / norm))
    out = []
    for k in range(n):
        p = _meet(lines[k - 1], lines[k])
        out.append(p if p is not None else lines[k][0])
    return [(float(x), float(y)) for x, y in out]


def _line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Total least squares: (a point on the line, its unit direction)."""
    centre = points.mean(axis=0)
    if len(points) < 3:
        d = points[-1] - points[0]
    else:
        d = np.linalg.svd(points - centre, full_matrices=False)[2][0]
    n = float(np.hypot(*d)) or 1.0
    return centre, d / n


def _corners_of(lines: list[tuple[np.ndarray, np.ndarray]]) -> FloatRing | None:
    """The polygon whose sides lie on ``lines`` (each a point and a direction, in order round
    it): where each line crosses the one before; None when two neighbours are nearly parallel."""
    out = []
    for k in range(len(lines)):
        q = _meet(lines[k - 1], lines[k])
        if q is None:
            return None
        out.append((float(q[0]), float(q[1])))
    return out


def _meet(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    """Where two lines cross, or None when they are nearly parallel (under 10 degrees)."""
    (p, d), (q, e) = a, b
    cross = d[0] * e[1] - d[1] * e[0]
    if abs(cross) < math.sin(math.radians(10)):
        return None
    t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / cross
    return p + t * d


def sharpen(contour: np.ndarray, tolerance: float, short: float, reach: float) -> FloatRing:
    """A closed contour as a polygon with sharp corners.

    Blur and anti-aliasing round a picture's corners, an acute one by a few pixels, and a
    simplified contour then cuts the corner, shortening both edges. So each edge's straight
    middle is fitted with a line, corners are put where neighbouring lines cross, and an edge
    shorter than ``short`` between two that cross within ``reach`` of it is taken as a
    rounded corner and dropped."""
    simple = measure.approximate_polygon(contour, tolerance)[:-1]
    if len(simple) < 3:
        return []
    if len(simple) > SHARPEN_MOST:  # no tangram's: left as simplified, for the reader to refuse
        return [(float(x), float(y)) for x, y in simple]
    index = {(float(x), float(y)): i for i, (x, y) in enumerate(contour)}
    idx = [index[(float(x), float(y))] for x, y in simple]
    n = len(contour)
    lines = []
    for k, i in enumerate(idx):
        j = idx[(k + 1) % len(idx)]
        span = (j - i) % n or n
        seg = contour[[(i + t) % n for t in range(span + 1)]]
        cut = len(seg) // 3  # the ends bend into the corners
        lines.append(_line(seg[cut:len(seg) - cut] if len(seg) - 2 * cut >= 2 else seg))
    ends = [contour[i] for i in idx]

    # Each corner is where its two lines cross (or the contour's point, where they cross far
    # off); dropping an edge changes only the corner where its neighbours now meet, so the
    # corners and the edges' lengths are mended there, not worked out again: a noisy contour of
    # a thousand corners took three seconds so, before the reading's clock had even started.
    def corner(k: int) -> np.ndarray:
        p = _meet(lines[k - 1], lines[k])
        return ends[k] if p is None or np.hypot(*(p - ends[k])) > reach else p

    def length(k: int) -> float:
        return float(np.hypot(*(pts[(k + 1) % len(pts)] - pts[k])))

    def drop(gone: list[int]) -> None:
        for i in sorted(gone, reverse=True):
            del lines[i], ends[i], pts[i], lengths[i]
            m = len(lines)
            j = i % m
            pts[j] = corner(j)
            lengths[(j - 1) % m] = length((j - 1) % m)
            lengths[j] = length(j)

    pts = [corner(k) for k in range(len(lines))]
    lengths = [length(k) for k in range(len(lines))]
    changed = True
    while changed and len(lines) > 3:
        changed = False
        m = len(lines)
        for k in np.argsort(lengths, kind="stable").tolist():
            if lengths[k] >= NOTCH * short:
                break
            if _one_line(lines[k - 1], lines[(k + 1) % m], 3 * tolerance):
                # a jog between two stretches of one edge (a dividing line ends there)
                drop([k, (k + 1) % m])
                changed = True
                break
            if lengths[k] >= short:
                continue
            p = _meet(lines[k - 1], lines[(k + 1) % m])
            mid = (pts[k] + pts[(k + 1) % m]) / 2
            if p is not None and np.hypot(*(p - mid)) <= reach:
                drop([k])
                changed = True
                break
    # A dividing line between two coloured pieces that reaches the outline leaves a notch there:
    # two short edges between lines that are one line (a notch in an edge) or that meet at the
    # notch (a notch in a corner). Both short edges go.
    changed = True
    while changed and len(lines) > 4:
        changed = False
        m = len(lines)
        pairs = np.asarray(lengths) + np.roll(lengths, -1)
        for k in np.argsort(pairs, kind="stable").tolist():
            if lengths[k] >= NOTCH * short or lengths[(k + 1) % m] >= NOTCH * short:
                continue
            before, after = lines[k - 1], lines[(k + 2) % m]
            mid = pts[(k + 1) % m]
            gone = [k, (k + 1) % m]
            if _one_line(before, after, 3 * tolerance):
                gone.append((k + 2) % m)  # the line after is the line before, continued
            else:
                p = _meet(before, after)
                if p is None or np.hypot(*(p - mid)) > reach:
                    continue
            drop(gone)
            changed = True
            break
    return [(float(x), float(y)) for x, y in pts]


def _one_line(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray], tolerance: float) -> bool:
    """Whether two fitted lines are one (within 6 degrees, and ``tolerance`` of each other)."""
    (p, d), (q, e) = a, b
    if abs(d[0] * e[1] - d[1] * e[0]) > math.sin(math.radians(6)):
        return False
    return abs((q[0] - p[0]) * d[1] - (q[1] - p[1]) * d[0]) <= tolerance


def _hull_area(points: np.ndarray) -> float:
    """The area of the convex hull of a contour's points (a convex piece's area is nearly its
    hull's; two pieces the lines did not part make a region that is not convex)."""
    from scipy.spatial import ConvexHull

    try:
        return float(ConvexHull(points).volume)  # in two dimensions the "volume" is the area
    except Exception:  # fewer than three points, or all on one line
        return 0.0


def _area(ring: FloatRing) -> float:
    xs = np.array([p[0] for p in ring])
    ys = np.array([p[1] for p in ring])
    return float((xs * np.roll(ys, -1) - np.roll(xs, -1) * ys).sum() / 2)


def _in_picture_units(refused: InputError) -> InputError:
    """The refusal with its partial cover (if any) in the picture's own coordinates (y down)."""
    cover = (refused.details or {}).get("partial_cover")
    if not cover:
        return refused
    pieces = [[[x, -y] for x, y in piece] for piece in cover["pieces"]]
    return InputError(refused.message, refused.where, refused.where_text,
                      details={"partial_cover": {**cover, "pieces": pieces}})


def drawn_pieces(pieces: list[TracedPiece], grow: float) -> tuple[DrawnPieces, list[FloatRing]] | None:
    """The seven pieces a coloured picture shows, read as the pieces they are
    (:func:`.drawn_pieces.read_drawn_pieces`: each matched to a piece's shape and turn, their
    contacts made exact), when it was traced apart into seven triangles and quadrilaterals,
    with those polygons (picture pixels) in the order of the pieces read. Each is first moved
    out by half the lines between them (``grow``, or the gaps :func:`piece_gap` measures if
    wider). None otherwise: pieces the lines did not part, a piece cut in two, a hole."""
    if len(pieces) != len(PIECE_NAMES) or any(p.shape is None for p in pieces):
        return None
    for shapes in _shape_choices(pieces):
        out = max(grow, piece_gap(shapes) / 2)
        polygons = [grown(shape, out) for shape in shapes]
        drawn = read_drawn_pieces([[(x, -y) for x, y in shape] for shape in polygons])
        if drawn is not None:
            return drawn, polygons
    return None


#: How many of the seven pieces are triangles (the others are quadrilaterals).
TRIANGLES = sum(SHAPE_OF[name] in "LMS" for name in PIECE_NAMES)
#: The most choices of the pieces' shapes :func:`drawn_pieces` tries.
MAX_SHAPE_CHOICES = 6


def _shape_choices(pieces: list[TracedPiece]) -> Iterator[list[FloatRing]]:
    """The pieces' likelier shapes; when they are not the five triangles and two
    quadrilaterals of the seven pieces, the fewest pieces changed to their other fit that make
    them so (at most :data:`MAX_SHAPE_CHOICES` ways)."""
    shapes = [p.shape for p in pieces if p.shape is not None]
    short = sum(len(s) == 3 for s in shapes) - TRIANGLES
    if short == 0:
        yield shapes
        return
    # too few triangles: change quadrilaterals that also fit as triangles, and the reverse
    want = 3 if short < 0 else 4
    changeable = [i for i, p in enumerate(pieces) if p.other is not None and len(p.other) == want]
    for chosen in itertools.islice(itertools.combinations(changeable, abs(short)), MAX_SHAPE_CHOICES):
        yield [p.other if i in chosen and p.other is not None else s for i, (p, s) in enumerate(zip(pieces, shapes))]


def piece_gap(shapes: list[FloatRing]) -> float:
    """The typical gap (picture pixels) between a piece and its nearest neighbour: the width of
    the lines between them, however faint (a line blurred into the pieces' colours is not
    found by :func:`dividing_line_inset`, yet it still parts the pieces at half contrast)."""
    from shapely.geometry import Polygon

    polys = [Polygon(s) for s in shapes]
    nearest = [min(a.distance(b) for j, b in enumerate(polys) if j != i) for i, a in enumerate(polys)]
    return float(np.median(nearest))


def grown(pts: FloatRing, distance: float) -> FloatRing:
    """A convex polygon (positive signed area) with every edge moved ``distance`` outwards and
    the corners re-met."""
    if distance <= 0:
        return pts
    n = len(pts)
    lines = []
    for k in range(n):
        a, b = np.array(pts[k]), np.array(pts[(k + 1) % n])
        d = (b - a) / (float(np.hypot(*(b - a))) or 1.0)
        lines.append((a + distance * np.array([d[1], -d[0]]), d))  # outwards: right of the edge
    out = []
    for k in range(n):
        p = _meet(lines[k - 1], lines[k])
        out.append(p if p is not None else lines[k][0])
    return [(float(x), float(y)) for x, y in out]


def _drawn_trace(fig: Figure, drawn: DrawnPieces, polygons: list[FloatRing], started: float) -> Trace | None:
    """The Trace of a coloured picture read as its seven pieces (``polygons``, the pieces as
    traced, in picture pixels); None when their union is not a figure (it always is for seven
    exact pieces that do not overlap)."""
    from .assembly import union_silhouette  # assembly imports the silhouette module
    from .silhouette import format_silhouette

    try:
        sil = union_silhouette(drawn.pieces)
    except InputError:
        return None
    norm = drawn.normalised
    # the exact pieces start at the origin; the drawn ones lie where they were drawn (the
    # pieces read keep the drawing's order)
    shifts = [np.mean(np.array(r), axis=0) - np.mean(np.array([(float(x), float(y)) for x, y in p.vertices()]), axis=0)
              for r, p in zip(norm.rings, drawn.pieces)]
    dx, dy = (float(v) for v in np.mean(shifts, axis=0))
    up = [[norm.to_input(float(x) + dx, float(y) + dy) for x, y in r] for r in sil.rings()]
    outline = [[(x, -y) for x, y in r] for r in up]
    notes = [_("read from a {width} x {height} {format} picture as an exact figure; vertices moved at most "
               "{moved} units").format(width=fig.width, height=fig.height, format=fig.format,
                                       moved=f"{drawn.moved:.2f}")]
    return Trace(format_silhouette(sil), drawn.moved, fig.width, fig.height, outline, polygons,
                 time.monotonic() - started, notes)


def trace_figure(fig: Figure) -> Trace:
    """Read the figure-ness map as an exact figure; PictureError or InputError in words.

    A coloured picture traced apart into its seven pieces is read as those pieces first
    (:func:`drawn_pieces`: exact and fast); any other picture, and one whose pieces do not
    read, by its outline."""
    loaded()  # before the clock: a first picture would lose its imports' time from its budget
    _tracing_loaded()
    started = time.monotonic()
    prep = _prepared(fig)
    pieces = traced_pieces(fig, prep.unit) if prep.coloured else None
    apart = itertools.chain([pieces] if pieces is not None else [],
                            # not past the outlines' time: they are read next
                            coloured_pieces(fig, prep.unit, started + OUTLINES_UNTIL) if prep.coloured else [],
                            drawn_solution(fig, prep.unit))
    for traced_apart in apart:
        # a drawn solution's pieces meet in the middle of the pen's lines
        drawn = drawn_pieces(traced_apart, fig.inset if fig.places is not None else prep.grow)
        if drawn is not None:
            found = _drawn_trace(fig, *drawn, started)
            if found is not None:
                return found
    candidates = _candidates(fig, prep, pieces)
    for other in fig.others:  # a line drawing's places read the other way
        other_fig = replace(fig, level=other, others=())
        try:
            candidates += _candidates(other_fig, _prepared(other_fig), None)
        except PictureError:  # that way is no figure (no outline, too many): the first stands
            pass
    reading = None
    straight: Straightening | None = None  # the slant undone on the outline read, if any
    refusals: dict[int, InputError] = {}  # each outline's own refusal, by candidate
    # one budget for the whole picture, however many outlines it is read from: the outlines
    # until OUTLINES_UNTIL, then the pieces fitted until READING_BUDGET
    outlines_until, pieces_until = started + OUTLINES_UNTIL, started + READING_BUDGET
    for index, traced in enumerate(candidates):
        up = traced_up = [[(x, -y) for x, y in r] for r in traced]  # figures have y up, pictures y down
        if index and time.monotonic() > outlines_until - MIN_READ:
            break
        try:
            reading = read_noisy(up, accept=coverable, pieces=False, until=outlines_until)
            break
        except InputError as exc:
            refusals[index] = exc
            if index > 0:
                # the second outline of coloured pieces read turned never found a figure the
                # first did not (none of 120 coloured pictures, bench/tangram_pictures.py
                # --coloured all): a refusal is a second sooner without it
                continue
            # A photograph taken at a slant: the outline straightened (perspective.py) where
            # that brings its edges clearly nearer the directions. Only after the outline as
            # traced failed: on square pictures it gained nothing and once lost a figure.
            slant = straightening(up) if time.monotonic() < outlines_until - MIN_READ \
                and not isinstance(exc, TooRough) else None
            if slant is not None:
                straightened = slant.apply(up)
                try:
                    reading = read_noisy(straightened, accept=coverable, pieces=False, until=outlines_until)
                    up, straight = straightened, slant
                    break
                except InputError:
                    pass
            # The reader settles the turn modulo 45 degrees and then tries one frame; a figure
            # near the boundary between two frames reads in the other one, so turn it by 45
            # degrees and try once more.
            if time.monotonic() > outlines_until - MIN_READ:
                continue
            turned = [[((x - y) * _H, (x + y) * _H) for x, y in r] for r in up]
            try:
                reading = read_noisy(turned, accept=coverable, pieces=False, until=outlines_until)
                up = turned
                break
            except InputError:
                pass
    if reading is None:
        # then fit the pieces to the last outline, for coloured pieces the evened silhouette,
        # which keeps a piece nearly the ground's colour whole (they take any of the eight
        # turns, so one frame is enough), refusing in that outline's words
        assert refusals
        fitted_to = len(candidates) - 1 if prep.coloured else 0
        # the words of the outline the pieces are fitted to, when it was read (else the first
        # outline's): a coloured picture's pieces traced apart may leave a ragged outline ("33
        # corners: no tangram figure") where the evened silhouette is a figure the pieces come
        # close to
        own = refusals.get(fitted_to) or refusals[min(refusals)]
        if isinstance(own, TooRough):
            raise own  # no tangram's outline: the pieces would be fitted to it in vain
        traced = candidates[fitted_to]
        up = traced_up = [[(x, -y) for x, y in r] for r in traced]
        # the words of a piece at a free angle say where in the picture's pixels (y down)
        words = own.flipped() if isinstance(own, FreeAngle) else own
        try:
            reading = read_by_pieces(normalise(up), coverable, words, until=pieces_until)
        except InputError as refused:
            raise (refused if refused is words else _in_picture_units(refused)) from None
    norm = reading.normalised
    exact = [[norm.to_input(float(x), float(y)) for x, y in r] for r in reading.exact_rings]
    fitted = fit(exact, up)  # the exact outline turned and moved onto the traced one
    if straight is not None:  # back through the slant, onto the picture
        fitted = straight.undo(fitted)
    elif up is not traced_up:  # back from the extra 45-degree turn
        fitted = [[((x + y) * _H, (y - x) * _H) for x, y in r] for r in fitted]
    outline = [[(x, -y) for x, y in r] for r in fitted]
    notes = [_("read from a {width} x {height} {format} picture as an exact figure; vertices moved at most "
               "{moved} units").format(width=fig.width, height=fig.height, format=fig.format,
                                       moved=f"{reading.moved:.2f}")]
    if straight is not None:
        notes.append(_("the picture looks taken at a slant: its outline was straightened first (its edges ran "
                       "{before} degrees off the figure's directions, then {after})").format(
            before=f"{straight.before:.1f}", after=f"{straight.after:.1f}"))
    return Trace(reading.text, reading.moved, fig.width, fig.height, outline, traced,
                 time.monotonic() - started, notes)


@functools.lru_cache(maxsize=1)
def _tracing_loaded() -> None:
    """Load what tracing loads on first use: scikit-image's polygon simplification imports
    scipy's signal, stats and interpolation modules the first time it runs (0.4 s, which a
    freshly started server's first picture lost from its reading: a pen tracing refused at
    1.02 s, read at 0.55 s the second time), and the convex hull scipy's spatial module."""
    import scipy.spatial  # noqa: F401

    measure.approximate_polygon(np.zeros((4, 2)), 1.0)


def trace_picture(data: bytes) -> Trace:
    """The exact tangram figure in a picture's bytes (PNG, JPEG, WebP or GIF, within the
    limits of :mod:`.picture`). Raises InputError (PictureError for the picture itself) in
    words when the picture cannot be read or no exact figure lies near its outline."""
    started = time.monotonic()
    result = trace_figure(figure_map(decode(data)))
    return Trace(result.text, result.moved, result.width, result.height, result.outline, result.traced,
                 time.monotonic() - started, result.notes)
