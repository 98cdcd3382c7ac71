"""The tangram composer and board markup: exact snapping of dropped pieces, turning and
flipping in place, overlaps, "Use as silhouette", drawing a silhouette by clicks, moves in
plain words, and the markup the host animates (stable keys, last/next move cues)."""

import random
import xml.etree.ElementTree as ET

import pytest

from engine import InputError
from plugins.tangram.numbers import QS2
from plugins.tangram.pieces import Placement, parse_placement
from plugins.tangram.puzzle import Tangram
from plugins.tangram.render import DefaultRenderer
from plugins.tangram.snapping import centroid, flipped, turned

PUZZLE = Tangram()
RENDERER = DefaultRenderer()
SQUARE = "outer 0,0 4,0 4,4 0,4"
#: A hand-made cover of the 4 x 4 square (checked by test_tangram_puzzle's replay).
CLASSIC = ["L1 r5 f0 @ 2,2", "L2 r3 f0 @ 2,2", "M r4 f0 @ 4,4", "Q r1 f0 @ 3,1",
           "S1 r7 f0 @ 3,1", "S2 r1 f0 @ 2,2", "P r0 f1 @ 3,3"]
NS = "{http://www.w3.org/2000/svg}"


def drop(instance, placement: Placement, dx: float, dy: float):
    """Drop a piece as the browser would: its vertex 0 near (but not at) an exact position."""
    p = placement
    return PUZZLE.edit(instance, f"drop:{p.name} r{p.rot} f{p.flip} @ "
                                 f"{float(p.x) + dx:.4f},{float(p.y) + dy:.4f}")


def draft_piece(instance, name):
    return next(p for p in instance.draft if p.name == name)


def svg_root(instance, selection=None):
    return ET.fromstring(RENDERER.render(PUZZLE.start(instance), selection=selection))


# -- snapping ----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_rough_drops_snap_to_the_exact_classic_cover_in_any_order(seed):
    rng = random.Random(seed)
    order = CLASSIC[:]
    rng.shuffle(order)
    inst = PUZZLE.parse(SQUARE)
    for move in order:
        target = parse_placement(move)
        result = drop(inst, target, rng.uniform(-0.12, 0.12), rng.uniform(-0.12, 0.12))
        inst = result.instance
        assert draft_piece(inst, target.name) == target     # exact, not within a tolerance
        assert result.selection == target.name
    assert sorted(p.notation() for p in inst.draft) == sorted(CLASSIC)


@pytest.mark.parametrize("action, expected", [
    # a vertex on another piece's vertex: S1's corner lands on L1's corner (2r2, 0)
    ("drop:S1 r0 f0 @ 2.9,0.1", "S1 r0 f0 @ 2r2,0"),
    # flush under L1's bottom edge, slid to a whole unit along it (Q's top-left corner at 1,0)
    ("drop:Q r0 f0 @ 1.04,-1.45", "Q r0 f0 @ 1,-r2"),
    # nothing near: the half-unit lattice
    ("drop:M r0 f0 @ -2.1,-1.4", "M r0 f0 @ -2,-3/2"),
])
def test_a_drop_snaps_to_vertices_edges_or_the_lattice(action, expected):
    inst = PUZZLE.parse(SQUARE + "\ndraft L1 r0 f0 @ 0,0")
    name = expected.split()[0]
    assert draft_piece(PUZZLE.edit(inst, action).instance, name) == parse_placement(expected)


def test_a_drop_prefers_a_spot_that_overlaps_nothing():
    inst = PUZZLE.parse(SQUARE + "\ndraft L1 r0 f0 @ 0,0")
    # the nearest lattice point would put M's corner inside L1; it slides onto L1's long edge
    moved = draft_piece(PUZZLE.edit(inst, "drop:M r0 f0 @ 1.1,1.4").instance, "M")
    assert moved.x + moved.y == QS2(0, 2)       # vertex 0 on the line x + y = 2r2
    assert "overlap" not in " ".join(PUZZLE.notes(PUZZLE.edit(inst, "drop:M r0 f0 @ 1.1,1.4").instance))


def test_dropping_a_piece_on_the_tray_puts_it_back():
    inst = PUZZLE.parse(SQUARE + "\ndraft L1 r0 f0 @ 0,0")
    tray = [float(v) for v in svg_root(inst).get("data-tray").split()]
    x, y = (tray[0] + tray[2]) / 2, (tray[1] + tray[3]) / 2
    result = PUZZLE.edit(inst, f"drop:L1 r0 f0 @ {x - 0.9:.3f},{y - 0.9:.3f}")
    assert result.instance.draft == () and "tray" in result.message


@pytest.mark.parametrize("bad", ["drop:L1 r0 f0 @ 1e9,0", "drop:X r0 f0 @ 0,0", "drop:L1 r8 f0 @ 0,0",
                                 "drop:L1 r0 f0 @ 99999,0", "drop:L1 r0 f0 @ nan,0", "drop:"])
def test_bad_drops_are_refused_in_words(bad):
    with pytest.raises(InputError) as exc:
        PUZZLE.edit(PUZZLE.parse(SQUARE), bad)
    assert str(exc.value)


def test_turning_and_flipping_keep_the_piece_centre_exactly():
    for name in ("L1", "M", "S2", "Q", "P"):
        for rot in range(8):
            for flip in (0, 1):
                p = Placement(name, rot, flip, QS2(1, "1/2"), QS2("-1/3", 1))
                t = turned(p, 1)
                assert t.rot == (rot + 1) % 8 and centroid(t) == centroid(p)
                assert turned(turned(p, 3), -3) == p
                f = flipped(p)
                assert flipped(f) == p and centroid(f) == centroid(p)
                # the flip mirrors every vertex about the vertical line through the centre
                cx = centroid(p)[0]
                assert sorted(f.vertices()) == sorted((2 * cx - x, y) for x, y in p.vertices())


def test_r_and_f_edits_turn_and_flip_the_selected_piece():
    inst = PUZZLE.parse(SQUARE + "\ndraft P r0 f0 @ -2,-2")
    turned_ = draft_piece(PUZZLE.edit(inst, "rotate", selection="P").instance, "P")
    back = draft_piece(PUZZLE.edit(inst, "rotate:-1", selection="P").instance, "P")
    assert (turned_.rot, back.rot) == (1, 7)
    assert draft_piece(PUZZLE.edit(inst, "flip", selection="P").instance, "P").flip == 1
    with pytest.raises(InputError, match="select a piece"):
        PUZZLE.edit(inst, "flip")


# -- overlaps and "Use as silhouette" ----------------------------------------------------------

def test_overlaps_are_counted_tinted_and_block_use_as_silhouette():
    inst = PUZZLE.parse(SQUARE + "\ndraft L1 r0 f0 @ 0,0\ndraft L2 r0 f0 @ 1,0\ndraft S1 r0 f0 @ 1/2,1/2"
                                 "\ndraft Q r0 f0 @ -5,-5")
    root = svg_root(inst)
    assert root.get("data-overlaps") == "3" and root.get("data-can-use") == "false"
    tinted = {g.get("data-piece") for g in root.iter(NS + "g") if "overlap" in g.get("class", "").split()}
    assert tinted == {"L1", "L2", "S1"}
    counts = [t.text for t in root.iter(NS + "text") if "overlap-count" in t.get("class", "")]
    assert counts == ["3 overlaps"]
    assert any("3 overlaps" in n for n in PUZZLE.notes(inst))
    seven = PUZZLE.parse(SQUARE + "".join(f"\ndraft {m}" for m in CLASSIC if not m.startswith("S1"))
                         + "\ndraft S1 r0 f0 @ 1,1")
    assert svg_root(seven).get("data-can-use") == "false"
    with pytest.raises(InputError, match="overlap"):
        PUZZLE.edit(seven, "use")


def test_all_seven_without_overlap_can_be_used_as_the_silhouette():
    shifted = [parse_placement(m).moved(QS2(-2), QS2(-3)) for m in CLASSIC]
    inst = PUZZLE.parse(SQUARE + "".join(f"\ndraft {p.notation()}" for p in shifted))
    root = svg_root(inst)
    assert root.get("data-can-use") == "true" and root.get("data-overlaps") == "0"
    used = PUZZLE.edit(inst, "use").instance
    assert used.components == PUZZLE.parse("outer -2,-3 2,-3 2,1 -2,1").components
    six = PUZZLE.edit(inst, "remove", selection="M").instance
    assert svg_root(six).get("data-can-use") == "false"


def test_adding_pieces_never_resizes_the_board():
    inst = PUZZLE.parse(PUZZLE.presets()["cat"])
    boxes = {svg_root(inst).get("viewBox")}
    for name in ("L1", "L2", "M", "S1", "S2", "Q", "P"):
        inst = PUZZLE.edit(inst, f"add:{name}").instance
        boxes.add(svg_root(inst).get("viewBox"))
    assert len(boxes) == 1
    assert PUZZLE.notes(inst)[-1].startswith("Composition: 7 of 7 pieces placed")


# -- drawing a silhouette ------------------------------------------------------------------------

def draw(instance, clicks):
    result = PUZZLE.edit(instance, "draw")
    for x, y in clicks:
        result = PUZZLE.edit(result.instance, f"draw:{x},{y}", selection=result.selection)
    return result


@pytest.mark.parametrize("clicks, expected", [
    # a square from rough clicks: the first point on the lattice, then whole steps
    ([(0.1, 0.05), (3.9, 0.1), (4.05, 4.05), (0.1, 3.95), (0.1, 0.1)], "outer 0,0 4,0 4,4 0,4"),
    # steps of r2 along the axes: the 2r2 x 4r2 rectangle
    ([(0, 0), (2.83, 0.05), (2.9, 5.64), (0.1, 5.7), (0, 0.2)], "outer 0,0 2r2,0 2r2,4r2 0,4r2"),
    # a diagonal edge of length 2r2 (area 4, scaled exactly to 16)
    ([(0, 0), (4, 0), (2.1, 1.9), (0.05, 0)], "outer 0,0 4,0 2,2"),
])
def test_a_silhouette_drawn_by_clicks_round_trips(clicks, expected):
    result = draw(PUZZLE.parse(PUZZLE.presets()["square"] + "draft M r0 f0 @ -2,-2"), clicks)
    assert result.selection is None
    sil = result.instance
    assert sil.components == PUZZLE.parse(expected).components
    assert PUZZLE.parse(PUZZLE.format(sil)) == sil


def test_an_outline_of_the_wrong_area_stays_in_the_drawing():
    result = draw(PUZZLE.parse(SQUARE), [(0, 0), (3, 0), (3, 1), (0, 1), (0, 0)])
    assert result.instance == PUZZLE.parse(SQUARE)
    assert "area is 3" in result.message
    assert result.selection == "draw:0,0 3,0 3,1 0,1|"
    root = svg_root(result.instance, result.selection)
    assert root.get("data-view") == "draw"
    undone = PUZZLE.edit(result.instance, "draw-undo", selection=result.selection)
    assert undone.selection == "draw:|0,0 3,0 3,1 0,1"
    assert PUZZLE.edit(result.instance, "draw-cancel", selection=result.selection).selection is None


def test_an_outline_that_cannot_close_at_45_degrees_says_why():
    result = draw(PUZZLE.parse(SQUARE), [(0, 0), (2, 0), (2, 1), (0.5, 1)])
    assert result.selection == "draw:|0,0 2,0 2,1 1/2,1"
    with pytest.raises(InputError, match="45 degrees"):      # from (1/2, 1) back to (0, 0)
        PUZZLE.edit(result.instance, "draw:0.05,0.05", selection=result.selection)


# -- plain words ---------------------------------------------------------------------------------

@pytest.mark.parametrize("move, words", [
    ("L1 r5 f1 @ 2,2", "Large triangle 1, turned 225 degrees, flipped"),
    ("L2 r0 f0 @ 0,0", "Large triangle 2"),
    ("M r2 f0 @ 1,1", "Medium triangle, turned 90 degrees"),
    ("S2 r7 f0 @ r2,0", "Small triangle 2, turned 315 degrees"),
    ("Q r1 f0 @ 3,1", "Square, turned 45 degrees"),
    ("P r0 f1 @ 3,3", "Parallelogram, flipped"),
])
def test_describe_move_in_plain_words(move, words):
    assert PUZZLE.describe_move(PUZZLE.start(PUZZLE.parse(SQUARE)), move) == words


def test_describe_solution_is_readable_and_keeps_exact_corners():
    details = PUZZLE.describe_solution(PUZZLE.parse(SQUARE), CLASSIC)
    assert details["pieces"][0] == {"piece": "Large triangle 1, turned 225 degrees", "vertices": "2,2 0,0 4,0"}
    assert details["pieces"][3] == {"piece": "Square, turned 45 degrees", "vertices": "3,1 4,2 3,3 2,2"}
    assert list(details) == ["pieces"] and "float" not in repr(details)


# -- markup the host animates ------------------------------------------------------------------

def step_roots(moves):
    state = PUZZLE.start(PUZZLE.parse(SQUARE))
    states = [state]
    for m in moves:
        state = PUZZLE.apply_move(state, m)
        states.append(state)
    return [ET.fromstring(RENDERER.render(s, last_move=moves[i - 1] if i else None,
                                          next_move=moves[i] if i < len(moves) else None))
            for i, s in enumerate(states)]


def keyed(root):
    return {g.get("data-key"): g for g in root.iter() if g.get("data-key")}


def test_every_piece_keeps_one_key_at_every_step():
    for root in step_roots(CLASSIC):
        keys = [g.get("data-key") for g in root.iter() if g.get("data-key")]
        assert sorted(keys) == sorted(f"piece-{n}" for n in ("L1", "L2", "M", "S1", "S2", "Q", "P"))
        assert all(g.tag == NS + "g" for g in keyed(root).values())


def test_last_and_next_move_are_distinct_cues():
    roots = step_roots(CLASSIC)
    for i, root in enumerate(roots):
        classes = {k: g.get("class").split() for k, g in keyed(root).items()}
        last = [k for k, c in classes.items() if "last-move" in c]
        nxt = [k for k, c in classes.items() if "next-move" in c]
        assert last == ([f"piece-{CLASSIC[i - 1].split()[0]}"] if i else [])
        assert nxt == ([f"piece-{CLASSIC[i].split()[0]}"] if i < len(CLASSIC) else [])
        arrows = [g for g in root.iter(NS + "g") if g.get("class", "").split() == ["move-arrow", "next-move"]]
        ghosts = [g for g in root.iter(NS + "g") if "ghost" in g.get("class", "").split()]
        assert len(arrows) == len(ghosts) == (1 if i < len(CLASSIC) else 0)
        assert not (set(last) & set(nxt))


def test_the_piece_flies_from_the_tray_to_its_place():
    before, after = step_roots(CLASSIC[:1])
    def centre(g):
        pts = [tuple(map(float, p.split(","))) for p in g.find(NS + "polygon").get("points").split()]
        return sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
    assert "in-tray" in keyed(before)["piece-L1"].get("class")
    assert "in-tray" not in keyed(after)["piece-L1"].get("class")
    assert centre(keyed(before)["piece-L1"]) != centre(keyed(after)["piece-L1"])
    assert centre(keyed(before)["piece-M"]) == centre(keyed(after)["piece-M"])  # others stay


def test_actionable_parts_are_named_and_leave_focus_to_the_host():
    inst = PUZZLE.parse(SQUARE + "\ndraft L1 r0 f0 @ 0,0\ndraft M r0 f0 @ 1,0")
    root = svg_root(inst, selection="L1")
    actionable = [el for el in root.iter() if el.get("data-action")]
    assert {el.get("data-action") for el in actionable} >= {"select:L1", "select:M", "add:Q", "rotate"}
    for el in actionable:
        assert el.get("aria-label"), el.get("data-action")
    assert not [el for el in root.iter() if el.get("tabindex") is not None or el.get("role") == "button"]
    labels = {el.get("data-action"): el.get("aria-label") for el in actionable}
    assert labels["select:L1"] == "Large triangle 1, overlaps Medium triangle, selected"
    assert labels["add:Q"] == "Square, in the tray"


# -- assess: "cannot" only with a proof ---------------------------------------------------------

def test_assess_says_cannot_only_with_a_proof():
    start = PUZZLE.start(PUZZLE.parse(SQUARE))
    assert PUZZLE.assess(start).verdict == "unknown"
    state = start
    for move in CLASSIC[:-1]:
        state = PUZZLE.apply_move(state, move)
        assert PUZZLE.assess(state).verdict == "unknown"     # a cover is still possible
    assert PUZZLE.assess(PUZZLE.apply_move(state, CLASSIC[-1])).verdict == "solved"
    # a large triangle in the corner leaves a bottom edge of 4 - 2r2: no piece edges sum to it
    stuck = PUZZLE.assess(PUZZLE.apply_move(start, "L1 r0 f0 @ 0,0"))
    assert stuck.verdict == "cannot" and stuck.reason.startswith("No:")
    assert "4-2r2" in stuck.detail


def test_the_box_shortcut_never_changes_the_exact_overlap_answer():
    from plugins.tangram.cover_check import pieces_overlap
    from plugins.tangram.snapping import overlaps
    rng = random.Random(7)
    steps = [QS2(0), QS2("1/2"), QS2(0, "1/2"), QS2(1), QS2(0, 1), QS2(2)]
    names = ("L1", "M", "S1", "Q", "P")
    seen = set()
    for _ in range(400):
        a, b = (Placement(rng.choice(names), rng.randrange(8), rng.randrange(2),
                          rng.choice(steps) * rng.choice((1, -1)), rng.choice(steps) * rng.choice((1, -1)))
                for _ in range(2))
        exact = pieces_overlap(a, b)
        assert overlaps(a, b) == exact, (a, b)
        seen.add(exact)
    assert seen == {True, False}
