"""A curated mutation check of the core logic: does the test suite notice when the code breaks?

Each mutation below changes one small piece of logic the way a real bug would (a flipped
comparison, a dropped condition, a wrong exit code). For each, the repository is copied to a
temporary directory, the mutation applied there, and the tests that guard that code run against
the copy. A mutation the tests do not fail on "survived": either a test is missing, or the
mutation is equivalent (it changes nothing observable), which must then be said in ``note``.

    .venv/bin/python scripts/mutation_check.py          # all mutations
    .venv/bin/python scripts/mutation_check.py -k pegs     # those whose id contains "pegs"

It prints one line per mutation and a summary, and exits 1 if any non-equivalent mutation
survived. It never touches the working tree: every mutation runs in a throw-away copy.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from mutations import MUTATIONS, Mutation

ROOT = Path(__file__).resolve().parent.parent
COPY_IGNORE = shutil.ignore_patterns(".venv", ".git", ".hypothesis", ".pytest_cache",
                                     "artifacts", "*.egg-info", "node_modules")


@dataclass
class Result:
    mutation: Mutation
    killed: bool
    seconds: float
    detail: str


def run_one(mutation: Mutation, workdir: Path, timeout: float, mutate: bool = True) -> Result:
    """Apply ``mutation`` in ``workdir`` (a copy of the repo), run its tests, restore the file."""
    target = workdir / mutation.path
    original = target.read_text()
    if mutate:
        count = original.count(mutation.find)
        if count != 1:
            return Result(mutation, False, 0.0, f"STALE: the text to mutate occurs {count} times")
        target.write_text(original.replace(mutation.find, mutation.replace))
    # The copy's packages shadow the installed (editable) ones, the example plugin's too.
    paths = [str(workdir), str(workdir / "examples" / "lights-out")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths), PYTHONDONTWRITEBYTECODE="1")
    started = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
             "-o", "addopts=", *mutation.tests],
            cwd=workdir, env=env, capture_output=True, text=True, timeout=timeout)
        killed = proc.returncode != 0
        tail = (proc.stdout.strip().splitlines() or [""])[-1]
    except subprocess.TimeoutExpired:
        killed, tail = True, "killed by timeout (the mutation made the tests hang)"
    finally:
        target.write_text(original)
    return Result(mutation, killed, time.perf_counter() - started, tail)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only mutations whose id contains this text")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per mutation")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTATIONS if args.k in m.id]
    print(f"{len(chosen)} mutations; each runs its guarding tests in a copy of the repository")
    results = []
    with tempfile.TemporaryDirectory(prefix="mutations-") as tmp:
        workdir = Path(tmp) / "repo"
        shutil.copytree(ROOT, workdir, ignore=COPY_IGNORE)
        # Without a clean baseline a "killed" could mean "broken anyway": check it first.
        test_sets = sorted({m.tests for m in chosen})
        for tests in test_sets:
            baseline = run_one(Mutation("baseline", chosen[0].path, "", "", tests, ""), workdir,
                               args.timeout, mutate=False)
            if baseline.killed:
                print(f"the unmutated tests fail: {' '.join(tests)}: {baseline.detail}")
                return 2
        for m in chosen:
            r = run_one(m, workdir, args.timeout)
            results.append(r)
            verdict = "killed" if r.killed else ("equivalent" if m.equivalent else "SURVIVED")
            print(f"{verdict:10} {r.seconds:6.1f}s  {m.id}: {m.description}")
            if not r.killed or "STALE" in r.detail:
                print(f"{'':19}{r.detail}" + (f" ({m.note})" if m.note else ""))
    killed = sum(r.killed for r in results)
    equivalent = sum(1 for r in results if not r.killed and r.mutation.equivalent)
    survived = len(results) - killed - equivalent
    print(f"\n{killed} killed, {equivalent} equivalent, {survived} survived "
          f"of {len(results)} mutations")
    return 1 if survived else 0


if __name__ == "__main__":
    raise SystemExit(main())
