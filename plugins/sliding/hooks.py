"""Registers the sliding-tile puzzle, its solvers (optimal first: the default) and its renderer."""

from __future__ import annotations

from engine import hookimpl

from .fast import FastSolver
from .optimal import OptimalSolver
from .puzzle import SlidingPuzzle
from .render import DefaultRenderer


@hookimpl
def register_puzzles(register):
    register(SlidingPuzzle())


@hookimpl
def register_solvers(register):
    register(OptimalSolver())  # first: the default
    register(FastSolver())


@hookimpl
def register_renderers(register):
    register(DefaultRenderer())
