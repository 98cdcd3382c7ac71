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
``MAX_QUEUED``        jobs allowed to wait before the API answers 503 (default
                      ``engine.jobs.DEFAULT_MAX_QUEUED``)
``MAX_TIME_LIMIT``    the largest time limit a job may ask for, in seconds (default 120)
``DEFAULT_TIME_LIMIT`` the time limit when a job gives none (default 10)
``KILL_GRACE``        seconds past the deadline before a worker is killed (default
                      ``engine.jobs.DEFAULT_GRACE``)
``PREPARE_SOLVERS``   workers prepare every solver (load tables, compiled code) before their
                      first job (default False; ``puzzle serve`` turns it on)
``REDIS_URL``         run jobs on RQ in this Redis and keep answers there (default:
                      ``$PUZZLE_ENGINE_REDIS``; unset: local workers and SQLite)
``REDIS_QUEUE``       the RQ queue name (default ``engine.jobs.DEFAULT_QUEUE``)
``JOBS_PER_CLIENT``   queued and running jobs one client may have at once; past it a submit
                      answers 429 with Retry-After (default ``engine.jobs.DEFAULT_JOBS_PER_CLIENT``;
                      0: no limit)
``CLIENT_HEADER``     the request header that names the client (e.g. ``X-Forwarded-For``, whose
                      last address is taken), set only behind a proxy that always sets it;
                      default: the connection's remote address
``HEAVY_REQUESTS``    editor requests (validate, edit, random, replay, describe, tasks) served
                      at once, so cheap ones always find a free thread; past it they answer 429
                      (default: half of ``THREADS``, at least 1; ``THREADS``: the WSGI server's
                      request threads, default 8)
``HEAVY_PER_CLIENT``  the same for one client (default 3); see :mod:`web.clients`
``EDITOR_CHILD``      set by :mod:`web.editor_process` in the child process that serves the
                      editor's requests for ``puzzle serve`` (it reports each request's CPU time)
``PREPARE_IN_BACKGROUND`` build the solvers' big tables in one low-priority background process
                      once started (:func:`web.preparing.start`; ``puzzle serve`` starts it
                      after it listens unless ``--no-prepare``); its state is in the gallery,
                      the editor and ``GET /-/preparing`` (default False)

The runner and store are chosen by :func:`engine.jobs.open_jobs`.
"""

from __future__ import annotations

import gzip
import os
from urllib.parse import urlsplit, urlunsplit

from flask import Flask

from engine.jobs import DEFAULT_TIME_LIMIT, MAX_TIME_LIMIT, JobService, open_jobs
from engine.jobs.model import DEFAULT_REGISTRY_FACTORY

from .rendering import Boards

#: Largest request body accepted (instance text is limited far below this by the engine).
MAX_BODY_BYTES = 1_000_000


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
    config = dict(app.config)
    config["REDIS_URL"] = app.config.get("REDIS_URL") or os.environ.get("PUZZLE_ENGINE_REDIS")
    opened = open_jobs(config, app.logger)  # local workers and SQLite, or RQ and Redis
    if opened.in_memory:
        app.extensions["puzzle_store_in_memory"] = True
    jobs = JobService(registry, opened.runner, opened.store,
                      max_time_limit=app.config.get("MAX_TIME_LIMIT", MAX_TIME_LIMIT),
                      default_time_limit=app.config.get("DEFAULT_TIME_LIMIT", DEFAULT_TIME_LIMIT),
                      shares=opened.shares)
    app.extensions["puzzle_registry"] = registry
    app.extensions["puzzle_boards"] = Boards(registry)
    app.extensions["puzzle_jobs"] = jobs

    from . import api, bundles, clients, embed, errors, i18n, pages, preparing, refusals
    i18n.install(app)  # the request's language, first: every later hook may write words
    preparing.make(app, app.config.get("REGISTRY_FACTORY") or DEFAULT_REGISTRY_FACTORY)
    app.jinja_env.globals["preparing_status"] = preparing.status
    errors.install(app)
    clients.install(app)
    if app.config.get("EDITOR_CHILD"):
        from . import editor_process
        editor_process.install_child(app)
    app.after_request(_protect_pages)
    app.register_blueprint(api.bp)
    app.register_blueprint(bundles.bp)
    app.jinja_env.globals["script_version"] = bundles.bundle_version
    app.jinja_env.globals["bundle_url"] = bundles.bundle_url
    app.register_blueprint(preparing.bp)
    app.register_blueprint(embed.bp)  # before pages: /embed.js is not a puzzle called "embed.js"
    app.register_blueprint(pages.bp)
    refusals.install(app)  # a client just refused for its share is answered before Flask
    return app


__all__ = ["create_app"]
