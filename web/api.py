"""The JSON API (documented in docs/api.md): puzzles, validate, edit, random, render, jobs, tasks.

Every handler reads its parameters through :func:`params` (query string merged with a JSON or
form body), checks them, and lets InputError become a 400 (see :mod:`web.errors`).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Callable

from flask import Blueprint, Response, jsonify, request
from flask_babel import format_decimal
from flask_babel import gettext as _

from engine import N_, InputError
from engine.i18n import ENGINE, current_locale, translate
from engine.jobs import SOLVED, Job
from engine.wording import shown

from .clients import client_of
from .editor_view import describe_move, editor_state, parse_seed, puzzle_details, tasks_json
from .numbers import read_decimal, read_whole
from .rendering import MAX_MOVE_CHARS, MAX_SOLUTION_REPLAY_WORK, parse_moves, parse_step, user_input
from .state import boards, jobs, registry

bp = Blueprint("api", __name__, url_prefix="/api")

#: How long browsers and proxies may keep a rendered board (its URL says everything about it).
SVG_MAX_AGE = 3600
#: Most moves described in words by one request (the editor asks for the visible window).
MAX_DESCRIBE = 500


def params() -> dict:
    """Query parameters, overlaid with the JSON object (or form) sent in the body."""
    merged: dict = dict(request.args.items())
    if request.method in ("POST", "PUT", "DELETE") and request.content_length:
        if request.is_json:
            try:
                body = request.get_json(silent=True)
            except RecursionError:  # "[[[[..." 100,000 deep fits in 1 MB; json gives up
                raise InputError(_("the request body is JSON nested too deeply")) from None
            if not isinstance(body, dict):
                raise InputError(_("the request body must be a JSON object"))
            merged.update(body)
        else:
            merged.update(request.form.items())
    return merged


def optional_text(values: dict, name: str) -> str | None:
    value = values.get(name)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InputError(_("%(name)s must be text, not %(value)s", name=name, value=shown(value)), where=name)
    return value


# -- puzzles ---------------------------------------------------------------------------------


@bp.get("/puzzles")
def list_puzzles():
    reg = registry()
    return jsonify({"puzzles": [puzzle_details(p) for p in reg.puzzles.values()]})


@bp.get("/puzzles/<puzzle_id>")
def show_puzzle(puzzle_id):
    return jsonify(puzzle_details(registry().puzzle(puzzle_id)))


# -- instances -------------------------------------------------------------------------------


@bp.route("/<puzzle_id>/validate", methods=["GET", "POST"])
def validate(puzzle_id):
    values = params()
    if "instance" not in values:
        raise InputError(_("give the instance text in the 'instance' field"), where="instance")
    instance, _canonical = boards().instance(puzzle_id, values["instance"])
    next_move = optional_text(values, "next_move")
    if next_move is not None and len(next_move) > MAX_MOVE_CHARS:
        raise InputError(_("the move is longer than %(limit)s characters", limit=MAX_MOVE_CHARS),
                         where="next_move")
    return jsonify(editor_state(puzzle_id, instance, renderer=optional_text(values, "renderer"),
                                next_move=next_move))


@bp.post("/<puzzle_id>/edit")
def edit(puzzle_id):
    values = params()
    puzzle = registry().puzzle(puzzle_id)
    instance, _canonical = boards().instance(puzzle_id, values.get("instance"))
    action = optional_text(values, "action")
    if action is None:
        raise InputError(_("give the edit action in the 'action' field"), where="action")
    mode = optional_text(values, "mode")
    modes = [m.name for m in puzzle.edit_modes()]
    if mode is not None and mode not in modes:
        raise InputError(_("unknown edit mode %(mode)s; modes: %(modes)s", mode=repr(mode),
                           modes=", ".join(modes) or _("none")), where="mode")
    selection = optional_text(values, "selection")
    with user_input(N_("the edit")):
        result = puzzle.edit(instance, action, mode=mode, selection=selection)
        # The new instance must survive its own round trip, or the editor would drift.
        new_instance = puzzle.parse(puzzle.format(result.instance))
    return jsonify(editor_state(puzzle_id, new_instance, selection=result.selection,
                                message=result.message, renderer=optional_text(values, "renderer")))


@bp.get("/<puzzle_id>/random")
def random_instance(puzzle_id):
    puzzle = registry().puzzle(puzzle_id)
    values = dict(request.args.items())
    seed = parse_seed(values.pop("seed", "0") or "0")
    renderer = values.pop("renderer", None)
    unknown = sorted(set(values) - set(puzzle.random_options))
    if unknown:
        known = ", ".join(puzzle.random_options) or _("none")
        raise InputError(_("unknown random option %(option)s; options: %(options)s", option=repr(unknown[0]),
                           options=known), where=unknown[0])
    options = {k: v for k, v in values.items() if v != ""}
    with user_input(N_("the random options")):
        instance = puzzle.random(seed, options or None)
    return jsonify({"seed": seed, **editor_state(puzzle_id, instance, renderer=renderer)})


@bp.route("/<puzzle_id>/replay", methods=["GET", "POST"])
def replay_moves(puzzle_id):
    """Check a move list against an instance: steps, whether it ends solved, solution details."""
    values = params()
    puzzle = registry().puzzle(puzzle_id)
    instance, text = boards().instance(puzzle_id, values.get("instance"))
    moves = parse_moves(values.get("moves"))
    solved = bool(puzzle.is_solved(boards().states(puzzle_id, text, moves).final))
    details = dict(puzzle.describe_solution(instance, moves)) if solved else {}
    return jsonify({"instance": text, "moves": list(moves), "steps": len(moves), "solved": solved,
                    "details": details})


def parse_window(values: dict, total: int) -> tuple[int, int]:
    """``from`` (0-based index of the first move) and ``count`` (at most MAX_DESCRIBE)."""
    bounds = {}
    for name, default in (("from", 0), ("count", MAX_DESCRIBE)):
        bounds[name] = read_whole(values.get(name, default), name, name)
        if bounds[name] < 0:
            raise InputError(f"{name} must not be negative", where=name)
    first = min(bounds["from"], total)
    return first, min(total, first + min(bounds["count"], MAX_DESCRIBE))


def describe_window(puzzle, replay, first: int, end: int) -> dict:
    """Plain words for moves ``first``..``end`` of a replay: one replay from the nearest
    checkpoint, then one move at a time (bounded by MAX_DESCRIBE)."""
    words = []
    with user_input(N_("a move")):
        state = replay.state(first)
        for move in replay.moves[first:end]:
            words.append({"move": move, "words": describe_move(puzzle, state, move)})
            state = puzzle.apply_move(state, move)
    return {"from": first, "total": len(replay.moves), "moves": words}


@bp.route("/<puzzle_id>/describe", methods=["GET", "POST"])
def describe_moves(puzzle_id):
    """The moves ``from`` .. ``from + count`` of a move list in plain words (docs/api.md)."""
    values = params()
    puzzle = registry().puzzle(puzzle_id)
    _parsed, text = boards().instance(puzzle_id, values.get("instance"))
    replay = boards().states(puzzle_id, text, parse_moves(values.get("moves")))
    first, end = parse_window(values, len(replay.moves))
    return jsonify(describe_window(puzzle, replay, first, end))


def solved_job(job_id: str, to_show: bool = False) -> tuple[Job, tuple[str, ...]]:
    """The job and its solution's moves; a 400 that says so when it has no solution."""
    job = jobs().get(job_id)
    result = job.result or {}
    if job.status != SOLVED or not isinstance(result.get("moves"), list):
        # Two whole sentences, not one with a phrase put in: word order differs by language.
        if to_show:
            message = _("job %(job)s has no solution to show (it is %(status)s)", job=job_id, status=job.status)
        else:
            message = _("job %(job)s has no solution to describe (it is %(status)s)", job=job_id, status=job.status)
        raise InputError(message, where="job")
    return job, tuple(result["moves"])


@bp.get("/jobs/<job_id>/describe")
def describe_job_moves(job_id):
    """The same for a solved job's solution (its moves may be too many for a URL)."""
    job, moves = solved_job(job_id)
    puzzle = registry().puzzle(job.request.puzzle)
    replay = boards().states(job.request.puzzle, job.request.instance, moves,
                             work_limit=MAX_SOLUTION_REPLAY_WORK)
    first, end = parse_window(dict(request.args.items()), len(replay.moves))
    return jsonify(describe_window(puzzle, replay, first, end))


# -- SVG ---------------------------------------------------------------------------------------


def svg_response(svg: str, solved: bool | None = None, download: str | None = None) -> Response:
    """An SVG answer any site may embed: cacheable, CORS-open, and unable to run script."""
    body = svg.encode("utf-8")
    response = Response(body, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = f"public, max-age={SVG_MAX_AGE}"
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.headers["Access-Control-Expose-Headers"] = "X-Puzzle-Solved"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    response.headers["ETag"] = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    if solved is not None:
        response.headers["X-Puzzle-Solved"] = "true" if solved else "false"
    if download:
        response.headers["Content-Disposition"] = f'attachment; filename="{download}"'
    return response.make_conditional(request)  # 304 Not Modified for a matching If-None-Match


def _board_request():
    values = dict(request.args.items())
    puzzle_id = request.view_args["puzzle_id"]
    registry().puzzle(puzzle_id)
    text = values.get("instance")
    if text is None:
        raise InputError(_("give the instance in the 'instance' query parameter"), where="instance")
    _instance, canonical = boards().instance(puzzle_id, text)
    moves = parse_moves(values.get("moves"))
    return puzzle_id, canonical, moves, values


@bp.get("/<puzzle_id>/render.svg")
def render_svg(puzzle_id):
    """The board after ``step`` of ``moves`` (default: all) as SVG; usable as <img src>."""
    _puzzle, text, moves, values = _board_request()
    step = parse_step(values.get("step"), moves)
    selection = values.get("selection") or None
    svg, solved = boards().step(puzzle_id, values.get("renderer") or None, text, moves, step, selection)
    return svg_response(svg, solved)


@bp.get("/<puzzle_id>/animation.svg")
def animation_svg(puzzle_id):
    """The whole solution as one self-contained animated SVG (SMIL)."""
    _puzzle, text, moves, values = _board_request()
    delay = read_decimal(values.get("delay", "0.6"), "delay", N_("the delay (in seconds)"))
    if not 0.05 <= delay <= 10:
        raise InputError(_("the delay must be between 0.05 and 10 seconds"), where="delay")
    if len(moves) > 2000:
        raise InputError(_("an animation can show at most %(count)s moves", count=format_decimal(2000)),
                         where="moves")
    svg = boards().animation(puzzle_id, values.get("renderer") or None, text, moves, delay)
    download = f"{puzzle_id}-solution.svg" if values.get("download") else None
    return svg_response(svg, download=download)


@bp.get("/jobs/<job_id>/render.svg")
def job_step_svg(job_id):
    """A step of a solved job's solution as SVG: ``?step=N`` (default: the last).

    The job holds the instance and the moves, so the URL stays short however long the solution
    is (83,000 moves do not fit in a query string); ``stored-...`` ids work across restarts.
    """
    job, moves = solved_job(job_id, to_show=True)
    step = parse_step(request.args.get("step"), moves)
    svg, solved = boards().step(job.request.puzzle, request.args.get("renderer") or None,
                                job.request.instance, moves, step,
                                work_limit=MAX_SOLUTION_REPLAY_WORK)
    return svg_response(svg, solved)


# -- jobs --------------------------------------------------------------------------------------


def parse_time_limit(raw):
    """A time limit as the client wrote it, read strictly (None or "": the service's default;
    the service checks its range)."""
    if raw is None or raw == "":
        return None
    return read_decimal(raw, "time_limit", N_("the time limit (in seconds)"))


#: A job killed for overrunning its time limit, as engine/jobs words it (a number inside, so it
#: is matched here rather than looked up whole).
_OVERRAN = re.compile(r"the (solver|task) overran its (\S+) s time limit and did not stop, so its "
                      r"(?:worker process|work horse) was killed")


def job_message_words(message: str) -> str:
    """A job's stored (English) message in the request's language: the fixed ones from the
    engine's catalogue (marked there with N_), the time-limit one by its shape; any other, with
    a plugin's own words inside, as it was written."""
    match = _OVERRAN.fullmatch(message)
    if match:
        kind, limit = match.groups()
        if kind == "task":
            return _("the task overran its %(limit)s s time limit and did not stop, so it was stopped", limit=limit)
        return _("the solver overran its %(limit)s s time limit and did not stop, so it was stopped", limit=limit)
    return ENGINE.gettext(message)


def job_json(job: Job) -> dict[str, Any]:
    """A job as the API answers it: its ``message`` in the request's language.

    A job's message is written where the job ended (a worker, another process) and kept, so it
    is stored in English and worded for each reader here (:func:`job_message_words`)."""
    out = job.to_json()
    if isinstance(out.get("message"), str) and current_locale() != "en":
        out["message"] = job_message_words(out["message"])
    return out


def submitted(start: Callable[[dict, Any], Job]) -> Response:
    """Submit a solve or task job from the request's values: ``start(values, time_limit)``.

    The answer is the job (200 if it is already done, from the store; 202 while it runs) with
    its poll URL in ``Location``."""
    values = params()
    if "instance" not in values:
        raise InputError(_("give the instance text in the 'instance' field"), where="instance")
    job = start(values, parse_time_limit(values.get("time_limit")))
    response = jsonify(job_json(job))
    response.status_code = 200 if job.done else 202
    response.headers["Location"] = f"/api/jobs/{job.id}"
    return response


@bp.post("/<puzzle_id>/jobs")
def submit_job(puzzle_id):
    return submitted(lambda values, time_limit: jobs().submit(
        puzzle_id, values["instance"], optional_text(values, "solver"), time_limit,
        client=client_of()))


# -- pictures (Puzzle.read_picture: an instance read from a picture, never stored) ------------

#: The largest picture accepted (the tangram plugin's own limit is the same 5 MB), and a
#: multipart form's overhead on top of it.
MAX_PICTURE_BYTES = 5 * 1024 * 1024
MULTIPART_SLACK = 64 * 1024


def picture_bytes() -> bytes:
    """The picture sent as the raw body or as the first file of a multipart form, bounded."""
    request.max_content_length = MAX_PICTURE_BYTES + MULTIPART_SLACK
    if request.content_length is None and not request.mimetype.startswith("multipart/"):
        raise InputError(_("the picture is empty or missing: send it as the request body (with a "
                           "Content-Length) or as a multipart file"))
    if request.mimetype == "multipart/form-data":
        files = list(request.files.values())
        if not files:
            raise InputError(_("the form has no file: send the picture as a file field (e.g. 'image')"),
                             where="image")
        data = files[0].stream.read(MAX_PICTURE_BYTES + 1)
    else:
        data = request.get_data(cache=False)
    if len(data) > MAX_PICTURE_BYTES:
        raise InputError(_("the picture is larger than %(size)s MB", size=MAX_PICTURE_BYTES // 2**20))
    if not data:
        raise InputError(_("the picture is empty: send its bytes as the body or as a multipart file"))
    return data


@bp.post("/<puzzle_id>/trace")
def trace_picture(puzzle_id):
    """Read an instance from a picture (docs/api.md): its text and what a preview needs."""
    puzzle = registry().puzzle(puzzle_id)
    if not puzzle.picture_formats:
        raise InputError(_("%(puzzle)s cannot read an instance from a picture",
                           puzzle=translate(puzzle, puzzle.title)))
    result = dict(puzzle.read_picture(picture_bytes()))
    if not isinstance(result.get("instance"), str):
        raise InputError(_("the picture was read but gave no instance text"))
    _parsed, text = boards().instance(puzzle_id, result["instance"])
    result["instance"] = text
    return jsonify(result)


# -- tasks (engine.Task: long-running tools such as counting solutions, run as jobs) -----------


@bp.route("/<puzzle_id>/tasks", methods=["GET", "POST"])
def list_tasks(puzzle_id):
    """The puzzle's tasks; with ``instance``, whether each can run on it (``refusal``)."""
    values = params()
    puzzle = registry().puzzle(puzzle_id)
    if values.get("instance") is None:
        return jsonify({"tasks": puzzle_details(puzzle)["tasks"]})
    instance, text = boards().instance(puzzle_id, values["instance"])
    return jsonify({"instance": text, "tasks": tasks_json(puzzle, instance)})


@bp.post("/<puzzle_id>/tasks/<task_name>")
def submit_task(puzzle_id, task_name):
    """Start a task as a job (poll and cancel it at /api/jobs/<id>, like a solve)."""
    return submitted(lambda values, time_limit: jobs().submit_task(
        puzzle_id, task_name, values["instance"], time_limit, client=client_of()))


@bp.get("/jobs/<job_id>")
def poll_job(job_id):
    return jsonify(job_json(jobs().get(job_id)))


@bp.route("/jobs/<job_id>/cancel", methods=["POST"])
@bp.route("/jobs/<job_id>", methods=["DELETE"])
def cancel_job(job_id):
    return jsonify(job_json(jobs().cancel(job_id)))
