"""Boards for the web: parse, replay and render with caches, and the animated solution SVG.

Rendering is a pure function of (puzzle, renderer, instance text, moves, step, selection), so
the results are kept in LRU caches: a playback step embedded on another site, or scrubbed back
and forth in the editor, is rendered once. The caches belong to one :class:`Boards` object per
app (two apps in one process, as in tests, may hold different registries).
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Sequence

from engine import InputError, replay
from engine.solving import MAX_INPUT_CHARS, MAX_MOVES, resolve_instance

#: Longest single move accepted in a move list.
MAX_MOVE_CHARS = 200


@contextmanager
def user_input(what: str):
    """Turn a plugin's plain exception on user input into an InputError (a 400, not a 500).

    The contract says plugins raise InputError; a ValueError or KeyError escaping from parsing
    someone's text is still about that text, so the user hears about it in words.
    """
    try:
        yield
    except InputError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        raise InputError(f"{what} was rejected: {exc}") from None


def parse_moves(raw: Any) -> tuple[str, ...]:
    """Moves from a query or JSON value: a list, a JSON array text, or comma-separated text."""
    if raw is None or raw == "":
        return ()
    if isinstance(raw, str):
        if len(raw) > MAX_INPUT_CHARS:
            raise InputError(f"the move list is longer than {MAX_INPUT_CHARS:,} characters",
                             where="moves")
        text = raw.strip()
        if text.startswith("["):
            try:
                raw = json.loads(text)
            except ValueError:
                raise InputError("the moves look like a JSON array but are not valid JSON",
                                 where="moves") from None
        else:
            raw = [part.strip() for part in text.split(",")]
    if not isinstance(raw, (list, tuple)):
        raise InputError("the moves must be a list of move strings", where="moves")
    if len(raw) > MAX_MOVES:
        raise InputError(f"{len(raw):,} moves given; the limit is {MAX_MOVES:,}", where="moves")
    moves = []
    for i, move in enumerate(raw, start=1):
        if not isinstance(move, str) or not move:
            raise InputError(f"move {i} is empty or not text", where="moves")
        if len(move) > MAX_MOVE_CHARS:
            raise InputError(f"move {i} is longer than {MAX_MOVE_CHARS} characters", where="moves")
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
    try:
        step = int(raw)
    except (TypeError, ValueError):
        raise InputError(f"the step must be a whole number, not {raw!r}", where="step") from None
    if not 0 <= step <= len(moves):
        raise InputError(f"step {step} is out of range: this solution has steps 0 to {len(moves)}",
                         where="step")
    return step


_ROOT_SIZE = re.compile(r'\s(width|height)="[^"]*"')
_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>\s*")
_VIEWBOX = re.compile(r'viewBox="([^"]*)"')


class Boards:
    """Cached parsing, replay and rendering for one registry."""

    def __init__(self, registry, cache_size: int = 4096):
        self.registry = registry
        self._parsed = lru_cache(maxsize=2048)(self._parse)
        self._replayed = lru_cache(maxsize=256)(self._replay)
        self._step = lru_cache(maxsize=cache_size)(self._render_step)
        self._animation = lru_cache(maxsize=64)(self._render_animation)

    # -- instances and states --------------------------------------------------------------

    def instance(self, puzzle_id: str, text: Any):
        """(instance, canonical text) for instance text, a preset name or the JSON form."""
        if isinstance(text, dict):
            puzzle = self.registry.puzzle(puzzle_id)
            with user_input("the instance"):
                instance = puzzle.from_json(text)
                return instance, puzzle.format(instance)
        if not isinstance(text, str):
            raise InputError("the instance must be text", where="instance")
        return self._parsed(puzzle_id, text)

    def _parse(self, puzzle_id: str, text: str):
        puzzle = self.registry.puzzle(puzzle_id)
        with user_input("the instance"):
            instance = resolve_instance(puzzle, text)
            return instance, puzzle.format(instance)

    def states(self, puzzle_id: str, text: str, moves: tuple[str, ...]):
        """Every state from the start through each move; InputError at the first bad move."""
        return self._replayed(puzzle_id, text, moves)

    def _replay(self, puzzle_id: str, text: str, moves: tuple[str, ...]):
        puzzle = self.registry.puzzle(puzzle_id)
        instance, _ = self.instance(puzzle_id, text)
        with user_input("a move"):
            return tuple(replay(puzzle, instance, moves))

    # -- SVG -------------------------------------------------------------------------------

    def render_instance(self, puzzle_id: str, instance, renderer: str | None = None,
                        selection: str | None = None) -> str:
        """The SVG of an instance's start state (editor board; not cached: selection varies)."""
        puzzle = self.registry.puzzle(puzzle_id)
        return self.registry.renderer(puzzle_id, renderer).render(puzzle.start(instance),
                                                                  selection=selection)

    def step(self, puzzle_id: str, renderer: str | None, text: str, moves: tuple[str, ...],
             step: int | None = None, selection: str | None = None) -> tuple[str, bool]:
        """(SVG, solved?) of the state after ``step`` of ``moves`` (default: all of them)."""
        renderer_name = self.registry.renderer(puzzle_id, renderer).name
        if step is None:
            step = len(moves)
        return self._step(puzzle_id, renderer_name, text, moves, step, selection)

    def _render_step(self, puzzle_id, renderer_name, text, moves, step, selection):
        puzzle = self.registry.puzzle(puzzle_id)
        states = self.states(puzzle_id, text, moves)
        state = states[step]
        svg = self.registry.renderer(puzzle_id, renderer_name).render(
            state,
            last_move=moves[step - 1] if step > 0 else None,
            next_move=moves[step] if step < len(moves) else None,
            selection=selection,
        )
        return svg, bool(puzzle.is_solved(state))

    def animation(self, puzzle_id: str, renderer: str | None, text: str, moves: tuple[str, ...],
                  seconds_per_step: float = 0.6) -> str:
        renderer_name = self.registry.renderer(puzzle_id, renderer).name
        return self._animation(puzzle_id, renderer_name, text, moves, round(seconds_per_step, 3))

    def _render_animation(self, puzzle_id, renderer_name, text, moves, seconds_per_step):
        frames = [self.step(puzzle_id, renderer_name, text, moves, i)[0] for i in range(len(moves) + 1)]
        title = f"{self.registry.puzzle(puzzle_id).title}: {len(moves)} moves"
        return animate(frames, seconds_per_step, title)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def animate(frames: Sequence[str], seconds_per_step: float, title: str = "") -> str:
    """One self-contained SVG that shows ``frames`` in turn, forever (SMIL, no script).

    Each frame is nested as its own ``<svg>`` (keeping its viewBox and styles) inside a group
    whose ``display`` a discrete ``<animate>`` switches on for its slice of the cycle. The first
    frame is visible without animation support, so static viewers still show the start. The last
    frame is held for two extra slices so the solved board is seen before the loop restarts.
    """
    count = len(frames)
    first_box = _VIEWBOX.search(frames[0]) if frames else None
    view_box = first_box.group(1) if first_box else "0 0 100 100"
    slots = count + 2  # the final frame stays up a little longer
    total = max(0.1, seconds_per_step * slots)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'version="1.1" viewBox="{view_box}" data-frames="{count}">',
        f"<title>{_escape(title)}</title>",
    ]
    for i, frame in enumerate(frames):
        body = _XML_DECL.sub("", frame, count=1)
        # Drop the root's own width/height so the nested board fills the outer viewBox.
        head_end = body.find(">")
        head = _ROOT_SIZE.sub("", body[:head_end])
        body = head + ' width="100%" height="100%"' + body[head_end:]
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
        display = "inline" if i == 0 else "none"
        parts.append(
            f'<g class="frame" data-step="{i}" display="{display}">'
            f'<animate attributeName="display" values="{values}" keyTimes="{times}" '
            f'dur="{total:.3f}s" calcMode="discrete" repeatCount="indefinite"/>'
            f"{body}</g>"
        )
    parts.append("</svg>")
    return "\n".join(parts)
