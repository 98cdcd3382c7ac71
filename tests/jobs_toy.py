"""Toy plugins for the job tests: the "pairs" puzzle plus a puzzle whose rules are slow.

"slowpairs" is "pairs" with a rule that takes 0.1 s a move, and its solver "hasty" answers
just before its deadline: checking the answer then takes longer than the kill grace, which
shows whether a runner gives the check its own time. Worker processes load
:func:`jobs_registry` by its dotted path, :data:`JOBS_FACTORY`.

:func:`locale_registry` (:data:`LOCALE_FACTORY`) adds "polyglot", a pairs solver that writes
the locale it runs in (``engine.i18n.current_locale()``) into everything it says, and the
example plugin Lights Out, which has a real Simplified Chinese catalogue.
"""

from __future__ import annotations

import os
import time

from pairs_toy import Pairs, PairsPlugin

from engine import Solved, Solver, Task, TaskResult, Unsolvable, hookimpl
from engine.i18n import current_locale
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


#: The dotted path worker processes load :func:`locale_registry` by.
LOCALE_FACTORY = "jobs_toy:locale_registry"


class Polyglot(Solver):
    """Answers pairs rows and says in which locale it ran: in its progress (``said``), its
    stats (``locale``) and, for a row with an odd number of ones, its reason and proof."""

    puzzle_id = "pairs"
    name = "polyglot"

    def solve(self, instance, ctx):
        ctx.progress(force=True, said=f"thinking in {current_locale()}")
        if sum(instance) % 2:
            return Unsolvable(f"cannot be solved (written in {current_locale()})",
                              detail=f"the proof, written in {current_locale()}",
                              stats={"locale": current_locale()})
        return Solved(sweep(instance), stats={"locale": current_locale()})


class PolyglotTask(Task):
    """A pairs task whose summary says in which locale it ran."""

    puzzle_id = "pairs"
    name = "say"
    label = "Say the locale"
    description = "Says which locale it runs in."

    def run(self, instance, ctx):
        return TaskResult(f"Run in {current_locale()}.", {"locale": current_locale()})


class _PolyglotPlugin:
    @hookimpl
    def register_solvers(self, register):
        register(Polyglot())

    @hookimpl
    def register_tasks(self, register):
        register(PolyglotTask())


def locale_registry() -> Registry:
    """pairs with the polyglot solver, and Lights Out (examples/lights-out, installed by set-up)."""
    import puzzle_lights_out.hooks

    registry = Registry()
    registry.add_plugin("pairs-plugin", PairsPlugin(), version="9.9")
    registry.add_plugin("polyglot-plugin", _PolyglotPlugin(), version="1.0")
    registry.add_plugin("lights_out", puzzle_lights_out.hooks, version="1.0")
    registry.collect()
    return registry
