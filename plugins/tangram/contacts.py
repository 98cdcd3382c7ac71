"""Exact positions for pieces placed in floats: where two pieces nearly touch, make them touch.

A placement found on a noisy drawing (piecefit.py) is a piece's exact shape at a float position.
Wherever two such pieces nearly touch (an edge along an edge, a corner on a corner or on an
edge), the exact figure has them touching, so each near contact becomes a linear equation in
the pieces' positions: ``g . (P_i + u) = g . (P_j + w)``, with ``g`` one of the four normals
(0,1), (1,0), (1,-1), (1,1) of the pieces' edge directions and ``u``, ``w`` exact vertices of the
oriented shapes. The coefficients are integers and the constants are in Q(sqrt2), so the
rational and the sqrt2 parts of the positions solve as two separate rational systems with one
matrix (Gaussian elimination in Fractions: nothing is rounded). Contacts are added nearest
first and one that contradicts those before it is left out; pieces that then overlap are made
to touch where they overlap. What the contacts leave free (a slide along an edge, an island's
offset) is set where the whole placement lies best on the float one, then to a simple exact
number near that, so a piece slid by any amount keeps about that amount as an exact rational.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from .cover_check import pieces_overlap
from .numbers import QS2
from .pieces import Placement, oriented_shape

R2 = math.sqrt(2)
#: Pieces whose edges, corners or corner and edge lie this many times the noise apart are taken
#: as touching, within these bounds (units).
TOUCH = 2.5
MIN_TOUCH = 0.01
MAX_TOUCH = 0.25
#: Edges must run side by side for at least this long (units) to count as an edge contact.
MIN_SHARED = 0.2
#: Rounds of making overlapping pieces touch before a placement is given up.
REPAIRS = 3
#: Outline comparisons a refit may make (:func:`refitted`; about a millisecond each).
REFIT_EVALUATIONS = 150
#: Integer normals of the four edge families, by direction index modulo 4.
NORMALS = {0: (0, 1), 1: (1, -1), 2: (1, 0), 3: (1, 1)}


@dataclass(frozen=True)
class FloatPlacement:
    """A piece's exact shape at a float position of its vertex 0."""

    name: str
    rot: int
    flip: int
    x: float
    y: float

    def exact_shape(self) -> tuple[tuple[QS2, QS2], ...]:
        return oriented_shape(self.name[0], self.rot, self.flip)

    def points(self) -> list[tuple[float, float]]:
        return [(self.x + vx, self.y + vy) for vx, vy in float_shape(self.name[0], self.rot, self.flip)]

    def box(self) -> tuple[float, float, float, float]:
        """The bounding box: min x, min y, max x, max y."""
        x0, y0, x1, y1 = _shape_box(self.name[0], self.rot, self.flip)
        return self.x + x0, self.y + y0, self.x + x1, self.y + y1


@lru_cache(maxsize=None)
def float_shape(shape: str, rot: int, flip: int) -> tuple[tuple[float, float], ...]:
    """The oriented shape's vertices as floats (vertex 0 at the origin)."""
    return tuple((float(x), float(y)) for x, y in oriented_shape(shape, rot, flip))


@lru_cache(maxsize=None)
def _shape_box(shape: str, rot: int, flip: int) -> tuple[float, float, float, float]:
    pts = float_shape(shape, rot, flip)
    return min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts)


def _apart(a: FloatPlacement, b: FloatPlacement, gap: float) -> bool:
    """True when the two pieces' boxes are more than ``gap`` apart (so nothing touches)."""
    ax0, ay0, ax1, ay1 = a.box()
    bx0, by0, bx1, by1 = b.box()
    return ax0 > bx1 + gap or bx0 > ax1 + gap or ay0 > by1 + gap or by0 > ay1 + gap


def direction_of(p: tuple[float, float], q: tuple[float, float]) -> int:
    """The nearest of the eight directions (0..7, in 45-degree steps) of the edge p -> q."""
    return round(math.atan2(q[1] - p[1], q[0] - p[0]) / (math.pi / 4)) % 8


def _dot(g: tuple[int, int], p: tuple[float, float]) -> float:
    return g[0] * p[0] + g[1] * p[1]


@lru_cache(maxsize=4096)  # the pieces' corners in their orientations: a few hundred in all
def _exact_dot(g: tuple[int, int], p: tuple[QS2, QS2]) -> QS2:
    return p[0] * g[0] + p[1] * g[1]


Equation = tuple[tuple[tuple[int, int], ...], QS2]  # ((unknown, coefficient), ...), constant


Contact = tuple[tuple[int, int], tuple[QS2, QS2], tuple[QS2, QS2]]  # g, u, w: g.(P_a + u) = g.(P_b + w)


def pair_contacts(a: FloatPlacement, b: FloatPlacement, touch: float,
                  drawn: BaseGeometry | None = None) -> list[Contact]:
    """Where pieces ``a`` and ``b`` nearly touch: corners within ``touch`` of each other (two
    contacts, x and y), a corner within ``touch`` of the inside of the other's edge, and edges
    running side by side (opposite directions) that close for at least MIN_SHARED. Given the
    ``drawn`` figure (in the pieces' frame), edges with a slit drawn between them do not touch
    (:func:`_slits`)."""
    ea, eb = a.exact_shape(), b.exact_shape()
    return [(g, ea[i], eb[j]) for g, i, j in _contact_vertices(a, b, touch, drawn)]


def _contact_vertices(a: FloatPlacement, b: FloatPlacement, touch: float,
                      drawn: BaseGeometry | None = None) -> list[tuple[tuple[int, int], int, int]]:
    """:func:`pair_contacts` by vertex index: (g, i, j) for g . (P_a + a's vertex i) =
    g . (P_b + b's vertex j), so that a caller in floats needs no exact arithmetic."""
    out: list[tuple[tuple[int, int], int, int]] = []
    if _apart(a, b, touch):
        return out
    pa, pb = a.points(), b.points()
    for i, p in enumerate(pa):
        for j, q in enumerate(pb):
            if math.dist(p, q) < touch:
                out += [((1, 0), i, j), ((0, 1), i, j)]
    # a's corners on b's edges, with b's edges along a's; then b's corners on a's edges
    da, db = _edge_directions(a), _edge_directions(b)
    out += _on_edges(pa, da, pb, db, touch, edges_too=True)
    out += [(g, i, j) for g, j, i in _on_edges(pb, db, pa, da, touch, edges_too=False)]
    if drawn is not None and out:
        slits = _slits(pa, da, pb, db, touch, drawn)
        if slits:
            # nothing ties the two pieces across a slit: not its edges, nor the corners at its ends
            ends_a = {v % len(pa) for f, _e in slits for v in (f, f + 1)}
            ends_b = {v % len(pb) for _f, e in slits for v in (e, e + 1)}
            out = [(g, i, j) for g, i, j in out if not (i in ends_a and j in ends_b)]
    return out


def _slits(pa, da, pb, db, touch: float, drawn: BaseGeometry) -> list[tuple[int, int]]:
    """(f, e): edge f of the first piece runs side by side with edge e of the other, within
    ``touch``, but the drawing shows outside space between them along part of the stretch they
    share (two of seven points, not one that the noise may put outside at an end): a slit a few
    hundredths wide that the pieces leave open (a piece hung by a corner
    beside a parallel edge), which making them touch would close."""
    out = []
    for e in range(len(pb)):
        s0, s1 = pb[e], pb[(e + 1) % len(pb)]
        g = NORMALS[db[e] % 4]
        ux, uy = s1[0] - s0[0], s1[1] - s0[1]
        length = math.hypot(ux, uy)
        level = _dot(g, s0)
        for f in range(len(pa)):
            if da[f] != (db[e] + 4) % 8:
                continue
            q0, q1 = pa[f], pa[(f + 1) % len(pa)]
            across = (_dot(g, q0) - level) / (g[0] * g[0] + g[1] * g[1])  # along g, to the midline x2
            if abs(across) * math.hypot(*g) >= touch:
                continue
            t0 = ((q0[0] - s0[0]) * ux + (q0[1] - s0[1]) * uy) / length
            t1 = ((q1[0] - s0[0]) * ux + (q1[1] - s0[1]) * uy) / length
            lo, hi = max(min(t0, t1), 0.0), min(max(t0, t1), length)
            if hi - lo < MIN_SHARED:
                continue
            ts = [lo + (hi - lo) * k / 8 for k in range(1, 8)]
            xs = np.array([s0[0] + t * ux / length + across / 2 * g[0] for t in ts])
            ys = np.array([s0[1] + t * uy / length + across / 2 * g[1] for t in ts])
            if (~shapely.contains_xy(drawn, xs, ys)).sum() >= 2:
                out.append((f, e))
    return out


def _edge_directions(p: FloatPlacement) -> tuple[int, ...]:
    return _shape_directions(p.name[0], p.rot, p.flip)


@lru_cache(maxsize=None)
def _shape_directions(shape: str, rot: int, flip: int) -> tuple[int, ...]:
    """The direction (0..7) of each edge of the oriented shape, edge k from vertex k."""
    pts = float_shape(shape, rot, flip)
    return tuple(direction_of(pts[k], pts[(k + 1) % len(pts)]) for k in range(len(pts)))


def _on_edges(pts, dirs, other, other_dirs, touch: float, edges_too: bool) -> list[tuple[tuple[int, int], int, int]]:
    """(g, v, e): a corner ``v`` of the first piece on the inside of the other's edge ``e``
    (and, with ``edges_too``, an edge of the first starting at ``v`` along it, the other way
    round), so that g . (P_first + vertex v) = g . (P_other + vertex e)."""
    out = []
    for e in range(len(other)):
        s0, s1 = other[e], other[(e + 1) % len(other)]
        k = other_dirs[e]
        g = NORMALS[k % 4]
        norm = math.hypot(*g)
        ux, uy = s1[0] - s0[0], s1[1] - s0[1]
        length = math.hypot(ux, uy)
        level = _dot(g, s0)
        for v, p in enumerate(pts):
            if abs(_dot(g, p) - level) / norm < touch:
                t = ((p[0] - s0[0]) * ux + (p[1] - s0[1]) * uy) / length
                if touch < t < length - touch:
                    out.append((g, v, e))
        if not edges_too:
            continue
        for f in range(len(pts)):
            if dirs[f] != (k + 4) % 8:
                continue
            q0, q1 = pts[f], pts[(f + 1) % len(pts)]
            if abs(_dot(g, q0) - level) / norm >= touch:
                continue
            t0 = ((q0[0] - s0[0]) * ux + (q0[1] - s0[1]) * uy) / length
            t1 = ((q1[0] - s0[0]) * ux + (q1[1] - s0[1]) * uy) / length
            if min(max(t0, t1), length) - max(min(t0, t1), 0.0) >= MIN_SHARED:
                out.append((g, f, e))
    return out


def snapped(new: FloatPlacement, placed: Sequence[FloatPlacement], touch: float,
            drawn: BaseGeometry | None = None) -> FloatPlacement:
    """``new`` moved (least squares) so that it touches the placed pieces exactly where it
    nearly touches them (not across a slit ``drawn``); along directions no contact fixes, it
    stays where it was."""
    rows = []
    un = float_shape(new.name[0], new.rot, new.flip)
    for other in placed:
        wo = float_shape(other.name[0], other.rot, other.flip)
        for g, i, j in _contact_vertices(new, other, touch, drawn):
            # g . P_new = g . (P_other + w) - g . u
            u, w = un[i], wo[j]
            rows.append((g, g[0] * (other.x + w[0] - u[0]) + g[1] * (other.y + w[1] - u[1])))
    if not rows:
        return new
    lam = 1e-6  # keeps a direction no contact fixes where it was
    a11 = lam + sum(g[0] * g[0] for g, _ in rows)
    a12 = sum(g[0] * g[1] for g, _ in rows)
    a22 = lam + sum(g[1] * g[1] for g, _ in rows)
    b1 = lam * new.x + sum(g[0] * c for g, c in rows)
    b2 = lam * new.y + sum(g[1] * c for g, c in rows)
    det = a11 * a22 - a12 * a12
    x = (b1 * a22 - b2 * a12) / det
    y = (a11 * b2 - a12 * b1) / det
    return FloatPlacement(new.name, new.rot, new.flip, x, y)


class _System:
    """Linear equations in the pieces' positions, kept in reduced row echelon form as they are
    added, so that an equation contradicting those before it is known at once and left out.
    Each row holds integer coefficients then the constant's rational and sqrt2 parts."""

    def __init__(self, unknowns: int):
        self.unknowns = unknowns
        self.rows: dict[int, list[Fraction]] = {}  # pivot column -> row

    def add(self, eq: Equation) -> bool:
        """Add the equation if it agrees with those before it (True, also when it adds nothing)."""
        terms, const = eq
        row = [Fraction(0)] * self.unknowns + [const.a, const.b]
        for k, c in terms:
            row[k] += c
        # Rows are mostly zeros: the products with them are skipped (exact arithmetic is most
        # of a piece fit's time in making it exact).
        for col, pivot in self.rows.items():
            if row[col] != 0:
                f = row[col]
                row = [v - f * w if w else v for v, w in zip(row, pivot)]
        lead = next((c for c in range(self.unknowns) if row[c] != 0), None)
        if lead is None:
            return row[-2] == 0 and row[-1] == 0
        scale = row[lead]
        row = [v / scale if v else v for v in row]
        for col, pivot in self.rows.items():
            if pivot[lead] != 0:
                f = pivot[lead]
                self.rows[col] = [v - f * w if w else v for v, w in zip(pivot, row)]
        self.rows[lead] = row
        return True

    def values(self, guess: Sequence[float], noise: float) -> list[QS2]:
        """Exact values satisfying every equation; the free unknowns (slides, islands) where the
        whole placement lies best on ``guess`` (least squares over every unknown: setting each
        free one near its own guess lets errors add up along chains of contacts), each made a
        simple exact number near that."""
        pivots = sorted(self.rows)
        z = _least_squares_free([self.rows[c] for c in pivots], pivots, self.free(), guess)
        return self.exact_values(z, noise)

    def free(self) -> list[int]:
        """The unknowns no equation fixes (slides, islands' offsets), in order."""
        return [c for c in range(self.unknowns) if c not in self.rows]

    def exact_values(self, free_values: Sequence[float], noise: float) -> list[QS2]:
        """Every unknown, exact, with the free ones (:meth:`free`) made simple exact numbers
        near ``free_values``."""
        values: dict[int, QS2] = {c: nice_number(float(v), noise / 4) for c, v in zip(self.free(), free_values)}
        for col, row in self.rows.items():
            v = QS2(row[-2], row[-1])
            for c in values:
                if row[c] != 0:
                    v = v - values[c] * row[c]
            values[col] = v
        return [values[c] for c in range(self.unknowns)]


def _least_squares_free(rows, pivots: Sequence[int], free: Sequence[int], guess: Sequence[float]) -> list[float]:
    """Float values of the free unknowns that bring every unknown nearest its guess."""
    if not free:
        return []
    a, b = [], []
    for f_index, c in enumerate(free):  # each free unknown near its own guess
        a.append([1.0 if k == f_index else 0.0 for k in range(len(free))])
        b.append(guess[c])
    for row, col in zip(rows, pivots):  # x_col = r - sum(R_cf * z_f)
        a.append([-float(row[c]) for c in free])
        b.append(guess[col] - float(row[-2]) - R2 * float(row[-1]))
    solution, *_rest = np.linalg.lstsq(np.array(a), np.array(b), rcond=None)
    return [float(v) for v in solution]


def nice_number(v: float, noise: float) -> QS2:
    """A simple exact number near ``v``, known to about ``noise``: ``a + b*r2`` with a, b in
    twelfths (halves, thirds and quarters cost less) when one lies within twice that, else the
    nearest 48th."""
    # every b from -8 to 8 (in twelfths) at once, each with the a that brings it nearest v
    lb = _TWELFTHS
    la = np.round((v - lb * R2 / 12) * 12)
    d = np.abs((la + lb * R2) / 12 - v)
    # a position is a sum of the pieces' edges: small parts of one sign are likelier than a
    # difference of large ones that happens to land near v
    cost = (d / noise) ** 2 + _COMPLEXITIES[la.astype(int) % 12] + _COMPLEXITIES[lb % 12] \
        + 0.15 * (np.abs(la) + np.abs(lb)) / 12 + 0.5 * (la * lb < 0)
    cost[d > 2 * noise] = np.inf
    best = int(np.argmin(cost))
    if not math.isfinite(cost[best]):
        return QS2(Fraction(round(v * 48), 48))
    return QS2(Fraction(int(la[best]), 12), Fraction(int(lb[best]), 12))


#: What a number of twelfths costs by its reduced denominator (halves, thirds, quarters are
#: likelier than sixths and twelfths); it depends only on the count modulo 12.
_COMPLEXITIES = np.array([{1: 0.0, 2: 0.5, 3: 1.2, 4: 1.2, 6: 2.0}.get(12 // math.gcd(k, 12), 3.0) for k in range(12)])
#: The sqrt2 parts tried, in twelfths: -8 to 8.
_TWELFTHS = np.arange(-96, 97)


def touch_distance(noise: float) -> float:
    """How close (units) two pieces placed on a drawing with this noise count as touching."""
    return min(MAX_TOUCH, max(MIN_TOUCH, TOUCH * noise))


def lined_up(a: FloatPlacement, b: FloatPlacement, touch: float, reach: float = 0.5) -> list[Contact]:
    """Edges of ``a`` and ``b`` that run along one line (within ``touch`` of it) with at most
    ``reach`` units between them, not side by side: a straight edge of the figure made by two
    pieces (a house's base), which no contact ties but a drawing shows."""
    out: list[Contact] = []
    if _apart(a, b, reach):
        return out
    pa, pb = a.points(), b.points()
    ea, eb = a.exact_shape(), b.exact_shape()
    for i in range(len(pa)):
        a0, a1 = pa[i], pa[(i + 1) % len(pa)]
        k = direction_of(a0, a1)
        g = NORMALS[k % 4]
        norm = math.hypot(*g)
        ux, uy = (a1[0] - a0[0]), (a1[1] - a0[1])
        length = math.hypot(ux, uy)
        for j in range(len(pb)):
            b0, b1 = pb[j], pb[(j + 1) % len(pb)]
            if direction_of(b0, b1) % 4 != k % 4 or abs(_dot(g, a0) - _dot(g, b0)) / norm >= touch:
                continue
            t0 = ((b0[0] - a0[0]) * ux + (b0[1] - a0[1]) * uy) / length
            t1 = ((b1[0] - a0[0]) * ux + (b1[1] - a0[1]) * uy) / length
            lo, hi = min(t0, t1), max(t0, t1)
            if hi > 0 and lo < length:
                continue  # side by side: an edge contact's business, not a line's
            if min(abs(lo - length), abs(hi)) <= reach:
                out.append((g, ea[i], eb[j]))
    return out


def exact_placements(pieces: Sequence[FloatPlacement], noise: float, lines: float = 0.0,
                     drawn: BaseGeometry | None = None, touch: float | None = None) -> list[Placement] | None:
    """The pieces at exact positions touching wherever they nearly touch (``noise``: how far,
    in units, the float positions may be off), the first piece at the origin; None when the
    contacts leave two pieces overlapping. With ``lines`` (units), edges of two pieces that
    run within that of one line close by (:func:`lined_up`) are made to, where no contact says
    otherwise (for drawn pieces, whose drawing shows those lines). Given the ``drawn`` figure
    (in the pieces' frame), pieces do not touch across a slit it shows (:func:`_slits`).
    ``touch`` (units) takes pieces as touching only that near, instead of
    :func:`touch_distance` of the noise.

    Near contacts are taken nearest first, and one that contradicts those before it is left
    out (two pieces can nearly touch where the drawing's noise brought them close). Pieces the
    contacts then push into each other touched where no contact was seen: they are made to
    touch where they overlap, and the positions solved again."""
    n = 2 * len(pieces)
    system = _System(n)
    # the first piece at the origin (a translation is free; the text is simpler so)
    system.add((((0, 1),), QS2(0)))
    system.add((((1, 1),), QS2(0)))
    _add_nearest_first(system, pieces, touch_distance(noise) if touch is None else touch, drawn=drawn)
    if lines > 0:  # after every contact: a contact says more than a line does
        _add_lines(system, pieces, lines)
    guess = [c - (pieces[0].x if k % 2 == 0 else pieces[0].y) for p in pieces for k, c in enumerate((p.x, p.y))]
    for _round in range(REPAIRS + 1):
        values = system.values(guess, noise)
        placed = [Placement(p.name, p.rot, p.flip, values[2 * i], values[2 * i + 1]) for i, p in enumerate(pieces)]
        floats = [FloatPlacement(p.name, p.rot, p.flip, float(p.x), float(p.y)) for p in placed]
        overlapping = [(i, j) for i in range(len(floats)) for j in range(i + 1, len(floats))
                       if not _apart(floats[i], floats[j], 0.0)
                       and pieces_overlap(placed[i], placed[j])]
        if not overlapping:
            return placed
        for i, j in overlapping:
            _add_nearest_first(system, floats, MAX_TOUCH + touch_distance(noise), pairs=[(i, j)])
    return None


def _add_nearest_first(system: _System, pieces: Sequence[FloatPlacement], touch: float,
                       pairs: Sequence[tuple[int, int]] | None = None, drawn: BaseGeometry | None = None) -> None:
    """Add the near contacts of ``pairs`` (default: every pair), the nearest first, leaving out
    each that contradicts those before it."""
    if pairs is None:
        pairs = [(i, j) for i in range(len(pieces)) for j in range(i + 1, len(pieces))]
    found = []
    for i, j in pairs:
        a, b = pieces[i], pieces[j]
        for g, u, w in pair_contacts(a, b, touch, drawn):
            found.append((_gap(a, b, g, u, w), _equation(i, j, g, u, w)))
    found.sort(key=lambda t: t[0])
    for _distance, eq in found:
        system.add(eq)


def _add_lines(system: _System, pieces: Sequence[FloatPlacement], touch: float) -> None:
    """Add the edges that line up (:func:`lined_up`), the straightest first, leaving out each
    that contradicts those before it."""
    found = []
    for i in range(len(pieces)):
        for j in range(i + 1, len(pieces)):
            a, b = pieces[i], pieces[j]
            for g, u, w in lined_up(a, b, touch):
                found.append((_gap(a, b, g, u, w), _equation(i, j, g, u, w)))
    for _distance, eq in sorted(found, key=lambda t: t[0]):
        system.add(eq)


def _gap(a: FloatPlacement, b: FloatPlacement, g: tuple[int, int], u: tuple[QS2, QS2], w: tuple[QS2, QS2]) -> float:
    """How far (units) the float pieces are from meeting g . (P_a + u) = g . (P_b + w)."""
    along = g[0] * (a.x + float(u[0]) - b.x - float(w[0])) + g[1] * (a.y + float(u[1]) - b.y - float(w[1]))
    return abs(along) / math.hypot(*g)


def _equation(i: int, j: int, g: tuple[int, int], u: tuple[QS2, QS2], w: tuple[QS2, QS2]) -> Equation:
    """g . (P_i + u) = g . (P_j + w), as g . P_i - g . P_j = g . w - g . u."""
    terms = tuple((k, c) for k, c in ((2 * i, g[0]), (2 * i + 1, g[1]), (2 * j, -g[0]), (2 * j + 1, -g[1])) if c)
    return terms, _exact_dot(g, w) - _exact_dot(g, u)



def refitted(pieces: Sequence[Placement], drawing: Sequence[Sequence[tuple[float, float]]], noise: float,
             evaluations: int = REFIT_EVALUATIONS, until: float = math.inf) -> list[Placement] | None:
    """The exact pieces with what their contacts leave free (slides along an edge, islands'
    offsets) set where the union lies nearest ``drawing`` (the drawn rings, in the pieces'
    frame), not where the search happened to put each piece: a slid piece's position came from
    one noisy corner, and its slide is better judged by the whole outline. The pieces keep
    every contact they have; None when nothing is left free or the pieces would overlap.

    Nearest means the least Hausdorff distance between the outlines (what a reading is judged
    by), with the drawing free to shift a little; the free values found are then made simple
    exact numbers as in :func:`exact_placements`. The search ends at ``until`` (a
    time.monotonic() value) with the nearest values it has reached."""
    import shapely
    import shapely.affinity
    from scipy.optimize import minimize

    floats = [FloatPlacement(p.name, p.rot, p.flip, float(p.x), float(p.y)) for p in pieces]
    n = 2 * len(pieces)
    system = _System(n)
    system.add((((0, 1),), QS2(0)))   # the first piece stays at the origin, as placed
    system.add((((1, 1),), QS2(0)))
    _add_nearest_first(system, floats, MIN_TOUCH)
    free = system.free()
    if not free:
        return None
    base = np.zeros(n)
    along = np.zeros((n, len(free)))
    for col, row in system.rows.items():   # x_col = r - sum(R_cf * t_f)
        base[col] = float(row[-2]) + R2 * float(row[-1])
        along[col] = [-float(row[c]) for c in free]
    for f_index, c in enumerate(free):
        along[c, f_index] = 1.0
    shapes = [np.array(float_shape(p.name[0], p.rot, p.flip)) for p in pieces]
    target = shapely.multilinestrings([shapely.linearrings(r) for r in drawing if len(r) >= 3])

    def distance(v: np.ndarray) -> float:
        xy = base + along @ v[:-2]
        polys = [shapely.Polygon(s + (xy[2 * i], xy[2 * i + 1])) for i, s in enumerate(shapes)]
        union = shapely.union_all(polys, grid_size=1e-6)  # exact contacts, no float slivers
        moved = shapely.affinity.translate(target, v[-2], v[-1])
        return float(shapely.hausdorff_distance(shapely.boundary(union), moved, densify=0.25))

    start = np.array([float(pieces[c // 2].x if c % 2 == 0 else pieces[c // 2].y) for c in free] + [0.0, 0.0])
    at_start = distance(start)
    nearest = [at_start, start]

    def far(v: np.ndarray) -> float:
        if time.monotonic() > until:
            raise _OutOfTime
        d = distance(v)
        if d < nearest[0]:
            nearest[:] = [d, np.array(v)]
        return d

    try:
        minimize(far, start, method="Nelder-Mead",
                 options={"maxfev": evaluations, "xatol": noise / 20, "fatol": 0.002,
                          "initial_simplex": _simplex(start, max(0.05, noise / 2))})
    except _OutOfTime:
        pass
    if nearest[0] >= at_start:
        return None
    values = system.exact_values(nearest[1][:-2], noise)
    placed = [Placement(p.name, p.rot, p.flip, values[2 * i], values[2 * i + 1]) for i, p in enumerate(pieces)]
    if any(pieces_overlap(placed[i], placed[j]) for i in range(len(placed)) for j in range(i + 1, len(placed))):
        return None
    return placed


class _OutOfTime(Exception):
    """The refit's time is up: it ends with the nearest values reached so far."""


def _simplex(start: np.ndarray, step: float) -> np.ndarray:
    """Nelder-Mead's first simplex: ``start`` and one step along each unknown."""
    return np.vstack([start] + [start + step * np.eye(len(start))[k] for k in range(len(start))])
