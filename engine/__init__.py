"""The puzzle engine's public API: everything a plugin may import.

Plugins import from ``engine`` only (never from ``engine.something`` internals they do not
need, never from ``web`` or another plugin).
"""

from ._ctrl_c import guard_startup

guard_startup()  # the `puzzle` command exits 3 on Ctrl+C while it loads (a no-op elsewhere)

from .context import SolveContext  # noqa: E402
from .contract import (  # noqa: E402
    THUMBNAIL,
    Assessment,
    EditMode,
    EditResult,
    EditTool,
    PrepareCost,
    Puzzle,
    Renderer,
    Solver,
    Task,
    TaskResult,
)
from .errors import InputError, PuzzleError, SolverError  # noqa: E402
from .hookspecs import hookimpl  # noqa: E402
from .i18n import N_, Catalogue, current_locale, format_number, use_locale  # noqa: E402
from .outcomes import GaveUp, Outcome, Solved, Unsolvable  # noqa: E402
from .paths import cache_dir  # noqa: E402
from .resources import available_memory, build_room, free_disk  # noqa: E402
from .solving import replay  # noqa: E402
from .tablecache import (  # noqa: E402
    TableCache,
    fresh_tables,
    keep_tables_after,
    pinned_tables,
    table_cache,
)
from .wording import plural  # noqa: E402

__all__ = [
    "Assessment", "Catalogue", "EditMode", "EditResult", "EditTool", "GaveUp", "InputError", "Outcome",
    "PrepareCost", "Puzzle", "PuzzleError", "Renderer", "SolveContext", "Solved", "Solver",
    "SolverError", "THUMBNAIL", "Task", "TableCache", "TaskResult", "Unsolvable",
    "available_memory", "build_room", "cache_dir", "free_disk", "fresh_tables", "hookimpl",
    "keep_tables_after", "N_", "pinned_tables", "plural", "replay", "table_cache",
    "current_locale", "use_locale", "format_number", "TranslatedCommand", "TranslatedGroup",
]

#: Names whose module loads only when asked for: click, for plugins' commands (engine.cli_help).
_LAZY = {"TranslatedCommand": "cli_help", "TranslatedGroup": "cli_help"}


def __getattr__(name: str) -> object:
    # Solvers, renderers and the web app never load click for these; `from engine import
    # TranslatedGroup` in a plugin's commands module does.
    if name in _LAZY:
        from importlib import import_module
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
