"""The browser front end: a Flask app over the engine's registry, boards and job service.

``create_app(config)`` builds it. Configuration keys (all optional):

``REGISTRY``          a loaded :class:`engine.plugins.Registry` (default: every installed plugin)
``REGISTRY_FACTORY``  dotted path worker processes call to load the registry themselves
                      (default ``"engine.plugins:get_registry"``)
``DATA_DIR``          where the SQLite result store lives (default: ``$PUZZLE_ENGINE_DATA``,
                      ``$XDG_DATA_HOME/puzzle-engine`` or ``~/.local/share/puzzle-engine``); if
                      it cannot be created or written, answers are kept in memory (one warning)
``JOB_RUNNER``        dotted path of a :class:`engine.jobs.JobRunner` class (or a factory) to use
                      instead of the local process pool; called with ``JOB_RUNNER_OPTIONS``
``JOB_WORKERS``       local worker processes (default 2)
``MAX_QUEUED``        jobs allowed to wait before the API answers 503 (default 16)
``MAX_TIME_LIMIT``    the largest time limit a job may ask for, in seconds (default 120)
``DEFAULT_TIME_LIMIT`` the time limit when a job gives none (default 10)
``KILL_GRACE``        seconds past the deadline before a worker is killed (default 2)
``PREPARE_SOLVERS``   workers prepare every solver (load tables, compiled code) before their
                      first job (default False; ``puzzle serve`` turns it on)
``REDIS_URL``         run jobs on RQ in this Redis and keep answers there (default:
                      ``$PUZZLE_ENGINE_REDIS``; unset: local workers and SQLite)
``REDIS_QUEUE``       the RQ queue name (default ``"puzzle"``)
"""

from __future__ import annotations

import gzip
import os
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from flask import Flask

from engine.jobs import (
    DEFAULT_REGISTRY_FACTORY,
    DEFAULT_TIME_LIMIT,
    MAX_TIME_LIMIT,
    JobService,
    LocalProcessRunner,
    ResultStore,
    default_data_dir,
    load_object,
)

from .rendering import Boards

#: Largest request body accepted (instance text is limited far below this by the engine).
MAX_BODY_BYTES = 1_000_000


def _make_runner(config) -> object:
    runner = config.get("JOB_RUNNER")
    options = dict(config.get("JOB_RUNNER_OPTIONS") or {})
    if runner is None:
        return LocalProcessRunner(
            workers=config.get("JOB_WORKERS", 2),
            max_queued=config.get("MAX_QUEUED", 16),
            grace=config.get("KILL_GRACE", 2.0),
            registry_factory=config.get("REGISTRY_FACTORY", DEFAULT_REGISTRY_FACTORY),
            prepare_solvers=config.get("PREPARE_SOLVERS", False),
            **options,
        )
    if isinstance(runner, str):
        runner = load_object(runner)
    return runner(**options) if callable(runner) else runner


#: Pages may run only the app's own scripts (editor.js and /-/client/<puzzle>.js): the board SVG
#: is inserted into the page, so if a renderer ever failed to escape user text, an injected
#: attribute such as onload= still would not run (and the engine sanitises renderer SVG too,
#: engine/svgsafe.py). Inline styles stay allowed for the SVG boards. No 'unsafe-eval': no page
#: code evaluates strings, and browser automation (Playwright's evaluate and wait_for_function)
#: runs through the DevTools protocol, which the page's CSP does not govern.
PAGE_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'self'")


def _relative_redirect(response) -> None:
    """Keep a redirect on this site: Werkzeug's own redirects (``/api//puzzles`` to
    ``/api/puzzles``) are absolute URLs built from the request's Host header, so a forged
    ``Host: evil.example`` sent the client off-site. Only the path and query are kept."""
    location = response.headers.get("Location")
    if location and 300 <= response.status_code < 400:
        parts = urlsplit(location)
        if parts.scheme or parts.netloc:
            path = "/" + parts.path.lstrip("/")  # never "//host/...", a link to another site
            response.headers["Location"] = urlunsplit(("", "", path, parts.query, ""))


def _protect_pages(response):
    """Security headers on every HTML answer (the SVG and JSON answers set their own)."""
    _relative_redirect(response)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if response.mimetype == "text/html":
        response.headers.setdefault("Content-Security-Policy", PAGE_CSP)
    return _compress(response)


#: Pages, styles and scripts are sent gzip-compressed to browsers that accept it: the editor's
#: page and its scripts shrink to about a quarter (a phone on a slow network sees the board
#: sooner). Board SVGs and JSON keep their exact bytes (their ETags are hashes of them).
COMPRESSED_TYPES = {"text/html", "text/css", "text/javascript", "application/javascript"}
MIN_COMPRESS_BYTES = 1024


def _compress(response):
    from flask import request

    if (response.status_code != 200 or response.mimetype not in COMPRESSED_TYPES
            or "gzip" not in request.headers.get("Accept-Encoding", "")
            or "Content-Encoding" in response.headers):
        return response
    response.direct_passthrough = False  # static files are streamed; these are small
    body = response.get_data()
    if len(body) < MIN_COMPRESS_BYTES:
        return response
    response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    etag, weak = response.get_etag()
    if etag:  # another representation: another tag
        response.set_etag(etag + "-gz", weak=weak)
    return response


def _open_store(app: Flask):
    """The result store in the data directory, or in memory (with one warning line) when the
    directory cannot be created or written: a read-only home must not stop the app serving."""
    try:
        data_dir = Path(app.config.get("DATA_DIR") or default_data_dir())
        return ResultStore(data_dir / "results.sqlite3")
    except (OSError, RuntimeError, sqlite3.Error) as exc:  # RuntimeError: Path.home() unknown
        app.logger.warning("cannot keep solved answers on disk (%s: %s); keeping them in memory "
                           "until the server stops (set --data-dir or PUZZLE_ENGINE_DATA to a "
                           "writable directory)", type(exc).__name__, exc)
        app.extensions["puzzle_store_in_memory"] = True
        from .memory_store import MemoryAnswerStore
        return MemoryAnswerStore()


def create_app(config: dict | None = None) -> Flask:
    """Build the web app; see the module docstring for the configuration keys."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES)
    app.json.sort_keys = False  # presets, stats and details keep the order the plugin chose
    app.config.update(config or {})

    registry = app.config.get("REGISTRY")
    if registry is None:
        from engine.plugins import get_registry
        registry = get_registry()
    redis_url = app.config.get("REDIS_URL") or os.environ.get("PUZZLE_ENGINE_REDIS")
    if redis_url:  # many machines: RQ workers and the answer store in Redis
        from engine.jobs.rq_runner import redis_jobs
        runner, store = redis_jobs(redis_url, queue=app.config.get("REDIS_QUEUE", "puzzle"),
                                   max_queued=app.config.get("MAX_QUEUED", 16),
                                   grace=app.config.get("KILL_GRACE", 2.0))
    else:
        store = _open_store(app)
        runner = _make_runner(app.config)
    jobs = JobService(registry, runner, store,
                      max_time_limit=app.config.get("MAX_TIME_LIMIT", MAX_TIME_LIMIT),
                      default_time_limit=app.config.get("DEFAULT_TIME_LIMIT", DEFAULT_TIME_LIMIT))
    app.extensions["puzzle_registry"] = registry
    app.extensions["puzzle_boards"] = Boards(registry)
    app.extensions["puzzle_jobs"] = jobs

    from . import api, errors, pages
    errors.install(app)
    app.after_request(_protect_pages)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    return app


__all__ = ["create_app"]
