"""The tangram Puzzle: instances, rules (placing pieces), notes and the composing editor."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine import N_, Assessment, EditMode, EditResult, EditTool, InputError, Puzzle

from .assembly import RANDOM_OPTIONS, random_assembly, union_silhouette
from .client import client_script as scripts_with_words
from .cover_check import cover_problems, piece_inside, pieces_overlap
from .figures import PRESETS
from .geometry import point_text
from .i18n import CATALOGUE, _, count, ngettext
from .lattice import MAX_UNITS
from .layout import board_layout
from .numbers import QS2, parse_number
from .pieces import PIECE_NAMES, TITLES, Placement, oriented_shape, parse_placement
from .silhouette import (
    MAX_DRAFT_COORD,
    AreaError,
    Silhouette,
    build_silhouette,
    format_silhouette,
    parse_silhouette,
    silhouette_from_json,
    silhouette_to_json,
)
from .sketch import MAX_POINTS, Sketch, close_problem, parse_click, parse_sketch, snap_click
from .snapping import flipped, overlapping, overlaps, parse_drop, shift_inside, snap, turned
from .words import and_list, describe_placement, piece_title, point_words

#: The Nudge tool's choices: (label people read, action).
NUDGES = ((N_("left 1"), "move:-1,0"), (N_("right 1"), "move:1,0"),
          (N_("up 1"), "move:0,1"), (N_("down 1"), "move:0,-1"),
          (N_("left 1/2"), "move:-1/2,0"), (N_("right 1/2"), "move:1/2,0"),
          (N_("up 1/2"), "move:0,1/2"), (N_("down 1/2"), "move:0,-1/2"),
          (N_("left √2/2"), "move:-1/2r2,0"), (N_("right √2/2"), "move:1/2r2,0"),
          (N_("up √2/2"), "move:0,1/2r2"), (N_("down √2/2"), "move:0,-1/2r2"))

#: The presets' names as people read them (the ids stay in links and the API). English shows
#: the id itself, as before; the catalogue gives each a name in the reader's language.
PRESET_LABELS = {
    "cat": N_("cat"), "rabbit": N_("rabbit"), "swan": N_("swan"), "house": N_("house"),
    "sailboat": N_("sailboat"), "fish": N_("fish"), "bird": N_("bird"), "candle": N_("candle"),
    "square": N_("square"),
    "convex-triangle": N_("convex-triangle"), "convex-square": N_("convex-square"),
    "convex-rectangle": N_("convex-rectangle"), "convex-parallelogram": N_("convex-parallelogram"),
    "convex-trapezoid": N_("convex-trapezoid"), "convex-right-trapezoid": N_("convex-right-trapezoid"),
    "convex-right-trapezoid-2": N_("convex-right-trapezoid-2"), "convex-pentagon": N_("convex-pentagon"),
    "convex-pentagon-2": N_("convex-pentagon-2"), "convex-hexagon": N_("convex-hexagon"),
    "convex-hexagon-2": N_("convex-hexagon-2"), "convex-hexagon-3": N_("convex-hexagon-3"),
    "convex-hexagon-4": N_("convex-hexagon-4"),
    "islands": N_("islands"), "assembly-hole": N_("assembly-hole"), "assembly-hole-2": N_("assembly-hole-2"),
    "assembly-hole-slid": N_("assembly-hole-slid"), "assembly-hole-slid-2": N_("assembly-hole-slid-2"),
    "assembly-touch": N_("assembly-touch"), "assembly-slid": N_("assembly-slid"),
    "assembly-slid-2": N_("assembly-slid-2"), "bowtie": N_("bowtie"), "slid-halves": N_("slid-halves"),
    "slid-root2": N_("slid-root2"),
}


#: The names of the solver's stats and of the solution's details, as the page shows them (the host
#: looks each one up in this plugin's catalogue, underscores read as spaces).
SHOWN_NAMES = (N_("max depth"), N_("memo hits"), N_("pieces"), N_("piece"), N_("vertices"))


@dataclass(frozen=True)
class TangramState:
    """The silhouette and the pieces placed on it so far (in the order they were placed)."""

    silhouette: Silhouette
    placed: tuple[Placement, ...] = ()

    def placed_names(self) -> set[str]:
        return {p.name for p in self.placed}


class Tangram(Puzzle):
    id = "tangram"
    # The host shows these through `catalogue`, in the reader's language (docs/plugins.md);
    # N_ marks them for `make translations` without translating them here.
    catalogue = CATALOGUE
    title = N_("Tangram")
    rules = N_("Cover the silhouette exactly with the seven tangram pieces (two large, one medium and "
             "two small triangles, a square and a parallelogram that may be flipped), without overlaps.")
    notation = N_("One move places one piece: name (L1 L2 M S1 S2 Q P), rotation r0-r7 in steps of 45 "
                "degrees counter-clockwise, flip f0/f1 (mirror x -> -x before rotating) and the exact "
                "position of the piece's vertex 0, e.g. 'L1 r3 f0 @ 1+r2,2' (r2 = square root of 2).")
    limits = N_("At most 24 rings and 400 vertices, numbers with at most 12 digits per part, and "
              "coordinates within about 32,000 units of their common denominator.")
    random_options = RANDOM_OPTIONS
    random_option_labels = {"slide": N_("Slide"), "touch": N_("Touch"), "hole": N_("Hole")}
    #: Optional dragging of draft pieces in the web editor (the tools work without it).
    #: "From a picture" (picture.js) rides along: it only talks to the generic trace endpoint.
    #: Their words come in the reader's language from the plugin's catalogue (client.py).
    client_script = scripts_with_words()
    #: Every cover uses the seven pieces, so "7 moves, the fewest possible" would say nothing.
    solved_sentence = N_("Solved: the figure is covered with the seven pieces.")
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
        """The exact figure in a picture (see trace.py), or in an SVG drawing (svg.py: a file
        people hand in as they would a picture); InputError in words otherwise."""
        from .svg import drawing_as_trace, is_svg

        if is_svg(data):
            return drawing_as_trace(data).to_json()
        from .trace import trace_picture  # Pillow and scikit-image load only when needed

        return trace_picture(data).to_json()

    def presets(self) -> Mapping[str, str]:
        return PRESETS

    def preset_label(self, name: str) -> str:
        return _(PRESET_LABELS.get(name, name))

    def random(self, seed: int, options: Mapping[str, str] | None = None) -> Silhouette:
        return random_assembly(seed, options)[0]

    def notes(self, instance: Silhouette) -> Sequence[str]:
        from .solver import COUNT, SHAPES, Search  # the cheap edge-length test, no search
        holes = sum(len(c.holes) for c in instance.components)
        parts, vertices = len(instance.components), instance.vertex_count()
        out = [_("Area 16, the total of the seven pieces (the 4 x 4 square's unit); "
                 "{components}, {holes}, {vertices}.").format(
            components=ngettext("{n} component", "{n} components", parts).format(n=count(parts)),
            holes=ngettext("{n} hole", "{n} holes", holes).format(n=count(holes)),
            vertices=ngettext("{n} vertex", "{n} vertices", vertices).format(n=count(vertices)))]
        out += [str(m) for m in instance.messages]  # a Note is said in the reader's language
        search = Search(instance)
        reason = search.hopeless(search.root, tuple(COUNT[s] for s in SHAPES))
        if reason:
            out.append(_("This figure cannot be covered: {reason}.").format(reason=reason))
        if instance.draft:
            pairs = overlapping(instance.draft)
            placed = len(instance.draft)
            if pairs:
                which = _("; ").join(_("{piece} with {other}").format(piece=piece_title(a), other=piece_title(b))
                                     for a, b in pairs)
                line = ngettext("Composition: {placed} of 7 pieces placed, {count} overlap ({pairs}).",
                                "Composition: {placed} of 7 pieces placed, {count} overlaps ({pairs}).",
                                len(pairs)).format(placed=placed, count=len(pairs), pairs=which)
            elif placed == 7:
                line = _("Composition: 7 of 7 pieces placed, no overlaps: ready to use as the silhouette.")
            else:
                line = _("Composition: {placed} of 7 pieces placed.").format(placed=placed)
            out.append(line)
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
            raise InputError(_("{piece} ({title}) is already placed").format(
                piece=piece.name, title=_(TITLES[piece.shape])))
        why = piece_inside(piece, state.silhouette)
        if why:
            raise InputError(_("{move} does not fit: {why}").format(move=piece.notation(), why=why))
        for other in state.placed:
            if pieces_overlap(piece, other):
                raise InputError(_("{move} overlaps {piece}").format(move=piece.notation(), piece=other.name))
        return TangramState(state.silhouette, state.placed + (piece,))

    def is_solved(self, state: TangramState) -> bool:
        return len(state.placed) == 7 and not cover_problems(state.silhouette, state.placed)

    def assess(self, state: TangramState, *, budget: float = 0.05) -> Assessment:
        """"cannot" only with a proof the solver itself relies on: the region left uncovered
        fails the edge-length or 45-degree-corner test, or no remaining piece fits at its
        lowest-leftmost corner (every cover uses one there); otherwise "unknown"."""
        if self.is_solved(state):
            return Assessment("solved", _("Solved: the silhouette is covered exactly."))
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
            return Assessment("cannot", _("No: the pieces left cannot cover what is left of the figure."),
                              _("The uncovered part cannot be covered: {reason}.").format(reason=reason))
        if not search.candidates(chain, counts):
            return Assessment("cannot", _("No: no piece left fits the lowest-leftmost uncovered corner."),
                              _("Any exact cover has a piece at the lowest, then leftmost, corner of the "
                                "uncovered part, fitting its angle and edges; none of the pieces left does."))
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
            tools.append(EditTool(_("Add piece"), choices=tuple((piece_title(n), f"add:{n}") for n in missing)))
        if have:
            tools += [
                EditTool(_("Turn 45° (R)"), "rotate"),
                EditTool(_("Flip (F)"), "flip"),
                EditTool(_("Nudge"), choices=tuple((_(label), action) for label, action in NUDGES)),
                EditTool(_("Back to tray (Delete)"), "remove"),
                EditTool(_("Use as silhouette"), "use"),
                EditTool(_("Clear composition"), "clear"),
            ]
        tools += [
            EditTool(_("Compose the solution"), "compose-solution"),
            EditTool(_("Draw a silhouette"), "draw"),
        ]
        return tools

    def edit(self, instance: Silhouette, action: str, *, mode: str | None = None,
             selection: str | None = None) -> EditResult:
        """Composer and drawing actions (see docs/tangram.md, "Editor")."""
        if not isinstance(action, str) or len(action) > 100:
            raise InputError(_("unknown edit action"))
        draft = {p.name: p for p in instance.draft}
        verb, _colon, arg = action.partition(":")
        if verb.startswith("draw"):
            return self._draw(instance, verb, arg, selection)
        if verb == "select":
            if arg not in draft:
                raise InputError(_("there is no piece {name} in the composition").format(name=repr(arg)))
            return EditResult(instance, selection=arg,
                              message=_("{piece} selected: drag it, turn it (R) or flip it (F)").format(
                                  piece=piece_title(arg)))
        if verb == "add":
            if arg not in PIECE_NAMES:
                raise InputError(_("unknown piece {name}").format(name=repr(arg)))
            if arg in draft:
                raise InputError(_("{piece} is already in the composition").format(piece=piece_title(arg)))
            draft[arg] = self._free_spot(instance, arg)
            return EditResult(self._with_draft(instance, draft), selection=arg,
                              message=_("{piece} added: drag it into place").format(piece=piece_title(arg)))
        if verb == "drop":
            return self._drop(instance, draft, arg)
        if verb == "clear":
            return EditResult(self._with_draft(instance, {}), message=_("composition cleared"))
        if verb == "use":
            sil = union_silhouette(list(draft.values()), draft=tuple(draft.values()))
            return EditResult(sil, selection=selection, message=_("the composition is now the silhouette"))
        if verb == "compose-solution":
            from engine import SolveContext

            from .solver import ExactSolver
            outcome = ExactSolver().solve(instance, SolveContext.with_timeout(2))
            if outcome.status != "solved":
                raise InputError(_("no composition to show: {reason}").format(
                    reason=getattr(outcome, "reason", None) or _("no cover found")))
            pieces = {p.name: p for p in map(parse_placement, outcome.moves)}
            return EditResult(self._with_draft(instance, pieces), message=_("the solver's cover as a composition"))
        if verb in ("rotate", "flip", "move", "remove"):
            if not selection or selection not in draft:
                raise InputError(_("select a piece of the composition first (click it)"))
            p = draft[selection]
            if verb == "remove":
                del draft[selection]
                return EditResult(self._with_draft(instance, draft),
                                  message=_("{piece} is back in the tray").format(piece=piece_title(selection)))
            others = [o for o in draft.values() if o.name != selection]
            if verb == "rotate":
                if arg not in ("", "1", "-1"):
                    raise InputError(_("turn by 'rotate' (45 degrees anticlockwise) or 'rotate:-1' (clockwise)"))
                p = self._resnap(instance, turned(p, int(arg or 1)), others)
            elif verb == "flip":
                p = self._resnap(instance, flipped(p), others)
            else:
                dx, _comma, dy = arg.partition(",")
                try:
                    p = p.moved(parse_number(dx), parse_number(dy))
                except InputError:
                    raise InputError(_("cannot read the move amount {amount}: write dx,dy like 1,0 or "
                                       "0,-r2").format(amount=repr(arg))) from None
            draft[selection] = p
            return EditResult(self._with_draft(instance, draft), selection=selection)
        raise InputError(_("unknown edit action {action}").format(action=repr(action)))

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
                                  message=_("{piece} is back in the tray").format(piece=piece_title(name)))
            return EditResult(instance, message=_("{piece} stays in the tray").format(piece=piece_title(name)))
        others = [o for o in draft.values() if o.name != name]
        box = lay.work
        if not (box[0] - 50 <= fx <= box[2] + 50 and box[1] - 50 <= fy <= box[3] + 50):
            raise InputError(_("the piece was dropped far outside the board"))
        fx, fy = shift_inside(name, rot, flip, fx, fy, box)
        p = snap(name, rot, flip, fx, fy, others, instance.rings())
        draft[name] = p
        clash = [o.name for o in others if overlaps(p, o)]
        message = (_("{piece} overlaps {others}").format(piece=piece_title(name), others=and_list(
                       [piece_title(n) for n in clash]))
                   if clash else _("{piece} placed").format(piece=piece_title(name)))
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
                              message=_("Drawing: click points on the grid; click the first point to close "
                                        "the outline"))
        if verb == "draw-cancel":
            return EditResult(instance, message=_("drawing cancelled"))
        sketch = parse_sketch(selection) if selection and selection.startswith("draw:") else Sketch()
        if verb == "draw-undo":
            if sketch.open:
                sketch = Sketch(sketch.closed, sketch.open[:-1])
            elif sketch.closed:
                sketch = Sketch(sketch.closed[:-1], sketch.closed[-1])
            return EditResult(instance, selection=sketch.text())
        if verb != "draw":
            raise InputError(_("unknown edit action {action}").format(action=repr(verb)))
        fx, fy = parse_click(arg)
        box = self._layout(instance).work
        if not (box[0] - 0.5 <= fx <= box[2] + 0.5 and box[1] - 0.5 <= fy <= box[3] + 0.5):
            raise InputError(_("click inside the drawing area"))
        point, closes = snap_click(sketch, fx, fy)
        if not closes:
            if sketch.point_count() >= MAX_POINTS:
                raise InputError(_("a drawing has at most {count} points").format(count=MAX_POINTS))
            if sketch.open and point == sketch.open[-1]:
                raise InputError(_("that point is already the last one"))
            drawn = Sketch(sketch.closed, sketch.open + (point,))
            n = len(drawn.open)
            message = (_("Point {n} at {point}; click the first point (the ring) to close the outline")
                       if n >= 3 else _("Point {n} at {point}")).format(n=n, point=point_words(point))
            return EditResult(instance, selection=drawn.text(), message=message)
        why = close_problem(sketch)
        if why:
            raise InputError(why)
        rings = sketch.closed + (sketch.open,)
        try:
            sil = build_silhouette([(r, "ring") for r in rings], draft=instance.draft)
        except InputError as exc:
            if not isinstance(exc, AreaError):
                raise
            return EditResult(instance, selection=Sketch(rings, ()).text(),
                              message=_("Outline closed, but the figure's area is {area} (about {approx}): a "
                                        "figure has area 16 (or is scaled to it). Draw another outline or a "
                                        "hole, or undo the last point.").format(area=exc.area, approx=exc.approx))
        return EditResult(sil, message=_("the drawing is now the silhouette"))

    @staticmethod
    def _with_draft(instance: Silhouette, draft: Mapping[str, Placement]) -> Silhouette:
        pieces = tuple(sorted(draft.values(), key=lambda p: PIECE_NAMES.index(p.name)))
        for p in pieces:
            if abs(float(p.x)) > MAX_DRAFT_COORD or abs(float(p.y)) > MAX_DRAFT_COORD:
                raise InputError(_("{piece} would leave the drawing area").format(piece=p.name))
        return Silhouette(instance.components, pieces, instance.messages)
