"""Playback for other sites: the embed page, its host script, oEmbed, and raster images.

``/embed/<puzzle>`` is a lean player that any site may frame (``frame-ancestors *`` here only;
every other page keeps ``'self'``). Without script it is a still board with plain step links,
a pure function of its URL; with script it reuses the editor's playback modules. The images
(``render.png``, ``animation.gif``, ``animation.webp``) follow ``render.svg``'s rules: cacheable,
CORS-open, ETags. Nothing here knows a puzzle: a third-party plugin gets all of it. See
docs/embed.md.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from flask_babel import format_decimal, ngettext
from flask_babel import gettext as _
from werkzeug.exceptions import NotFound

from engine import N_, InputError
from engine.i18n import current_locale, translate

from . import raster
from .api import SVG_MAX_AGE, describe_window
from .editor_view import parse_seed
from .i18n import link
from .pages import first_instance_text, job_solution
from .rendering import SizedLRU, format_moves, parse_moves, parse_step, user_input
from .state import boards, registry

bp = Blueprint("embed", __name__)

#: Embed pages may be framed by any site, and run only this site's scripts.
EMBED_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
             "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
             "form-action 'self'; frame-ancestors *")
BACKGROUNDS = ("auto", "light", "dark", "transparent")
#: Height of everything but the board in the embed page (controls, status line, footer), px.
CHROME_HEIGHT = 132
DEFAULT_WIDTH = 600
MIN_WIDTH, MAX_WIDTH = 240, 1200
#: Moves described in words on the page itself (the move list and the live line).
PAGE_WORDS = 500
PNG_CACHE_BYTES = 32_000_000
ANIMATION_CACHE_BYTES = 32_000_000
PROVIDER = "Puzzle engine"


@dataclass(frozen=True)
class Source:
    """What a URL asks to show: an instance (canonical text) and a move list, maybe a job's."""
    puzzle_id: str
    text: str
    moves: tuple[str, ...]
    job: str | None = None

    @property
    def work_limit(self):
        from .rendering import MAX_SOLUTION_REPLAY_WORK
        return MAX_SOLUTION_REPLAY_WORK if self.job else None

    def query(self, **extra) -> str:
        """The query string naming this source (plus ``extra``), for any of the routes."""
        pairs = [("instance", self.text)]
        if self.job:
            pairs = [("job", self.job)]
        elif self.moves:
            pairs.append(("moves", format_moves(self.moves)))
        pairs += [(k, str(v)) for k, v in extra.items() if v is not None]
        return urlencode(pairs, quote_via=quote)


def read_source(puzzle_id: str, values) -> Source:
    """The instance and moves named by ``instance``/``preset``/``seed``, ``moves`` or ``job``."""
    puzzle = registry().puzzle(puzzle_id)
    if values.get("job"):
        solution = job_solution(puzzle, values["job"])
        _parsed, text = boards().instance(puzzle.id, solution["instance"])
        return Source(puzzle.id, text, tuple(solution["moves"]), solution["job"])
    if values.get("instance"):
        _parsed, text = boards().instance(puzzle.id, values["instance"])
    elif values.get("preset"):
        presets = puzzle.presets()
        if values["preset"] not in presets:
            raise InputError(_("unknown preset %(preset)s; presets: %(presets)s", preset=repr(values["preset"]),
                               presets=", ".join(presets)),
                             where="preset")
        _parsed, text = boards().instance(puzzle.id, presets[values["preset"]])
    elif values.get("seed"):
        seed = parse_seed(values["seed"])
        options = {k: v for k, v in values.items() if k in puzzle.random_options and v != ""}
        with user_input(N_("the random instance")):
            text = puzzle.format(puzzle.random(seed, options or None))
        _parsed, text = boards().instance(puzzle.id, text)
    else:
        _parsed, text = boards().instance(puzzle.id, first_instance_text(puzzle))
    moves = parse_moves(values.get("moves"))
    boards().states(puzzle.id, text, moves)  # a bad move is a 400 now, not a broken page
    return Source(puzzle.id, text, moves)


def read_flag(values, name: str, default: str) -> bool:
    value = values.get(name, default) or default
    if value not in ("0", "1"):
        raise InputError(f"{name} must be 0 or 1, not {value[:20]!r}", where=name)
    return value == "1"


def cached_answer(body: bytes, mimetype: str, cacheable: bool = True) -> Response:
    """An answer any site may use, with render.svg's cache, ETag and CORS rules."""
    response = Response(body, mimetype=mimetype)
    response.headers["Cache-Control"] = f"public, max-age={SVG_MAX_AGE}" if cacheable else "no-store"
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["ETag"] = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    return response.make_conditional(request)


def stable(source: Source) -> bool:
    """Whether the URL will always mean the same thing (a live job id does not survive a restart)."""
    return source.job is None or source.job.startswith("stored-")


# -- the embed page ------------------------------------------------------------------------


def step_words(puzzle, source: Source, step: int) -> tuple[list[dict], str]:
    """The moves in words (at most PAGE_WORDS of them, around ``step``) and the status line."""
    replay = boards().states(source.puzzle_id, source.text, source.moves, source.work_limit)
    total = len(source.moves)
    first = max(0, min(step - PAGE_WORDS // 2, total - PAGE_WORDS))
    window = describe_window(puzzle, replay, first, min(total, first + PAGE_WORDS))
    words = window["moves"]
    if step == 0:
        status = ngettext("Start position: %(count)s move to go.", "Start position: %(count)s moves to go.",
                          total, count=format_decimal(total))
    else:
        said = words[step - 1 - first]["words"]
        said = said[:1].upper() + said[1:]
        # The move's words end the sentence: with their own mark, or with the language's stop.
        if not said.endswith((".", "!", "?", "。", "！", "？")):
            said = _("%(sentence)s.", sentence=said)  # the full stop of the reader's language
        status = _("Move %(step)s of %(total)s: %(move)s", step=format_decimal(step),
                   total=format_decimal(total), move=said)
    for i, item in enumerate(words):
        item["index"] = first + i
    return words, status


@bp.get("/embed/<puzzle_id>")
def embed_page(puzzle_id):
    try:
        puzzle = registry().puzzle(puzzle_id)
    except InputError as exc:
        return embed_error(exc.message, 404)
    try:
        return embed_view(puzzle, request.args)
    except InputError as exc:
        return embed_error(exc.message, 400)


def embed_error(message: str, status: int):
    response = current_app.make_response((render_template("embed.html", error=message), status))
    response.headers["Content-Security-Policy"] = EMBED_CSP
    return response


def embed_view(puzzle, args):
    source = read_source(puzzle.id, args)
    bg = args.get("bg") or "auto"
    if bg not in BACKGROUNDS:
        raise InputError(_("bg must be one of %(values)s, not %(value)s", values=", ".join(BACKGROUNDS),
                           value=repr(bg[:20])), where="bg")
    controls = read_flag(args, "controls", "1")
    show_list = read_flag(args, "list", "0")
    autoplay = read_flag(args, "autoplay", "0")
    renderer = args.get("renderer") or None
    frame_id = (args.get("id") or "")[:100] or None
    step = parse_step(args.get("step"), source.moves) if source.moves else 0
    if not args.get("step") and source.moves:
        step = 0  # a player starts at the start; ?step= or #step= opens another step
    svg, solved = boards().step(puzzle.id, renderer, source.text, source.moves, step,
                                work_limit=source.work_limit)
    words, status = step_words(puzzle, source, step) if source.moves else ([], "")
    keep = {k: args[k] for k in ("bg", "controls", "list", "renderer", "id") if args.get(k)}
    total = len(source.moves)
    # link(): a language chosen with ?lang= is carried on, like every link the pages write.
    links = {name: link(f"{request.path}?{source.query(**keep, step=n)}")
             for name, n in (("first", 0), ("prev", max(0, step - 1)), ("next", min(total, step + 1)),
                             ("last", total))}
    for item in words:
        item["href"] = link(f"{request.path}?{source.query(**keep, step=item['index'] + 1)}")
    editor = link(f"/{quote(puzzle.id)}?{source.query()}") + (f"#step={step}" if total else "")
    title = translate(puzzle, puzzle.title)
    data = {"puzzle": puzzle.id, "title": title, "instance": source.text,
            "moves": list(source.moves), "job": source.job, "step": step, "renderer": renderer,
            "autoplay": autoplay, "id": frame_id, "solved": solved,
            "can_solve": bool(registry().solvers(puzzle.id)),
            "query": {k: v for k, v in keep.items()}}
    html = render_template("embed.html", puzzle=puzzle, title=title, svg=svg, solved=solved, step=step, total=total,
                           links=links, words=words, status=status, editor=editor, bg=bg,
                           controls=controls, show_list=show_list, data=data, error=None)
    response = cached_answer(html.encode("utf-8"), "text/html", cacheable=stable(source))
    response.headers["Content-Security-Policy"] = EMBED_CSP
    response.headers.pop("Access-Control-Allow-Origin", None)  # a page, not a resource
    return response


@bp.get("/embed.js")
def host_script():
    """The optional script a host page loads to resize its embeds from their height messages."""
    response = current_app.send_static_file("embed-host.js")
    response.headers["Cache-Control"] = "public, max-age=3600"
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


# -- oEmbed ----------------------------------------------------------------------------------


def board_aspect(source: Source) -> float:
    svg, _size = boards().step(source.puzzle_id, None, source.text, source.moves, 0,
                           work_limit=source.work_limit)
    return raster.aspect(svg)


def frame_size(aspect: float, maxwidth: int | None, maxheight: int | None) -> tuple[int, int]:
    """The iframe's width and height: DEFAULT_WIDTH wide (or less), the board plus controls."""
    width = min(DEFAULT_WIDTH, maxwidth or DEFAULT_WIDTH)
    if maxheight and width * aspect + CHROME_HEIGHT > maxheight:
        width = int((maxheight - CHROME_HEIGHT) / aspect)
    width = max(MIN_WIDTH, width) if not maxwidth or maxwidth >= MIN_WIDTH else maxwidth
    height = round(width * aspect) + CHROME_HEIGHT
    if maxheight:
        height = min(height, maxheight)
    return width, height


def read_bound(values, name: str) -> int | None:
    raw = values.get(name)
    if raw is None or raw == "":
        return None
    text = str(raw).strip()
    if not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise InputError(f"{name} must be a whole number of pixels, not {text[:20]!r}", where=name)
    return int(text)


def source_of_url(url: str) -> tuple[Source, int]:
    """The source an editor or embed URL of this site shows, and its step; NotFound if the URL
    is not this site's puzzle."""
    parts = urlsplit(url)
    if parts.scheme not in ("", "http", "https") or (parts.netloc and parts.netloc != request.host):
        raise NotFound("that URL is not a puzzle on this site")
    path = parts.path.strip("/").split("/")
    if len(path) == 2 and path[0] == "embed":
        path = path[1:]
    if len(path) != 1 or not path[0] or path[0] not in registry().puzzles:
        raise NotFound("that URL is not a puzzle on this site")
    values = dict(parse_qsl(parts.query, keep_blank_values=True))
    source = read_source(path[0], values)
    raw_step = values.get("step")
    if parts.fragment.startswith("step="):
        raw_step = parts.fragment[5:]
    step = parse_step(raw_step, source.moves) if raw_step else (len(source.moves) if source.moves else 0)
    return source, step


def title_of(puzzle, source: Source) -> str:
    title = translate(puzzle, puzzle.title)
    if source.moves:
        return ngettext("%(puzzle)s: a solution in %(count)s move", "%(puzzle)s: a solution in %(count)s moves",
                        len(source.moves), puzzle=title, count=format_decimal(len(source.moves)))
    return _("%(puzzle)s puzzle", puzzle=title)


def image_alt(puzzle, step: int) -> str:
    title = translate(puzzle, puzzle.title)
    if not step:
        return _("%(puzzle)s board", puzzle=title)
    return ngettext("%(puzzle)s board after %(count)s move", "%(puzzle)s board after %(count)s moves", step,
                    puzzle=title, count=format_decimal(step))


def absolute(path: str) -> str:
    return request.host_url.rstrip("/") + path


def embed_snippet(source: Source, step: int, width: int, height: int, title: str) -> str:
    """The iframe HTML (with a link for sites that strip iframes); every value escaped."""
    from markupsafe import escape

    src = absolute(f"/embed/{quote(source.puzzle_id)}?{source.query()}") + (f"#step={step}" if step else "")
    editor = absolute(f"/{quote(source.puzzle_id)}?{source.query()}") + (f"#step={step}" if step else "")
    return (f'<iframe src="{escape(src)}" title="{escape(title)}" loading="lazy" width="{width}" '
            f'height="{height}" style="border:0;width:100%"></iframe>'
            f'<p><a href="{escape(editor)}">{escape(title)}</a></p>')


@bp.get("/oembed")
def oembed():
    """oEmbed (https://oembed.com) for editor and embed URLs: a ``rich`` iframe answer."""
    values = dict(request.args.items())
    fmt = values.get("format") or "json"
    if fmt == "xml":
        return jsonify({"error": _("only format=json is offered")}), 501
    if fmt != "json":
        raise InputError(_("format must be json, not %(value)s", value=repr(fmt[:20])), where="format")
    url = values.get("url")
    if not url:
        raise InputError(_("give the page's address in the 'url' parameter"), where="url")
    maxwidth, maxheight = read_bound(values, "maxwidth"), read_bound(values, "maxheight")
    source, step = source_of_url(url)
    puzzle = registry().puzzle(source.puzzle_id)
    aspect = board_aspect(source)
    width, height = frame_size(aspect, maxwidth, maxheight)
    title = title_of(puzzle, source)
    thumb_width = max(raster.MIN_SIZE, min(width, raster.MAX_SIZE))
    return jsonify({
        "type": "rich", "version": "1.0", "title": title,
        "provider_name": PROVIDER, "provider_url": request.host_url,
        "html": embed_snippet(source, step, width, height, title),
        "width": width, "height": height,
        "thumbnail_url": absolute(f"/api/{quote(source.puzzle_id)}/render.png?"
                                  f"{source.query(step=step, size=thumb_width)}"),
        "thumbnail_width": thumb_width, "thumbnail_height": max(1, round(thumb_width * aspect)),
        "cache_age": SVG_MAX_AGE,
    })


def share_meta(puzzle, text: str, moves: tuple[str, ...], job: str | None) -> dict:
    """og:/twitter: tags and the oEmbed discovery link for an editor page (absolute URLs)."""
    source = Source(puzzle.id, text, tuple(moves), job)
    query = request.query_string.decode("latin-1")  # as sent: already percent-encoded
    page = absolute(quote(request.path) + ("?" + query if query else ""))
    step = len(moves)
    return {
        "title": title_of(puzzle, source),
        "description": translate(puzzle, puzzle.rules),
        "image": absolute(f"/api/{quote(puzzle.id)}/render.png?{source.query(step=step, size=1200)}"),
        "image_alt": image_alt(puzzle, step),
        "url": page,
        "oembed": absolute("/oembed?" + urlencode({"url": page, "format": "json"}, quote_via=quote)),
    }


# -- raster images ------------------------------------------------------------------------


def _caches():
    found = current_app.extensions.get("puzzle_raster")
    if found is None:
        weigh = lambda args, value: len(value)
        found = current_app.extensions["puzzle_raster"] = {
            "png": SizedLRU(_draw_png, PNG_CACHE_BYTES, weigh),
            "animation": SizedLRU(_draw_animation, ANIMATION_CACHE_BYTES, weigh),
        }
    return found


def _draw_png(puzzle_id, renderer, text, moves, step, size, work_limit, locale=None):
    svg, _ = boards().step(puzzle_id, renderer, text, moves, step, work_limit=work_limit)
    return raster.png(svg, size)


def _draw_animation(puzzle_id, renderer, text, moves, size, delay_ms, kind, work_limit=None, locale=None):
    # Each frame is drawn on the frame background by resvg itself: flattening render.png's
    # transparent PNGs cost a decode, a composite and a re-encode per frame on top.
    frames = [raster.png(boards().step(puzzle_id, renderer, text, moves, i, work_limit=work_limit)[0],
                         size, background=raster.FRAME_BACKGROUND)
              for i in range(len(moves) + 1)]
    return raster.animation(frames, delay_ms, max(2000, 3 * delay_ms), kind)


def image_source(puzzle_id: str) -> tuple[Source, dict]:
    values = dict(request.args.items())
    registry().puzzle(puzzle_id)
    if not values.get("job") and not values.get("instance"):
        raise InputError(_("give the instance in the 'instance' query parameter"), where="instance")
    return read_source(puzzle_id, values), values


@bp.get("/api/<puzzle_id>/render.png")
def render_png(puzzle_id):
    """The board after ``step`` of ``moves`` as a PNG ``size`` pixels wide (render.svg's picture)."""
    source, values = image_source(puzzle_id)
    size = raster.read_size(values.get("size"), DEFAULT_WIDTH)
    step = parse_step(values.get("step"), source.moves)
    renderer = boards().registry.renderer(puzzle_id, values.get("renderer") or None).name
    # Keyed by the locale too: a board may draw words (tangram's tray says "drop here").
    body = _caches()["png"](puzzle_id, renderer, source.text, source.moves, step, size, source.work_limit,
                            current_locale())
    return cached_answer(body, "image/png", cacheable=stable(source))


def animated(puzzle_id: str, kind: str):
    # A job's solution (``job=stored-N``) works too: it is bounded by its frames like any other.
    source, values = image_source(puzzle_id)
    size = raster.read_size(values.get("size"), 360)
    delay = values.get("delay", "0.6")
    try:
        delay_ms = round(float(delay) * 1000)
    except ValueError:
        raise InputError(_("the delay must be a number of seconds, not %(value)s", value=repr(delay[:20])),
                         where="delay") from None
    if not 50 <= delay_ms <= 10_000:
        raise InputError(_("the delay must be between 0.05 and 10 seconds"), where="delay")
    renderer = boards().registry.renderer(puzzle_id, values.get("renderer") or None).name
    first, _size = boards().step(puzzle_id, renderer, source.text, source.moves, 0,
                             work_limit=source.work_limit)
    raster.check_animation(len(source.moves) + 1, size, round(size * raster.aspect(first)))
    body = _caches()["animation"](puzzle_id, renderer, source.text, source.moves, size, delay_ms,
                                  kind, source.work_limit, current_locale())
    response = cached_answer(body, f"image/{kind}", cacheable=stable(source))
    if values.get("download"):
        response.headers["Content-Disposition"] = f'attachment; filename="{puzzle_id}-solution.{kind}"'
    return response


@bp.get("/api/<puzzle_id>/animation.gif")
def animation_gif(puzzle_id):
    return animated(puzzle_id, "gif")


@bp.get("/api/<puzzle_id>/animation.webp")
def animation_webp(puzzle_id):
    return animated(puzzle_id, "webp")


__all__ = ["bp", "share_meta"]
