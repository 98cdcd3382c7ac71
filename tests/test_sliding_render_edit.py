"""Sliding-tile SVG rendering and the editor's actions."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from engine import EditResult, InputError
from plugins.sliding.board import blank_first_goal, is_solvable, parse_board, standard_goal
from plugins.sliding.puzzle import SlidingPuzzle
from plugins.sliding.render import DefaultRenderer

PUZZLE = SlidingPuzzle()
RENDERER = DefaultRenderer()
SVG = "{http://www.w3.org/2000/svg}"


def groups(svg: str) -> dict[int, ET.Element]:
    """tile number -> its <g>, checking there is exactly one per tile."""
    root = ET.fromstring(svg)
    found = {}
    for el in root.iter():
        if el.get("data-action"):
            tile = int(el.get("data-tile"))
            assert tile not in found
            assert el.get("data-action") == f"tile:{tile}"
            found[tile] = el
    return found


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def test_svg_has_a_viewbox_a_style_and_one_action_per_tile():
    board = parse_board("1 2 3 4/5 6 0 8/9 10 7 11/13 14 15 12")
    svg = RENDERER.render(board)
    root = ET.fromstring(svg)
    x0, y0, width, height = map(float, root.get("viewBox").split())
    for rect in root.iter(f"{SVG}rect"):                  # every part lies inside the viewBox
        x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
        assert x0 <= x and x + float(rect.get("width")) <= x0 + width
        assert y0 <= y and y + float(rect.get("height")) <= y0 + height
    assert width == height                                # a square board in a square box
    wide = ET.fromstring(RENDERER.render(parse_board("1 2 3 4/5 6 7 0")))
    assert float(wide.get("viewBox").split()[2]) > float(wide.get("viewBox").split()[3])
    assert root.find(f".//{SVG}style") is not None and ".tile" in root.find(f".//{SVG}style").text
    tiles = groups(svg)
    assert sorted(tiles) == list(range(16))
    assert classes(tiles[0]) >= {"blank", "tile-0"}
    assert classes(tiles[5]) >= {"tile", "tile-5", "home"}   # on its goal cell
    assert "home" not in classes(tiles[7])
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert texts == {str(t) for t in range(1, 16)}           # every tile numbered, the blank not
    assert RENDERER.render(board) == svg                      # pure


def test_last_and_next_move_are_distinct_cues_and_selection_is_marked():
    board = parse_board("1 2 3/4 0 6/7 5 8")
    before = groups(RENDERER.render(board, next_move="5", last_move="6"))
    assert {t for t, g in before.items() if "next-move" in classes(g)} == {5}
    assert {t for t, g in before.items() if "last-move" in classes(g)} == {6}
    after = PUZZLE.apply_move(board, "5")
    marked = groups(RENDERER.render(after, last_move="5"))
    assert {t for t, g in marked.items() if "last-move" in classes(g)} == {5}
    assert not any("next-move" in classes(g) for g in marked.values())
    assert not any("moving" in classes(g) for g in before.values())  # the old shared class is gone
    selected = groups(RENDERER.render(board, selection="6"))
    assert "selected" in classes(selected[6])
    assert sum("selected" in classes(g) for g in selected.values()) == 1


def _centre(root: ET.Element, el: ET.Element) -> tuple[float, float]:
    rect = el.find(f"{SVG}rect")
    return (float(rect.get("x")) + float(rect.get("width")) / 2,
            float(rect.get("y")) + float(rect.get("height")) / 2)


def keyed(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    found = {}
    for el in root.iter():
        if el.get("data-key"):
            assert el.get("data-key") not in found, "keys are unique within one SVG"
            assert el.tag == f"{SVG}g"
            found[el.get("data-key")] = el
    return found


def test_a_moved_tile_keeps_its_key_and_only_its_position_changes():
    board = parse_board("1 2 3/4 0 6/7 5 8")
    before = keyed(RENDERER.render(board, next_move="5"))
    after_board = PUZZLE.apply_move(board, "5")
    after = keyed(RENDERER.render(after_board, last_move="5"))
    assert set(before) == set(after) == {f"tile-{t}" for t in range(1, 9)}  # the blank has no key
    root = ET.fromstring(RENDERER.render(board))
    moved = {k for k in before if _centre(root, before[k]) != _centre(root, after[k])}
    assert moved == {"tile-5"}
    (x0, y0), (x1, y1) = _centre(root, before["tile-5"]), _centre(root, after["tile-5"])
    assert x0 == x1 and y1 == y0 - 100  # one cell up, into the blank


def test_the_next_move_arrow_runs_from_the_tile_to_the_blank():
    board = parse_board("1 2 3/4 0 6/7 5 8")
    root = ET.fromstring(RENDERER.render(board, next_move="6", last_move="5"))
    arrows = [g for g in root.iter(f"{SVG}g") if "move-arrow" in classes(g)]
    assert len(arrows) == 1 and classes(arrows[0]) == {"move-arrow", "next-move"}
    line = arrows[0].find(f"{SVG}line")
    tile6, blank = (250, 150), (150, 150)  # cell centres: margin 6 + 100 per cell (+50)
    start = (float(line.get("x1")), float(line.get("y1")))
    tip = [tuple(map(float, p.split(","))) for p in arrows[0].find(f"{SVG}polygon").get("points").split()][0]
    assert abs(start[0] - tile6[0] - 6) < 20 and start[1] == tile6[1] + 6
    assert blank[0] + 6 <= tip[0] < start[0] and tip[1] == blank[1] + 6
    assert not [g for g in ET.fromstring(RENDERER.render(board)).iter(f"{SVG}g")
                if "move-arrow" in classes(g)]


def test_every_part_is_named_with_its_place_and_state_and_carries_grid_coordinates():
    board = parse_board("1 2 3/4 0 6/7 5 8")
    tiles = groups(RENDERER.render(board, selection="8"))
    labels = {t: g.get("aria-label") for t, g in tiles.items()}
    assert labels[5] == "tile 5, can slide up, row 3, column 2"
    assert labels[6] == "tile 6, can slide left, in place, row 2, column 3"
    assert labels[1] == "tile 1, in place, row 1, column 1"
    assert labels[8] == "tile 8, row 3, column 3, selected"
    assert labels[0] == "blank, row 2, column 2"
    for tile, g in tiles.items():
        cell = board.tiles.index(tile)
        assert (int(g.get("data-row")), int(g.get("data-col"))) == divmod(cell, 3)
        assert g.get("tabindex") is None and g.get("role") is None  # the host adds those


def test_a_32x32_board_renders_with_smaller_digits():
    big = PUZZLE.random(1, {"size": "32x32"})
    svg = RENDERER.render(big)
    assert len(groups(svg)) == 32 * 32
    small_font = float(ET.fromstring(RENDERER.render(parse_board("1 2/3 0"))).find(f".//{SVG}text").get("font-size"))
    big_font = float(ET.fromstring(svg).find(f".//{SVG}text").get("font-size"))
    assert big_font < small_font  # four-digit numbers still fit a cell


# -- editing ---------------------------------------------------------------------------------------

def test_play_mode_slides_a_tile_next_to_the_blank():
    board = parse_board("1 2 3/4 0 6/7 5 8")
    assert [m.name for m in PUZZLE.edit_modes()] == ["play", "swap"]
    result = PUZZLE.edit(board, "tile:5", mode="play")
    assert result.instance.tiles == (1, 2, 3, 4, 5, 6, 7, 0, 8)
    assert PUZZLE.edit(board, "tile:5").instance == result.instance  # play is the default mode
    with pytest.raises(InputError, match="not next to the blank"):
        PUZZLE.edit(board, "tile:1", mode="play")
    with pytest.raises(InputError, match="blank"):
        PUZZLE.edit(board, "tile:0", mode="play")
    with pytest.raises(InputError, match="no tile 12"):
        PUZZLE.edit(board, "tile:12")
    with pytest.raises(InputError, match="edit mode"):
        PUZZLE.edit(board, "tile:5", mode="juggle")


def test_swap_mode_selects_then_swaps_and_may_break_solvability():
    board = parse_board("1 2 3/4 5 6/7 8 0")
    first = PUZZLE.edit(board, "tile:1", mode="swap")
    assert first.instance == board and first.selection == "1" and "selected" in first.message
    second = PUZZLE.edit(board, "tile:2", mode="swap", selection=first.selection)
    assert second.instance.tiles == (2, 1, 3, 4, 5, 6, 7, 8, 0)
    assert second.selection is None
    assert not is_solvable(second.instance) and "no longer be solved" in second.message
    assert any("cannot be solved" in n for n in PUZZLE.notes(second.instance))
    # Clicking the selected tile again deselects it.
    again = PUZZLE.edit(board, "tile:1", mode="swap", selection="1")
    assert again.instance == board and again.selection is None
    # The blank can be swapped too.
    blank = PUZZLE.edit(board, "tile:0", mode="swap", selection="5")
    assert blank.instance.tiles == (1, 2, 3, 4, 0, 6, 7, 8, 5)
    with pytest.raises(InputError):
        PUZZLE.edit(board, "tile:2", mode="swap", selection="77")


def test_tools_reset_resize_and_goal_and_the_shuffle_action():
    board = parse_board("1 2 3/4 5 6/7 8 0")
    tools = {t.label: t for t in PUZZLE.edit_tools(board)}
    # No tool duplicates the page's Random button, and no label repeats a Random option's name.
    assert set(tools) == {"Reset to goal", "Resize", "Blank ends"}
    assert not {label.lower() for label in tools} & {"random", "shuffle", *PUZZLE.random_options}

    shuffled = PUZZLE.edit(board, "shuffle").instance   # kept for API clients
    assert shuffled != board and is_solvable(shuffled)
    assert PUZZLE.edit(board, "shuffle").instance == shuffled   # deterministic
    by_seed = {PUZZLE.edit(board, f"shuffle:{seed}").instance for seed in range(20)}
    assert len(by_seed) == 20 and all(is_solvable(b) for b in by_seed)
    wide = parse_board("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0")
    assert all(is_solvable(PUZZLE.edit(wide, f"shuffle:{s}").instance) for s in range(20))
    with pytest.raises(InputError, match="seed"):
        PUZZLE.edit(board, "shuffle:abc")

    reset = PUZZLE.edit(shuffled, "reset").instance
    assert reset.tiles == reset.goal == standard_goal(3, 3)

    actions = [a for _, a in tools["Resize"].choices]
    assert "resize:4x4" in actions and "resize:2x2" in actions and "resize:8x8" in actions
    resized = PUZZLE.edit(board, "resize:3x5").instance
    assert (resized.rows, resized.cols) == (3, 5) and resized.tiles == standard_goal(3, 5)
    for bad in ("resize:1x4", "resize:33x2", "resize:wide"):
        with pytest.raises(InputError):
            PUZZLE.edit(board, bad)

    assert dict(tools["Blank ends"].choices) == {"last (bottom right)": "goal:blank-last",
                                                  "first (top left)": "goal:blank-first"}
    first = PUZZLE.edit(board, "goal:blank-first").instance
    assert first.goal == first.tiles == blank_first_goal(3, 3)   # a solved board follows its goal
    assert PUZZLE.edit(first, "resize:4x4").instance.goal == blank_first_goal(4, 4)
    kept = PUZZLE.edit(shuffled, "goal:blank-first").instance
    assert kept.tiles == shuffled.tiles and kept.goal == blank_first_goal(3, 3)
    with pytest.raises(InputError):
        PUZZLE.edit(board, "goal:diagonal")


@pytest.mark.parametrize("action", ["", "tile", "tile:", "explode", "reset:now", "shuffle:-1",
                                    "tile:1:2", "resize:", "goal:"])
def test_unknown_or_malformed_actions_are_input_errors(action):
    with pytest.raises(InputError):
        PUZZLE.edit(parse_board("1 2 3/4 5 6/7 0 8"), action)


def test_every_rendered_action_is_understood_in_both_modes():
    board = parse_board("1 2 3/4 5 6/7 0 8")
    for tile in groups(RENDERER.render(board)):
        swap = PUZZLE.edit(board, f"tile:{tile}", mode="swap")
        assert isinstance(swap, EditResult) and swap.selection == str(tile)
        try:
            PUZZLE.edit(board, f"tile:{tile}", mode="play")
        except InputError as exc:  # only tiles away from the blank (or the blank) refuse
            assert tile not in (5, 7, 8)
            assert exc.message


def test_a_tile_moved_back_at_once_carries_only_the_next_move_cue():
    board = parse_board("1 2 3/4 5 6/7 0 8")   # 5 just slid down; sliding it up again undoes it
    tiles = groups(RENDERER.render(board, last_move="5", next_move="5"))
    assert classes(tiles[5]) >= {"next-move"} and "last-move" not in classes(tiles[5])
