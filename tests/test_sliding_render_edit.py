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
    assert root.get("viewBox") == "0 0 412 412"
    assert root.find(f".//{SVG}style") is not None and ".tile" in root.find(f".//{SVG}style").text
    tiles = groups(svg)
    assert sorted(tiles) == list(range(16))
    assert classes(tiles[0]) >= {"blank", "tile-0"}
    assert classes(tiles[5]) >= {"tile", "tile-5", "home"}   # on its goal cell
    assert "home" not in classes(tiles[7])
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert texts == {str(t) for t in range(1, 16)}           # every tile numbered, the blank not
    assert RENDERER.render(board) == svg                      # pure


def test_moving_and_selected_tiles_are_marked():
    board = parse_board("1 2 3/4 0 6/7 5 8")
    before = groups(RENDERER.render(board, next_move="5"))
    assert "moving" in classes(before[5])
    assert not any("moving" in classes(g) for t, g in before.items() if t != 5)
    after = PUZZLE.apply_move(board, "5")
    assert "moving" in classes(groups(RENDERER.render(after, last_move="5"))[5])
    selected = groups(RENDERER.render(board, selection="6"))
    assert "selected" in classes(selected[6])
    assert sum("selected" in classes(g) for g in selected.values()) == 1


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


def test_tools_shuffle_reset_resize_and_goal():
    board = parse_board("1 2 3/4 5 6/7 8 0")
    tools = {t.label: t for t in PUZZLE.edit_tools(board)}
    assert set(tools) == {"Shuffle", "Reset to goal", "Resize", "Goal"}

    shuffled = PUZZLE.edit(board, tools["Shuffle"].action).instance
    assert shuffled != board and is_solvable(shuffled)
    assert PUZZLE.edit(board, tools["Shuffle"].action).instance == shuffled   # deterministic
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
