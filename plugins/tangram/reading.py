"""Reading a noisy outline (decimals from a tracing, a scan or a drawing) as an exact figure.

An exact figure is read exactly by :func:`~plugins.tangram.silhouette.build_silhouette`; this
module is the fallback when decimal input is not exact. The steps:

1. the scale comes from the area (the seven pieces cover 16 units), the rotation from the edges
   (the length-weighted mean of 8 x angle, so any turn of the page is undone);
2. each ring is simplified (corners that bend less than a threshold are dropped) and every edge
   is snapped to the nearest of the eight 45-degree directions;
3. each edge length is snapped to a length the pieces make: a + b*r2 with small a, b (halves
   for pieces slid by half an edge). The ring must close exactly, so lengths are enumerated
   in order of total distance until the exact walk closes;
4. candidates are built in order of distance; the first whose area is exactly 16 and that the
   solver's cheap test does not rule out is kept (the caller may ask the solver for more).

Nothing here is trusted: every candidate goes through ``build_silhouette`` like typed input.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterator, Sequence

from engine import InputError

from .geometry import DIRECTION_STEPS
from .numbers import QS2

FloatRing = list[tuple[float, float]]
R2 = math.sqrt(2)
#: The outline's area may be off by this share before it is refused as not a tangram figure.
AREA_TOLERANCE = 0.12
#: Corners bending less than this (degrees) are taken as noise on a straight edge.
MIN_TURN = 22.5
#: How many closed walks per ring, and how many figures, are tried at most.
MAX_WALKS = 6000
MAX_FIGURES = 60
#: Seconds spent looking for a figure before refusing in words (reading never hangs a request).
BUDGET = 1.0

_HALF_R2 = QS2(0, Fraction(1, 2))


def _lengths() -> list[tuple[float, QS2]]:
    """Edge lengths the pieces make: a + b*r2, a and b in halves, up to 12. A sign may be
    negative (2 - r2 is where a square's side ends along a medium triangle's leg)."""
    out = []
    for a2 in range(-8, 25):
        for b2 in range(-6, 17):
            if a2 == b2 == 0 or (a2 < 0 and b2 < 0):
                continue
            v = a2 / 2 + b2 * R2 / 2
            if 0.05 < v <= 12:
                out.append((v, QS2(Fraction(a2, 2), Fraction(b2, 2))))
    out.sort(key=lambda t: t[0])
    return out


LENGTHS = _lengths()


def _complexity(q: QS2) -> float:
    """Half-units and odd halves of r2 are rarer than whole piece edges: a small penalty."""
    pen = 0.0
    if q.a.denominator != 1:
        pen += 0.12
    if q.b.denominator != 1:
        pen += 0.12
    if q.a and q.b:
        pen += 0.06
    if q.a < 0 or q.b < 0:
        pen += 0.1
    return pen


def _unit(k: int) -> tuple[QS2, QS2]:
    sx, sy = DIRECTION_STEPS[k]
    if sx and sy:
        return _HALF_R2 * sx, _HALF_R2 * sy
    return QS2(sx), QS2(sy)


@dataclass(frozen=True)
class Normalised:
    """Rings turned, scaled and moved so the figure has area 16, with the map back."""

    rings: list[FloatRing]
    scale: float  # input units per figure unit
    angle: float  # radians the input is turned by
    origin: tuple[float, float]  # input position of figure (0, 0)
    area: float  # the input's area in figure units before scaling (16 when exact)

    def to_input(self, x: float, y: float) -> tuple[float, float]:
        c, s = math.cos(self.angle), math.sin(self.angle)
        return (self.origin[0] + self.scale * (c * x - s * y), self.origin[1] + self.scale * (s * x + c * y))


def _area(ring: FloatRing) -> float:
    n = len(ring)
    return sum(ring[i][0] * ring[(i + 1) % n][1] - ring[(i + 1) % n][0] * ring[i][1] for i in range(n)) / 2


def _inside(p: tuple[float, float], ring: FloatRing) -> bool:
    x, y = p
    inside = False
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def nesting_area(rings: Sequence[FloatRing]) -> float:
    """Area by even-odd nesting (holes subtract), whatever the rings' orientation."""
    total = 0.0
    for i, r in enumerate(rings):
        depth = sum(1 for j, o in enumerate(rings) if j != i and _inside(_probe(r), o))
        total += abs(_area(r)) * (-1 if depth % 2 else 1)
    return total


def _probe(ring: FloatRing) -> tuple[float, float]:
    """A point just inside the ring next to its first edge's middle (robust for nesting)."""
    (x1, y1), (x2, y2) = ring[0], ring[1]
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    dx, dy = x2 - x1, y2 - y1
    d = math.hypot(dx, dy) or 1.0
    sgn = 1 if _area(ring) > 0 else -1
    return mx - sgn * dy / d * 1e-6, my + sgn * dx / d * 1e-6


def normalise(rings: Sequence[FloatRing]) -> Normalised:
    """Scale to area 16 and undo the rotation (mod 45 degrees); refuse non-figures in words."""
    rings = [r for r in rings if len(r) >= 3]
    area = nesting_area(rings)
    if area <= 0:
        raise InputError("the outline encloses no area")
    scale = math.sqrt(area / 16)
    zx = zy = 0.0
    for r in rings:
        for i in range(len(r)):
            (x1, y1), (x2, y2) = r[i], r[(i + 1) % len(r)]
            w = math.hypot(x2 - x1, y2 - y1)
            a = 8 * math.atan2(y2 - y1, x2 - x1)
            zx += w * math.cos(a)
            zy += w * math.sin(a)
    angle = math.atan2(zy, zx) / 8
    c, s = math.cos(-angle), math.sin(-angle)
    pts = [(c * x - s * y, s * x + c * y) for r in rings for x, y in r]
    ox = min(p[0] for p in pts)
    oy = min(p[1] for p in pts)
    out = [[((c * x - s * y - ox) / scale, (s * x + c * y - oy) / scale) for x, y in r] for r in rings]
    cb, sb = math.cos(angle), math.sin(angle)
    origin = (cb * ox - sb * oy, sb * ox + cb * oy)
    return Normalised(out, scale, angle, origin, 16.0)


def simplify(ring: FloatRing, tolerance: float = 0.12) -> FloatRing:
    """Drop vertices that lie within ``tolerance`` of the chord of their neighbours or whose
    corner bends less than MIN_TURN, least significant first."""
    pts = list(ring)
    changed = True
    while changed and len(pts) > 3:
        changed = False
        best, best_i = None, -1
        n = len(pts)
        for i in range(n):
            a, b, c = pts[i - 1], pts[i], pts[(i + 1) % n]
            ux, uy = b[0] - a[0], b[1] - a[1]
            vx, vy = c[0] - b[0], c[1] - b[1]
            lu, lv = math.hypot(ux, uy), math.hypot(vx, vy)
            if lu < 1e-9 or lv < 1e-9:
                score = 0.0
            else:
                turn = abs(math.degrees(math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)))
                chord = math.hypot(c[0] - a[0], c[1] - a[1]) or 1e-9
                dist = abs((c[0] - a[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (c[1] - a[1])) / chord
                if dist >= tolerance and turn >= MIN_TURN and min(lu, lv) >= tolerance:
                    continue
                score = min(dist, min(lu, lv))
            if best is None or score < best:
                best, best_i = score, i
        if best_i >= 0:
            pts.pop(best_i)
            changed = True
    return pts


def _edges(ring: FloatRing) -> list[tuple[int, float]]:
    """(direction 0..7, length) per edge, consecutive equal directions merged."""
    out: list[tuple[int, float]] = []
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        k = round(math.atan2(y2 - y1, x2 - x1) / (math.pi / 4)) % 8
        length = math.hypot(x2 - x1, y2 - y1)
        # the length along the snapped direction (the part across it is noise)
        ux, uy = DIRECTION_STEPS[k]
        norm = math.hypot(ux, uy)
        along = ((x2 - x1) * ux + (y2 - y1) * uy) / norm
        if out and out[-1][0] == k:
            out[-1] = (k, out[-1][1] + along)
        else:
            out.append((k, along if along > 0 else length))
    if len(out) > 1 and out[0][0] == out[-1][0]:
        k, l0 = out.pop()
        out[0] = (k, out[0][1] + l0)
    return out


def _candidates(length: float, count: int = 4) -> list[tuple[float, QS2]]:
    """The ``count`` piece lengths nearest to ``length`` as (cost, exact length)."""
    scored = sorted(((abs(v - length) + _complexity(q), q) for v, q in LENGTHS if abs(v - length) < 0.6),
                    key=lambda t: t[0])
    return scored[:count]


def closed_walks(edges: Sequence[tuple[int, float]], limit: int = MAX_WALKS,
                 deadline: float = math.inf, area: float | None = None) -> Iterator[tuple[float, list[QS2]]]:
    """Exact edge lengths for the walk, in order of total cost, that close the ring exactly
    (and, if ``area`` is given, enclose that area: a lone outline must have area 16)."""
    cands = [_candidates(length) for _, length in edges]
    if any(not c for c in cands):
        return
    units = [_unit(k) for k, _ in edges]
    funits = [(float(ux), float(uy)) for ux, uy in units]
    cfloat = [[float(q) for _, q in c] for c in cands]
    start = tuple(0 for _ in edges)
    heap = [(sum(c[0][0] for c in cands), start)]
    seen = {start}
    pops = 0
    while heap and pops < limit and (pops % 64 or time.monotonic() < deadline):
        cost, idx = heapq.heappop(heap)
        pops += 1
        # a float test first (QS2 arithmetic is slow); the exact test decides
        fx = fy = 0.0
        for (ux, uy), i_j in zip(funits, enumerate(idx)):
            ln = cfloat[i_j[0]][i_j[1]]
            fx, fy = fx + ux * ln, fy + uy * ln
        if abs(fx) < 1e-6 and abs(fy) < 1e-6 and (area is None or _walk_area(funits, cfloat, idx, area)):
            lengths = [cands[i][j][1] for i, j in enumerate(idx)]
            sx, sy = QS2(0), QS2(0)
            for (ux, uy), ln in zip(units, lengths):
                sx, sy = sx + ux * ln, sy + uy * ln
            if sx == 0 and sy == 0:
                yield cost, lengths
        for i in range(len(idx)):
            if idx[i] + 1 < len(cands[i]):
                nxt = idx[:i] + (idx[i] + 1,) + idx[i + 1:]
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, (cost - cands[i][idx[i]][0] + cands[i][idx[i] + 1][0], nxt))


def _walk_area(funits, cfloat, idx, area: float) -> bool:
    x = y = twice = 0.0
    for (ux, uy), i, j in zip(funits, range(len(idx)), idx):
        ln = cfloat[i][j]
        nx, ny = x + ux * ln, y + uy * ln
        twice += x * ny - nx * y
        x, y = nx, ny
    return abs(abs(twice) / 2 - area) < 1e-6


def _lattice_point(x: float, y: float) -> tuple[QS2, QS2]:
    """The nearest point with coordinates (p + q*r2)/2, preferring small q."""
    def one(v: float) -> QS2:
        best = None
        for q in range(-4, 5):
            p = round(2 * (v - q * R2 / 2))
            val = p / 2 + q * R2 / 2
            cost = abs(val - v) + 0.03 * abs(q)
            if best is None or cost < best[0]:
                best = (cost, QS2(Fraction(p, 2), Fraction(q, 2)))
        assert best is not None
        return best[1]
    return one(x), one(y)


@dataclass(frozen=True)
class Reading:
    """The exact figure read from a noisy outline, and how far its vertices moved."""

    text: str
    moved: float  # the largest distance (figure units) from an input vertex to the exact outline
    normalised: Normalised
    exact_rings: list[list[tuple[QS2, QS2]]]
    fitted: list[FloatRing]  # the input rings in figure units, turned and moved onto the exact ones


def _ring_from(start: tuple[QS2, QS2], edges, lengths) -> list[tuple[QS2, QS2]]:
    pts = [start]
    x, y = start
    for (k, _), ln in zip(edges, lengths):
        ux, uy = _unit(k)
        x, y = x + ux * ln, y + uy * ln
        pts.append((x, y))
    pts.pop()
    return pts


def _nearest_on_rings(p: tuple[float, float], rings) -> tuple[float, float]:
    best, where = math.inf, p
    for r in rings:
        n = len(r)
        for i in range(n):
            (x1, y1), (x2, y2) = r[i], r[(i + 1) % n]
            dx, dy = x2 - x1, y2 - y1
            ll = dx * dx + dy * dy
            t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - x1) * dx + (p[1] - y1) * dy) / ll))
            q = (x1 + t * dx, y1 + t * dy)
            d = math.hypot(p[0] - q[0], p[1] - q[1])
            if d < best:
                best, where = d, q
    return where


def fit(rings: Sequence[FloatRing], exact: Sequence[Sequence[tuple[float, float]]],
        rounds: int = 6) -> list[FloatRing]:
    """The input rings turned and moved (no scaling) to lie best on the exact outline: a few
    rounds of nearest points and a least-squares rigid fit, so the reported move is not
    inflated by where the normalisation happened to put the figure."""
    cur = [list(r) for r in rings]
    for _ in range(rounds):
        pts = [p for r in cur for p in r]
        qs = [_nearest_on_rings(p, exact) for p in pts]
        n = len(pts)
        mpx = sum(p[0] for p in pts) / n
        mpy = sum(p[1] for p in pts) / n
        mqx = sum(q[0] for q in qs) / n
        mqy = sum(q[1] for q in qs) / n
        sxx = sum((p[0] - mpx) * (q[0] - mqx) + (p[1] - mpy) * (q[1] - mqy) for p, q in zip(pts, qs))
        sxy = sum((p[0] - mpx) * (q[1] - mqy) - (p[1] - mpy) * (q[0] - mqx) for p, q in zip(pts, qs))
        a = math.atan2(sxy, sxx)
        c, s = math.cos(a), math.sin(a)
        cur = [[(mqx + c * (x - mpx) - s * (y - mpy), mqy + s * (x - mpx) + c * (y - mpy)) for x, y in r]
               for r in cur]
    return cur


def _distance_to_rings(p: tuple[float, float], rings: Sequence[Sequence[tuple[float, float]]]) -> float:
    q = _nearest_on_rings(p, rings)
    return math.hypot(p[0] - q[0], p[1] - q[1])


def hausdorff(a: Sequence[Sequence[tuple[float, float]]], b: Sequence[Sequence[tuple[float, float]]],
              step: float = 0.1) -> float:
    """Symmetric Hausdorff distance between two sets of ring boundaries (sampled every ``step``)."""
    def samples(rings):
        for r in rings:
            n = len(r)
            for i in range(n):
                (x1, y1), (x2, y2) = r[i], r[(i + 1) % n]
                m = max(1, int(math.hypot(x2 - x1, y2 - y1) / step))
                for j in range(m):
                    yield (x1 + (x2 - x1) * j / m, y1 + (y2 - y1) * j / m)
    return max(max((_distance_to_rings(p, b) for p in samples(a)), default=0.0),
               max((_distance_to_rings(p, a) for p in samples(b)), default=0.0))


def read_noisy(rings: Sequence[FloatRing], accept: Callable[[str], bool] | None = None) -> Reading:
    """The nearest exact tangram figure to ``rings`` (input coordinates, y up).

    ``accept(text)`` may reject a candidate (e.g. one the solver cannot cover); by default
    a candidate is kept when it parses. Raises InputError in words when nothing fits.
    """
    from .silhouette import build_silhouette, format_silhouette  # circular at import time

    if not rings:
        raise InputError("no outline given")
    deadline = time.monotonic() + BUDGET
    norm = normalise(rings)
    simple = [simplify(r) for r in norm.rings]
    simple = [r for r in simple if len(r) >= 3 and abs(_area(r)) > 0.05]
    if not simple:
        raise InputError("the outline has no corners left once the noise is removed")
    edge_lists = [_edges(r) for r in simple]
    walks_per_ring = []
    for ri, edges in enumerate(edge_lists):
        walks = []
        lone = 16.0 if len(edge_lists) == 1 else None
        for cost, lengths in closed_walks(edges, deadline=deadline, area=lone):
            walks.append((cost, lengths))
            if len(walks) >= 40:
                break
        if not walks:
            raise InputError(f"no exact tangram figure lies near this outline: outline {ri + 1} cannot be "
                             f"closed with edges at multiples of 45 degrees "
                             f"and the pieces' edge lengths; {_turned_piece_hint(simple[ri], norm)}")
        walks_per_ring.append(walks)
    starts = [_lattice_point(*r[0]) for r in simple]
    tried = 0
    last_error = None
    # combinations in order of total cost: ring 0's walks first, others on their best walk
    combos: list[tuple[float, tuple[int, ...]]] = []
    def rec(i, acc, cost):
        if len(combos) > 400:
            return
        if i == len(walks_per_ring):
            combos.append((cost, tuple(acc)))
            return
        for j, (c, _) in enumerate(walks_per_ring[i][:6]):
            rec(i + 1, acc + [j], cost + c)
    rec(0, [], 0.0)
    combos.sort()
    for _, combo in combos:
        if tried >= MAX_FIGURES or time.monotonic() > deadline:
            break
        tried += 1
        exact = [_ring_from(starts[i], edge_lists[i], walks_per_ring[i][j][1]) for i, j in enumerate(combo)]
        try:
            sil = build_silhouette([(r, "ring") for r in exact])
        except InputError as exc:
            last_error = exc
            continue
        if sil.messages:  # scaled: the area was not 16, so a length is wrong
            last_error = InputError("area")
            continue
        text = format_silhouette(sil)
        if accept is not None and not accept(text):
            continue
        fl = [[(float(x), float(y)) for x, y in r] for r in exact]
        fitted = fit(norm.rings, fl)
        moved = max(_distance_to_rings(p, fl) for r in fitted for p in r)
        return Reading(text, moved, norm, exact, fitted)
    raise InputError("no exact tangram figure lies near this outline"
                     + (f" ({last_error.message})" if last_error and last_error.message != "area" else "")
                     + f"; {_turned_piece_hint(simple[0], norm)}")


def _turned_piece_hint(ring: FloatRing, norm: Normalised) -> str:
    """Name the edge furthest from the eight directions: usually a piece at a free angle."""
    worst, turn, where = 0.0, 0.0, (0.0, 0.0)
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        if math.hypot(x2 - x1, y2 - y1) < 0.5:
            continue
        ang = math.degrees(math.atan2(y2 - y1, x2 - x1)) % 45
        off = min(ang, 45 - ang)
        if off > worst:
            worst, turn, where = off, ang, norm.to_input((x1 + x2) / 2, (y1 + y2) / 2)
    if worst > 8:
        return (f"a piece seems turned by about {round(turn)} degrees near ({where[0]:.1f}, {where[1]:.1f}); "
                f"only turns of 45 degrees are supported")
    return "its edges are near the eight directions but no lengths the pieces make close it"
