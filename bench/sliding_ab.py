"""Two or more settings of the 24-puzzle search compared on the same instances, interleaved.

    .venv/bin/python bench/sliding_ab.py --first 1 --count 12 main no-polish
    .venv/bin/python bench/sliding_ab.py --count 50 main            # one setting, all 50

Each of Korf and Felner's 24-puzzles (``data/korf24-felner-50.txt``) is solved with the default
solver (``auto`` -> ``bounded``) under ``--limit`` seconds once per setting, the settings one
after the other on each instance (their order alternating from one instance to the next), so
that every setting sees about the same load on a shared machine. A setting is a name from
:data:`SETTINGS`: module constants set for its solves (and set back after); "main" is the
code as it is. Prints one line per
instance, then per setting the mean length over the optimum and the moves over it, and the load
average at the start and the end; ``--jsonl FILE`` also appends every solve as a JSON line.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.sliding import K24_FILE, engine_objects, korf_instances, korf_text  # noqa: E402

#: setting name -> {"module.CONSTANT": value}.
SETTINGS: dict[str, dict[str, object]] = {
    "main": {},
    # No polishing of the best answer before the exact search: what polishing gains.
    "no-polish": {"plugins.sliding.anytime.POLISH_SHARE": 0.0},
    # The exact search's last share of the time given to polishing instead.
    "polish-more": {"plugins.sliding.anytime.POLISH_SHARE": 0.6,
                    "plugins.sliding.anytime.EXACT_SHARE": 0.0},
}


def patched(setting: dict[str, object]) -> list[tuple[object, str, object]]:
    """Set the setting's constants; return what to set back."""
    undo = []
    for key, value in setting.items():
        mod_name, attr = key.rsplit(".", 1)
        mod = importlib.import_module(mod_name)
        undo.append((mod, attr, getattr(mod, attr)))
        setattr(mod, attr, value)
    return undo


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("settings", nargs="+", help=f"settings to compare: {', '.join(SETTINGS)}")
    ap.add_argument("--first", type=int, default=1, help="first instance (1-50)")
    ap.add_argument("--count", type=int, default=50, help="number of instances")
    ap.add_argument("--ids", help="instances, comma-separated (instead of --first/--count)")
    ap.add_argument("--limit", type=float, default=10.0, help="time limit per solve, seconds")
    ap.add_argument("--jsonl", help="append every solve to this file as a JSON line")
    args = ap.parse_args(argv)
    for name in args.settings:
        if name not in SETTINGS:
            ap.error(f"unknown setting {name!r}")
    from engine import SolveContext
    from engine.solving import run_solver
    puzzle, solvers = engine_objects()
    solver = next(iter(solvers.values()))
    instances = korf_instances(K24_FILE)
    if args.ids:
        wanted = {int(x) for x in args.ids.split(",")}
        instances = [i for i in instances if i[0] in wanted]
    else:
        instances = instances[args.first - 1:args.first - 1 + args.count]
    loads = [os.getloadavg()[0]]
    print(f"{len(instances)} instances, limit {args.limit:g} s, settings {args.settings}, "
          f"load average {loads[0]:.1f}, {time.strftime('%H:%M:%S')}", flush=True)
    # Warm the kernels and the tables' pages up outside the measured solves.
    run_solver(puzzle, solver, puzzle.parse(korf_text(instances[0][1])),
               SolveContext.with_timeout(2.0))
    rows: dict[str, list[tuple[int, int, int, int]]] = {n: [] for n in args.settings}
    for k, (number, tiles, optimum) in enumerate(instances):
        order = args.settings if k % 2 == 0 else list(reversed(args.settings))
        got = {}
        for name in order:
            undo = patched(SETTINGS[name])
            try:
                report = run_solver(puzzle, solver, puzzle.parse(korf_text(tiles)),
                                    SolveContext.with_timeout(args.limit))
            finally:
                for mod, attr, value in undo:
                    setattr(mod, attr, value)
            length = len(report.outcome.moves) if report.status == "solved" else 10**6
            lb = report.outcome.stats.get("lower_bound") or 0
            got[name] = length
            rows[name].append((number, length, lb, optimum))
            if args.jsonl:
                with open(args.jsonl, "a") as f:
                    f.write(json.dumps({"setting": name, "instance": number, "length": length,
                                        "lower_bound": lb, "optimum": optimum,
                                        "seconds": report.seconds,
                                        "load": os.getloadavg()[0],
                                        "rounds": report.outcome.stats.get("rounds")}) + "\n")
        loads.append(os.getloadavg()[0])
        print(f"  #{number:2d} optimum {optimum}: "
              + "  ".join(f"{n} {got[n]} (+{got[n] - optimum})" for n in args.settings)
              + f"  load {loads[-1]:.1f}", flush=True)
    print(f"load average {min(loads):.1f}-{max(loads):.1f} (mean {statistics.mean(loads):.1f})")
    for name in args.settings:
        r = rows[name]
        print(f"  {name:16s} length/optimum {statistics.mean(x[1] / x[3] for x in r):.4f}  "
              f"over the optimum {statistics.mean(x[1] - x[3] for x in r):.2f} moves  "
              f"mean length {statistics.mean(x[1] for x in r):.1f}  "
              f"shortest {sum(x[1] == x[3] for x in r)}  "
              f"lower bound mean {statistics.mean(x[2] for x in r):.1f}")
    if len(args.settings) == 2:
        a, b = (rows[n] for n in args.settings)
        better = sum(y[1] < x[1] for x, y in zip(a, b))
        worse = sum(y[1] > x[1] for x, y in zip(a, b))
        print(f"  {args.settings[1]} against {args.settings[0]}: {better} shorter, {worse} longer")


if __name__ == "__main__":
    main()
