"""The puzzle engine's public API: everything a plugin may import.

Plugins import from ``engine`` only (never from ``engine.something`` internals they do not
need, never from ``web`` or another plugin).
"""

from .context import SolveContext
from .contract import Assessment, EditMode, EditResult, EditTool, Puzzle, Renderer, Solver
from .errors import InputError, PuzzleError, SolverError
from .hookspecs import hookimpl
from .outcomes import GaveUp, Outcome, Solved, Unsolvable
from .solving import replay

__all__ = [
    "Assessment", "EditMode", "EditResult", "EditTool", "GaveUp", "InputError", "Outcome", "Puzzle",
    "PuzzleError", "Renderer", "SolveContext", "Solved", "Solver", "SolverError", "Unsolvable",
    "hookimpl", "replay",
]
