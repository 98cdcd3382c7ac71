"""The app's shared objects, one accessor each (as flaskr's ``get_db``).

``create_app`` puts the plugin registry, the board renderer with its caches and the job service
into ``app.extensions``; request handlers reach them through these functions, never through the
extension keys, so there is one place that knows where they live.
"""

from __future__ import annotations

from flask import current_app

from engine.jobs import JobService
from engine.plugins import Registry

from .rendering import Boards


def registry() -> Registry:
    """The plugin registry of the current app."""
    return current_app.extensions["puzzle_registry"]


def boards() -> Boards:
    """Parsing, replay and rendering with the current app's caches."""
    return current_app.extensions["puzzle_boards"]


def jobs() -> JobService:
    """The current app's solve-job service."""
    return current_app.extensions["puzzle_jobs"]
