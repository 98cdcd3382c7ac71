"""The Lights Out board: an immutable grid of lights, its text form and the press rule.

A board is ``rows x cols`` lights stored as one integer bitmask (bit ``r * cols + c`` is the
light in row ``r``, column ``c``, counted from the top left, from 0). Integers make the board
hashable and cheap to copy, and make a press one XOR with a precomputed mask.

Text form (canonical): one string of ``1`` (on) and ``0`` (off) per row, rows joined by ``/``,
e.g. ``"010/111/010"``. On input, rows may also be separated by newlines, ``#`` and ``.`` are
accepted for on and off, and spaces inside a row are ignored.

Cells are named like spreadsheet cells: a column letter then a row number, ``"a1"`` being the
top left cell, ``"b3"`` the second column of the third row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engine import InputError

from .i18n import _, ngettext

MIN_SIDE = 1
MAX_SIDE = 10
#: Letters naming the columns; MAX_SIDE of them are needed.
COLUMN_LETTERS = "abcdefghij"

ON_CHARS = "1#"
OFF_CHARS = "0."

_CELL = re.compile(r"([a-zA-Z])([1-9][0-9]?)")
_SIZE = re.compile(r"\s*([0-9]{1,3})\s*(?:[xX×*]\s*([0-9]{1,3}))?\s*")


@dataclass(frozen=True)
class Board:
    """``rows x cols`` lights; bit ``r * cols + c`` of ``lights`` is on when that light is lit."""

    rows: int
    cols: int
    lights: int = 0

    @property
    def size(self) -> int:
        """The number of cells."""
        return self.rows * self.cols

    def is_on(self, row: int, col: int) -> bool:
        return bool(self.lights >> (row * self.cols + col) & 1)

    def lit_count(self) -> int:
        return self.lights.bit_count()

    def press(self, index: int) -> "Board":
        """The board after pressing cell ``index``: it and its orthogonal neighbours toggle."""
        return Board(self.rows, self.cols, self.lights ^ press_masks(self.rows, self.cols)[index])

    def toggle(self, index: int) -> "Board":
        """The board with only cell ``index`` toggled (an editing action, not a move)."""
        return Board(self.rows, self.cols, self.lights ^ (1 << index))


@lru_cache(maxsize=None)
def press_masks(rows: int, cols: int) -> tuple[int, ...]:
    """For each cell index, the bitmask of the lights a press there toggles."""
    masks = []
    for r in range(rows):
        for c in range(cols):
            mask = 0
            for rr, cc in ((r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < rows and 0 <= cc < cols:
                    mask |= 1 << (rr * cols + cc)
            masks.append(mask)
    return tuple(masks)


# -- cell names ----------------------------------------------------------------------------


def cell_name(index: int, cols: int) -> str:
    """``"b3"`` for the cell at column 1, row 2 (both from 0)."""
    row, col = divmod(index, cols)
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def cell_index(name: str, rows: int, cols: int) -> int:
    """The index of a cell named like ``"b3"``; InputError if malformed or off the board."""
    if not isinstance(name, str):
        raise InputError(_("a cell must be named by text like \"b3\", not {name}").format(name=repr(name)))
    match = _CELL.fullmatch(name.strip())
    if not match:
        raise InputError(_("{name} is not a cell: write a column letter then a row number, like \"b3\"").format(
            name=repr(name[:20])))
    col = ord(match.group(1).lower()) - ord("a")
    row = int(match.group(2)) - 1
    if col >= cols or row >= rows:
        last = f"{COLUMN_LETTERS[cols - 1]}{rows}"
        raise InputError(_("cell {name} is off the {size} board (cells run from a1 to {last})").format(
            name=name.strip(), size=size_text(rows, cols), last=last))
    return row * cols + col


# -- sizes ---------------------------------------------------------------------------------


def check_size(rows: int, cols: int) -> None:
    """InputError unless a ``rows x cols`` board is within the limits."""
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise InputError(_("a {size} board is not allowed: rows and columns must each be between "
                           "{min} and {max}").format(size=size_text(rows, cols), min=MIN_SIDE, max=MAX_SIDE))


def size_text(rows: int, cols: int) -> str:
    """A board's size as people read it: "4 x 6" in English, "4×6" in Chinese."""
    return _("{rows} x {cols}").format(rows=rows, cols=cols)


def parse_size(text: str) -> tuple[int, int]:
    """``"5"`` -> (5, 5), ``"4x6"`` -> (4, 6); InputError for anything else or out of limits."""
    match = _SIZE.fullmatch(text) if isinstance(text, str) else None
    if not match:
        raise InputError(_("size {size} is not understood: write ROWSxCOLUMNS, like \"5x5\", or one number "
                           "for a square board").format(size=repr(str(text)[:20])))
    rows = int(match.group(1))
    cols = int(match.group(2) or rows)
    check_size(rows, cols)
    return rows, cols


# -- text form -----------------------------------------------------------------------------


def parse_board(text: str) -> Board:
    """Parse board text (see the module docstring); InputError naming the row and column."""
    if not isinstance(text, str):
        raise InputError(_("the board must be given as text"))
    body = text.strip()
    if not body:
        raise InputError(_("the board is empty: give rows of 1 (on) and 0 (off) separated by "
                           "\"/\", like \"010/111/010\""))
    raw_rows = re.split(r"\s*(?:/|\r\n|\n|\r)\s*", body)
    if len(raw_rows) > MAX_SIDE:
        raise InputError(ngettext("the board has {count} row; at most {max} are allowed",
                                  "the board has {count} rows; at most {max} are allowed",
                                  len(raw_rows)).format(count=len(raw_rows), max=MAX_SIDE))
    rows: list[str] = []
    for r, raw in enumerate(raw_rows, start=1):
        cells = raw.replace(" ", "").replace("\t", "")
        # `where` for programs (the same in every language), `where_text` for people.
        where, where_text = f"row {r}", _("row {row}").format(row=r)
        if not cells:
            raise InputError(_("this row is empty"), where=where, where_text=where_text)
        if len(cells) > MAX_SIDE:
            raise InputError(ngettext("the row has {count} light; at most {max} are allowed",
                                      "the row has {count} lights; at most {max} are allowed",
                                      len(cells)).format(count=len(cells), max=MAX_SIDE),
                             where=where, where_text=where_text)
        for c, ch in enumerate(cells, start=1):
            if ch not in ON_CHARS and ch not in OFF_CHARS:
                raise InputError(_("unknown character {char}: use 1 or # for a light that is on, "
                                   "0 or . for one that is off").format(char=repr(ch)),
                                 where=f"row {r}, column {c}",
                                 where_text=_("row {row}, column {column}").format(row=r, column=c))
        if rows and len(cells) != len(rows[0]):
            raise InputError(ngettext("the row has {count} light but row 1 has {first}; all rows must be the "
                                      "same length",
                                      "the row has {count} lights but row 1 has {first}; all rows must be the "
                                      "same length", len(cells)).format(count=len(cells), first=len(rows[0])),
                             where=where, where_text=where_text)
        rows.append(cells)
    n_rows, n_cols = len(rows), len(rows[0])
    check_size(n_rows, n_cols)
    lights = 0
    for r, cells in enumerate(rows):
        for c, ch in enumerate(cells):
            if ch in ON_CHARS:
                lights |= 1 << (r * n_cols + c)
    return Board(n_rows, n_cols, lights)


def format_board(board: Board) -> str:
    """The canonical text: rows of 1 and 0 joined by "/"."""
    return "/".join(
        "".join("1" if board.is_on(r, c) else "0" for c in range(board.cols))
        for r in range(board.rows)
    )
