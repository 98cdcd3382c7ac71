"""Errors as answers: InputError is a 400, an unknown job or puzzle a 404, a full queue a 503 with
Retry-After, a client past its share of the queue (or of the editor's requests) a 429 with
Retry-After, and anything unexpected a JSON 500 without a traceback (logged on the server).

API paths (``/api/...``) always answer JSON ``{"error": message}``; pages answer a small HTML
page with the same message.

``where`` is a machine field and stays as the code wrote it (``"time_limit"``, ``"row 3"``); in
a language other than English the answer adds ``where_text``, the same place in the reader's
words (:func:`where_words`), which the pages show instead.
"""

from __future__ import annotations

import re
from typing import Mapping

from flask import jsonify, render_template, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from engine import N_, InputError
from engine.errors import EnvironmentProblem, PluginError, UnknownPuzzle
from engine.i18n import DEFAULT_LOCALE, current_locale
from engine.jobs import JobNotFound, JobsUnavailable, QueueFull, TooManyJobs

from .clients import Busy
from .editor_process import RequestTooLong
from .refusals import MARK_HEADER


def _wants_json() -> bool:
    path = request.path
    return (path == "/api" or path.startswith("/api/") or path.startswith("/-/client/")
            or path.startswith("/-/i18n/")
            or path == "/oembed")


#: Places in the input, as plugins and the host write ``where``: each pattern and its sentence.
_PLACES = (
    (re.compile(r"row (\d+), column (\d+)"), N_("row %(row)s, column %(column)s"), ("row", "column")),
    (re.compile(r"line (\d+), column (\d+)"), N_("line %(line)s, column %(column)s"), ("line", "column")),
    (re.compile(r"row (\d+)"), N_("row %(row)s"), ("row",)),
    (re.compile(r"column (\d+)"), N_("column %(column)s"), ("column",)),
    (re.compile(r"line (\d+)"), N_("line %(line)s"), ("line",)),
    (re.compile(r"move (\d+) \((.+)\)"), N_("move %(number)s (%(move)s)"), ("number", "move")),
    (re.compile(r"move (\d+)"), N_("move %(number)s"), ("number",)),
)
#: The request fields a ``where`` may name, as people read them.
_FIELDS = {
    "instance": N_("instance"), "time_limit": N_("time limit"), "moves": N_("moves"), "seed": N_("seed"),
    "step": N_("step"), "action": N_("action"), "mode": N_("mode"), "size": N_("size"), "delay": N_("delay"),
    "job": N_("job"), "next_move": N_("next move"), "renderer": N_("renderer"), "solver": N_("solver"),
    "selection": N_("selection"), "image": N_("image"), "preset": N_("preset"),
}


def where_words(where: str) -> str:
    """``where`` in the request's language: ``"row 3, column 2"`` is ``"第 3 行第 2 列"`` in
    Chinese, ``"time_limit"`` is ``"时间限制"``. A place of another shape is given as written."""
    for pattern, sentence, names in _PLACES:
        match = pattern.fullmatch(where.strip())
        if match:
            return _(sentence, **dict(zip(names, match.groups())))
    if where in _FIELDS:
        return _(_FIELDS[where])
    return where.replace("_", " ")


def error_response(message: str, status: int, where: str | None = None, headers=None,
                   where_text: str | None = None, details: Mapping | None = None):
    """The answer for an error: JSON on API paths, a small page elsewhere.

    ``where`` (a machine field, the same in every language), ``where_text`` (the same place
    in the reader's language, when the raiser gave one) and ``details`` (machine data about an
    input error, when the raiser gave some) go into the JSON as they are; the page
    shows ``where_text`` when there is one, else ``where`` (said in the reader's language by
    :func:`where_words` when it has a shape the host knows: a request field, "row 3").
    """
    if _wants_json():
        body = {"error": message}
        if where:
            body["where"] = where
            if not where_text and current_locale() != DEFAULT_LOCALE:
                where_text = where_words(where)
        if where_text and where_text != where:  # English answers stay as they always were
            body["where_text"] = where_text
        if details:
            body["details"] = dict(details)
        response = jsonify(body)
    else:
        response = render_template("error.html", message=message,
                                   where=where_text or (where_words(where) if where else None),
                                   status=status)
    if isinstance(response, str):
        from flask import make_response
        response = make_response(response)
    response.status_code = status
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def install(app) -> None:
    @app.errorhandler(JobNotFound)
    def _job_not_found(exc: JobNotFound):
        return error_response(exc.message, 404, exc.where, where_text=exc.where_text)

    @app.errorhandler(UnknownPuzzle)
    def _unknown_puzzle(exc: UnknownPuzzle):
        # Like an unknown job: the thing named in the URL does not exist (a 404, not a 400).
        return error_response(exc.message, 404, exc.where, where_text=exc.where_text)

    @app.errorhandler(InputError)
    def _input_error(exc: InputError):
        return error_response(exc.message, 400, exc.where, where_text=exc.where_text, details=exc.details)

    @app.errorhandler(PluginError)
    def _plugin_error(exc: PluginError):
        # A plugin's bug, not the user's: say whose, without a traceback.
        app.logger.error("%s %s: %s", request.method, request.path, exc.message)
        return error_response(exc.message, 500)

    @app.errorhandler(EnvironmentProblem)
    def _environment_problem(exc: EnvironmentProblem):
        app.logger.error("%s %s: %s", request.method, request.path, exc.message)
        return error_response(exc.message, 503, headers={"Retry-After": "30"})

    @app.errorhandler(QueueFull)
    def _queue_full(exc: QueueFull):
        return error_response(exc.message, 503, headers={"Retry-After": str(exc.retry_after)})

    @app.errorhandler(TooManyJobs)
    def _too_many_jobs(exc: TooManyJobs):
        # This client's share of the queue is used up (others may still queue): 429, not 503.
        # Not kept by web.refusals: a stored answer is still given to this client at once.
        return error_response(exc.message, 429, headers={"Retry-After": str(exc.retry_after)})

    @app.errorhandler(Busy)
    def _busy(exc: Busy):
        headers = {"Retry-After": str(exc.retry_after)}
        if exc.lasting:  # the client's CPU budget is spent: any editor request of it would be
            # refused the same way until Retry-After, so web.refusals repeats it without the app
            headers[MARK_HEADER] = "1"
        return error_response(exc.message, 429, headers=headers)

    @app.errorhandler(RequestTooLong)
    def _too_long(exc: RequestTooLong):
        return error_response(str(exc), 503, headers={"Retry-After": "5"})

    @app.errorhandler(JobsUnavailable)
    def _jobs_unavailable(exc: JobsUnavailable):
        return error_response(exc.message, 503, headers={"Retry-After": str(exc.retry_after)})

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        message = exc.description or exc.name
        if exc.code == 404 and exc.description == type(exc).description:
            message = _("nothing here: %(path)s", path=request.path)
        elif exc.code == 405:
            message = _("%(method)s is not allowed here", method=request.method)
        elif exc.code == 413:
            message = _("the request body is too large")
        return error_response(message, exc.code or 500)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(_("internal error: the server could not handle this request "
                                "(it has been logged)"), 500)
