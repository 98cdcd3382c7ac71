"""The sliding-tile puzzle: the engine.Puzzle for the 8-, 15-, 24-puzzle family on any m x n board.

Rules live in :mod:`.board`; this module adds identity, presets, random instances, notes and the
editor's actions.
"""

from __future__ import annotations

import random as _random
import re
import zlib
from typing import Any, Mapping, Sequence

from engine import Assessment, EditMode, EditResult, EditTool, InputError, Puzzle

from .board import (
    MAX_SIDE,
    NAMED_GOALS,
    Board,
    board_from_json,
    board_to_json,
    format_board,
    goal_name,
    is_solvable,
    movable_tiles,
    parity_proof,
    parse_board,
    parse_size,
    slide,
    slide_many,
    unsolvable_reason,
)
from .heuristics import lower_bound
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


class SlidingPuzzle(Puzzle):
    """Slide tiles into the blank until the board matches its goal."""

    id = "sliding"
    title = "Sliding tiles"
    rules = ("Slide a tile next to the blank into it, one at a time, until the tiles are in order "
             "(the 8-, 15- and 24-puzzle family, on any board from 2 x 2 to 32 x 32).")
    notation = ("The number of the tile that slides into the blank, e.g. 12. Instances: rows "
                "separated by '/' or new lines, numbers by spaces, 0 for the blank "
                "('1 2 3/4 5 6/7 8 0'); an optional goal follows '; goal:' as numbers or by name "
                "(blank-last, blank-first).")
    limits = f"boards from 2 x 2 up to {MAX_SIDE} x {MAX_SIDE}"
    random_options = {
        "size": "rows x columns, e.g. 4x4 or 3x5 (default 3x3)",
        "goal": "where the blank ends: blank-last (default) or blank-first",
    }

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

    def random(self, seed: int, options: Mapping[str, str] | None = None) -> Board:
        options = dict(options or {})
        unknown = sorted(set(map(str, options)) - set(self.random_options))
        if unknown:
            raise InputError(f"unknown option(s) {', '.join(map(repr, unknown))}; "
                             f"known: {', '.join(self.random_options)}")
        rows, cols = parse_size(options.get("size", "3x3"))
        goal = _named_goal(options.get("goal", "blank-last"), rows, cols)
        return shuffled(rows, cols, goal, _random.Random(seed))

    def notes(self, instance: Board) -> Sequence[str]:
        reason = unsolvable_reason(instance)
        if reason:
            plain = reason.removeprefix("No: ")
            return (plain[0].upper() + plain[1:],)
        if instance.is_solved():
            return ("The board is solved.",)
        bound = lower_bound(instance)
        return (f"Solvable; it takes at least {bound} move{'' if bound == 1 else 's'} (each tile's "
                f"distance from its goal cell, plus tiles in a line that must pass each other).",)

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
                raise InputError(f"{move!r} is not a tile number")
            tiles.append(int(text))
        return slide_many(state, tiles)

    def is_solved(self, state: Board) -> bool:
        return state.tiles == state.goal

    def describe_move(self, state: Board, move: str) -> str:
        """"tile 5 slides left": the tile and the way it moves (into the blank)."""
        tile = _tile_number(move, state)
        direction = slide_direction(state, tile)
        return f"tile {tile} slides {direction}" if direction else f"tile {tile}"

    def assess(self, state: Board, *, budget: float = 0.05) -> Assessment:
        """Exact at once: the parity invariant decides every rectangular board both ways."""
        if self.is_solved(state):
            return Assessment("solved", "Solved.")
        proof = parity_proof(state)
        if proof:
            return Assessment("cannot", *proof)
        return Assessment("can", "Yes: this board can still be solved.",
                          "Every slide keeps the parity of the number of inversions (plus the "
                          "blank's row on an even-width board), and this board's parity is the "
                          "goal's. On a rectangular board of at least 2 x 2, every position with "
                          "the goal's parity can reach it.")

    # -- editing -------------------------------------------------------------------------------

    def edit_modes(self) -> Sequence[EditMode]:
        return (EditMode("play", "Play: click a tile next to the blank to slide it"),
                EditMode("swap", "Swap: click two tiles to exchange them"))

    def edit_tools(self, instance: Board) -> Sequence[EditTool]:
        size = f"{instance.rows}x{instance.cols}"
        sizes = RESIZE_CHOICES if size in RESIZE_CHOICES else RESIZE_CHOICES + (size,)
        # No Shuffle button: the page's one Random button gives a new board (its Size and
        # Goal options choose the shape). The shuffle[:seed] action stays for API clients.
        return (
            EditTool("Reset to goal", "reset"),
            EditTool("Resize", choices=tuple((s.replace("x", " x "), f"resize:{s}") for s in sizes)),
            EditTool("Blank ends", choices=(("last (bottom right)", "goal:blank-last"),
                                            ("first (top left)", "goal:blank-first"))),
        )

    def edit(self, instance: Board, action: str, *, mode: str | None = None,
             selection: str | None = None) -> EditResult:
        if not isinstance(action, str):
            raise InputError("an edit action must be text")
        name, _, arg = action.partition(":")
        if name == "tile" and arg:
            tile = _tile_number(arg, instance, allow_blank=True)
            if mode in (None, "play"):
                if tile == 0:
                    raise InputError("the blank does not move by itself: click a tile next to it")
                return EditResult(slide(instance, tile))
            if mode == "swap":
                return _swap_click(instance, tile, selection)
            raise InputError(f"unknown edit mode {str(mode)[:20]!r}; use play or swap")
        if name == "shuffle":
            if not arg:
                seed = _seed_of(instance)
            elif re.fullmatch(r"[0-9]{1,18}", arg):
                seed = int(arg)
            else:
                raise InputError("shuffle takes a seed: a whole number of up to 18 digits, "
                                 "e.g. shuffle:42")
            board = shuffled(instance.rows, instance.cols, instance.goal, _random.Random(seed))
            return EditResult(board, message=f"Shuffled (seed {seed}).")
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
        raise InputError(f"unknown edit action {shown!r}; expected tile:N, shuffle[:seed], reset, "
                         f"resize:RxC or goal:blank-last|blank-first")


def _named_goal(name: Any, rows: int, cols: int) -> tuple[int, ...]:
    if not isinstance(name, str) or name.strip().lower() not in NAMED_GOALS:
        shown = str(name)[:20]
        raise InputError(f"unknown goal {shown!r}; choose blank-last or blank-first")
    return NAMED_GOALS[name.strip().lower()](rows, cols)


def _tile_number(text: Any, board: Board, allow_blank: bool = False) -> int:
    """The tile a move or action names; InputError unless it is on the board."""
    if not isinstance(text, str) or not re.fullmatch(r"[0-9]{1,5}", text.strip()):
        shown = str(text) if len(str(text)) <= 20 else str(text)[:20] + "..."
        raise InputError(f"{shown!r} is not a tile number: a move is the number of the tile that "
                         f"slides into the blank, e.g. 12")
    tile = int(text)
    low = 0 if allow_blank else 1
    if not low <= tile < board.size:
        raise InputError(f"there is no tile {tile} on this {board.rows} x {board.cols} board "
                         f"(tiles are 1 to {board.size - 1})")
    return tile


def _swap_click(board: Board, tile: int, selection: str | None) -> EditResult:
    """Swap mode: the first click selects a tile, the second swaps the two (or deselects)."""
    if selection is None or selection == "":
        return EditResult(board, selection=str(tile),
                          message=f"{_name(tile)} selected: click another tile to swap them.")
    first = _tile_number(selection, board, allow_blank=True)
    if first == tile:
        return EditResult(board, message=f"{_name(tile)} deselected.")
    tiles = list(board.tiles)
    a, b = tiles.index(first), tiles.index(tile)
    tiles[a], tiles[b] = tiles[b], tiles[a]
    swapped = Board(board.rows, board.cols, tuple(tiles), board.goal)
    note = "" if is_solvable(swapped) else " The board can no longer be solved."
    return EditResult(swapped, message=f"Swapped {_name(first).lower()} and {_name(tile).lower()}.{note}")


def _name(tile: int) -> str:
    return "The blank" if tile == 0 else f"Tile {tile}"
