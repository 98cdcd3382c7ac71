"""The engine's error types.

Every problem with what a user typed, sent or clicked is an :class:`InputError` carrying a
message meant for that user (and, when known, where in the input the problem is). The web app
turns it into a 4xx answer, the CLI into exit code 2; nothing else about it needs to be known.

Plugin code can raise anything. :func:`convert_exception` (and :func:`plugin_call`, its context
manager) is the one place that says what an exception from a plugin means: bad user input
(InputError), a broken contract (:class:`PluginError`, :class:`SolverError`) or a failing
environment (:class:`EnvironmentProblem`). The web app, the CLI and the job workers use it.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Mapping

from .i18n import N_, _


class PuzzleError(Exception):
    """Base class of every error the engine raises on purpose."""


class InputError(PuzzleError, ValueError):
    """Bad input from a user: instance text, JSON, a move, an edit action, an option.

    ``message`` is a complete sentence a user can act on ("row 3 has 4 numbers, expected 3").
    ``where`` optionally says where in the input the problem is ("line 2, column 5", "row 3",
    "move 7"); it is shown next to the message, never instead of it.

    ``where`` is a machine field: programs read it, so it is the same English words in every
    language. ``where_text`` is the same place said to people in the current language
    ("第 3 行第 3 列"), written with the raiser's own catalogue; pages show it instead of
    ``where`` when it is given. Give both or only ``where``; :attr:`place` is the one to show.

    ``details`` is optional machine data about the refusal that a page or a plugin's script
    may show (JSON values only; the tangram puts the closest partial cover it found there).
    The message must make sense without it.
    """

    def __init__(self, message: str, where: str | None = None, where_text: str | None = None,
                 details: Mapping | None = None):
        super().__init__(message)
        self.message = message
        self.where = where
        self.where_text = where_text
        self.details = details

    @property
    def place(self) -> str | None:
        """Where the problem is, for people: ``where_text`` when given, else ``where``."""
        return self.where_text or self.where

    def __str__(self) -> str:
        """The place and the message in one line, joined as the reader's language joins them
        (``"row 3: ..."``, ``"第 3 行：..."``)."""
        if not self.place:
            return self.message
        return _("{place}: {message}").format(place=self.place, message=self.message)

    def to_json(self) -> dict:
        """``{"error", "where"}``, plus ``"where_text"`` when the raiser gave one that says more
        than ``where`` (so an English answer is what it always was), and ``"details"`` when
        given."""
        found: dict = {"error": self.message, "where": self.where}
        if self.where_text and self.where_text != self.where:
            found["where_text"] = self.where_text
        if self.details:
            found["details"] = dict(self.details)
        return found


class UnknownPuzzle(InputError):
    """No installed puzzle has the id asked for (the web app answers 404, the CLI exits 2)."""


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


class PluginError(PuzzleError):
    """A plugin broke its contract: it raised something the contract does not allow, or returned
    something the engine cannot use (a value JSON cannot encode, say).

    ``plugin`` names the plugin (its entry-point name) when known, so the user knows whose fault
    it is. The CLI exits 4 on it, the web app answers 500 with the message and the job API marks
    the job ``error``.
    """

    def __init__(self, message: str, plugin: str | None = None):
        super().__init__(message)
        self.message = message
        self.plugin = plugin


class EnvironmentProblem(PuzzleError):
    """The machine could not give a plugin what it needed: a writable directory, a file, memory.

    Not a broken contract (the CLI exits 5, not 4): the same plugin works where the directory is
    writable. ``plugin`` names the plugin when known.
    """

    def __init__(self, message: str, plugin: str | None = None):
        super().__init__(message)
        self.message = message
        self.plugin = plugin


#: The plain exceptions a plugin may let escape while it reads *user input* (instance text, JSON,
#: a move, an edit action, random options). They are still about that input, so the user hears
#: about it in words (a 400, exit 2) instead of as a crash. Anything else is the plugin's fault.
INPUT_EXCEPTIONS: tuple[type[BaseException], ...] = (
    ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError)


def convert_exception(exc: BaseException, *, what: str | None = None, plugin: str | None = None,
                      doing: str = N_("running"), values: Mapping[str, object] | None = None) -> PuzzleError:
    """The one mapping from an exception raised in plugin code to an engine error.

    * a :class:`PuzzleError` (InputError, SolverError, ...) stands as it is;
    * with ``what`` (the plugin was reading user input, e.g. ``"the instance"``), the
      :data:`INPUT_EXCEPTIONS` become ``InputError("<what> was rejected: ...")``;
    * ``OSError`` and ``MemoryError`` become :class:`EnvironmentProblem`;
    * anything else becomes :class:`PluginError` naming ``plugin`` and what it was ``doing``.

    ``doing`` is an English phrase marked with N_, with ``{name}`` placeholders filled from
    ``values`` (``doing=N_("rendering a {puzzle} board"), values={"puzzle": "sliding"}``), so the
    whole message is said in the reader's language.

    The web app (``web.rendering``), the CLI and the job workers all convert through here, so
    one exception means the same thing everywhere.
    """
    if isinstance(exc, PuzzleError):
        return exc
    if what is not None and isinstance(exc, INPUT_EXCEPTIONS):
        # ``what`` is an English phrase marked with N_ where it is written ("the instance").
        return InputError(_("{what} was rejected: {error}").format(what=_(what), error=exc))
    said = _(doing).format(**(values or {}))
    facts = {"plugin": repr(plugin), "doing": said, "kind": type(exc).__name__, "error": exc}
    if isinstance(exc, (OSError, MemoryError)):
        if plugin:
            return EnvironmentProblem(_("plugin {plugin} could not run ({doing}): {kind}: {error}").format(**facts),
                                      plugin=plugin)
        return EnvironmentProblem(_("a plugin could not run ({doing}): {kind}: {error}").format(**facts), plugin=plugin)
    if plugin:
        return PluginError(_("plugin {plugin} failed while {doing}: {kind}: {error}").format(**facts), plugin=plugin)
    return PluginError(_("a plugin failed while {doing}: {kind}: {error}").format(**facts), plugin=plugin)


@contextmanager
def plugin_call(*, what: str | None = None, plugin: str | None = None,
                doing: str = N_("running"), values: Mapping[str, object] | None = None) -> Iterator[None]:
    """Run plugin code; raise what :func:`convert_exception` makes of any exception it raises.

    ``with plugin_call(what="the instance"): instance = puzzle.parse(text)`` turns a ValueError
    into an InputError. KeyboardInterrupt and SystemExit pass through untouched.
    """
    try:
        yield
    except Exception as exc:
        converted = convert_exception(exc, what=what, plugin=plugin, doing=doing, values=values)
        if converted is exc:
            raise
        raise converted from (None if isinstance(converted, InputError) else exc)
