"""Reading a noisy outline (decimals from a tracing, a scan or a drawing) as an exact figure.

An exact figure is read exactly by :func:`~plugins.tangram.silhouette.build_silhouette`; this
module is the fallback when decimal input is not exact. The steps:

1. the scale comes from the area (the seven pieces cover 16 units), the rotation from the edges
   (the length-weighted mean of 8 x angle, refined on the edges that agree with it, so a piece
   at a free angle does not tilt the whole figure);
2. each ring is simplified (corners that bend less than a threshold are dropped) and every edge
   is snapped to the nearest of the eight 45-degree directions;
3. exact edge lengths a + b*r2 are found by a beam search that closes each ring exactly
   (closing.py); a lone outline must also have area exactly 16;
4. candidate figures are tried in order of distance; the first that ``accept`` takes (the
   caller asks the solver) is kept, all within :data:`BUDGET` seconds.

Nothing here is trusted: every candidate goes through ``build_silhouette`` like typed input.
When nothing fits, :mod:`.refusal` says why in words.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from engine import InputError

from .closing import PRIOR, SIGMA, Walk, closed_walks, length_cost, noise_level, scales
from .geometry import DIRECTION_STEPS
from .lownoise import read_low_noise
from .numbers import QS2
from .outline import FloatRing, distance_to_rings, fit, hausdorff, nesting_area, nesting_depths, ring_area
from .refusal import refusal

__all__ = ["BUDGET", "Normalised", "Reading", "hausdorff", "normalise", "read_noisy", "simplify"]

R2 = math.sqrt(2)
#: Corners bending less than this (degrees) are taken as noise on a straight edge.
MIN_TURN = 22.5
#: Figures tried at most, and the walks kept per ring.
MAX_FIGURES = 80
WALKS_PER_RING = 30
#: Seconds spent looking for a figure before refusing in words (reading never hangs a request).
BUDGET = 1.0
#: The share of BUDGET the low-noise path (lownoise.py) may spend before the general search.
LOW_NOISE_SHARE = 0.5
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
    for _ in range(3):
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
        raise InputError("the outline encloses no area")
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


def simplify(ring: FloatRing, tolerance: float = 0.12) -> FloatRing:
    """Drop vertices that lie within ``tolerance`` of the chord of their neighbours or whose
    corner bends less than MIN_TURN, least significant first."""
    pts = list(ring)
    while len(pts) > 3:
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
        if best_i < 0:
            break
        pts.pop(best_i)
    return pts


@dataclass(frozen=True)
class Corners:
    """A simplified ring as the search needs it: where each snapped edge starts, its
    direction 0..7 and its drawn length along that direction."""

    points: list[tuple[float, float]]
    dirs: list[int]
    lengths: list[float]


def corners(ring: FloatRing) -> Corners:
    """Edges snapped to the eight directions, consecutive equal directions merged."""
    n = len(ring)
    runs: list[list] = []  # [direction, start point, along-length]
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        k = round(math.atan2(y2 - y1, x2 - x1) / (math.pi / 4)) % 8
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


def _figures(cs: list[Corners], walks: list[list[Walk]], limit: int):
    """Candidate figures (cost, exact rings) in order of total cost: a walk per ring, and for
    each ring after the first, its exact offset from the nearest corner of the first."""
    start0 = _snap_start(cs[0].points[0])
    # per ring after the first: the nearest corner of ring 0 and offset candidates
    links = []
    for c in cs[1:]:
        p = c.points[0]
        j = min(range(len(cs[0].points)), key=lambda i: math.dist(cs[0].points[i], p))
        q = cs[0].points[j]
        links.append((j, _offsets(p[0] - q[0]), _offsets(p[1] - q[1])))
    # choices per ring: ring 0 its walks; other rings walk x offset-x x offset-y
    choices: list[list[tuple[float, tuple]]] = [[(w.cost, (w,)) for w in walks[0]]]
    for i, (_j, ox, oy) in enumerate(links):
        ch = [(w.cost + cx + cy, (w, x, y)) for w in walks[i + 1] for cx, x in ox for cy, y in oy]
        ch.sort(key=lambda t: t[0])
        choices.append(ch[:40])
    # best-first over the product of choices
    first = tuple(0 for _ in choices)
    heap = [(sum(c[0][0] for c in choices), first)]
    seen = {first}
    out = 0
    while heap and out < limit:
        cost, idx = heapq.heappop(heap)
        w0 = choices[0][idx[0]][1][0]
        ring0 = [(start0[0] + x, start0[1] + y) for x, y in w0.points]
        rings = [ring0]
        for i, k in enumerate(idx[1:]):
            w, dx, dy = choices[i + 1][k][1]
            bx, by = ring0[links[i][0]]
            rings.append([(bx + dx + x, by + dy + y) for x, y in w.points])
        out += 1
        yield cost, rings
        for i in range(len(idx)):
            if idx[i] + 1 < len(choices[i]):
                nxt = idx[:i] + (idx[i] + 1,) + idx[i + 1:]
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, (cost - choices[i][idx[i]][0] + choices[i][idx[i] + 1][0], nxt))


def _walks(cs: list[Corners], lone: float | None) -> list[list[Walk]]:
    """Closed exact walks per ring, best first, over a few scale corrections (the area gives
    the scale only to a few per cent on a noisy outline)."""
    out: list[list[Walk]] = [[] for _ in cs]
    seen: list[set] = [set() for _ in cs]
    across = [noise_level(c.points, c.dirs) for c in cs]
    sigma = max(across)
    for f in scales([ln for c in cs for ln in c.lengths]):
        for i, c in enumerate(cs):
            p0 = c.points[0]
            pts = [(p0[0] + f * (x - p0[0]), p0[1] + f * (y - p0[1])) for x, y in c.points]
            for w in closed_walks(pts, c.dirs, [f * ln for ln in c.lengths], limit=WALKS_PER_RING, area=lone,
                                  sigma=sigma):
                if w.points not in seen[i]:
                    seen[i].add(w.points)
                    out[i].append(Walk(w.cost + SCALE_COST * abs(f - 1), w.points))
    for w in out:
        w.sort(key=lambda t: t.cost)
    return [w[:WALKS_PER_RING] for w in out]


def read_noisy(rings: Sequence[FloatRing], accept: Callable[[str], bool] | None = None) -> Reading:
    """The nearest exact tangram figure to ``rings`` (input coordinates, y up).

    ``accept(text)`` may reject a candidate (e.g. one the solver proves it cannot cover); by
    default a candidate is kept when it parses with area 16. Raises InputError in words when
    nothing fits, within about :data:`BUDGET` seconds.
    """
    from .silhouette import build_silhouette, format_silhouette  # circular at import time

    if not rings:
        raise InputError("no outline given")
    deadline = time.monotonic() + BUDGET
    norm = normalise(rings)
    # a nearly exact outline (a clean picture, a program's SVG) is read directly; the general
    # search below is for noisier ones
    low = read_low_noise(norm.rings, accept, min(deadline, time.monotonic() + LOW_NOISE_SHARE * BUDGET))
    if low is not None:
        return Reading(low.text, low.moved, low.refined(norm), low.exact_rings, low.fitted, low.tried)
    simple = [simplify(r) for r in norm.rings]
    simple = [r for r in simple if len(r) >= 3 and abs(ring_area(r)) > 0.05]
    if not simple:
        raise InputError("the outline has no corners left once the noise is removed")
    # outlines first (a hole is placed relative to the first ring)
    depth = nesting_depths(simple)
    simple = [r for _, r in sorted(zip(depth, simple), key=lambda t: (t[0], -abs(ring_area(t[1]))))]
    cs = [corners(r) for r in simple]
    lone = 16.0 if len(cs) == 1 else None
    walks = _walks(cs, lone)
    tried = 0
    unsolved = 0
    if all(walks):
        for _, exact in _figures(cs, walks, MAX_FIGURES):
            if time.monotonic() > deadline:
                break
            tried += 1
            try:
                sil = build_silhouette([(r, "ring") for r in exact])
            except InputError:
                continue
            if sil.messages:  # scaled: the area was not 16, so a length is wrong
                continue
            text = format_silhouette(sil)
            if accept is not None and not accept(text):
                unsolved += 1
                continue
            fl = [[(float(x), float(y)) for x, y in r] for r in exact]
            fitted = fit(norm.rings, fl)
            moved = max(distance_to_rings(p, fl) for r in fitted for p in r)
            return Reading(text, moved, norm, exact, fitted, tried)
    raise InputError(refusal(norm, simple, [len(w) for w in walks], tried, unsolved))
