"""Figures with a piece turned by a free angle, as about a tenth of the figures in tangram books
have: the reader must refuse them, quickly, naming the turned piece.

Each figure is a seeded random assembly with one piece turned by 15 to 35 degrees about one of
its corners, where it then overlaps no other piece and still touches them (so the figure stays
one piece of paper, as in a book); then made rough like the reading bench's inputs (any turn and
scale, every vertex moved by up to the noise, three decimals).

Printed per noise level: the share refused, the share of refusals that name a turned piece (the
words "a piece seems turned by about N degrees"), the share whose named angle is within 5
degrees of the true turn, and the refusal time p50 / p95 / max.

    .venv/bin/python bench/tangram_free_angle.py --figures 40 [--seed 3] [-v]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

from shapely import affinity
from shapely.geometry import Polygon
from shapely.ops import unary_union

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tangram_inputs import as_text, pct, roughen_rings  # noqa: E402
from engine import InputError  # noqa: E402
from plugins.tangram.assembly import random_assembly  # noqa: E402
from plugins.tangram.silhouette import parse_silhouette  # noqa: E402

NAMED = re.compile(r"a piece seems turned by about (\d+) degrees")


def turned_figure(seed: int, rng: random.Random) -> tuple[list[list[tuple[float, float]]], float] | None:
    """A random assembly with one piece turned by a free angle: (rings, the turn in degrees
    modulo 45, folded to 0-22.5), or None when no piece of it can be turned so."""
    _sil, pieces = random_assembly(seed, {"slide": "0.3", "touch": "0.1", "hole": "0.0"})
    polys = [Polygon([(float(x), float(y)) for x, y in p.vertices()]) for p in pieces]
    order = list(range(len(polys)))
    rng.shuffle(order)
    for k in order:
        rest = unary_union([p for j, p in enumerate(polys) if j != k])
        for corner in list(polys[k].exterior.coords)[:-1]:
            angle = rng.choice((-1, 1)) * rng.uniform(15, 35)
            turned = affinity.rotate(polys[k], angle, origin=corner)
            if turned.intersection(rest).area > 1e-6 or turned.distance(rest) > 1e-9:
                continue
            union = unary_union([rest, turned])
            if union.geom_type != "Polygon":
                continue
            rings = [list(union.exterior.coords)[:-1]] + [list(r.coords)[:-1] for r in union.interiors]
            off = abs(angle) % 45
            return rings, min(off, 45 - off)
    return None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--figures", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--noise", type=float, nargs="*", default=[0.0, 0.1, 0.2])
    ap.add_argument("-v", action="store_true", help="list what was not refused, or refused without naming")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    figures = []
    k = 0
    while len(figures) < args.figures:
        made = turned_figure(20_000 + args.seed * 1000 + k, rng)
        k += 1
        if made is not None:
            figures.append((f"random-{20_000 + args.seed * 1000 + k - 1}", *made))
    print(f"{len(figures)} figures, one piece turned by 15-35 degrees (seed {args.seed})")
    print(f"{'noise':>6} {'refused':>8} {'named':>7} {'angle ok':>9} {'ref p50':>8} {'ref p95':>8} {'ref max':>8}")
    for noise in args.noise:
        shake = random.Random(args.seed * 7919 + int(noise * 1000))
        refused = named = right = 0
        times, misses = [], []
        for name, rings, true_off in figures:
            text = as_text(roughen_rings(rings, noise, shake)[0])
            t0 = time.perf_counter()
            try:
                parse_silhouette(text)
                misses.append((name, "read as an exact figure"))
                continue
            except InputError as exc:
                times.append(time.perf_counter() - t0)
                refused += 1
                m = NAMED.search(exc.message)
                if m:
                    named += 1
                    said = int(m.group(1)) % 45
                    right += abs(min(said, 45 - said) - true_off) <= 5
                else:
                    misses.append((name, exc.message[:110]))
        n = len(figures)
        print(f"{noise:6.2f} {refused / n:8.1%} {named / n:7.1%} {right / n:9.1%} {pct(times, .5):7.2f}s "
              f"{pct(times, .95):7.2f}s {max(times, default=float('nan')):7.2f}s")
        if args.v:
            for name, why in misses:
                print(f"    {name}: {why}")


if __name__ == "__main__":
    main()
