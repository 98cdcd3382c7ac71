"""Boards for the web: parse, replay and render with caches, and the animated solution SVG.

Rendering is a pure function of (puzzle, renderer, instance text, moves, step, selection) and
the reader's language (a board's ``<title>`` and its parts' spoken names are words), so the
results are kept in LRU caches under all of these: a playback step embedded on another site,
or scrubbed back and forth in the editor, is rendered once per language. The caches belong to
one :class:`Boards` object per app (two apps in one process, as in tests, may hold different
registries).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict, namedtuple
from typing import Any, Callable, Sequence

from flask_babel import format_decimal, gettext, ngettext
from lxml import etree

from engine import N_, InputError
from engine.errors import plugin_call
from engine.i18n import current_locale, translate
from engine.solving import MAX_INPUT_CHARS, MAX_MOVES, iter_states, owner_of, read_instance
from engine.svgsafe import sanitize_svg

from .numbers import read_whole

#: Longest single move accepted in a move list.
MAX_MOVE_CHARS = 200
#: Work allowed to replay one move list, in moves x characters of the canonical instance text
#: (a stand-in for the size of a state, which a move copies). Without it 100,000 moves on a
#: 32 x 32 sliding board took 2.2 s of a request thread; this allows ~37,000 there (< 1 s),
#: and the full MAX_MOVES on anything up to 1,500 characters (lights out, pegs, 15-puzzle).
MAX_REPLAY_WORK = 150_000_000
#: The same for a solution a job found (GET /api/jobs/<id>/render.svg): the worker has already
#: replayed it, nobody can choose its moves, and solves are rate-limited by the job queue, so a
#: long solution (the fast sliding solver gives ~83,000 moves on 32 x 32, about 1.8 s to
#: replay once, then cached) may still be played back.
MAX_SOLUTION_REPLAY_WORK = 4 * MAX_REPLAY_WORK
#: A replay keeps every CHECKPOINT_EVERY-th state; a step between is replayed from the one
#: before it (at most CHECKPOINT_EVERY - 1 moves), so long move lists do not pin every state.
CHECKPOINT_EVERY = 32
#: Largest animated SVG built (its size is estimated from the first frame before rendering).
#: Every frame is a full board: 2,000 frames of a 32 x 32 board were 370 MB and 86 s.
MAX_ANIMATION_BYTES = 5_000_000
#: Memory the caches may hold, roughly in characters of SVG / instance text.
STEP_CACHE_CHARS = 64_000_000
ANIMATION_CACHE_CHARS = 16_000_000
PARSE_CACHE_CHARS = 16_000_000
REPLAY_CACHE_CHARS = 64_000_000


def user_input(what: str):
    """Turn a plugin's plain exception on user input into an InputError (a 400, not a 500).

    The contract says plugins raise InputError; a ValueError or KeyError escaping from parsing
    someone's text is still about that text, so the user hears about it in words. The mapping
    is the engine's one converter, :func:`engine.errors.convert_exception`.
    """
    # ``what`` is marked with N_ in web/ (the "messages" domain): it is translated here, where
    # the request's catalogue is known, before the engine words the sentence around it.
    return plugin_call(what=gettext(what))


def parse_moves(raw: Any) -> tuple[str, ...]:
    """Moves from a query or JSON value: a list, a JSON array text, or comma-separated text."""
    if raw is None or raw == "":
        return ()
    if isinstance(raw, str):
        if len(raw) > MAX_INPUT_CHARS:
            raise InputError(gettext("the move list is longer than %(limit)s characters",
                                     limit=format_decimal(MAX_INPUT_CHARS)),
                             where="moves")
        text = raw.strip()
        if text.startswith("["):
            try:
                raw = json.loads(text)
            except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested too deep
                raise InputError(gettext("the moves look like a JSON array but are not valid JSON"),
                                 where="moves") from None
        else:
            raw = [part.strip() for part in text.split(",")]
    if not isinstance(raw, (list, tuple)):
        raise InputError(gettext("the moves must be a list of move strings"), where="moves")
    if len(raw) > MAX_MOVES:
        raise InputError(ngettext("%(count)s move given; the limit is %(limit)s",
                                  "%(count)s moves given; the limit is %(limit)s",
                                  len(raw), count=format_decimal(len(raw)), limit=format_decimal(MAX_MOVES)),
                         where="moves")
    moves = []
    for i, move in enumerate(raw, start=1):
        if not isinstance(move, str) or not move:
            raise InputError(gettext("move %(number)s is empty or not text", number=i), where="moves")
        if len(move) > MAX_MOVE_CHARS:
            raise InputError(gettext("move %(number)s is longer than %(limit)s characters", number=i,
                                     limit=MAX_MOVE_CHARS), where="moves")
        moves.append(move)
    return tuple(moves)


def format_moves(moves: Sequence[str]) -> str:
    """The ``moves`` query value for a move list (JSON only when a move contains a comma)."""
    if any("," in m or m != m.strip() for m in moves):
        return json.dumps(list(moves), separators=(",", ":"))
    return ",".join(moves)


def parse_step(raw: Any, moves: Sequence[str]) -> int:
    """A step number in 0..len(moves); None means the last one."""
    if raw is None or raw == "":
        return len(moves)
    step = read_whole(raw, "step", N_("the step"))
    if not 0 <= step <= len(moves):
        raise InputError(gettext("step %(step)s is out of range: this solution has steps 0 to %(last)s",
                                 step=step, last=len(moves)), where="step")
    return step


SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
#: Frames come from the engine's sanitiser, but are parsed with the same care: no DTDs, no
#: entities, no network.
_FRAME_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                                remove_comments=True)


CacheInfo = namedtuple("CacheInfo", "hits misses entries size max_size")


class SizedLRU:
    """A thread-safe LRU cache around ``function`` bounded by the total *size* of its values.

    functools.lru_cache bounds the number of entries, but entries here range from a few hundred
    bytes (a 3 x 3 board) to hundreds of kilobytes (a 32 x 32 board), so a count bound is no
    memory bound. ``weigh(args, value)`` gives an entry's size; exceptions are not cached.
    """

    def __init__(self, function: Callable, max_size: int, weigh: Callable[[tuple, Any], int]):
        self.function = function
        self.max_size = max_size
        self.weigh = weigh
        self._entries: OrderedDict[tuple, tuple[Any, int]] = OrderedDict()
        self._size = 0
        self._hits = self._misses = 0
        self._lock = threading.Lock()

    def __call__(self, *args):
        with self._lock:
            found = self._entries.get(args)
            if found is not None:
                self._entries.move_to_end(args)
                self._hits += 1
                return found[0]
            self._misses += 1
        value = self.function(*args)  # outside the lock: other requests keep being served
        weight = max(1, int(self.weigh(args, value)))
        if weight <= self.max_size:
            with self._lock:
                if args not in self._entries:
                    self._entries[args] = (value, weight)
                    self._size += weight
                while self._size > self.max_size:
                    _, (_, dropped) = self._entries.popitem(last=False)
                    self._size -= dropped
        return value

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._entries), self._size, self.max_size)

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._size = 0


class Replay:
    """A move list replayed from an instance's start: any step's state, without keeping them all.

    Every move is checked when the replay is made (InputError naming the first bad one, as
    :func:`engine.replay` does); every CHECKPOINT_EVERY-th state is kept.
    """

    def __init__(self, puzzle, instance, moves: tuple[str, ...]):
        self.puzzle = puzzle
        self.moves = moves
        self.checkpoints = []
        for i, state in enumerate(iter_states(puzzle, instance, moves)):
            if i % CHECKPOINT_EVERY == 0:
                self.checkpoints.append(state)
        self.final = state

    def state(self, step: int):
        """The state after ``step`` moves (0 = the start)."""
        if not 0 <= step <= len(self.moves):
            raise IndexError(step)
        if step == len(self.moves):
            return self.final
        base = step // CHECKPOINT_EVERY
        state = self.checkpoints[base]
        for move in self.moves[base * CHECKPOINT_EVERY:step]:
            state = self.puzzle.apply_move(state, move)
        return state


def check_replay_work(text: str, moves: Sequence[str], limit: int | None = None) -> None:
    """InputError when replaying ``moves`` on this instance would hog a request thread."""
    limit = MAX_REPLAY_WORK if limit is None else limit
    size = max(1, len(text))
    if len(moves) * size > limit:
        allowed = limit // size
        given = ngettext("%(count)s move", "%(count)s moves", len(moves), count=format_decimal(len(moves)))
        raise InputError(ngettext("%(given)s are too many to replay on a board this large (its limit is %(count)s "
                                  "move)", "%(given)s are too many to replay on a board this large (its limit is "
                                  "%(count)s moves)", allowed, given=given, count=format_decimal(allowed)),
                         where="moves")


class Boards:
    """Cached parsing, replay and rendering for one registry."""

    def __init__(self, registry, cache_chars: int = STEP_CACHE_CHARS):
        self.registry = registry
        self._parsed = SizedLRU(self._parse, PARSE_CACHE_CHARS,
                                lambda args, value: len(args[1]) + len(value[1]))
        self._replayed = SizedLRU(self._replay, REPLAY_CACHE_CHARS,
                                  # states ~ their text; a move string ~ 64 bytes of objects
                                  lambda args, value: len(args[1]) * (len(value.checkpoints) + 1)
                                  + 64 * len(args[2]))
        self._step = SizedLRU(self._render_step, cache_chars, lambda args, value: len(value[0]))
        self._animation = SizedLRU(self._render_animation, ANIMATION_CACHE_CHARS,
                                   lambda args, value: len(value))

    # -- instances and states --------------------------------------------------------------

    def instance(self, puzzle_id: str, text: Any):
        """(instance, canonical text) for instance text, a preset name or the JSON form
        (:func:`engine.solving.read_instance`; text is cached, JSON is not hashable)."""
        if isinstance(text, str):
            return self._parsed(puzzle_id, text)
        return self._parse(puzzle_id, text)

    def _parse(self, puzzle_id: str, value: Any):
        puzzle = self.registry.puzzle(puzzle_id)
        return read_instance(puzzle, value, owner_of(self.registry, puzzle))

    def states(self, puzzle_id: str, text: str, moves: tuple[str, ...],
               work_limit: int | None = None) -> Replay:
        """The replay of ``moves`` (``.final``, ``.state(step)``); InputError at the first bad
        move, or when the move list is too long for the board (see MAX_REPLAY_WORK)."""
        _, canonical = self.instance(puzzle_id, text)
        check_replay_work(canonical, moves, work_limit)
        return self._replayed(puzzle_id, canonical, moves)

    def _replay(self, puzzle_id: str, text: str, moves: tuple[str, ...]) -> Replay:
        puzzle = self.registry.puzzle(puzzle_id)
        instance, _ = self.instance(puzzle_id, text)
        with user_input(N_("a move")):
            return Replay(puzzle, instance, moves)

    # -- SVG -------------------------------------------------------------------------------

    def render_instance(self, puzzle_id: str, instance, renderer: str | None = None,
                        selection: str | None = None, next_move: str | None = None) -> str:
        """The SVG of an instance's start state (editor board; not cached: selection varies).
        ``next_move`` (legal in that state) is drawn as the move about to be played: a hint."""
        puzzle = self.registry.puzzle(puzzle_id)
        return self._draw(self.registry.renderer(puzzle_id, renderer), puzzle.start(instance),
                          selection=selection, next_move=next_move)

    def _draw(self, renderer, state, **options) -> str:
        """A renderer's SVG of ``state``, sanitised (:func:`engine.svgsafe.sanitize_svg`): the
        page inserts it, so plugin SVG gets no script, event handler or outside reference in."""
        with plugin_call(plugin=owner_of(self.registry, renderer), doing=gettext("rendering a board")):
            return sanitize_svg(renderer.render(state, **options))

    def step(self, puzzle_id: str, renderer: str | None, text: str, moves: tuple[str, ...],
             step: int | None = None, selection: str | None = None,
             work_limit: int | None = None) -> tuple[str, bool]:
        """(SVG, solved?) of the state after ``step`` of ``moves`` (default: all of them)."""
        renderer_name = self.registry.renderer(puzzle_id, renderer).name
        if step is None:
            step = len(moves)
        # Key the step cache with the replay's own tuple of moves, so the cached steps of one
        # long solution share one copy instead of each holding the copy its request parsed.
        moves = self.states(puzzle_id, text, moves, work_limit).moves
        # The locale is part of the key: a renderer writes its labels (aria-label, <title>) in the
        # reader's language, so one language's SVG must never be served to another.
        return self._step(puzzle_id, renderer_name, text, moves, step, selection, work_limit, current_locale())

    def _render_step(self, puzzle_id, renderer_name, text, moves, step, selection, work_limit=None,
                     locale=None):  # locale: only a key of the cache (the request's, in effect)
        puzzle = self.registry.puzzle(puzzle_id)
        replayed = self.states(puzzle_id, text, moves, work_limit)
        with user_input(N_("a move")):
            state = replayed.state(step)
        svg = self._draw(
            self.registry.renderer(puzzle_id, renderer_name),
            state,
            last_move=moves[step - 1] if step > 0 else None,
            next_move=moves[step] if step < len(moves) else None,
            selection=selection,
        )
        return svg, bool(puzzle.is_solved(state))

    def animation(self, puzzle_id: str, renderer: str | None, text: str, moves: tuple[str, ...],
                  seconds_per_step: float = 0.6) -> str:
        """The animated SVG of the whole solution; InputError if it would be too large."""
        renderer_name = self.registry.renderer(puzzle_id, renderer).name
        self.states(puzzle_id, text, moves)  # a bad move is a 400 before any rendering
        first, _ = self.step(puzzle_id, renderer_name, text, moves, 0)
        estimate = len(first) * (len(moves) + 1)
        if estimate > MAX_ANIMATION_BYTES:
            frames = max(1, MAX_ANIMATION_BYTES // max(1, len(first)))
            given = ngettext("%(count)s move", "%(count)s moves", len(moves), count=format_decimal(len(moves)))
            raise InputError(ngettext("an animation of %(given)s on this board would be about %(size)s MB; it can "
                                      "show at most %(count)s move (use the step images instead)",
                                      "an animation of %(given)s on this board would be about %(size)s MB; it can "
                                      "show at most %(count)s moves (use the step images instead)", frames - 1,
                                      count=format_decimal(frames - 1),
                                      given=given, size=format_decimal(round(estimate / 1e6, 1), "#,##0.0")),
                             where="moves")
        return self._animation(puzzle_id, renderer_name, text, moves, round(seconds_per_step, 3),
                               current_locale())

    def _render_animation(self, puzzle_id, renderer_name, text, moves, seconds_per_step, locale=None):
        # Frames are rendered here, not through the step cache, so one animation does not
        # push every cached playback step out.
        replayed = self.states(puzzle_id, text, moves)
        renderer = self.registry.renderer(puzzle_id, renderer_name)
        frames, total = [], 0
        with user_input(N_("a move")):
            for i in range(len(moves) + 1):
                frame = self._draw(renderer, replayed.state(i),
                                   last_move=moves[i - 1] if i else None,
                                   next_move=moves[i] if i < len(moves) else None)
                total += len(frame)
                if total > 2 * MAX_ANIMATION_BYTES:  # the first frame was unusually small
                    raise InputError(gettext("this animation would be too large; use the step images"),
                                     where="moves")
                frames.append(frame)
        puzzle = self.registry.puzzle(puzzle_id)
        title = ngettext("%(puzzle)s: %(count)s move", "%(puzzle)s: %(count)s moves", len(moves),
                         puzzle=translate(puzzle, puzzle.title), count=format_decimal(len(moves)))
        return animate(frames, seconds_per_step, title)


def animate(frames: Sequence[str], seconds_per_step: float, title: str = "") -> str:
    """One self-contained SVG that shows ``frames`` in turn, forever (SMIL, no script).

    Each frame is nested as its own ``<svg>`` (keeping its viewBox and styles) inside a group
    whose ``display`` a discrete ``<animate>`` switches on for its slice of the cycle. The first
    frame is visible without animation support, so static viewers still show the start. The last
    frame is held for two extra slices so the solved board is seen before the loop restarts.
    The document is built as a tree (the frames are parsed, never spliced as text), so no frame
    can break out of its group whatever it contains.
    """
    count = len(frames)
    boards = [etree.fromstring(frame.encode("utf-8"), _FRAME_PARSER) for frame in frames]
    view_box = (boards[0].get("viewBox") if boards else None) or "0 0 100 100"
    slots = count + 2  # the final frame stays up a little longer
    total = max(0.1, seconds_per_step * slots)
    root = etree.Element(f"{{{SVG_NS}}}svg", nsmap={None: SVG_NS, "xlink": XLINK_NS})
    root.set("version", "1.1")
    root.set("viewBox", view_box)
    root.set("data-frames", str(count))
    etree.SubElement(root, f"{{{SVG_NS}}}title").text = title
    for i, board in enumerate(boards):
        # The nested board fills the outer viewBox instead of keeping its own natural size.
        board.set("width", "100%")
        board.set("height", "100%")
        start = i / slots
        end = (i + 1) / slots if i < count - 1 else 1.0
        if count == 1:
            values, times = "inline", "0"
        elif i == 0:
            values, times = "inline;none", f"0;{end:.6f}"
        elif end >= 1.0:
            values, times = "none;inline", f"0;{start:.6f}"
        else:
            values, times = "none;inline;none", f"0;{start:.6f};{end:.6f}"
        group = etree.SubElement(root, f"{{{SVG_NS}}}g", {
            "class": "frame", "data-step": str(i), "display": "inline" if i == 0 else "none"})
        etree.SubElement(group, f"{{{SVG_NS}}}animate", {
            "attributeName": "display", "values": values, "keyTimes": times,
            "dur": f"{total:.3f}s", "calcMode": "discrete", "repeatCount": "indefinite"})
        group.append(board)
    return etree.tostring(root, encoding="unicode")
