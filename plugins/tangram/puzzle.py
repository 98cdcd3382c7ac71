"""The tangram Puzzle: instances, rules (placing pieces), notes and the composing editor."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from engine import Assessment, EditMode, EditResult, EditTool, InputError, Puzzle, plural

from .assembly import RANDOM_OPTIONS, random_assembly, union_silhouette
from .cover_check import cover_problems, piece_inside, pieces_overlap
from .figures import PRESETS
from .geometry import point_text
from .lattice import MAX_UNITS
from .layout import board_layout
from .numbers import QS2, parse_number
from .pieces import PIECE_NAMES, TITLES, Placement, oriented_shape, parse_placement
from .silhouette import (
    MAX_DRAFT_COORD,
    Silhouette,
    build_silhouette,
    format_silhouette,
    parse_silhouette,
    silhouette_from_json,
    silhouette_to_json,
)
from .sketch import MAX_POINTS, Sketch, close_problem, parse_click, parse_sketch, snap_click
from .snapping import flipped, overlapping, overlaps, parse_drop, shift_inside, snap, turned
from .words import describe_placement, piece_title, point_words


@dataclass(frozen=True)
class TangramState:
    """The silhouette and the pieces placed on it so far (in the order they were placed)."""

    silhouette: Silhouette
    placed: tuple[Placement, ...] = ()

    def placed_names(self) -> set[str]:
        return {p.name for p in self.placed}


class Tangram(Puzzle):
    id = "tangram"
    title = "Tangram"
    rules = ("Cover the silhouette exactly with the seven tangram pieces (two large, one medium and "
             "two small triangles, a square and a parallelogram that may be flipped), without overlaps.")
    notation = ("One move places one piece: name (L1 L2 M S1 S2 Q P), rotation r0-r7 in steps of 45 "
                "degrees counter-clockwise, flip f0/f1 (mirror x -> -x before rotating) and the exact "
                "position of the piece's vertex 0, e.g. 'L1 r3 f0 @ 1+r2,2' (r2 = square root of 2).")
    limits = ("At most 24 rings and 400 vertices, numbers with at most 12 digits per part, and "
              "coordinates within about 32,000 units of their common denominator.")
    random_options = RANDOM_OPTIONS
    #: Optional dragging of draft pieces in the web editor (the tools work without it).
    #: "From a picture" (picture.js) rides along: it only talks to the generic trace endpoint.
    client_script = "\n".join((Path(__file__).parent / "static" / name).read_text(encoding="utf-8")
                              for name in ("compose.js", "picture.js"))
    #: Every cover uses the seven pieces, so "7 moves, the fewest possible" would say nothing.
    solved_sentence = "Solved: the figure is covered with the seven pieces."
    picture_formats = ("PNG", "JPEG", "WEBP", "GIF")

    # -- instances ------------------------------------------------------------------------------
    def parse(self, text: str) -> Silhouette:
        return parse_silhouette(text)

    def format(self, instance: Silhouette) -> str:
        return format_silhouette(instance)

    def to_json(self, instance: Silhouette) -> dict:
        return silhouette_to_json(instance)

    def from_json(self, data: Any) -> Silhouette:
        return silhouette_from_json(data)

    def read_picture(self, data: bytes) -> Mapping[str, Any]:
        """The exact figure in a picture (see trace.py); InputError in words otherwise."""
        from .trace import trace_picture  # Pillow and scikit-image load only when needed

        return trace_picture(data).to_json()

    def presets(self) -> Mapping[str, str]:
        return PRESETS

    def random(self, seed: int, options: Mapping[str, str] | None = None) -> Silhouette:
        return random_assembly(seed, options)[0]

    def notes(self, instance: Silhouette) -> Sequence[str]:
        from .solver import COUNT, SHAPES, Search  # the cheap edge-length test, no search
        holes = sum(len(c.holes) for c in instance.components)
        out = [f"Area 16, the total of the seven pieces (the 4 x 4 square's unit); "
               f"{plural(len(instance.components), 'component')}, {plural(holes, 'hole')}, "
               f"{plural(instance.vertex_count(), 'vertex', 'vertices')}."]
        out += list(instance.messages)
        search = Search(instance)
        reason = search.hopeless(search.root, tuple(COUNT[s] for s in SHAPES))
        if reason:
            out.append(f"This figure cannot be covered: {reason}.")
        if instance.draft:
            pairs = overlapping(instance.draft)
            line = f"Composition: {len(instance.draft)} of 7 pieces placed"
            if pairs:
                line += (f", {len(pairs)} overlap{'s' if len(pairs) != 1 else ''} ("
                         + "; ".join(f"{piece_title(a)} with {piece_title(b)}" for a, b in pairs) + ")")
            elif len(instance.draft) == 7:
                line += ", no overlaps: ready to use as the silhouette"
            out.append(line + ".")
        return out

    # -- rules ----------------------------------------------------------------------------------
    def start(self, instance: Silhouette) -> TangramState:
        return TangramState(instance, ())

    def legal_moves(self, state: TangramState) -> Sequence[str]:
        """Pieces that fit at the lowest-leftmost uncovered corner (all a cover could use there)."""
        from .solver import SHAPES, Search
        if len(state.placed) == 7:
            return []
        extra = [c for p in state.placed for c in (p.x, p.y)]
        search = Search(state.silhouette, extra_numbers=extra)
        coords = [v for p in state.placed for pt in p.vertices() for v in search.lattice.point(pt)]
        if coords and max(abs(v) for v in coords) + 8 * search.d > MAX_UNITS:
            return []  # placed pieces too fine for the exact lattice: no representative list
        chain = search.root
        for p in state.placed:
            try:
                chain = chain.with_polygon([search.lattice.point(v) for v in p.vertices()], reverse=True)
            except ValueError:
                return []
        if chain.is_empty():
            return []
        used = state.placed_names()
        counts = tuple(sum(1 for n in PIECE_NAMES if n[0] == s and n not in used) for s in SHAPES)
        moves = []
        for si, o, _pts, v in search.candidates(chain, counts):
            name = next(n for n in PIECE_NAMES if n[0] == SHAPES[si] and n not in used)
            moves.append(search.placement(name, o, v).notation())
        return moves

    def apply_move(self, state: TangramState, move: str) -> TangramState:
        piece = parse_placement(move)
        if piece.name in state.placed_names():
            raise InputError(f"{piece.name} ({TITLES[piece.shape]}) is already placed")
        why = piece_inside(piece, state.silhouette)
        if why:
            raise InputError(f"{piece.notation()} does not fit: {why}")
        for other in state.placed:
            if pieces_overlap(piece, other):
                raise InputError(f"{piece.notation()} overlaps {other.name}")
        return TangramState(state.silhouette, state.placed + (piece,))

    def is_solved(self, state: TangramState) -> bool:
        return len(state.placed) == 7 and not cover_problems(state.silhouette, state.placed)

    def assess(self, state: TangramState, *, budget: float = 0.05) -> Assessment:
        """"cannot" only with a proof the solver itself relies on: the region left uncovered
        fails the edge-length or 45-degree-corner test, or no remaining piece fits at its
        lowest-leftmost corner (every cover uses one there); otherwise "unknown"."""
        if self.is_solved(state):
            return Assessment("solved", "Solved: the silhouette is covered exactly.")
        from .solver import SHAPES, Search
        extra = [c for p in state.placed for c in (p.x, p.y)]
        search = Search(state.silhouette, extra_numbers=extra)
        chain = search.root
        try:
            for p in state.placed:
                chain = chain.with_polygon([search.lattice.point(v) for v in p.vertices()], reverse=True)
        except ValueError:
            return Assessment("unknown")
        if chain.is_empty():
            return Assessment("unknown")
        used = state.placed_names()
        counts = tuple(sum(1 for n in PIECE_NAMES if n[0] == s and n not in used) for s in SHAPES)
        reason = search.hopeless(chain, counts)
        if reason:
            return Assessment("cannot", "No: the pieces left cannot cover what is left of the figure.",
                              f"The uncovered part cannot be covered: {reason}.")
        if not search.candidates(chain, counts):
            return Assessment("cannot", "No: no piece left fits the lowest-leftmost uncovered corner.",
                              "Any exact cover has a piece at the lowest, then leftmost, corner of the "
                              "uncovered part, fitting its angle and edges; none of the pieces left does.")
        return Assessment("unknown")

    def describe_move(self, state: TangramState, move: str) -> str:
        """"Large triangle 1, turned 225 degrees, flipped" (the board shows where)."""
        return describe_placement(parse_placement(move))

    def describe_solution(self, instance: Silhouette, moves: Sequence[str]) -> Mapping[str, Any]:
        """Each placed piece in words, with its vertices as exact text (``x,y`` as in the
        silhouette text, so they can be copied); the moves themselves are the notation."""
        pieces = []
        for m in moves:
            p = parse_placement(m)
            pieces.append({"piece": describe_placement(p),
                           "vertices": " ".join(point_text(v) for v in p.vertices())})
        return {"pieces": pieces}

    # -- editing --------------------------------------------------------------------------------
    def edit_modes(self) -> Sequence[EditMode]:
        # One way of clicking only (the composer): no mode to choose, so none is offered.
        return ()

    def edit_tools(self, instance: Silhouette) -> Sequence[EditTool]:
        have = {p.name for p in instance.draft}
        missing = [n for n in PIECE_NAMES if n not in have]
        tools = []
        if missing:
            tools.append(EditTool("Add piece", choices=tuple((piece_title(n), f"add:{n}") for n in missing)))
        if have:
            tools += [
                EditTool("Turn 45° (R)", "rotate"),
                EditTool("Flip (F)", "flip"),
                EditTool("Nudge", choices=(("left 1", "move:-1,0"), ("right 1", "move:1,0"),
                                           ("up 1", "move:0,1"), ("down 1", "move:0,-1"),
                                           ("left 1/2", "move:-1/2,0"), ("right 1/2", "move:1/2,0"),
                                           ("up 1/2", "move:0,1/2"), ("down 1/2", "move:0,-1/2"),
                                           ("left √2/2", "move:-1/2r2,0"), ("right √2/2", "move:1/2r2,0"),
                                           ("up √2/2", "move:0,1/2r2"), ("down √2/2", "move:0,-1/2r2"))),
                EditTool("Back to tray (Delete)", "remove"),
                EditTool("Use as silhouette", "use"),
                EditTool("Clear composition", "clear"),
            ]
        tools += [
            EditTool("Compose the solution", "compose-solution"),
            EditTool("Draw a silhouette", "draw"),
        ]
        return tools

    def edit(self, instance: Silhouette, action: str, *, mode: str | None = None,
             selection: str | None = None) -> EditResult:
        """Composer and drawing actions (see docs/tangram.md, "Editor")."""
        if not isinstance(action, str) or len(action) > 100:
            raise InputError("unknown edit action")
        draft = {p.name: p for p in instance.draft}
        verb, _, arg = action.partition(":")
        if verb.startswith("draw"):
            return self._draw(instance, verb, arg, selection)
        if verb == "select":
            if arg not in draft:
                raise InputError(f"there is no piece {arg!r} in the composition")
            return EditResult(instance, selection=arg,
                              message=f"{piece_title(arg)} selected: drag it, turn it (R) or flip it (F)")
        if verb == "add":
            if arg not in PIECE_NAMES:
                raise InputError(f"unknown piece {arg!r}")
            if arg in draft:
                raise InputError(f"{piece_title(arg)} is already in the composition")
            draft[arg] = self._free_spot(instance, arg)
            return EditResult(self._with_draft(instance, draft), selection=arg,
                              message=f"{piece_title(arg)} added: drag it into place")
        if verb == "drop":
            return self._drop(instance, draft, arg)
        if verb == "clear":
            return EditResult(self._with_draft(instance, {}), message="composition cleared")
        if verb == "use":
            sil = union_silhouette(list(draft.values()), draft=tuple(draft.values()))
            return EditResult(sil, selection=selection, message="the composition is now the silhouette")
        if verb == "compose-solution":
            from engine import SolveContext

            from .solver import ExactSolver
            outcome = ExactSolver().solve(instance, SolveContext.with_timeout(2))
            if outcome.status != "solved":
                raise InputError(f"no composition to show: {getattr(outcome, 'reason', 'no cover found')}")
            pieces = {p.name: p for p in map(parse_placement, outcome.moves)}
            return EditResult(self._with_draft(instance, pieces), message="the solver's cover as a composition")
        if verb in ("rotate", "flip", "move", "remove"):
            if not selection or selection not in draft:
                raise InputError("select a piece of the composition first (click it)")
            p = draft[selection]
            if verb == "remove":
                del draft[selection]
                return EditResult(self._with_draft(instance, draft),
                                  message=f"{piece_title(selection)} is back in the tray")
            others = [o for o in draft.values() if o.name != selection]
            if verb == "rotate":
                if arg not in ("", "1", "-1"):
                    raise InputError("turn by 'rotate' (45 degrees anticlockwise) or 'rotate:-1' (clockwise)")
                p = self._resnap(instance, turned(p, int(arg or 1)), others)
            elif verb == "flip":
                p = self._resnap(instance, flipped(p), others)
            else:
                dx, _, dy = arg.partition(",")
                try:
                    p = p.moved(parse_number(dx), parse_number(dy))
                except InputError:
                    raise InputError(f"cannot read the move amount {arg!r}: write dx,dy like 1,0 or 0,-r2") from None
            draft[selection] = p
            return EditResult(self._with_draft(instance, draft), selection=selection)
        raise InputError(f"unknown edit action {action!r}")

    def _layout(self, instance: Silhouette):
        return board_layout(TangramState(instance, ()), composing=True)

    def _resnap(self, instance: Silhouette, p: Placement, others) -> Placement:
        """Snap a turned or flipped piece (kept inside the work area) to the nearest exact spot."""
        fx, fy = shift_inside(p.name, p.rot, p.flip, float(p.x), float(p.y), self._layout(instance).work)
        return snap(p.name, p.rot, p.flip, fx, fy, others, instance.rings())

    def _drop(self, instance: Silhouette, draft: dict, arg: str) -> EditResult:
        name, rot, flip, fx, fy = parse_drop(arg)
        lay = self._layout(instance)
        rough = Placement(name, rot, flip, QS2(0), QS2(0))
        cx, cy = (sum(float(v[i]) for v in rough.vertices()) / len(rough.vertices()) for i in (0, 1))
        if lay.in_tray(fx + cx, fy + cy):
            if name in draft:
                del draft[name]
                return EditResult(self._with_draft(instance, draft),
                                  message=f"{piece_title(name)} is back in the tray")
            return EditResult(instance, message=f"{piece_title(name)} stays in the tray")
        others = [o for o in draft.values() if o.name != name]
        box = lay.work
        if not (box[0] - 50 <= fx <= box[2] + 50 and box[1] - 50 <= fy <= box[3] + 50):
            raise InputError("the piece was dropped far outside the board")
        fx, fy = shift_inside(name, rot, flip, fx, fy, box)
        p = snap(name, rot, flip, fx, fy, others, instance.rings())
        draft[name] = p
        clash = [o.name for o in others if overlaps(p, o)]
        message = (f"{piece_title(name)} overlaps {' and '.join(piece_title(n) for n in clash)}"
                   if clash else f"{piece_title(name)} placed")
        return EditResult(self._with_draft(instance, draft), selection=name, message=message)

    def _free_spot(self, instance: Silhouette, name: str) -> Placement:
        """Where an added piece goes: the first whole-unit spot of the work area (left to right,
        top to bottom) where it overlaps no other piece; else the middle of the work area."""
        x0, y0, x1, y1 = self._layout(instance).work
        others = list(instance.draft)
        vs = oriented_shape(name[0], 0, 0)
        w = math.ceil(max(float(v[0]) for v in vs))
        h = math.ceil(max(float(v[1]) for v in vs))
        for bottom in range(int(y1) - h, int(y0) - 1, -1):
            for left in range(int(x0), int(x1) - w + 1):
                p = Placement(name, 0, 0, QS2(left), QS2(bottom))
                if not any(overlaps(p, o) for o in others):
                    return p
        return Placement(name, 0, 0, QS2(int((x0 + x1) / 2)), QS2(int((y0 + y1) / 2)))

    # -- drawing a silhouette ---------------------------------------------------------------------
    def _draw(self, instance: Silhouette, verb: str, arg: str, selection: str | None) -> EditResult:
        if verb == "draw" and not arg:
            return EditResult(instance, selection=Sketch().text(),
                              message="Drawing: click points on the grid; click the first point to close the outline")
        if verb == "draw-cancel":
            return EditResult(instance, message="drawing cancelled")
        sketch = parse_sketch(selection) if selection and selection.startswith("draw:") else Sketch()
        if verb == "draw-undo":
            if sketch.open:
                sketch = Sketch(sketch.closed, sketch.open[:-1])
            elif sketch.closed:
                sketch = Sketch(sketch.closed[:-1], sketch.closed[-1])
            return EditResult(instance, selection=sketch.text())
        if verb != "draw":
            raise InputError(f"unknown edit action {verb!r}")
        fx, fy = parse_click(arg)
        box = self._layout(instance).work
        if not (box[0] - 0.5 <= fx <= box[2] + 0.5 and box[1] - 0.5 <= fy <= box[3] + 0.5):
            raise InputError("click inside the drawing area")
        point, closes = snap_click(sketch, fx, fy)
        if not closes:
            if sketch.point_count() >= MAX_POINTS:
                raise InputError(f"a drawing has at most {MAX_POINTS} points")
            if sketch.open and point == sketch.open[-1]:
                raise InputError("that point is already the last one")
            drawn = Sketch(sketch.closed, sketch.open + (point,))
            n = len(drawn.open)
            hint = "; click the first point (the ring) to close the outline" if n >= 3 else ""
            return EditResult(instance, selection=drawn.text(),
                              message=f"Point {n} at {point_words(point)}{hint}")
        why = close_problem(sketch)
        if why:
            raise InputError(why)
        rings = sketch.closed + (sketch.open,)
        try:
            sil = build_silhouette([(r, "ring") for r in rings], draft=instance.draft)
        except InputError as exc:
            if "area is" not in exc.message:
                raise
            return EditResult(instance, selection=Sketch(rings, ()).text(),
                              message=f"Outline closed, but {exc.message.split(';')[0]}: a figure "
                                      f"has area 16 (or is scaled to it). Draw another outline or a hole, "
                                      f"or undo the last point.")
        return EditResult(sil, message="the drawing is now the silhouette")

    @staticmethod
    def _with_draft(instance: Silhouette, draft: Mapping[str, Placement]) -> Silhouette:
        pieces = tuple(sorted(draft.values(), key=lambda p: PIECE_NAMES.index(p.name)))
        for p in pieces:
            if abs(float(p.x)) > MAX_DRAFT_COORD or abs(float(p.y)) > MAX_DRAFT_COORD:
                raise InputError(f"{p.name} would leave the drawing area")
        return Silhouette(instance.components, pieces, instance.messages)
