"""The sliding-tile puzzle: the engine.Puzzle for the 8-, 15-, 24-puzzle family on any m x n board.

Rules live in :mod:`.board`; this module adds identity, presets, random instances, notes and the
editor's actions.
"""

from __future__ import annotations

import random as _random
import re
import zlib
from typing import Any, Mapping, Sequence

from engine import N_, Assessment, EditMode, EditResult, EditTool, InputError, Puzzle, format_number

from .board import (
    MAX_SIDE,
    MIN_SIDE,
    NAMED_GOALS,
    Board,
    board_from_json,
    board_to_json,
    format_board,
    goal_name,
    is_solvable,
    movable_tiles,
    no_such_tile,
    parity_proof,
    parse_board,
    parse_size,
    slide,
    slide_many,
    unsolvable_note,
    unsolvable_reason,
)
from .heuristics import lower_bound
from .i18n import CATALOGUE, _, ngettext
from .render import slide_direction

#: Sizes offered by the editor's Resize tool (any size within the limits is accepted).
RESIZE_CHOICES = ("2x2", "2x3", "3x3", "3x4", "3x5", "4x4", "4x5", "5x5", "6x6", "7x7", "8x8")

# Korf's (1985) instances 1 and 2, turned to the usual goal (rotate 180 degrees, relabel x -> 16 - x;
# see data/korf15-1-50.txt). Optimal lengths 57 and 55.
KORF_1 = "13 6 8 12/15 14 0 10/11 7 4 5/9 1 3 2"
KORF_2 = "10 5 1 0/15 9 13 14/2 8 4 7/6 12 11 3"

PRESETS: dict[str, str] = {
    # Scrambles short enough for the optimal solver to answer at once (optimal 20, 30, 24, 26).
    "8-puzzle": "0 3 7/2 8 4/1 6 5",
    "15-puzzle": "10 3 15 4/1 2 11 0/9 5 8 7/13 6 14 12",
    "24-puzzle": "1 2 8 5 10/6 12 7 4 15/11 13 3 14 9/16 17 24 0 19/21 22 18 23 20",
    "3x5": "0 1 2 8 3/11 6 10 9 4/7 12 5 13 14",
    "korf-1": KORF_1,
    "korf-2": KORF_2,
    # One of the two hardest 8-puzzle positions (31 moves).
    "hard-8": "8 6 7/2 5 4/3 0 1",
}

#: The presets' names as people read them (the ids above stay in links and the API; the English
#: names are the ids, as before, so English pages are unchanged).
PRESET_LABELS = {
    "8-puzzle": N_("8-puzzle"), "15-puzzle": N_("15-puzzle"), "24-puzzle": N_("24-puzzle"),
    "3x5": N_("3x5"), "korf-1": N_("korf-1"), "korf-2": N_("korf-2"), "hard-8": N_("hard-8"),
}
# The limits are written out in the texts below so that each is one whole message to translate.
assert (MIN_SIDE, MAX_SIDE) == (2, 32), "the rules and limits texts name the old sizes"

#: "tile 5 slides left", one whole sentence per direction (word order differs by language).
SLIDES = {"up": N_("tile {tile} slides up"), "down": N_("tile {tile} slides down"),
          "left": N_("tile {tile} slides left"), "right": N_("tile {tile} slides right")}


def shuffled(rows: int, cols: int, goal: Sequence[int], rng: _random.Random) -> Board:
    """A uniformly random board among those that can reach ``goal``.

    Shuffle all cells; if the result has the wrong parity, swap the first two tiles (blank
    excluded). That swap is its own inverse and flips the parity, so it pairs unsolvable boards
    with solvable ones one to one and the result stays uniform.
    """
    tiles = list(range(rows * cols))
    rng.shuffle(tiles)
    board = Board(rows, cols, tuple(tiles), tuple(goal))
    if not is_solvable(board):
        a, b = [i for i, t in enumerate(tiles) if t][:2]
        tiles[a], tiles[b] = tiles[b], tiles[a]
        board = Board(rows, cols, tuple(tiles), tuple(goal))
    return board


def _seed_of(board: Board) -> int:
    """A deterministic seed derived from a board (the Shuffle button's default)."""
    return zlib.crc32(format_board(board).encode())


#: The names of the solvers' stats, as the page shows them (the host looks each one up in this
#: plugin's catalogue, underscores read as spaces).
SHOWN_NAMES = (N_("iterations"), N_("search seconds"), N_("solver used"), N_("method"),
               N_("table build seconds"), N_("optimal stopped while"))


class SlidingPuzzle(Puzzle):
    """Slide tiles into the blank until the board matches its goal."""

    id = "sliding"
    # The host shows these through `catalogue`, in the reader's language (docs/plugins.md):
    # N_ marks them for `make translations` without translating them here.
    catalogue = CATALOGUE
    title = N_("Sliding tiles")
    rules = N_("Slide a tile next to the blank into it, one at a time, until the tiles are in order "
               "(the 8-, 15- and 24-puzzle family, on any board from 2 x 2 to 32 x 32).")
    notation = N_("The number of the tile that slides into the blank, e.g. 12. Instances: rows "
                  "separated by '/' or new lines, numbers by spaces, 0 for the blank "
                  "('1 2 3/4 5 6/7 8 0'); an optional goal follows '; goal:' as numbers or by name "
                  "(blank-last, blank-first).")
    limits = N_("boards from 2 x 2 up to 32 x 32")
    random_options = {
        "size": N_("rows x columns, e.g. 4x4 or 3x5 (default 3x3)"),
        "goal": N_("where the blank ends: blank-last (default) or blank-first"),
    }
    random_option_labels = {"size": N_("Size"), "goal": N_("Goal")}

    # -- instances -----------------------------------------------------------------------------

    def parse(self, text: str) -> Board:
        return parse_board(text)

    def format(self, instance: Board) -> str:
        return format_board(instance)

    def to_json(self, instance: Board) -> dict:
        return board_to_json(instance)

    def from_json(self, data: Any) -> Board:
        return board_from_json(data)

    def presets(self) -> Mapping[str, str]:
        return dict(PRESETS)

    def preset_label(self, name: str) -> str:
        return _(PRESET_LABELS.get(name, name))

    def random(self, seed: int, options: Mapping[str, str] | None = None) -> Board:
        options = dict(options or {})
        unknown = sorted(set(map(str, options)) - set(self.random_options))
        if unknown:
            raise InputError(_("unknown option(s) {names}; known: {known}").format(
                names=", ".join(map(repr, unknown)), known=", ".join(self.random_options)))
        rows, cols = parse_size(options.get("size", "3x3"))
        goal = _named_goal(options.get("goal", "blank-last"), rows, cols)
        return shuffled(rows, cols, goal, _random.Random(seed))

    def notes(self, instance: Board) -> Sequence[str]:
        if unsolvable_reason(instance):
            return (unsolvable_note(),)
        if instance.is_solved():
            return (_("The board is solved."),)
        bound = lower_bound(instance)
        return (ngettext("Solvable; it takes at least {count} move (each tile's distance from its "
                         "goal cell, plus tiles in a line that must pass each other).",
                         "Solvable; it takes at least {count} moves (each tile's distance from its "
                         "goal cell, plus tiles in a line that must pass each other).",
                         bound).format(count=format_number(bound)),)

    # -- rules ---------------------------------------------------------------------------------

    def legal_moves(self, state: Board) -> Sequence[str]:
        return [str(t) for t in movable_tiles(state)]

    def apply_move(self, state: Board, move: str) -> Board:
        return slide(state, _tile_number(move, state))

    def apply_moves(self, state: Board, moves: Sequence[str]) -> Board:
        # The engine's fast path for checking long answers; the same notation as _tile_number
        # (1 to 5 ASCII digits, spaces around allowed), and the engine names a bad move itself.
        tiles = []
        for move in moves:
            text = move.strip() if isinstance(move, str) else ""
            if not (0 < len(text) <= 5 and text.isascii() and text.isdigit()):
                raise InputError(_("{move} is not a tile number").format(move=repr(move)))
            tiles.append(int(text))
        return slide_many(state, tiles)

    def is_solved(self, state: Board) -> bool:
        return state.tiles == state.goal

    def describe_move(self, state: Board, move: str) -> str:
        """"tile 5 slides left": the tile and the way it moves (into the blank)."""
        tile = _tile_number(move, state)
        direction = slide_direction(state, tile)
        return _(SLIDES[direction] if direction else N_("tile {tile}")).format(tile=tile)

    def assess(self, state: Board, *, budget: float = 0.05) -> Assessment:
        """Exact at once: the parity invariant decides every rectangular board both ways."""
        if self.is_solved(state):
            return Assessment("solved", _("Solved."))
        proof = parity_proof(state)
        if proof:
            return Assessment("cannot", *proof)
        return Assessment("can", _("Yes: this board can still be solved."),
                          _("Every slide keeps the parity of the number of inversions (plus the "
                          "blank's row on an even-width board), and this board's parity is the "
                          "goal's. On a rectangular board of at least 2 x 2, every position with "
                          "the goal's parity can reach it."))

    # -- editing -------------------------------------------------------------------------------

    def edit_modes(self) -> Sequence[EditMode]:
        return (EditMode("play", _("Play: click a tile next to the blank to slide it")),
                EditMode("swap", _("Swap: click two tiles to exchange them")))

    def edit_tools(self, instance: Board) -> Sequence[EditTool]:
        size = f"{instance.rows}x{instance.cols}"
        sizes = RESIZE_CHOICES if size in RESIZE_CHOICES else RESIZE_CHOICES + (size,)
        # No Shuffle button: the page's one Random button gives a new board (its Size and
        # Goal options choose the shape). The shuffle[:seed] action stays for API clients.
        return (
            EditTool(_("Reset to goal"), "reset"),
            EditTool(_("Resize"), choices=tuple((s.replace("x", " x "), f"resize:{s}") for s in sizes)),
            EditTool(_("Blank ends"), choices=((_("last (bottom right)"), "goal:blank-last"),
                                               (_("first (top left)"), "goal:blank-first"))),
        )

    def edit(self, instance: Board, action: str, *, mode: str | None = None,
             selection: str | None = None) -> EditResult:
        if not isinstance(action, str):
            raise InputError(_("an edit action must be text"))
        name, _colon, arg = action.partition(":")
        if name == "tile" and arg:
            tile = _tile_number(arg, instance, allow_blank=True)
            if mode in (None, "play"):
                if tile == 0:
                    raise InputError(_("the blank does not move by itself: click a tile next to it"))
                return EditResult(slide(instance, tile))
            if mode == "swap":
                return _swap_click(instance, tile, selection)
            raise InputError(_("unknown edit mode {mode}; use play or swap").format(mode=repr(str(mode)[:20])))
        if name == "shuffle":
            if not arg:
                seed = _seed_of(instance)
            elif re.fullmatch(r"[0-9]{1,18}", arg):
                seed = int(arg)
            else:
                raise InputError(_("shuffle takes a seed: a whole number of up to 18 digits, "
                                   "e.g. shuffle:42"))
            board = shuffled(instance.rows, instance.cols, instance.goal, _random.Random(seed))
            return EditResult(board, message=_("Shuffled (seed {seed}).").format(seed=seed))
        if name == "reset" and not arg:
            return EditResult(Board(instance.rows, instance.cols, instance.goal, instance.goal))
        if name == "resize" and arg:
            rows, cols = parse_size(arg)
            style = goal_name(instance) or "blank-last"
            goal = NAMED_GOALS[style](rows, cols)
            return EditResult(Board(rows, cols, goal, goal))
        if name == "goal" and arg:
            goal = _named_goal(arg, instance.rows, instance.cols)
            # A solved board follows its goal; any other position is kept as it is.
            tiles = goal if instance.is_solved() else instance.tiles
            return EditResult(Board(instance.rows, instance.cols, tiles, goal))
        shown = action if len(action) <= 30 else action[:30] + "..."
        raise InputError(_("unknown edit action {action}; expected tile:N, shuffle[:seed], reset, "
                           "resize:RxC or goal:blank-last|blank-first").format(action=repr(shown)))


def _named_goal(name: Any, rows: int, cols: int) -> tuple[int, ...]:
    if not isinstance(name, str) or name.strip().lower() not in NAMED_GOALS:
        shown = str(name)[:20]
        raise InputError(_("unknown goal {goal}; choose blank-last or blank-first").format(goal=repr(shown)))
    return NAMED_GOALS[name.strip().lower()](rows, cols)


def _tile_number(text: Any, board: Board, allow_blank: bool = False) -> int:
    """The tile a move or action names; InputError unless it is on the board."""
    if not isinstance(text, str) or not re.fullmatch(r"[0-9]{1,5}", text.strip()):
        shown = str(text) if len(str(text)) <= 20 else str(text)[:20] + "..."
        raise InputError(_("{move} is not a tile number: a move is the number of the tile that "
                           "slides into the blank, e.g. 12").format(move=repr(shown)))
    tile = int(text)
    low = 0 if allow_blank else 1
    if not low <= tile < board.size:
        raise InputError(no_such_tile(tile, board))
    return tile


def _swap_click(board: Board, tile: int, selection: str | None) -> EditResult:
    """Swap mode: the first click selects a tile, the second swaps the two (or deselects)."""
    if selection is None or selection == "":
        message = (_("The blank selected: click another tile to swap them.") if tile == 0 else
                   _("Tile {tile} selected: click another tile to swap them.").format(tile=tile))
        return EditResult(board, selection=str(tile), message=message)
    first = _tile_number(selection, board, allow_blank=True)
    if first == tile:
        message = (_("The blank deselected.") if tile == 0 else
                   _("Tile {tile} deselected.").format(tile=tile))
        return EditResult(board, message=message)
    tiles = list(board.tiles)
    a, b = tiles.index(first), tiles.index(tile)
    tiles[a], tiles[b] = tiles[b], tiles[a]
    swapped = Board(board.rows, board.cols, tuple(tiles), board.goal)
    message = _swapped(first, tile)
    if not is_solvable(swapped):
        message = _("{swapped} The board can no longer be solved.").format(swapped=message)
    return EditResult(swapped, message=message)


def _swapped(first: int, second: int) -> str:
    """"Swapped tile 3 and the blank.", one whole sentence for each case (never glued names)."""
    if first == 0:
        return _("Swapped the blank and tile {second}.").format(second=second)
    if second == 0:
        return _("Swapped tile {first} and the blank.").format(first=first)
    return _("Swapped tile {first} and tile {second}.").format(first=first, second=second)
