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
