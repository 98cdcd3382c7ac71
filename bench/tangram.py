"""Tangram benchmark: prints the issue's figures table (solver times, verdicts, refusal times).

    .venv/bin/python bench/tangram.py                 # 1,000 random figures, symmetries of all
    .venv/bin/python bench/tangram.py --random 200 --symmetric 50
    .venv/bin/python bench/tangram.py --reading 100   # noisy outlines (bench/tangram_reading.py)

Times are solver time only (``ExactSolver.solve``), measured with ``time.perf_counter`` on this
machine; parsing and the engine's replay are not included, except in the refusal rows, which time
``parse`` itself (that is where refusals happen).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import InputError, SolveContext, Solved, Unsolvable  # noqa: E402
from plugins.tangram.assembly import random_assembly  # noqa: E402
from plugins.tangram.cover_check import is_exact_cover  # noqa: E402
from plugins.tangram.figures import CONVEX, IMPOSSIBLE_CONVEX, PRESETS, vertex_moved_variants  # noqa: E402
from plugins.tangram.pieces import parse_placement  # noqa: E402
from plugins.tangram.silhouette import format_silhouette, parse_silhouette, symmetric_image  # noqa: E402
from plugins.tangram.solver import ExactSolver  # noqa: E402

SOLVER = ExactSolver()


def timed_solve(sil, seconds=30.0):
    t = time.perf_counter()
    out = SOLVER.solve(sil, SolveContext.with_timeout(seconds))
    return out, time.perf_counter() - t


def ms(s: float) -> str:
    return f"{s * 1000:.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--random", type=int, default=1000, help="number of seeded random figures")
    ap.add_argument("--symmetric", type=int, default=None,
                    help="how many of them to solve under all 8 symmetries (default: all)")
    ap.add_argument("--reading", type=int, default=None,
                    help="instead: read this many noisy outlines per noise level (bench/tangram_reading.py)")
    args = ap.parse_args()
    if args.reading is not None:
        from bench.tangram_reading import main as reading_main
        sys.argv = [sys.argv[0], "--figures", str(args.reading)]
        reading_main()
        return
    n_sym = args.random if args.symmetric is None else min(args.symmetric, args.random)
    rows = []
    ExactSolver().solve(parse_silhouette(PRESETS["convex-square"]), SolveContext())  # warm caches

    # 1. the 13 convex figures
    times, ok = [], 0
    for name, text in CONVEX.items():
        sil = parse_silhouette(text)
        out, dt = timed_solve(sil)
        ok += isinstance(out, Solved) and is_exact_cover(sil, [parse_placement(m) for m in out.moves])
        times.append(dt)
        print(f"  {name:28s} {out.status:10s} {ms(dt)}", file=sys.stderr)
    rows.append(("the 13 convex figures", "all solved, each <= 0.5 s",
                 f"{ok}/13 solved and cover-checked; max {ms(max(times))}, median {ms(statistics.median(times))}"))

    # 2. seeded random figures
    figures, times, solved, holes, multi, offlat = [], [], 0, 0, 0, 0
    t_gen = time.perf_counter()
    for seed in range(args.random):
        sil, _ = random_assembly(seed)
        figures.append(sil)
        holes += any(c.holes for c in sil.components)
        corners = [p for r in sil.rings() for p in r]
        multi += len(set(corners)) < len(corners)  # a vertex met twice: pieces touch at a point
        offlat += any(x.a.denominator > 1 or x.b.denominator > 1 for r in sil.rings() for p in r for x in p)
    t_gen = time.perf_counter() - t_gen
    verdicts = []
    for sil in figures:
        out, dt = timed_solve(sil)
        times.append(dt)
        verdicts.append(out.status)
        solved += isinstance(out, Solved) and is_exact_cover(sil, [parse_placement(m) for m in out.moves])
    rows.append((f"{args.random:,} seeded random figures", "all solved; median <= 0.05 s, max <= 1 s",
                 f"{solved}/{args.random} solved and cover-checked; median {ms(statistics.median(times))}, "
                 f"max {ms(max(times))} ({holes} with holes, {multi} with point contacts, "
                 f"{offlat} off the lattice; generating them took {t_gen:.1f} s)"))

    # 3. the same figures under the 8 symmetries
    same, total, sym_times = 0, 0, []
    for sil, verdict in zip(figures[:n_sym], verdicts[:n_sym]):
        agree = True
        for k in range(4):
            for mirror in (0, 1):
                if k == 0 and not mirror:
                    continue
                out, dt = timed_solve(symmetric_image(sil, k, mirror))
                sym_times.append(dt)
                total += 1
                agree &= out.status == verdict
        same += agree
    rows.append((f"the same figures rotated and mirrored ({n_sym:,} figures x 7 more symmetries)",
                 "same verdicts",
                 f"{same}/{n_sym} figures with the same verdict in all 8; {total:,} solves, "
                 f"median {ms(statistics.median(sym_times))}, max {ms(max(sym_times))}"))

    # 4. impossible figures: convex ones not among the 13, and one vertex moved
    imp_times, imp_ok = [], 0
    for text in IMPOSSIBLE_CONVEX.values():
        out, dt = timed_solve(parse_silhouette(text))
        imp_ok += isinstance(out, Unsolvable)
        imp_times.append(dt)
    rows.append((f"convex 45-degree figures of area 16 not among the 13 ({len(IMPOSSIBLE_CONVEX)})",
                 "each proved impossible <= 2 s",
                 f"{imp_ok}/{len(IMPOSSIBLE_CONVEX)} proved impossible; max {ms(max(imp_times))}"))
    moved_times, moved_imp, moved_sol, moved_total = [], 0, 0, 0
    sources = [format_silhouette(s) for s in figures[:150]] + list(PRESETS.values())
    for text in sources:
        for variant in vertex_moved_variants(text):
            out, dt = timed_solve(parse_silhouette(variant))
            moved_total += 1
            if isinstance(out, Unsolvable):
                moved_imp += 1
                moved_times.append(dt)
            elif isinstance(out, Solved):
                moved_sol += 1
    rows.append(("solvable figures with one vertex moved, area kept 16 (presets + 150 random)",
                 "each proved impossible <= 2 s",
                 f"{moved_total} variants: {moved_imp} proved impossible (max {ms(max(moved_times))}, "
                 f"median {ms(statistics.median(moved_times))}), {moved_sol} still solvable "
                 f"(moving a vertex keeps area 16 only by mirroring an ear, which often still tiles)"))

    # 5. refusals
    def comb(teeth: int, last: str = "") -> str:
        """A comb of unit teeth (4*teeth + 2 vertices), optionally with a bent last point."""
        pts = ["0,0", f"{2 * teeth},0"]
        for i in range(teeth, 0, -1):
            x = 2 * i
            pts += [f"{x},1", f"{x - 1},1", f"{x - 1},2", f"{x - 2},2"]
        pts[-1] = last or pts[-1]
        return "outer " + " ".join(pts)
    wrong = {
        "area 12": "outer 0,0 4,0 4,3 0,3",
        "area 1+r2": "outer 0,0 1+r2,0 1+r2,1 0,1",
        "area 297, 398 vertices": comb(99),
        "153.4-degree edge": "outer 0,0 4,0 4,4 2,5",
        "non-45 edge, 398 vertices": comb(99, "1/3,2"),
        # Many rings: nesting between every pair of rings once took seconds here.
        "area 24, 24 unit squares": "\n".join(f"outer {4 * i},0 {4 * i + 1},0 {4 * i + 1},1 {4 * i},1"
                                               for i in range(24)),
        "24 nested outlines": "\n".join(
            f"outer {-i},{-i} {i + 1},{-i} {i + 1},{i + 1} {-i},{i + 1}" for i in range(24)),
    }
    worst = 0.0
    detail = []
    for label, text in wrong.items():
        t = time.perf_counter()
        try:
            parse_silhouette(text)
            refused = False
        except InputError as exc:
            refused = True
            print(f"  refused {label}: {str(exc)[:90]}", file=sys.stderr)
        dt = time.perf_counter() - t
        worst = max(worst, dt)
        detail.append(f"{label} {ms(dt)}" + ("" if refused else " NOT REFUSED"))
    rows.append(("area wrong, non-45-degree edge or malformed rings", "refused <= 50 ms",
                 f"max {ms(worst)} ({'; '.join(detail)})"))

    print("| what | target | measured |")
    print("|---|---|---|")
    for what, target, measured in rows:
        print(f"| {what} | {target} | {measured} |")


if __name__ == "__main__":
    main()
