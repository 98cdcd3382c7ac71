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

from engine import InputError, format_number

from .board import GEOMETRIES, MAX_HOLES, MAX_SIDE, PegInstance, cell_name, parse_cell_name
from .i18n import _, named, ngettext
from .wording import GEOMETRY_LABELS

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
        raise InputError(_("the instance must be text"))
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
                raise InputError(_("'{key}:' is given twice").format(key=key))
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
        raise InputError(_("no board given; draw it row by row with o (peg), . (empty hole) and "
                           "_ (no hole), e.g. 'board: ooo/o.o/ooo'"))
    rows, cols, holes, pegs = _parse_drawing(board_rows, geometry, "board")
    if pegs == 0:
        raise InputError(_("the board has no peg; draw pegs with o"))
    if holes.bit_count() > MAX_HOLES:
        raise InputError(_("the board has {count} holes; the limit is {limit}").format(
            count=holes.bit_count(), limit=MAX_HOLES))

    goal = 0
    if goal_rows:
        if goal_text is not None:
            raise InputError(_("the goal is given both as a hole name and as a pattern"))
        grows, gcols, gholes, gpegs = _parse_drawing(goal_rows, geometry, "goal")
        if (grows, gcols) != (rows, cols) or gholes != holes:
            _explain_shape_mismatch(rows, cols, holes, grows, gcols, gholes)
        if gpegs == 0:
            raise InputError(_("the goal pattern has no peg"))
        goal = gpegs
    elif goal_text is not None and goal_text.lower() != "any":
        try:
            r, c = parse_cell_name(goal_text, rows, cols)
        except InputError as exc:
            raise InputError(_("goal: {error}").format(error=exc.message)) from None
        bit = 1 << (r * cols + c)
        if not holes & bit:
            raise InputError(_("the goal hole {hole} is not a hole of the board").format(
                hole=goal_text.strip().lower()),
                             where=f"row {r + 1}, column {c + 1}",
                             where_text=_("row {row}, column {column}").format(row=r + 1, column=c + 1))
        goal = bit
    if goal and goal.bit_count() > pegs.bit_count():
        raise InputError(_("the goal has {goal} pegs but the start has only {start}; a jump only "
                           "ever removes pegs").format(goal=goal.bit_count(), start=pegs.bit_count()))
    return PegInstance(geometry, rows, cols, holes, pegs, goal)


def _looks_like_name(value: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z][0-9]+", value.strip()))


def _parse_geometry(value: str) -> str:
    name = _ALIASES.get(value.strip().lower())
    if name is None:
        raise InputError(_("unknown geometry {name}; choose one of: {geometries}").format(
            name=repr(value.strip()[:40]), geometries=named(GEOMETRIES, GEOMETRY_LABELS)))
    return name


def _too_many_rows(what: str) -> str:
    if what == "goal":
        return _("the goal has {rows} rows; the limit is {limit}")
    return _("the board has {rows} rows; the limit is {limit}")


def _unknown_character(what: str) -> str:
    if what == "goal":
        return _("unknown character {char} in the goal; draw it row by row with o for a peg, . for an "
                 "empty hole and _ or a space for no hole, rows separated by / or newlines (e.g. "
                 "{example})")
    return _("unknown character {char} in the board; draw it row by row with o for a peg, . for an "
             "empty hole and _ or a space for no hole, rows separated by / or newlines (e.g. "
             "{example})")


def _too_wide(what: str) -> str:
    if what == "goal":
        return _("the goal is {cols} cells wide; the limit is {limit} (one character a cell: o a "
                 "peg, . an empty hole, _ no hole; e.g. {example})")
    return _("the board is {cols} cells wide; the limit is {limit} (one character a cell: o a "
             "peg, . an empty hole, _ no hole; e.g. {example})")


def _uneven_rows(what: str, geometry: str, cells: int) -> str:
    # One sentence per drawing and geometry: the translator sees each whole.
    if what == "goal":
        if geometry == "diagonal":
            return ngettext("goal row {row} has {cells} cell but row {widest} has {cols}: the rows of "
                            "a diagonal board must all have the same length (draw missing holes "
                            "with _)",
                            "goal row {row} has {cells} cells but row {widest} has {cols}: the rows "
                            "of a diagonal board must all have the same length (draw missing holes "
                            "with _)", cells)
        return ngettext("goal row {row} has {cells} cell but row {widest} has {cols}: the rows of a "
                        "square board must all have the same length (draw missing holes with _)",
                        "goal row {row} has {cells} cells but row {widest} has {cols}: the rows of a "
                        "square board must all have the same length (draw missing holes with _)",
                        cells)
    if geometry == "diagonal":
        return ngettext("board row {row} has {cells} cell but row {widest} has {cols}: the rows of a "
                        "diagonal board must all have the same length (draw missing holes with _)",
                        "board row {row} has {cells} cells but row {widest} has {cols}: the rows of "
                        "a diagonal board must all have the same length (draw missing holes with _)",
                        cells)
    return ngettext("board row {row} has {cells} cell but row {widest} has {cols}: the rows of a "
                    "square board must all have the same length (draw missing holes with _)",
                    "board row {row} has {cells} cells but row {widest} has {cols}: the rows of a "
                    "square board must all have the same length (draw missing holes with _)", cells)


def _unknown_character_short(what: str) -> str:
    if what == "goal":
        return _("unknown character {char} in the goal; use o for a peg, . for an empty hole and _ or "
                 "a space for no hole")
    return _("unknown character {char} in the board; use o for a peg, . for an empty hole and _ or a "
             "space for no hole")


def _place(what: str, row: int, col: int | None = None) -> dict[str, str]:
    """The ``where`` and ``where_text`` of an InputError about a row or cell of the drawing of
    the board or (``what="goal"``) of the goal: ``where`` in English for programs ("board row
    2, column 3"), ``where_text`` the same place in the reader's language, one whole phrase."""
    goal = what == "goal"
    if col is None:
        text = _("goal row {row}") if goal else _("board row {row}")
        return {"where": f"{what} row {row}", "where_text": text.format(row=row)}
    text = _("goal row {row}, column {column}") if goal else _("board row {row}, column {column}")
    return {"where": f"{what} row {row}, column {col}", "where_text": text.format(row=row, column=col)}


def _parse_drawing(lines: list[str], geometry: str, what: str) -> tuple[int, int, int, int]:
    """(rows, cols, holes, pegs) of a drawing; InputError with row/column on bad input.

    ``what`` is ``"board"`` or ``"goal"``: each message exists whole for both (and the ``where``
    fields, for programs, name it in English)."""
    if len(lines) > MAX_SIDE:
        raise InputError(_too_many_rows(what).format(rows=len(lines), limit=MAX_SIDE))
    if geometry == "triangular":
        lines = [line.rstrip() for line in lines]
    # Characters first: text that is no drawing at all ("nonsense board") should hear what a
    # drawing looks like, not that it is too wide.
    for r, line in enumerate(lines[:MAX_SIDE + 1]):
        for c, ch in enumerate(line):
            if ch not in _PEG + "O" + _EMPTY + _NONE:
                raise InputError(_unknown_character(what).format(char=repr(ch), example=_EXAMPLE),
                                 **_place(what, r + 1, c + 1))
    widths = [len(line) for line in lines]
    cols = max(widths)
    if cols > MAX_SIDE:
        row = widths.index(cols) + 1
        raise InputError(_too_wide(what).format(cols=cols, limit=MAX_SIDE, example=_EXAMPLE),
                         **_place(what, row))
    if geometry != "triangular" and min(widths) != cols:
        row = next(i for i, w in enumerate(widths) if w != cols) + 1
        cells = widths[row - 1]
        raise InputError(_uneven_rows(what, geometry, cells).format(
                             row=row, cells=format_number(cells), widest=widths.index(cols) + 1, cols=cols),
                         **_place(what, row))
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
                raise InputError(_unknown_character_short(what).format(char=repr(ch)),
                                 **_place(what, r + 1, c + 1))
    return len(lines), cols, holes, pegs


def _explain_shape_mismatch(rows, cols, holes, grows, gcols, gholes):
    if (grows, gcols) != (rows, cols):
        raise InputError(_("the goal pattern is {goal_rows} x {goal_cols} but the board is {rows} x "
                           "{cols}; draw the goal with the same holes as the board").format(
                               goal_rows=grows, goal_cols=gcols, rows=rows, cols=cols))
    diff = holes ^ gholes
    cell = (diff & -diff).bit_length() - 1
    r, c = divmod(cell, cols)
    if holes >> cell & 1:
        message = _("the goal pattern does not match the board: the board has a hole at {hole}")
    else:
        message = _("the goal pattern does not match the board: the board has no hole at {hole}")
    raise InputError(message.format(hole=cell_name(r, c)), **_place("goal", r + 1, c + 1))


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
