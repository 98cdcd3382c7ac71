"""Where the engine and its plugins keep files that can be rebuilt (tables, caches)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """The folder for rebuildable files: ``$PUZZLE_ENGINE_CACHE``, else
    ``$XDG_CACHE_HOME/puzzle-engine``, else ``~/.cache/puzzle-engine``.

    It may not exist yet, or not be writable (``HOME=/dev/null``): callers create it when they
    write, and fall back to keeping things in memory when they cannot.
    """
    env = os.environ.get("PUZZLE_ENGINE_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "puzzle-engine"
