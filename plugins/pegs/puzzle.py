"""The peg solitaire Puzzle: instances, presets, random problems, rules, notes and editing."""

from __future__ import annotations

import random as _random
import re
from dataclasses import replace
from typing import Any, Mapping, Sequence

from engine import N_, Assessment, EditMode, EditResult, EditTool, InputError, Puzzle, use_locale

from .board import GEOMETRIES, LIMITS_TEXT, MAX_HOLES, MAX_SIDE, PegInstance, board_for, cell_name, parse_cell_name
from .classes import class_verdict
from .i18n import CATALOGUE, _, either, join_names, named
from .parse import format_instance, parse_instance
from .presets import BOARD_LABELS, BOARDS, PRESET_LABELS, PRESETS
from .rules import apply_jump, group_jumps, legal_moves, parse_jump, validate
from .wording import GEOMETRY_LABELS, count_holes, count_jumps, count_pegs, geometry_label, no_solution_clause

#: Boards random() picks from by default: small ones the default solver answers at once.
DEFAULT_RANDOM_BOARDS = ("triangle-5", "english")
# The texts below name the boards and the limits: each is one whole message to translate.
assert tuple(BOARDS) == ("english", "european", "wiegleb", "triangle-5", "triangle-6", "diamond",
                         "square-6"), "the random_options text names the old boards"



#: The names of the solvers' stats and of the solution's details, as the page shows them (the host
#: looks each one up in this plugin's catalogue, underscores read as spaces).
SHOWN_NAMES = (N_("dead"), N_("meet pegs"), N_("backward positions"), N_("pagoda prunes"), N_("found by"),
               N_("jumps"), N_("moves"), N_("grouped"))


class PegSolitaire(Puzzle):
    id = "pegs"
    # The host shows these through `catalogue`, in the reader's language (docs/plugins.md):
    # N_ marks them for `make translations` without translating them here.
    catalogue = CATALOGUE
    title = N_("Peg solitaire")
    rules = N_("Jump a peg over a neighbouring peg into an empty hole just beyond it, in a straight "
               "line; the jumped peg is removed. Reach the goal: one peg left (anywhere or in a "
               "given hole) or a given pattern.")
    notation = N_("one jump per move, written from-to with hole names (column letter, row number "
                  "from the top), e.g. f4-d4; the jumped hole between them is implied")
    limits = LIMITS_TEXT
    random_options = {
        "board": N_("the board Random plays on: english, european, wiegleb, triangle-5, triangle-6, "
                    "diamond, square-6"),
        "pegs": N_("pegs at the start (2 up to the board's holes minus one)"),
    }
    random_option_labels = {"board": N_("Board"), "pegs": N_("Pegs")}

    # -- instances ---------------------------------------------------------------------------

    def parse(self, text: str) -> PegInstance:
        return parse_instance(text)

    def format(self, instance: PegInstance) -> str:
        return format_instance(instance)

    def presets(self) -> Mapping[str, str]:
        return dict(PRESETS)

    def preset_label(self, name: str) -> str:
        return _(PRESET_LABELS.get(name, name))

    def random(self, seed: int, options: Mapping[str, str] | None = None) -> PegInstance:
        """Play random reverse jumps from a single peg: the result is solvable by construction
        (the goal is that peg's hole)."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.random_options))
        if unknown:
            raise InputError(_("unknown option {name}; known options: {known}").format(
                name=repr(unknown[0][:30]), known=", ".join(self.random_options)))
        rng = _random.Random(seed)
        name = options.get("board")
        if name is None:
            name = DEFAULT_RANDOM_BOARDS[rng.randrange(len(DEFAULT_RANDOM_BOARDS))]
        else:
            name = board_by_name(str(name))
        if name not in BOARDS:
            raise InputError(_("unknown board {name}; choose one of: {boards}").format(
                name=repr(str(name)[:30]), boards=named(BOARDS, BOARD_LABELS)))
        geometry, drawing = BOARDS[name]
        shape = parse_instance(f"geometry: {geometry}; board: {drawing}")
        board = shape.board
        if "pegs" in options:
            raw = str(options["pegs"])
            if not re.fullmatch(r"[0-9]{1,3}", raw.strip()):
                raise InputError(_("pegs must be a whole number from 2 to {top}").format(top=board.n - 1))
            target = int(raw)
            if not 2 <= target <= board.n - 1:
                raise InputError(_("pegs must be from 2 to {top} on the {board} board").format(
                    top=board.n - 1, board=_(BOARD_LABELS[name])))
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
        # Three counts in one sentence: each count is a phrase of its own, agreeing with its
        # number (CLDR plurals), placed whole into the sentence.
        notes = [_("{pegs} on {holes} ({geometry} geometry); a solution has exactly {jumps}.").format(
            pegs=count_pegs(instance.peg_count), holes=count_holes(board.n),
            geometry=geometry_label(instance.geometry), jumps=count_jumps(jumps))]
        verdict = class_verdict(board, start, goal)
        if not verdict.feasible:
            # One plain sentence; the proof comes with the solver's answer, behind "Why?".
            notes.append(_("This cannot be solved: {why} (position classes rule it out).").format(
                why=no_solution_clause(instance)))
        elif goal == 0 or goal.bit_count() == 1:
            notes.append(_("A single last peg can only end on {holes} (position classes).").format(
                holes=either(list(verdict.holes_by_class))))
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
        return _("peg {src} jumps over {over} to {dst}").format(src=frm, over=over, dst=to)

    # -- editing -----------------------------------------------------------------------------

    def edit_modes(self) -> Sequence[EditMode]:
        return (EditMode("play", _("Play: click a peg, then where it lands")),
                EditMode("toggle", _("Edit holes: peg, empty, no hole")),
                EditMode("goal", _("Set the goal hole")))

    def edit_tools(self, instance: PegInstance) -> Sequence[EditTool]:
        sizes = ("5x5", "7x7", "9x9", "12x12")
        return (
            EditTool(_("Geometry"), choices=tuple((geometry_label(g), f"geometry:{g}") for g in GEOMETRIES)),
            # Not "Board": that is the name of the page's Random option (a board for Random).
            EditTool(_("Load board"), choices=tuple((_(BOARD_LABELS[n]), f"board:{n}") for n in BOARDS)),
            EditTool(_("Resize"), choices=tuple((s, f"resize:{s}") for s in sizes)),
            EditTool(_("Goal: one peg anywhere"), "goal:any"),
            EditTool(_("Reset (fill every hole but the goal)"), "reset"),
        )

    def edit(self, instance: PegInstance, action: str, *, mode: str | None = None,
             selection: str | None = None) -> EditResult:
        if not isinstance(action, str):
            raise InputError(_("an edit action must be text"))
        name, _colon, arg = action.strip().partition(":")
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
            raise InputError(_("unknown edit mode {mode}; use play, toggle or goal").format(
                mode=repr(str(mode)[:20])))
        if name == "geometry" and arg:
            geometry = arg.lower()
            if geometry not in GEOMETRIES:
                raise InputError(_("unknown geometry {name}; choose one of: {geometries}").format(
                    name=repr(arg[:20]), geometries=named(GEOMETRIES, GEOMETRY_LABELS)))
            return EditResult(replace(instance, geometry=geometry),
                              message=_("Jumps now follow the {geometry} geometry.").format(
                                  geometry=geometry_label(geometry)))
        if name == "board" and arg:
            if arg not in BOARDS:
                raise InputError(_("unknown board {name}; choose one of: {boards}").format(
                    name=repr(arg[:30]), boards=named(BOARDS, BOARD_LABELS)))
            return EditResult(parse_instance(PRESETS.get(arg) or _board_text(arg)))
        if name == "resize" and arg:
            return EditResult(_resized(instance, arg))
        if name == "goal" and arg == "any":
            return EditResult(replace(instance, goal=0), message=_("Goal: one peg left anywhere."))
        if name == "reset" and not arg:
            return EditResult(_reset(instance))
        shown = action if len(action) <= 30 else action[:30] + "..."
        raise InputError(_("unknown edit action {action}; expected hole:d4, geometry:NAME, "
                           "board:NAME, resize:RxC, goal:any or reset").format(action=repr(shown)))


def board_by_name(name: str) -> str:
    """The id of a board given by its id or by its name in any locale ("english", "英式棋盘"):
    the help of the "board" option names the boards in the reader's language, and the person
    types what they read. Unknown names come back as given."""
    text = name.strip()
    if text in BOARDS:
        return text
    for locale in CATALOGUE.locales():
        with use_locale(locale):
            for key, label in BOARD_LABELS.items():
                if _(label) == text:
                    return key
    return text


def _board_text(name: str) -> str:
    geometry, drawing = BOARDS[name]
    return f"geometry: {geometry}; goal: any; board: {drawing}"


def _random_backward(shape: PegInstance, target: int, rng: _random.Random) -> PegInstance:
    """From one peg at a random hole, play random reverse jumps until ``target`` pegs."""
    board = shape.board
    best = None
    for _attempt in range(20):  # a walk can get stuck early; keep the longest of a few tries
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
        raise InputError(_("{hole} is not a hole").format(hole=name))
    is_peg = bool(inst.pegs >> cell & 1)
    if selection:
        if selection.lower() == name:
            return EditResult(inst, message=_("Selection cleared."))
        if not is_peg:
            after = apply_jump(inst, f"{selection}-{name}")
            return EditResult(after, message=_("Jumped {move}.").format(move=f"{selection.lower()}-{name}"))
    if not is_peg:
        raise InputError(_("{hole} is empty: click a peg first, then the hole it jumps to").format(hole=name))
    targets = [m.split("-")[1] for m in legal_moves(inst) if m.split("-")[0] == name]
    if not targets:
        return EditResult(inst, selection=name,
                          message=_("Peg {hole} selected, but it has no jump.").format(hole=name))
    return EditResult(inst, selection=name,
                      message=_("Peg {hole} selected: click where it lands ({targets}).").format(
                          hole=name, targets=join_names(targets)))


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
            message = _("The goal hole was removed; the goal is now one peg anywhere.")
    else:  # no hole -> peg
        holes |= bit
        pegs |= bit
    if goal.bit_count() > pegs.bit_count():
        goal, message = 0, _("The goal had more pegs than the board; it is now one peg anywhere.")
    return EditResult(validate(replace(inst, holes=holes, pegs=pegs, goal=goal)), message=message)


def _set_goal(inst: PegInstance, cell: int, name: str) -> EditResult:
    if not inst.holes >> cell & 1:
        raise InputError(_("{hole} is not a hole, so it cannot be the goal").format(hole=name))
    if inst.goal == 1 << cell:
        return EditResult(replace(inst, goal=0), message=_("Goal: one peg left anywhere."))
    return EditResult(replace(inst, goal=1 << cell), message=_("Goal: one peg left at {hole}.").format(hole=name))


def _resized(inst: PegInstance, arg: str) -> PegInstance:
    m = re.fullmatch(r"([0-9]{1,3})\s*[xX]\s*([0-9]{1,3})", arg)
    if not m:
        raise InputError(_("resize takes rows x columns, e.g. resize:7x7"))
    rows, cols = int(m.group(1)), int(m.group(2))
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InputError(_("boards are 1 to {top} rows and columns").format(top=MAX_SIDE))
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
        mr = sum(r for r, _c in board.coords) / board.n
        mc = sum(c for _r, c in board.coords) / board.n
        k = min(range(board.n), key=lambda k: ((board.coords[k][0] - mr) ** 2
                                               + (board.coords[k][1] - mc) ** 2, k))
        vacancy = 1 << board.cells[k]
    pegs = inst.holes & ~vacancy
    if pegs == 0:
        pegs = inst.holes
    goal = inst.goal if inst.goal.bit_count() <= pegs.bit_count() else 0
    return validate(replace(inst, pegs=pegs, goal=goal))
