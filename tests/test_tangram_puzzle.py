"""The tangram Puzzle: moves, the composing editor, the renderer and solving through the engine."""

import xml.etree.ElementTree as ET

import pytest

from engine import InputError
from engine.plugins import load_registry
from engine.solving import solve
from plugins.tangram.puzzle import Tangram
from plugins.tangram.render import DefaultRenderer

PUZZLE = Tangram()
CLASSIC = ["L1 r5 f0 @ 2,2", "L2 r3 f0 @ 2,2", "M r4 f0 @ 4,4", "Q r1 f0 @ 3,1",
           "S1 r7 f0 @ 3,1", "S2 r1 f0 @ 2,2", "P r0 f1 @ 3,3"]


def square_state():
    return PUZZLE.start(PUZZLE.parse("outer 0,0 4,0 4,4 0,4"))


def test_playing_a_hand_made_cover_solves_the_square():
    state = square_state()
    for move in CLASSIC:
        assert not PUZZLE.is_solved(state)
        state = PUZZLE.apply_move(state, move)
    assert PUZZLE.is_solved(state)


@pytest.mark.parametrize("moves, bad, words", [
    ([], "L1 r5 f0 @ 2,5", "does not fit"),                     # sticks out of the top
    (["L1 r5 f0 @ 2,2"], "L1 r5 f0 @ 2,2", "already placed"),
    (["L1 r5 f0 @ 2,2"], "L2 r5 f0 @ 2,2", "overlaps L1"),
    ([], "X r0 f0 @ 0,0", "unknown piece"),
    ([], "L1 r9 f0 @ 0,0", "r0 to r7"),
    ([], "L1 r0 @ 0,0", "cannot read the move"),
    ([], "L1 r0 f0 @ 0,1/0", "divides by zero"),
])
def test_illegal_moves_say_why(moves, bad, words):
    state = square_state()
    for m in moves:
        state = PUZZLE.apply_move(state, m)
    with pytest.raises(InputError) as exc:
        PUZZLE.apply_move(state, bad)
    assert words in str(exc.value)


def test_legal_moves_are_the_placements_at_the_lowest_leftmost_corner():
    state = square_state()
    moves = PUZZLE.legal_moves(state)
    assert "L1 r5 f0 @ 2,2" in moves                 # the hand-made cover's first piece
    for m in moves:                                  # each one is playable
        PUZZLE.apply_move(state, m)
    # each covers the corner (0,0): its vertices include it
    from plugins.tangram.numbers import QS2
    from plugins.tangram.pieces import parse_placement
    assert all((QS2(0), QS2(0)) in parse_placement(m).vertices() for m in moves)
    after = PUZZLE.apply_move(state, "L1 r0 f0 @ 0,0")   # leaves a 1.17-long edge: dead end
    assert PUZZLE.legal_moves(after) == []


def test_solve_through_the_engine_gives_details():
    registry = load_registry()
    report = solve(registry, "tangram", "convex-hexagon")
    data = report.to_json()
    assert data["status"] == "solved" and data["length"] == 7
    assert len(data["details"]["pieces"]) == 7
    impossible = solve(registry, "tangram", "outer 0,0 2,0 2,8 0,8")
    assert impossible.to_json()["status"] == "unsolvable"


def test_notes_give_area_facts_and_quick_impossibility():
    notes = PUZZLE.notes(PUZZLE.parse("outer 0,0 1,0 1,1 0,1"))
    assert any("Area 16" in n for n in notes) and any("scaled" in n for n in notes)
    assert any("cannot be covered" in n for n in PUZZLE.notes(PUZZLE.parse("outer 0,0 1,0 1,16 0,16")))


def test_compose_then_use_as_silhouette():
    inst = PUZZLE.parse("outer 0,0 4,0 4,4 0,4")
    # add each piece from the tray, then turn, flip and move it into the classic cover
    from plugins.tangram.numbers import QS2
    from plugins.tangram.pieces import parse_placement
    for move in CLASSIC:
        target = parse_placement(move)
        r = PUZZLE.edit(inst, f"add:{target.name}")
        inst, sel = r.instance, r.selection
        assert sel == target.name
        if target.flip:
            inst = PUZZLE.edit(inst, "flip", selection=sel).instance
        cur = next(p for p in inst.draft if p.name == sel)
        for _ in range((target.rot - cur.rot) % 8):
            inst = PUZZLE.edit(inst, "rotate", selection=sel).instance
        cur = next(p for p in inst.draft if p.name == sel)
        assert (cur.rot, cur.flip) == (target.rot, target.flip)
        inst = PUZZLE.edit(inst, f"move:{target.x - cur.x},{target.y - cur.y}", selection=sel).instance
    assert sorted(p.notation() for p in inst.draft) == sorted(CLASSIC)
    assert PUZZLE.parse(PUZZLE.format(inst)) == inst          # the draft round-trips
    shifted = PUZZLE.parse("outer 0,0 4,0 4,4 0,4" + "".join(
        f"\ndraft {parse_placement(m).moved(QS2(10), QS2(0))}" for m in CLASSIC))
    used = PUZZLE.edit(shifted, "use").instance
    assert used.components == PUZZLE.parse("outer 10,0 14,0 14,4 10,4").components
    with pytest.raises(InputError, match="select a piece"):
        PUZZLE.edit(inst, "rotate")
    with pytest.raises(InputError, match="place all seven"):
        PUZZLE.edit(PUZZLE.edit(inst, "remove", selection="M").instance, "use")


def test_renderer_marks_last_and_next_move_and_draft_actions():
    r = DefaultRenderer()
    state = PUZZLE.apply_move(PUZZLE.apply_move(square_state(), CLASSIC[0]), CLASSIC[1])
    svg = r.render(state, last_move=CLASSIC[1], next_move=CLASSIC[2])
    root = ET.fromstring(svg)
    assert root.get("viewBox") and "<style" in svg
    classes = {el.get("data-key"): el.get("class", "") for el in root.iter() if el.get("data-key")}
    assert "last-move" in classes["piece-L2"] and "last-move" not in classes["piece-L1"]
    assert "next-move" in classes["piece-M"]
    assert r.render(state, last_move=CLASSIC[1]) == r.render(state, last_move=CLASSIC[1])
    inst = PUZZLE.edit(PUZZLE.parse("outer 0,0 4,0 4,4 0,4"), "add:M").instance
    svg = r.render(PUZZLE.start(inst), selection="M")
    assert 'data-action="select:M"' in svg and "selected" in svg


def _view_box(svg: str) -> list[float]:
    return [float(v) for v in ET.fromstring(svg).get("viewBox").replace(",", " ").split()]


def test_the_thumbnail_is_the_figure_alone_while_the_editor_keeps_its_composer():
    # The gallery's thumbnail once drew the composer's 8-unit work area and the tray, so the
    # figure filled a fraction of it.
    from engine import THUMBNAIL
    state = PUZZLE.start(PUZZLE.parse(next(iter(PUZZLE.presets().values()))))
    editor = DefaultRenderer().render(state)
    thumb = DefaultRenderer().render(state, selection=THUMBNAIL)
    assert 'data-view="compose"' in editor and 'class="tray-bg"' in editor
    root = ET.fromstring(thumb)
    assert root.get("data-view") == "play" and 'class="tray-bg"' not in thumb
    assert not [el for el in root.iter() if el.get("data-action")]  # a picture: nothing to click
    # The figure box (x0, y0, x1, y1) with the play margin is the whole picture.
    x0, y0, x1, y1 = (float(v) for v in root.get("data-work").split())
    assert _view_box(thumb) == [x0, -y1, x1 - x0, y1 - y0]
    assert _view_box(thumb)[2] < _view_box(editor)[2]
