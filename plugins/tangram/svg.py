"""SVG import: an SVG's polygons, polylines and simple paths as silhouette rings.

Exact coordinates (or decimals within 0.002 of simple exact numbers) are read exactly; any other
decimals go to the noisy reader (decimals.py), like decimal text.

Other programs export a tangram as its seven pieces, one ``<polygon>`` each. When the rings
are not a valid outline with holes (they share edges or overlap) and none lies inside another,
they are read as the pieces' union: exactly when every coordinate is exact (the lattice
boundary chain, shared edges cancel), else with shapely, whose union is closed by a small
buffer out and back in (mitred, so corners stay sharp) to bridge the small gaps and overlaps
between drawn pieces; the union's outline and holes then go to the noisy reader. Seven
polygons in decimals are first read as the seven pieces themselves (drawn_pieces.py): each
matched to a piece's shape and turn, their contacts made exact.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from engine import N_, InputError

from . import decimals
from .i18n import Note, PluralNote, _
from .numbers import format_number, parse_coordinate
from .silhouette import Silhouette, build_silhouette

_PATH_TOKEN = re.compile(r"[MmLlHhVvZz]|[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def silhouette_from_svg(text: str) -> Silhouette:
    """Rings from an SVG's polygons, polylines and simple paths (y flipped), then validated."""
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise InputError(_("SVG with DOCTYPE or ENTITY declarations is not accepted"))
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InputError(_("cannot read the SVG: {error}").format(error=exc)) from None
    raw_rings: list[list[tuple[str, str]]] = []
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1]
        if tag in ("polygon", "polyline"):
            nums = re.findall(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?", el.get("points", ""))
            if len(nums) % 2 or len(nums) < 6:
                raise InputError(_("an SVG {tag} has an odd or too small number of coordinates").format(tag=tag))
            raw_rings.append([(nums[i], nums[i + 1]) for i in range(0, len(nums), 2)])
        elif tag == "path":
            raw_rings.extend(_path_rings(el.get("d", "")))
    if not raw_rings:
        raise InputError(_("the SVG has no polygon, polyline or path"))
    try:
        return _svg_exact(raw_rings)
    except InputError as exc:
        try:
            floats = [[(float(x), -float(y)) for x, y in rr] for rr in raw_rings]
        except ValueError:
            raise exc from None
        drawn_as_pieces = len(floats) >= 2 and _pieces(floats)
        if drawn_as_pieces:
            exact = _exact_union(raw_rings)
            if exact is not None:
                return exact
        # seven polygons that are each a piece are the pieces, even where two touching at a
        # corner look nested to _pieces()
        drawn = _drawn_pieces(floats)
        if drawn is not None:
            return drawn
        if drawn_as_pieces:
            floats = union_rings(floats)
        return decimals.read_noisy_rings(floats, exc)


def _pieces(rings: list[list[tuple[float, float]]]) -> bool:
    """Whether the rings look like drawn pieces rather than an outline with holes: none lies
    inside another (a hole does; pieces only touch or overlap a little at their edges)."""
    from .outline import nesting_depths

    return max(nesting_depths(rings)) == 0


def _exact_union(raw_rings: list[list[tuple[str, str]]]) -> Silhouette | None:
    """The union of exact pieces (every coordinate exact or within 0.002 of exact), exactly;
    None when a coordinate is not exact or the pieces overlap."""
    from .lattice import Lattice, common_denominator, polygon_chain, ring_area2

    polys = []
    for rr in raw_rings:
        pts = []
        for xs, ys in rr:
            try:
                x, _ = parse_coordinate(xs)
                y, _ = parse_coordinate(ys)
            except InputError:
                return None
            pts.append((x, -y))
        polys.append(pts)
    try:
        lat = Lattice(common_denominator(c for pts in polys for p in pts for c in p))
        lattice_polys = []
        for pts in polys:
            lp = [lat.point(p) for p in pts]
            lattice_polys.append(lp if ring_area2(lp) > 0 else lp[::-1])  # counter-clockwise
        chain = polygon_chain(lattice_polys)
        rings = [([lat.to_point(p) for p in ring], "ring") for ring in chain.rings()]
        sil = build_silhouette(rings)
    except (InputError, ValueError, KeyError, ZeroDivisionError):
        return None
    total = sum(abs(ring_area2(lp)) for lp in lattice_polys) / 2
    region = sum(ring_area2(ring) for ring in chain.rings()) / 2
    # pieces that overlap cover less than their areas add up to: not a union of drawn pieces
    if abs(region - total) > 1e-6 * max(1.0, total):
        return None
    note = PluralNote("read as the union of {count} drawn piece", "read as the union of {count} drawn pieces",
                      len(polys), count=len(polys))
    return Silhouette(sil.components, sil.draft, (note, *sil.messages))


def _drawn_pieces(rings: list[list[tuple[float, float]]]) -> Silhouette | None:
    """The union of seven drawn pieces in decimals, each polygon read as the piece it is and
    the pieces made exact from their contacts (drawn_pieces.py); None when the polygons are
    not the seven pieces."""
    import math

    from .assembly import union_silhouette  # assembly imports the silhouette module
    from .drawn_pieces import read_drawn_pieces

    drawn = read_drawn_pieces(rings)
    if drawn is None:
        return None
    try:
        sil = union_silhouette(drawn.pieces)
    except InputError:
        return None
    norm = drawn.normalised
    notes = (PluralNote("read as the union of {count} drawn piece", "read as the union of {count} drawn pieces",
                        len(rings), count=len(rings)),
             Note(N_("read as an exact figure; vertices moved at most {moved} units (the outline was turned by "
                     "{angle} degrees and scaled by {scale})"),
                  moved=f"{drawn.moved:.2f}", angle=f"{math.degrees(norm.angle):.1f}", scale=f"{1 / norm.scale:.4g}"))
    return Silhouette(sil.components, sil.draft, (*notes, *sil.messages))


#: The gaps and overlaps between drawn pieces that are closed, as a share of the figure's unit
#: (a quarter of the big square's side): vertices moved by up to 0.1 units open gaps of 0.2.
GAP = 0.12


def union_rings(rings: list[list[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    """The outline and holes of the union of drawn pieces (decimal coordinates, any scale),
    with gaps between them narrower than about 2 * GAP units closed."""
    import math

    from shapely.geometry import MultiPolygon, Polygon
    from shapely.ops import unary_union

    polys = [Polygon(r).buffer(0) for r in rings if len(r) >= 3]
    area = sum(p.area for p in polys)
    if not area > 0:
        raise InputError(_("the SVG's polygons enclose no area"))
    gap = GAP * math.sqrt(area / 16)
    union = unary_union(polys).buffer(gap, join_style="mitre", mitre_limit=10.0) \
        .buffer(-gap, join_style="mitre", mitre_limit=10.0)
    parts = list(union.geoms) if isinstance(union, MultiPolygon) else [union]
    out = []
    for part in parts:
        if part.is_empty or part.area < 0.002 * area:
            continue
        for ring in (part.exterior, *part.interiors):
            pts = [(float(x), float(y)) for x, y in ring.coords[:-1]]
            if len(pts) >= 3:
                out.append(pts)
    if not out:
        raise InputError(_("the SVG's polygons enclose no area"))
    return out


def _svg_exact(raw_rings: list[list[tuple[str, str]]]) -> Silhouette:
    snaps: list[str] = []
    rings = []
    for rr in raw_rings:
        pts = []
        for xs, ys in rr:
            x, mx = parse_coordinate(xs)
            y, my = parse_coordinate(ys)
            for raw, v, m in ((xs, x, mx), (ys, y, my)):
                if m:
                    snaps.append(Note(N_("{number} snapped to {exact} (moved {moved})"),
                                      number=raw, exact=format_number(v), moved=f"{m:.2g}"))
            pts.append((x, -y))
        rings.append((pts, "ring"))
    if len(snaps) > 20:
        snaps = snaps[:20] + [Note(N_("... and {count} more snapped coordinates"), count=len(snaps) - 20)]
    return build_silhouette(rings, (), snaps)


def _path_rings(d: str) -> list[list[tuple[str, str]]]:
    tokens = _PATH_TOKEN.findall(d)
    rings, cur = [], []
    x = y = "0"
    cmd = None
    i = 0

    def add(a: str, b: str) -> str:
        return repr(float(a) + float(b))

    while i < len(tokens):
        t = tokens[i]
        if t.isalpha():
            cmd = t
            i += 1
            if cmd in "Zz":
                if cur:
                    rings.append(cur)
                cur = []
            continue
        if cmd is None:
            raise InputError(_("an SVG path must start with a command such as M"))
        try:
            if cmd in "MLml":
                nx, ny = tokens[i], tokens[i + 1]
                i += 2
                if cmd in "ml" and (cur or cmd == "l"):
                    nx, ny = add(x, nx), add(y, ny)
                if cmd in "Mm" and cur:
                    rings.append(cur)
                    cur = []
                x, y = nx, ny
                cur.append((x, y))
                cmd = {"M": "L", "m": "l"}.get(cmd, cmd)
            elif cmd in "Hh":
                x = tokens[i] if cmd == "H" else add(x, tokens[i])
                i += 1
                cur.append((x, y))
            elif cmd in "Vv":
                y = tokens[i] if cmd == "V" else add(y, tokens[i])
                i += 1
                cur.append((x, y))
            else:
                raise InputError(_("SVG path command {command} is not supported (only M, L, H, V, Z)").format(
                    command=repr(cmd)))
        except IndexError:
            raise InputError(_("an SVG path ends in the middle of a command")) from None
        if tokens[i - 1].isalpha():
            break
    if len(cur) >= 3:
        rings.append(cur)
    return rings
