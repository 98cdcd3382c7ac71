"""Registers the tangram puzzle, its exact solver (the default) and its renderer."""

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
