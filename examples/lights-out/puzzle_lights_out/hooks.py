"""The plugin's entry point: ``puzzle_engine`` loads this module and calls these hooks.

``pyproject.toml`` names this module under ``[project.entry-points.puzzle_engine]``. Each hook
receives a ``register`` callable and calls it once per object it contributes. The first solver
and the first renderer registered for a puzzle are its defaults.
"""

from engine import hookimpl

from .puzzle import LightsOut
from .renderer import ClassicRenderer
from .solver import GF2Solver


@hookimpl
def register_puzzles(register):
    register(LightsOut())


@hookimpl
def register_solvers(register):
    register(GF2Solver())


@hookimpl
def register_renderers(register):
    register(ClassicRenderer())
