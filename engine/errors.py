"""The engine's error types.

Every problem with what a user typed, sent or clicked is an :class:`InputError` carrying a
message meant for that user (and, when known, where in the input the problem is). The web app
turns it into a 4xx answer, the CLI into exit code 2; nothing else about it needs to be known.
"""

from __future__ import annotations


class PuzzleError(Exception):
    """Base class of every error the engine raises on purpose."""


class InputError(PuzzleError, ValueError):
    """Bad input from a user: instance text, JSON, a move, an edit action, an option.

    ``message`` is a complete sentence a user can act on ("row 3 has 4 numbers, expected 3").
    ``where`` optionally says where in the input the problem is ("line 2, column 5", "row 3",
    "move 7"); it is shown next to the message, never instead of it.
    """

    def __init__(self, message: str, where: str | None = None):
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def to_json(self) -> dict:
        return {"error": self.message, "where": self.where}


class SolverError(PuzzleError):
    """A solver broke its contract: it raised, or returned a solution that does not replay.

    The engine never shows such a solution to a user; it reports this error instead, naming
    the solver and the first bad move.
    """

    def __init__(self, message: str, solver: str | None = None, move_index: int | None = None):
        super().__init__(message)
        self.message = message
        self.solver = solver
        self.move_index = move_index
