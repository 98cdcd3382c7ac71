"""The tangram Puzzle: instances, rules (placing pieces), notes and the composing editor."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from engine import EditMode, EditResult, EditTool, InputError, Puzzle

from .assembly import RANDOM_OPTIONS, random_assembly, union_silhouette
from .cover_check import cover_problems, piece_inside, pieces_overlap
from .figures import PRESETS
from .lattice import MAX_UNITS
from .numbers import QS2, format_number, parse_number
from .pieces import PIECE_NAMES, TITLES, Placement, parse_placement
from .silhouette import (MAX_DRAFT_COORD, Silhouette, format_silhouette, parse_silhouette,
                         silhouette_from_json, silhouette_to_json)


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
    client_script = (Path(__file__).parent / "static" / "compose.js").read_text(encoding="utf-8")

    # -- instances ------------------------------------------------------------------------------
    def parse(self, text: str) -> Silhouette:
        return parse_silhouette(text)

    def format(self, instance: Silhouette) -> str:
        return format_silhouette(instance)

    def to_json(self, instance: Silhouette) -> dict:
        return silhouette_to_json(instance)

    def from_json(self, data: Any) -> Silhouette:
        return silhouette_from_json(data)

    def presets(self) -> Mapping[str, str]:
        return PRESETS

    def random(self, seed: int, options: Mapping[str, str] | None = None) -> Silhouette:
        return random_assembly(seed, options)[0]

    def notes(self, instance: Silhouette) -> Sequence[str]:
        from .solver import COUNT, SHAPES, Search  # the cheap edge-length test, no search
        holes = sum(len(c.holes) for c in instance.components)
        out = [f"Area 16, the total of the seven pieces (the 4 x 4 square's unit); "
               f"{len(instance.components)} component(s), {holes} hole(s), "
               f"{instance.vertex_count()} vertices."]
        out += list(instance.messages)
        search = Search(instance)
        reason = search.hopeless(search.root, tuple(COUNT[s] for s in SHAPES))
        if reason:
            out.append(f"This figure cannot be covered: {reason}.")
        if instance.draft:
            out.append(f"Draft composition: {len(instance.draft)} of 7 pieces placed.")
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
        for si, o, pts, v in search.candidates(chain, counts):
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

    def describe_solution(self, instance: Silhouette, moves: Sequence[str]) -> Mapping[str, Any]:
        pieces = []
        for m in moves:
            p = parse_placement(m)
            vs = p.vertices()
            pieces.append({
                "move": p.notation(),
                "piece": p.name,
                "shape": TITLES[p.shape],
                "vertices": [[format_number(x), format_number(y)] for x, y in vs],
                "vertices_float": [[round(float(x), 9), round(float(y), 9)] for x, y in vs],
            })
        return {"pieces": pieces, "area": "16"}

    # -- editing --------------------------------------------------------------------------------
    def edit_modes(self) -> Sequence[EditMode]:
        return (EditMode("compose", "Compose a figure from pieces"),)

    def edit_tools(self, instance: Silhouette) -> Sequence[EditTool]:
        have = {p.name for p in instance.draft}
        missing = [n for n in PIECE_NAMES if n not in have]
        tools = []
        if missing:
            tools.append(EditTool("Add piece", choices=tuple((f"{n} ({TITLES[n[0]]})", f"add:{n}") for n in missing)))
        tools += [
            EditTool("Rotate 45°", "rotate"),
            EditTool("Flip", "flip"),
            EditTool("Move", choices=(("left 1", "move:-1,0"), ("right 1", "move:1,0"), ("up 1", "move:0,1"),
                                      ("down 1", "move:0,-1"), ("left r2", "move:-r2,0"),
                                      ("right r2", "move:r2,0"), ("up r2", "move:0,r2"),
                                      ("down r2", "move:0,-r2"), ("left 1/2", "move:-1/2,0"),
                                      ("right 1/2", "move:1/2,0"), ("up 1/2", "move:0,1/2"),
                                      ("down 1/2", "move:0,-1/2"))),
            EditTool("Remove piece", "remove"),
            EditTool("Use as silhouette", "use"),
            EditTool("Clear composition", "clear"),
            EditTool("Compose the solution", "compose-solution"),
        ]
        return tools

    def edit(self, instance: Silhouette, action: str, *, mode: str | None = None,
             selection: str | None = None) -> EditResult:
        if not isinstance(action, str) or len(action) > 100:
            raise InputError("unknown edit action")
        draft = {p.name: p for p in instance.draft}
        verb, _, arg = action.partition(":")
        if verb == "select":
            if arg not in draft:
                raise InputError(f"there is no piece {arg!r} in the composition")
            return EditResult(instance, selection=arg, message=f"{arg} selected: rotate, flip or move it")
        if verb == "add":
            if arg not in PIECE_NAMES:
                raise InputError(f"unknown piece {arg!r}")
            if arg in draft:
                raise InputError(f"{arg} is already in the composition")
            x = self._free_x(instance)
            draft[arg] = Placement(arg, 0, 0, x, QS2(0))
            return EditResult(self._with_draft(instance, draft), selection=arg,
                              message=f"{arg} added to the right; move it into place")
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
                return EditResult(self._with_draft(instance, draft), message=f"{selection} removed")
            if verb == "rotate":
                p = Placement(p.name, (p.rot + 1) % 8, p.flip, p.x, p.y)
            elif verb == "flip":
                p = Placement(p.name, p.rot, 1 - p.flip, p.x, p.y)
            else:
                dx, _, dy = arg.partition(",")
                try:
                    p = p.moved(parse_number(dx), parse_number(dy))
                except InputError:
                    raise InputError(f"cannot read the move amount {arg!r}: write dx,dy like 1,0 or 0,-r2") from None
            draft[selection] = p
            return EditResult(self._with_draft(instance, draft), selection=selection)
        raise InputError(f"unknown edit action {action!r}")

    @staticmethod
    def _free_x(instance: Silhouette) -> QS2:
        xs = [float(x) for r in instance.rings() for x, _ in r]
        xs += [float(v[0]) for p in instance.draft for v in p.vertices()]
        return QS2(int(max(xs)) + 2)

    @staticmethod
    def _with_draft(instance: Silhouette, draft: Mapping[str, Placement]) -> Silhouette:
        pieces = tuple(sorted(draft.values(), key=lambda p: PIECE_NAMES.index(p.name)))
        for p in pieces:
            if abs(float(p.x)) > MAX_DRAFT_COORD or abs(float(p.y)) > MAX_DRAFT_COORD:
                raise InputError(f"{p.name} would leave the drawing area")
        return Silhouette(instance.components, pieces, instance.messages)
