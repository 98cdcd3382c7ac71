"""Preset figures: the 13 convex tangrams, classic figures, and figures that exercise the rules.

* ``convex-*``: the 13 convex figures (Wang and Hsiung, 1942). :func:`convex_candidates`
  enumerates every convex polygon with 45-degree edges made of 16 of the small half-square
  triangles; it finds 20, as Wang and Hsiung proved (OEIS A245676, a(16) = 20), and exactly 13 of
  them can be covered (the solver proves the other 7 impossible, listed in
  :data:`IMPOSSIBLE_CONVEX`). Each is written by its edge lengths
  ``(l0..l7)``: ``lk`` steps in direction ``k`` * 45 degrees on the grid of the half-square
  triangles (legs 1), then scaled by sqrt 2 (and turned 45 degrees where that shows more
  horizontal edges) to the pieces' unit.
* Classic picture figures (cat, rabbit, swan, house, sailboat, fish, bird, candle), drawn by this
  project in the style of the classic tangram books: each is built as an exact placement of the
  seven pieces (:data:`COMPOSITIONS`, in move notation) and stored as the silhouette of their
  union, so it is solvable by construction (the solver finds its own cover). To change one, edit
  its placement and regenerate the text with ``format_silhouette(union_silhouette(pieces))``.
* Figures for the rules: two separate islands, a bow tie touching at one point, a figure slid
  off the lattice, and seeded assemblies with holes and point contacts.
"""

from __future__ import annotations

import itertools

_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))

CONVEX = {
    "convex-triangle": "outer 0,0 8,0 4,4\n",  # (0, 0, 4, 0, 4, 0, 0, 4)
    "convex-square": "outer 0,0 4,0 4,4 0,4\n",  # (0, 2, 0, 2, 0, 2, 0, 2)
    "convex-rectangle": "outer 0,0 2r2,0 2r2,4r2 0,4r2\n",  # (2, 0, 4, 0, 2, 0, 4, 0)
    "convex-parallelogram": "outer 4,0 8,0 4,4 0,4\n",  # (0, 0, 4, 2, 0, 0, 4, 2)
    "convex-trapezoid": "outer 2,0 6,0 0,6 0,2\n",  # (0, 0, 6, 0, 0, 2, 2, 2)
    "convex-right-trapezoid": "outer 0,0 6,0 2,4 0,4\n",  # (0, 0, 4, 1, 0, 2, 0, 3)
    "convex-right-trapezoid-2": "outer 2r2,0 2r2,5r2 0,5r2 0,2r2\n",  # (0, 0, 5, 0, 2, 0, 3, 2)
    "convex-pentagon": "outer 1,0 7,0 4,3 0,3 0,1\n",  # (0, 0, 3, 2, 0, 1, 1, 3)
    "convex-pentagon-2": "outer 2r2,0 4r2,2r2 4r2,3r2 0,3r2 0,2r2\n",  # (0, 2, 1, 0, 4, 0, 1, 2)
    "convex-hexagon": "outer 3,0 5,0 5,2 2,5 0,5 0,3\n",  # (0, 1, 3, 1, 0, 1, 3, 1)
    "convex-hexagon-2": "outer 2r2,0 3r2,0 3r2,2r2 r2,4r2 0,4r2 0,2r2\n",  # (1, 0, 2, 2, 1, 0, 2, 2)
    "convex-hexagon-3": "outer r2,0 2r2,0 3r2,r2 3r2,3r2 0,3r2 0,r2\n",  # (1, 1, 2, 0, 3, 0, 2, 1)
    "convex-hexagon-4": "outer r2,0 3r2,0 3r2,2r2 2r2,3r2 0,3r2 0,r2\n",  # (2, 0, 2, 1, 2, 0, 2, 1)
}

#: Classic picture figures. Each text is the union (``assembly.union_silhouette``) of its
#: placement in :data:`COMPOSITIONS`; ``tests/test_tangram_solver.py`` checks that they agree.
CLASSIC = {
    "cat": 'outer -1,-5 3,-5 4,-4 4,-2 3,-3 1,-3 0,-2 1,-1 1,1 0,0 -1,1\n',
    "rabbit": 'outer -1,-5 3,-5 4,-4 3,-3 1,-3 0,-2 1,-1 1,1 0,2 0,0 -1,1\n',
    "swan": 'outer 2,0 4,0 6,2 4,4 4,2 2,2 1,3 1,5 0,6 -2,4 0,4 0,2\n',
    "house": 'outer 0,0 4+r2,0 4+r2,r2 4,r2 4,2 7/2,5/2 7/2,9/2 5/2,11/2 5/2,7/2 2,4 0,2\n',
    "sailboat": 'outer r2,0 4r2,0 5r2,r2 5/2r2,r2 2+5/2r2,2+r2 5/2r2,4+r2 5/2r2,3r2 1/2r2,r2 0,r2\n',
    "fish": 'outer 1,-3 4,0 2,2 2,4 1,3 1,1 0,0 -2,2 -2,-2 0,0 1,-1 0,-2\n',
    "bird": 'outer 2,-4 4,-4 2,-2 4,0 6,0 5,1 3,1 1,3 -1,3 1,1 0,0 2,-2 1,-3\n',
    "candle": 'outer -1,-1 1,-1 2,0 2,6 1,6 2,7 1,8 0,7 1,6 0,6 0,0\n',
}

#: Figures that exercise the rules (islands, holes, point contacts, off-lattice slides).
RULES = {
    "islands": 'outer 0,0 4,0 0,4\nouter 10,0 10,4 6,4\n',
    "assembly-hole": 'outer -2,-6 0,-4 -1,-3 -1,-1 0,-2 2,-2 0,0 1,1 0,2 1,3 -3,3 -2,2\nhole -1,-1 -2,0 -1,1 0,0\n',
    "assembly-hole-2": 'outer 4-r2,-2r2 4,-2r2 4,-r2 2,2-r2 r2,0 r2,r2 0,2r2 1-r2,1+r2 -r2,2+r2 -r2,r2 -2-r2,-2+r2 -r2,-4+r2 -r2,0 0,0 0,-r2 4-r2,-r2\nhole 0,0 -r2,r2 r2,r2\n',
    "assembly-hole-slid": 'outer 2,-2 2,2 r2,r2 r2,2r2 -2-r2,2r2 -3-r2,1+2r2 -4-r2,2r2 -2-r2,2r2 -2,r2 -2r2,r2 -1-3/2r2,1+1/2r2 -2-3/2r2,1/2r2 -1-3/2r2,-1+1/2r2 -3/2r2,1/2r2 0,-r2 0,0\nhole -2,r2 -2+r2,2r2 -1+r2,-1+2r2 0,r2\n',
    "assembly-hole-slid-2": 'outer -2,-2 4,-2 3,-1 4,0 3,1 2,0 0,0 -2,-2 -2,0 -4,0 -4,1/3r2 -4+2r2,7/3r2 -4,7/3r2 -4,r2 -4-r2,0 -4,0\nhole 2,-2 1,-1 3,-1\n',
    "assembly-touch": 'outer 0,-2r2 3/2r2,-1/2r2 1+3/2r2,-1-1/2r2 2+3/2r2,-1/2r2 1+3/2r2,1-1/2r2 2r2,0 2r2,r2 3r2,r2 3r2,2r2 2r2,r2 1+5/4r2,-1+7/4r2 2+5/4r2,7/4r2 5/4r2,7/4r2 r2,2r2 r2,r2 -2+2r2,2 -2,2 -2+r2,2-r2 -4+2r2,0 0,0\n',
    "assembly-slid": 'outer -2,-2 2,-2 1,-1 2,0 1+r2,1-r2 1+2r2,1 1+r2,1+r2 3+3/4r2,3+3/4r2 -1+3/4r2,3+3/4r2 1+3/4r2,1+3/4r2 1,1 1,3 0,2 0,0\n',
    "assembly-slid-2": 'outer -7/12-r2,-65/12 17/12-r2,-41/12 17/12,-41/12 -1/4,-7/4 3/4,-3/4 0,0 1,1 1,3 -1,1 -5/3,5/3 -5/3,-1/3 -2/3,2/3 -1/4,1/4 -5/4,-3/4 -7/12,-17/12 -31/12+r2,-41/12+r2 -31/12,-41/12+r2 -31/12-r2,-41/12\n',
    "bowtie": "outer 0,0 4,0 0,4\nouter 4,0 8,4 4,4\n",
    "slid-halves": "outer 0,0 4,0 7/2,1/2 7/2,9/2 -1/2,9/2 0,4\n",
    "slid-root2": "outer 0,0 4,0 4-1/2r2,1/2r2 4-1/2r2,4+1/2r2 -1/2r2,4+1/2r2 0,4\n",
}

#: The placements whose union is each composed figure (a known cover).
COMPOSITIONS = {
    "cat": ('L1 r3 f0 @ 1,-3', 'L2 r5 f0 @ 1,-3', 'M r4 f0 @ 3,-3', 'S1 r7 f0 @ 0,0', 'S2 r3 f0 @ 0,0', 'Q r1 f0 @ 0,-2', 'P r2 f1 @ 4,-2'),
    "rabbit": ('L1 r3 f0 @ 1,-3', 'L2 r5 f0 @ 1,-3', 'M r4 f0 @ 3,-3', 'S1 r3 f0 @ 4,-4', 'S2 r3 f0 @ 0,0', 'Q r1 f0 @ 0,-2', 'P r2 f0 @ 1,-1'),
    "swan": ('L1 r1 f0 @ 2,0', 'L2 r3 f0 @ 6,2', 'M r2 f0 @ 4,0', 'S1 r5 f0 @ 1,3', 'S2 r5 f0 @ -1,5', 'Q r1 f0 @ 0,4', 'P r2 f1 @ 1,5'),
    "house": ('L1 r5 f0 @ 2,4', 'L2 r1 f0 @ 2,0', 'M r0 f0 @ 0,0', 'S1 r5 f0 @ 3,1', 'S2 r7 f0 @ 3,1', 'Q r0 f0 @ 4,0', 'P r2 f0 @ 7/2,5/2'),
    "sailboat": ('L1 r3 f0 @ 2+5/2r2,2+r2', 'L2 r2 f0 @ 5/2r2,r2', 'M r1 f0 @ 2r2,0', 'S1 r2 f0 @ 3r2,0', 'S2 r6 f0 @ 4r2,r2', 'Q r0 f0 @ 3r2,0', 'P r3 f0 @ 2r2,0'),
    "fish": ('L1 r5 f0 @ 2,2', 'L2 r1 f0 @ 2,-2', 'M r0 f0 @ -2,0', 'S1 r1 f0 @ -1,-1', 'S2 r3 f0 @ -1,-1', 'Q r1 f0 @ 1,-3', 'P r2 f1 @ 2,4'),
    "bird": ('L1 r5 f0 @ 2,2', 'L2 r1 f0 @ 2,-2', 'M r0 f0 @ 2,-4', 'S1 r1 f0 @ 0,2', 'S2 r7 f0 @ 1,-3', 'Q r1 f0 @ 1,1', 'P r0 f1 @ 6,0'),
    "candle": ('L1 r3 f0 @ 2,2', 'L2 r7 f0 @ 0,4', 'M r2 f0 @ 2,0', 'S1 r3 f0 @ 1,5', 'S2 r1 f0 @ 1,5', 'Q r1 f0 @ 1,6', 'P r0 f0 @ -1,-1'),
    "islands": ('L1 r5 f0 @ 2,2', 'L2 r3 f0 @ 2,2', 'P r2 f0 @ 10,0', 'S1 r7 f0 @ 8,2', 'Q r1 f0 @ 8,2', 'M r4 f0 @ 10,4', 'S2 r1 f0 @ 7,3'),
    "assembly-hole": ('Q r5 f1 @ -1,1', 'S2 r1 f1 @ -1,1', 'P r6 f0 @ -2,0', 'S1 r5 f1 @ -1,-1', 'L1 r3 f0 @ 0,-4', 'L2 r7 f1 @ -1,1', 'M r6 f1 @ 0,-2'),
    "assembly-hole-2": ('P r5 f0 @ r2,r2', 'M r3 f1 @ 0,2r2', 'S1 r0 f0 @ -r2,0', 'S2 r3 f0 @ 1-r2,1+r2', 'L1 r3 f1 @ 2,2-r2', 'Q r0 f0 @ 4-r2,-2r2', 'L2 r7 f0 @ -2-r2,-2+r2'),
    "assembly-hole-slid": ('P r1 f0 @ 0,0', 'S2 r7 f1 @ -1+r2,-1+2r2', 'L1 r7 f0 @ 0,0', 'L2 r4 f0 @ 0,r2', 'M r7 f1 @ -2,r2', 'Q r5 f1 @ -2-3/2r2,1/2r2', 'S1 r5 f0 @ -3-r2,1+2r2'),
    "assembly-hole-slid-2": ('P r4 f1 @ 0,0', 'S2 r3 f1 @ 3,-1', 'L2 r5 f0 @ 0,0', 'Q r3 f1 @ 3,1', 'M r4 f0 @ -2,0', 'S1 r2 f0 @ -4,0', 'L1 r6 f0 @ -4,7/3r2'),
    "assembly-touch": ('L1 r4 f1 @ 0,0', 'L2 r3 f1 @ -2+2r2,2', 'P r3 f1 @ r2,2r2', 'S2 r2 f0 @ 3r2,r2', 'M r7 f1 @ -2+r2,2-r2', 'S1 r7 f1 @ 1+5/4r2,-1+7/4r2', 'Q r5 f1 @ 3/2r2,-1/2r2'),
    "assembly-slid": ('L1 r3 f1 @ 0,0', 'Q r3 f1 @ 1,1', 'M r7 f0 @ 1,1', 'P r6 f1 @ 0,0', 'L2 r7 f1 @ 1+3/4r2,1+3/4r2', 'S2 r6 f0 @ 1+r2,1', 'S1 r6 f1 @ 1+r2,1'),
    "assembly-slid-2": ('S1 r1 f0 @ 0,0', 'S2 r3 f0 @ -2/3,2/3', 'Q r3 f0 @ 3/4,-3/4', 'M r2 f0 @ 1,1', 'L2 r5 f0 @ -7/12,-17/12', 'P r5 f1 @ -31/12-r2,-41/12', 'L1 r7 f1 @ -7/12-r2,-65/12'),
}

#: The pictures come first ("cat" is the editor's default and the gallery thumbnail); "square" is
#: the classic 4 x 4 square, also listed as convex-square.
PRESETS = {**CLASSIC, "square": CONVEX["convex-square"], **CONVEX, **RULES}


def convex_candidates() -> list[tuple[int, ...]]:
    """Edge-length vectors (l0..l7) of all convex 45-degree polygons of area 8 on the unit grid.

    Up to rotation and reflection; area 8 = 16 half-square triangles. Closure fixes l6 and l7.

    Why edges of up to 9 steps: a polygon with 45-degree edges and an edge of n steps has, at the
    least height (one step), an opposite edge of n - 2 steps, so its area is at least n - 1 and
    n <= 9 (the flat trapezoid 9 / 7 at height 1 reaches it; a diagonal edge allows at most 8).
    """
    found = set()
    longest = 9
    r = range(longest + 1)
    for l0, l1, l2, l3, l4, l5 in itertools.product(r, r, r, r, r, r):
        l7 = l3 + l4 + l5 - l0 - l1
        l6 = l1 + l2 + l3 - l5 - l7
        if not (0 <= l7 <= longest and 0 <= l6 <= longest):
            continue
        lengths = (l0, l1, l2, l3, l4, l5, l6, l7)
        x = y = twice_area = 0
        for k, n in enumerate(lengths):
            nx, ny = x + n * _STEPS[k][0], y + n * _STEPS[k][1]
            twice_area += x * ny - nx * y
            x, y = nx, ny
        if twice_area != 16:
            continue
        variants = []
        for rot in (0, 2, 4, 6):
            turned = tuple(lengths[(k - rot) % 8] for k in range(8))
            variants += [turned, tuple(turned[(8 - k) % 8] for k in range(8))]
        found.add(min(variants))
    return sorted(found)


def convex_text(lengths: tuple[int, ...]) -> str:
    """Silhouette text of an edge-length vector, in the pieces' unit ((x, y) -> (x-y, x+y))."""
    x = y = 0
    pts = []
    for k, n in enumerate(lengths):
        if n:
            pts.append((x, y))
            x, y = x + n * _STEPS[k][0], y + n * _STEPS[k][1]
    return "outer " + " ".join(f"{a - b},{a + b}" for a, b in pts) + "\n"


#: Convex 45-degree figures of area 16 that no tangram cover exists for.
IMPOSSIBLE_CONVEX = {
    "convex-thin-rectangle": convex_text((1, 0, 8, 0, 1, 0, 8, 0)),
    "convex-long-parallelogram": convex_text((0, 0, 8, 1, 0, 0, 8, 1)),
    "convex-wide-rectangle": convex_text((0, 1, 0, 4, 0, 1, 0, 4)),
    "convex-long-trapezoid": convex_text((0, 0, 2, 3, 2, 0, 0, 5)),
    "convex-slanted-parallelogram": convex_text((0, 0, 2, 4, 0, 0, 2, 4)),
    "convex-needle-parallelogram": convex_text((0, 0, 1, 8, 0, 0, 1, 8)),
    "convex-flat-trapezoid": convex_text((0, 0, 9, 0, 0, 1, 7, 1)),
}


def vertex_moved_variants(text: str) -> list[str]:
    """Figures made from ``text`` by moving one vertex so that the area stays 16.

    A vertex v between neighbours u and w is reflected across the perpendicular bisector of u-w;
    when u-w runs at a multiple of 45 degrees the two new edges do too, and the triangle u v w
    keeps its area, so the figure keeps area 16. Variants that are not valid figures (the moved
    vertex makes edges cross) are skipped. Used by the bench and the tests as near-solvable
    figures that are (almost always) impossible.
    """
    from engine import InputError

    from .geometry import direction
    from .numbers import QS2
    from .silhouette import format_silhouette, parse_silhouette

    sil = parse_silhouette(text)
    out = []
    rings = [(ci, k, ring) for ci, comp in enumerate(sil.components) for k, ring in enumerate(comp.rings())]
    for index, (_, _, ring) in enumerate(rings):
        n = len(ring)
        for i in range(n):
            u, v, w = ring[i - 1], ring[i], ring[(i + 1) % n]
            d = direction(u, w)
            if d is None:
                continue
            # reflect v across the line through the midpoint of u-w, perpendicular to u-w
            mx, my = (u[0] + w[0]) * QS2(1, 0) / 2, (u[1] + w[1]) * QS2(1, 0) / 2
            ux, uy = _STEPS[d]
            # component of (v - m) along the unit direction (ux, uy) flips sign
            dot = (v[0] - mx) * ux + (v[1] - my) * uy
            norm2 = ux * ux + uy * uy
            shift = dot * 2 / norm2
            moved = (v[0] - shift * ux, v[1] - shift * uy)
            if moved == v:
                continue
            new_ring = ring[:i] + (moved,) + ring[i + 1:]
            lines = []
            for j, (_, k, r) in enumerate(rings):
                r2 = new_ring if j == index else r
                lines.append(("outer " if k == 0 else "hole ") + " ".join(f"{x},{y}" for x, y in r2))
            try:
                variant = parse_silhouette("\n".join(lines))
            except InputError:
                continue
            out.append(format_silhouette(variant))
    return out
