"""The sliding-tile board: the instance/state type, its text and JSON forms, and solvability.

A :class:`Board` is both an instance and a state: ``tiles`` is the position (row-major, 0 is the
blank) and ``goal`` the position to reach. Everything here is pure and cheap; the solvers and the
renderer build on it.

Instance text
-------------
``START`` or ``START ; goal: GOAL``.

* ``START`` lists the tiles row by row: rows separated by ``/`` or newlines, numbers by spaces
  (or commas), 0 for the blank: ``1 2 3/4 5 6/7 8 0``. A single row whose length is a square
  number (4, 9, 16, ...) is read as a square board: ``1 2 3 4 5 6 7 8 0``.
* ``GOAL`` is written the same way (a flat list of ``rows x cols`` numbers is fine), or by name:
  ``blank-last`` (the default: 1..N-1 in order, blank in the bottom-right corner) or
  ``blank-first`` (blank top-left, then 1..N-1, the goal of Korf's research instances).

:func:`format_board` is canonical: ``1 2 3/4 5 6/7 8 0``, with ``; goal: ...`` (as numbers) only
when the goal is not the default one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Sequence

from engine import InputError, format_number

from .i18n import _, ngettext, pgettext

#: Smallest and largest number of rows or columns. A 1 x N strip is not a puzzle (its tiles
#: cannot pass each other), and 32 x 32 keeps every request's work bounded.
MIN_SIDE = 2
MAX_SIDE = 32


@dataclass(frozen=True)
class Board:
    """A sliding-tile board: ``rows x cols`` cells, row-major ``tiles`` (0 = blank), and the goal.

    Construct boards through :func:`parse_board`, :func:`board_from_json` or :func:`make_board`
    (which validate); the dataclass itself does not re-check, so the solvers can build boards
    cheaply.
    """

    rows: int
    cols: int
    tiles: tuple[int, ...]
    goal: tuple[int, ...]

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @cached_property
    def blank(self) -> int:
        """The index of the blank cell (found once per board: replaying a long solution asks
        for it at every move, and a scan of a 32 x 32 board is the cost of the whole move)."""
        return self.tiles.index(0)

    def is_solved(self) -> bool:
        return self.tiles == self.goal


# -- goals, neighbours, moves --------------------------------------------------------------------

def standard_goal(rows: int, cols: int) -> tuple[int, ...]:
    """1..N-1 in reading order, blank in the bottom-right corner."""
    n = rows * cols
    return tuple(range(1, n)) + (0,)


def blank_first_goal(rows: int, cols: int) -> tuple[int, ...]:
    """Blank in the top-left corner, then 1..N-1 (the goal of Korf's instances)."""
    return tuple(range(rows * cols))


NAMED_GOALS = {"blank-last": standard_goal, "blank-first": blank_first_goal}


def goal_name(board: Board) -> str | None:
    """``"blank-last"`` or ``"blank-first"`` if the goal is one of those, else None."""
    for name, make in NAMED_GOALS.items():
        if board.goal == make(board.rows, board.cols):
            return name
    return None


def neighbours(rows: int, cols: int, cell: int) -> list[int]:
    """The cells orthogonally next to ``cell`` (up, down, left, right order)."""
    r, c = divmod(cell, cols)
    out = []
    if r > 0:
        out.append(cell - cols)
    if r < rows - 1:
        out.append(cell + cols)
    if c > 0:
        out.append(cell - 1)
    if c < cols - 1:
        out.append(cell + 1)
    return out


def movable_tiles(board: Board) -> list[int]:
    """The tiles that can slide into the blank, in up/down/left/right order of their cell."""
    return [board.tiles[c] for c in neighbours(board.rows, board.cols, board.blank)]


def slide(board: Board, tile: int) -> Board:
    """The board after ``tile`` slides into the blank; InputError unless it is next to it."""
    n = board.size
    if not 1 <= tile < n:
        raise InputError(no_such_tile(tile, board))
    blank = board.blank
    # Look for the tile only next to the blank: O(1), where tiles.index(tile) scanned the board.
    cell = next((c for c in neighbours(board.rows, board.cols, blank) if board.tiles[c] == tile), None)
    if cell is None:
        can = _(", ").join(str(t) for t in sorted(movable_tiles(board)))
        raise InputError(_("tile {tile} is not next to the blank; the tiles that can slide are "
                           "{tiles}").format(tile=tile, tiles=can))
    tiles = list(board.tiles)
    tiles[blank], tiles[cell] = tile, 0
    moved = Board(board.rows, board.cols, tuple(tiles), board.goal)
    moved.__dict__["blank"] = cell  # seed the cached_property: the blank is where the tile was
    return moved


def slide_many(board: Board, tiles: Sequence[int]) -> Board:
    """The board after each tile in turn slides into the blank; InputError at an illegal one.

    The same rule as :func:`slide`, on one mutable copy: checking a long solution (83,000
    moves of a 32 x 32 board) costs one board copy instead of one per move.
    """
    cols, rows, n = board.cols, board.rows, board.size
    cells = list(board.tiles)
    blank = board.blank
    for tile in tiles:
        if not 1 <= tile < n:
            raise InputError(_("there is no tile {tile} on this {rows} x {cols} board").format(
                tile=tile, rows=rows, cols=cols))
        r, c = divmod(blank, cols)
        if r > 0 and cells[blank - cols] == tile:
            cell = blank - cols
        elif r < rows - 1 and cells[blank + cols] == tile:
            cell = blank + cols
        elif c > 0 and cells[blank - 1] == tile:
            cell = blank - 1
        elif c < cols - 1 and cells[blank + 1] == tile:
            cell = blank + 1
        else:
            raise InputError(_("tile {tile} is not next to the blank").format(tile=tile))
        cells[blank], cells[cell] = tile, 0
        blank = cell
    moved = Board(rows, cols, tuple(cells), board.goal)
    moved.__dict__["blank"] = blank  # seed the cached_property
    return moved


def no_such_tile(tile: int, board: Board) -> str:
    """The message for a tile number that is not on ``board`` (a move or an edit action)."""
    return _("there is no tile {tile} on this {rows} x {cols} board (tiles are 1 to {last})").format(
        tile=tile, rows=board.rows, cols=board.cols, last=board.size - 1)


# -- solvability ---------------------------------------------------------------------------------

def _count_inversions(seq: Sequence[int]) -> int:
    """Pairs i < j with seq[i] > seq[j], for a permutation of 0..len-1; O(n log n) (Fenwick tree)."""
    n = len(seq)
    tree = [0] * (n + 1)
    inversions = 0
    for seen, value in enumerate(seq):
        # How many of the values seen so far are <= value?
        i, not_greater = value + 1, 0
        while i > 0:
            not_greater += tree[i]
            i -= i & -i
        inversions += seen - not_greater
        i = value + 1
        while i <= n:
            tree[i] += 1
            i += i & -i
    return inversions


def parity_facts(board: Board) -> tuple[int, int]:
    """(inversions, blank row distance) of the start compared with the goal.

    Inversions: pairs of tiles (blank ignored) whose order, reading row by row, is the opposite of
    their order in the goal. Blank row distance: rows between the blank and the goal's blank.
    """
    rank = {tile: i for i, tile in enumerate(t for t in board.goal if t)}
    inversions = _count_inversions([rank[t] for t in board.tiles if t])
    row_distance = abs(board.tiles.index(0) // board.cols - board.goal.index(0) // board.cols)
    return inversions, row_distance


def parity_proof(board: Board) -> tuple[str, str] | None:
    """(reason, detail) saying why the board cannot reach its goal, or None if it can.

    ``reason`` is one plain sentence; ``detail`` the proof. A horizontal slide keeps the tiles'
    reading order. A vertical slide moves one tile past ``cols - 1`` others, so it changes the
    number of inversions by an odd amount on an even-width board and by an even amount on an
    odd-width one. Hence the invariant: odd width, the inversion count's parity; even width, the
    parity of inversions plus the blank's row. On every board of at least 2 x 2 the positions with
    the goal's invariant are exactly the reachable ones, so the test is exact both ways.
    """
    inversions, row_distance = parity_facts(board)
    odd_width = board.cols % 2 == 1
    if (inversions if odd_width else inversions + row_distance) % 2 == 0:
        return None
    reason = _("No: this board cannot be solved, because its inversions have the wrong parity "
               "(as if two tiles had been swapped) and no slide can change that.")
    # Phrases with a count, then put whole into the sentence (the translator sees both).
    inversion_words = ngettext(
        "{count} inversion (an inversion is a pair of tiles that, read row by row, are in the "
        "opposite order to the goal)",
        "{count} inversions (an inversion is a pair of tiles that, read row by row, are in the "
        "opposite order to the goal)", inversions).format(count=format_number(inversions))
    if odd_width:
        detail = _("The board is {width} wide (odd), so every slide keeps the parity of the number "
                   "of inversions. The goal has 0 and this board has {inversions}: an odd number, so "
                   "no sequence of slides reaches the goal. Swapping any two tiles changes the parity "
                   "and makes the board solvable.").format(width=board.cols, inversions=inversion_words)
    else:
        rows_words = ngettext("{count} row", "{count} rows", row_distance).format(count=row_distance)
        detail = _("The board is {width} wide (even), so every slide keeps the parity of the number "
                   "of inversions plus the blank's row. This board has {inversions}, and its blank is "
                   "{rows} from the goal's blank: {count} + {distance} = {total} is odd, so no "
                   "sequence of slides reaches the goal. Swapping any two tiles changes the parity "
                   "and makes the board solvable.").format(
            width=board.cols, inversions=inversion_words, rows=rows_words,
            count=format_number(inversions), distance=row_distance,
            total=format_number(inversions + row_distance))
    return reason, detail


def unsolvable_note() -> str:
    """The sentence beside an unsolvable board (the reason of :func:`parity_proof`, as a note
    rather than an answer to "can it be solved?")."""
    return _("This board cannot be solved, because its inversions have the wrong parity (as if two "
             "tiles had been swapped) and no slide can change that.")


def unsolvable_reason(board: Board) -> str | None:
    """Why the board cannot reach its goal, in one plain sentence, or None if it can (the proof
    is :func:`unsolvable_detail`)."""
    proof = parity_proof(board)
    return proof[0] if proof else None


def unsolvable_detail(board: Board) -> str:
    """The parity proof behind :func:`unsolvable_reason` ("" when the board can be solved)."""
    proof = parity_proof(board)
    return proof[1] if proof else ""


def is_solvable(board: Board) -> bool:
    """True if slides can turn the board into its goal (inversion parity, O(N log N))."""
    return unsolvable_reason(board) is None


# -- validation ----------------------------------------------------------------------------------

def _place(what: str, row: int | None = None, col: int | None = None) -> dict[str, str]:
    """The ``where`` and ``where_text`` of an InputError about a row or cell of the board, or
    (``what="goal "``) of the goal: ``where`` in English for programs ("goal row 2, column 3"),
    ``where_text`` the same place in the reader's language, as one whole phrase."""
    goal = bool(what)
    if row is None:
        return {"where": "goal", "where_text": pgettext("place in the instance", "goal")}
    if col is None:
        text = _("goal row {row}") if goal else _("row {row}")
        return {"where": f"{what}row {row}", "where_text": text.format(row=row)}
    text = _("goal row {row}, column {column}") if goal else _("row {row}, column {column}")
    return {"where": f"{what}row {row}, column {col}", "where_text": text.format(row=row, column=col)}


def _check_side(rows: int, cols: int, what: str = "") -> None:
    """Board sides within MIN_SIDE..MAX_SIDE; ``what="goal "`` says the goal is at fault."""
    place = _place(what) if what else {}
    if rows > MAX_SIDE:
        raise InputError(_too_many_rows(rows), **place)
    if cols > MAX_SIDE:
        raise InputError(ngettext("the board has {count} column; the limit is {limit} x {limit}",
                                  "the board has {count} columns; the limit is {limit} x {limit}",
                                  cols).format(count=cols, limit=MAX_SIDE), **place)
    if rows < MIN_SIDE or cols < MIN_SIDE:
        raise InputError(_("a {rows} x {cols} board is not a puzzle: a board needs at least {min} rows "
                           "and {min} columns so tiles can pass each other").format(
                               rows=rows, cols=cols, min=MIN_SIDE), **place)


def _too_many_rows(rows: int, what: str = "") -> str:
    """The message for a board (or, with ``what="goal "``, a goal) with too many rows."""
    if what:
        return ngettext("the goal has {count} row; the limit is {limit} x {limit}",
                        "the goal has {count} rows; the limit is {limit} x {limit}",
                        rows).format(count=rows, limit=MAX_SIDE)
    return ngettext("the board has {count} row; the limit is {limit} x {limit}",
                    "the board has {count} rows; the limit is {limit} x {limit}",
                    rows).format(count=rows, limit=MAX_SIDE)


def _check_tiles(tiles: Sequence[int], rows: int, cols: int, what: str) -> None:
    """Every number 0..N-1 exactly once; names the first problem and its row/column."""
    n = rows * cols
    seen: dict[int, int] = {}
    for i, t in enumerate(tiles):
        if not 0 <= t < n:
            raise InputError(_("{number} is out of range: a {rows} x {cols} board has tiles 1 to {last} "
                               "and 0 for the blank").format(number=t, rows=rows, cols=cols, last=n - 1),
                             **_place(what, i // cols + 1, i % cols + 1))
        if t in seen:
            j = seen[t]
            present = set(tiles)
            absent = [x for x in range(n) if x not in present][:3]
            missing = _(", ").join(_("the blank (0)") if x == 0 else _("tile {tile}").format(tile=x)
                                   for x in absent)
            place = {"row": j // cols + 1, "column": j % cols + 1, "missing": missing}
            if t == 0:
                message = _("the blank (0) appears twice (also at row {row}, column {column}); "
                            "missing: {missing}").format(**place)
            else:
                message = _("tile {tile} appears twice (also at row {row}, column {column}); "
                            "missing: {missing}").format(tile=t, **place)
            raise InputError(message, **_place(what, i // cols + 1, i % cols + 1))
        seen[t] = i


def make_board(rows: int, cols: int, tiles: Sequence[int], goal: Sequence[int] | None = None) -> Board:
    """A validated Board (InputError naming the problem otherwise); goal None: the standard one."""
    _check_side(rows, cols)
    n = rows * cols
    if len(tiles) != n:
        raise InputError(_("a {rows} x {cols} board needs {count} numbers; {given} given").format(
            rows=rows, cols=cols, count=n, given=len(tiles)))
    _check_tiles(tiles, rows, cols, "")
    if goal is None:
        goal = standard_goal(rows, cols)
    else:
        if len(goal) != n:
            raise InputError(_("the goal needs {count} numbers for a {rows} x {cols} board; "
                               "{given} given").format(count=n, rows=rows, cols=cols, given=len(goal)),
                             **_place("goal "))
        _check_tiles(goal, rows, cols, "goal ")
    return Board(rows, cols, tuple(tiles), tuple(goal))


# -- text ----------------------------------------------------------------------------------------

_NUMBER = re.compile(r"[0-9]+")
_GOAL_SPLIT = re.compile(r"(?:;|\n)?\s*goal\s*:", re.IGNORECASE)
_SEPARATORS = re.compile(r"[ \t,]+")


def _parse_grid(text: str, what: str) -> list[list[int]]:
    """Rows of numbers; ``what`` ("" or "goal ") prefixes every ``where``."""
    lines = [line.strip() for line in re.split(r"[/\n\r]", text)]
    # Blank lines around the board are harmless; one in the middle is an empty row.
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    if not lines:
        raise InputError(_("the goal is empty: give the tiles row by row, e.g. 1 2 3/4 5 6/7 8 0") if what
                         else _("the board is empty: give the tiles row by row, e.g. 1 2 3/4 5 6/7 8 0"))
    if len(lines) > MAX_SIDE:
        raise InputError(_too_many_rows(len(lines), what))
    grid = []
    for r, line in enumerate(lines, start=1):
        if not line:
            raise InputError(_("this row is empty"), **_place(what, r))
        words = [w for w in _SEPARATORS.split(line) if w]
        if len(words) > MAX_SIDE * MAX_SIDE:
            raise InputError(_("{count} numbers in one row; the limit is {limit} x {limit}").format(
                count=len(words), limit=MAX_SIDE), **_place(what, r))
        row = []
        for c, word in enumerate(words, start=1):
            if not _NUMBER.fullmatch(word):
                shown = word if len(word) <= 12 else word[:12] + "..."
                raise InputError(_("{word} is not a tile number (use 0 for the blank)").format(
                    word=repr(shown)), **_place(what, r, c))
            if len(word) > 5:
                raise InputError(_("{number} is out of range: tiles go up to {top}").format(
                    number=word[:12], top=MAX_SIDE * MAX_SIDE - 1), **_place(what, r, c))
            row.append(int(word))
        grid.append(row)
    return grid


def _grid_shape(grid: list[list[int]], what: str) -> tuple[int, int, list[int]]:
    """(rows, cols, flat tiles) of a parsed grid, reading a lone square-length row as a square."""
    if len(grid) == 1:
        flat = grid[0]
        side = int(round(len(flat) ** 0.5))
        if side * side != len(flat):
            raise InputError(ngettext(
                "one row of {count} number is not a board: separate the rows with '/' or new lines "
                "(a single row is read as a square board only when its length is a square: 4, 9, "
                "16, ...)",
                "one row of {count} numbers is not a board: separate the rows with '/' or new lines "
                "(a single row is read as a square board only when its length is a square: 4, 9, "
                "16, ...)", len(flat)).format(count=format_number(len(flat))), **_place(what, 1))
        _check_side(side, side, what)
        return side, side, flat
    cols = len(grid[0])
    for r, row in enumerate(grid[1:], start=2):
        if len(row) != cols:
            raise InputError(ngettext(
                "this row has {count} number but row 1 has {cols}: every row needs the same length",
                "this row has {count} numbers but row 1 has {cols}: every row needs the same length",
                len(row)).format(count=format_number(len(row)), cols=cols), **_place(what, r))
    _check_side(len(grid), cols, what)
    return len(grid), cols, [t for row in grid for t in row]


def parse_board(text: str) -> Board:
    """Parse instance text (see the module docstring); InputError naming the problem and where."""
    if not isinstance(text, str):
        raise InputError(_("the instance must be text"))
    parts = _GOAL_SPLIT.split(text)
    if len(parts) > 2:
        raise InputError(_("'goal:' appears more than once"))
    start_text = parts[0].strip().rstrip(";").strip()
    if ";" in start_text:
        raise InputError(_("unexpected ';': write the goal as '; goal: 1 2 3/4 5 6/7 8 0'"))
    rows, cols, tiles = _grid_shape(_parse_grid(start_text, ""), "")
    n = rows * cols
    if len(tiles) != n:  # pragma: no cover - _grid_shape guarantees it
        raise InputError(_("a {rows} x {cols} board needs {count} numbers; {given} given").format(
            rows=rows, cols=cols, count=n, given=len(tiles)))
    _check_tiles(tiles, rows, cols, "")
    goal: Sequence[int] = standard_goal(rows, cols)
    if len(parts) == 2:
        goal_text = parts[1].strip()
        if goal_text.lower() in NAMED_GOALS:
            goal = NAMED_GOALS[goal_text.lower()](rows, cols)
        else:
            if ";" in goal_text:
                raise InputError(_("unexpected ';' in the goal"), **_place("goal "))
            g_grid = _parse_grid(goal_text, "goal ")
            if len(g_grid) == 1 and len(g_grid[0]) == n:
                flat = g_grid[0]  # a flat goal takes the board's shape
            else:
                g_rows, g_cols, flat = _grid_shape(g_grid, "goal ")
                if (g_rows, g_cols) != (rows, cols):
                    raise InputError(_("the goal is {goal_rows} x {goal_cols} but the board is "
                                       "{rows} x {cols}").format(goal_rows=g_rows, goal_cols=g_cols,
                                                                 rows=rows, cols=cols), **_place("goal "))
            _check_tiles(flat, rows, cols, "goal ")
            goal = flat
    return Board(rows, cols, tuple(tiles), tuple(goal))


def _grid_text(tiles: Sequence[int], cols: int) -> str:
    return "/".join(" ".join(str(t) for t in tiles[i:i + cols]) for i in range(0, len(tiles), cols))


def format_board(board: Board) -> str:
    """Canonical text: ``1 2 3/4 5 6/7 8 0``, plus ``; goal: ...`` when the goal is not standard."""
    text = _grid_text(board.tiles, board.cols)
    if board.goal != standard_goal(board.rows, board.cols):
        text += " ; goal: " + _grid_text(board.goal, board.cols)
    return text


# -- JSON ----------------------------------------------------------------------------------------

def board_to_json(board: Board) -> dict:
    return {"rows": board.rows, "cols": board.cols, "tiles": list(board.tiles), "goal": list(board.goal)}


def _int_list(value: Any, name: str) -> list[int]:
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise InputError(_('"{name}" must be a list of whole numbers').format(name=name), where=name)
    return value


def board_from_json(data: Any) -> Board:
    """A Board from ``{"rows", "cols", "tiles", "goal"}`` (goal optional), fully validated.

    ``{"text": "..."}`` (the engine's generic form) is accepted too.
    """
    if isinstance(data, dict) and set(data) == {"text"} and isinstance(data["text"], str):
        return parse_board(data["text"])
    if not isinstance(data, dict):
        raise InputError(_('expected a JSON object {"rows", "cols", "tiles", "goal"}'))
    unknown = sorted(set(map(str, data)) - {"rows", "cols", "tiles", "goal"})
    if unknown:
        raise InputError(_("unknown field(s) {names}; expected rows, cols, tiles and optionally "
                           "goal").format(names=", ".join(map(repr, unknown))))
    for key in ("rows", "cols"):
        if type(data.get(key)) is not int:
            raise InputError(_('"{name}" must be a whole number').format(name=key), where=key)
    rows, cols = data["rows"], data["cols"]
    _check_side(rows, cols)
    tiles = _int_list(data.get("tiles"), "tiles")
    goal = data.get("goal")
    if goal is not None:
        goal = _int_list(goal, "goal")
    return make_board(rows, cols, tiles, goal)


def parse_size(text: Any) -> tuple[int, int]:
    """``"RxC"`` (or ``"R x C"``, ``"N"`` for N x N) as (rows, cols), within the limits."""
    if not isinstance(text, str):
        raise InputError(_("the size must be text like 4x4"))
    m = re.fullmatch(r"\s*([0-9]{1,4})\s*(?:[xX×*]\s*([0-9]{1,4}))?\s*", text)
    if not m:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise InputError(_("size {size} is not rows x columns, e.g. 4x4 or 3x5").format(size=repr(shown)))
    rows = int(m.group(1))
    cols = int(m.group(2)) if m.group(2) else rows
    _check_side(rows, cols)
    return rows, cols
