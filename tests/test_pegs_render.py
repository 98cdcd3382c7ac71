"""The peg solitaire SVG: holes, pegs, goal, playback highlights, clickable cells, true triangles."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from plugins.pegs.presets import PRESETS
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.render import DefaultRenderer

PUZZLE = PegSolitaire()
RENDER = DefaultRenderer().render
NS = "{http://www.w3.org/2000/svg}"


def cells(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    assert root.get("viewBox") and root.find(f"{NS}defs/{NS}style") is not None
    return {g.get("data-hole"): g for g in root.iter(f"{NS}g") if g.get("data-hole")}


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def centre_of(circle: ET.Element) -> tuple[float, float]:
    return float(circle.get("cx")), float(circle.get("cy"))


def centre(el: ET.Element) -> tuple[float, float]:
    circle = el.find(f"{NS}circle")
    return float(circle.get("cx")), float(circle.get("cy"))


def test_every_cell_of_the_bounding_grid_is_clickable_holes_pegs_and_goal_are_marked():
    inst = PUZZLE.parse(PRESETS["english"])
    found = cells(RENDER(inst))
    assert len(found) == 49  # 7 x 7, no-hole corners included so toggle can add holes
    assert all(g.get("data-action") == f"hole:{name}" for name, g in found.items())
    assert {"nohole"} <= classes(found["a1"])
    assert {"hole", "empty", "goal"} <= classes(found["d4"])
    assert {"hole", "peg"} <= classes(found["c1"])
    assert sum("peg" in classes(g) for g in found.values()) == 32


def test_playback_highlights_the_jumping_peg_the_jumped_peg_and_the_landing_hole():
    inst = PUZZLE.parse(PRESETS["english"])
    before = cells(RENDER(inst, next_move="f4-d4"))
    assert "jumper" in classes(before["f4"]) and "jumped" in classes(before["e4"])
    assert "landing" in classes(before["d4"])
    after_state = PUZZLE.apply_move(inst, "f4-d4")
    after = cells(RENDER(after_state, last_move="f4-d4"))
    assert "landed" in classes(after["d4"]) and "jumped" in classes(after["e4"])
    assert "jumper-from" in classes(after["f4"])
    selected = cells(RENDER(inst, selection="f4"))
    assert "selected" in classes(selected["f4"])


def test_triangular_boards_are_drawn_as_equilateral_triangles():
    found = cells(RENDER(PUZZLE.parse(PRESETS["triangle-5"])))
    a1, a5, e5, b2, a2 = (centre(found[n]) for n in ("a1", "a5", "e5", "b2", "a2"))
    side = math.dist(a5, e5)
    assert math.isclose(math.dist(a1, a5), side, rel_tol=1e-4)
    assert math.isclose(math.dist(a1, e5), side, rel_tol=1e-4)
    assert math.isclose(math.dist(a1, a2), math.dist(a1, b2), rel_tol=1e-4)  # neighbours are equally far


def test_rendering_is_deterministic_and_marks_the_goal_holes():
    inst = PUZZLE.parse(PRESETS["triangle-corners"])
    svg = RENDER(inst)
    assert svg == RENDER(inst)
    found = cells(svg)
    assert "goal" in classes(found["a5"]) and "goal" in classes(found["e5"])


# -- the board markup contract: keys, last/next move, names, coordinates -----------------------


def pieces(svg: str) -> dict[str, tuple[float, float]]:
    """data-key -> centre of every keyed part (each key once; each keyed part a <g>)."""
    root = ET.fromstring(svg)
    found = {}
    for el in root.iter():
        if el.get("data-key"):
            assert el.tag == f"{NS}g" and el.get("data-key") not in found
            found[el.get("data-key")] = centre(el)
    return found


def aliases(svg: str) -> dict[str, str]:
    return {el.get("data-key-also"): el.get("data-key") for el in ET.fromstring(svg).iter()
            if el.get("data-key-also")}


def cell_centre(svg: str, name: str) -> tuple[float, float]:
    return centre(cells(svg)[name])


def step_svgs(inst, moves):
    """The SVG of each step of a playback, as the client shows it (last and next move)."""
    states = [inst]
    for move in moves:
        states.append(PUZZLE.apply_move(states[-1], move))
    return [RENDER(state, last_move=moves[k - 1] if k else None,
                   next_move=moves[k] if k < len(moves) else None) for k, state in enumerate(states)]


def test_the_jumping_peg_keeps_its_key_and_glides_and_the_jumped_peg_key_vanishes():
    inst = PUZZLE.parse(PRESETS["english"])
    before_svg, after_svg = step_svgs(inst, ["f4-d4"])
    before, after = pieces(before_svg), pieces(after_svg)
    assert before["peg-f4"] == cell_centre(before_svg, "f4")
    assert after["peg-f4"] == cell_centre(after_svg, "d4")  # the same key, now on the landing hole
    assert "peg-e4" in before and "peg-e4" not in after     # the jumped peg vanishes
    assert set(before) - set(after) == {"peg-e4"} and set(after) == set(before) - {"peg-e4"}
    moved = {k for k in after if before[k] != after[k]}
    assert moved == {"peg-f4"}
    assert aliases(after_svg) == {"peg-d4": "peg-f4"}  # the peg's own hole, for the next step


def test_every_step_of_a_multi_jump_keeps_the_pegs_identity_through_the_aliases():
    inst = PUZZLE.parse(PRESETS["english"])
    moves = ["d2-d4", "f3-d3", "e1-e3", "e4-e2", "c1-e1", "e1-e3"]  # e1-e3 after c1-e1: a double jump
    svgs = step_svgs(inst, moves)
    for k, move in enumerate(moves):
        old, new = pieces(svgs[k]), pieces(svgs[k + 1])
        old_also = aliases(svgs[k])
        frm, to = move.split("-")
        # The client's rule: a new part matches the old part with the same key, or (failing that)
        # the old part that lists the key in data-key-also.
        mover = next(key for key, where in new.items() if where == cell_centre(svgs[k + 1], to))
        old_key = mover if mover in old else old_also.get(mover, mover)
        assert old_key in old, (move, mover)
        assert old[old_key] == cell_centre(svgs[k], frm) and new[mover] == cell_centre(svgs[k + 1], to)
        standing = {key for key in new if key != mover}
        for key in standing:  # every other peg matches a peg on the same hole
            matched = key if key in old else old_also.get(key)
            assert matched in old and old[matched] == new[key], (move, key)
        assert len(old) == len(new) + 1


def test_last_move_and_next_move_are_distinct_elements_with_an_arrow_for_the_next_jump():
    inst = PUZZLE.apply_move(PUZZLE.parse(PRESETS["english"]), "f4-d4")
    svg = RENDER(inst, last_move="f4-d4", next_move="e6-e4")
    root = ET.fromstring(svg)
    last = [el for el in root.iter() if "last-move" in classes(el)]
    nxt = [el for el in root.iter() if "next-move" in classes(el)]
    assert {el.get("data-hole") for el in last} == {"f4", "d4"}
    assert not set(map(id, last)) & set(map(id, nxt))
    assert {el.get("data-key") or el.get("data-hole") for el in nxt} == {"peg-e6", "e4", None}
    arrow = [el for el in nxt if "move-arrow" in classes(el)]
    assert len(arrow) == 1 and arrow[0].get("aria-hidden") == "true"
    line = arrow[0].find(f"{NS}line")
    e6, e4 = cell_centre(svg, "e6"), cell_centre(svg, "e4")
    assert math.isclose(float(line.get("x1")), e6[0]) and float(line.get("y1")) < e6[1]  # leaves e6 upwards
    tip = tuple(map(float, arrow[0].find(f"{NS}polygon").get("points").split()[0].split(",")))
    assert math.isclose(tip[0], e4[0]) and e4[1] < tip[1] < e4[1] + 20                    # points at e4
    captured = [el for el in root.iter() if "captured" in classes(el)]
    assert [centre_of(el) for el in captured] == [cell_centre(svg, "e5")]
    # Keyed pegs carry only what they are plus the cues, so a cue never reads as a change.
    assert {c for el in root.iter() if el.get("data-key") for c in classes(el)} <= \
        {"peg-piece", "last-move", "next-move"}
    assert "moving" not in svg


def test_every_cell_is_named_with_its_place_and_state_and_has_grid_coordinates():
    inst = PUZZLE.parse(PRESETS["english"])
    found = cells(RENDER(inst, selection="d2"))
    assert found["d4"].get("aria-label") == "d4, empty hole, goal"
    assert found["d2"].get("aria-label") == "d2, peg, can jump, selected"
    assert found["c1"].get("aria-label") == "c1, peg"
    assert found["a1"].get("aria-label") == "a1, no hole"
    for name, g in found.items():
        assert g.get("aria-label").startswith(name + ", ")
        col, row = ord(name[0]) - ord("a"), int(name[1:]) - 1
        assert (int(g.get("data-row")), int(g.get("data-col"))) == (row, col)
        assert g.get("tabindex") is None and g.get("role") is None


def test_coordinates_match_the_notation_and_sit_outside_the_board():
    for preset, letters, rows in (("english", "abcdefg", 7), ("triangle-5", "abcde", 5)):
        svg = RENDER(PUZZLE.parse(PRESETS[preset]))
        root = ET.fromstring(svg)
        groups = [g for g in root.iter(f"{NS}g") if classes(g) == {"coords"}]
        assert len(groups) == 1 and groups[0].get("aria-hidden") == "true"
        texts = {t.text: (float(t.get("x")), float(t.get("y"))) for t in groups[0].iter(f"{NS}text")}
        assert set(texts) == set(letters) | {str(r) for r in range(1, rows + 1)}
        found = cells(svg)
        # Column letters above the top row, row numbers left of the first column, each in line.
        top = min(centre(g)[1] for g in found.values())
        assert all(texts[c][1] < top for c in letters)
        for r in range(1, rows + 1):
            assert math.isclose(texts[str(r)][1], centre(found[f"a{r}"])[1])
            assert texts[str(r)][0] < centre(found[f"a{r}"])[0]


def test_describe_move_names_the_jumping_peg_the_jumped_peg_and_the_landing_hole():
    inst = PUZZLE.parse(PRESETS["english"])
    assert PUZZLE.describe_move(inst, "d2-d4") == "peg d2 jumps over d3 to d4"
    assert PUZZLE.describe_move(inst, "F4-D4") == "peg f4 jumps over e4 to d4"
    tri = PUZZLE.parse(PRESETS["triangle-5"])
    for move in PUZZLE.legal_moves(tri):
        frm, to = move.split("-")
        words = PUZZLE.describe_move(tri, move)
        after = PUZZLE.apply_move(tri, move)
        over = words.split(" over ")[1].split(" to ")[0]
        gone = {n for n in cells(RENDER(tri)) if "peg" in classes(cells(RENDER(tri))[n])} - \
            {n for n in cells(RENDER(after)) if "peg" in classes(cells(RENDER(after))[n])}
        assert words == f"peg {frm} jumps over {over} to {to}" and gone == {frm, over}


def test_a_part_carries_one_cue_even_when_the_next_jump_lands_where_the_last_one_started():
    inst = PUZZLE.parse(PRESETS["english"])
    for move in ("d2-d4", "b3-d3"):
        inst = PUZZLE.apply_move(inst, move)
    found = cells(RENDER(inst, last_move="b3-d3", next_move="b5-b3"))
    assert "next-move" in classes(found["b3"]) and "last-move" not in classes(found["b3"])
    assert "last-move" in classes(found["d3"])
