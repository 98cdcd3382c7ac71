"""The rules of peg solitaire on a :class:`~.board.PegInstance`: moves, jumps, validity.

A move is one jump written ``from-to`` with hole names (``f4-d4``); the jumped hole is the one
between them and is implied.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine import InputError

from .board import MAX_HOLES, PegInstance, cell_name, parse_cell_name
from .i18n import _

_MOVE = re.compile(r"^\s*([A-Za-z][0-9]{1,2})\s*-\s*([A-Za-z][0-9]{1,2})\s*$")


def legal_moves(state: PegInstance) -> list[str]:
    """Every legal jump of ``state``, in the board's jump order."""
    board = state.board
    pegs = board.to_compact(state.pegs)
    out = []
    for f, o, t in board.jumps:
        if pegs >> f & 1 and pegs >> o & 1 and not pegs >> t & 1:
            out.append(f"{board.names[f]}-{board.names[t]}")
    return out


def parse_jump(state: PegInstance, move: str) -> tuple[int, int, int]:
    """(from, over, to) grid cells of a jump written ``f4-d4``; InputError if it is illegal."""
    if not isinstance(move, str):
        raise InputError(_("a move must be text like f4-d4"))
    m = _MOVE.match(move)
    if not m:
        shown = move if len(move) <= 20 else move[:20] + "..."
        raise InputError(_("{move} is not a jump; write it as from-to with hole names, "
                           "like f4-d4").format(move=repr(shown)))
    cells = []
    for name in m.groups():
        r, c = parse_cell_name(name, state.rows, state.cols)
        cell = r * state.cols + c
        if not state.holes >> cell & 1:
            raise InputError(_("{hole} is not a hole of this board").format(hole=name.lower()))
        cells.append(cell)
    frm, to = cells
    a, b = (n.lower() for n in m.groups())
    over = state.board.jump_by_cells.get((frm, to))
    if over is None:
        raise InputError(_not_a_jump(state.geometry).format(move=f"{a}-{b}"))
    orow, ocol = divmod(over, state.cols)
    if not state.pegs >> frm & 1:
        raise InputError(_("{move}: there is no peg at {hole} to jump").format(move=f"{a}-{b}", hole=a))
    if not state.pegs >> over & 1:
        raise InputError(_("{move}: there is no peg at {hole} to jump over").format(
            move=f"{a}-{b}", hole=cell_name(orow, ocol)))
    if state.pegs >> to & 1:
        raise InputError(_("{move}: the landing hole {hole} is not empty").format(move=f"{a}-{b}", hole=b))
    return frm, over, to


def _not_a_jump(geometry: str) -> str:
    """Why a from-to pair is no jump, in the directions of the geometry (one whole sentence each)."""
    if geometry == "diagonal":
        return _("{move} is not a jump: the landing hole must be two holes away in a straight line "
                 "(along a row, a column or a diagonal), with a hole between")
    if geometry == "triangular":
        return _("{move} is not a jump: the landing hole must be two holes away in a straight line "
                 "(along a row, a column or the down-right diagonal of the drawing), with a hole "
                 "between")
    return _("{move} is not a jump: the landing hole must be two holes away in a straight line "
             "(along a row or a column), with a hole between")


def apply_jump(state: PegInstance, move: str) -> PegInstance:
    frm, over, to = parse_jump(state, move)
    pegs = state.pegs & ~((1 << frm) | (1 << over)) | (1 << to)
    return replace(state, pegs=pegs)


def validate(inst: PegInstance) -> PegInstance:
    """Raise InputError unless the instance could have come from the parser (used by edits)."""
    if inst.pegs == 0:
        raise InputError(_("the board needs at least one peg"))
    if inst.holes.bit_count() > MAX_HOLES:
        raise InputError(_("the board would have {count} holes; the limit is {limit}").format(
            count=inst.holes.bit_count(), limit=MAX_HOLES))
    if inst.pegs & ~inst.holes or inst.goal & ~inst.holes:
        raise InputError(_("pegs and goal pegs must stand in holes"))
    if inst.goal.bit_count() > inst.pegs.bit_count():
        raise InputError(_("the goal has {goal} pegs but the board has only {pegs}").format(
            goal=inst.goal.bit_count(), pegs=inst.pegs.bit_count()))
    return inst


def group_jumps(moves: list[str]) -> list[str]:
    """Consecutive jumps by the same peg as one multi-jump move: ``d2-d4``, ``d4-f4`` ->
    ``d2-d4-f4``."""
    grouped: list[list[str]] = []
    for move in moves:
        a, b = (part.strip().lower() for part in move.split("-"))
        if grouped and grouped[-1][-1] == a:
            grouped[-1].append(b)
        else:
            grouped.append([a, b])
    return ["-".join(g) for g in grouped]
