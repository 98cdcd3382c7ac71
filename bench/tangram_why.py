"""Why noisy outlines fail to read: each failure put at the first stage of the reader that lost it.

    .venv/bin/python bench/tangram_why.py --figures 60 --noise 0.1 0.2
    .venv/bin/python bench/tangram_reading.py --figures 60 --why   # the same, after the table

The reader's stages (plugins/tangram/reading.py), checked against the figure the outline was made
from (the bench knows the turn and scale it applied):

- ``rotation``: the turn read is more than 3 degrees (modulo 45) from the true one;
- ``scale``: the scale read from the area is more than 4% off;
- ``corners``: a ring simplified to more or fewer corners than the true ring has (spurious or
  missing vertices after simplification);
- ``direction``: as many corners, but some edge snapped to the wrong one of the eight directions;
- ``lengths``: the edges are right, but no closed walk found is the true ring (a length snapped
  to the wrong exact number, or the beam lost it);
- ``ranking``: every true ring is among the walks, but a nearer candidate figure was taken
  (then ``other figure``) or the candidates ran out or the time did (then ``not reached``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tangram_inputs import exact_figures, roughen  # noqa: E402
from engine import InputError  # noqa: E402
from plugins.tangram import reading  # noqa: E402
from plugins.tangram.decimals import _coverable  # noqa: E402
from plugins.tangram.outline import nesting_depths, ring_area  # noqa: E402

DEG = math.pi / 180


def _clean(ring):
    """Float ring without collinear vertices."""
    pts = list(ring)
    changed = True
    while changed and len(pts) > 3:
        changed = False
        for i in range(len(pts)):
            a, b, c = pts[i - 1], pts[i], pts[(i + 1) % len(pts)]
            cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
            dot = (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1])
            if abs(cross) < 1e-7 and dot > 0:
                pts.pop(i)
                changed = True
                break
    return pts


def _key(ring):
    pts = _clean(ring)
    mx = min(pts, key=lambda p: (round(p[1], 5), round(p[0], 5)))
    return frozenset((round(x - mx[0], 4) + 0.0, round(y - mx[1], 4) + 0.0) for x, y in pts)


def _dirs(ring):
    n = len(ring)
    return [round(math.atan2(ring[(i + 1) % n][1] - ring[i][1], ring[(i + 1) % n][0] - ring[i][0]) / (45 * DEG)) % 8
            for i in range(n)]


def _cyclic_equal(a, b):
    if len(a) != len(b):
        return False
    return any(a[i:] + a[:i] == b for i in range(len(a))) if a else True


def _turn(ring, k):
    c, s = math.cos(k * 45 * DEG), math.sin(k * 45 * DEG)
    return [(c * x - s * y, s * x + c * y) for x, y in ring]


def _order(rings):
    """The reader's ring order: outlines first, then by area."""
    depth = nesting_depths(rings)
    return [r for _, r in sorted(zip(depth, rings), key=lambda t: (t[0], -abs(ring_area(t[1]))))]


def diagnose(sil, noise: float, rng: random.Random) -> tuple[str, str]:
    """(stage, detail) for one noisy outline of ``sil``; stage ``ok`` when it read back."""
    state = rng.getstate()
    angle = rng.uniform(0, 2 * math.pi)
    rng.setstate(state)
    rings, scale = roughen(sil, noise, rng)
    try:
        norm = reading.normalise(rings)
    except InputError as exc:
        return "area", exc.message
    diff = (angle - norm.angle) / DEG
    k = round(diff / 45) % 8
    rot_err = abs(diff - 45 * round(diff / 45))
    scale_err = norm.scale / scale - 1
    true = _order([_turn(_clean([(float(x), float(y)) for x, y in r]), k) for r in sil.rings()])
    simple = [reading.simplify(r) for r in norm.rings]
    simple = _order([r for r in simple if len(r) >= 3 and abs(ring_area(r)) > 0.05])
    cs = [reading.corners(r) for r in simple]
    try:
        got = reading.read_noisy(rings, accept=_coverable)
        got_keys = sorted(map(sorted, (_key([(float(x), float(y)) for x, y in r]) for r in got.exact_rings)))
        for kk in range(8):
            if got_keys == sorted(map(sorted, (_key(_turn(r, kk)) for r in true))):
                return "ok", ""
        outcome = f"read as another figure after {got.tried} tried"
    except InputError as exc:
        outcome = exc.message[45:110]
    detail = f"rot {rot_err:.1f} deg, scale {scale_err:+.1%}; {outcome}"
    if rot_err > 3:
        return "rotation", detail
    if abs(scale_err) > 0.04:
        return "scale", detail
    if len(cs) != len(true):
        return "corners", detail + f" ({len(cs)} rings for {len(true)})"
    for c, t in zip(cs, true):
        if len(c.dirs) != len(t):
            return "corners", detail + f" ({len(c.dirs)} corners for {len(t)})"
    for c, t in zip(cs, true):
        if not _cyclic_equal(c.dirs, _dirs(t)):
            return "direction", detail
    walks = reading._walks(cs, 16.0 if len(cs) == 1 else None)
    for i, (w, t) in enumerate(zip(walks, true)):
        keys = [_key(x.floats()) for x in w]
        if _key(t) not in keys:
            return "lengths", detail + f" (ring {i + 1}: {len(w)} walks, none true)"
    ranks = [[_key(x.floats()) for x in w].index(_key(t)) for w, t in zip(walks, true)]
    return "ranking", detail + f" (true walks ranked {ranks})"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--figures", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--figure-seed", type=int, default=1000)
    ap.add_argument("--noise", type=float, nargs="*", default=[0.1, 0.2])
    ap.add_argument("-v", action="store_true", help="list each failure")
    args = ap.parse_args()
    why(exact_figures(args.figures, seed=args.figure_seed), args.noise, args.seed, args.v)


def why(figures, noises, seed: int, verbose: bool = False) -> None:
    for noise in noises:
        rng = random.Random(seed)
        stages: Counter = Counter()
        lines = []
        for name, sil in figures:
            stage, detail = diagnose(sil, noise, rng)
            stages[stage] += 1
            if stage != "ok":
                lines.append(f"    {name}: {stage}: {detail}")
        n = len(figures)
        print(f"noise {noise:.2f}: " + ", ".join(f"{s} {c / n:.0%}" for s, c in stages.most_common()))
        if verbose:
            print("\n".join(lines))


if __name__ == "__main__":
    main()
