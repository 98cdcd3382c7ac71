"""Registers peg solitaire, its solvers (``search`` first: the default), its renderer and its
"Count solutions" task."""

from __future__ import annotations

from engine import hookimpl

from .fewest import FewestMovesSolver
from .puzzle import PegSolitaire
from .render import DefaultRenderer
from .solver import PlainSolver, SearchSolver
from .tasks import CountSolutionsTask


@hookimpl
def register_puzzles(register):
    register(PegSolitaire())


@hookimpl
def register_solvers(register):
    register(SearchSolver())  # first: the default
    register(PlainSolver())
    register(FewestMovesSolver())


@hookimpl
def register_renderers(register):
    register(DefaultRenderer())


@hookimpl
def register_commands(cli):
    from .commands import pegs_group  # click and the counters load only for the CLI

    cli.add_command(pegs_group)


@hookimpl
def register_tasks(register):
    register(CountSolutionsTask())
