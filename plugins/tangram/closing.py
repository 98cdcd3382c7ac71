"""Exact closed walks near a noisy ring: the heart of reading an outline as an exact figure.

A ring whose edges are snapped to the eight directions is an exact figure once every edge has
an exact length a + b*r2. The lengths are chosen by a beam search along the ring: each vertex
keeps the best few hundred exact positions (cost: how far each edge's length moved, a small
penalty for unusual numbers, and how far the vertex drifted from where it was drawn). The last
two edges are not guessed but solved exactly so that the ring closes; a slid piece's odd offset
(a third or a quarter of an edge) is often absorbed there.

Exact numbers are kept as integers: lengths in twelfths, ``L = (la + lb*r2) / 12``, and
positions in 24ths, ``x = (xa + xb*r2) / 24``, so the search does no Fraction arithmetic.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from .geometry import DIRECTION_STEPS
from .numbers import QS2

R2 = math.sqrt(2)
#: Vertices kept per step of the beam search.
BEAM = 300
#: Exact lengths considered per edge.
PER_EDGE = 7
#: Half-width (units) of the window of exact lengths around a drawn or wanted length.
WINDOW = 0.55
#: The noise (units, per coordinate) the displacement cost is measured in: a vertex moved by
#: SIGMA costs 1/2.
SIGMA = 0.1
#: The least noise assumed (a clean tracing still has rounding and a few pixels of error).
MIN_SIGMA = 0.03
#: Weight of a length's complexity (length_cost) against the displacement, for ring offsets.
PRIOR = 8.0
#: Edge length priors (edge_prior), in the displacement's units: 1 is a vertex moved by 0.14.
ODD = 2.0
HALF = 2.5
THIRD = 4.5
FINE = 7.0
NEGATIVE = 1.5
MIXED = 0.3
#: How far along its direction an edge is asked to reach when the place it should reach lies
#: behind its start: just past the shortest length searched for (0.05).
LEAST_ALONG = 0.06
#: The error of a drawn length (two vertices' noise), for ranking an edge's exact lengths.
LENGTH_SIGMA = 0.14
#: A walk whose mean squared vertex displacement exceeds this (units squared) is dropped.
MAX_DISP = 0.36

_FINE = (1, 2, 3, 4, 6, 12)  # denominators a length's parts may have (twelfths)


def _penalty(num: int, den: int) -> float:
    """How unusual a part ``num/den`` of a length is: whole numbers cost nothing, halves a
    little (pieces slid by half an edge), thirds and quarters more (other slides)."""
    f = Fraction(num, den)
    if f.denominator == 1:
        return 0.0
    if f.denominator == 2:
        return 0.12
    if f.denominator in (3, 4):
        return 0.3
    return 0.6


def length_cost(la: int, lb: int) -> float:
    """The complexity penalty of the length (la + lb*r2)/12."""
    pen = _penalty(la, 12) + _penalty(lb, 12)
    if la and lb:
        pen += 0.06
    if la < 0 or lb < 0:
        pen += 0.1
    return pen


def _part_prior(num: int, den: int, even: bool) -> float:
    """How unusual a part ``num/den`` of an edge length is, in the displacement's units."""
    f = Fraction(num, den)
    if f.denominator == 1:
        return ODD if even and f.numerator % 2 else 0.0
    if f.denominator == 2:
        return HALF
    if f.denominator in (3, 4):
        return THIRD
    return FINE


def edge_prior(la: int, lb: int) -> float:
    """The complexity of the edge length (la + lb*r2)/12, in the displacement cost's units.

    The pieces' edges are r2, 2, 2r2 and 4 (area 16), so an outline's edges are mostly sums
    ``a + b*r2`` with ``a`` even and ``b`` whole; a difference of two (``2 - r2``, where one
    piece's edge ends part-way along another's) costs a little, an odd ``a`` or a half (a piece
    slid by half an edge) more, thirds and quarters more again."""
    pen = _part_prior(la, 12, True) + _part_prior(lb, 12, False)
    if la < 0 or lb < 0:
        pen += NEGATIVE
    elif la and lb:
        pen += MIXED
    return pen


def _table() -> list[tuple[float, int, int, float]]:
    """Every length the pieces plausibly make: (value, la, lb, penalty), by value."""
    out = []
    for la in range(-24, 145):
        if la % 3 and la % 4:
            continue
        for lb in range(-72, 193):
            if lb % 3 and lb % 4:
                continue
            if (la < 0 and lb < 0) or (la % 6 and lb % 6 and la and lb):
                continue  # both parts fine: too unlikely to be worth the search
            if (la < 0 and lb > 36) or (lb < 0 and (lb < -24 or la > 48)):
                continue  # a short length as a difference of long ones: a coincidence, not a piece
            v = (la + lb * R2) / 12
            if 0.05 < v <= 12.5:
                out.append((v, la, lb, edge_prior(la, lb)))
    out.sort()
    return out


_LENGTHS = _table()
_VALUES = [t[0] for t in _LENGTHS]
_PRIORS = {(la, lb): pen for _v, la, lb, pen in _LENGTHS}


def candidates(length: float, count: int = PER_EDGE, window: float = 0.55,
               sigma: float = 0.14) -> list[tuple[float, int, int]]:
    """The ``count`` exact lengths nearest ``length`` (with their penalty) as (cost, la, lb).

    Looked up for a length rounded to 1/200 unit (a search asks for the same lengths over and
    over, and a hundredth of the noise does not change which lengths are near)."""
    return _candidates(round(length * 200), count, window, round(sigma, 4))


@functools.lru_cache(maxsize=65536)
def _candidates(length200: int, count: int, window: float, sigma: float) -> list[tuple[float, int, int]]:
    import bisect

    length = length200 / 200
    lo = bisect.bisect_left(_VALUES, length - window)
    hi = bisect.bisect_right(_VALUES, length + window)
    inv = 1 / (2 * sigma * sigma)
    scored = sorted(((v - length) ** 2 * inv + pen, la, lb) for v, la, lb, pen in _LENGTHS[lo:hi])
    return scored[:count]


def _whole_lengths() -> list[float]:
    values = sorted({a + b * R2 for a in range(0, 13) for b in range(0, 9) if 0 < a + b * R2 <= 13})
    return values


_WHOLE = _whole_lengths()


def scales(lengths: Sequence[float], count: int = 3, spread: float = 0.08) -> list[float]:
    """1, then factors near 1 that bring the drawn edge lengths nearest to whole sums of piece
    edges (a + b*r2, a and b whole), best first: the area gives the scale only to a few per
    cent, since noise on every vertex changes the area too."""
    import bisect

    def cost(f: float) -> float:
        total = 0.0
        for ln in lengths:
            v = ln * f
            i = bisect.bisect_left(_WHOLE, v)
            near = min((abs(_WHOLE[j] - v) for j in (i - 1, i) if 0 <= j < len(_WHOLE)), default=1.0)
            total += min(near, 0.35)
        return total

    grid = [1 + spread * (k / 20) for k in range(-20, 21)]
    scored = [(cost(f) + 0.5 * abs(f - 1), f) for f in grid]
    minima = [scored[i] for i in range(len(scored))
              if all(scored[i][0] <= scored[j][0] for j in (i - 1, i + 1) if 0 <= j < len(scored))]
    minima.sort()
    out = [f for _, f in minima[:count]]
    # the area's own scale first: on the bench it holds the true ring far more often than the
    # best of the lengths' minima (116 against 80 of 142 rings at noise 0.1 and 0.2), and a
    # busy machine may leave time for one scale only
    return [1.0] + [f for f in out if f != 1.0]


def _step(k: int, la: int, lb: int) -> tuple[int, int, int, int]:
    """The move (in 24ths) along direction ``k`` by the length (la + lb*r2)/12."""
    sx, sy = DIRECTION_STEPS[k]
    if sx and sy:  # diagonal: L/r2 per axis = (lb + la*r2/2)/12
        return (2 * lb * sx, la * sx, 2 * lb * sy, la * sy)
    return (2 * la * sx, 2 * lb * sx, 2 * la * sy, 2 * lb * sy)


def noise_level(corners: Sequence[tuple[float, float]], dirs: Sequence[int]) -> float:
    """The drawing's noise per coordinate (units), from how far each edge's far end lies off its
    snapped direction (two vertices' noise across the edge), kept within [MIN_SIGMA, SIGMA]."""
    across = []
    n = len(dirs)
    for i in range(n):
        (x1, y1), (x2, y2) = corners[i], corners[(i + 1) % n]
        ux, uy = _funit(dirs[i])
        across.append(((x2 - x1) * uy - (y2 - y1) * ux) ** 2)
    if not across:
        return SIGMA
    rms = math.sqrt(sum(across) / len(across) / 2)
    return min(SIGMA, max(MIN_SIGMA, rms))


def _fl(a: int, b: int) -> float:
    return (a + b * R2) / 24


@dataclass(frozen=True)
class Walk:
    """An exact closed ring near a noisy one: its vertices relative to the first corner."""

    cost: float
    points: tuple[tuple[QS2, QS2], ...]  # exact, corner 0 at (0, 0)
    scale: float = 1.0  # the correction to the area's scale the walk was found at

    def floats(self) -> list[tuple[float, float]]:
        return [(float(x), float(y)) for x, y in self.points]


def _unit(k: int) -> tuple[QS2, QS2]:
    sx, sy = DIRECTION_STEPS[k]
    if sx and sy:
        h = QS2(0, Fraction(1, 2))
        return h * sx, h * sy
    return QS2(sx), QS2(sy)


def _close(pos, k1: int, k2: int) -> tuple[QS2, QS2] | None:
    """Exact lengths along ``k1`` then ``k2`` that lead from ``pos`` back to (0, 0)."""
    xa, xb, ya, yb = pos
    x, y = QS2(Fraction(xa, 24), Fraction(xb, 24)), QS2(Fraction(ya, 24), Fraction(yb, 24))
    (ux1, uy1), (ux2, uy2) = _unit(k1), _unit(k2)
    det = ux1 * uy2 - uy1 * ux2
    if det == 0:
        return None
    l1 = (-x * uy2 + y * ux2) / det
    l2 = (-ux1 * y + uy1 * x) / det
    if l1.sign() <= 0 or l2.sign() <= 0:
        return None
    return l1, l2


def _qs2_cost(q: QS2) -> float:
    if 12 % q.a.denominator or 12 % q.b.denominator:
        return 0.9 + length_cost(0, 0)  # finer than twelfths: a poor reading, kept as a last resort
    return length_cost(int(q.a * 12), int(q.b * 12))


def _prior(la: int, lb: int) -> float:
    return edge_prior(la, lb)


def _qs2_prior(q: QS2) -> float:
    if 12 % q.a.denominator or 12 % q.b.denominator:
        return FINE + 2.0  # finer than twelfths: a poor reading, kept as a last resort
    return edge_prior(int(q.a * 12), int(q.b * 12))


def _moves(k0: int, drawn: float, want: tuple[float, float], exact_k: bool, lsig: float):
    """Exact moves for an edge drawn along direction ``k0`` (``drawn`` units long) from a
    vertex whose ideal next vertex is ``want`` away: lengths near the projection of ``want`` on
    the direction (so an error made earlier in the ring is taken back here, instead of each edge
    being snapped on its own) and near the drawn length. (prior, move in 24ths, (k, la, lb))."""
    out: list[tuple[float, tuple[int, int, int, int], tuple[int, int, int]]] = []
    for k, along in _directions(k0, drawn, want, exact_k):
        out.extend(_moves_along(k, round(along * 200), round(lsig, 4))[0])
    return out


def _directions(k0: int, drawn: float, want: tuple[float, float], exact_k: bool) -> list[tuple[int, float]]:
    """The directions an edge drawn along ``k0`` may take (its neighbours too for a short edge
    that ``want`` does not lie far across), each with how far along it ``want`` lies."""
    ks = [k0] if exact_k or drawn > 1.6 else [k0, (k0 + 1) % 8, (k0 - 1) % 8]
    out = []
    for k in ks:
        ux, uy = _funit(k)
        along = want[0] * ux + want[1] * uy
        across = abs(want[0] * uy - want[1] * ux)
        if k != k0 and across > 0.6 * max(drawn, 0.05):
            continue
        if along > 0.05:
            out.append((k, along))
        elif k == k0:
            # an edge whose wanted end lies behind its start (the noise so far points back; in
            # practice a short edge) still takes its drawn direction, at the least lengths
            # (just above the 0.05 cut): with no move at all the whole branch ended there, and
            # the ring with it
            out.append((k, LEAST_ALONG))
    return out


@functools.lru_cache(maxsize=8192)  # about 3 KB each; a reading adds a few hundred
def _moves_along(k: int, along200: int, lsig: float) -> tuple[list, np.ndarray, np.ndarray]:
    """The moves along direction ``k`` by the exact lengths nearest ``along200`` / 200 units
    (:func:`candidates`, which rounds the same way): as (prior, move in 24ths, (k, la, lb)), and
    as arrays of the priors and the moves for the beam of :func:`_half_beam`."""
    found = [(_PRIORS[(la, lb)], _step(k, la, lb), (k, la, lb))
             for _c, la, lb in _candidates(along200, PER_EDGE, WINDOW, lsig)]
    priors = np.array([c for c, _d, _n in found], dtype=np.float64)
    steps = np.array([d for _c, d, _n in found], dtype=np.int64).reshape(-1, 4)
    priors.setflags(write=False)  # shared by every caller of the cache
    steps.setflags(write=False)
    return found, priors, steps


def closed_walks(corners: Sequence[tuple[float, float]], dirs: Sequence[int], lengths: Sequence[float],
                 limit: int = 40, area: float | None = None, sigma: float = SIGMA) -> list[Walk]:
    """Up to ``limit`` exact closed rings near the noisy one, best first.

    ``corners[i]`` is where edge ``i`` starts (figure units), ``dirs[i]`` its direction 0..7 and
    ``lengths[i]`` its drawn length along that direction. With ``area``, only rings of exactly
    that area (up to sign) are kept: a lone outline must have area 16.

    The ring's lengths are fitted together: a walk's cost is the total squared displacement of
    its exact vertices from the drawn ones, after the best translation (kept as running sums, so
    where the walk happened to start does not matter), in units of the noise, plus the
    lengths' complexity (whole lengths cost nothing, halves a little, thirds and finer more).
    """
    n = len(dirs)
    if n < 3:
        return []
    # the two closing edges: the consecutive non-parallel pair with the longest shorter edge
    best_j, best_len = -1, -1.0
    for j in range(n):
        j2 = (j + 1) % n
        if (dirs[j] - dirs[j2]) % 4 and min(lengths[j], lengths[j2]) > best_len:
            best_j, best_len = j, min(lengths[j], lengths[j2])
    if best_j < 0:
        return []
    start = (best_j + 2) % n  # walk the others first, starting just after the pair
    order = [(start + i) % n for i in range(n)]
    p0 = corners[start]
    rel = [(corners[e][0] - p0[0], corners[e][1] - p0[1]) for e in order]
    inv = 1 / (2 * sigma * sigma)
    lsig = LENGTH_SIGMA * sigma / SIGMA
    # state: exact position and (rounded) twice the area so far -> (cost, path, twice area,
    # prior so far, sum of residuals x, y, sum of squared residuals); the area is part of the key
    # so that a cheaper walk to the same point does not push out the one whose area comes out right
    Beam = dict[tuple, tuple[float, tuple, float, float, float, float, float]]
    beam: Beam = {(0, 0, 0, 0, 0.0): (0.0, (), 0.0, 0.0, 0.0, 0.0, 0.0)}
    for step, e in enumerate(order[:-2]):
        tx, ty = rel[step + 1]
        m = step + 2  # vertices placed after this step
        nxt: Beam = {}
        cache: dict[tuple, list] = {}
        for key, (_cost, path, a2, pri, sx, sy, sq) in beam.items():
            xa, xb, ya, yb = key[:4]
            fx, fy = _fl(xa, xb), _fl(ya, yb)
            # the ideal next vertex: the drawn one moved by the mean residual so far
            wx, wy = tx + sx / (m - 1) - fx, ty + sy / (m - 1) - fy
            ck = (round(wx * 40), round(wy * 40))
            moves = cache.get(ck)
            if moves is None:
                moves = cache[ck] = _moves(dirs[e], lengths[e], (wx, wy), False, lsig)
            for c, (dxa, dxb, dya, dyb), ln in moves:
                qxa, qxb, qya, qyb = xa + dxa, xb + dxb, ya + dya, yb + dyb
                gx, gy = _fl(qxa, qxb), _fl(qya, qyb)
                rx, ry = gx - tx, gy - ty
                nsx, nsy, nsq = sx + rx, sy + ry, sq + rx * rx + ry * ry
                disp = nsq - (nsx * nsx + nsy * nsy) / m
                if disp > MAX_DISP * m:
                    continue
                npri = pri + c
                total = npri + inv * disp
                na2 = a2 + fx * gy - gx * fy
                q = (qxa, qxb, qya, qyb, round(na2, 6))
                old = nxt.get(q)
                if old is None or total < old[0]:
                    nxt[q] = (total, (path, ln), na2, npri, nsx, nsy, nsq)
        if not nxt:
            return []
        ranked = sorted(nxt.items(), key=lambda kv: kv[1][0])
        beam = dict(ranked[:BEAM])
    e1, e2 = order[-2], order[-1]
    (u1x, u1y), (u2x, u2y) = _funit(dirs[e1]), _funit(dirs[e2])
    det = u1x * u2y - u1y * u2x
    if abs(det) < 1e-9:
        return []
    tx, ty = rel[n - 1]
    finals = []
    for key, (_cost, path, a2, pri, sx, sy, sq) in beam.items():
        px, py = _fl(key[0], key[1]), _fl(key[2], key[3])
        l1 = (-px * u2y + py * u2x) / det
        l2 = (-u1x * py + u1y * px) / det
        if l1 <= 1e-9 or l2 <= 1e-9:
            continue
        qx, qy = px + l1 * u1x, py + l1 * u1y
        twice = a2 + px * qy - qx * py
        if area is not None and abs(abs(twice) / 2 - area) > 1e-6:
            continue
        rx, ry = qx - tx, qy - ty
        nsx, nsy, nsq = sx + rx, sy + ry, sq + rx * rx + ry * ry
        disp = nsq - (nsx * nsx + nsy * nsy) / n
        finals.append((pri + inv * disp, key, path))
    finals.sort(key=lambda t: t[0])
    out: list[Walk] = []
    for c, key, path in finals[:4 * limit]:
        closing = _close(key[:4], dirs[e1], dirs[e2])
        if closing is None:
            continue
        l1q, l2q = closing
        steps: list[tuple[int, QS2]] = []
        while path:
            path, (k, la, lb) = path
            steps.append((k, QS2(Fraction(la, 12), Fraction(lb, 12))))
        steps.reverse()
        steps += [(dirs[e1], l1q), (dirs[e2], l2q)]
        pts = _ring(steps)
        if area is not None and abs(_exact_area(pts)) != QS2(Fraction(area)):
            continue
        # corner 0 of the original order first, moved to (0, 0)
        i0 = order.index(0)
        ox, oy = pts[i0]
        cost = c + _qs2_prior(l1q) + _qs2_prior(l2q)
        out.append(Walk(cost, tuple((x - ox, y - oy) for x, y in pts[i0:] + pts[:i0])))
    out.sort(key=lambda w: w.cost)
    return out[:limit]


def _funit(k: int) -> tuple[float, float]:
    sx, sy = DIRECTION_STEPS[k]
    norm = math.hypot(sx, sy)
    return sx / norm, sy / norm


def _exact_area(pts: Sequence[tuple[QS2, QS2]]) -> QS2:
    n = len(pts)
    twice = QS2(0)
    for i in range(n):
        (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % n]
        twice = twice + x1 * y2 - x2 * y1
    return twice / 2


def _ring(steps: Sequence[tuple[int, QS2]]) -> list[tuple[QS2, QS2]]:
    x, y = QS2(0), QS2(0)
    pts = []
    for k, ln in steps:
        pts.append((x, y))
        ux, uy = _unit(k)
        x, y = x + ux * ln, y + uy * ln
    return pts


# --- meet in the middle -------------------------------------------------------------------------
#
# The beam above closes a ring by solving its last two edges, so those two take up every error
# made before them, and the beam must carry the true ring's whole prefix. Meeting in the middle
# instead walks half the ring forwards from a corner and the other half backwards from the same
# corner, and joins the two where they arrive at the same exact point: every joined ring closes
# exactly with lengths the pieces make, and each half only has to survive half as many steps.

#: States kept per step of each half.
HALF_BEAM = 400


def _half_beam(rel: Sequence[tuple[float, float]], dirs: Sequence[int], lengths: Sequence[float], steps: int,
               width: int, inv: float, lsig: float, keep_area: bool = True) -> dict[tuple, tuple]:
    """The beam of :func:`closed_walks` over the first ``steps`` edges of a ring given as
    ``rel`` (drawn corners relative to corner 0), without closing it: exact end position and
    (rounded) twice the area -> (cost, path, twice area, prior, residual sums x, y, squared).
    Without ``keep_area`` (no area asked of the ring) states are told apart by position only.

    Each step extends every state by every move at once in numpy arrays (a state's moves depend
    on where it wants its next corner, rounded to a 40th, so they are found once per rounded
    place), keeps the cheapest state per exact end (and area) and the ``width`` cheapest of
    those: the same beam a loop over the states builds, about five times sooner."""
    # the states: exact end in 24ths, twice the area, prior, residual sums, cost, path
    ends = np.zeros((1, 4), np.int64)
    a2 = np.zeros(1)
    pri = np.zeros(1)
    sx = np.zeros(1)
    sy = np.zeros(1)
    sq = np.zeros(1)
    total = np.zeros(1)
    area_kept = np.zeros(1)
    paths: list = [()]
    for step in range(steps):
        tx, ty = rel[step + 1]
        m = step + 2
        fx = (ends[:, 0] + ends[:, 1] * R2) / 24
        fy = (ends[:, 2] + ends[:, 3] * R2) / 24
        wx, wy = tx + sx / (m - 1) - fx, ty + sy / (m - 1) - fy
        places, state_of_place, group = np.unique(np.stack([np.round(wx * 40), np.round(wy * 40)], axis=1),
                                                  axis=0, return_index=True, return_inverse=True)
        group = group.reshape(-1)
        # the moves of each rounded place, end to end: prior, step in 24ths, length's name
        parts: list[tuple[list, np.ndarray, np.ndarray]] = []
        first = np.zeros(len(places), np.int64)
        count = np.zeros(len(places), np.int64)
        at = 0
        for g, s in enumerate(state_of_place.tolist()):
            # the moves for the place's first state, as the loop over states found them
            first[g] = at
            for k, along in _directions(dirs[step], lengths[step], (float(wx[s]), float(wy[s])), False):
                part = _moves_along(k, round(along * 200), round(lsig, 4))
                parts.append(part)
                at += len(part[0])
            count[g] = at - first[g]
        if at == 0:
            return {}
        cost_of = np.concatenate([p[1] for p in parts])
        step_of = np.concatenate([p[2] for p in parts])
        names = [n for p in parts for _c, _d, n in p[0]]
        # every (state, move) pair
        per_state = count[group]
        state = np.repeat(np.arange(len(group)), per_state)
        starts = np.repeat(first[group], per_state)
        offsets = np.arange(len(state)) - np.repeat(np.cumsum(per_state) - per_state, per_state)
        move = starts + offsets
        d = step_of[move]
        gx = fx[state] + (d[:, 0] + d[:, 1] * R2) / 24
        gy = fy[state] + (d[:, 2] + d[:, 3] * R2) / 24
        rx, ry = gx - tx, gy - ty
        nsx, nsy = sx[state] + rx, sy[state] + ry
        nsq = sq[state] + rx * rx + ry * ry
        disp = nsq - (nsx * nsx + nsy * nsy) / m
        ok = disp <= MAX_DISP * m
        if not ok.any():
            return {}
        state, move, d, gx, gy, nsx, nsy, nsq, disp = (v[ok] for v in (state, move, d, gx, gy, nsx, nsy, nsq, disp))
        npri = pri[state] + cost_of[move]
        ntotal = npri + inv * disp
        na2 = a2[state] + fx[state] * gy - gx * fy[state]
        nend = ends[state] + d
        area_key = np.round(na2, 6) if keep_area else np.zeros_like(na2)
        # the cheapest pair per exact end (and area), the earlier pair on a tie
        order = np.lexsort((np.arange(len(state)), ntotal, area_key, nend[:, 3], nend[:, 2], nend[:, 1], nend[:, 0]))
        keys = np.column_stack([nend[order], area_key[order]])
        new = np.ones(len(order), bool)
        new[1:] = (keys[1:] != keys[:-1]).any(axis=1)
        best = order[new]
        # each end kept in the order it was first reached (the order a dict of them keeps),
        # then, when there are too many, the width cheapest (ties in that order)
        reached = np.minimum.reduceat(order, np.flatnonzero(new))
        best = best[np.argsort(reached, kind="stable")]
        if len(best) > width:
            best = best[np.argsort(ntotal[best], kind="stable")[:width]]
        paths = [(paths[s], names[k]) for s, k in zip(state[best].tolist(), move[best].tolist())]
        ends, a2, pri, total, area_kept = nend[best], na2[best], npri[best], ntotal[best], area_key[best]
        sx, sy, sq = nsx[best], nsy[best], nsq[best]
    return {(int(e[0]), int(e[1]), int(e[2]), int(e[3]), float(k)):
            (float(t), p, float(a), float(pr), float(x), float(y), float(q))
            for e, k, t, p, a, pr, x, y, q in zip(ends.tolist(), area_kept.tolist(), total.tolist(), paths,
                                                 a2.tolist(), pri.tolist(), sx.tolist(), sy.tolist(), sq.tolist())}


def _unpath(path) -> list[tuple[int, int, int]]:
    steps = []
    while path:
        path, st = path
        steps.append(st)
    steps.reverse()
    return steps


def _exact_ring(steps: Sequence[tuple[int, int, int]]) -> tuple[list[tuple[int, int, int, int]], tuple[int, int]]:
    """Corners (in 24ths) of the walk ``steps`` (k, la, lb) from (0, 0), and twice its area
    as an integer pair (A + B*r2) / 576; None-free: the caller checks that the walk closed."""
    x = (0, 0, 0, 0)
    pts = []
    for k, la, lb in steps:
        pts.append(x)
        d = _step(k, la, lb)
        x = (x[0] + d[0], x[1] + d[1], x[2] + d[2], x[3] + d[3])
    ta = tb = 0
    n = len(pts)
    for i in range(n):
        xa, xb, ya, yb = pts[i]
        xa2, xb2, ya2, yb2 = pts[(i + 1) % n]
        # (xa + xb r2)(ya2 + yb2 r2) - (xa2 + xb2 r2)(ya + yb r2)
        ta += xa * ya2 + 2 * xb * yb2 - xa2 * ya - 2 * xb2 * yb
        tb += xa * yb2 + xb * ya2 - xa2 * yb - xb2 * ya
    return pts, (ta, tb)


def joined_walks(corners: Sequence[tuple[float, float]], dirs: Sequence[int], lengths: Sequence[float],
                 limit: int = 40, area: float | None = None, sigma: float = SIGMA,
                 width: int = HALF_BEAM) -> list[Walk]:
    """Up to ``limit`` exact closed rings near the noisy one, best first, met in the middle.

    Same arguments and cost as :func:`closed_walks`; the ring is split at corner 0 and at the
    corner half-way round, each half is searched from corner 0 (one forwards, one backwards)
    and halves ending at the same exact point are joined. The joined cost is the exact cost of
    the whole ring (residual sums add up; the shared corner is counted once)."""
    n = len(dirs)
    if n < 3:
        return []
    h = n // 2
    p0 = corners[0]
    rel = [(x - p0[0], y - p0[1]) for x, y in corners]
    inv = 1 / (2 * sigma * sigma)
    lsig = LENGTH_SIGMA * sigma / SIGMA
    fwd = _half_beam(rel, dirs, lengths, h, width, inv, lsig, area is not None)
    # backwards: corner 0, n-1, ..., h; edge i walked from its end, the other way round
    brel = [rel[0]] + [rel[i] for i in range(n - 1, h - 1, -1)]
    bdirs = [(dirs[i] + 4) % 8 for i in range(n - 1, h - 1, -1)]
    blens = [lengths[i] for i in range(n - 1, h - 1, -1)]
    bwd = _half_beam(brel, bdirs, blens, n - h, width, inv, lsig, area is not None)
    ends: dict[tuple, list] = {}
    for key, st in bwd.items():
        ends.setdefault(key[:4], []).append(st)
    tx, ty = rel[h]
    joined = []
    for key, (_c, path, a2, pri, sx, sy, sq) in fwd.items():
        others = ends.get(key[:4])
        if not others:
            continue
        rx, ry = _fl(key[0], key[1]) - tx, _fl(key[2], key[3]) - ty
        for (_c2, path2, a2b, pri2, sx2, sy2, sq2) in others:
            twice = a2 - a2b  # the backward half ran the other way round
            if area is not None and abs(abs(twice) / 2 - area) > 1e-6:
                continue
            if abs(twice) < 1e-6:
                continue
            nsx, nsy = sx + sx2 - rx, sy + sy2 - ry
            nsq = sq + sq2 - rx * rx - ry * ry
            cost = pri + pri2 + inv * (nsq - (nsx * nsx + nsy * nsy) / n)
            joined.append((cost, path, path2))
    joined.sort(key=lambda t: t[0])
    out: list[Walk] = []
    seen = set()
    for cost, path, path2 in joined:
        steps = _unpath(path) + [((k + 4) % 8, la, lb) for k, la, lb in reversed(_unpath(path2))]
        pts, (ta, tb) = _exact_ring(steps)
        if area is not None and (tb != 0 or abs(ta) != round(2 * area * 576)):
            continue
        key = tuple(pts)
        if key in seen:
            continue
        seen.add(key)
        out.append(Walk(cost, tuple((QS2(Fraction(xa, 24), Fraction(xb, 24)), QS2(Fraction(ya, 24), Fraction(yb, 24)))
                                    for xa, xb, ya, yb in pts)))
        if len(out) >= limit:
            break
    return out
