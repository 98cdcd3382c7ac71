"""Turn placed pieces into a silhouette (their union), and make seeded random figures.

The union is built with the lattice boundary chains (shared edges cancel), walked into rings and
passed through the same validation as typed input. Random figures are assembled from the seven
pieces edge to edge (sometimes slid along the edge by a rational fraction, which puts vertices off
the lattice the pieces usually share, sometimes touching only at a corner), so every random figure
is solvable by construction: the assembly itself is a cover.
"""

from __future__ import annotations

import random as _random
from fractions import Fraction
from typing import Mapping, Sequence

from engine import N_, InputError

from .cover_check import pieces_overlap
from .geometry import direction
from .i18n import _
from .lattice import Lattice, common_denominator, polygon_chain, ring_area2
from .numbers import QS2
from .pieces import PIECE_NAMES, Placement, oriented_shape
from .silhouette import Silhouette, build_silhouette


def union_silhouette(pieces: Sequence[Placement], draft: Sequence[Placement] = ()) -> Silhouette:
    """The silhouette covered by non-overlapping pieces (all seven, so the area is 16)."""
    names = [p.name for p in pieces]
    if sorted(names) != sorted(PIECE_NAMES):
        missing = [n for n in PIECE_NAMES if n not in names]
        raise InputError(_("place all seven pieces first (missing: {pieces})").format(
            pieces=_(", ").join(missing) or _("none")))
    for i, a in enumerate(pieces):
        for b in pieces[i + 1:]:
            if pieces_overlap(a, b):
                raise InputError(_("pieces {a} and {b} overlap; move them apart first").format(a=a.name, b=b.name))
    verts = [p.vertices() for p in pieces]
    lat = Lattice(common_denominator(c for vs in verts for pt in vs for c in pt))
    chain = polygon_chain([[lat.point(pt) for pt in vs] for vs in verts])
    rings = []
    for ring in chain.rings():
        role = "outer" if ring_area2(ring) > 0 else "hole"
        rings.append(([lat.to_point(p) for p in ring], role))
    return build_silhouette(rings, draft)


# ------------------------------------------------------------------------------------------------
# Random figures

# The host shows this help through Tangram.catalogue (N_ only marks it for translation).
RANDOM_OPTIONS = {
    "slide": N_("chance (0 to 1) that a piece is slid along the edge it joins, off the lattice (default 0.25)"),
    "touch": N_("chance (0 to 1) that a piece touches the others only at a corner (default 0.1)"),
    "hole": N_("chance (0 to 1) that the figure is built around a hole (default 0.15)"),
}
_SLIDES = (Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(1, 4), Fraction(3, 4))


def _option(options: Mapping[str, str] | None, name: str, default: float) -> float:
    if not options or name not in options:
        return default
    try:
        v = float(options[name])
    except (TypeError, ValueError):
        raise InputError(_("option {name} must be a number between 0 and 1, not {value}").format(
            name=name, value=repr(options[name]))) from None
    if not 0 <= v <= 1:
        raise InputError(_("option {name} must be between 0 and 1, not {value}").format(name=name, value=v))
    return v


def random_assembly(seed: int, options: Mapping[str, str] | None = None) -> tuple[Silhouette, list[Placement]]:
    """A seeded random figure and the assembly that made it (so it is solvable)."""
    unknown = set(options or {}) - set(RANDOM_OPTIONS)
    if unknown:
        raise InputError(_("unknown option(s) {unknown}; known: {known}").format(
            unknown=", ".join(sorted(unknown)), known=", ".join(RANDOM_OPTIONS)))
    p_slide = _option(options, "slide", 0.25)
    p_touch = _option(options, "touch", 0.1)
    p_hole = _option(options, "hole", 0.15)
    rng = _random.Random(f"tangram:{seed}")
    want_hole = rng.random() < p_hole
    pieces = None
    for _attempt in range(20 if want_hole else 1):
        # for a hole: a hole-shaped phantom piece, one piece flush on each of its edges, the rest
        # attached anywhere but never onto the phantom, which is left out at the end
        phantom = (Placement(rng.choice(("S1", "Q", "M")), rng.randrange(8), 0, QS2(0), QS2(0))
                   if want_hole else None)
        pieces = _assemble(rng, p_slide, p_touch, phantom)
        if pieces is not None and (not want_hole or _has_hole(pieces)):
            break
    if pieces is None:
        pieces = _assemble(rng, p_slide, p_touch)
    return union_silhouette(pieces), pieces


def _has_hole(pieces: Sequence[Placement]) -> bool:
    """Quick test on the lattice chain: a clockwise ring is a hole."""
    verts = [p.vertices() for p in pieces]
    lat = Lattice(common_denominator(c for vs in verts for pt in vs for c in pt))
    chain = polygon_chain([[lat.point(pt) for pt in vs] for vs in verts])
    return any(ring_area2(r) < 0 for r in chain.rings())


def _assemble(rng: _random.Random, p_slide: float, p_touch: float,
              phantom: Placement | None = None) -> list[Placement] | None:
    """Seven pieces attached one by one; around ``phantom`` first if given (None if that fails)."""
    names = list(PIECE_NAMES)
    rng.shuffle(names)
    placed: list[Placement] = []
    obstacles: list[Placement] = [phantom] if phantom is not None else []
    if phantom is None:
        placed.append(Placement(names.pop(0), rng.randrange(8), rng.randrange(2), QS2(0), QS2(0)))
    else:
        ring = phantom.vertices()
        for i in range(len(ring)):
            a, b = ring[i], ring[(i + 1) % len(ring)]
            cand = _flush_piece(rng, names, a, b, placed + obstacles)
            if cand is None:
                return None
            names.remove(cand.name)
            placed.append(cand)
    for name in names:
        for _try in range(400):
            cand = _try_attach(rng, name, placed, p_slide, p_touch)
            if cand is not None and not any(_may_overlap(cand, p) and pieces_overlap(cand, p)
                                            for p in placed + obstacles):
                placed.append(cand)
                break
        else:  # cannot happen in practice: a free edge always exists on the outside
            raise RuntimeError("could not attach a piece")
    return placed


def _flush_piece(rng, names, a, b, obstacles) -> Placement | None:
    """A piece (from ``names``) with an edge running exactly from b to a, overlapping nothing."""
    want = (a[0] - b[0], a[1] - b[1])
    options = [(n, r, f) for n in names for r in range(8) for f in (0, 1)]
    rng.shuffle(options)
    for name, rot, flip in options:
        mine = oriented_shape(name[0], rot, flip)
        for j in range(len(mine)):
            c, d = mine[j], mine[(j + 1) % len(mine)]
            if (d[0] - c[0], d[1] - c[1]) == want:
                cand = Placement(name, rot, flip, b[0] - c[0], b[1] - c[1])
                if not any(_may_overlap(cand, p) and pieces_overlap(cand, p) for p in obstacles):
                    return cand
    return None


def _float_ranges(p: Placement):
    pts = [(float(x), float(y)) for x, y in p.vertices()]
    forms = [(x, y, x + y, y - x) for x, y in pts]
    return [(min(f[k] for f in forms), max(f[k] for f in forms)) for k in range(4)]


def _may_overlap(a: Placement, b: Placement) -> bool:
    """False when floats show a clear gap along one of the four forms (then the exact test is moot)."""
    for (amin, amax), (bmin, bmax) in zip(_float_ranges(a), _float_ranges(b)):
        if amax < bmin - 1e-6 or bmax < amin - 1e-6:
            return False
    return True


def _try_attach(rng, name, placed, p_slide, p_touch) -> Placement | None:
    shape = name[0]
    rot, flip = rng.randrange(8), rng.randrange(2)
    mine = oriented_shape(shape, rot, flip)
    host = rng.choice(placed).vertices()
    if rng.random() < p_touch:
        # corner to corner: touches at a point (unless edges happen to meet too)
        w = rng.choice(host)
        c = rng.choice(mine)
        return Placement(name, rot, flip, w[0] - c[0], w[1] - c[1])
    i = rng.randrange(len(host))
    a, b = host[i], host[(i + 1) % len(host)]
    dh = direction(a, b)
    edges = [(mine[j], mine[(j + 1) % len(mine)]) for j in range(len(mine))]
    opposite = [(c, d) for c, d in edges if direction(c, d) == (dh + 4) % 8]
    if not opposite:
        return None
    c, d = rng.choice(opposite)
    if rng.random() < p_slide:
        lam = rng.choice(_SLIDES)
        target = (a[0] + (b[0] - a[0]) * lam, a[1] + (b[1] - a[1]) * lam)
        anchor = c if rng.random() < 0.5 else d
    elif rng.random() < 0.5:
        target, anchor = b, c  # my edge starts where the host's edge ends
    else:
        target, anchor = a, d
    return Placement(name, rot, flip, target[0] - anchor[0], target[1] - anchor[1])
