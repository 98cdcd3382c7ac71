"""The rules of peg solitaire on a :class:`~.board.PegInstance`: moves, jumps, validity.

A move is one jump written ``from-to`` with hole names (``f4-d4``); the jumped hole is the one
between them and is implied.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine import InputError

from .board import MAX_HOLES, PegInstance, cell_name, parse_cell_name

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
        raise InputError("a move must be text like f4-d4")
    m = _MOVE.match(move)
    if not m:
        shown = move if len(move) <= 20 else move[:20] + "..."
        raise InputError(f"{shown!r} is not a jump; write it as from-to with hole names, "
                         f"like f4-d4")
    cells = []
    for name in m.groups():
        r, c = parse_cell_name(name, state.rows, state.cols)
        cell = r * state.cols + c
        if not state.holes >> cell & 1:
            raise InputError(f"{name.lower()} is not a hole of this board")
        cells.append(cell)
    frm, to = cells
    a, b = (n.lower() for n in m.groups())
    over = state.board.jump_by_cells.get((frm, to))
    if over is None:
        raise InputError(f"{a}-{b} is not a jump: the landing hole must be two holes away in a "
                         f"straight line ({_directions_words(state.geometry)}), with a hole "
                         f"between")
    orow, ocol = divmod(over, state.cols)
    if not state.pegs >> frm & 1:
        raise InputError(f"{a}-{b}: there is no peg at {a} to jump")
    if not state.pegs >> over & 1:
        raise InputError(f"{a}-{b}: there is no peg at {cell_name(orow, ocol)} to jump over")
    if state.pegs >> to & 1:
        raise InputError(f"{a}-{b}: the landing hole {b} is not empty")
    return frm, over, to


def _directions_words(geometry: str) -> str:
    return {"square": "along a row or a column",
            "diagonal": "along a row, a column or a diagonal",
            "triangular": "along a row, a column or the down-right diagonal of the drawing"}[geometry]


def apply_jump(state: PegInstance, move: str) -> PegInstance:
    frm, over, to = parse_jump(state, move)
    pegs = state.pegs & ~((1 << frm) | (1 << over)) | (1 << to)
    return replace(state, pegs=pegs)


def validate(inst: PegInstance) -> PegInstance:
    """Raise InputError unless the instance could have come from the parser (used by edits)."""
    if inst.pegs == 0:
        raise InputError("the board needs at least one peg")
    if inst.holes.bit_count() > MAX_HOLES:
        raise InputError(f"the board would have {inst.holes.bit_count()} holes; the limit is "
                         f"{MAX_HOLES}")
    if inst.pegs & ~inst.holes or inst.goal & ~inst.holes:
        raise InputError("pegs and goal pegs must stand in holes")
    if inst.goal.bit_count() > inst.pegs.bit_count():
        raise InputError(f"the goal has {inst.goal.bit_count()} pegs but the board has only "
                         f"{inst.pegs.bit_count()}")
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
