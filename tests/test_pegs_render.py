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


def test_rendering_is_deterministic_and_escapes_nothing_unexpected():
    inst = PUZZLE.parse(PRESETS["triangle-corners"])
    svg = RENDER(inst)
    assert svg == RENDER(inst)
    assert "<script" not in svg
    found = cells(svg)
    assert "goal" in classes(found["a5"]) and "goal" in classes(found["e5"])
