"""Hook specifications: how a plugin tells the host what it offers.

A plugin is a module (named by an entry point in the ``puzzle_engine`` group) with functions
decorated by :data:`hookimpl` and named after the specs below. Each registration hook receives a
``register`` callable; call it once per object. Example::

    from engine import hookimpl

    @hookimpl
    def register_puzzles(register):
        register(LightsOut())
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import pluggy

if TYPE_CHECKING:
    import click

    from .contract import Puzzle, Renderer, Solver, Task

PROJECT = "puzzle_engine"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_puzzles(register: Callable[[Puzzle], None]) -> None:
    """Register Puzzle objects: call ``register(puzzle)`` for each :class:`engine.Puzzle`.

    The registering plugin owns the puzzle (its solvers and renderers are the defaults). Puzzle
    ids must be unique across all plugins; plugins are called in entry-point name order, and a
    duplicate is recorded as a load failure of the later one, while the first one stays.
    """


@hookspec
def register_solvers(register: Callable[[Solver], None]) -> None:
    """Register Solver objects: call ``register(solver)`` for each :class:`engine.Solver`.

    ``solver.puzzle_id`` names the puzzle it solves, which may come from another plugin. The
    first solver the puzzle's own plugin registers is its default; other plugins' solvers are
    listed after the owner's (by plugin name) and never become the default.
    """


@hookspec
def register_renderers(register: Callable[[Renderer], None]) -> None:
    """Register Renderer objects: call ``register(renderer)`` for each :class:`engine.Renderer`.

    The first renderer the puzzle's own plugin registers is its default; other plugins'
    renderers are listed after the owner's (by plugin name) and never become the default.
    """


@hookspec
def register_tasks(register: Callable[[Task], None]) -> None:
    """Register Task objects: call ``register(task)`` for each :class:`engine.Task`.

    ``task.puzzle_id`` names the puzzle it works on, which may come from another plugin. A
    puzzle's tasks are listed the owner's first (in registration order), then other plugins'
    (by plugin name); the editor shows them as buttons beside Solve.
    """


@hookspec
def register_commands(cli: click.Group) -> None:
    """Add commands to the ``puzzle`` command line: ``cli`` is its :class:`click.Group`.

    The web app contributes ``puzzle serve`` this way, so the engine never imports it.
    """
