"""Toy plugins for the job tests: the "pairs" puzzle plus a puzzle whose rules are slow.

"slowpairs" is "pairs" with a rule that takes 0.1 s a move, and its solver "hasty" answers
just before its deadline: checking the answer then takes longer than the kill grace, which
shows whether a runner gives the check its own time. Worker processes load
:func:`jobs_registry` by its dotted path, :data:`JOBS_FACTORY`.
"""

from __future__ import annotations

import os
import time

from pairs_toy import Pairs, PairsPlugin

from engine import Solved, Solver, hookimpl
from engine.plugins import Registry

#: Seconds one slowpairs move takes to apply.
SLOW_MOVE_SECONDS = 0.1


class SlowPairs(Pairs):
    id = "slowpairs"
    title = "Slow pairs"

    def apply_move(self, state, move):
        time.sleep(SLOW_MOVE_SECONDS)
        return super().apply_move(state, move)


def sweep(instance) -> list[str]:
    """The pairs solution: flip each 1 with its right neighbour, left to right."""
    bits, moves = list(instance), []
    for k in range(len(bits) - 1):
        if bits[k]:
            bits[k] ^= 1
            bits[k + 1] ^= 1
            moves.append(str(k))
    return moves


class Hasty(Solver):
    """Sweeps left to right after ``instance``-independent 0.3 s of "search"."""

    puzzle_id = "slowpairs"
    name = "hasty"

    def solve(self, instance, ctx):
        time.sleep(0.3)
        return Solved(sweep(instance))


class Priority(Solver):
    """Hasty's sweep without the wait, reporting the worker's ``nice`` value in its stats."""

    puzzle_id = "slowpairs"
    name = "priority"

    def solve(self, instance, ctx):
        return Solved(sweep(instance), stats={"nice": os.nice(0)})


class _SlowPlugin:
    @hookimpl
    def register_puzzles(self, register):
        register(SlowPairs())

    @hookimpl
    def register_solvers(self, register):
        register(Hasty())
        register(Priority())


def jobs_registry() -> Registry:
    registry = Registry()
    registry.add_plugin("pairs-plugin", PairsPlugin(), version="9.9")
    registry.add_plugin("slow-plugin", _SlowPlugin(), version="1.0")
    registry.collect()
    return registry


JOBS_FACTORY = f"{__name__}:jobs_registry"
