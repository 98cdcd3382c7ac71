"""Instance text <-> :class:`~plugins.pegs.board.PegInstance`.

The format (see also docs/pegs.md)::

    geometry: square
    goal: d4
    board:
    __ooo__
    __ooo__
    ooooooo
    ooo.ooo
    ooooooo
    __ooo__
    __ooo__

* Parts are separated by newlines or ``;``; a part is ``geometry: ...``, ``goal: ...``,
  ``board: ...`` or a drawing row. Blank parts are ignored; keys are case-insensitive.
* ``geometry`` is ``square`` (the default), ``diagonal`` (square grid with diagonal jumps) or
  ``triangular``.
* The board is drawn row by row: ``o`` a peg, ``.`` an empty hole, ``_`` or a space no hole.
  Rows are separated by newlines or ``/``, so ``board: _o_/ooo/_._`` is one line. Rows that
  follow ``board:`` (or that come before any key) belong to the board.
* Square and diagonal boards must be drawn as a rectangle (every row the same length; use
  ``_`` where an editor would trim spaces). A triangular board is drawn left-justified: row
  ``r`` of a triangle has ``r`` holes, e.g. ``./oo/ooo/oooo/ooooo``; a row may end early, and
  the missing cells are no holes.
* ``goal`` is ``any`` (one peg left anywhere, the default), a hole name (``d4``: one peg left,
  in that hole) or a target pattern drawn like the board (after ``goal:`` on the same line with
  ``/``, or on the following lines) with the same holes as the board.
* Hole names: column letter (``a`` = leftmost column of the drawing) and row number (1 = top).

:func:`format_instance` writes the canonical text: keys in the order geometry, goal, board;
``_`` for no hole; triangular rows without their trailing no-holes.
"""

from __future__ import annotations

import re

from engine import InputError, plural

from .board import GEOMETRIES, MAX_HOLES, MAX_SIDE, PegInstance, cell_name, parse_cell_name

_KEY = re.compile(r"^\s*(geometry|goal|board)\s*:(.*)$", re.IGNORECASE | re.DOTALL)
_ALIASES = {
    "square": "square", "orthogonal": "square", "cross": "square",
    "diagonal": "diagonal", "diagonals": "diagonal", "square-diagonal": "diagonal",
    "square+diagonal": "diagonal", "square-with-diagonals": "diagonal",
    "triangular": "triangular", "triangle": "triangular", "tri": "triangular",
}
_PEG, _EMPTY, _NONE = "o", ".", "_ "
#: A small board drawn in one line, shown in messages about text that is no drawing.
_EXAMPLE = "board: _o_/ooo/_._"


def parse_instance(text: str) -> PegInstance:
    """Parse instance text; InputError naming the row and column of what is wrong."""
    if not isinstance(text, str):
        raise InputError("the instance must be text")
    geometry = None
    goal_text = None  # "any", a hole name, or None when given as a drawing
    board_rows: list[str] = []
    goal_rows: list[str] = []
    section = "board"
    seen = set()
    for raw in re.split(r"[\n;]", text.replace("\r", "")):
        if not raw.strip():
            continue
        match = _KEY.match(raw)
        if match:
            key, value = match.group(1).lower(), match.group(2).strip()
            if key in seen:
                raise InputError(f"'{key}:' is given twice")
            seen.add(key)
            if key == "geometry":
                geometry = _parse_geometry(value)
                continue
            section = key
            if key == "goal":
                if not value:
                    continue  # the pattern follows on the next lines
                if value.lower() == "any" or _looks_like_name(value):
                    goal_text = value
                    section = "board"  # rows after "goal: d4" belong to the board again
                    continue
            target = goal_rows if key == "goal" else board_rows
            target.extend(value.split("/") if value else [])
            continue
        target = goal_rows if section == "goal" else board_rows
        target.extend(raw.split("/"))

    geometry = geometry or "square"
    if not board_rows:
        raise InputError("no board given; draw it row by row with o (peg), . (empty hole) and "
                         "_ (no hole), e.g. 'board: ooo/o.o/ooo'")
    rows, cols, holes, pegs = _parse_drawing(board_rows, geometry, "board")
    if pegs == 0:
        raise InputError("the board has no peg; draw pegs with o")
    if holes.bit_count() > MAX_HOLES:
        raise InputError(f"the board has {holes.bit_count()} holes; the limit is {MAX_HOLES}")

    goal = 0
    if goal_rows:
        if goal_text is not None:
            raise InputError("the goal is given both as a hole name and as a pattern")
        grows, gcols, gholes, gpegs = _parse_drawing(goal_rows, geometry, "goal")
        if (grows, gcols) != (rows, cols) or gholes != holes:
            _explain_shape_mismatch(rows, cols, holes, grows, gcols, gholes)
        if gpegs == 0:
            raise InputError("the goal pattern has no peg")
        goal = gpegs
    elif goal_text is not None and goal_text.lower() != "any":
        try:
            r, c = parse_cell_name(goal_text, rows, cols)
        except InputError as exc:
            raise InputError(f"goal: {exc.message}") from None
        bit = 1 << (r * cols + c)
        if not holes & bit:
            raise InputError(f"the goal hole {goal_text.strip().lower()} is not a hole of the board",
                             where=f"row {r + 1}, column {c + 1}")
        goal = bit
    if goal and goal.bit_count() > pegs.bit_count():
        raise InputError(f"the goal has {goal.bit_count()} pegs but the start has only "
                         f"{pegs.bit_count()}; a jump only ever removes pegs")
    return PegInstance(geometry, rows, cols, holes, pegs, goal)


def _looks_like_name(value: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z][0-9]+", value.strip()))


def _parse_geometry(value: str) -> str:
    name = _ALIASES.get(value.strip().lower())
    if name is None:
        raise InputError(f"unknown geometry {value.strip()[:40]!r}; choose one of: "
                         f"{', '.join(GEOMETRIES)}")
    return name


def _parse_drawing(lines: list[str], geometry: str, what: str) -> tuple[int, int, int, int]:
    """(rows, cols, holes, pegs) of a drawing; InputError with row/column on bad input."""
    if len(lines) > MAX_SIDE:
        raise InputError(f"the {what} has {len(lines)} rows; the limit is {MAX_SIDE}")
    if geometry == "triangular":
        lines = [line.rstrip() for line in lines]
    # Characters first: text that is no drawing at all ("nonsense board") should hear what a
    # drawing looks like, not that it is too wide.
    for r, line in enumerate(lines[:MAX_SIDE + 1]):
        for c, ch in enumerate(line):
            if ch not in _PEG + "O" + _EMPTY + _NONE:
                raise InputError(f"unknown character {ch!r} in the {what}; draw it row by row with "
                                 f"o for a peg, . for an empty hole and _ or a space for no hole, "
                                 f"rows separated by / or newlines (e.g. {_EXAMPLE})",
                                 where=f"{what} row {r + 1}, column {c + 1}")
    widths = [len(line) for line in lines]
    cols = max(widths)
    if cols > MAX_SIDE:
        row = widths.index(cols) + 1
        raise InputError(f"the {what} is {cols} cells wide; the limit is {MAX_SIDE} (one character a "
                         f"cell: o a peg, . an empty hole, _ no hole; e.g. {_EXAMPLE})",
                         where=f"{what} row {row}")
    if geometry != "triangular" and min(widths) != cols:
        row = next(i for i, w in enumerate(widths) if w != cols) + 1
        raise InputError(f"{what} row {row} has {plural(widths[row - 1], 'cell')} but row "
                         f"{widths.index(cols) + 1} has {cols}: the rows of a {geometry} board "
                         f"must all have the same length (draw missing holes with _)",
                         where=f"{what} row {row}")
    holes = pegs = 0
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            bit = 1 << (r * cols + c)
            if ch == _PEG or ch == "O":
                holes |= bit
                pegs |= bit
            elif ch == _EMPTY:
                holes |= bit
            elif ch not in _NONE:
                raise InputError(f"unknown character {ch!r} in the {what}; use o for a peg, . for "
                                 f"an empty hole and _ or a space for no hole",
                                 where=f"{what} row {r + 1}, column {c + 1}")
    return len(lines), cols, holes, pegs


def _explain_shape_mismatch(rows, cols, holes, grows, gcols, gholes):
    if (grows, gcols) != (rows, cols):
        raise InputError(f"the goal pattern is {grows} x {gcols} but the board is {rows} x {cols}; "
                         f"draw the goal with the same holes as the board")
    diff = holes ^ gholes
    cell = (diff & -diff).bit_length() - 1
    r, c = divmod(cell, cols)
    has = "has a hole" if holes >> cell & 1 else "has no hole"
    raise InputError(f"the goal pattern does not match the board: the board {has} at "
                     f"{cell_name(r, c)}", where=f"goal row {r + 1}, column {c + 1}")


def drawing(inst: PegInstance, pegs: int) -> list[str]:
    """The rows of a drawing of ``pegs`` on the instance's holes (canonical characters)."""
    out = []
    for r in range(inst.rows):
        chars = []
        for c in range(inst.cols):
            bit = 1 << (r * inst.cols + c)
            chars.append("_" if not inst.holes & bit else ("o" if pegs & bit else "."))
        out.append("".join(chars))
    if inst.geometry == "triangular":
        # Left-justified triangle rows end early; the last row keeps the full width so the
        # drawing still says how wide the grid is.
        out = [row.rstrip("_") or "_" for row in out[:-1]] + out[-1:]
    return out


def format_instance(inst: PegInstance) -> str:
    """The canonical text of an instance (``parse_instance`` gives it back exactly)."""
    lines = [f"geometry: {inst.geometry}"]
    kind = inst.goal_kind
    if kind == "any":
        lines.append("goal: any")
    elif kind == "hole":
        r, c = divmod(inst.goal.bit_length() - 1, inst.cols)
        lines.append(f"goal: {cell_name(r, c)}")
    else:
        lines.append("goal:")
        lines.extend(drawing(inst, inst.goal))
    lines.append("board:")
    lines.extend(drawing(inst, inst.pegs))
    return "\n".join(lines)
