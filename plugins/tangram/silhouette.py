"""The tangram instance: a silhouette (components with holes) and an optional draft composition.

Text form (one item per line, ``#`` starts a comment)::

    outer 0,0 4,0 4,4 0,4          # a component's outline: points "x,y" separated by spaces
    hole  1,1 1,2 2,2 2,1          # a hole in the outline before it
    ring  10,0 12,0 12,2           # a ring whose role (outline or hole) is found by nesting
    draft L1 r0 f0 @ 0,0           # a piece of the editor's composition (optional)

Coordinates are exact (``3``, ``1/2``, ``2r2``, ``1+r2``, ``3/2-1/4r2``, ``√2``) or decimals that
are snapped to the simplest exact number within 0.002 (each snap is reported in the notes).
Nested rings alternate outline / hole (even-odd), rings may touch at points but never cross or
share an edge, every edge runs at a multiple of 45 degrees, and the area must be 16*q^2 for some
q in Q(sqrt 2); the figure is then scaled exactly by 1/q to area 16 (the pieces' unit).
Limits: at most :data:`MAX_RINGS` rings, :data:`MAX_VERTICES` vertices, 12 digits per number, and
all coordinates must fit the solver's lattice (about 32,000 units of the common denominator).

Also accepted: an SVG document; its ``<polygon>``/``<polyline>`` elements and simple paths
(``M L H V Z``, absolute or relative) become rings, with y flipped (SVG's y axis points down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Sequence

from engine import N_, InputError

from .geometry import (
    Point,
    Ring,
    RingLocator,
    direction,
    normalize_ring,
    point_text,
    ring_inside_ring,
    signed_area,
)
from .i18n import Note, _, count
from .lattice import MAX_UNITS, Lattice, common_denominator
from .numbers import QS2, R2, format_number, parse_coordinate, sqrt_in_field
from .pieces import PIECE_NAMES, Placement, parse_placement
from .segments import (
    boundaries_cross_at,
    coordinate_scale,
    float_point,
    point_inside_segment_prechecked,
    segments_cross_prechecked,
    segments_overlap_prechecked,
)

MAX_RINGS = 24
MAX_VERTICES = 400
MAX_TEXT = 50_000
#: Draft pieces must stay within this distance of the origin (keeps rendering bounded).
MAX_DRAFT_COORD = 1000


class AreaError(InputError):
    """The figure's area is not 16 (nor 16 times a square of the field): the drawing tool says
    so in its own words, from ``area`` (exact text) and ``approx`` (a decimal)."""

    def __init__(self, area: str, approx: str) -> None:
        super().__init__(_("the figure's area is {area} (about {approx}); a tangram figure has area 16, or "
                           "16*q^2 for a number q = a + b*r2 (area 1, 4, 8, 32, ... is scaled "
                           "exactly)").format(area=area, approx=approx))
        self.area = area
        self.approx = approx


@dataclass(frozen=True)
class Component:
    """One connected part of a silhouette: an outline (counter-clockwise) and holes (clockwise)."""

    outer: Ring
    holes: tuple[Ring, ...] = ()

    def rings(self) -> tuple[Ring, ...]:
        return (self.outer,) + self.holes


@dataclass(frozen=True)
class Silhouette:
    """A tangram instance: the figure to cover, exactly scaled to area 16.

    ``draft`` is the editor's composition (pieces the user placed to design a figure); it is
    written by :func:`format_silhouette` and round-trips, but the solver ignores it.
    ``messages`` (snaps, scaling) are for the user and not part of the value.
    """

    components: tuple[Component, ...]
    draft: tuple[Placement, ...] = ()
    messages: tuple[str, ...] = field(default=(), compare=False, hash=False)

    def rings(self) -> list[Ring]:
        return [r for c in self.components for r in c.rings()]

    def vertex_count(self) -> int:
        return sum(len(r) for r in self.rings())


# ------------------------------------------------------------------------------------------------
# Text


def _line_place(lineno: int) -> dict[str, str]:
    """The ``where`` of an InputError about line ``lineno`` of the text ("line 3", English for
    programs) and its ``where_text`` in the reader's language ("第 3 行")."""
    return {"where": f"line {lineno}", "where_text": _("line {number}").format(number=lineno)}


def _parse_point(token: str, place: dict[str, str], snaps: list[str]) -> Point:
    t = token.strip().strip("()")
    parts = t.split(",")
    if len(parts) != 2 or not parts[0] or not parts[1]:
        raise InputError(_("cannot read the point {point}: write it as x,y (no spaces)").format(point=repr(token)),
                         **place)
    coords = []
    for part in parts:
        try:
            value, moved = parse_coordinate(part)
        except InputError as exc:
            raise InputError(exc.message, **place) from None
        if moved:
            snaps.append(Note(N_("{number} snapped to {exact} (moved {moved})"),
                              number=part, exact=format_number(value), moved=f"{moved:.2g}"))
        coords.append(value)
    return (coords[0], coords[1])


def parse_silhouette(text: str) -> Silhouette:
    """Parse the text form (or an SVG document) into a validated, scaled Silhouette."""
    if not isinstance(text, str):
        raise InputError(_("the silhouette must be text"))
    if len(text) > MAX_TEXT:
        raise InputError(_("the silhouette text is {count} characters; the limit is {limit}").format(
            count=count(len(text)), limit=count(MAX_TEXT)))
    from . import decimals, svg  # they build on this module

    if text.lstrip().startswith("<"):
        return svg.silhouette_from_svg(text)
    try:
        return parse_exact_text(text)
    except InputError as exc:
        floats = decimals.decimal_rings(text)
        if floats is None:
            raise
        return decimals.read_noisy_rings(floats, exc)


def parse_exact_text(text: str) -> Silhouette:
    """The text form read exactly (decimals snapped within 0.002), with no noisy reading."""
    rings: list[tuple[list[Point], str]] = []
    draft: list[Placement] = []
    snaps: list[str] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        place = _line_place(lineno)
        word, _space, rest = line.partition(" ")
        word = word.lower()
        if word in ("outer", "hole", "ring"):
            tokens = rest.split()
            if len(tokens) < 3:
                raise InputError(_("a ring needs at least 3 points, this one has {count}").format(count=len(tokens)),
                                 **place)
            if len(rings) >= MAX_RINGS:
                raise InputError(_("more than {limit} rings; that is the limit").format(limit=MAX_RINGS), **place)
            rings.append(([_parse_point(t, place, snaps) for t in tokens], word))
        elif word == "draft":
            try:
                draft.append(parse_placement(rest))
            except InputError as exc:
                raise InputError(exc.message, **place) from None
        elif word == "tangram":
            continue  # optional header
        else:
            raise InputError(_("unknown line start {word}: use outer, hole, ring or draft").format(word=repr(word)),
                             **place)
    if not rings:
        raise InputError(_("no outline given: write a line like 'outer 0,0 4,0 4,4 0,4'"))
    return build_silhouette(rings, draft, snaps)


def format_silhouette(s: Silhouette) -> str:
    """The canonical text (components in order, outline then its holes, then the draft)."""
    lines = []
    for comp in s.components:
        lines.append("outer " + " ".join(point_text(p) for p in comp.outer))
        for hole in comp.holes:
            lines.append("hole " + " ".join(point_text(p) for p in hole))
    for pl in s.draft:
        lines.append("draft " + pl.notation())
    return "\n".join(lines) + "\n"


def silhouette_to_json(s: Silhouette) -> dict:
    return {
        "text": format_silhouette(s),
        "components": [
            {"outer": [point_text(p) for p in c.outer], "holes": [[point_text(p) for p in h] for h in c.holes]}
            for c in s.components
        ],
        "draft": [pl.notation() for pl in s.draft],
        "area": 16,
    }


def silhouette_from_json(data: Any) -> Silhouette:
    """Accepts ``{"text": ...}`` or ``{"components": [{"outer": [...], "holes": [...]}], "draft": [...]}``."""
    if not isinstance(data, dict):
        raise InputError(_("expected a JSON object with 'text' or 'components'"))
    if isinstance(data.get("text"), str):
        return parse_silhouette(data["text"])
    comps = data.get("components")
    if not isinstance(comps, list) or not comps:
        raise InputError(_("expected 'components': a list of {'outer': [...], 'holes': [[...]]}"))
    lines = []
    try:
        for c in comps:
            lines.append("outer " + " ".join(_json_point(p) for p in c["outer"]))
            for h in c.get("holes", []):
                lines.append("hole " + " ".join(_json_point(p) for p in h))
        for d in data.get("draft", []) or []:
            if not isinstance(d, str):
                raise TypeError
            lines.append("draft " + d)
    except (TypeError, KeyError, AttributeError):
        raise InputError(_("malformed components: each needs 'outer' (a list of points like \"1,2\") "
                           "and optional 'holes'")) from None
    return parse_silhouette("\n".join(lines))


def _json_point(p) -> str:
    if isinstance(p, str):
        if " " in p.strip():
            raise TypeError
        return p.strip()
    if isinstance(p, (list, tuple)) and len(p) == 2 and all(
            isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in p):
        return f"{p[0]},{p[1]}".replace(" ", "")
    raise TypeError


# ------------------------------------------------------------------------------------------------
# Validation


def _edge_name(ri: int, ei: int, ring: Sequence[Point]) -> str:
    a, b = ring[ei], ring[(ei + 1) % len(ring)]
    return _("ring {ring} edge {edge} ({start} to {end})").format(ring=ri + 1, edge=ei + 1, start=point_text(a),
                                                                 end=point_text(b))


def build_silhouette(rings: Sequence[tuple[Sequence[Point], str]], draft: Sequence[Placement] = (),
                     snaps: Sequence[str] = ()) -> Silhouette:
    """Validate rings (role word: outer/hole/ring), nest them, scale to area 16."""
    if len(rings) > MAX_RINGS:
        raise InputError(_("{count} rings; the limit is {limit}").format(count=len(rings), limit=MAX_RINGS))
    cleaned: list[list[Point]] = []
    total = 0
    for ri, (pts, _role) in enumerate(rings):
        ring = []
        for p in pts:
            if not ring or ring[-1] != p:
                ring.append(p)
        while len(ring) > 1 and ring[0] == ring[-1]:
            ring.pop()
        if len(ring) < 3:
            raise InputError(_("ring {ring} has fewer than 3 distinct points").format(ring=ri + 1))
        total += len(ring)
        if total > MAX_VERTICES:
            raise InputError(_("more than {limit} vertices; that is the limit").format(limit=MAX_VERTICES))
        for ei in range(len(ring)):
            a, b = ring[ei], ring[(ei + 1) % len(ring)]
            if direction(a, b) is None:
                ang = math.degrees(math.atan2(float(b[1] - a[1]), float(b[0] - a[0]))) % 360
                raise InputError(_("{edge} runs at {angle} degrees; only edges at multiples of 45 degrees are "
                                   "supported").format(edge=_edge_name(ri, ei, ring), angle=f"{ang:.1f}"))
        cleaned.append(ring)
    # nesting (even depth = outline, odd = hole) and the area come first: they are cheap and
    # refuse most bad figures before the quadratic crossing check
    norm_input = [normalize_ring(r, True) for r in cleaned]
    ring_areas = [signed_area(r) if len(r) >= 3 else QS2(0) for r in norm_input]
    if any(a.sign() == 0 for a in ring_areas):
        check_no_crossings(cleaned)  # a figure eight has area 0: name the crossing instead
        raise InputError(_("a ring encloses no area"))
    # each ring is prepared once for point location (a float pre-check, exact where it matters)
    locators = [RingLocator(r) for r in norm_input]
    depth = []
    for i, r in enumerate(norm_input):
        depth.append(sum(1 for j, o in enumerate(locators) if j != i and ring_inside_ring(r, o)))
    # holes (odd depth) run clockwise: reverse them, still starting at the lowest-leftmost vertex
    oriented = [r if depth[i] % 2 == 0 else (r[0],) + tuple(reversed(r[1:])) for i, r in enumerate(norm_input)]
    area = QS2(0)
    for i, a in enumerate(ring_areas):
        area = area + (a if depth[i] % 2 == 0 else -a)
    q = sqrt_in_field(area / 16) if area.sign() > 0 else None
    if q is None:
        raise AreaError(format_number(area), f"{float(area):.4g}")
    check_no_crossings(cleaned)
    for i, (_ring, word) in enumerate(rings):
        if word == "hole" and depth[i] % 2 == 0:
            raise InputError(_("ring {ring} is given as a hole but is not inside an outline").format(ring=i + 1))
        if word == "outer" and depth[i] % 2 == 1:
            raise InputError(_("ring {ring} is given as an outline but lies inside another outline "
                               "(write it as a hole, or as 'ring' to let nesting decide)").format(ring=i + 1))
    messages = list(dict.fromkeys(snaps))
    unscaled = oriented  # nesting does not change under scaling: ask the prepared locators
    if q != 1:
        inv = 1 / q
        oriented = [tuple((x * inv, y * inv) for x, y in r) for r in oriented]
        messages.append(Note(N_("area {area} scaled exactly to 16 (coordinates times {factor})"),
                             area=format_number(area), factor=format_number(inv)))
    comps = []
    for i, r in enumerate(oriented):
        if depth[i] % 2:
            continue
        holes = []
        for j, h in enumerate(oriented):
            if depth[j] == depth[i] + 1 and ring_inside_ring(unscaled[j], locators[i]):
                holes.append(h)
        comps.append(Component(r, tuple(sorted(holes, key=_ring_key))))
    comps.sort(key=lambda c: _ring_key(c.outer))
    seen = set()
    for pl in draft:
        if pl.name in seen:
            raise InputError(_("piece {piece} appears twice in the draft").format(piece=pl.name))
        seen.add(pl.name)
        if abs(float(pl.x)) > MAX_DRAFT_COORD or abs(float(pl.y)) > MAX_DRAFT_COORD:
            raise InputError(_("draft piece {piece} is too far away (coordinates beyond {limit})").format(
                piece=pl.name, limit=MAX_DRAFT_COORD))
    sil = Silhouette(tuple(comps), tuple(sorted(draft, key=lambda p: PIECE_NAMES.index(p.name))), tuple(messages))
    _check_lattice(sil)
    return sil


def _ring_key(r: Ring):
    return (float(r[0][1]), float(r[0][0]), str(r))


def _check_lattice(s: Silhouette) -> None:
    nums = [c for r in s.rings() for p in r for c in p]
    d = common_denominator(nums)
    lat = Lattice(d)
    worst = max(max(abs(v) for v in lat.num(c)) for c in nums)
    if worst + 8 * d > MAX_UNITS:
        raise InputError(_("the coordinates are too fine or too large for the solver (common denominator "
                           "{denominator}, largest coefficient {largest} units; the limit is {limit} "
                           "units)").format(denominator=d, largest=worst, limit=MAX_UNITS))


def check_no_crossings(rings: list[list[Point]]) -> None:
    """Refuse rings that cross each other or themselves, or share an edge.

    Two edges cross in the middle of both (a proper crossing), or boundaries meet at a point that
    is a vertex of at least one of them; there they may only touch. Such contact points are
    collected during the sweep over nearby edge pairs and judged afterwards by
    :func:`_check_contacts`.
    """
    # floats sort and pre-check the pairs; the exact test runs only where floats cannot decide
    scale = coordinate_scale(p for r in rings for p in r)
    edges = []
    edge_dirs: list[list[int]] = []
    for ri, r in enumerate(rings):
        edge_dirs.append([])
        for ei in range(len(r)):
            a, b = r[ei], r[(ei + 1) % len(r)]
            fa, fb = float_point(a), float_point(b)
            box = (min(fa[0], fb[0]), max(fa[0], fb[0]), min(fa[1], fb[1]), max(fa[1], fb[1]))
            edge_dirs[ri].append(direction(a, b))
            edges.append((ri, ei, a, b, box, fa, fb, edge_dirs[ri][ei]))
    # vertices lying inside another edge: point -> the edges (ring, edge index) passing through it
    through_edges: dict[Point, set[tuple[int, int]]] = {}
    edges.sort(key=lambda e: e[4][0])
    n = len(edges)
    for i in range(n):
        ri, ei, a, b, box, fa, fb, dab = edges[i]
        for j in range(i + 1, n):
            rj, ej, c, d, box2, fc, fd, dcd = edges[j]
            if box2[0] > box[1] + 1e-9:
                break
            if box2[2] > box[3] + 1e-9 or box[2] > box2[3] + 1e-9:
                continue
            fl = (fa, fb, fc, fd)
            if segments_cross_prechecked(a, b, c, d, fl, scale):
                raise InputError(_("{edge} crosses {other}").format(edge=_edge_name(ri, ei, rings[ri]),
                                                                  other=_edge_name(rj, ej, rings[rj])))
            if segments_overlap_prechecked(a, b, c, d, dab, dcd, fl, scale):
                if ri == rj and abs(ei - ej) in (1, len(rings[ri]) - 1):
                    where = _edge_name(ri, max(ei, ej) if abs(ei - ej) == 1 else 0, rings[ri])
                    raise InputError(_("ring {ring} folds back on itself at {edge}").format(ring=ri + 1, edge=where))
                raise InputError(_("{edge} runs along {other}: rings may touch at points but not share an edge "
                                   "(merge them into one outline)").format(edge=_edge_name(ri, ei, rings[ri]),
                                                                          other=_edge_name(rj, ej, rings[rj])))
            if b is c or d is a:
                continue  # neighbours on a ring: an end inside the other edge would be an overlap
            for p, fp, q, r, fq, fr, dqr, edge in ((c, fc, a, b, fa, fb, dab, (ri, ei)),
                                                   (d, fd, a, b, fa, fb, dab, (ri, ei)),
                                                   (a, fa, c, d, fc, fd, dcd, (rj, ej)),
                                                   (b, fb, c, d, fc, fd, dcd, (rj, ej))):
                if point_inside_segment_prechecked(p, q, r, dqr, fp, fq, fr, scale):
                    through_edges.setdefault(p, set()).add(edge)
    _check_contacts(rings, edge_dirs, through_edges)


def _check_contacts(rings: list[list[Point]], edge_dirs: list[list[int]],
                    through_edges: dict[Point, set[tuple[int, int]]]) -> None:
    """Refuse boundaries that cross at a point where one of them has a vertex.

    Runs after the edge sweep, so no two edges overlap: at every point where boundaries meet,
    each boundary pass leaves in two directions of its own, and :func:`boundaries_cross_at`
    decides exactly whether two passes cross or only touch. ``edge_dirs[ri][ei]`` is the
    direction of edge ``ei`` of ring ``ri``; ``through_edges`` maps a vertex to the edges that
    pass through it (the point inside them).
    """
    at: dict[Point, list[tuple[int, int]]] = {}
    for ri, r in enumerate(rings):
        for vi, p in enumerate(r):
            at.setdefault(p, []).append((ri, vi))
    for p, vertices in at.items():
        through = sorted(through_edges.get(p, ()))
        if len(vertices) + len(through) < 2:
            continue  # the usual case: one ring's corner that nothing else touches
        # each pass: (directions it leaves p in, its ring, its name); vertices first
        here = [(((edge_dirs[ri][vi - 1] + 4) % 8, edge_dirs[ri][vi]), ri,
                 _("ring {ring} vertex {vertex}").format(ring=ri + 1, vertex=vi + 1))
                for ri, vi in vertices]
        here += [(((edge_dirs[ri][ei] + 4) % 8, edge_dirs[ri][ei]), ri, _edge_name(ri, ei, rings[ri]))
                 for ri, ei in through]
        for (dirs1, r1, name1), (dirs2, r2, name2) in combinations(here, 2):
            if boundaries_cross_at(dirs1, dirs2):
                if r1 == r2:
                    message = _("ring {ring} crosses itself at {point} ({first}, {second}): rings may touch at "
                                "points but not cross, and their insides may not overlap")
                else:
                    message = _("ring {ring} crosses ring {other} at {point} ({first}, {second}): rings may "
                                "touch at points but not cross, and their insides may not overlap")
                raise InputError(message.format(ring=r1 + 1, other=r2 + 1, point=point_text(p),
                                                first=name1, second=name2))


def symmetric_image(silhouette: Silhouette, turns: int, mirror: bool = False) -> Silhouette:
    """The figure mirrored (x -> -x) if asked, then turned by ``turns`` * 45 degrees, exactly.

    A symmetry of the plane maps covers to covers, so a figure and its images must get the same
    verdict; the tests and the bench check that with this function.
    """
    def image(point: Point) -> Point:
        x, y = point
        if mirror:
            x = -x
        for _turn in range(turns % 8):
            x, y = (x - y) / R2, (x + y) / R2
        return (x, y)
    return build_silhouette([([image(p) for p in ring], "ring") for ring in silhouette.rings()])
