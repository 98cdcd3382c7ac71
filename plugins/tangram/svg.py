"""SVG import: an SVG's polygons, polylines, rectangles and paths as silhouette rings.

The document is read as a browser draws it (svgelements): transforms of shapes, groups and
``<use>`` applied, hidden shapes and definitions left out, every path command understood.

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

import io
import math
import xml.etree.ElementTree as ET

from svgelements import SVG, Close, CubicBezier, Line, Move, Path, Polygon, Polyline, QuadraticBezier, Rect, Shape

from engine import N_, InputError

from . import decimals
from .i18n import Note, PluralNote, _
from .numbers import format_number, parse_coordinate
from .silhouette import Silhouette, build_silhouette


def silhouette_from_svg(text: str) -> Silhouette:
    """Rings from an SVG's polygons, polylines, rectangles and paths (transforms applied, y
    flipped), then validated."""
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise InputError(_("SVG with DOCTYPE or ENTITY declarations is not accepted"))
    raw_rings = [[(repr(x), repr(y)) for x, y in ring] for ring in drawn_rings(text)]
    try:
        return _svg_exact(raw_rings)
    except InputError as exc:
        floats = [[(float(x), -float(y)) for x, y in rr] for rr in raw_rings]
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


#: At most this many elements in a document, ``<use>`` elements, rings drawn and their corners
#: in all (a document is at most 50,000 characters, but each ``<use>`` draws a copy).
MAX_ELEMENTS = 2000
MAX_USES = 50
MAX_RINGS = 200
MAX_POINTS = 10_000

#: A curve counts as a straight edge when its control points lie this close to its chord,
#: relative to the chord's length (exporters write straight edges as flat curves).
FLAT = 1e-3
#: Any other curve is drawn as this many straight pieces, and read as noise when it bends from
#: its chord by at most BEND of the figure's size (the diagonal of its bounding box): a bitmap
#: tracer (potrace, Inkscape's Trace Bitmap) rounds each obtuse corner of a scanned figure by a
#: pixel or two, a fraction of a per cent of the figure. A curve that bends further is a curve.
CURVE_PIECES = 8
BEND = 0.02


def drawn_rings(text: str) -> list[list[tuple[float, float]]]:
    """The closed rings an SVG document draws, in its user units (y down): its polygons,
    polylines, rectangles and paths, with every ``transform`` (of the shape, its groups, a
    ``<use>``) and the viewBox applied, as a browser draws them (svgelements). Hidden shapes and
    those in ``<defs>``, clip paths and masks are not drawn, so not read; a rectangle around
    every other shape is a background or frame, not part of the figure. InputError in words for
    a document that cannot be read, has nothing to read, or has curved edges."""
    try:
        _check_structure(ET.fromstring(text))
    except ET.ParseError as exc:
        raise InputError(_("cannot read the SVG: {error}").format(error=exc)) from None
    try:
        doc = SVG.parse(io.StringIO(text), reify=True)
        shapes = [e for e in doc.elements()
                  if isinstance(e, (Polygon, Polyline, Rect, Path)) and e.values.get("visibility") != "hidden"]
        bends: list[tuple[float, tuple[float, float]]] = []
        rings = [(e, ring) for e in shapes for ring in _shape_rings(e, bends)]
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - a third-party parser's error on a user's document: say so
        raise InputError(_("cannot read the SVG: {error}").format(error=f"{type(exc).__name__}: {exc}")) from None
    if len(rings) > MAX_RINGS or sum(len(r) for _e, r in rings) > MAX_POINTS:
        raise InputError(_("the SVG draws {count} shapes with {points} corners; at most {limit} shapes and "
                           "{most} corners are read").format(count=len(rings), points=sum(len(r) for _e, r in rings),
                                                             limit=MAX_RINGS, most=MAX_POINTS))
    if len(rings) > 1:
        boxes = [_box(r) for _e, r in rings]
        rings = [(e, r) for k, (e, r) in enumerate(rings)
                 if not (isinstance(e, Rect) and all(_inside(b, boxes[k]) for j, b in enumerate(boxes) if j != k))]
    if not rings:
        raise InputError(_("the SVG has no polygon, polyline, rectangle or path"))
    _check_bends(bends, [r for _e, r in rings])
    return [r for _e, r in rings]


def _check_bends(bends: list[tuple[float, tuple[float, float]]], rings: list[list[tuple[float, float]]]) -> None:
    """Refuse a curve that bends from its chord by more than :data:`BEND` of the figure's size
    (the rings read, a background or frame left out, so that it cannot make the figure look
    larger than it is)."""
    if not bends:
        return
    xs = [x for r in rings for x, _y in r]
    ys = [y for r in rings for _x, y in r]
    size = math.hypot(max(xs) - min(xs), max(ys) - min(ys))
    bend, (x, y) = max(bends)
    if bend > BEND * size:
        raise InputError(_("the SVG has a curved edge near ({x}, {y}); a tangram outline has only straight "
                           "edges").format(x=f"{x:.4g}", y=f"{y:.4g}"))


def _check_structure(root: ET.Element) -> None:
    """Refuse what would make reading the document costly: too many elements, and a ``<use>``
    of something that itself uses another (nested, each can double what is drawn)."""
    elements = list(root.iter())
    if len(elements) > MAX_ELEMENTS:
        raise InputError(_("the SVG has {count} elements; at most {limit} are read").format(
            count=len(elements), limit=MAX_ELEMENTS))
    by_id = {el.get("id"): el for el in elements if el.get("id")}
    uses = [el for el in elements if el.tag.rsplit("}", 1)[-1] == "use"]
    if len(uses) > MAX_USES:
        raise InputError(_("the SVG has {count} <use> elements; at most {limit} are read").format(
            count=len(uses), limit=MAX_USES))
    for el in uses:
        ref = next((v for k, v in el.attrib.items() if k.rsplit("}", 1)[-1] == "href"), "")
        target = by_id.get(ref[1:]) if ref.startswith("#") else None
        if target is not None and any(t.tag.rsplit("}", 1)[-1] == "use" for t in target.iter()):
            raise InputError(_("an SVG <use> refers to {ref}, which itself uses another element; nested uses are "
                               "not read").format(ref=ref))


def _shape_rings(shape: Shape, bends: list[tuple[float, tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    """The rings of one shape, its curves that are flat taken as straight edges and the others
    as :data:`CURVE_PIECES` straight pieces, each with how far it bends from its chord and where
    (its end) added to ``bends``."""
    rings: list[list[tuple[float, float]]] = []
    cur: list[tuple[float, float]] = []
    for seg in Path(shape).segments():
        if isinstance(seg, Move):
            if len(cur) >= 3:
                rings.append(cur)
            cur = [(seg.end.x, seg.end.y)]
            continue
        if isinstance(seg, Close):
            if len(cur) >= 3:
                rings.append(cur)
            cur = []
            continue
        if not isinstance(seg, Line) and not _flat(seg) and seg.start is not None:
            along = [seg.point(k / CURVE_PIECES) for k in range(1, CURVE_PIECES)]
            bends.append((_bend(seg.start, seg.end, along), (seg.end.x, seg.end.y)))
            for p in along:
                if not cur or (float(p.x), float(p.y)) != cur[-1]:
                    cur.append((float(p.x), float(p.y)))
        if seg.end is not None and (not cur or (seg.end.x, seg.end.y) != cur[-1]):
            cur.append((seg.end.x, seg.end.y))
    if len(cur) >= 3:
        rings.append(cur)
    # a ring closed by repeating its first point has it once
    return [r[:-1] if len(r) > 3 and r[0] == r[-1] else r for r in rings]


def _bend(start, end, along) -> float:
    """How far the points ``along`` a curve lie from its chord at most (from its start, for a
    curve that ends where it began)."""
    (x0, y0), (x1, y1) = (start.x, start.y), (end.x, end.y)
    chord = math.hypot(x1 - x0, y1 - y0)
    if chord == 0:
        return max(math.hypot(p.x - x0, p.y - y0) for p in along)
    return max(abs((x1 - x0) * (p.y - y0) - (y1 - y0) * (p.x - x0)) / chord for p in along)


def _flat(seg) -> bool:
    """A Bezier curve whose control points lie on its chord (an arc is never flat)."""
    if not isinstance(seg, (CubicBezier, QuadraticBezier)):
        return False
    (x0, y0), (x1, y1) = (seg.start.x, seg.start.y), (seg.end.x, seg.end.y)
    chord = math.hypot(x1 - x0, y1 - y0)
    controls = [seg.control1, seg.control2] if isinstance(seg, CubicBezier) else [seg.control]
    return chord > 0 and all(abs((x1 - x0) * (c.y - y0) - (y1 - y0) * (c.x - x0)) / chord <= FLAT * chord
                             for c in controls)


def _box(ring: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in ring], [y for _, y in ring]
    return min(xs), min(ys), max(xs), max(ys)


def _inside(inner: tuple[float, float, float, float], outer: tuple[float, float, float, float]) -> bool:
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def is_svg(data: bytes) -> bool:
    """Whether a file's bytes are an SVG document (XML whose first element is ``<svg``), not
    a picture."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"<"):
        return False
    # past an XML declaration and comments, the first element
    while head.startswith((b"<?", b"<!--")):
        end = head.find(b"?>" if head.startswith(b"<?") else b"-->")
        if end < 0:
            return False
        head = head[end + (2 if head.startswith(b"<?") else 3):].lstrip()
    return head.startswith(b"<svg")


def drawing_as_trace(data: bytes):
    """An SVG file handed in as a picture, read as the instance text reads it: a :class:`.Trace`
    whose outline and traced rings are the drawing's own (user units, y down)."""
    import time

    from .silhouette import MAX_TEXT, format_silhouette, parse_silhouette
    from .trace import Trace

    started = time.monotonic()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(_("the SVG file is not UTF-8 text")) from None
    sil = parse_silhouette(text)  # its limits (MAX_TEXT) and words, as for typed text
    rings = drawn_rings(text) if len(text) <= MAX_TEXT else []
    xs = [x for r in rings for x, _y in r] or [0.0]
    ys = [y for r in rings for _x, y in r] or [0.0]
    return Trace(format_silhouette(sil), 0.0, math.ceil(max(xs) - min(xs)), math.ceil(max(ys) - min(ys)),
                 rings, rings, time.monotonic() - started, [str(m) for m in sil.messages])
