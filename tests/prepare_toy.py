"""A toy solver whose answers get better once its table is built: for the background tests.

"tabled" solves "pairs" (tests/pairs_toy.py). Without its table file it answers the left-to-right
sweep plus two moves that cancel out (solved, not proved shortest); with the table it answers
the sweep alone, proved shortest. Its ``prepare(big_builds=True)`` builds the table in a few
steps with progress, as a big build does; ``prepare()`` without ``big_builds`` builds nothing.
With ``$PREPARE_TOY_SHORT`` set it leaves the build out, saying memory is short.
(The preparing process inherits the environment, so tests set these there.)

Worker and preparing processes load :func:`prepare_registry` by its dotted path,
:data:`PREPARE_FACTORY`.
"""

from __future__ import annotations

import os
import time

from pairs_toy import Bits, Pairs

from engine import Solved, Solver, hookimpl, table_cache
from engine.plugins import Registry

TABLE_NAME = "pairs-toy-table.bin"
#: Steps of the toy build, and seconds each takes (``$PREPARE_TOY_STEP_SECONDS``: longer).
STEPS, STEP_SECONDS = 5, 0.1


def table_path():
    return table_cache().path(TABLE_NAME)


def sweep(bits) -> list[str]:
    bits, moves = list(bits), []
    for k in range(len(bits) - 1):
        if bits[k]:
            bits[k] ^= 1
            bits[k + 1] ^= 1
            moves.append(str(k))
    return moves


class Tabled(Solver):
    puzzle_id = "pairs"
    name = "tabled"
    description = "Shortest answers once its table is built; two wasted moves before."

    def prepare(self, ctx, *, big_builds=False):
        if not big_builds or table_path().exists():
            return True
        if os.environ.get("PREPARE_TOY_SHORT"):
            ctx.progress(force=True, tables="the pairs rows",
                         skipped="not enough memory (needs 2.4 GB, 1.1 GB free)")
            return True
        for step in range(STEPS):
            if ctx.should_stop():
                return False
            ctx.progress(force=True, tables="the pairs rows", done=step, total=STEPS)
            time.sleep(float(os.environ.get("PREPARE_TOY_STEP_SECONDS") or STEP_SECONDS))
        table_cache().write(table_path(), lambda out: out.write(b"table"))
        return True

    def solve(self, instance, ctx):
        moves = sweep(instance)
        if table_path().exists():
            return Solved(moves, optimal=True)
        return Solved(["0", "0", *moves])


class _Plugin:
    @hookimpl
    def register_puzzles(self, register):
        register(Pairs())

    @hookimpl
    def register_solvers(self, register):
        register(Tabled())

    @hookimpl
    def register_renderers(self, register):
        register(Bits())


def prepare_registry() -> Registry:
    registry = Registry()
    registry.add_plugin("prepare-toy", _Plugin(), version="1.0")
    registry.collect()
    return registry


PREPARE_FACTORY = f"{__name__}:prepare_registry"
