"""Registers the sliding-tile puzzle, its solvers (auto first: the default, which picks one of
the others by board size) and its renderer."""

from __future__ import annotations

from engine import hookimpl

from .auto import AutoSolver
from .bounded import BoundedSolver
from .fast import FastSolver
from .optimal import OptimalSolver
from .puzzle import SlidingPuzzle
from .render import DefaultRenderer


@hookimpl
def register_puzzles(register):
    register(SlidingPuzzle())


@hookimpl
def register_solvers(register):
    optimal, bounded, fast = OptimalSolver(), BoundedSolver(), FastSolver()
    register(AutoSolver(optimal, bounded, fast))  # first: the default
    register(optimal)
    register(bounded)
    register(fast)


@hookimpl
def register_renderers(register):
    register(DefaultRenderer())
