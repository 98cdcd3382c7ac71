"""Reading a noisy outline by fitting the seven pieces to it, then making the fit exact.

The outline reader (reading.py) finds an exact outline first and then asks the solver to cover
it. Where pieces are slid by odd amounts, or the noise hides a short edge, none of the exact
outlines it builds is the drawing's. This reader turns the order round: it places the seven
pieces on the drawing itself, in floats, and only then makes the placement exact, so a figure
it returns is covered by construction.

1. **Search.** The drawing is straightened first (every edge on the line of one of the eight
   directions that fits it best). At a convex corner of the part not yet covered, the piece
   lying along the corner's first side has a vertex on the corner and an edge along that side
   (a convex corner of a region is never inside a piece's edge), so only those (piece,
   orientation, vertex) are tried, at the sharpest well-drawn corner, the snuggest first (the
   most outline shared with the region, less what lies out of the drawing or on the pieces
   placed). A piece is moved to touch the pieces it nearly
   touches; it must lie within the drawing up to the noise and overlap the pieces placed by no
   more than the noise; what is left is cleaned of the slivers the noise leaves (an opening),
   and every part of it must have about the area of some of the pieces left. The choices are
   searched by limited discrepancy, at the area's scale and a few corrections of it.
2. **Exact positions** (contacts.py): pieces that nearly touch are made to touch exactly, and
   what that leaves free is set to a simple exact number near where it was drawn.
3. The union of the exact pieces is built and validated like typed input.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterator, Sequence

import numpy as np
import shapely
from shapely import affinity, make_valid
from shapely.errors import GEOSException
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from engine import InputError

from .contacts import FloatPlacement, direction_of, exact_placements, float_shape, snapped, touch_distance
from .i18n import _
from .outline import FloatRing
from .pieces import AREA, PIECE_NAMES, distinct_orientations

#: The least noise assumed (units per coordinate): three decimals of a program's export.
MIN_NOISE = 0.002
#: A piece may reach outside the drawing, or into the pieces placed, by this many times the
#: noise in area per unit of its perimeter.
OUTSIDE = 1.0
OVERLAP = 0.8
#: Corners whose shorter side is shorter than this (units) are not trusted as anchors.
MIN_SIDE = 0.5
#: How far (units) a fit may lie from the drawing anywhere: noise of 0.2 units moves a vertex
#: at most 0.2, the fit adds a little.
FAR = 0.35
#: Parts of the uncovered region narrower than this on average (twice the area over the
#: perimeter; a small triangle's is 0.41) are strips the noise left, not gaps to fill.
THIN = 0.3
#: Corners tried per node (the best first; the next ones only when it leads nowhere).
CORNERS_PER_NODE = 2
#: The grid (units) shapely's overlays snap to: without it, GEOS can take two pieces that only
#: share an edge for one lying on the other (an edge through a corner a rounding error away).
GRID = 1e-9
#: Rounds of the limited-discrepancy search at most.
MAX_DISCREPANCY = 12
#: What a square unit of a candidate piece lying out of the drawing or on the pieces placed
#: (within what the noise allows) costs in its rank, in units of outline shared with the
#: region: of two pieces along as much outline, the one that needs the noise less is the
#: likelier. Measured at noise 0.2 (bench/tangram_reading.py, 60 figures a set): the held-out
#: set 15000 read 91.7-93.3% without it and 98.3% with it, 17000 95.0% and 98.3%, the others
#: within a figure either way; 1.5 to 6 all did about as well.
WASTE = 3.0
#: 45-degree corners with sides this long (units) are counted against the pieces' (shorter
#: ones may be the noise's).
SHARP_SIDE = 0.5
#: 45-degree corners per piece shape.
SHARP = {"L": 2, "M": 2, "S": 2, "Q": 0, "P": 2}


@dataclass(frozen=True)
class Anchor:
    """A piece's way of sitting on a corner: orientation, the vertex on the corner."""

    shape: str
    rot: int
    flip: int
    vertex: int
    turn: int  # the piece's own turn at that vertex (1: 135 degrees ... 3: 45 degrees)


def anchors_ready() -> None:
    """Work out the anchors now (reading.loaded: before a reading's clock starts)."""
    _anchors()


@lru_cache(maxsize=None)
def _anchors() -> dict[tuple[str, int], list[Anchor]]:
    """(shape, direction of the edge leaving the vertex) -> the ways a piece sits there."""
    out: dict[tuple[str, int], list[Anchor]] = {}
    for shape in "LMSQP":
        for rot, flip in distinct_orientations(shape):
            pts = float_shape(shape, rot, flip)
            n = len(pts)
            for j in range(n):
                d_in = direction_of(pts[j - 1], pts[j])
                d_out = direction_of(pts[j], pts[(j + 1) % n])
                out.setdefault((shape, d_out), []).append(Anchor(shape, rot, flip, j, (d_out - d_in) % 8))
    return out


@dataclass(frozen=True)
class Corner:
    """A convex corner of the uncovered region: where, the directions of its two sides (the
    region on their left), its turn (1: 135 degrees, 2: 90, 3: 45) and its shorter side."""

    point: tuple[float, float]
    d_in: int
    d_out: int
    turn: int
    side: float


def _polygons(geom: BaseGeometry) -> list[Polygon]:
    if isinstance(geom, Polygon):
        return [geom] if not geom.is_empty else []
    if isinstance(geom, MultiPolygon):
        return list(geom.geoms)
    return [g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon) and not g.is_empty]


def apart(a: BaseGeometry, b: BaseGeometry) -> float:
    """How far a corner of either region lies outside the other (0 when each region's corners
    are all inside the other). Shapely's own Hausdorff distance measures to the outline, so a
    corner deep inside the other region would count as far."""
    def corners_of(geom: BaseGeometry) -> np.ndarray:
        return shapely.points(np.concatenate([np.asarray(ring.coords) for poly in _polygons(geom)
                                              for ring in (poly.exterior, *poly.interiors)]))
    return max(float(shapely.distance(corners_of(a), b).max()), float(shapely.distance(corners_of(b), a).max()))


def _polygonal(geom: BaseGeometry) -> BaseGeometry:
    """Only the areas of a geometry (a difference can leave lines and points behind)."""
    parts = _polygons(geom)
    return parts[0] if len(parts) == 1 else MultiPolygon(parts)


def drawing(rings: Sequence[FloatRing], simplify_by: float) -> BaseGeometry:
    """The drawn figure as one region with every edge along one of the eight directions (each
    ring simplified, its edges snapped and put on the line that fits them best, corners where
    those lines meet); rings nest even-odd: a ring inside another is a hole."""
    geom: BaseGeometry = Polygon()
    for ring in rings:
        straight = rectified(ring, simplify_by)
        if len(straight) >= 3:
            geom = geom.symmetric_difference(make_valid(Polygon(straight)))
    return _polygonal(make_valid(geom))


def rectified(ring: FloatRing, simplify_by: float) -> FloatRing:
    """The ring with its edges snapped to the eight directions, each on the line through the
    middle of its drawn ends, and its corners where consecutive lines meet."""
    from .reading import corners as runs
    from .reading import simplify

    pts = simplify(list(ring), simplify_by)
    if len(pts) < 3:
        return []
    c = runs(pts)
    n = len(c.dirs)
    if n < 3:
        return []
    return [_meet(c.points[i - 1], c.points[i], c.dirs[i - 1], c.points[i], c.points[(i + 1) % n], c.dirs[i])
            for i in range(n)]


@dataclass(frozen=True)
class Tolerance:
    """How much of the drawing's noise a fit allows, from the noise (units per coordinate)."""

    noise: float

    @property
    def opening(self) -> float:
        """Half the width of the slivers an opening removes."""
        return max(0.02, 1.2 * self.noise)

    @property
    def slack(self) -> float:
        """The noise as the fit's area checks take it (a piece's area is exact, a drawing's
        corner is a few thousandths off even in a program's export)."""
        return max(0.01, self.noise)

    @property
    def crumb(self) -> float:
        """Parts of the uncovered region smaller than this (square units) are noise."""
        return max(0.05, 3 * self.noise)

    @property
    def simplify(self) -> float:
        return max(0.04, 1.2 * self.noise)


def opened(region: BaseGeometry, width: float) -> BaseGeometry:
    """The region less its slivers thinner than twice ``width``; mitred joins keep its corners."""
    with np.errstate(divide="ignore", invalid="ignore"):  # a sliver that vanishes divides by zero
        return region.buffer(-width, join_style="mitre").buffer(width, join_style="mitre")


def corners(region: BaseGeometry, simplify_by: float) -> list[Corner]:
    """The convex corners of a region, best anchors first (sharpest, then longest sides)."""
    from .reading import corners as runs
    from .reading import simplify

    out = []
    for poly in _polygons(region):
        poly = orient(poly, 1.0)  # outlines counter-clockwise, holes clockwise: inside on the left
        for ring in (poly.exterior, *poly.interiors):
            pts = simplify(list(ring.coords)[:-1], simplify_by)
            if len(pts) < 3:
                continue
            c = runs(pts)
            n = len(c.dirs)
            if n < 3:
                continue
            for i in range(n):
                d_in, d_out = c.dirs[i - 1], c.dirs[i]
                turn = (d_out - d_in) % 8
                if turn not in (1, 2, 3):
                    continue
                point = _meet(c.points[i - 1], c.points[i], d_in, c.points[i], c.points[(i + 1) % n], d_out)
                out.append(Corner(point, d_in, d_out, turn, min(c.lengths[i - 1], c.lengths[i])))
    out.sort(key=lambda k: (k.side < MIN_SIDE, -k.turn, -k.side))
    return out


def _meet(a0, a1, da: int, b0, b1, db: int) -> tuple[float, float]:
    """Where the line of direction ``da`` through the middle of a0-a1 meets the line of
    direction ``db`` through the middle of b0-b1 (each side's drawn points averaged)."""
    ax, ay = (a0[0] + a1[0]) / 2, (a0[1] + a1[1]) / 2
    bx, by = (b0[0] + b1[0]) / 2, (b0[1] + b1[1]) / 2
    ux, uy = math.cos(da * math.pi / 4), math.sin(da * math.pi / 4)
    vx, vy = math.cos(db * math.pi / 4), math.sin(db * math.pi / 4)
    den = ux * vy - uy * vx
    if abs(den) < 1e-9:
        return b0
    t = ((bx - ax) * vy - (by - ay) * vx) / den
    return ax + t * ux, ay + t * uy


def _subset_sums(areas: Sequence[int]) -> set[int]:
    sums = {0}
    for a in areas:
        sums |= {s + a for s in sums}
    return sums


def _fits_areas(parts: list[Polygon], left: Sequence[str], noise: float) -> bool:
    """Every part of the uncovered region has about the area of some of the pieces left, and
    all of them together about the area of all of them."""
    areas = [AREA[name[0]] for name in left]
    sums = _subset_sums(areas)
    total = 0.0
    parts = [p for p in parts if 2 * p.area / p.length >= THIN]
    for part in parts:
        tol = 0.1 + noise * part.length
        if not any(abs(part.area - s) <= tol for s in sums if s):
            return False
        total += part.area
    slack = 0.1 + noise * sum(p.length for p in parts)
    return abs(total - sum(areas)) <= slack


def _shape_polygon(anchor: Anchor, at: tuple[float, float]) -> tuple[Polygon, float, float]:
    pts = float_shape(anchor.shape, anchor.rot, anchor.flip)
    vx, vy = pts[anchor.vertex]
    x0, y0 = at[0] - vx, at[1] - vy
    return Polygon([(x0 + x, y0 + y) for x, y in pts]), x0, y0


@dataclass
class _Node:
    """A partial fit: the region still uncovered, the pieces' union, the pieces, the names left,
    and (once expanded) the partial fits one piece further, likeliest first."""

    region: BaseGeometry
    cover: BaseGeometry
    placed: list[FloatPlacement]
    left: list[str]
    # the pieces that may come next, likeliest first (once looked at), how many of them have
    # been made children so far, and the children that passed the checks
    candidates: list | None = None
    checked: int = 0
    # the corners whose candidates are not in the list yet (the next corner's are looked at
    # only once the first's are used up: most nodes never need them), and the thin band about
    # the region's outline that scores them
    corners_left: list = field(default_factory=list)
    edge: BaseGeometry | None = None
    children: list["_Node"] = field(default_factory=list)
    clean: BaseGeometry | None = None  # the region opened (its slivers gone), once computed


class _Search:
    """Limited-discrepancy search (Harvey and Ginsberg): first the path that takes the snuggest
    piece everywhere, then every path that departs from that order by one rank in all, then by
    two, ... A wrong first choice costs only the paths near it, not its whole subtree, as in a
    depth-first search; expanded nodes are kept, so each round pays only for its new nodes."""

    def __init__(self, drawn: BaseGeometry, tolerance: Tolerance):
        self.drawn = drawn
        shapely.prepare(drawn)  # many corners are tested against it
        self.tol = tolerance
        self.touch = touch_distance(tolerance.noise)
        self.root = _Node(drawn, Polygon(), [], list(PIECE_NAMES))
        self.exhausted = False  # set when a round met no path it had to cut short
        self.placed_all = False  # set once a path has placed all seven pieces
        self.closest: _Node | None = None  # the partial fit covering the most of the drawing

    def round(self, discrepancy: int, deadline: Callable[[], float]) -> Iterator[list[FloatPlacement]]:
        """The fits whose choices depart from the likeliest by exactly ``discrepancy`` ranks,
        until ``deadline()`` (a time.monotonic() value, which the caller may bring forward)."""
        self.exhausted = True
        yield from self._visit(self.root, discrepancy, deadline)

    def _visit(self, node: _Node, budget: int, deadline: Callable[[], float]) -> Iterator[list[FloatPlacement]]:
        if not node.left:
            self.placed_all = True
            if budget == 0 and apart(node.cover, self.drawn) <= FAR:
                yield node.placed
            return
        for rank in range(budget + 1):
            if time.monotonic() > deadline():
                return
            child = self._child(node, rank)
            if child is None:
                return
            yield from self._visit(child, budget - rank, deadline)
        if len(node.children) > budget + 1 or node.checked < len(node.candidates or ()) or node.corners_left:
            self.exhausted = False  # a later round may have paths here still (not checked now)

    def _child(self, node: _Node, rank: int) -> _Node | None:
        """The node's child of this rank (its candidates checked in order, only as far as a
        round needs: most candidates of most nodes are never reached)."""
        if node.candidates is None:
            self._start_candidates(node)
        while len(node.children) <= rank:
            if node.checked == len(node.candidates):
                if not node.corners_left:
                    break
                # the next corner's candidates, snuggest first, after all of the one before
                node.candidates += self._candidates(node.cover, node.edge, node.corners_left.pop(0), node.left,
                                                    node.placed)
                continue
            child = self._checked_child(node, node.candidates[node.checked])
            node.checked += 1
            if child is not None:
                node.children.append(child)
                if self.closest is None or child.cover.area > self.closest.cover.area:
                    self.closest = child
        return node.children[rank] if rank < len(node.children) else None

    def _start_candidates(self, node: _Node) -> None:
        """Find the node's corners to anchor a piece on (the best :data:`CORNERS_PER_NODE`);
        their candidates are made as the search reaches them (:meth:`_child`)."""
        tol = self.tol
        node.candidates = []
        clean = node.clean if node.clean is not None else opened(node.region, tol.opening)
        found = corners(clean, tol.simplify)
        if sum(c.turn == 3 and c.side >= SHARP_SIDE for c in found) > sum(SHARP[name[0]] for name in node.left):
            return  # more 45-degree corners than the pieces left have
        node.corners_left = found[:CORNERS_PER_NODE]
        node.edge = node.region.boundary.buffer(max(0.03, 2 * tol.slack))

    def _checked_child(self, node: _Node, candidate) -> _Node | None:
        """The partial fit one piece further, or None when what it leaves uncovered cannot be
        the area of the pieces left."""
        tol = self.tol
        _score, name, anchor, poly, x0, y0 = candidate
        try:
            rest = _polygonal(shapely.difference(node.region, poly, grid_size=GRID))
            clean = opened(rest, tol.opening)
            parts = [p for p in _polygons(clean) if p.area >= tol.crumb]
        except GEOSException:
            return None
        remaining = [n for n in node.left if n != name]
        if not _fits_areas(parts, remaining, tol.slack):
            return None
        try:
            cover = _polygonal(shapely.union(node.cover, poly, grid_size=GRID))
        except GEOSException:
            return None
        piece = FloatPlacement(name, anchor.rot, anchor.flip, x0, y0)
        return _Node(rest, cover, node.placed + [piece], remaining, clean=clean)

    def _candidates(self, cover: BaseGeometry, edge: BaseGeometry, corner: Corner, left: list[str],
                    placed: list[FloatPlacement]):
        """The pieces that can sit on ``corner``, snuggest first (the most outline along the
        uncovered region's, ``edge`` being a thin band about it): (score, name, anchor, polygon,
        x, y of vertex 0)."""
        out = []
        shapes: dict[str, str] = {}
        for name in left:
            shapes.setdefault(name[0], name)  # L1 before L2, S1 before S2: the same shape
        for shape, name in shapes.items():
            for anchor in _anchors().get((shape, corner.d_out), []):
                if anchor.turn < corner.turn:
                    continue  # the piece's corner is wider than the region's
                poly, x0, y0 = _shape_polygon(anchor, corner.point)
                if placed:  # touching the pieces it nearly touches, so errors do not add up
                    moved = snapped(FloatPlacement(name, anchor.rot, anchor.flip, x0, y0), placed, self.touch,
                                    self.drawn)
                    if (moved.x, moved.y) != (x0, y0):
                        x0, y0 = moved.x, moved.y
                        poly = Polygon(moved.points())
                try:
                    shared = self._snugness(poly, cover, edge)
                except GEOSException:  # a degenerate sliver of the region: not this piece
                    continue
                if shared is not None:
                    out.append((-shared, name, anchor, poly, x0, y0))
        out.sort(key=lambda t: t[0])
        return out

    def _snugness(self, poly: Polygon, cover: BaseGeometry, edge: BaseGeometry) -> float | None:
        """How much of the piece's outline runs along the uncovered region's (longer is
        likelier), less :data:`WASTE` times the area it lies out of the drawing or on the pieces
        placed; or None when it reaches out of the drawing or into the pieces placed further
        than the noise explains."""
        noise = self.tol.slack
        xy = np.asarray(poly.exterior.coords)[:-1]
        out = ~shapely.contains_xy(self.drawn, xy[:, 0], xy[:, 1])
        if out.any() and shapely.distance(shapely.points(xy[out]), self.drawn).max() > FAR:
            return None  # a corner sticks out further than any noise explains (the cheap test first)
        wasted = 0.0
        if not shapely.contains(self.drawn, poly):
            outside = _area_of(shapely.difference, poly, self.drawn)
            if outside > OUTSIDE * noise * poly.length:
                return None
            wasted += outside
        if shapely.intersects(poly, cover):
            overlap = _area_of(shapely.intersection, poly, cover)
            if overlap > OVERLAP * noise * poly.length:
                return None
            wasted += overlap
        return poly.exterior.intersection(edge).length - WASTE * wasted


def _area_of(operation: Callable, a: BaseGeometry, b: BaseGeometry) -> float:
    """The area of ``operation(a, b)`` (a shapely overlay): in floating point, three times
    sooner than on the fixed grid, which is kept for the rare pair floating point cannot
    overlay (GEOSException) and for the regions the search goes on from."""
    try:
        return float(operation(a, b).area)
    except GEOSException:
        return float(operation(a, b, grid_size=GRID).area)


#: Corrections tried to the scale the drawing's area gives (noise moves the area a few per cent,
#: and pieces that are a few per cent too small leave strips no piece fills).
SCALES = (1.0, 0.975, 1.025, 0.95, 1.05)
#: How many rounds of the search each scale lags behind the area's own: a round costs more the
#: further it departs from the likeliest choices, and the area's scale or the nearest
#: corrections hold nearly every fit kept (bench/tangram_reading.py). The widest corrections lag
#: by one round only: a picture's area is biased by its threshold, and at 128 px two of 60
#: figures were read only at 5% off (pictures at 128 px: 86.7% with lags 0-1-1-2-2, 90.0%
#: with these or none; outlines at 0.2 noise gain a figure or two).
SCALE_LAGS = (0, 0, 0, 1, 1)
assert len(SCALE_LAGS) == len(SCALES)


#: Looser readings of a fit's contacts (:meth:`PieceFitter.loosened`): pieces taken as
#: touching only this near, in multiples of the noise. Pieces slid by a sixth of a unit lie
#: 0.17 apart, which under noise of 0.08 is within the touching distance (2.5 times the
#: noise), and made to touch they pull their neighbours 0.2-0.3 units off (held-out figures
#: random-15007 and random-13026: gaps of 2.0 and 1.4 times the noise; true contacts, at most
#: about 0.6 times).
LOOSER = (1.5, 1.0)


@dataclass(frozen=True)
class Fit:
    """The seven pieces at exact positions, and where they lie on the drawing: the drawing
    scaled by ``scale`` about the origin has the first piece's vertex 0 at ``offset``. The
    float placement and the drawing it was found on are kept for :meth:`PieceFitter.loosened`."""

    pieces: list
    offset: tuple[float, float]
    scale: float
    floats: list = field(default_factory=list, compare=False)
    drawn: BaseGeometry | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Partial:
    """The closest the pieces came where no fit was found: the pieces placed (each its
    corners, in the drawing's units) and the share of the drawing they cover."""

    pieces: list[list[tuple[float, float]]]
    share: float


class PieceFitter:
    """Fits of the seven pieces to ``rings`` (figure units, area 16, turned so the edges run
    near the eight directions), likeliest first (:meth:`fits`), within ``budget`` seconds, or
    within ``quick`` seconds unless the search has placed all seven pieces somewhere by then;
    then :attr:`partial` says how close the search came if it found none."""

    def __init__(self, rings: Sequence[FloatRing], noise: float, budget: float, quick: float | None = None):
        self.tol = Tolerance(noise)
        self.noise = noise
        self.budget = budget
        self.quick = budget if quick is None else min(quick, budget)
        self.deadline = math.inf  # set when the search starts (fits)
        self.soft_deadline = math.inf
        drawn = drawing(rings, self.tol.simplify)
        if drawn.is_empty or drawn.area <= 0:
            raise InputError(_("the outline encloses no area"))
        base = math.sqrt(16 / drawn.area)  # the straightened outline's area is the better estimate
        self.searches = [(base * f, _Search(affinity.scale(drawn, base * f, base * f, origin=(0, 0)), self.tol))
                         for f in SCALES]

    def fits(self) -> Iterator[Fit]:
        """The fits found within the budget, likeliest first. The caller may end the search
        sooner by bringing :attr:`deadline` forward between fits."""
        started = time.monotonic()
        self.deadline = started + self.budget
        self.soft_deadline = started + self.quick
        searches = [(lag, scale, search) for lag, (scale, search) in zip(SCALE_LAGS, self.searches)]
        for level in range(MAX_DISCREPANCY + max(SCALE_LAGS) + 1):
            for lag, scale, search in searches:
                discrepancy = level - lag
                if not 0 <= discrepancy <= MAX_DISCREPANCY:
                    continue
                for found in search.round(discrepancy, self._until):
                    exact = exact_placements(found, self.noise, drawn=search.drawn)
                    if exact is not None:
                        yield Fit(exact, (found[0].x, found[0].y), scale, found, search.drawn)
                if time.monotonic() > self._until():
                    return
            searches = [(lag, scale, search) for lag, scale, search in searches
                        if not (search.exhausted and level >= lag)]

    def _until(self) -> float:
        """When the search ends: :attr:`deadline` (which the caller may bring forward), or
        sooner while no path has placed all seven pieces."""
        if any(search.placed_all for _scale, search in self.searches):
            return self.deadline
        return min(self.deadline, self.soft_deadline)

    def loosened(self, fit: Fit) -> list[list]:
        """Other exact readings of ``fit``'s float placement, with the least sure contacts
        left free (pieces taken as touching only within :data:`LOOSER` times the noise): for a
        fit that lies too far from the drawing, where two pieces drawn a slide apart were made
        to touch. Each differs from the fit and from the others; the caller judges them
        against the drawing (a free slide is set from the pieces' float places, which the
        outline may correct: contacts.refitted)."""
        out: list[list] = []
        for times in LOOSER:
            touch = times * self.noise
            if touch >= touch_distance(self.noise):
                continue  # no looser than the fit's own
            exact = exact_placements(fit.floats, self.noise, drawn=fit.drawn, touch=touch)
            if exact is not None and exact != fit.pieces and exact not in out:
                out.append(exact)
        return out

    @property
    def partial(self) -> Partial | None:
        """The partial fit covering the largest share of the drawing, over every scale tried."""
        best: Partial | None = None
        for scale, search in self.searches:
            node = search.closest
            if node is None:
                continue
            share = shapely.intersection(node.cover, search.drawn, grid_size=GRID).area / search.drawn.area
            if best is None or share > best.share:
                best = Partial([[(x / scale, y / scale) for x, y in p.points()] for p in node.placed], share)
        return best


def drawing_noise(rings: Sequence[FloatRing]) -> float:
    """The drawing's noise per coordinate (units), at least MIN_NOISE: from how far each
    simplified edge's far end lies off its snapped direction (two vertices' noise across an
    edge). The median, so that the edges of a piece at a free angle, far off every direction,
    do not pass for noise (on uniform noise the median is 0.93 of the root mean square)."""
    from .reading import corners as runs
    from .reading import simplify

    across = []
    for ring in rings:
        pts = simplify(list(ring), 0.12)
        if len(pts) < 3:
            continue
        c = runs(pts)
        n = len(c.dirs)
        for i in range(n):
            (x1, y1), (x2, y2) = c.points[i], c.points[(i + 1) % n]
            a = c.dirs[i] * math.pi / 4
            across.append(abs((x2 - x1) * math.sin(a) - (y2 - y1) * math.cos(a)))
    if not across:
        return MIN_NOISE
    return max(MIN_NOISE, 1.07 * statistics.median(across))
