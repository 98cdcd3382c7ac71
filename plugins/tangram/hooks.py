"""Registers the tangram puzzle, its exact solver (the default), its renderer and its
``puzzle tangram`` commands."""

from __future__ import annotations

from engine import hookimpl

from .puzzle import Tangram
from .render import DefaultRenderer
from .solver import ExactSolver


@hookimpl
def register_puzzles(register):
    register(Tangram())


@hookimpl
def register_solvers(register):
    register(ExactSolver())


@hookimpl
def register_renderers(register):
    register(DefaultRenderer())


@hookimpl
def register_commands(cli):
    from .commands import tangram_group  # click and the picture readers load only for the CLI

    cli.add_command(tangram_group)
