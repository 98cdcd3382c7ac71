"""An editor flood of new custom peg boards: disk written and CPU taken, with the table cache.

    PUZZLE_ENGINE_CACHE=/tmp/flood-cache .venv/bin/python bench/cache_flood.py --seconds 60

One client sends the live verdict of a new random custom board (a rectangle of 4x4 to 7x7 with
some corners cut, one hole, goal "one peg anywhere") as fast as the answers come, as the web
editor does after each edit (`web.editor_view.assessment_json`, so the request's admission rule
applies). It prints the boards sent, the answers by kind, the table files and bytes written to
the cache folder and the process's CPU seconds; then the same for the rule of the command
line (every table written at first use) with each table built in full, as every request used
to cause. The cache folder is emptied first: point PUZZLE_ENGINE_CACHE at a scratch folder.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def boards(seed: int):
    rng = random.Random(seed)
    while True:
        rows, cols = rng.randint(4, 7), rng.randint(4, 7)
        cells = [["o"] * cols for _ in range(rows)]
        for r, c in ((0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)):
            if rng.random() < 0.5:
                cells[r][c] = "_"
        r, c = rng.randrange(1, rows - 1), rng.randrange(1, cols - 1)
        cells[r][c] = "."
        yield "geometry: square; goal: any; board: " + "/".join("".join(row) for row in cells)


def folder_figures(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")]
    return len(files), sum(p.stat().st_size for p in files)


def flood(seconds: float, seed: int, as_web: bool, folder: Path) -> None:
    from engine.plugins import get_registry
    from plugins.pegs import verdict
    from web import create_app
    from web.editor_view import assessment_json

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    verdict._judges.clear()
    registry = get_registry()
    puzzle = registry.puzzle("pegs")
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(folder.parent / "flood-data"),
                      "KEEP_TABLES_AFTER": 2 if as_web else 1})
    answers: collections.Counter[str] = collections.Counter()
    sent = 0
    cpu, wall = time.process_time(), time.monotonic()
    try:
        with app.app_context():
            for text in boards(seed):
                if time.monotonic() - wall >= seconds:
                    break
                try:
                    state = puzzle.parse(text)
                except ValueError:
                    continue
                if not as_web:
                    verdict.judge_for(state, wait=True)  # every board's table built, as before
                answers[assessment_json(puzzle, state)["verdict"]] += 1
                sent += 1
        for thread in list(verdict._building.values()):
            thread.join()
    finally:
        app.extensions["puzzle_jobs"].close()
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    files, size = folder_figures(folder)
    label = "web rule (kept after 2 asks, one build at a time)" if as_web else \
        "every table built and written at first use"
    print(f"{label}:\n  {sent} boards in {wall:.1f} s, answers {dict(answers)}\n"
          f"  {files} files, {size / 2**20:.1f} MiB written; {cpu:.1f} CPU-seconds")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = os.environ.get("PUZZLE_ENGINE_CACHE")
    if not env:
        sys.exit("set PUZZLE_ENGINE_CACHE to a scratch folder: it is emptied")
    folder = Path(env)
    flood(args.seconds, args.seed, True, folder)
    flood(args.seconds, args.seed, False, folder)


if __name__ == "__main__":
    main()
