"""Exact recovery of a nearly exact outline: a traced picture, a decimal SVG export.

The general reader (reading.py, closing.py) is built for vertices off by up to 0.2 units. A
clean picture traces to within about 0.01-0.05 units, and a program's SVG export to a
thousandth; there the exact figure can be found directly, and more surely:

1. every edge of an exact figure lies on a line ``y = c``, ``x = c``, ``x - y = c`` or
   ``x + y = c`` (its direction's family), and every vertex is where two such lines cross; so
   a figure is its lines' values ``c``, and any choice of values closes every ring by itself;
2. relative to one of its vertices, each value is ``p + q*r2`` with rational ``p``, ``q`` of
   small denominators (pieces slid by halves, thirds or quarters of an edge), so each line's
   value is snapped to the nearest such numbers, simple ones preferred;
3. the drawing's turn, scale and position, and how far its outline lies outside the true one
   (a threshold or a dividing line dilates or erodes the whole outline a little), are refined
   by least squares over all edges against the snapped lines, and the lines are snapped again;
4. combinations of each line's nearest values are tried in order of cost; a figure is kept
   only when its area is exactly 16, it is a valid silhouette and ``accept`` takes it.

The path is chosen by the drawing's own noise (how far its edges run off their lines); above
:data:`MAX_NOISE` it is not tried and the general reader is used.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from engine import InputError

from .closing import FINE, edge_prior
from .numbers import QS2
from .outline import FloatRing, distance_to_rings, fit, largest_distance, nesting_depths, ring_area

__all__ = ["MAX_NOISE", "LowNoise", "read_low_noise"]

R2 = math.sqrt(2)
#: Noise (units, per coordinate, as :func:`_noise` measures it: the scatter of corners about
#: their lines, which is less than how far the lines lie off the exact ones) above which this
#: path is not tried: a 256 px picture measures about 0.001-0.008, a 128 px one up to 0.03,
#: where the general reader did better in the bench.
MAX_NOISE = 0.008
#: Least noise assumed (decimals rounded to a thousandth still differ from the exact values).
MIN_NOISE = 0.003
#: Corners within this (units) of the chord of their neighbours are dropped first.
SIMPLIFY = 0.04
#: Exact values kept per line, and combinations tried at most.
PER_LINE = 5
MAX_COMBINATIONS = 300
#: Cost of a value's parts by denominator: whole numbers are the pieces' own lattice, halves
#: come from the square and slides by half an edge, thirds and quarters from other slides.
DENOMINATOR_COST = {1: 0.0, 2: 1.0, 3: 2.5, 4: 2.5, 6: 4.0, 12: 5.0}
#: Cost per unit of p + q*r2 cancelling beyond CANCEL_FREE units (4 - 2*r2 is a common edge;
#: 10 - 7*r2 is a coincidence).
CANCEL_FREE = 4.0
CANCEL_COST = 0.4
#: The grids a figure's values are sought on (denominators dividing it), with what using the
#: grid costs the figure once: a slid piece moves all its lines by one fraction, so a figure
#: with thirds has them on several lines, while a wrong value picks any denominator at all.
GRIDS = {(1,): 0.0, (1, 2): 2.0, (1, 2, 4): 5.0, (1, 2, 3): 5.0, (1, 2, 3, 4): 8.0}
#: The cost of each line's fraction on a grid.
LINE_FRACTION = 0.3
#: Candidate figures handed to ``accept`` (the solver) at most before the general reader is asked.
MAX_ASKED = 6
#: An outline further than this (units) from the rings before it is a separate island.
ISLAND_GAP = 0.1
#: Area-16 figures kept per grid, and the weight of their edge lengths' prior in the ranking.
PER_GRID = 3
LENGTH_WEIGHT = 0.5
#: The largest |q| in p + q*r2 (a figure is at most about 12 units across).
MAX_Q = 10

# the family of a direction 0..7 (0: y = c, 1: x - y = c, 2: x = c, 3: x + y = c) and the
# vector ``a`` with value(p) = a . p
_FAMILY = [0, 1, 2, 3, 0, 1, 2, 3]
_A = [(0.0, 1.0), (1.0, -1.0), (1.0, 0.0), (1.0, 1.0)]
_UNIT = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def _q_table() -> tuple[np.ndarray, np.ndarray, np.ndarray, list[Fraction]]:
    """Every q = Q/d (lowest terms, |q| <= MAX_Q): its value, denominator cost, denominator
    and the exact fraction."""
    vals, costs, dens, fracs = [], [], [], []
    for d, cost in DENOMINATOR_COST.items():
        for n in range(-MAX_Q * d, MAX_Q * d + 1):
            if math.gcd(n, d) == 1 or (d == 1):
                vals.append(n / d)
                costs.append(cost)
                dens.append(d)
                fracs.append(Fraction(n, d))
    return np.array(vals), np.array(costs), np.array(dens), fracs


_QV, _QC, _QD, _QF = _q_table()


#: An exact value for a line: (cost, p, q, p + q*r2 as a float).
Candidate = tuple[float, Fraction, Fraction, float]


@dataclass(frozen=True)
class Run:
    """A maximal straight stretch of a traced ring: its direction and the traced points on it."""

    direction: int
    points: np.ndarray  # (m, 2): the corners from the stretch's start to its end
    outward: int  # +1 when the figure's outside is on the side value(p) grows, else -1


@dataclass(frozen=True)
class LowNoise:
    """What the low-noise path read: exact rings, the text, and how far the vertices moved."""

    text: str
    exact_rings: list[list[tuple[QS2, QS2]]]
    moved: float
    fitted: list[FloatRing]  # the input rings turned and moved onto the exact ones
    noise: float
    tried: int
    move: np.ndarray  # the similarity (3 x 3) taking the given rings onto the exact figure

    def refined(self, norm: Any) -> Any:
        """``norm`` (a reading.Normalised) with the turn, scale and origin this reading refined,
        so ``to_input`` maps the exact figure onto the drawing (for a preview)."""
        a, b = self.move[:2, :2], self.move[:2, 2]
        k = math.sqrt(abs(float(np.linalg.det(a))))
        turn = math.atan2(float(a[1, 0]), float(a[0, 0]))
        ox, oy = np.linalg.solve(a, -b)  # the given rings' point that lands on the exact (0, 0)
        return replace(norm, scale=norm.scale / k, angle=norm.angle - turn,
                       origin=norm.to_input(float(ox), float(oy)))


def _simplify(ring: FloatRing, tolerance: float) -> FloatRing:
    from .reading import simplify  # reading imports this module

    return simplify(ring, tolerance)


def _joined(rings: Sequence[FloatRing], signs: Sequence[int]) -> bool:
    """Whether every outline (sign 1) reaches the first one through outlines that come within
    :data:`ISLAND_GAP` of each other (holes lie inside an outline and count as joined)."""
    reached = {0}
    grew = True
    while grew:
        grew = False
        for i in range(len(rings)):
            if i in reached or signs[i] < 0:
                continue
            if any(min(distance_to_rings(p, [rings[j]]) for p in rings[i]) <= ISLAND_GAP
                   or min(distance_to_rings(p, [rings[i]]) for p in rings[j]) <= ISLAND_GAP
                   for j in reached if signs[j] > 0):
                reached.add(i)
                grew = True
    return all(i in reached or signs[i] < 0 for i in range(len(rings)))


def _runs(rings: Sequence[FloatRing]) -> list[list[Run]] | None:
    """Each ring's straight stretches, edges snapped to the eight directions."""
    depths = nesting_depths(rings)
    out = []
    for ring, depth in zip(rings, depths):
        n = len(ring)
        dirs = [round(math.atan2(ring[(i + 1) % n][1] - ring[i][1], ring[(i + 1) % n][0] - ring[i][0])
                      / (math.pi / 4)) % 8 for i in range(n)]
        start = next((i for i in range(n) if dirs[i] != dirs[i - 1]), None)
        if start is None:
            return None
        ccw = ring_area(ring) > 0
        runs: list[Run] = []
        i = start
        while True:
            k = dirs[i]
            pts = [ring[i]]
            j = i
            while dirs[j % n] == k and len(pts) <= n:
                j += 1
                pts.append(ring[j % n])
            # outside of the figure: right of the direction for an outline drawn counter-clockwise
            ux, uy = _UNIT[k]
            right = (uy, -ux)
            ax, ay = _A[_FAMILY[k]]
            side = 1 if right[0] * ax + right[1] * ay > 0 else -1
            if ccw != (depth % 2 == 0):
                side = -side
            runs.append(Run(k, np.array(pts), side))
            i = j % n
            if i == start:
                break
        if len(runs) < 3:
            return None
        for a, b in zip(runs, runs[1:] + runs[:1]):
            if _FAMILY[a.direction] == _FAMILY[b.direction]:  # a spike or a reversal
                return None
        out.append(runs)
    return out


def _noise(runs: list[list[Run]]) -> float:
    """The drawing's noise per coordinate: how far the corners lie off their stretch's line."""
    res = []
    for ring in runs:
        for r in ring:
            ax, ay = _A[_FAMILY[r.direction]]
            v = (r.points[:, 0] * ax + r.points[:, 1] * ay) / math.hypot(ax, ay)
            res.extend((v - v.mean()).tolist())
    if len(res) < 3:
        return math.inf
    return float(np.sqrt(np.mean(np.square(res)) * 2))


def _values(runs: list[list[Run]], move: np.ndarray, dilate: float) -> list[float]:
    """Each line's traced value, after the correction ``move`` (3x3 affine map of the points)
    and the outline's dilation ``dilate`` (units) taken off."""
    out = []
    for ring in runs:
        for r in ring:
            pts = r.points @ move[:2, :2].T + move[:2, 2]
            ax, ay = _A[_FAMILY[r.direction]]
            out.append(float((pts[:, 0] * ax + pts[:, 1] * ay).mean()) - dilate * r.outward * math.hypot(ax, ay))
    return out


def _candidates(v: float, sigma: float, grid: tuple[int, ...] | None = None) -> list[Candidate]:
    """Exact values p + q*r2 near ``v``, (cost, p, q, value), best first; with ``grid``, only
    those whose parts' denominators are in it, at a small cost per fraction (the figure pays
    for its grid once, see GRIDS)."""
    p0 = v - _QV * R2
    out: list[Candidate] = []
    window = 4 * sigma + 0.002
    if grid is None:
        qcosts = _QC
        allowed = np.ones(len(_QV), dtype=bool)
    else:
        qcosts = np.where(_QD > 1, LINE_FRACTION, 0.0)
        allowed = np.isin(_QD, grid)
    for d, dcost in DENOMINATOR_COST.items():
        if grid is not None:
            if d not in grid:
                continue
            dcost = LINE_FRACTION if d > 1 else 0.0
        num = np.round(p0 * d)
        err = num / d - p0
        for k in np.nonzero((np.abs(err) <= window) & allowed)[0]:
            n = int(num[k])
            if d > 1 and math.gcd(n, d) != 1:
                continue
            q = float(_QV[k])
            # p and q nearly cancelling (10 - 7*r2 for 0.1) is how a wrong value fits anything
            cancel = max(0.0, abs(n / d) + abs(q) * R2 - abs(v) - CANCEL_FREE)
            cost = float(err[k]) ** 2 / (2 * sigma * sigma) + dcost + float(qcosts[k]) + CANCEL_COST * cancel
            out.append((cost, Fraction(n, d), _QF[k], n / d + q * R2))
    out.sort(key=lambda t: t[0])
    return out[:PER_LINE]


def _corner(fa: int, a, fb: int, b, half=0.5):
    """Where the line of family ``fa`` at value ``a`` crosses that of ``fb`` at ``b``, in floats
    or, given ``half`` as an exact number, exactly (:func:`_exact_corner`)."""
    if fa > fb:
        fa, a, fb, b = fb, b, fa, a
    if (fa, fb) == (0, 2):
        return (b, a)
    if (fa, fb) == (0, 1):
        return (a + b, a)
    if (fa, fb) == (0, 3):
        return (b - a, a)
    if (fa, fb) == (1, 2):
        return (b, b - a)
    if (fa, fb) == (2, 3):
        return (a, b - a)
    return ((a + b) * half, (b - a) * half)  # (1, 3)


_HALF = QS2(Fraction(1, 2))


def _exact_corner(fa: int, a: QS2, fb: int, b: QS2) -> tuple[QS2, QS2]:
    return _corner(fa, a, fb, b, _HALF)


def _rings(runs: list[list[Run]], values: Sequence[float]) -> list[list[tuple[float, float]]]:
    out, k = [], 0
    for ring in runs:
        vs = values[k:k + len(ring)]
        fam = [_FAMILY[r.direction] for r in ring]
        out.append([_corner(fam[i - 1], vs[i - 1], fam[i], vs[i]) for i in range(len(ring))])
        k += len(ring)
    return out


def _refine(runs: list[list[Run]], exact: Sequence[float], move: np.ndarray) -> tuple[np.ndarray, float]:
    """The small turn, scale, shift and dilation that bring the traced lines best onto the
    exact ones (linear least squares over every traced corner of every stretch)."""
    rows, rhs = [], []
    k = 0
    for ring in runs:
        for r in ring:
            pts = r.points @ move[:2, :2].T + move[:2, 2]
            ax, ay = _A[_FAMILY[r.direction]]
            na = math.hypot(ax, ay)
            ux, uy = ax / na, ay / na
            for x, y in pts:
                # residual (distance off the exact line) = u.(t + theta*J p + s*p) + d*outward
                rows.append([ux, uy, ux * -y + uy * x, ux * x + uy * y, r.outward])
                rhs.append((ax * x + ay * y - exact[k]) / na)
            k += 1
    a, b = np.array(rows), np.array(rhs)
    sol, *_ = np.linalg.lstsq(a, b, rcond=None)
    # once more without the lines a wrong snap put far off (a few wrong values must not
    # tilt or stretch the whole figure)
    res = np.abs(a @ sol - b)
    keep = res <= max(3 * float(np.sqrt(np.mean(res ** 2))), 1e-4)
    if keep.sum() >= 8:
        sol, *_ = np.linalg.lstsq(a[keep], b[keep], rcond=None)
    tx, ty, th, s, d = (float(v) for v in sol)
    c, sn = math.cos(-th) / (1 + s), math.sin(-th) / (1 + s)
    corr = np.array([[c, -sn, 0.0], [sn, c, 0.0], [0.0, 0.0, 1.0]])
    shift = np.array([[1.0, 0.0, -tx], [0.0, 1.0, -ty], [0.0, 0.0, 1.0]])
    return corr @ shift @ move, d


def _area(rings: list[list[tuple[float, float]]], signs: Sequence[int]) -> float:
    """The area enclosed: outlines count, holes (``signs`` -1) are taken away."""
    return sum(sign * abs(ring_area(r)) for r, sign in zip(rings, signs))


def read_low_noise(rings: Sequence[FloatRing], accept: Callable[[str], bool] | None = None,
                   deadline: float | None = None) -> LowNoise | None:
    """The exact figure of a nearly exact outline (figure units: area about 16, turned to the
    eight directions), or None when the outline is too noisy or no exact figure was found
    (the caller then uses the general reader)."""
    from .silhouette import build_silhouette, format_silhouette  # circular at import time

    deadline = deadline if deadline is not None else time.monotonic() + 0.5
    simple = [_simplify(r, SIMPLIFY) for r in rings]
    simple = [r for r in simple if len(r) >= 3 and abs(ring_area(r)) > 0.02]
    if not simple:
        return None
    depth = nesting_depths(simple)
    simple = [r for _, r in sorted(zip(depth, simple), key=lambda t: (t[0], -abs(ring_area(t[1]))))]
    signs = [1 if d % 2 == 0 else -1 for d in nesting_depths(simple)]
    # separate islands are placed freely: their offset is any number, which snapping to the
    # grid would guess; the general reader weighs offsets on their own. Outlines touching at a
    # point join the figure whichever order they come in (a chain of pieces meeting corner to
    # corner traces as several outlines, the middle one not the largest).
    if not _joined(simple, signs):
        return None
    runs = _runs(simple)
    if runs is None:
        return None
    noise = _noise(runs)
    if noise > MAX_NOISE:
        return None
    sigma = max(MIN_NOISE, noise)
    # the corner of the largest outline nearest its middle is the origin: every value is
    # relative to it, and the values stay small (a scale error grows with the distance)
    first = runs[0]
    move = np.eye(3)
    raw = _values(runs, move, 0.0)
    fam0 = [_FAMILY[r.direction] for r in first]
    pts0 = [_corner(fam0[i - 1], raw[i - 1], fam0[i], raw[i]) for i in range(len(first))]
    mx, my = sum(p[0] for p in pts0) / len(pts0), sum(p[1] for p in pts0) / len(pts0)
    ox, oy = min(pts0, key=lambda p: math.hypot(p[0] - mx, p[1] - my))
    move = np.array([[1.0, 0.0, -ox], [0.0, 1.0, -oy], [0.0, 0.0, 1.0]])
    dilate = 0.0
    best: list[float] = []
    for _ in range(4):
        vals = _values(runs, move, dilate)
        cands = [_candidates(v, max(sigma, 0.01)) for v in vals]
        if not all(cands):
            return None
        snapped = [c[0][3] for c in cands]
        if snapped == best:
            break
        best = snapped
        move, dilate = _refine(runs, snapped, move)
    vals = _values(runs, move, dilate)
    # the lines' own scatter about the snapped values is the noise the snaps are judged in
    resid = [v - b for v, b in zip(vals, best)]
    sigma = max(MIN_NOISE, float(np.sqrt(np.mean(np.square(resid)))))
    fam = [_FAMILY[r.direction] for ring in runs for r in ring]
    sizes = [len(ring) for ring in runs]
    # area-16 figures found on each grid, then ranked with their edges' lengths: two exact
    # figures a hundredth apart are told apart by which one the pieces' edges make
    ranked: list[tuple[float, str, list]] = []
    tried = 0
    for grid, grid_cost in sorted(GRIDS.items(), key=lambda t: t[1]):
        if time.monotonic() > deadline or (ranked and grid_cost >= ranked[0][0]):
            break
        cands = [_candidates(v, sigma, grid) for v in vals]
        if not all(cands):
            continue
        kept = 0
        for cost, exact, count in _search(runs, cands, fam, sizes, signs, deadline):
            tried += count
            try:
                sil = build_silhouette([(r, "ring") for r in exact])
            except InputError:
                continue
            if sil.messages:  # the area was not exactly 16
                continue
            total = grid_cost + cost + LENGTH_WEIGHT * _length_prior(exact)
            ranked.append((total, format_silhouette(sil), exact))
            ranked.sort(key=lambda t: t[0])
            kept += 1
            if kept >= PER_GRID:
                break
    for asked, (_, text, exact) in enumerate(ranked):
        # the solver tells a tangram figure from a near one the pieces cannot make
        if asked >= MAX_ASKED or time.monotonic() > deadline:
            break
        if accept is not None and not accept(text):
            continue
        flo = [[(float(x), float(y)) for x, y in r] for r in exact]
        # into the exact figure's frame first (the fit only settles the last small turn)
        placed = [[(float(move[0, 0] * x + move[0, 1] * y + move[0, 2]),
                    float(move[1, 0] * x + move[1, 1] * y + move[1, 2])) for x, y in r] for r in rings]
        fitted = fit(placed, flo)
        moved = largest_distance([p for r in fitted for p in r], flo)
        return LowNoise(text, exact, moved, fitted, noise, tried, move)
    return None


def _length_prior(rings: list[list[tuple[QS2, QS2]]]) -> float:
    """How unusual the figure's edge lengths are as sums of the pieces' edges (closing.py)."""
    total = 0.0
    for r in rings:
        for (x0, y0), (x1, y1) in zip(r, r[1:] + r[:1]):
            dx, dy = x1 - x0, y1 - y0
            length = abs(dx) if float(dx) else abs(dy)
            if float(dx) and float(dy):
                length = abs(dx) * QS2(0, 1)  # a diagonal: r2 times its run
            la, lb = length.a * 12, length.b * 12
            if la.denominator != 1 or lb.denominator != 1:
                total += 2 * FINE
                continue
            total += edge_prior(int(la), int(lb))
    return total


def _search(runs: list[list[Run]], cands: list[list[Candidate]], fam: list[int],
            sizes: list[int], signs: list[int], deadline: float) -> Iterator[tuple[float, list, int]]:
    """Combinations of each line's values in order of cost whose area is 16 (in floats):
    yields (cost, exact rings, combinations looked at)."""
    start = tuple(0 for _ in cands)
    heap = [(sum(c[0][0] for c in cands), start)]
    seen = {start}
    tried = 0
    while heap and tried < MAX_COMBINATIONS and time.monotonic() < deadline:
        cost, idx = heapq.heappop(heap)
        tried += 1
        for i in range(len(idx)):
            if idx[i] + 1 < len(cands[i]):
                nxt = idx[:i] + (idx[i] + 1,) + idx[i + 1:]
                if nxt not in seen:
                    seen.add(nxt)
                    heapq.heappush(heap, (cost - cands[i][idx[i]][0] + cands[i][idx[i] + 1][0], nxt))
        values = [cands[i][j][3] for i, j in enumerate(idx)]
        if abs(_area(_rings(runs, values), signs) - 16) > 1e-6:
            continue
        exact_vals = [QS2(cands[i][j][1], cands[i][j][2]) for i, j in enumerate(idx)]
        exact, k = [], 0
        for size in sizes:
            vs, fs = exact_vals[k:k + size], fam[k:k + size]
            exact.append([_exact_corner(fs[i - 1], vs[i - 1], fs[i], vs[i]) for i in range(size)])
            k += size
        yield cost, exact, tried
        tried = 0
