"""The background table builds as the pages show them, and ``GET /-/preparing``.

``create_app`` makes a :class:`engine.background.BackgroundPreparer` when the configuration
key ``PREPARE_IN_BACKGROUND`` is true; :func:`start` starts it (``puzzle serve`` does once its
socket is listening, so the first page never waits for a build) and :func:`stop` ends it.
The gallery shows every line worth saying, the editor those of its puzzle; a small script
(``static/preparing.js``) refreshes them from ``/-/preparing`` while builds run.
"""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, jsonify

from engine.background import BackgroundPreparer

bp = Blueprint("preparing", __name__)

KEY = "puzzle_preparing"


def make(app: Flask, registry_factory: str) -> None:
    """Give ``app`` its (not yet started) preparer if its configuration asks for one."""
    app.extensions[KEY] = (BackgroundPreparer(registry_factory)
                           if app.config.get("PREPARE_IN_BACKGROUND") else None)


def preparer(app: Flask | None = None) -> BackgroundPreparer | None:
    """The app's background preparer, or None when background preparation is off."""
    return (app or current_app).extensions.get(KEY)


def start(app: Flask) -> bool:
    """Start the app's background preparer; False when it has none (turned off)."""
    found = preparer(app)
    if found is None:
        return False
    found.start()
    return True


def stop(app: Flask) -> None:
    """Stop the app's background preparer (a build in progress is cancelled, nothing half-built
    is left)."""
    found = preparer(app)
    if found is not None:
        found.close()


def status(puzzle_id: str | None = None) -> dict:
    """``{"state", "note", "tables": [...]}`` for the pages and ``/-/preparing``; ``state`` is
    ``"off"`` when background preparation is turned off. ``puzzle_id`` keeps that puzzle's lines."""
    found = preparer()
    if found is None:
        return {"state": "off", "note": None, "tables": []}
    out = found.to_json()
    if puzzle_id is not None:
        out["tables"] = [t for t in out["tables"] if t["puzzle"] == puzzle_id]
    return out


@bp.get("/-/preparing")
def preparing():
    """How the background table builds go, as JSON (each line also in words: ``text``)."""
    response = jsonify(status())
    response.headers["Cache-Control"] = "no-store"
    return response
