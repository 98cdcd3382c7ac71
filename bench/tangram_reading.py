"""Reading bench: noisy outlines read as exact figures, then solved.

    .venv/bin/python bench/tangram_reading.py --figures 100

Per noise level: the share solved (a cover counts only if its union, mapped back onto the
input, lies within 0.25 units Hausdorff of the input outline), the share read back as the exact
original figure (up to translation and the eight symmetries), and p50/p95 times of reading and
of reading plus solving (2 s solver budget), and the p95 of the CPU time of reading plus
solving (this process only: on a busy machine the wall times grow, the CPU time much less),
and how many outlines were refused and the p95 of the time to refuse them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import plugins.tangram.decimals as decimals  # noqa: E402
from bench.tangram_inputs import as_text, as_traced_svg, exact_figures, pct, roughen  # noqa: E402
from engine import InputError, SolveContext, Solved  # noqa: E402
from plugins.tangram.reading import hausdorff, read_noisy  # noqa: E402
from plugins.tangram.silhouette import Silhouette, parse_silhouette, symmetric_image  # noqa: E402
from plugins.tangram.solver import ExactSolver  # noqa: E402

SOLVER = ExactSolver()
#: The noisy readings made while parsing, recorded by wrapping the reader decimals.py calls.
LAST: list = []


def _recorded(rings, accept=None):
    LAST.append(read_noisy(rings, accept=accept))
    return LAST[-1]


decimals.read_noisy = _recorded


def _canon(sil: Silhouette):
    pts = [p for r in sil.rings() for p in r]
    mx = min(p[0] for p in pts)
    my = min(p[1] for p in pts)
    return sorted(sorted((x - mx, y - my) for x, y in r) for r in sil.rings())


def same_figure(a: Silhouette, b: Silhouette) -> bool:
    """Equal up to translation and the eight symmetries."""
    target = _canon(b)
    return any(_canon(symmetric_image(a, t, m)) == target for t in range(8) for m in (False, True))


def run(noise: float, figures, seed: int, form: str = "text") -> tuple:
    rng = random.Random(seed)
    svg_rng = random.Random(seed + 1)  # apart, so the noise is the same in either form
    solved = exact = 0
    t_read, t_all, c_all, t_refused = [], [], [], []
    failures = []
    for name, sil in figures:
        rings, scale = roughen(sil, noise, rng)
        text = as_text(rings) if form == "text" else as_traced_svg(rings, svg_rng)
        t0, c0 = time.perf_counter(), time.process_time()
        LAST.clear()
        try:
            got = parse_silhouette(text)
        except InputError as exc:
            t_read.append(time.perf_counter() - t0)
            t_all.append(t_read[-1])
            c_all.append(time.process_time() - c0)
            t_refused.append(t_read[-1])
            failures.append((name, exc.message[:120]))
            continue
        t1 = time.perf_counter()
        out = SOLVER.solve(got, SolveContext.with_timeout(2.0))
        t2 = time.perf_counter()
        c_all.append(time.process_time() - c0)
        # the reading parse_silhouette made (recorded, not read again: on a loaded machine a
        # second reading can be cut short by its time budget and differ from the first)
        reading = LAST[-1] if LAST else None
        t_read.append(t1 - t0)
        t_all.append(t2 - t0)
        exact += same_figure(got, sil)
        if isinstance(out, Solved) and reading is not None:
            exact_fl = [[(float(x), float(y)) for x, y in r] for r in reading.exact_rings]
            dist = hausdorff(exact_fl, reading.fitted)
            solved += dist <= 0.25
            if dist > 0.25:
                failures.append((name, f"cover {dist:.2f} units from the input"))
        elif not isinstance(out, Solved):
            failures.append((name, out.status))
        else:
            failures.append((name, "solved, but read exactly (no noisy reading to measure)"))
    return solved, exact, t_read, t_all, c_all, t_refused, failures


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--figures", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--noise", type=float, nargs="*", default=[0.05, 0.1, 0.2])
    ap.add_argument("-v", action="store_true", help="list the failures")
    ap.add_argument("--why", action="store_true", help="then put each failure at the reader's stage that lost it")
    ap.add_argument("--figure-seed", type=int, default=1000, help="seed of the random assemblies (held-out sets)")
    ap.add_argument("--baseline", action="store_true", help="exact reading only (the state before)")
    ap.add_argument("--any-slide", action="store_true",
                    help="random figures only, their pieces slid by any hundredth of an edge (as people lay them)")
    ap.add_argument("--no-pieces", action="store_true",
                    help="without fitting the pieces to the drawing (the state before)")
    ap.add_argument("--format", choices=["text", "traced-svg"], default="text",
                    help="decimal text, or the SVG a bitmap tracer (potrace, Inkscape) writes: one path of "
                         "relative moves, the obtuse corners rounded by curves")
    ap.add_argument("--runs", type=int, default=1,
                    help="read each set this many times and print each run's share solved: the budgets are "
                         "wall-clock, so a figure read near the end of its second can move from run to run")
    args = ap.parse_args()
    if args.baseline:
        import plugins.tangram.decimals as decimals

        def refuse(rings, exact_error):
            raise exact_error
        decimals.read_noisy_rings = refuse
    if args.no_pieces:
        import plugins.tangram.reading as reading

        reading.PIECE_BUDGET = 0.0
    figures = exact_figures(args.figures, seed=args.figure_seed, any_slide=args.any_slide)
    print(f"{'noise':>6} {'solved':>8} {'exact':>8} {'read p50':>9} {'read p95':>9} "
          f"{'+solve p50':>10} {'+solve p95':>10} {'cpu p95':>8} {'refused':>8} {'ref p95':>8}")
    for noise in args.noise:
        shares, lost = [], set()
        for _run in range(args.runs):
            solved, exact, tr, ta, ca, tf, fails = run(noise, figures, args.seed, args.format)
            n = len(figures)
            shares.append(solved / n)
            print(f"{noise:6.2f} {solved / n:8.1%} {exact / n:8.1%} {pct(tr, .5):8.3f}s {pct(tr, .95):8.3f}s "
                  f"{pct(ta, .5):9.3f}s {pct(ta, .95):9.3f}s {pct(ca, .95):7.3f}s {len(tf):8d} {pct(tf, .95):7.3f}s")
            if args.v:
                for name, why in fails:
                    print(f"    {name}: {why}")
            lost.update(name for name, _why in fails)
        if args.runs > 1:
            always = sum(name not in lost for name, _sil in figures)
            print(f"       solved {min(shares):.1%}-{max(shares):.1%} over {args.runs} runs; "
                  f"{always / len(figures):.1%} solved in every run")
    if args.why:
        from bench.tangram_why import why

        why(figures, args.noise, args.seed, args.v)


if __name__ == "__main__":
    main()
