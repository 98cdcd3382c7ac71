"""Independent exact verification that placed pieces cover a silhouette.

This module shares no code with the solver's lattice and chains: it works on Fractions through
:class:`~plugins.tangram.numbers.QS2` and decides everything with the separating-axis test along
the four 45-degree forms and exact ray casting.

A set of pieces covers a silhouette exactly when (1) every piece lies inside the silhouette,
(2) no two pieces share interior area, and (3) their areas add up to the silhouette's. Then the
union of the pieces is the silhouette (up to its boundary, which is what "cover" means).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .geometry import Point, interiors_overlap, point_in_ring, signed_area
from .i18n import _
from .numbers import QS2
from .pieces import Placement
from .silhouette import Silhouette


@lru_cache(maxsize=4096)
def _vertices(piece: Placement) -> tuple[Point, ...]:
    """A placed piece's vertices, computed once: checking a cover asks for them many times."""
    return piece.vertices()


def _centroid(pts: Sequence[Point]) -> Point:
    n = len(pts)
    return (sum((p[0] for p in pts), QS2(0)) / n, sum((p[1] for p in pts), QS2(0)) / n)


def point_in_silhouette(p: Point, s: Silhouette) -> int:
    """1 inside, 0 on the boundary, -1 outside (even-odd over all rings)."""
    inside = False
    for ring in s.rings():
        where = point_in_ring(p, ring)
        if where == 0:
            return 0
        if where > 0:
            inside = not inside
    return 1 if inside else -1


def piece_inside(piece: Placement, s: Silhouette) -> str | None:
    """None if the piece lies inside the silhouette, else why not."""
    pts = _vertices(piece)
    for ring in s.rings():
        n = len(ring)
        for i in range(n):
            if interiors_overlap((ring[i], ring[(i + 1) % n]), pts):
                return _("{piece} crosses the silhouette's edge").format(piece=piece.name)
    # no boundary passes through the piece's interior, so the interior is all in or all out
    if point_in_silhouette(_centroid(pts), s) < 0:
        return _("{piece} lies outside the silhouette").format(piece=piece.name)
    return None


def pieces_overlap(a: Placement, b: Placement) -> bool:
    """True if the two placed pieces share interior area (touching edges or corners is fine)."""
    return interiors_overlap(_vertices(a), _vertices(b))


def silhouette_area(s: Silhouette) -> QS2:
    total = QS2(0)
    for ring in s.rings():
        total = total + signed_area(ring)  # outlines CCW (+), holes CW (-)
    return total


def cover_problems(s: Silhouette, pieces: Sequence[Placement]) -> list[str]:
    """Everything that keeps ``pieces`` from being an exact cover of ``s`` (empty: it is one)."""
    problems = []
    for p in pieces:
        why = piece_inside(p, s)
        if why:
            problems.append(why)
    for i, a in enumerate(pieces):
        for b in pieces[i + 1:]:
            if pieces_overlap(a, b):
                problems.append(_("{piece} and {other} overlap").format(piece=a.name, other=b.name))
    area = sum((signed_area(_vertices(p)) for p in pieces), QS2(0))
    target = silhouette_area(s)
    if area != target:
        problems.append(_("the pieces cover area {area}, the silhouette has area {target}").format(
            area=area, target=target))
    return problems


def is_exact_cover(s: Silhouette, pieces: Sequence[Placement]) -> bool:
    return not cover_problems(s, pieces)
