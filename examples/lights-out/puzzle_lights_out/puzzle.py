"""Lights Out as an :class:`engine.Puzzle`: instances, rules, presets, random boards and editing.

The instance and the state are the same value, a :class:`~puzzle_lights_out.board.Board`.
"""

from __future__ import annotations

import random as random_module
import re
from typing import Any, Mapping, Sequence

from engine import N_, Assessment, EditMode, EditResult, EditTool, InputError, Puzzle

from .board import (
    MAX_SIDE,
    MIN_SIDE,
    Board,
    cell_index,
    cell_name,
    format_board,
    parse_board,
    parse_size,
    press_masks,
    size_text,
)
from .gf2 import Reduction, reduce_system
from .i18n import CATALOGUE, _, ngettext
from .solver import NO_SOLUTION, unsolvable_reason

DEFAULT_SIZE = (5, 5)
#: Sizes offered by the editor's Resize tool (any size within the limits can be typed in).
RESIZE_CHOICES = ((3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9), (10, 10), (4, 6), (6, 4))

#: Named boards. All can be solved; "all-on" is the classic 5 x 5 start (15 presses at least).
PRESETS = {
    "all-on": "11111/11111/11111/11111/11111",
    "cross": "00100/00100/11111/00100/00100",
    "border": "11111/10001/10001/10001/11111",
    "checker": "10101/01010/10101/01010/10101",
    "diagonals": "10001/01010/00100/01010/10001",
    "diamond": "00100/01010/10001/01010/00100",
    "small": "101/010/101",
}
# The limits are written out in the texts above so that each is one whole message to translate.
assert (MIN_SIDE, MAX_SIDE) == (1, 10), "the limits and random_options texts name the old sizes"

#: The presets' names as people read them (the ids above stay in links and the API).
PRESET_LABELS = {
    "all-on": N_("all-on"), "cross": N_("cross"), "border": N_("border"), "checker": N_("checker"),
    "diagonals": N_("diagonals"), "diamond": N_("diamond"), "small": N_("small"),
}


class LightsOut(Puzzle):
    """Turn every light off; pressing a light toggles it and its orthogonal neighbours."""

    id = "lights_out"
    # The host shows these through `catalogue`, in the reader's language (docs/plugins.md,
    # section 13): N_ marks them for `make translations` without translating them here.
    catalogue = CATALOGUE
    title = N_("Lights Out")
    rules = N_("Turn all the lights off. Pressing a light toggles it and the lights directly above, "
               "below, left and right of it.")
    notation = N_("the cell pressed: a column letter (a is the leftmost) then a row number (1 is the "
                  "top row), e.g. \"b3\" for the second column of the third row")
    limits = N_("boards from 1 x 1 up to 10 x 10 (rows x columns, each between 1 and 10)")
    random_options = {"size": N_("ROWSxCOLUMNS, e.g. \"5x5\" or \"4x6\" (default 5x5; each side "
                                 "1 to 10); one number means a square board")}
    random_option_labels = {"size": N_("Size")}

    # -- instances -------------------------------------------------------------------------

    def parse(self, text: str) -> Board:
        return parse_board(text)

    def format(self, instance: Board) -> str:
        return format_board(instance)

    def to_json(self, instance: Board) -> dict:
        return {"rows": format_board(instance).split("/")}

    def from_json(self, data: Any) -> Board:
        if isinstance(data, dict) and "rows" in data:
            rows = data["rows"]
            if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
                raise InputError(_('"rows" must be a list of strings such as "01010"'))
            if any("/" in row or "\n" in row for row in rows):
                raise InputError(_('each string in "rows" must be one row, without "/" or newlines'))
            return parse_board("/".join(rows))
        if isinstance(data, dict) and isinstance(data.get("text"), str):
            return parse_board(data["text"])
        raise InputError(_('expected a JSON object like {example}').format(example='{"rows": ["010", "111", "010"]}'))

    def presets(self) -> Mapping[str, str]:
        return dict(PRESETS)

    def preset_label(self, name: str) -> str:
        return _(PRESET_LABELS.get(name, name))

    def random(self, seed: int, options: Mapping[str, str] | None = None) -> Board:
        """A solvable board: random presses applied to a dark board, so it is never unsolvable."""
        rows, cols = self._random_size(options)
        rng = random_module.Random(_seed_value(seed))
        masks = press_masks(rows, cols)
        for _attempt in range(100):
            lights = 0
            for mask in masks:
                if rng.getrandbits(1):
                    lights ^= mask
            if lights:  # some press sets cancel out; an already-solved board is no puzzle
                return Board(rows, cols, lights)
        return Board(rows, cols, masks[0])  # not reached in practice; a single press is never dark

    def _random_size(self, options: Mapping[str, str] | None) -> tuple[int, int]:
        if options is not None and not isinstance(options, Mapping):
            raise InputError(_("random options must be a mapping of option name to value"))
        options = dict(options or {})
        unknown = sorted(str(key) for key in options if key != "size")
        if unknown:
            raise InputError(_("unknown option {option}; Lights Out understands: size").format(option=repr(unknown[0])))
        if "size" not in options:
            return DEFAULT_SIZE
        return parse_size(str(options["size"]))

    def notes(self, instance: Board) -> Sequence[str]:
        """Whether this size has unsolvable boards, and whether this one is among them."""
        notes = []
        if instance.lights == 0:
            notes.append(_("All lights are off: the board is solved."))
        reduction = reduce_system(instance.rows, instance.cols)
        k = len(reduction.null_basis)
        size = size_text(instance.rows, instance.cols)
        if k == 0:
            notes.append(_("Every {size} board can be solved, and in only one way (pressing each "
                           "light at most once).").format(size=size))
            return notes
        notes.append(_("On a {size} board {count} different sets of presses change nothing, so only "
                       "1 pattern of lights in {count} can be solved.").format(size=size, count=2 ** k))
        invariant = reduction.broken_invariant(instance.lights)
        if invariant is None:
            notes.append(_("This board can be solved."))
        else:
            notes.append(_("This board cannot be solved, whatever you press."))
        return notes

    # -- rules -----------------------------------------------------------------------------

    def legal_moves(self, state: Board) -> Sequence[str]:
        return [cell_name(i, state.cols) for i in range(state.size)]

    def apply_move(self, state: Board, move: str) -> Board:
        return state.press(cell_index(move, state.rows, state.cols))

    def is_solved(self, state: Board) -> bool:
        return state.lights == 0

    def describe_move(self, state: Board, move: str) -> str:
        """"press b3"."""
        return _("press {cell}").format(cell=cell_name(cell_index(move, state.rows, state.cols), state.cols))

    def assess(self, state: Board, *, budget: float = 0.05) -> Assessment:
        """Exact: the elimination for the board's size (cached, a few milliseconds at most)
        decides it, and the fewest presses come from at most 2**8 candidate solutions."""
        if self.is_solved(state):
            return Assessment("solved", _("Solved: all the lights are off."))
        reduction = reduce_system(state.rows, state.cols)
        invariant = reduction.broken_invariant(state.lights)
        if invariant is not None:
            proof = unsolvable_reason(state, invariant)
            return Assessment("cannot", _(NO_SOLUTION), proof[0].upper() + proof[1:] + _("."))
        presses = fewest_presses(reduction, state.lights)
        return Assessment("can", ngettext("Yes: it can be solved in {count} press.",
                                          "Yes: it can be solved in {count} presses.", presses).format(count=presses),
                          _("Presses commute and pressing a light twice undoes it, so solving is "
                            "choosing a set of lights to press: a system of equations modulo 2, "
                            "which this board satisfies. The count is the smallest of its "
                            "solutions."))

    # -- editing ---------------------------------------------------------------------------

    def edit_modes(self) -> Sequence[EditMode]:
        return (EditMode("play", _("Play: a click presses a light")),
                EditMode("toggle", _("Draw: a click toggles one light")))

    def edit_tools(self, instance: Board) -> Sequence[EditTool]:
        # No Random tool: the page's one Random button (with its Size option) makes a new board.
        # The random[:SEED] action stays for API clients.
        return (
            EditTool(_("Clear"), "clear"),
            EditTool(_("Resize"), choices=tuple((size_text(r, c), f"resize:{r}x{c}")
                                             for r, c in RESIZE_CHOICES)),
        )

    def edit(self, instance: Board, action: str, *, mode: str | None = None,
             selection: str | None = None) -> EditResult:
        """Actions: ``cell:b3`` (press or toggle, by mode), ``clear``, ``random[:SEED]``,
        ``resize:RxC`` (keeps the lights that still fit)."""
        if not isinstance(action, str):
            raise InputError(_("an edit action must be text"))
        verb, _colon, argument = action.strip().partition(":")
        if verb == "cell":
            index = cell_index(argument, instance.rows, instance.cols)
            if mode in (None, "play"):
                return EditResult(instance.press(index))
            if mode == "toggle":
                return EditResult(instance.toggle(index))
            raise InputError(_("unknown edit mode {mode}; choose play or toggle").format(mode=repr(str(mode)[:20])))
        if verb == "clear" and not argument:
            return EditResult(Board(instance.rows, instance.cols))
        if verb == "random":
            seed = _parse_seed(argument) if argument else 0
            size = f"{instance.rows}x{instance.cols}"
            return EditResult(self.random(seed, {"size": size}),
                              message=_("Random board (seed {seed})").format(seed=seed))
        if verb == "resize":
            rows, cols = parse_size(argument)
            return EditResult(_resized(instance, rows, cols))
        raise InputError(_("unknown edit action {action}; Lights Out understands cell:b3, clear, random:SEED "
                           "and resize:RxC").format(action=repr(action[:30])))


def fewest_presses(reduction: Reduction, lights: int) -> int:
    """The fewest presses that turn ``lights`` off (the board must be solvable): the smallest of
    the ``2**k`` solutions, walked in Gray-code order as the solver does."""
    presses = best = reduction.particular_solution(lights)
    for step in range(1, 1 << len(reduction.null_basis)):
        presses ^= reduction.null_basis[(step & -step).bit_length() - 1]
        best = min(best, presses, key=int.bit_count)
    return best.bit_count()


def _resized(board: Board, rows: int, cols: int) -> Board:
    """A ``rows x cols`` board keeping the lights of ``board`` that fall inside it."""
    lights = 0
    for r in range(min(rows, board.rows)):
        for c in range(min(cols, board.cols)):
            if board.is_on(r, c):
                lights |= 1 << (r * cols + c)
    return Board(rows, cols, lights)


def _parse_seed(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,12}", text.strip()):
        raise InputError(_("seed {seed} is not a whole number (at most 12 digits)").format(seed=repr(text[:20])))
    return int(text.strip())


def _seed_value(seed: Any) -> int | str:
    """``random.Random`` accepts ints and strings; anything else becomes its text."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        return str(seed)
    return seed
