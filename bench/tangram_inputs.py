"""Realistic tangram inputs for the reading bench: exact figures made rough as people have them.

Starts from exact figures (the presets and seeded random assemblies with slid pieces, holes and
point contacts) and makes them as a tracing would: turned by any angle, drawn at any scale, each
vertex moved by up to ``noise`` units in a random direction, written as decimals.
"""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import plugins.tangram.assembly as assembly  # noqa: E402
from plugins.tangram.assembly import random_assembly  # noqa: E402
from plugins.tangram.figures import PRESETS  # noqa: E402
from plugins.tangram.silhouette import Silhouette, parse_silhouette  # noqa: E402

FloatRing = list[tuple[float, float]]


def exact_figures(count: int, seed: int = 0, any_slide: bool = False) -> list[tuple[str, Silhouette]]:
    """The presets first, then seeded random assemblies (slides, touches and holes likelier).

    ``any_slide``: the random assemblies' pieces are slid by any hundredth of an edge, as a
    person lays them, instead of by halves, thirds and quarters (then no presets: their slides
    are the simple ones)."""
    out = [] if any_slide else [(name, parse_silhouette(text)) for name, text in PRESETS.items()]
    options = {"slide": "0.3", "touch": "0.15", "hole": "0.2"}
    k = 0
    slides = assembly._SLIDES
    if any_slide:
        assembly._SLIDES = tuple(Fraction(n, 100) for n in range(5, 96))
    try:
        while len(out) < count:
            out.append((f"random-{seed + k}", random_assembly(seed + k, options)[0]))
            k += 1
    finally:
        assembly._SLIDES = slides
    return out[:count]


def roughen(sil: Silhouette, noise: float, rng: random.Random) -> tuple[list[FloatRing], float]:
    """The figure's rings turned, scaled and shaken: (rings in input units, scale)."""
    return roughen_rings([[(float(x), float(y)) for x, y in ring] for ring in sil.rings()], noise, rng)


def roughen_rings(rings: list[FloatRing], noise: float, rng: random.Random) -> tuple[list[FloatRing], float]:
    """Float rings (figure units) turned by any angle, scaled by 5 to 200, moved, and each vertex
    moved by up to ``noise`` units in a random direction: (rings in input units, scale)."""
    angle = rng.uniform(0, 2 * math.pi)
    scale = math.exp(rng.uniform(math.log(5), math.log(200)))
    ox, oy = rng.uniform(-500, 500), rng.uniform(-500, 500)
    c, s = math.cos(angle), math.sin(angle)
    out = []
    for ring in rings:
        pts = []
        for x, y in ring:
            r = noise * math.sqrt(rng.random())
            t = rng.uniform(0, 2 * math.pi)
            fx, fy = x + r * math.cos(t), y + r * math.sin(t)
            pts.append((ox + scale * (c * fx - s * fy), oy + scale * (s * fx + c * fy)))
        out.append(pts)
    return out, scale


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nan when empty)."""
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def as_text(rings: list[FloatRing]) -> str:
    """The silhouette text with decimal coordinates, as a tracing program writes it."""
    return "\n".join("ring " + " ".join(f"{x:.3f},{y:.3f}" for x, y in r) for r in rings) + "\n"


def as_svg(rings: list[FloatRing]) -> str:
    """An SVG with one polygon per ring (y down, as SVG has it)."""
    polys = "".join('<polygon points="' + " ".join(f"{x:.2f},{-y:.2f}" for x, y in r) + '"/>' for r in rings)
    return f'<svg xmlns="http://www.w3.org/2000/svg">{polys}</svg>'


def as_traced_svg(rings: list[FloatRing], rng: random.Random) -> str:
    """The rings as a bitmap tracer (potrace, Inkscape's Trace Bitmap) writes a figure it traced
    from a scan: one path of relative moves in tenths of a pixel under a flipping transform,
    straight edges as lines, and each obtuse corner (135 degrees, inside or out) rounded by a
    cubic curve from a little before it to a little after, its controls on the two edges (the
    tracer smooths corners that turn by less than a right angle; sharper ones stay corners).
    The rings are taken in pixels (y up); the rounding reaches 0.5 to 2.5 px along each edge."""
    height = max(y for r in rings for _x, y in r) + 10
    parts = []
    for ring in rings:
        n = len(ring)
        path: list[tuple[str, list[tuple[float, float]]]] = []
        for i in range(n):
            a, v, b = ring[i - 1], ring[i], ring[(i + 1) % n]
            ux, uy = v[0] - a[0], v[1] - a[1]
            wx, wy = b[0] - v[0], b[1] - v[1]
            lu, lw = math.hypot(ux, uy), math.hypot(wx, wy)
            turn = abs(math.degrees(math.atan2(ux * wy - uy * wx, ux * wx + uy * wy)))
            if turn < 67.5 and lu > 0 and lw > 0:  # an obtuse corner: rounded
                d = min(rng.uniform(0.5, 2.5), lu / 3, lw / 3)
                start = (v[0] - ux / lu * d, v[1] - uy / lu * d)
                end = (v[0] + wx / lw * d, v[1] + wy / lw * d)
                k = rng.uniform(0.5, 0.8)
                c1 = (start[0] + k * (v[0] - start[0]), start[1] + k * (v[1] - start[1]))
                c2 = (end[0] + k * (v[0] - end[0]), end[1] + k * (v[1] - end[1]))
                path += [("l", [start]), ("c", [c1, c2, end])]
            else:
                path.append(("l", [v]))
        # y flipped and in tenths, as the tracer's transform undoes; relative to the last point
        tenths = lambda p: (round(p[0] * 10), round((height - p[1]) * 10))  # noqa: E731
        first = tenths(path[-1][1][-1])
        words = [f"M{first[0]} {first[1]}"]
        at = first
        for op, pts in path:
            q = [tenths(p) for p in pts]
            words.append(op + " ".join(f"{x - at[0]} {y - at[1]}" for x, y in q))
            at = q[-1]
        parts.append(" ".join(words) + "z")
    return ('<svg xmlns="http://www.w3.org/2000/svg" version="1.0"><g transform="translate(0,'
            f'{height:.0f}) scale(0.1,-0.1)" fill="#000000" stroke="none"><path d="{" ".join(parts)}"/></g></svg>')
