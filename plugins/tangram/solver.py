"""The exact, complete tangram solver.

**Branching rule.** Let v be the lowest, then leftmost, vertex of the still uncovered region R,
and let a0 be the smallest direction in which R's boundary leaves v. Some piece covers the points
of R just above the ray from v in direction a0; that piece contains v, and since it lies inside R
(whose points all lie above v, or level with it and to the right), v is the piece's own
lowest-leftmost vertex and the piece's edge leaving v runs in direction a0. So each node tries only
the piece orientations whose lowest-leftmost corner leaves in direction a0 and whose angle there
fits R's angle at v: a few dozen (shape, orientation) pairs, no grid, no positions to guess.
Trying all of them and recursing is a complete search: when it finds nothing, no cover exists.

**Exactness.** The region is a boundary chain in an integer lattice (:mod:`lattice`); a candidate
piece fits when no boundary edge meets the piece's open interior (tested along the four 45-degree
forms) and its corner fits R's angle at v. Removing it adds its boundary reversed.

**Pruning.** (1) Edge lengths: a straight boundary run between two convex corners is covered
exactly by piece edges lying on it, one per piece, so its length must be a sum of edge lengths of
distinct remaining pieces (each length is a + b*sqrt2 with a even): figures with off-lattice edges
the pieces cannot make die at once. (2) 45-degree corners: each needs a distinct 45-degree piece
corner. (3) Failed (region, remaining pieces) states are remembered, because different
placements of the same pieces can leave the same region. (Area always matches: the silhouette
has area 16 and every removal keeps the balance.)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine import N_, SolveContext, Solved, Solver, Unsolvable

from .geometry import direction, point_text
from .i18n import CATALOGUE, _, count, ngettext
from .lattice import EPS, Chain, Lattice, common_denominator, fval
from .numbers import format_number
from .pieces import Placement, distinct_orientations, oriented_shape
from .silhouette import Silhouette

#: Shapes in the order tried (big first fails fast) and how many of each there are.
SHAPES = ("L", "M", "P", "Q", "S")
COUNT = {"L": 2, "M": 1, "P": 1, "Q": 1, "S": 2}
#: Edge lengths of each shape as (a, b): a + b*sqrt2.
EDGE_LENGTHS = {"L": ((0, 2), (4, 0)), "M": ((2, 0), (0, 2)), "S": ((0, 1), (2, 0)),
                "Q": ((0, 1),), "P": ((2, 0), (0, 1))}
CORNERS_45 = {"L": 2, "M": 2, "S": 2, "Q": 0, "P": 2}
MEMO_LIMIT = 200_000


@dataclass(frozen=True)
class Orientation:
    """One orientation of a shape, seen from its lowest-leftmost vertex (the anchor)."""

    shape: str
    rot: int
    flip: int
    offsets: tuple          # lattice offsets of the vertices from the anchor, CCW, anchor first
    out_dir: int            # direction of the edge leaving the anchor
    angle: int              # interior angle at the anchor, in 45-degree steps
    ranges: tuple           # (minx, maxx, miny, maxy, mins, maxs, mind, maxd) of the offsets
    anchor_from_v0: tuple   # exact (QS2, QS2) offset of the anchor from vertex 0


def orientations(d: int) -> dict:
    """For lattice denominator d: shape -> out_dir -> list of Orientation."""
    return _orientations(d)


@lru_cache(maxsize=64)
def _orientations(d: int) -> dict:
    lat = Lattice(d)
    table = {}
    for shape in SHAPES:
        by_dir: dict[int, list] = {}
        for rot, flip in distinct_orientations(shape):
            pts = oriented_shape(shape, rot, flip)
            i = min(range(len(pts)), key=lambda k: (pts[k][1], pts[k][0]))
            cyc = pts[i:] + pts[:i]
            anchor = cyc[0]
            offs = tuple(lat.point((x - anchor[0], y - anchor[1])) for x, y in cyc)
            out_dir = direction(cyc[0], cyc[1])
            back_dir = direction(cyc[0], cyc[-1])
            fl = [(fval(o[0], o[1]), fval(o[2], o[3])) for o in offs]
            xs = [p[0] for p in fl]
            ys = [p[1] for p in fl]
            ss = [p[0] + p[1] for p in fl]
            ds = [p[1] - p[0] for p in fl]
            o = Orientation(shape, rot, flip, offs, out_dir, (back_dir - out_dir) % 8,
                            (min(xs), max(xs), min(ys), max(ys), min(ss), max(ss), min(ds), max(ds)),
                            anchor)
            by_dir.setdefault(out_dir, []).append(o)
        table[shape] = by_dir
    return table


@lru_cache(maxsize=4096)
def _length_sums(counts: tuple) -> frozenset:
    """All (a, b) with a + b*sqrt2 a sum of edge lengths of distinct pieces among ``counts``."""
    sums = {(0, 0)}
    for shape, n in zip(SHAPES, counts):
        for _piece in range(n):
            sums |= {(a + la, b + lb) for a, b in sums for la, lb in EDGE_LENGTHS[shape]}
    return frozenset(sums)


class Stop(Exception):
    pass


class Search:
    """One search over a silhouette; also answers 'which placements fit next' for legal_moves."""

    def __init__(self, silhouette: Silhouette, ctx: SolveContext | None = None, extra_numbers=()):
        nums = [c for r in silhouette.rings() for p in r for c in p] + list(extra_numbers)
        self.lattice = Lattice(common_denominator(nums))
        self.d = self.lattice.d
        self.table = orientations(self.d)
        chain = Chain()
        for comp in silhouette.components:
            for ring in comp.rings():
                chain = chain.with_polygon([self.lattice.point(p) for p in ring])
        self.root = chain
        self.ctx = ctx
        self.nodes = 0
        self.max_depth = 0
        self.memo: set = set()
        self.memo_hits = 0

    # -- the branching rule --------------------------------------------------------------------
    def anchor(self, edges):
        """(v, vx, vy, a0, wedge) at the lowest-leftmost vertex of the region with these edges."""
        best = min(edges, key=lambda e: (e[4], e[3]))
        v = best[0]
        outs = [e[2] for e in edges if e[0] == v]
        ins = [(e[2] + 4) % 8 for e in edges if e[1] == v]
        a0 = min(outs)
        ends = [r for r in ins if r > a0]
        wedge = (min(ends) if ends else 8) - a0
        return v, best[3], best[4], a0, wedge

    def candidates(self, chain: Chain, counts: tuple):
        """Pieces (shape, Orientation, lattice vertices) that fit at the anchor vertex."""
        edges = chain.edges()
        if not edges:
            return []
        v, vx, vy, a0, wedge = self.anchor(edges)
        vs, vd = vx + vy, vy - vx
        out = []
        for si, shape in enumerate(SHAPES):
            if not counts[si]:
                continue
            for o in self.table[shape].get(a0, ()):
                if o.angle > wedge:
                    continue
                r = o.ranges
                minx, maxx = vx + r[0] + EPS, vx + r[1] - EPS
                miny, maxy = vy + r[2] + EPS, vy + r[3] - EPS
                mins, maxs = vs + r[4] + EPS, vs + r[5] - EPS
                mind, maxd = vd + r[6] + EPS, vd + r[7] - EPS
                for e in edges:
                    # the edge misses the open piece if separated along one of the four forms
                    if (e[6] <= minx or e[5] >= maxx or e[8] <= miny or e[7] >= maxy
                            or e[10] <= mins or e[9] >= maxs or e[12] <= mind or e[11] >= maxd):
                        continue
                    break
                else:
                    pts = [(v[0] + a, v[1] + b, v[2] + c, v[3] + dd) for a, b, c, dd in o.offsets]
                    out.append((si, o, pts, v))
        return out

    def placement(self, name: str, o: Orientation, v) -> Placement:
        x, y = self.lattice.to_point(v)
        return Placement(name, o.rot, o.flip, x - o.anchor_from_v0[0], y - o.anchor_from_v0[1])

    # -- pruning --------------------------------------------------------------------------------
    def hopeless(self, chain: Chain, counts: tuple) -> str | None:
        """A reason the remaining pieces cannot cover ``chain``'s region, or None."""
        edges = chain.edges()
        outs: dict = {}
        ins: dict = {}
        for e in edges:
            outs.setdefault(e[0], []).append(e)
            ins.setdefault(e[1], []).append(e)
        sums = _length_sums(counts)
        d = self.d
        acute = 0
        for e in edges:
            s, t = e[0], e[1]
            ein, eout = ins[s], outs[t]
            # corner at t: simple vertex turning left by 135 degrees is a 45-degree corner
            if len(eout) == 1 and len(ins[t]) == 1 and (eout[0][2] - e[2]) % 8 == 3:
                acute += 1
            if len(ein) != 1 or len(outs[s]) != 1 or len(eout) != 1 or len(ins[t]) != 1:
                continue
            if (e[2] - ein[0][2]) % 8 not in (1, 2, 3) or (eout[0][2] - e[2]) % 8 not in (1, 2, 3):
                continue
            # a straight run between two convex corners: its length must be a sum of piece edges
            da, db = t[0] - s[0], t[1] - s[1]
            if e[2] % 4 == 2:
                da, db = t[2] - s[2], t[3] - s[3]
            if fval(da, db) < 0:
                da, db = -da, -db
            if e[2] % 2 == 1:  # diagonal: length = |dx| * sqrt2
                da, db = 2 * db, da
            if da % d or db % d or (da // d, db // d) not in sums:
                return _("the boundary edge from {start} to {end} (length {length}) is not a sum of edges "
                         "of the remaining pieces").format(start=_pt(self.lattice, s), end=_pt(self.lattice, t),
                                                           length=_len_text(self.lattice, da, db))
        if acute > sum(n * CORNERS_45[sh] for sh, n in zip(SHAPES, counts)):
            return _("the region has {count} corners of 45 degrees, more than the pieces can fill").format(
                count=acute)
        return None

    # -- search ----------------------------------------------------------------------------------
    def solve(self):
        """List of Placements, or None if there is no cover. Raises Stop on deadline/cancel."""
        counts = tuple(COUNT[s] for s in SHAPES)
        return self._dfs(self.root, counts, [])

    def _dfs(self, chain: Chain, counts: tuple, placed: list):
        self.nodes += 1
        if len(placed) > self.max_depth:
            self.max_depth = len(placed)
        if self.ctx is not None and self.nodes % 128 == 0:
            if self.ctx.should_stop():
                raise Stop()
            self.ctx.progress(nodes=self.nodes, depth=len(placed), max_depth=self.max_depth,
                              memo_hits=self.memo_hits)
        if not any(counts):
            return list(placed) if chain.is_empty() else None
        key = None
        if placed:
            key = (frozenset(chain.lines.items()), counts)
            if key in self.memo:
                self.memo_hits += 1
                return None
        for si, o, pts, v in self.candidates(chain, counts):
            try:
                nxt = chain.with_polygon(pts, reverse=True)
            except ValueError:
                continue
            left = counts[:si] + (counts[si] - 1,) + counts[si + 1:]
            if any(left) and self.hopeless(nxt, left):
                continue
            shape = SHAPES[si]
            name = shape if COUNT[shape] == 1 else f"{shape}{COUNT[shape] - counts[si] + 1}"
            placed.append(self.placement(name, o, v))
            found = self._dfs(nxt, left, placed)
            placed.pop()
            if found is not None:
                return found
        if key is not None and len(self.memo) < MEMO_LIMIT:
            self.memo.add(key)
        return None


def _pt(lat: Lattice, p) -> str:
    return "(" + point_text(lat.to_point(p)) + ")"


def _len_text(lat: Lattice, a: int, b: int) -> str:
    return format_number(lat.qs2(a, b))


class ExactSolver(Solver):
    """Complete exact search (lowest-leftmost vertex rule); proves impossibility."""

    puzzle_id = "tangram"
    name = "exact"
    # Every cover uses exactly seven moves, so any solution found is a shortest one.
    optimal = True
    catalogue = CATALOGUE
    description = N_("Complete exact search: the lowest-leftmost uncovered vertex must be a piece's "
                   "lowest-leftmost corner; exact lattice arithmetic; proves impossibility.")

    def solve(self, instance: Silhouette, ctx: SolveContext):
        search = Search(instance, ctx)
        stats = lambda: {"nodes": search.nodes, "max_depth": search.max_depth,  # noqa: E731
                         "memo_hits": search.memo_hits}
        reason = search.hopeless(search.root, tuple(COUNT[s] for s in SHAPES))
        if reason:
            return Unsolvable(_("no cover exists: {reason}").format(reason=reason), stats=stats())
        try:
            found = search.solve()
        except Stop:
            return ctx.gave_up(**stats())
        ctx.progress(force=True, **stats())
        if found is None:
            return Unsolvable(ngettext("no cover exists: the complete search tried every placement at the "
                                       "lowest-leftmost uncovered corner ({count} node) and none covers the figure",
                                       "no cover exists: the complete search tried every placement at the "
                                       "lowest-leftmost uncovered corner ({count} nodes) and none covers the figure",
                                       search.nodes).format(count=count(search.nodes)), stats=stats())
        return Solved(tuple(p.notation() for p in found), optimal=True, stats=stats())
