"""A toy solver whose quick table cannot finish until a test opens a gate: for the start-up tests.

"gated" solves "pairs" (tests/pairs_toy.py) with a table file it builds in ``prepare()`` (a quick
table: no ``big_builds`` needed, as the 15-puzzle's 6-6-3 tables). The build holds the table's
lock (:meth:`engine.TableCache.building`) and then waits until the file named by
``$GATE_TOY_GATE`` exists; a solve needs the table, so it builds it the same way (under the
same lock: it waits for a build in progress instead of starting its own). Each step is written
as a line to the file named by ``$GATE_TOY_LOG``: ``build waits at the gate``, ``built``,
``solve waits for the lock``, so a test can tell what happened in which process.
"plain" answers at once and needs no table.

Worker and preparing processes load :func:`gate_registry` by its dotted path,
:data:`GATE_FACTORY` (they inherit the environment, so tests set these there).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from pairs_toy import Bits, Pairs

from engine import PrepareCost, Solved, Solver, hookimpl, table_cache
from engine.plugins import Registry

TABLE_NAME = "gate-toy-table.bin"
GATE_ENV, LOG_ENV = "GATE_TOY_GATE", "GATE_TOY_LOG"


def table_path() -> Path:
    return table_cache().path(TABLE_NAME)


def note(line: str) -> None:
    """Append ``line`` (and this process's id) to the log file."""
    with open(os.environ[LOG_ENV], "a") as out:
        out.write(f"{line} {os.getpid()}\n")


def log_lines(path: Path) -> list[str]:
    """The log's lines without the process ids."""
    return [line.rsplit(" ", 1)[0] for line in path.read_text().splitlines()] if path.exists() else []


def sweep(bits) -> list[str]:
    bits, moves = list(bits), []
    for k in range(len(bits) - 1):
        if bits[k]:
            bits[k] ^= 1
            bits[k + 1] ^= 1
            moves.append(str(k))
    return moves


def ensure_table(should_stop, waiting=None) -> bool:
    """The table on disk, built here if missing (once across processes); False if stopped."""
    path = table_path()
    if path.exists():
        return True
    with table_cache().building(path, should_stop, waiting) as held:
        if not held:
            return False
        if path.exists():  # built by the holder this process waited for
            return True
        note("build waits at the gate")
        while not Path(os.environ[GATE_ENV]).exists():
            if should_stop():
                return False
            time.sleep(0.05)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(b"table")
        os.replace(tmp, path)  # whole or not at all
        note("built")
    return True


class Gated(Solver):
    puzzle_id = "pairs"
    name = "gated"
    description = "Needs a table that is built once, behind a gate the test opens."

    def prepare_cost(self, *, big_builds=False):
        if table_path().exists():
            return PrepareCost()
        return PrepareCost(1.0, 1 << 20, 5, ("the gated table",))

    def prepare(self, ctx, *, big_builds=False):
        return ensure_table(ctx.should_stop)

    def solve(self, instance, ctx):
        if not ensure_table(ctx.should_stop, lambda: note("solve waits for the lock")):
            return ctx.gave_up()
        return Solved(sweep(instance), optimal=True, stats={"table": TABLE_NAME})


class Plain(Solver):
    puzzle_id = "pairs"
    name = "plain"
    description = "The sweep, at once; no table."

    def solve(self, instance, ctx):
        return Solved(sweep(instance))


class _Plugin:
    @hookimpl
    def register_puzzles(self, register):
        register(Pairs())

    @hookimpl
    def register_solvers(self, register):
        register(Gated())
        register(Plain())

    @hookimpl
    def register_renderers(self, register):
        register(Bits())


def gate_registry() -> Registry:
    registry = Registry()
    registry.add_plugin("gate-toy", _Plugin(), version="1.0")
    registry.collect()
    return registry


GATE_FACTORY = f"{__name__}:gate_registry"
