"""The peg solitaire Puzzle: instances, presets, random problems, rules, notes and editing."""

from __future__ import annotations

import random as _random
import re
from dataclasses import replace
from typing import Any, Mapping, Sequence

from engine import Assessment, EditMode, EditResult, EditTool, InputError, Puzzle

from .board import GEOMETRIES, LIMITS_TEXT, MAX_HOLES, MAX_SIDE, PegInstance, board_for, cell_name, parse_cell_name
from .classes import class_verdict
from .parse import format_instance, parse_instance
from .presets import BOARDS, PRESETS
from .rules import apply_jump, group_jumps, legal_moves, parse_jump, validate
from .wording import no_solution_sentence

#: Boards random() picks from by default: small ones the default solver answers at once.
DEFAULT_RANDOM_BOARDS = ("triangle-5", "english")


class PegSolitaire(Puzzle):
    id = "pegs"
    title = "Peg solitaire"
    rules = ("Jump a peg over a neighbouring peg into an empty hole just beyond it, in a straight "
             "line; the jumped peg is removed. Reach the goal: one peg left (anywhere or in a "
             "given hole) or a given pattern.")
    notation = ("one jump per move, written from-to with hole names (column letter, row number "
                "from the top), e.g. f4-d4; the jumped hole between them is implied")
    limits = LIMITS_TEXT
    random_options = {
        "board": "the board Random plays on: " + ", ".join(BOARDS),
        "pegs": "pegs at the start (2 up to the board's holes minus one)",
    }

    # -- instances ---------------------------------------------------------------------------

    def parse(self, text: str) -> PegInstance:
        return parse_instance(text)

    def format(self, instance: PegInstance) -> str:
        return format_instance(instance)

    def presets(self) -> Mapping[str, str]:
        return dict(PRESETS)

    def random(self, seed: int, options: Mapping[str, str] | None = None) -> PegInstance:
        """Play random reverse jumps from a single peg: the result is solvable by construction
        (the goal is that peg's hole)."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.random_options))
        if unknown:
            raise InputError(f"unknown option {unknown[0][:30]!r}; known options: "
                             f"{', '.join(self.random_options)}")
        rng = _random.Random(seed)
        name = options.get("board")
        if name is None:
            name = DEFAULT_RANDOM_BOARDS[rng.randrange(len(DEFAULT_RANDOM_BOARDS))]
        elif name not in BOARDS:
            raise InputError(f"unknown board {str(name)[:30]!r}; choose one of: {', '.join(BOARDS)}")
        geometry, drawing = BOARDS[name]
        shape = parse_instance(f"geometry: {geometry}; board: {drawing}")
        board = shape.board
        if "pegs" in options:
            raw = str(options["pegs"])
            if not re.fullmatch(r"[0-9]{1,3}", raw.strip()):
                raise InputError(f"pegs must be a whole number from 2 to {board.n - 1}")
            target = int(raw)
            if not 2 <= target <= board.n - 1:
                raise InputError(f"pegs must be from 2 to {board.n - 1} on the {name} board")
        elif "board" in options:
            # A chosen board: about a third to a half of its holes filled (still quick to solve).
            target = min(board.n - 1, rng.randint(max(2, board.n // 3), board.n // 2 + 2))
        else:
            # Small enough that the default solver answers well within a second.
            target = rng.randint(8, 13) if board.n > 20 else rng.randint(6, board.n - 1)
        return _random_backward(shape, target, rng)

    def notes(self, instance: PegInstance) -> Sequence[str]:
        board = instance.board
        start, goal = board.to_compact(instance.pegs), board.to_compact(instance.goal)
        jumps = instance.peg_count - (goal.bit_count() or 1)
        notes = [f"{_count(instance.peg_count, 'peg')} on {_count(board.n, 'hole')} "
                 f"({instance.geometry} geometry); a solution has exactly {_count(jumps, 'jump')}."]
        verdict = class_verdict(board, start, goal)
        if not verdict.feasible:
            # One plain sentence; the proof comes with the solver's answer, behind "Why?".
            sentence = no_solution_sentence(instance).removeprefix("No: ").rstrip(".")
            notes.append(f"This cannot be solved: {sentence} (position classes rule it out).")
        elif goal == 0 or goal.bit_count() == 1:
            holes = list(verdict.holes_by_class)
            where = holes[0] if len(holes) == 1 else ", ".join(holes[:-1]) + " or " + holes[-1]
            notes.append(f"A single last peg can only end on {where} (position classes).")
        return notes

    # -- rules -------------------------------------------------------------------------------

    def legal_moves(self, state: PegInstance) -> Sequence[str]:
        return legal_moves(state)

    def apply_move(self, state: PegInstance, move: str) -> PegInstance:
        return apply_jump(state, move)

    def is_solved(self, state: PegInstance) -> bool:
        return state.is_solved()

    def assess(self, state: PegInstance, *, budget: float = 0.05) -> Assessment:
        """Can the goal still be reached? Class test, pagodas, backward set, capped search
        (see :mod:`.verdict`)."""
        from .verdict import assess  # the search machinery loads on the first verdict only

        return assess(state, budget=budget)

    def describe_solution(self, instance: PegInstance, moves: Sequence[str]) -> Mapping[str, Any]:
        grouped = group_jumps(list(moves))
        return {"jumps": len(moves), "moves": len(grouped), "grouped": grouped}

    def describe_move(self, state: PegInstance, move: str) -> str:
        """"peg d2 jumps over d3 to d4"."""
        frm, over, to = (cell_name(*divmod(cell, state.cols)) for cell in parse_jump(state, move))
        return f"peg {frm} jumps over {over} to {to}"

    # -- editing -----------------------------------------------------------------------------

    def edit_modes(self) -> Sequence[EditMode]:
        return (EditMode("play", "Play: click a peg, then where it lands"),
                EditMode("toggle", "Edit holes: peg, empty, no hole"),
                EditMode("goal", "Set the goal hole"))

    def edit_tools(self, instance: PegInstance) -> Sequence[EditTool]:
        sizes = ("5x5", "7x7", "9x9", "12x12")
        return (
            EditTool("Geometry", choices=tuple((g, f"geometry:{g}") for g in GEOMETRIES)),
            # Not "Board": that is the name of the page's Random option (a board for Random).
            EditTool("Load board", choices=tuple((n, f"board:{n}") for n in BOARDS)),
            EditTool("Resize", choices=tuple((s, f"resize:{s}") for s in sizes)),
            EditTool("Goal: one peg anywhere", "goal:any"),
            EditTool("Reset (fill every hole but the goal)", "reset"),
        )

    def edit(self, instance: PegInstance, action: str, *, mode: str | None = None,
             selection: str | None = None) -> EditResult:
        if not isinstance(action, str):
            raise InputError("an edit action must be text")
        name, _, arg = action.strip().partition(":")
        arg = arg.strip()
        if name == "hole" and arg:
            r, c = parse_cell_name(arg, instance.rows, instance.cols)
            cell = r * instance.cols + c
            if mode in (None, "play"):
                return _play_click(instance, arg.lower(), cell, selection)
            if mode == "toggle":
                return _toggle(instance, cell)
            if mode == "goal":
                return _set_goal(instance, cell, arg.lower())
            raise InputError(f"unknown edit mode {str(mode)[:20]!r}; use play, toggle or goal")
        if name == "geometry" and arg:
            geometry = arg.lower()
            if geometry not in GEOMETRIES:
                raise InputError(f"unknown geometry {arg[:20]!r}; choose one of: {', '.join(GEOMETRIES)}")
            return EditResult(replace(instance, geometry=geometry),
                              message=f"Jumps now follow the {geometry} geometry.")
        if name == "board" and arg:
            if arg not in BOARDS:
                raise InputError(f"unknown board {arg[:30]!r}; choose one of: {', '.join(BOARDS)}")
            return EditResult(parse_instance(PRESETS.get(arg) or _board_text(arg)))
        if name == "resize" and arg:
            return EditResult(_resized(instance, arg))
        if name == "goal" and arg == "any":
            return EditResult(replace(instance, goal=0), message="Goal: one peg left anywhere.")
        if name == "reset" and not arg:
            return EditResult(_reset(instance))
        shown = action if len(action) <= 30 else action[:30] + "..."
        raise InputError(f"unknown edit action {shown!r}; expected hole:d4, geometry:NAME, "
                         f"board:NAME, resize:RxC, goal:any or reset")


def _count(n: int, noun: str) -> str:
    """``"1 jump"``, ``"31 jumps"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _board_text(name: str) -> str:
    geometry, drawing = BOARDS[name]
    return f"geometry: {geometry}; goal: any; board: {drawing}"


def _random_backward(shape: PegInstance, target: int, rng: _random.Random) -> PegInstance:
    """From one peg at a random hole, play random reverse jumps until ``target`` pegs."""
    board = shape.board
    best = None
    for _ in range(20):  # a walk can get stuck early; keep the longest of a few tries
        goal_hole = rng.randrange(board.n)
        pos = 1 << goal_hole
        while pos.bit_count() < target:
            options = [(f, o, t) for f, o, t in board.jumps
                       if pos >> t & 1 and not pos >> f & 1 and not pos >> o & 1]
            if not options:
                break
            f, o, t = options[rng.randrange(len(options))]
            pos ^= (1 << f) | (1 << o) | (1 << t)
        if best is None or pos.bit_count() > best[0].bit_count():
            best = (pos, goal_hole)
        if pos.bit_count() >= target:
            break
    pos, goal_hole = best
    return replace(shape, pegs=board.to_grid(pos), goal=board.to_grid(1 << goal_hole))


def _play_click(inst: PegInstance, name: str, cell: int, selection: str | None) -> EditResult:
    if not inst.holes >> cell & 1:
        raise InputError(f"{name} is not a hole")
    is_peg = bool(inst.pegs >> cell & 1)
    if selection:
        if selection.lower() == name:
            return EditResult(inst, message="Selection cleared.")
        if not is_peg:
            after = apply_jump(inst, f"{selection}-{name}")
            return EditResult(after, message=f"Jumped {selection.lower()}-{name}.")
    if not is_peg:
        raise InputError(f"{name} is empty: click a peg first, then the hole it jumps to")
    targets = [m.split("-")[1] for m in legal_moves(inst) if m.split("-")[0] == name]
    if not targets:
        return EditResult(inst, selection=name,
                          message=f"Peg {name} selected, but it has no jump.")
    return EditResult(inst, selection=name,
                      message=f"Peg {name} selected: click where it lands ({', '.join(targets)}).")


def _toggle(inst: PegInstance, cell: int) -> EditResult:
    bit = 1 << cell
    holes, pegs, goal = inst.holes, inst.pegs, inst.goal
    message = None
    if pegs & bit:  # peg -> empty hole
        pegs &= ~bit
    elif holes & bit:  # empty hole -> no hole
        holes &= ~bit
        if goal & bit:
            goal = 0
            message = "The goal hole was removed; the goal is now one peg anywhere."
    else:  # no hole -> peg
        holes |= bit
        pegs |= bit
    if goal.bit_count() > pegs.bit_count():
        goal, message = 0, "The goal had more pegs than the board; it is now one peg anywhere."
    return EditResult(validate(replace(inst, holes=holes, pegs=pegs, goal=goal)), message=message)


def _set_goal(inst: PegInstance, cell: int, name: str) -> EditResult:
    if not inst.holes >> cell & 1:
        raise InputError(f"{name} is not a hole, so it cannot be the goal")
    if inst.goal == 1 << cell:
        return EditResult(replace(inst, goal=0), message="Goal: one peg left anywhere.")
    return EditResult(replace(inst, goal=1 << cell), message=f"Goal: one peg left at {name}.")


def _resized(inst: PegInstance, arg: str) -> PegInstance:
    m = re.fullmatch(r"([0-9]{1,3})\s*[xX]\s*([0-9]{1,3})", arg)
    if not m:
        raise InputError("resize takes rows x columns, e.g. resize:7x7")
    rows, cols = int(m.group(1)), int(m.group(2))
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InputError(f"boards are 1 to {MAX_SIDE} rows and columns")
    holes = pegs = goal = 0
    for r in range(rows):
        for c in range(cols):
            bit = 1 << (r * cols + c)
            if r < inst.rows and c < inst.cols:
                old = 1 << (r * inst.cols + c)
                holes |= bit if inst.holes & old else 0
                pegs |= bit if inst.pegs & old else 0
                goal |= bit if inst.goal & old else 0
            elif holes.bit_count() < MAX_HOLES:
                holes |= bit  # new cells are holes with pegs (up to the hole limit)
                pegs |= bit
    if pegs == 0:
        holes |= 1
        pegs |= 1
    if goal.bit_count() > pegs.bit_count() or goal & ~holes:
        goal = 0
    return validate(PegInstance(inst.geometry, rows, cols, holes, pegs, goal))


def _reset(inst: PegInstance) -> PegInstance:
    """Every hole filled except one: the goal hole, or the middle hole for other goals."""
    board = board_for(inst.geometry, inst.rows, inst.cols, inst.holes)
    if inst.goal.bit_count() == 1:
        vacancy = inst.goal
    else:
        mr = sum(r for r, _ in board.coords) / board.n
        mc = sum(c for _, c in board.coords) / board.n
        k = min(range(board.n), key=lambda k: ((board.coords[k][0] - mr) ** 2
                                               + (board.coords[k][1] - mc) ** 2, k))
        vacancy = 1 << board.cells[k]
    pegs = inst.holes & ~vacancy
    if pegs == 0:
        pegs = inst.holes
    goal = inst.goal if inst.goal.bit_count() <= pegs.bit_count() else 0
    return validate(replace(inst, pegs=pegs, goal=goal))
