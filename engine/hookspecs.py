"""Hook specifications: how a plugin tells the host what it offers.

A plugin is a module (named by an entry point in the ``puzzle_engine`` group) with functions
decorated by :data:`hookimpl` and named after the specs below. Each registration hook receives a
``register`` callable; call it once per object. Example::

    from engine import hookimpl

    @hookimpl
    def register_puzzles(register):
        register(LightsOut())
"""

import pluggy

PROJECT = "puzzle_engine"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_puzzles(register):
    """Register Puzzle objects: call ``register(puzzle)`` for each :class:`engine.Puzzle`.

    Puzzle ids must be unique across all plugins; a duplicate is recorded as a load failure of
    the plugin that registered it second, and the first one stays.
    """


@hookspec
def register_solvers(register):
    """Register Solver objects: call ``register(solver)`` for each :class:`engine.Solver`.

    ``solver.puzzle_id`` names the puzzle it solves, which may come from another plugin. The
    first solver registered for a puzzle is its default.
    """


@hookspec
def register_renderers(register):
    """Register Renderer objects: call ``register(renderer)`` for each :class:`engine.Renderer`.

    The first renderer registered for a puzzle is its default.
    """


@hookspec
def register_commands(cli):
    """Add commands to the ``puzzle`` command line: ``cli`` is its :class:`click.Group`.

    The web app contributes ``puzzle serve`` this way, so the engine never imports it.
    """
