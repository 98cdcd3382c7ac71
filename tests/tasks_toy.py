"""Toy tasks on the "pairs" puzzle (tests/pairs_toy.py), for the task tests.

* ``ones`` counts the 1 bits (instant), refusing rows longer than :data:`ONES_LIMIT`;
* ``spin`` reports progress until it is told to stop (for cancel and deadlines);
* ``deaf`` never looks at the stop flag (its worker must be killed);
* ``liar`` returns something that is not a TaskResult.

Worker processes load :func:`tasks_registry` by its dotted path, :data:`TASKS_FACTORY`.
"""

from __future__ import annotations

import time

from pairs_toy import PairsPlugin

from engine import Task, TaskResult, hookimpl
from engine.plugins import Registry

#: ``ones`` refuses rows longer than this.
ONES_LIMIT = 8


class Ones(Task):
    puzzle_id = "pairs"
    name = "ones"
    label = "Count ones"
    description = "Counts the 1 bits."

    def refusal(self, instance):
        if len(instance) > ONES_LIMIT:
            return f"rows of more than {ONES_LIMIT} bits are too long for this toy"
        return None

    def run(self, instance, ctx):
        ones = sum(instance)
        return TaskResult(f"{ones} ones.", {"ones": ones, "bits": len(instance)})


class Spin(Task):
    puzzle_id = "pairs"
    name = "spin"
    label = "Spin"

    def run(self, instance, ctx):
        rounds = 0
        while not ctx.should_stop():
            rounds += 1
            ctx.progress(done=rounds % 10, total=10, message=f"round {rounds}")
            time.sleep(0.02)
        return ctx.gave_up(rounds=rounds)


class Deaf(Task):
    puzzle_id = "pairs"
    name = "deaf"
    label = "Deaf"

    def run(self, instance, ctx):
        time.sleep(3600)
        return TaskResult("never")


class Liar(Task):
    puzzle_id = "pairs"
    name = "liar"
    label = "Liar"

    def run(self, instance, ctx):
        return {"summary": "a dict is not a TaskResult"}


class _TaskPlugin:
    @hookimpl
    def register_tasks(self, register):
        for task in (Ones(), Spin(), Deaf(), Liar()):
            register(task)


def tasks_registry() -> Registry:
    registry = Registry()
    registry.add_plugin("pairs-plugin", PairsPlugin(), version="9.9")
    registry.add_plugin("tasks-plugin", _TaskPlugin(), version="1.0")
    registry.collect()
    return registry


TASKS_FACTORY = f"{__name__}:tasks_registry"
