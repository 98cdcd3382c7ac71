"""Pictures of tangram figures as people have them, and the bench that reads them back.

The generator (``draw``) starts from an exact figure (a preset or a seeded random assembly
with slid pieces, holes and point contacts), turns it by any angle, and renders it with
anti-aliasing at a given size; then blur, noise, uneven light and JPEG quality 60. Half the
pictures are light figures on a dark ground; a share are coloured pieces with dividing lines.

The bench prints, per picture size: the share solved (a cover counts only when its outline lies
within 0.25 units, Hausdorff, of the figure drawn), the share read back as the exact original,
and time p50 / p95 for reading and for reading plus solving.

    .venv/bin/python bench/tangram_pictures.py --figures 100 --sizes 128 256 512
    .venv/bin/python bench/tangram_pictures.py --contours opencv   # OpenCV instead of scikit-image
    .venv/bin/python bench/tangram_pictures.py --random-only --coloured all --figure-seed 5000
    .venv/bin/python bench/tangram_pictures.py --svg-pieces --figures 30   # seven <polygon>s
    .venv/bin/python bench/tangram_pictures.py --svg-pieces --union raster # our own union
    .venv/bin/python bench/tangram_pictures.py --lines outline --sizes 256 128   # pen tracings

``--svg-pieces`` writes each random figure as other programs export a tangram, its seven
pieces as seven ``<polygon>``s, turned and scaled at random, every vertex moved by up to 0, 0.05
and 0.1 units on its own (so pieces open small gaps and overlap a little), and reads the SVG.
"""

from __future__ import annotations

import argparse
import io
import math
import random
import sys
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import InputError, SolveContext, Solved  # noqa: E402
from plugins.tangram.assembly import random_assembly  # noqa: E402
from plugins.tangram.figures import PRESETS  # noqa: E402
from plugins.tangram.reading import hausdorff  # noqa: E402
from plugins.tangram.silhouette import Silhouette, parse_silhouette, symmetric_image  # noqa: E402
from plugins.tangram.solver import ExactSolver  # noqa: E402

SUPERSAMPLE = 4
PALETTE = [(230, 57, 70), (244, 162, 97), (233, 196, 106), (42, 157, 143), (38, 70, 83), (131, 56, 236),
           (58, 134, 255)]


def figures(count: int, seed: int = 1000, presets: bool = True) -> list[tuple[str, Silhouette, list | None]]:
    """(name, exact figure, the pieces that make it or None): the presets, then random ones."""
    out: list[tuple[str, Silhouette, list | None]] = \
        [(n, parse_silhouette(t), None) for n, t in PRESETS.items()] if presets else []
    k = 0
    while len(out) < count:
        sil, pieces = random_assembly(seed + k, {"slide": "0.3", "touch": "0.15", "hole": "0.2"})
        out.append((f"random-{seed + k}", sil, pieces))
        k += 1
    return out[:count]


def draw(sil: Silhouette, size: int, rng: random.Random, *, pieces=None, jpeg: bool = True,
         blur: float | None = None, noise: float | None = None, dark_ground: bool | None = None,
         uneven: bool | None = None, coloured: bool | None = None, margin: float = 0.12,
         lines: str | None = None, pen: float | None = None, caption: str | None = None,
         keystone: float = 0.0) -> bytes:
    """One picture of ``sil`` (``size`` pixels on the longer side) as PNG or JPEG bytes.

    ``lines`` draws the figure as a pen tracing on paper instead: ``"outline"`` its outline
    only, ``"pieces"`` every piece's edges (a drawn solution; the outline for a preset, whose
    pieces are not known), with a pen ``pen`` px wide (by default 1.2-3.5 px), each corner off
    by up to 0.05 units as a hand puts it. ``caption`` is printed under the figure in the ink's
    colour, as a book numbers its figures. ``keystone`` photographs the page from below or above
    its middle: one side of the picture narrower than the other by that share (0.1 for a phone
    tilted by about 10 degrees), in a direction of its own."""
    angle = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(angle), math.sin(angle)
    turn = lambda p: (c * float(p[0]) - s * float(p[1]), s * float(p[0]) + c * float(p[1]))
    rings = [[turn(p) for p in r] for r in sil.rings()]
    xs = [p[0] for r in rings for p in r]
    ys = [p[1] for r in rings for p in r]
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    big = size * SUPERSAMPLE
    k = big * (1 - 2 * margin) / span
    ox = big / 2 - k * (max(xs) + min(xs)) / 2
    oy = big / 2 + k * (max(ys) + min(ys)) / 2
    px = lambda p: (ox + k * p[0], oy - k * p[1])  # y down in the picture
    dark_ground = rng.random() < 0.5 if dark_ground is None else dark_ground
    coloured = (pieces is not None and rng.random() < 0.3) if coloured is None else coloured
    ground, ink = ((30, 30, 40), (240, 240, 230)) if dark_ground else ((245, 243, 236), (25, 25, 30))
    img = Image.new("RGB", (big, big), ground)
    d = ImageDraw.Draw(img)
    if lines:
        pen_px = round((rng.uniform(1.2, 3.5) if pen is None else pen) * SUPERSAMPLE)
        ink = rng.choice([(25, 25, 30), (30, 40, 120)])  # black or blue ink
        hand = lambda p: (float(p[0]) + rng.uniform(-0.05, 0.05), float(p[1]) + rng.uniform(-0.05, 0.05))
        polygons = [p.vertices() for p in pieces] if lines == "pieces" and pieces else sil.rings()
        img = Image.new("RGB", (big, big), (248, 246, 238))
        d = ImageDraw.Draw(img)
        for poly in polygons:
            pts = [px(turn(hand(v))) for v in poly]
            d.line(pts + pts[:1], fill=ink, width=pen_px, joint="curve")
    elif coloured and pieces:
        line = max(1, round(big * 0.004))
        for i, piece in enumerate(pieces):
            d.polygon([px(turn(v)) for v in piece.vertices()], fill=PALETTE[i % len(PALETTE)],
                      outline=ground, width=line)
    else:
        # even-odd: draw outers then holes in nesting order (rings() gives outer, its holes, ...)
        for comp in sil.components:
            d.polygon([px(turn(v)) for v in comp.outer], fill=ink)
            for hole in comp.holes:
                d.polygon([px(turn(v)) for v in hole], fill=ground)
    if caption:
        from PIL import ImageFont
        font = ImageFont.load_default(size=round(big * 0.05))
        left, top, right, bottom = d.textbbox((0, 0), caption, font=font)
        d.text(((big - (right - left)) / 2, big * (1 - margin / 2) - (bottom - top) / 2), caption, fill=ink,
               font=font)
    if keystone:
        img = _keystoned(img, keystone, rng.uniform(0, 2 * math.pi), ground)
    img = img.resize((size, size), Image.Resampling.LANCZOS)  # anti-aliased
    blur = rng.uniform(0, 1.2) if blur is None else blur
    if blur:
        img = img.filter(ImageFilter.GaussianBlur(blur))
    import numpy as np
    arr = np.asarray(img, dtype=np.float32)
    if uneven if uneven is not None else rng.random() < 0.5:
        yy, xx = np.mgrid[0:size, 0:size] / size
        gx, gy = rng.uniform(-1, 1), rng.uniform(-1, 1)
        light = 1 + 0.3 * (gx * (xx - 0.5) + gy * (yy - 0.5))
        arr = arr * light[..., None]
    sigma = rng.uniform(0, 12) if noise is None else noise
    if sigma:
        arr = arr + np.random.default_rng(rng.getrandbits(32)).normal(0, sigma, arr.shape)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    out = io.BytesIO()
    if jpeg:
        img.save(out, "JPEG", quality=60)
    else:
        img.save(out, "PNG")
    return out.getvalue()


def _boundary(rings, cuts) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The region's boundary as sorted elementary directed segments (interior on the left),
    each edge cut at every point of ``cuts`` lying on it. Two spellings of one region (a hole
    touching the outline written as a pinch or as a hole, two pieces meeting at a corner as
    one ring or two, a vertex in the middle of a straight edge) give the same list."""
    out = []
    for r, hole in rings:
        area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(r, r[1:] + r[:1]))
        if (area < 0) != hole:  # outlines counter-clockwise, holes clockwise
            r = r[::-1]
        for a, b in zip(r, r[1:] + r[:1]):
            dx, dy = b[0] - a[0], b[1] - a[1]
            length = dx * dx + dy * dy
            ts = sorted({0.0, 1.0} | {t for p in cuts
                                      if abs((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) < 1e-6 * math.sqrt(length)
                                      for t in [((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length]
                                      if 1e-9 < t < 1 - 1e-9})
            pts = [(round(a[0] + t * dx, 6) + 0.0, round(a[1] + t * dy, 6) + 0.0) for t in ts]
            out.extend(zip(pts, pts[1:]))
    return sorted(out)


def _rings(sil: Silhouette, k: int = 0, m: int = 1) -> list[tuple[list[tuple[float, float]], bool]]:
    """(ring, is a hole) of ``sil`` turned by ``k`` eighths, mirrored when ``m`` is -1, and moved
    so its lowest left corner of the bounding box is at the origin."""
    c, s = math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)
    rings = [([(c * m * float(x) - s * float(y), s * m * float(x) + c * float(y)) for x, y in r], i > 0)
             for comp in sil.components for i, r in enumerate(comp.rings())]
    mx = min(p[0] for r, _ in rings for p in r)
    my = min(p[1] for r, _ in rings for p in r)
    return [([(x - mx, y - my) for x, y in r], hole) for r, hole in rings]


def _keystoned(img: Image.Image, share: float, direction: float, ground) -> Image.Image:
    """``img`` as a camera sees it that looks at the page at a slant: the side of the picture
    towards ``direction`` (radians) shrunk by ``share`` about the middle, the opposite side kept,
    with straight lines staying straight (a perspective transform)."""
    import numpy as np

    w, h = img.size
    cx, cy = w / 2, h / 2
    ux, uy = math.cos(direction), math.sin(direction)
    corners = [(0, 0), (w, 0), (w, h), (0, h)]
    seen = []
    for x, y in corners:
        far = ((x - cx) * ux + (y - cy) * uy) / (abs(cx * ux) + abs(cy * uy))  # -1 .. 1 along
        k = 1 - share * (1 + far) / 2
        seen.append((cx + (x - cx) * k, cy + (y - cy) * k))
    # PIL wants the map from the output's pixels back to the input's: solve for it
    rows, rhs = [], []
    for (x, y), (u, v) in zip(seen, corners):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    coeffs = np.linalg.solve(np.array(rows, float), np.array(rhs, float))
    return img.transform((w, h), Image.Transform.PERSPECTIVE, tuple(coeffs), Image.Resampling.BILINEAR,
                         fillcolor=ground)


def same_figure(a: Silhouette, b: Silhouette) -> bool:
    """The same region: equal up to translation, mirroring and turns by 45 degrees (a figure
    turned by 45 degrees is still a tangram figure, written with other numbers), however its
    rings are spelled."""
    target = _rings(b)
    for k in range(8):
        for m in (1, -1):
            rings = _rings(a, k, m)
            cuts = [p for r, _ in rings + target for p in r]
            if _boundary(rings, cuts) == _boundary(target, cuts):
                return True
    return False


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def _cover_distance(got: Silhouette, sil: Silhouette) -> float:
    """Hausdorff distance between the figure read and the one drawn, best over the symmetries
    and with both put at the origin (the picture fixes neither the turn nor the position)."""
    def at_origin(s: Silhouette):
        rings = [[(float(x), float(y)) for x, y in r] for r in s.rings()]
        ax = ay = total = 0.0  # the area centroid (holes subtract): the same for any vertex list
        for comp in s.components:
            for ring in (comp.outer, *comp.holes):  # holes run clockwise: their area is negative
                pts = [(float(x), float(y)) for x, y in ring]
                for i in range(len(pts)):
                    (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % len(pts)]
                    cr = x1 * y2 - x2 * y1
                    ax, ay, total = ax + (x1 + x2) * cr, ay + (y1 + y2) * cr, total + cr
        cx, cy = ax / (3 * total), ay / (3 * total)
        return [[(x - cx, y - cy) for x, y in r] for r in rings]
    ref = at_origin(sil)
    return min(hausdorff(at_origin(symmetric_image(got, t, m)), ref, step=0.2)
               for t in range(8) for m in (False, True))


def run(size: int, figs, seed: int, verbose: bool = False, coloured: bool | None = None, lines: str | None = None,
        captions: bool = False, keystone: float = 0.0):
    from plugins.tangram.trace import trace_picture
    solver = ExactSolver()
    rng = random.Random(seed * 1000 + size)
    solved = exact = 0
    t_read, t_all = [], []
    for name, sil, pieces in figs:
        kind = f"lines: {lines}" if lines else _kind(rng, pieces, coloured)
        caption = f"Fig. {sum(map(ord, name)) % 300 + 1}" if captions else None
        data = draw(sil, size, rng, pieces=pieces, coloured=coloured, lines=lines, caption=caption,
                    keystone=keystone)
        t0 = time.perf_counter()
        try:
            got = parse_silhouette(trace_picture(data).text)
        except InputError as exc:
            t_read.append(time.perf_counter() - t0)
            t_all.append(t_read[-1])
            if verbose:
                print(f"    {name} ({kind}, {t_read[-1]:.2f}s): {exc.message[:140]}")
            continue
        t1 = time.perf_counter()
        out = ExactSolver.solve(solver, got, SolveContext.with_timeout(2.0))
        t2 = time.perf_counter()
        t_read.append(t1 - t0)
        t_all.append(t2 - t0)
        same = same_figure(got, sil)
        exact += same
        # the cover's union is the figure read; it must lie near the figure drawn
        ok = isinstance(out, Solved) and (same or _cover_distance(got, sil) <= 0.25)
        solved += ok
        if verbose and not same:
            print(f"    {name} ({kind}): read as another figure ({'solved within 0.25' if ok else 'not near'})")
    return solved, exact, t_read, t_all


def _kind(rng: random.Random, pieces, coloured: bool | None) -> str:
    """How :func:`draw` will draw the next picture from ``rng`` (without drawing from it): its
    ground and whether its pieces are coloured, for the list of failures."""
    ahead = random.Random()
    ahead.setstate(rng.getstate())
    ahead.uniform(0, 2 * math.pi)  # draw's first draws: the turn, the ground, the colours
    dark = ahead.random() < 0.5
    coloured = (pieces is not None and ahead.random() < 0.3) if coloured is None else coloured
    return ("coloured" if coloured and pieces else "plain") + (", dark ground" if dark else "")


def svg_pieces(pieces, rng: random.Random, noise: float) -> str:
    """The figure's seven pieces as an SVG of seven polygons: turned, scaled and moved at
    random, each vertex moved by up to ``noise`` units on its own."""
    angle = rng.uniform(0, 2 * math.pi)
    scale = rng.uniform(5, 80)
    ox, oy = rng.uniform(-100, 400), rng.uniform(-100, 400)
    c, s = math.cos(angle), math.sin(angle)
    polys = []
    for piece in pieces:
        pts = []
        for x, y in piece.vertices():
            r, a = noise * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
            fx, fy = float(x) + r * math.cos(a), float(y) + r * math.sin(a)
            pts.append(f"{ox + scale * (c * fx - s * fy):.3f},{oy - scale * (s * fx + c * fy):.3f}")
        polys.append(f'<polygon points="{" ".join(pts)}" fill="#888" stroke="none"/>')
    return '<svg xmlns="http://www.w3.org/2000/svg">' + "".join(polys) + "</svg>"


def raster_union(rings):
    """Our own union for ``--union raster``: draw the polygons at 1024 px and trace them."""
    from PIL import Image

    from plugins.tangram.picture import figure_map
    from plugins.tangram.trace import outlines
    xs = [x for r in rings for x, _ in r]
    ys = [y for r in rings for _, y in r]
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    k = 1024 * 0.8 / span
    px = lambda p: (112 + k * (p[0] - min(xs)), 112 + k * (max(ys) - p[1]))
    img = Image.new("RGB", (1248, 1248), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for r in rings:
        d.polygon([px(p) for p in r], fill=(0, 0, 0))
    return [[(min(xs) + (x - 112) / k, max(ys) - (y - 112) / k) for x, y in r] for r in outlines(figure_map(img))]


def run_svg(figs, noise: float, seed: int, verbose: bool = False):
    """(solved, exact, read times) for the figures' pieces written as seven SVG polygons."""
    from plugins.tangram.svg import silhouette_from_svg
    solver = ExactSolver()
    rng = random.Random(seed * 1000 + round(noise * 1000))
    solved = exact = 0
    times = []
    for name, sil, pieces in figs:
        text = svg_pieces(pieces, rng, noise)
        t0 = time.perf_counter()
        try:
            got = silhouette_from_svg(text)
        except InputError as exc:
            times.append(time.perf_counter() - t0)
            if verbose:
                print(f"    {name}: {exc.message[:140]}")
            continue
        times.append(time.perf_counter() - t0)
        same = same_figure(got, sil)
        exact += same
        out = ExactSolver.solve(solver, got, SolveContext.with_timeout(2.0))
        ok = isinstance(out, Solved) and (same or _cover_distance(got, sil) <= 0.25)
        solved += ok
        if verbose and not same:
            print(f"    {name}: read as another figure ({'solved within 0.25' if ok else 'not near'})")
    return solved, exact, times


def use_opencv() -> None:
    """Swap scikit-image's marching squares for OpenCV's border following (for --contours)."""
    import types

    import cv2
    import numpy as np
    from skimage import measure

    import plugins.tangram.trace as trace

    def find_contours(level, threshold):
        mask = (level > threshold).astype(np.uint8)
        found, _ = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
        # OpenCV walks pixel centres of the figure; the edge lies half a pixel further out
        return [c[:, 0, ::-1].astype(np.float64) for c in found]
    trace.measure = types.SimpleNamespace(find_contours=find_contours,
                                          approximate_polygon=measure.approximate_polygon)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--figures", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sizes", type=int, nargs="*", default=[128, 256, 512])
    ap.add_argument("-v", action="store_true", help="list the failures")
    ap.add_argument("--contours", choices=["skimage", "opencv"], default="skimage",
                    help="the contour library (opencv-python-headless must be installed for opencv)")
    ap.add_argument("--random-only", action="store_true", help="no presets, only random figures")
    ap.add_argument("--coloured", choices=["some", "all", "none"], default="some",
                    help="random figures drawn as coloured pieces with dividing lines (some: 30%%)")
    ap.add_argument("--figure-seed", type=int, default=1000, help="the first random figure's seed")
    ap.add_argument("--lines", choices=["outline", "pieces"],
                    help="draw each figure as a pen tracing: its outline, or every piece's edges")
    ap.add_argument("--captions", action="store_true",
                    help="each figure's number printed under it, as in a book (\"Fig. 127\")")
    ap.add_argument("--keystone", type=float, default=0.0,
                    help="photographed at a slant: one side this share narrower (0.1: a phone tilted ~10 degrees)")
    ap.add_argument("--svg-pieces", action="store_true", help="seven SVG polygons instead of pictures")
    ap.add_argument("--union", choices=["shapely", "raster"], default="shapely",
                    help="with --svg-pieces: shapely's union, or our own (draw at 1024 px and trace)")
    ap.add_argument("--noise", type=float, nargs="*", default=[0.0, 0.05, 0.1], help="with --svg-pieces")
    args = ap.parse_args()
    if args.svg_pieces:
        if args.union == "raster":
            import plugins.tangram.svg as svg
            svg.union_rings = raster_union
        figs = figures(args.figures, args.figure_seed, presets=False)
        print(f"{len(figs)} random figures as seven SVG polygons (union: {args.union}; any turn and scale)")
        print(f"{'noise':>6} {'solved':>8} {'exact':>8} {'read p50':>9} {'read p95':>9}")
        for noise in args.noise:
            solved, exact, tr = run_svg(figs, noise, args.seed, args.v)
            n = len(figs)
            print(f"{noise:6.2f} {solved / n:8.1%} {exact / n:8.1%} {pct(tr, .5):8.3f}s {pct(tr, .95):8.3f}s",
                  flush=True)
        return
    if args.contours == "opencv":
        use_opencv()
    figs = figures(args.figures, args.figure_seed, presets=not args.random_only)
    kinds = "random ones" if args.random_only else "presets and random ones"
    drawn = f"drawn as pen lines: {args.lines}" if args.lines else f"coloured pieces: {args.coloured}"
    drawn += ", each with its number printed under it" if args.captions else ""
    drawn += f", photographed at a slant (one side {args.keystone:.0%} narrower)" if args.keystone else ""
    print(f"{len(figs)} figures per size ({kinds}, {drawn}; "
          f"JPEG 60, blur, noise, any turn)")
    print(f"{'size':>6} {'solved':>8} {'exact':>8} {'read p50':>9} {'read p95':>9} "
          f"{'+solve p50':>10} {'+solve p95':>10}")
    for size in args.sizes:
        solved, exact, tr, ta = run(size, figs, args.seed, args.v,
                                    {"some": None, "all": True, "none": False}[args.coloured], args.lines,
                                    args.captions, args.keystone)
        n = len(figs)
        print(f"{size:6d} {solved / n:8.1%} {exact / n:8.1%} {pct(tr, .5):8.3f}s {pct(tr, .95):8.3f}s "
              f"{pct(ta, .5):9.3f}s {pct(ta, .95):9.3f}s", flush=True)


if __name__ == "__main__":
    main()
