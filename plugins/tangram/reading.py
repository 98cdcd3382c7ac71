"""Reading a noisy outline (decimals from a tracing, a scan or a drawing) as an exact figure.

An exact figure is read exactly by :func:`~plugins.tangram.silhouette.build_silhouette`; this
module is the fallback when decimal input is not exact. The steps:

1. the scale comes from the area (the seven pieces cover 16 units), the rotation from the edges
   (the length-weighted mean of 8 x angle, refined on the edges that agree with it, so a piece
   at a free angle does not tilt the whole figure);
2. each ring is simplified (corners that bend less than a threshold are dropped) and every edge
   is snapped to the nearest of the eight 45-degree directions;
3. exact edge lengths a + b*r2 are found per ring by meeting in the middle (closing.py: half
   the ring forwards, half backwards, joined where they reach the same exact point, so every
   ring closes exactly); a lone outline must also have area exactly 16; the area's scale is
   searched first, then a few corrections, while time allows (step 7 has a slower search);
4. rings after the first are placed relative to it (exact offsets near the fitted ones, or a
   shared corner where two rings nearly meet), only in combinations of area 16;
5. candidate figures are tried in order of cost; each is placed on the drawing, passed over if
   it lies more than :data:`MAX_MOVED` from it, and the first that ``accept`` takes (the caller
   asks the solver) is kept, all within :data:`BUDGET` seconds;
6. when none is kept, or the one kept lies far from the drawing, steps 3-5 are tried again on
   the rings as drawn (a corner the noise flattened, which step 2 dropped) and with a doubtful
   short edge read in another direction (one the noise may have merged with its neighbour,
   losing a corner), while the budget lasts;
7. last, a ring nothing met in the middle closes is searched with the beam that solves its last
   two edges (an odd slide is absorbed there).

Nothing here is trusted: every candidate goes through ``build_silhouette`` like typed input.
When nothing fits, :mod:`.refusal` says why in words.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable, Sequence

from shapely.errors import GEOSException

from engine import InputError

from .closing import PRIOR, SIGMA, Walk, closed_walks, joined_walks, length_cost, noise_level, scales
from .contacts import refitted
from .geometry import DIRECTION_STEPS
from .i18n import _, ngettext
from .lownoise import read_low_noise
from .numbers import QS2
from .outline import FloatRing, fit, hausdorff, largest_distance, nesting_area, nesting_depths, ring_area
from .piecefit import Partial, PieceFitter, anchors_ready, drawing_noise
from .refusal import FREE_MARGIN_EARLY, free_angle, refusal

__all__ = ["BUDGET", "Normalised", "Reading", "hausdorff", "normalise", "read_by_pieces", "read_noisy", "simplify"]

R2 = math.sqrt(2)
#: Corners bending less than this (degrees) are taken as noise on a straight edge.
MIN_TURN = 22.5
#: Figures tried at most, and the walks kept per ring.
MAX_FIGURES = 80
#: Combinations of walks looked at, at most, for a figure of several rings (most are skipped
#: unbuilt because their areas do not add up to 16).
MAX_POPPED = 20000
WALKS_PER_RING = 30
#: Seconds spent looking for an exact outline near the drawing (reading never hangs a
#: request; see READ_BUDGET for the whole reading).
BUDGET = 0.6
#: A candidate figure is passed over when a vertex of the drawing or of the figure lies further
#: than this (figure units) from the other outline once placed: noise of 0.2 units moves a
#: vertex at most 0.2, and the placement adds a few hundredths.
MAX_MOVED = 0.35
#: The share of BUDGET after which no further scale is searched (the rest is for trying walks).
WALK_SHARE = 0.6
#: The share of BUDGET the low-noise path (lownoise.py) may spend before the general search.
LOW_NOISE_SHARE = 0.5
#: A fit of the pieces this close (units, Hausdorff) to the drawing is kept at once; a farther
#: one only if nothing closer is found within the budget.
CLOSE = 0.25
#: Seconds for fitting the seven pieces to the drawing when no exact outline was found.
PIECE_BUDGET = 1.5
#: Seconds kept at the end of the piece search's budget for refitting its nearest miss, once
#: it has one, and the least a refit is given.
REFIT_TIME = 0.1
MIN_REFIT = 0.05
#: Seconds for the whole reading, the outline and the pieces together (the outline search
#: ends by BUDGET, and the pieces get what is left). The target is 2 s with the solve at the
#: 95th percentile; the half second between is for a busy machine. With 1.0 s, held-out
#: outlines under noise of 0.2 lost 2-3 of 60 more to the time (bench/tangram_reading.py,
#: sets 13000 and 15000).
READ_BUDGET = 1.5
#: The share of READ_BUDGET after which the piece fit stops unless it has placed all seven
#: pieces somewhere: a drawing the pieces do not come near (a 5 x 3 rectangle: six pieces at
#: most) is refused in words within about a second, and only a search that is getting
#: somewhere takes the rest (the refusals that more time turned into readings had all placed
#: seven). A share, so that a caller giving the reading more time gives both more.
QUICK_SHARE = 2 / 3
#: A fit of the pieces this far from the drawing (units) or nearer, but not within CLOSE, has its
#: slides refitted to the whole outline (contacts.refitted).
REFIT_FROM = 0.6
#: Readings again, at most, when the first reading fails or lies further than CLOSE: the rings as
#: drawn (every vertex kept when they have at most AS_DRAWN, else simplified by DOUBT_TOLERANCE
#: with no least turn), so that a corner the noise flattened below MIN_TURN is still there; then
#: with one doubtful edge turned: the bottom of a slit, at most SLIT_BOTTOM long, or an edge whose
#: ends need move at most DOUBT_REACH units across it to change direction (more would be
#: likelier under noise of 0.2, but each reading again costs a tenth of a second or two, which
#: the piece fit needs more). One is begun only with MIN_REREAD seconds left.
MAX_REREADS = 4
MIN_REREAD = 0.1
DOUBT_REACH = 0.1
SLIT_BOTTOM = 0.25
AS_DRAWN = 40
DOUBT_TOLERANCE = 0.05
#: The most corners (all rings, once simplified) an outline may have to be read: the seven
#: pieces have 23 in all, and no noisy outline of the bench keeps more than 22 (the rest is
#: room for the noise). A speckled photograph's outline may have hundreds, and the closing search
#: over a ring of a hundred corners took a second on its own before giving up.
MAX_CORNERS = 32
#: Edges further than this (degrees) from the figure's eight directions do not steer the rotation.
ROTATION_TRIM = 8.0
#: Cost of reading the figure at a scale off the area's by a share (4% costs as much as a half).
SCALE_COST = 25.0


@dataclass(frozen=True)
class Normalised:
    """Rings turned, scaled and moved so the figure has area 16, with the map back."""

    rings: list[FloatRing]
    scale: float  # input units per figure unit
    angle: float  # radians the input is turned by
    origin: tuple[float, float]  # input position of figure (0, 0)
    area: float  # the input's area in input units

    def to_input(self, x: float, y: float) -> tuple[float, float]:
        c, s = math.cos(self.angle), math.sin(self.angle)
        return (self.origin[0] + self.scale * (c * x - s * y), self.origin[1] + self.scale * (s * x + c * y))


def _rotation(rings: Sequence[FloatRing]) -> float:
    """The turn (radians, modulo 45 degrees) that brings most of the edges onto the eight
    directions: a length-weighted mean of 8 x angle, then again over the edges within
    ROTATION_TRIM degrees of it (a piece at a free angle would otherwise tilt the reading)."""
    segs = []
    for r in rings:
        for i in range(len(r)):
            (x1, y1), (x2, y2) = r[i], r[(i + 1) % len(r)]
            segs.append((math.hypot(x2 - x1, y2 - y1), math.atan2(y2 - y1, x2 - x1)))
    angle = 0.0
    keep = segs
    for _round in range(3):
        zx = sum(w * math.cos(8 * a) for w, a in keep)
        zy = sum(w * math.sin(8 * a) for w, a in keep)
        angle = math.atan2(zy, zx) / 8
        trimmed = [(w, a) for w, a in segs if _off45(math.degrees(a - angle)) <= ROTATION_TRIM]
        if not trimmed:
            break
        keep = trimmed
    return angle


def _off45(deg: float) -> float:
    """Degrees from the nearest multiple of 45."""
    m = deg % 45
    return min(m, 45 - m)


def normalise(rings: Sequence[FloatRing]) -> Normalised:
    """Scale to area 16 and undo the rotation (mod 45 degrees); refuse non-figures in words."""
    rings = [r for r in rings if len(r) >= 3]
    area = nesting_area(rings)
    if not area > 0:
        raise InputError(_("the outline encloses no area"))
    scale = math.sqrt(area / 16)
    angle = _rotation(rings)
    c, s = math.cos(-angle), math.sin(-angle)
    pts = [(c * x - s * y, s * x + c * y) for r in rings for x, y in r]
    ox = min(p[0] for p in pts)
    oy = min(p[1] for p in pts)
    out = [[((c * x - s * y - ox) / scale, (s * x + c * y - oy) / scale) for x, y in r] for r in rings]
    cb, sb = math.cos(angle), math.sin(angle)
    origin = (cb * ox - sb * oy, sb * ox + cb * oy)
    return Normalised(out, scale, angle, origin, area)


def simplify(ring: FloatRing, tolerance: float = 0.12, min_turn: float = MIN_TURN) -> FloatRing:
    """Drop vertices that lie within ``tolerance`` of the chord of their neighbours or whose
    corner bends less than ``min_turn`` degrees, least significant first (the first in the
    ring's order on a tie)."""
    n = len(ring)
    if n <= 3:
        return list(ring)
    # The ring kept as links and the droppable vertices in a heap: dropping one changes only
    # its neighbours' scores, so a ring of a thousand points (a traced path, a speckled
    # photograph) takes milliseconds, not the seconds that scoring every vertex per drop took.
    prev = [(i - 1) % n for i in range(n)]
    nxt = [(i + 1) % n for i in range(n)]
    version = [0] * n  # a heap entry of an older version is stale
    dropped = [False] * n
    heap: list[tuple[float, int, int]] = []

    def rescore(i: int) -> None:
        version[i] += 1
        score = _drop_score(ring[prev[i]], ring[i], ring[nxt[i]], tolerance, min_turn)
        if score is not None:
            heapq.heappush(heap, (score, i, version[i]))

    for i in range(n):
        rescore(i)
    left = n
    while left > 3 and heap:
        _score, i, v = heapq.heappop(heap)
        if v != version[i] or dropped[i]:
            continue
        dropped[i] = True
        a, c = prev[i], nxt[i]
        nxt[a], prev[c] = c, a
        left -= 1
        rescore(a)
        rescore(c)
    return [p for p, gone in zip(ring, dropped) if not gone]


def _drop_score(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], tolerance: float,
                min_turn: float) -> float | None:
    """How little vertex ``b`` between ``a`` and ``c`` says (the least of its distance from the
    chord and its edges' lengths), or None when it is a corner to keep."""
    ux, uy = b[0] - a[0], b[1] - a[1]
    vx, vy = c[0] - b[0], c[1] - b[1]
    lu, lv = math.hypot(ux, uy), math.hypot(vx, vy)
    if lu < 1e-9 or lv < 1e-9:
        return 0.0
    turn = abs(math.degrees(math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)))
    chord = math.hypot(c[0] - a[0], c[1] - a[1]) or 1e-9
    dist = abs((c[0] - a[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (c[1] - a[1])) / chord
    if dist >= tolerance and turn >= min_turn and min(lu, lv) >= tolerance:
        return None
    return min(dist, min(lu, lv))


@dataclass(frozen=True)
class Corners:
    """A simplified ring as the search needs it: where each snapped edge starts, its
    direction 0..7 and its drawn length along that direction."""

    points: list[tuple[float, float]]
    dirs: list[int]
    lengths: list[float]


def corners(ring: FloatRing, turned: dict[int, int] | None = None) -> Corners:
    """Edges snapped to the eight directions, consecutive equal directions merged; ``turned``
    gives some edges (by index) another direction than the nearest."""
    n = len(ring)
    runs: list[list] = []  # [direction, start point, along-length]
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        k = round(math.atan2(y2 - y1, x2 - x1) / (math.pi / 4)) % 8
        if turned and i in turned:
            k = turned[i]
        ux, uy = DIRECTION_STEPS[k]
        along = ((x2 - x1) * ux + (y2 - y1) * uy) / math.hypot(ux, uy)
        if runs and runs[-1][0] == k:
            runs[-1][2] += along
        else:
            runs.append([k, (x1, y1), along])
    if len(runs) > 1 and runs[0][0] == runs[-1][0]:
        k, start, along = runs.pop()
        runs[0] = [k, start, runs[0][2] + along]
    return Corners([r[1] for r in runs], [r[0] for r in runs], [max(r[2], 0.05) for r in runs])


@dataclass(frozen=True)
class Reading:
    """The exact figure read from a noisy outline, and how far its vertices moved."""

    text: str
    moved: float  # the largest distance (figure units) from an input vertex to the exact outline
    normalised: Normalised
    exact_rings: list[list[tuple[QS2, QS2]]]
    fitted: list[FloatRing]  # the input rings in figure units, turned and moved onto the exact ones
    tried: int = 1  # candidate figures tried


def _offsets(v: float, count: int = 3) -> list[tuple[float, QS2]]:
    """Exact numbers near ``v`` for a ring's offset from another: (cost, number)."""
    out = []
    for lb in range(-48, 49, 6):
        base = v - lb * R2 / 12
        for la in {math.floor(base * 12 / 6) * 6, math.ceil(base * 12 / 6) * 6,
                   round(base * 12 / 4) * 4, round(base * 12 / 3) * 3}:
            val = (la + lb * R2) / 12
            cost = (val - v) ** 2 / (2 * SIGMA * SIGMA) + PRIOR * (length_cost(abs(la), abs(lb)) + 0.02 * abs(lb) / 12)
            out.append((cost, QS2(Fraction(la, 12), Fraction(lb, 12))))
    out.sort(key=lambda t: t[0])
    return out[:count]


def _snap_start(p: tuple[float, float]) -> tuple[QS2, QS2]:
    """A whole-number point near ``p`` where ring 0 is put (translation does not matter)."""
    return QS2(round(p[0])), QS2(round(p[1]))


def _placement(c: Corners, w: Walk, scale: float) -> tuple[float, float]:
    """Where the walk's corner 0 goes when the walk is moved to lie best on the drawn corners
    scaled by ``scale`` (about the figure's origin, as in :func:`_walks`)."""
    n = len(c.points)
    sx = sum(scale * x - float(wx) for (x, _), (wx, _) in zip(c.points, w.points))
    sy = sum(scale * y - float(wy) for (_, y), (_, wy) in zip(c.points, w.points))
    return sx / n, sy / n


def _contacts(w0: Walk, w: Walk, t0: tuple[float, float], ti: tuple[float, float], j: int):
    """Offsets (cost, dx, dy) from ring 0's corner ``j`` that put a corner of ``w`` exactly on
    a corner of ring 0's walk ``w0`` where the fitted rings nearly meet there: rings touching
    at a point (two pieces meeting at a corner, a hole touching the outline) are common, and
    an offset snapped axis by axis would miss the contact or cross the rings."""
    out = []
    jx, jy = w0.points[j]
    for ax, ay in w0.points:
        fax, fay = t0[0] + float(ax), t0[1] + float(ay)
        for bx, by in w.points:
            d2 = (ti[0] + float(bx) - fax) ** 2 + (ti[1] + float(by) - fay) ** 2
            if d2 < CONTACT * CONTACT:
                out.append((d2 / (2 * SIGMA * SIGMA), ax - bx - jx, ay - by - jy))
    return out


#: Corners of two rings this close (units, once fitted) are tried as touching exactly.
CONTACT = 0.45
#: Exact placements tried per combination of walks for a figure of several rings.
PLACEMENTS = 8


def _figures(cs: list[Corners], walks: list[list[Walk]], limit: int, signs: Sequence[int] | None = None):
    """Candidate figures (cost, exact rings, scale, shift) in order of the walks' total cost: a walk
    per ring, and for each ring after the first, an exact offset from the nearest corner of the
    first, near where the two walks' best fits put them (at ring 0's walk's scale: rings read
    at different scales would be moved apart).

    With ``signs`` (+1 for an outline, -1 for a hole, per ring), only figures whose rings add up
    to area 16 are yielded: a wrong total is known from the walks alone, without building the
    figure, so the ``limit`` is spent on figures that can be read."""
    start0 = _snap_start(cs[0].points[0])
    near = []  # per ring after the first: the corner of ring 0 nearest its corner 0
    for c in cs[1:]:
        p = c.points[0]
        near.append(min(range(len(cs[0].points)), key=lambda i: math.dist(cs[0].points[i], p)))
    areas = [[abs(ring_area(w.floats())) for w in ws] for ws in walks]
    # best-first over the product of the rings' walks, and over each product's placements
    first = tuple(0 for _ in walks)
    heap: list[tuple[float, tuple, int]] = [(sum(ws[0].cost for ws in walks), first, -1)]
    seen = {first}
    placed: dict[tuple, list] = {}
    out = popped = 0
    while heap and out < limit and popped < MAX_POPPED:
        cost, idx, p = heapq.heappop(heap)
        popped += 1
        if p < 0:  # a new product of walks: its successors, then its placements
            for i in range(len(idx)):
                if idx[i] + 1 < len(walks[i]):
                    nxt = idx[:i] + (idx[i] + 1,) + idx[i + 1:]
                    if nxt not in seen:
                        seen.add(nxt)
                        heapq.heappush(heap, (cost - walks[i][idx[i]].cost + walks[i][idx[i] + 1].cost, nxt, -1))
            if signs is not None:
                total = sum(sg * areas[i][k] for i, (sg, k) in enumerate(zip(signs, idx)))
                if abs(total - 16) > 1e-6:
                    continue
            if len(idx) == 1:
                w0 = walks[0][idx[0]]
                out += 1
                yield cost, [[(start0[0] + x, start0[1] + y) for x, y in w0.points]], w0.scale, _shift(cs, w0, start0)
                continue
            placed[idx] = _placements(cs, [walks[i][k] for i, k in enumerate(idx)], near)
            if placed[idx]:
                heapq.heappush(heap, (cost + placed[idx][0][0], idx, 0))
            continue
        plc = placed[idx]
        base = cost - plc[p][0]
        if p + 1 < len(plc):
            heapq.heappush(heap, (base + plc[p + 1][0], idx, p + 1))
        w0 = walks[0][idx[0]]
        ring0 = [(start0[0] + x, start0[1] + y) for x, y in w0.points]
        rings = [ring0]
        for i, (k, (dx, dy)) in enumerate(zip(idx[1:], plc[p][1])):
            bx, by = ring0[near[i]]
            rings.append([(bx + dx + x, by + dy + y) for x, y in walks[i + 1][k].points])
        out += 1
        yield cost, rings, w0.scale, _shift(cs, w0, start0)


def _shift(cs: list[Corners], w0: Walk, start0: tuple[QS2, QS2]) -> tuple[float, float]:
    """The move that brings the outline (scaled by the walk's scale) onto ring 0's walk as
    placed at ``start0``: a start for the rigid fit, which from further off can settle with the
    rings half an edge apart."""
    t0 = _placement(cs[0], w0, w0.scale)
    return float(start0[0]) - t0[0], float(start0[1]) - t0[1]


def _placements(cs: list[Corners], ws: list[Walk], near: list[int]) -> list[tuple[float, tuple]]:
    """The best few exact placements of rings 1.. relative to ring 0, for one walk per ring:
    (cost, ((dx, dy) per further ring, from ring 0's corner ``near[i]``)), best first."""
    w0 = ws[0]
    t0 = _placement(cs[0], w0, w0.scale)
    per_ring = []
    for i, w in enumerate(ws[1:]):
        ti = _placement(cs[i + 1], w, w0.scale)
        qx, qy = float(w0.points[near[i]][0]), float(w0.points[near[i]][1])
        ox, oy = _offsets(ti[0] - t0[0] - qx), _offsets(ti[1] - t0[1] - qy)
        cands = [(cx + cy, x, y) for cx, x in ox for cy, y in oy]
        cands += _contacts(w0, w, t0, ti, near[i])
        best: dict[tuple, float] = {}
        for c, x, y in cands:
            if c < best.get((x, y), math.inf):
                best[(x, y)] = c
        per_ring.append(sorted(((c, x, y) for (x, y), c in best.items()), key=lambda t: t[0])[:PLACEMENTS])
    combos = sorted(itertools.product(*per_ring), key=lambda cmb: sum(t[0] for t in cmb))[:PLACEMENTS]
    return [(sum(t[0] for t in cmb), tuple((t[1], t[2]) for t in cmb)) for cmb in combos]


def _walks(cs: list[Corners], lone: float | None, deadline: float | None = None) -> list[list[Walk]]:
    """Closed exact walks per ring, best first: met in the middle (:func:`_joined_walks`), then
    with the beam for a ring that finds nothing so (:func:`_beam_walks`)."""
    return _beam_walks(cs, _joined_walks(cs, lone, deadline), lone, deadline)


def _joined_walks(cs: list[Corners], lone: float | None, deadline: float | None = None) -> list[list[Walk]]:
    """Closed exact walks per ring, best first, over a few scale corrections (the area gives
    the scale only to a few per cent on a noisy outline), each ring met in the middle
    (closing.joined_walks: lengths the pieces make, exact closure). Scales after the first are
    skipped once ``deadline`` has passed, so a busy machine still leaves time to try the walks
    found."""
    out: list[list[Walk]] = [[] for _ in cs]
    seen: list[set] = [set() for _ in cs]
    sigma, factors = _noise_and_scales(cs)
    for n_f, f in enumerate(factors):
        if n_f and deadline is not None and time.monotonic() > deadline:
            break
        for i, c in enumerate(cs):
            _add_walks(joined_walks, c, f, sigma, lone, seen[i], out[i])
    return [sorted(w, key=lambda t: t.cost)[:WALKS_PER_RING] for w in out]


def _beam_walks(cs: list[Corners], walks: list[list[Walk]], lone: float | None,
                deadline: float | None = None) -> list[list[Walk]]:
    """``walks``, with a ring that has none tried with the beam that solves its last two edges
    (closing.closed_walks: an odd slide is absorbed there), scale by scale until ``deadline``."""
    out = [list(w) for w in walks]
    sigma, factors = _noise_and_scales(cs)
    for i, c in enumerate(cs):
        if out[i] or (deadline is not None and time.monotonic() > deadline):
            continue
        seen: set = set()
        for f in factors:
            _add_walks(closed_walks, c, f, sigma, lone, seen, out[i])
            if deadline is not None and time.monotonic() > deadline:
                break
        out[i] = sorted(out[i], key=lambda t: t.cost)[:WALKS_PER_RING]
    return out


def _noise_and_scales(cs: list[Corners]) -> tuple[float, list[float]]:
    """The drawing's noise (the noisiest ring's) and the scale corrections to search."""
    return max(noise_level(c.points, c.dirs) for c in cs), scales([ln for c in cs for ln in c.lengths])


def _add_walks(search: Callable, c: Corners, f: float, sigma: float, lone: float | None, seen: set,
               into: list[Walk]) -> None:
    """The walks ``search`` (closing.joined_walks or closing.closed_walks) finds for ring ``c``
    scaled by ``f``, added to ``into`` when not ``seen`` before, with the scale's cost."""
    pts = [(f * x, f * y) for x, y in c.points]
    for w in search(pts, c.dirs, [f * ln for ln in c.lengths], limit=WALKS_PER_RING, area=lone, sigma=sigma):
        if w.points not in seen:
            seen.add(w.points)
            into.append(Walk(w.cost + SCALE_COST * abs(f - 1), w.points, f))


def _best_scale(cs: list[Corners], exact: list[list[tuple[float, float]]], guess: float) -> float:
    """The scale of the drawn corners that fits the exact figure's corners best (a least-squares
    similarity: corners and exact vertices correspond one to one), or ``guess`` when the figure
    does not correspond corner by corner. The walks are searched on a coarse grid of scales;
    the figure, once chosen, is measured at its own."""
    ps, qs = [], []
    for c, r in zip(cs, exact):
        if len(c.points) != len(r):
            return guess
        ps += c.points
        qs += r
    n = len(ps)
    mpx, mpy = sum(p[0] for p in ps) / n, sum(p[1] for p in ps) / n
    mqx, mqy = sum(q[0] for q in qs) / n, sum(q[1] for q in qs) / n
    re = im = norm = 0.0
    for (px, py), (qx, qy) in zip(ps, qs):
        px, py, qx, qy = px - mpx, py - mpy, qx - mqx, qy - mqy
        re += px * qx + py * qy
        im += px * qy - py * qx
        norm += px * px + py * py
    if norm <= 0:
        return guess
    best = math.hypot(re, im) / norm
    return best if abs(best - guess) < 0.1 else guess


#: Input vertices the final placement looks at, at most (a traced picture may have hundreds).
MINIMAX_POINTS = 80


def _sparse(rings: list[FloatRing]) -> list[FloatRing]:
    """A densely traced outline through every k-th vertex (at most about MINIMAX_POINTS), so
    measuring it stays cheap; a typed or simplified outline is kept whole."""
    step = max(1, sum(len(r) for r in rings) // MINIMAX_POINTS)
    return [r[::step] if len(r[::step]) >= 3 else r for r in rings]


def _least_max(rings: list[FloatRing], exact: list[list[tuple[float, float]]]) -> list[FloatRing]:
    """``rings`` moved and turned a little further so that the largest distance between the two
    outlines' vertices and the other outline is least. The least-squares fit before it is the
    right start, but "vertices moved at most" is a largest distance, and a least-squares fit
    can leave it a few hundredths above what a placement reaches."""
    sparse = _sparse(rings)
    pts = [p for r in sparse for p in r]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    corners = [q for r in exact for q in r]

    def moved(params: tuple[float, float, float], which: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        dx, dy, a = params
        c, s = math.cos(a), math.sin(a)
        return [(cx + dx + c * (x - cx) - s * (y - cy), cy + dy + s * (x - cx) + c * (y - cy)) for x, y in which]

    def worst(params: tuple[float, float, float]) -> float:
        ring_pts = [moved(params, r) for r in sparse]
        return max(largest_distance(moved(params, pts), exact), largest_distance(corners, ring_pts))

    best = (0.0, 0.0, 0.0)
    score = worst(best)
    size = [0.04, 0.04, 0.01]
    for _round in range(5):  # a pattern search, halving the steps when no move helps
        improved = True
        while improved:
            improved = False
            for k in range(3):
                for sign in (1, -1):
                    trial = list(best)
                    trial[k] += sign * size[k]
                    t = (trial[0], trial[1], trial[2])
                    sc = worst(t)
                    if sc < score - 1e-9:
                        best, score, improved = t, sc, True
        size = [v / 2 for v in size]
    return [moved(best, r) for r in rings]


def read_noisy(rings: Sequence[FloatRing], accept: Callable[[str], bool] | None = None,
               pieces: bool = True, until: float | None = None) -> Reading:
    """The nearest exact tangram figure to ``rings`` (input coordinates, y up).

    ``accept(text)`` may reject a candidate (e.g. one the solver proves it cannot cover); by
    default a candidate is kept when it parses with area 16. When no exact outline is found
    within about :data:`BUDGET` seconds, the pieces are fitted to the drawing itself
    (:func:`read_by_pieces`, unless ``pieces`` is false) in what is left of
    :data:`READ_BUDGET` (the whole reading's time, typed and sketched outlines included; past
    :data:`QUICK_SHARE` of it only once the pieces have all been placed somewhere).
    ``until`` (:func:`time.monotonic`) ends both sooner, for a caller that reads a drawing
    several ways within one budget. Raises InputError in words when nothing fits.
    """
    if not rings:
        raise InputError(_("no outline given"))
    loaded()
    started = time.monotonic()
    until = started + READ_BUDGET if until is None else min(until, started + READ_BUDGET)
    quick = started + QUICK_SHARE * READ_BUDGET
    norm = normalise(rings)
    corner_count = sum(len(corners(r).dirs) for r in (simplify(raw) for raw in norm.rings) if len(r) >= 3)
    if corner_count > MAX_CORNERS:
        raise TooRough(_("the outline has {count} corners even once the noise is smoothed out, and the seven "
                           "pieces have 23 in all: it is no tangram figure, or it is drawn too roughly to read")
                         .format(count=corner_count))
    # A piece clearly turned by a free angle is no figure of the seven pieces at 45-degree turns,
    # even where an exact figure lies within the tolerance (a small piece turned by 20 degrees
    # moves its corners by about 0.3 units): said at once, and named.
    free = free_angle([_as_drawn(r) for r in norm.rings], norm, FREE_MARGIN_EARLY)
    if free is not None:
        raise free
    try:
        reading = _read_outline(norm, accept, until)
    except InputError as refused:
        if not pieces:
            raise
        return read_by_pieces(norm, accept, refused, until, quick)
    return nearer_by_pieces(norm, accept, reading, until, quick) if pieces else reading


class TooRough(InputError):
    """A refusal of an outline with far more corners than the seven pieces have: no fit of
    the pieces is worth trying on it either."""


def loaded() -> None:
    """Import what a reading may need before its clock starts: the modules imported inside
    functions (scipy's optimiser for the refit, the solver for the candidates, shapely's
    overlays) cost about 0.3 s the first time, which the first reading of a process would
    otherwise lose from its one second (a pen tracing refused at 0.98 s, read at 0.52 s once
    loaded); so do the piece fit's anchors (each piece's corners in every orientation, worked
    out in exact numbers once: about 0.07 s). Cheap after the first call."""
    import scipy.optimize  # noqa: F401
    import shapely.ops  # noqa: F401

    from . import assembly, silhouette, solver  # noqa: F401

    anchors_ready()


def _seconds(budget: float, until: float | None) -> float:
    """``budget`` seconds, or what is left before ``until`` if that is less."""
    return budget if until is None else max(0.0, min(budget, until - time.monotonic()))


def nearer_by_pieces(norm: Normalised, accept: Callable[[str], bool] | None, reading: Reading,
                     until: float | None = None, quick: float | None = None) -> Reading:
    """``reading``, or the pieces fitted to the drawing when the exact outline read lies further
    from it than :data:`CLOSE` (allowed up to MAX_MOVED, more than the noise usually explains)
    and a fit lies nearer: the outline search ranks figures by their edges' lengths, so a
    figure with a piece slid by an odd amount can lose to a neighbour that fits less well.
    ``until`` and ``quick`` as for :func:`read_by_pieces`."""
    if distance(reading) <= CLOSE:
        return reading
    try:
        by_pieces, _partial = _read_by_pieces(norm, accept, _seconds(PIECE_BUDGET, until), quick)
    except GEOSException:
        return reading
    return by_pieces if by_pieces is not None and distance(by_pieces) < distance(reading) else reading


def distance(reading: Reading) -> float:
    """How far (units, Hausdorff along the outlines) the exact figure read lies from the drawing."""
    exact = [[(float(x), float(y)) for x, y in r] for r in reading.exact_rings]
    return max(reading.moved, hausdorff(exact, _sparse(reading.fitted), step=0.1))


def read_by_pieces(norm: Normalised, accept: Callable[[str], bool] | None, refused: InputError,
                   until: float | None = None, quick: float | None = None) -> Reading:
    """The figure the seven pieces make fitted to the drawing (:func:`_read_by_pieces`, for
    :data:`PIECE_BUDGET` seconds or until ``until``, and past ``quick``, a time.monotonic()
    value, only once it has placed all seven pieces somewhere); when there is none,
    ``refused`` raised again with the closest partial cover in its words and, in input
    coordinates, in its details (``partial_cover``: the pieces' corners and the share of the
    outline they cover)."""
    try:
        by_pieces, partial = _read_by_pieces(norm, accept, _seconds(PIECE_BUDGET, until), quick)
    except GEOSException:  # a degenerate drawing shapely cannot take apart: no fit, the words stand
        raise refused from None
    if by_pieces is not None:
        return by_pieces
    if partial is None:
        raise refused
    count = len(partial.pieces)
    # the words and the details say the same share; one that rounds up to all of it is still
    # a refusal (the pieces lie too far from the drawing somewhere), so it says 99%
    percent = min(99, round(100 * partial.share))
    raise InputError(ngettext("{reason}; the closest fit found places {count} piece, covering {share} of the outline",
                              "{reason}; the closest fit found places {count} pieces, covering {share} of the "
                              "outline", count).format(reason=refused.message, count=count, share=f"{percent}%"),
                     details={"partial_cover": {
                         "pieces": [[list(norm.to_input(x, y)) for x, y in piece] for piece in partial.pieces],
                         "share": percent / 100}})


def _refitted(pieces, rings: list[FloatRing], noise: float, far: float, until: float = math.inf):
    """The pieces refitted to the drawing (contacts.refitted, until ``until``) when that brings
    the outline nearer than ``far``: (far, silhouette, exact rings, fitted drawing, largest
    vertex move); else None."""
    from .assembly import union_silhouette

    placed = refitted(pieces, rings, noise, until=until)
    if placed is None:
        return None
    try:
        sil = union_silhouette(placed)
    except InputError:
        return None
    nearer, exact, fitted, moved = _measured(sil, rings)
    return (nearer, sil, exact, fitted, moved) if nearer < far else None


def _measured(sil, rings: list[FloatRing]) -> tuple[float, list, list[FloatRing], float]:
    """The figure ``sil`` against the drawing ``rings`` (in its frame): how far it lies
    (Hausdorff along both outlines, or the largest vertex move if more), its exact rings, the
    drawing fitted onto them, and the largest vertex move."""
    exact = [list(r) for r in sil.rings()]
    fl = [[(float(x), float(y)) for x, y in r] for r in exact]
    fitted = _least_max(fit(rings, fl), fl)
    moved = largest_distance([p for r in fitted for p in r], fl)
    return max(moved, hausdorff(fl, _sparse(fitted), step=0.1)), exact, fitted, moved


def _read_outline(norm: Normalised, accept: Callable[[str], bool] | None, until: float | None = None) -> Reading:
    """The nearest exact outline to the normalised drawing that ``accept`` takes: the
    low-noise path, then the general search, then the same search on the rings as drawn and with
    a doubtful short edge read in another direction (:func:`_rereads`), within :data:`BUDGET` seconds or
    until ``until``; InputError in words (refusal.py) otherwise."""
    budget = _seconds(BUDGET, until)
    deadline = time.monotonic() + budget
    # a nearly exact outline (a clean picture, a program's SVG) is read directly; the general
    # search below is for noisier ones
    low = read_low_noise(norm.rings, accept, min(deadline, time.monotonic() + LOW_NOISE_SHARE * budget))
    if low is not None:
        return Reading(low.text, low.moved, low.refined(norm), low.exact_rings, low.fitted, low.tried)
    kept = [(raw, simplify(raw)) for raw in norm.rings]
    kept = [(raw, r) for raw, r in kept if len(r) >= 3 and abs(ring_area(r)) > 0.05]
    if not kept:
        raise InputError(_("the outline has no corners left once the noise is removed"))
    # outlines first (a hole is placed relative to the first ring)
    depth = nesting_depths([r for _, r in kept])
    order = sorted(range(len(kept)), key=lambda i: (depth[i], -abs(ring_area(kept[i][1]))))
    simple = [kept[i][1] for i in order]
    signs = [1 if depth[i] % 2 == 0 else -1 for i in order]
    cs = [corners(r) for r in simple]
    lone = 16.0 if len(cs) == 1 else None
    walks = _joined_walks(cs, lone, time.monotonic() + WALK_SHARE * budget)
    reading, tried, unsolved = _search(norm, cs, signs, accept, deadline, walks)
    far = math.inf if reading is None else distance(reading)
    if far > CLOSE:
        # A short edge's direction is the least certain: noise of 0.2 units at both ends turns
        # an edge half a unit long by up to 40 degrees, into the next direction, where it merges
        # with its neighbour and the figure loses a corner (or the simplification drops a corner
        # the noise flattened). Read again from the rings as drawn, then with the most doubtful
        # edges turned back, one at a time, while the time lasts: at the area's scale only
        # (walks met in the middle with a deadline already past), and no further once one
        # reads nearer, since what follows needs what time is left more than another edge does.
        light = [_as_drawn(kept[i][0]) for i in order]
        for ring, turned in _rereads(cs, light)[:MAX_REREADS]:
            if deadline - time.monotonic() < MIN_REREAD:
                break
            rings = cs[:ring] + [turned] + cs[ring + 1:]
            other, more, refused = _search(norm, rings, signs, accept, deadline,
                                           _joined_walks(rings, lone, time.monotonic()), first_always=False)
            tried += more
            unsolved += refused
            if other is not None and distance(other) < far:
                reading = replace(other, tried=tried)
                break
    if reading is None and not all(walks) and deadline - time.monotonic() >= MIN_REREAD:
        # Last, the beam that solves a ring's last two edges, for the rings nothing met in the
        # middle closes (an odd slide; slower, and seldom the one that reads).
        walks = _beam_walks(cs, walks, lone, deadline - MIN_REREAD)
        if all(walks):
            other, more, refused = _search(norm, cs, signs, accept, deadline, walks, first_always=False)
            tried += more
            unsolved += refused
            reading = None if other is None else replace(other, tried=tried)
    if reading is not None:
        return reading
    raise InputError(refusal(norm, simple, [len(w) for w in walks], tried, unsolved))


def _rereads(cs: list[Corners], light: list[FloatRing]) -> list[tuple[int, Corners]]:
    """The rings to read again, in order (ring index, its snapped corners): each ring as drawn
    (``light``) where its corners differ from the simplified ring's (``cs``), then with one
    doubtful edge turned (:func:`_doubtful_edges`); a ring whose directions are already tried,
    from any corner, is left out (a slit's bottom often has one of its two directions already)."""
    def cycle(c: Corners) -> tuple[int, ...]:
        dirs = tuple(c.dirs)
        return min(dirs[k:] + dirs[:k] for k in range(len(dirs))) if dirs else dirs

    seen = {(i, cycle(c)) for i, c in enumerate(cs)}
    out = []
    turns: list[tuple[int, dict[int, int]]] = [(i, {}) for i in range(len(light))]
    turns += [(ring, turn) for _doubt, ring, turn in _doubtful_edges(light)]
    for ring, turn in turns:
        turned = corners(light[ring], turn)
        if (ring, cycle(turned)) not in seen:
            seen.add((ring, cycle(turned)))
            out.append((ring, turned))
    return out


def _as_drawn(ring: FloatRing) -> FloatRing:
    """``ring`` as drawn: every vertex kept when it has at most AS_DRAWN (a tracing or typed
    decimals: each vertex was put at a corner, however little it turns there), else simplified
    by DOUBT_TOLERANCE with no least turn (a traced contour's many vertices mostly lie along its
    edges)."""
    if len(ring) <= AS_DRAWN:
        return [p for i, p in enumerate(ring) if math.dist(p, ring[i - 1]) > 1e-9]
    return simplify(ring, DOUBT_TOLERANCE, 0.0)


def _doubtful_edges(rings: Sequence[FloatRing]) -> list[tuple[float, int, dict[int, int]]]:
    """Edges whose direction among the eight the noise may have changed, most doubtful first:
    (how far, in units across the edges, their ends must move to put them in the other
    directions, the larger for two; ring; {edge: that direction}), for an edge within
    DOUBT_REACH of the next direction round.

    The bottom of a slit (an edge at most SLIT_BOTTOM long between two edges that run opposite
    ways) comes first, in both directions square to its sides: so short that the noise gives it
    any direction, while the slit's sides say which two it can have. Its first number is minus
    its length, so that it sorts before every turned edge. Two doubtful edges side by side that
    would each turn into the other's direction are also turned together: the noise moved the
    corner between them across the line of both, and swapped them."""
    out: list[tuple[float, int, dict[int, int]]] = []
    for i, ring in enumerate(rings):
        n = len(ring)
        steps = [math.atan2(y2 - y1, x2 - x1) / (math.pi / 4)
                 for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1])]
        turned: dict[int, tuple[float, int]] = {}  # edge -> (how far, the other direction)
        for e in range(n):
            length = math.dist(ring[e], ring[(e + 1) % n])
            before, after = round(steps[e - 1]) % 8, round(steps[(e + 1) % n]) % 8
            if length <= SLIT_BOTTOM and (after - before) % 8 == 4:
                out.extend((-length, i, {e: (before + turn) % 8}) for turn in (2, -2))
                continue
            off = steps[e] - round(steps[e])  # -0.5..0.5 of a 45-degree step
            far = length * math.sin((0.5 - abs(off)) * math.pi / 4)
            if far <= DOUBT_REACH:
                turned[e] = (far, (round(steps[e]) + (1 if off > 0 else -1)) % 8)
                out.append((far, i, {e: turned[e][1]}))
        for e, (far, direction) in turned.items():
            nxt = (e + 1) % n
            if nxt in turned and direction == round(steps[nxt]) % 8 and turned[nxt][1] == round(steps[e]) % 8:
                out.append((max(far, turned[nxt][0]), i, {e: direction, nxt: turned[nxt][1]}))
    return sorted(out, key=lambda t: (t[0], len(t[2])))


def _search(norm: Normalised, cs: list[Corners], signs: list[int], accept: Callable[[str], bool] | None,
            deadline: float, walks: list[list[Walk]], first_always: bool = True) -> tuple[Reading | None, int, int]:
    """The first candidate figure made of ``walks`` (closed exact walks per ring of the snapped
    rings ``cs``) that lies near the drawing and that ``accept`` takes: (the reading or None,
    figures tried, of those how many ``accept`` refused). Candidates are tried until
    ``deadline``, the first one even after it unless not ``first_always``."""
    from .silhouette import build_silhouette, format_silhouette  # circular at import time

    tried = 0
    unsolved = 0
    if all(walks):
        for _cost, exact, factor, (mx, my) in _figures(cs, walks, MAX_FIGURES, signs if len(cs) > 1 else None):
            if (tried or not first_always) and time.monotonic() > deadline:
                break  # the first search tries its first candidate: the walks found are worth a look
            tried += 1
            try:
                sil = build_silhouette([(r, "ring") for r in exact])
            except InputError:
                continue
            if sil.messages:  # scaled: the area was not 16, so a length is wrong
                continue
            # measure the outline against the figure at the scale that suits the figure best
            fl = [[(float(x), float(y)) for x, y in r] for r in exact]
            factor = _best_scale(cs, fl, factor)
            scaled = replace(norm, rings=[[(factor * x, factor * y) for x, y in r] for r in norm.rings],
                             scale=norm.scale / factor)
            fitted = fit([[(x + mx, y + my) for x, y in r] for r in scaled.rings], fl)
            fitted = _least_max(fitted, fl)
            moved = largest_distance([p for r in fitted for p in r], fl)
            # a figure whose outline lies further from the drawing than any noise explains is
            # not this drawing: Hausdorff, along the edges both ways round (near vertices alone
            # miss a slit or a spike one outline has and the other lacks)
            if moved > MAX_MOVED or hausdorff(fl, _sparse(fitted), step=0.1) > MAX_MOVED:
                continue
            text = format_silhouette(sil)
            if accept is not None and not accept(text):
                unsolved += 1
                continue
            return Reading(text, moved, scaled, exact, fitted, tried), tried, unsolved
    return None, tried, unsolved


def _read_by_pieces(norm: Normalised, accept: Callable[[str], bool] | None,
                    budget: float, quick: float | None = None) -> tuple[Reading | None, Partial | None]:
    """The figure the seven pieces make when fitted to the drawing itself (piecefit.py): for
    outlines whose exact edges the search above could not find (pieces slid by odd amounts,
    short edges lost in the noise). Covered by construction. The first fit within
    :data:`CLOSE` of the drawing is kept, else the nearest within :data:`MAX_MOVED` found in
    the budget; with none, the closest partial fit (in figure units), if any. The search ends
    at ``quick`` (a time.monotonic() value) unless it has placed all seven pieces somewhere by
    then (:class:`PieceFitter`)."""
    noise = drawing_noise(norm.rings)
    now = time.monotonic()
    deadline = now + budget
    fitter = PieceFitter(norm.rings, noise, budget, None if quick is None else max(0.0, quick - now))
    kept = _Kept(accept)
    nearest_miss: tuple[float, list, Normalised] | None = None  # (far, pieces, frame) over CLOSE
    seen: set[tuple] = set()
    for found in fitter.fits():
        if tuple(found.pieces) in seen:
            continue  # the same fit found again at another scale
        seen.add(tuple(found.pieces))
        kept.tried += 1
        k, (ox, oy) = found.scale, found.offset
        scaled = replace(norm, rings=[[(k * x - ox, k * y - oy) for x, y in r] for r in norm.rings],
                         scale=norm.scale / k, origin=norm.to_input(ox / k, oy / k))
        far = kept.consider(found.pieces, scaled)
        if far > CLOSE:
            # Two pieces drawn a slide apart may have been made to touch: the same float fit
            # with its least sure contacts left free. Where that lies nearer, the slides it
            # freed were set from the pieces' float places, and the outline says better where
            # they lie: refitted at once (see piecefit.LOOSER).
            for pieces in fitter.loosened(found):
                looser = kept.consider(pieces, scaled)
                if CLOSE < looser < min(far, REFIT_FROM) and time.monotonic() + MIN_REFIT < deadline:
                    kept.refit(pieces, scaled, noise, looser, until=deadline)
                if kept.close:
                    break
        if kept.close:
            break
        if CLOSE < far <= REFIT_FROM and (nearest_miss is None or far < nearest_miss[0]):
            nearest_miss = (far, found.pieces, scaled)
            # leave the refit below its time within the budget
            fitter.deadline = min(fitter.deadline, deadline - REFIT_TIME)
    if nearest_miss is not None and not kept.close:
        # The search put each slid piece by one noisy corner; the whole outline may say better
        # where the nearest fit's pieces lie (once, after the search: it takes a tenth of a
        # second or two, which the search needs more; within the budget, so a refusal stays
        # prompt).
        far, pieces, scaled = nearest_miss
        kept.refit(pieces, scaled, noise, far, until=max(deadline, time.monotonic() + MIN_REFIT))
    if kept.best is None:
        return None, fitter.partial
    return replace(kept.best[1], tried=kept.tried), None


class _Kept:
    """The nearest reading the piece fit has found so far (within :data:`MAX_MOVED`, and taken
    by ``accept``), and how many fits it has tried."""

    def __init__(self, accept: Callable[[str], bool] | None):
        self.accept = accept
        self.best: tuple[float, Reading] | None = None
        self.tried = 0

    @property
    def close(self) -> bool:
        """True once a reading within :data:`CLOSE` is kept: the search can end."""
        return self.best is not None and self.best[0] <= CLOSE

    def consider(self, pieces: list, scaled: Normalised) -> float:
        """Measure the figure ``pieces`` make against the drawing (``scaled``: in their frame),
        keep it if it is the nearest yet, and say how far it lies (inf when the pieces make no
        figure)."""
        from .assembly import union_silhouette  # assembly imports the silhouette module

        try:
            sil = union_silhouette(pieces)
        except InputError:
            return math.inf
        far, exact, fitted, moved = _measured(sil, scaled.rings)
        self._offer(far, sil, scaled, exact, fitted, moved)
        return far

    def refit(self, pieces: list, scaled: Normalised, noise: float, far: float, until: float) -> None:
        """Refit the pieces' free slides to the whole outline (:func:`_refitted`) and keep the
        result if it is the nearest yet."""
        better = _refitted(pieces, scaled.rings, noise, far, until=until)
        if better is not None:
            far, sil, exact, fitted, moved = better
            self._offer(far, sil, scaled, exact, fitted, moved)

    def _offer(self, far: float, sil, scaled: Normalised, exact, fitted, moved: float) -> None:
        from .silhouette import format_silhouette

        if far > MAX_MOVED or (self.best is not None and far >= self.best[0]):
            return
        text = format_silhouette(sil)
        if self.accept is not None and not self.accept(text):
            return
        self.best = (far, Reading(text, moved, scaled, exact, fitted, self.tried))
