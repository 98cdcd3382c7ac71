"""The HTML pages: gallery, editor, plugins, and a puzzle's own client script."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

from flask import Blueprint, Response, render_template, request
from flask_babel import gettext as _
from markupsafe import Markup, escape
from werkzeug.exceptions import NotFound

from engine import N_, THUMBNAIL, InputError
from engine.compat import needs_words

from .editor_view import editor_state, parse_seed, puzzle_details, puzzle_summary
from .i18n import bcp47, choose_locale, link_lang, plugin_script_messages
from .rendering import format_moves, parse_moves, user_input
from .state import boards, jobs, registry

bp = Blueprint("pages", __name__)


def puzzle_or_404(puzzle_id: str):
    try:
        return registry().puzzle(puzzle_id)
    except InputError as exc:
        raise NotFound(exc.message) from None


def first_instance_text(puzzle) -> str:
    """The text of the puzzle's first preset (or of its random instance for seed 0)."""
    presets = puzzle.presets()
    if presets:
        return next(iter(presets.values()))
    return puzzle.format(puzzle.random(0))


@bp.app_template_filter("needs")
def needs_markup(needs: str) -> Markup:
    """A plugin's "needs puzzle-engine>=0.1,<0.2, this is 0.2.0", the requirement kept on one
    line: a browser would otherwise break it at the hyphen of puzzle-engine."""
    # Worded in the reader's language first ("需要 puzzle-engine<0.1，当前是 0.2.0").
    return Markup(re.sub(r"(puzzle-engine\S*?)(?=, |，|$)", r'<span class="requirement">\1</span>',
                         str(escape(needs_words(needs))), count=1))


@bp.get("/")
def gallery():
    cards = []
    for puzzle in registry().puzzles.values():
        try:
            text = first_instance_text(puzzle)
            # The start state as a still picture: renderers draw it as playback shows it, not
            # with the editor's work area and tools (which would shrink a tangram figure).
            thumb = (f"/api/{quote(puzzle.id)}/render.svg?instance={quote(text, safe='')}"
                     f"&selection={quote(THUMBNAIL, safe='')}")
        except Exception:  # a broken plugin still gets its card, without a picture
            thumb = None
        cards.append({**puzzle_summary(puzzle), "thumb": thumb})
    failures = registry().failures()
    # A plugin left out for its engine range gets its own line: what it needs, what is running.
    return render_template("gallery.html", cards=cards, failures=[f for f in failures if not f.needs],
                           incompatible=[f for f in failures if f.needs])


@bp.get("/-/plugins")
def plugins():
    reg = registry()
    # What each plugin registered as (kind, id): the template words the kind in the reader's
    # language and quotes the id as it is (a machine name, like the plugin's and package's).
    rows = [{**info.to_json(), "provided": reg.provided(info.name)}
            for info in sorted(reg.plugins.values(), key=lambda p: (p.ok, p.name))]
    return render_template("plugins.html", plugins=rows)


@bp.get("/-/client/<puzzle_id>.js")
def client_script(puzzle_id):
    puzzle = puzzle_or_404(puzzle_id)
    if not puzzle.client_script:
        # The URL names a script that does not exist: a 404, as for an unknown puzzle.
        raise NotFound(f"{puzzle.title} has no client script")
    # The plugin's words for its script, from its own catalogue, in the page's language (the
    # editor asks with ?lang=): the script says them with PuzzleI18n.t like the host's scripts.
    locale = choose_locale()
    messages = plugin_script_messages(getattr(puzzle, "catalogue", None), locale, puzzle.client_script)
    prefix = ""
    if messages:
        prefix = ("window.PuzzleI18n && window.PuzzleI18n.add("
                  + json.dumps(messages, ensure_ascii=False, sort_keys=True).replace("</", "<\\/") + ");\n")
    response = Response(prefix + puzzle.client_script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "public, max-age=300"
    response.vary.add("Accept-Language")
    response.headers["Content-Language"] = bcp47(locale)
    return response


def job_solution(puzzle, job_id: str) -> dict:
    """The solution of a solved job of this puzzle, for playback (``?job=`` in the editor link,
    used for solutions too long to put in the link as moves)."""
    job = jobs().get(job_id)
    result = job.result or {}
    if job.request.puzzle != puzzle.id:
        raise InputError(_("job %(job)s is a %(puzzle)s job, not %(wanted)s", job=job_id,
                           puzzle=job.request.puzzle, wanted=puzzle.id))
    if job.status != "solved" or not isinstance(result.get("moves"), list):
        raise InputError(_("job %(job)s has no solution (it is %(status)s)", job=job_id, status=job.status))
    return {"moves": list(result["moves"]), "solved": True, "details": result.get("details") or {},
            "solver": job.request.solver, "job": job.id, "instance": job.request.instance}


@bp.get("/<puzzle_id>")
def editor(puzzle_id):
    """The editor. ``?instance=`` (exact text), ``?preset=``, ``?seed=`` choose the instance;
    ``?moves=`` adds a solution to play back and ``#step=N`` (read by the page) opens a step."""
    puzzle = puzzle_or_404(puzzle_id)
    args = request.args
    error = None
    typed = None
    instance = None
    seed = None
    try:
        if "instance" in args:
            typed = args["instance"]
            instance, _canonical = boards().instance(puzzle.id, typed)
        elif args.get("preset"):
            presets = puzzle.presets()
            if args["preset"] not in presets:
                raise InputError(_("unknown preset %(name)s; presets: %(presets)s",
                                   name=repr(args["preset"]), presets=", ".join(presets)))
            instance, _canonical = boards().instance(puzzle.id, presets[args["preset"]])
        elif args.get("seed"):
            seed = parse_seed(args["seed"])
            options = {k: v for k, v in args.items()
                       if k in puzzle.random_options and v != ""}
            with user_input(N_("the random instance")):
                instance = puzzle.random(seed, options or None)
    except InputError as exc:
        error = exc.to_json()
    if instance is None:
        instance, _canonical = boards().instance(puzzle.id, first_instance_text(puzzle))
    state = editor_state(puzzle.id, instance)

    solution = None
    if args.get("job") and error is None:
        try:
            solution = job_solution(puzzle, args["job"])
            state = editor_state(puzzle.id, boards().instance(puzzle.id, solution.pop("instance"))[0])
        except InputError as exc:
            error = {"error": _("the job in the link cannot be shown: %(error)s", error=exc), "where": "job"}
    elif args.get("moves") and error is None:
        try:
            moves = parse_moves(args["moves"])
            solved = bool(puzzle.is_solved(boards().states(puzzle.id, state["instance"], moves).final))
            solution = {"moves": list(moves), "solved": solved,
                        "details": dict(puzzle.describe_solution(instance, moves)) if solved else {},
                        "solver": args.get("solver")}
        except InputError as exc:
            error = {"error": _("the moves in the link do not apply: %(error)s", error=exc), "where": "moves"}

    svg = state.pop("svg")  # in the page once, inside the board; the script reads it from there
    page = {
        "puzzle": puzzle_details(puzzle),
        "state": state,
        "seed": seed,
        "typed": typed if error else None,
        "error": error,
        "solution": solution,
        "max_time_limit": jobs().max_time_limit,
        "default_time_limit": jobs().default_time_limit,
        "moves_param": format_moves(solution["moves"]) if solution and not solution.get("job") else None,
        "lang": link_lang(),
    }
    from .embed import share_meta  # link previews and oEmbed discovery (docs/embed.md)
    shared = solution if solution and not error else {}
    meta = share_meta(puzzle, state["instance"], tuple(shared.get("moves") or ()), shared.get("job"))
    return render_template("editor.html", puzzle=puzzle, page=page, details=page["puzzle"],
                           svg=svg, meta=meta)
