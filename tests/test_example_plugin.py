"""The example third-party plugin (examples/lights-out), tested as the installed package it is.

Everything goes through the registry built from entry points, as the CLI and web app do. The
solver is checked against facts computed here independently: breadth-first search over every
position of small boards (true shortest press sequences, and exactly which boards are
reachable), the known quiet patterns of the 5 x 5 board, and the classic 15-press all-on board.
"""

from __future__ import annotations

import ast
import os
import random
import re
import sys
import threading
import xml.etree.ElementTree as ET
from collections import deque
from importlib import metadata
from pathlib import Path

import pytest

DISTRIBUTION = "puzzle-engine-lights-out"
try:
    metadata.distribution(DISTRIBUTION)
except metadata.PackageNotFoundError:
    pytest.skip("the example plugin is not installed: run `.venv/bin/pip install -e "
                "examples/lights-out` (make test does this)", allow_module_level=True)

from engine import EditResult, GaveUp, InputError, SolveContext, Solved, Unsolvable, replay  # noqa: E402
from engine.plugins import ENV_RESTRICT, load_registry  # noqa: E402
from engine.solving import run_solver  # noqa: E402

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "examples" / "lights-out" / "puzzle_lights_out"


def _load_only_lights_out():
    """A registry with just this plugin, whatever PUZZLE_ENGINE_PLUGINS the run was given."""
    saved = os.environ.get(ENV_RESTRICT)
    os.environ[ENV_RESTRICT] = "lights_out"
    try:
        return load_registry()
    finally:
        if saved is None:
            del os.environ[ENV_RESTRICT]
        else:
            os.environ[ENV_RESTRICT] = saved


REGISTRY = _load_only_lights_out()
PUZZLE = REGISTRY.puzzles.get("lights_out")
SOLVER = REGISTRY.solver("lights_out") if PUZZLE else None
RENDERER = REGISTRY.renderer("lights_out") if PUZZLE else None


# -- an independent model of the game, written from the rules alone -------------------------


def text_of(rows, cols, lit):
    """Board text for a set of lit (row, col) cells (rows of 1/0 joined by "/")."""
    return "/".join("".join("1" if (r, c) in lit else "0" for c in range(cols)) for r in range(rows))


def lit_cells(text):
    rows = text.split("/")
    return frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "1")


def press(lit, rows, cols, r, c):
    """The rules, directly: toggle (r, c) and its orthogonal neighbours."""
    out = set(lit)
    for rr, cc in ((r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < rows and 0 <= cc < cols:
            out ^= {(rr, cc)}
    return frozenset(out)


def cell(r, c):
    return f"{'abcdefghij'[c]}{r + 1}"


def shortest_press_counts(rows, cols):
    """Breadth-first search from the dark board: every reachable board -> fewest presses.

    Presses are their own inverse, so the distance from the dark board to a board equals the
    distance back. Boards not in the result cannot be solved at all.
    """
    dark = frozenset()
    dist = {dark: 0}
    queue = deque([dark])
    while queue:
        board = queue.popleft()
        for r in range(rows):
            for c in range(cols):
                nxt = press(board, rows, cols, r, c)
                if nxt not in dist:
                    dist[nxt] = dist[board] + 1
                    queue.append(nxt)
    return dist


def all_boards(rows, cols):
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for bits in range(1 << len(cells)):
        yield frozenset(cells[i] for i in range(len(cells)) if bits >> i & 1)


def solve(text, ctx=None):
    instance = PUZZLE.parse(text)
    return instance, run_solver(PUZZLE, SOLVER, instance, ctx or SolveContext()).outcome


def check_against_bfs(rows, cols, boards, dist):
    """Solver outcome for each board agrees with BFS; returns (solved, unsolvable) counts."""
    solved = unsolvable = 0
    for lit in boards:
        text = text_of(rows, cols, lit)
        instance, outcome = solve(text)
        if lit in dist:
            assert isinstance(outcome, Solved), (text, outcome)
            assert len(outcome.moves) == dist[lit], (text, outcome.moves, dist[lit])
            assert outcome.optimal
            assert PUZZLE.is_solved(replay(PUZZLE, instance, outcome.moves)[-1])
            solved += 1
        else:
            assert isinstance(outcome, Unsolvable), (text, outcome)
            assert outcome.reason == "No: this board cannot be solved, whatever you press."
            check_reason_is_true(rows, cols, lit, outcome.detail)
            unsolvable += 1
    return solved, unsolvable


def check_reason_is_true(rows, cols, lit, reason):
    """The reason names a light set; verify with the rules that it really is an invariant."""
    match = re.search(r"lights ((?:[a-j]\d+(?:, | and )?)+), so", reason)
    assert match, reason
    names = re.findall(r"[a-j]\d+", match.group(1))
    named = {(int(n[1:]) - 1, ord(n[0]) - ord("a")) for n in names}
    for r in range(rows):
        for c in range(cols):
            toggled = press(frozenset(), rows, cols, r, c)
            assert len(toggled & named) % 2 == 0, f"pressing {cell(r, c)} breaks {reason}"
    assert len(lit & named) % 2 == 1, reason


# -- the plugin is found and loaded like any third-party package ------------------------------


def test_the_plugin_is_found_through_its_entry_point():
    (ep,) = metadata.entry_points(group="puzzle_engine", name="lights_out")
    assert ep.value == "puzzle_lights_out.hooks"
    info = REGISTRY.plugins["lights_out"]
    assert info.ok, info.error
    assert info.distribution == DISTRIBUTION
    assert info.version == metadata.version(DISTRIBUTION)
    assert set(info.hooks) == {"register_puzzles", "register_solvers", "register_renderers"}
    assert PUZZLE is not None and PUZZLE.title == "Lights Out"
    assert [s.name for s in REGISTRY.solvers("lights_out")] == ["gf2"]
    assert SOLVER.optimal
    assert [r.name for r in REGISTRY.renderers("lights_out")] == ["classic"]


def test_the_restriction_variable_selects_only_this_plugin():
    assert list(REGISTRY.puzzles) == ["lights_out"]


def test_the_plugin_imports_only_the_engine_public_api():
    allowed = set(sys.stdlib_module_names) | {"engine", "svgwrite", "puzzle_lights_out"}
    for path in PACKAGE_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
                assert not name.startswith("engine."), f"{path.name} imports internals: {name}"


# -- the solver against brute force -----------------------------------------------------------


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 2), (1, 5), (2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4)])
def test_every_small_board_agrees_with_breadth_first_search(rows, cols):
    dist = shortest_press_counts(rows, cols)
    solved, unsolvable = check_against_bfs(rows, cols, all_boards(rows, cols), dist)
    assert solved == len(dist)
    assert solved + unsolvable == 2 ** (rows * cols)


@pytest.mark.parametrize("rows, cols", [(4, 4), (3, 5), (5, 3), (2, 7)])
def test_random_boards_of_larger_sizes_agree_with_breadth_first_search(rows, cols):
    dist = shortest_press_counts(rows, cols)
    rng = random.Random(f"{rows}x{cols}")
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    reachable = sorted(dist, key=sorted)
    # Half reachable boards (optimal lengths), half arbitrary (mostly unsolvable on 4 x 4).
    boards = rng.sample(reachable, min(150, len(reachable)))
    boards += [frozenset(c for c in cells if rng.random() < 0.5) for _ in range(150)]
    solved, unsolvable = check_against_bfs(rows, cols, boards, dist)
    if (rows, cols) == (4, 4):
        assert len(dist) == 2 ** 12  # four independent quiet patterns on 4 x 4
        assert unsolvable > 100


# The two independent "quiet" patterns of the 5 x 5 board (published, e.g. by Anderson & Feil,
# "Turning Lights Out with Linear Algebra", 1998); checked with the rules below.
QUIET_5X5 = ("01110/10101/11011/10101/01110", "10101/10101/00000/10101/10101")


def test_the_known_5x5_quiet_patterns_really_change_nothing():
    for pattern in QUIET_5X5:
        board = frozenset()
        for r, c in lit_cells(pattern):
            board = press(board, 5, 5, r, c)
        assert board == frozenset(), pattern


def test_5x5_solvability_and_optimality_follow_from_the_quiet_patterns():
    quiet = [lit_cells(p) for p in QUIET_5X5]
    rng = random.Random(5)
    cells = [(r, c) for r in range(5) for c in range(5)]
    seen = {"solved": 0, "unsolvable": 0}
    for _ in range(200):
        lit = frozenset(c for c in cells if rng.random() < 0.5)
        _, outcome = solve(text_of(5, 5, lit))
        solvable = all(len(lit & q) % 2 == 0 for q in quiet)
        assert outcome.status == ("solved" if solvable else "unsolvable")
        seen[outcome.status] += 1
        if solvable:
            # The four solutions are the answer XOR each quiet pattern; it must be the smallest.
            pressed = {(int(m[1:]) - 1, ord(m[0]) - ord("a")) for m in outcome.moves}
            assert len(pressed) == len(outcome.moves)
            others = [pressed ^ quiet[0], pressed ^ quiet[1], pressed ^ quiet[0] ^ quiet[1]]
            assert all(len(outcome.moves) <= len(o) for o in others)
        else:
            check_reason_is_true(5, 5, lit, outcome.detail)
    assert seen["solved"] > 20 and seen["unsolvable"] > 100


def test_the_classic_all_on_5x5_board_takes_15_presses():
    instance, outcome = solve(PUZZLE.presets()["all-on"])
    assert isinstance(outcome, Solved) and len(outcome.moves) == 15


def test_every_preset_is_solvable_and_replays():
    for name, text in PUZZLE.presets().items():
        instance, outcome = solve(text)
        assert isinstance(outcome, Solved), name
        assert PUZZLE.is_solved(replay(PUZZLE, instance, outcome.moves)[-1]), name


def test_the_largest_board_is_solved_quickly_and_correctly():
    instance = PUZZLE.random(7, {"size": "10x10"})
    ctx = SolveContext.with_timeout(5)
    _, outcome = solve(PUZZLE.format(instance), ctx)
    assert isinstance(outcome, Solved)
    assert ctx.elapsed() < 2


# -- cooperation with the solve context -------------------------------------------------------


def test_the_solver_stops_when_cancelled_or_past_its_deadline():
    cancel = threading.Event()
    cancel.set()
    instance = PUZZLE.parse(PUZZLE.presets()["all-on"])
    outcome = SOLVER.solve(instance, SolveContext(cancel=cancel))
    assert isinstance(outcome, GaveUp) and outcome.reason == "cancelled"
    outcome = SOLVER.solve(instance, SolveContext.with_timeout(0))
    assert isinstance(outcome, GaveUp) and outcome.reason == "deadline"


def test_the_solver_reports_progress():
    reports = []
    instance = PUZZLE.random(1, {"size": "9x9"})  # 9 x 9: 256 candidate solutions to compare
    outcome = SOLVER.solve(instance, SolveContext(on_progress=reports.append))
    assert isinstance(outcome, Solved)
    assert reports and reports[-1]["nodes"] == 256


# -- rules, notation, instances ---------------------------------------------------------------


def test_a_press_named_b3_toggles_the_plus_around_column_b_row_3():
    dark = PUZZLE.parse("00000/00000/00000/00000/00000")
    after = PUZZLE.apply_move(dark, "b3")
    assert PUZZLE.format(after) == "00000/01000/11100/01000/00000"
    assert PUZZLE.format(PUZZLE.apply_move(dark, "a1")) == "11000/10000/00000/00000/00000"
    assert PUZZLE.apply_move(after, "b3") == dark
    assert len(PUZZLE.legal_moves(dark)) == 25 and "e5" in PUZZLE.legal_moves(dark)


@pytest.mark.parametrize("move, words", [
    ("f1", "off the 5 x 5 board"), ("a6", "off the 5 x 5 board"), ("b0", "is not a cell"),
    ("3b", "is not a cell"), ("", "is not a cell"), ("b 3 4", "is not a cell"),
])
def test_bad_moves_are_named(move, words):
    with pytest.raises(InputError, match=words):
        PUZZLE.apply_move(PUZZLE.parse(PUZZLE.presets()["cross"]), move)


def test_text_forms_and_canonical_output():
    assert PUZZLE.format(PUZZLE.parse("#.#\n.#.\n#.#\n")) == "101/010/101"
    assert PUZZLE.format(PUZZLE.parse(" 1 0 1 / 0 1 0 / 1 0 1 ")) == "101/010/101"
    assert PUZZLE.parse("1") == PUZZLE.parse("1")
    board = PUZZLE.parse("1100/0000/0011")
    assert (board.rows, board.cols) == (3, 4)


@pytest.mark.parametrize("text, words, where", [
    ("", "empty", None),
    ("  \n ", "empty", None),
    ("101/10", "2 lights but row 1 has 3", "row 2"),
    ("101//101", "empty", "row 2"),
    ("102", "unknown character '2'", "row 1, column 3"),
    ("010/0x0", "unknown character 'x'", "row 2, column 2"),
    ("1" * 11, "at most 10", "row 1"),
    ("/".join(["1"] * 11), "11 rows", None),
])
def test_bad_instance_text_is_named(text, words, where):
    with pytest.raises(InputError, match=words) as caught:
        PUZZLE.parse(text)
    assert caught.value.where == where


@pytest.mark.parametrize("data, words", [
    ({"rows": "010"}, "list of strings"),
    ({"rows": [1, 0]}, "list of strings"),
    ({"rows": ["01/10"]}, "one row"),
    ({"rows": ["010", "01"]}, "all rows must be the same length"),
    ([], "JSON object"),
])
def test_bad_json_is_named(data, words):
    with pytest.raises(InputError, match=words):
        PUZZLE.from_json(data)


def test_json_form_lists_the_rows():
    board = PUZZLE.parse("011/110")
    assert PUZZLE.to_json(board) == {"rows": ["011", "110"]}
    assert PUZZLE.from_json({"rows": ["011", "110"]}) == board


def test_random_boards_have_the_asked_size_are_reproducible_and_solvable():
    dist = shortest_press_counts(4, 4)
    for seed in range(20):
        board = PUZZLE.random(seed, {"size": "4x4"})
        assert (board.rows, board.cols) == (4, 4)
        assert board == PUZZLE.random(seed, {"size": "4"})
        assert lit_cells(PUZZLE.format(board)) in dist  # reachable, so solvable
        assert not PUZZLE.is_solved(board)
    assert (PUZZLE.random(0).rows, PUZZLE.random(0).cols) == (5, 5)
    assert (PUZZLE.random(3, {"size": "2x7"}).rows, PUZZLE.random(3, {"size": "2x7"}).cols) == (2, 7)


@pytest.mark.parametrize("options, words", [
    ({"size": "11x3"}, "between 1 and 10"), ({"size": "0"}, "between 1 and 10"),
    ({"size": "big"}, "not understood"), ({"colour": "red"}, "unknown option"),
])
def test_bad_random_options_are_named(options, words):
    with pytest.raises(InputError, match=words):
        PUZZLE.random(0, options)


def test_notes_say_whether_a_board_can_be_solved():
    dist = shortest_press_counts(4, 4)
    rng = random.Random(44)
    for _ in range(30):
        lit = frozenset((r, c) for r in range(4) for c in range(4) if rng.random() < 0.5)
        notes = " ".join(PUZZLE.notes(PUZZLE.parse(text_of(4, 4, lit))))
        assert "16 different sets of presses change nothing" in notes
        assert ("This board can be solved" in notes) == (lit in dist), notes
        assert ("cannot be solved" in notes) == (lit not in dist), notes
    assert "Every 3 x 3 board can be solved" in " ".join(PUZZLE.notes(PUZZLE.parse("101/010/101")))
    assert "solved" in PUZZLE.notes(PUZZLE.parse("00/00"))[0]


# -- rendering and editing --------------------------------------------------------------------


def _svg(board, **kwargs):
    root = ET.fromstring(RENDERER.render(board, **kwargs))
    assert root.get("viewBox")
    return root


def _cells(root):
    return {el.get("data-cell"): el for el in root.iter() if el.get("data-action")}


def test_every_cell_is_drawn_clickable_with_its_state_as_classes():
    board = PUZZLE.parse("1100/0000/0011")
    root = _svg(board)
    assert any(el.tag.endswith("style") and ".light.on" in (el.text or "") for el in root.iter())
    cells = _cells(root)
    assert len(cells) == 12
    lit = {cell(r, c) for r, c in lit_cells("1100/0000/0011")}
    for name, el in cells.items():
        assert el.get("data-action") == f"cell:{name}"
        classes = el.get("class").split()
        assert "light" in classes and ("on" in classes) == (name in lit) and ("off" in classes) != (name in lit)


def test_the_last_and_next_press_are_distinct_cues():
    board = PUZZLE.parse(PUZZLE.presets()["cross"])
    for key, cue in (("last_move", "last-move"), ("next_move", "next-move")):
        cells = _cells(_svg(board, **{key: "c3"}))
        affected = {n for n, el in cells.items()
                    if "affected" in el.find("{http://www.w3.org/2000/svg}rect").get("class").split()}
        cued = {n for n, el in cells.items() if cue in el.get("class").split()}
        assert cued == {"c3"}
        assert affected == {"c3", "c2", "c4", "b3", "d3"}
        # The keyed light's own classes say what it is and its state, plus the cue: nothing else.
        assert {c for el in cells.values() for c in el.get("class").split()} == {"light", "on", "off", cue}
    both = _cells(_svg(board, last_move="a1", next_move="e5"))
    assert {n for n, el in both.items() if "last-move" in el.get("class").split()} == {"a1"}
    assert {n for n, el in both.items() if "next-move" in el.get("class").split()} == {"e5"}
    marks = {el.get("class") for el in _svg(board, last_move="a1", next_move="e5").iter()
             if "press-mark" in (el.get("class") or "")}
    assert marks == {"press-mark press-last", "press-mark press-next"}
    assert not any(cue in el.get("class") for el in _cells(_svg(board)).values()
                   for cue in ("last-move", "next-move"))
    assert RENDERER.render(board, last_move="c3") == RENDERER.render(board, last_move="c3")


def test_every_light_is_keyed_named_and_placed_and_a_press_changes_only_states():
    board = PUZZLE.parse("100/000/001")
    before = _cells(_svg(board, next_move="b2"))
    after = _cells(_svg(PUZZLE.apply_move(board, "b2"), last_move="b2"))
    for name, el in before.items():
        r, c = int(name[1:]) - 1, ord(name[0]) - ord("a")
        assert el.tag == "{http://www.w3.org/2000/svg}g"
        assert el.get("data-key") == after[name].get("data-key") == f"light-{name}"
        assert (int(el.get("data-row")), int(el.get("data-col"))) == (r, c)
        assert el.find("{http://www.w3.org/2000/svg}rect").attrib == \
            after[name].find("{http://www.w3.org/2000/svg}rect").attrib  # lights never move
        for svg_cell, lit in ((el, (r, c) in {(0, 0), (2, 2)}),
                              (after[name], (r, c) in {(0, 0), (2, 2)} ^ {(1, 1), (0, 1), (2, 1), (1, 0), (1, 2)})):
            state = "on" if lit else "off"
            assert svg_cell.get("data-state") == state
            assert svg_cell.get("aria-label") == f"light {name}, {state}"
            assert svg_cell.get("tabindex") is None and svg_cell.get("role") is None
    flipped = {n for n in before if before[n].get("data-state") != after[n].get("data-state")}
    assert flipped == {"b2", "a2", "c2", "b1", "b3"}


def test_coordinates_are_drawn_in_their_own_group():
    root = _svg(PUZZLE.parse("1100/0000/0011"))
    groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "coords"]
    assert len(groups) == 1 and groups[0].get("aria-hidden") == "true"
    assert sorted(t.text for t in groups[0].iter("{http://www.w3.org/2000/svg}text")) == \
        ["1", "2", "3", "a", "b", "c", "d"]


def test_describe_move_says_which_light_is_pressed():
    board = PUZZLE.parse("000/000/000")
    assert PUZZLE.describe_move(board, "b3") == "press b3"
    assert PUZZLE.describe_move(board, " C1 ") == "press c1"


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 3), (4, 4), (2, 5)])
def test_assess_agrees_with_breadth_first_search_on_every_board(rows, cols):
    dist = shortest_press_counts(rows, cols)
    for lit in all_boards(rows, cols):
        verdict = PUZZLE.assess(PUZZLE.parse(text_of(rows, cols, lit)))
        if not lit:
            assert verdict.verdict == "solved"
        elif lit in dist:
            presses = dist[lit]
            assert (verdict.verdict, verdict.reason) == \
                ("can", f"Yes: it can be solved in {presses} press{'' if presses == 1 else 'es'}.")
        else:
            assert verdict.verdict == "cannot", (rows, cols, lit)
            check_reason_is_true(rows, cols, lit, verdict.detail)


def test_edit_modes_press_or_toggle_and_tools_work():
    board = PUZZLE.parse("000/000/000")
    assert [m.name for m in PUZZLE.edit_modes()] == ["play", "toggle"]
    assert PUZZLE.format(PUZZLE.edit(board, "cell:b2").instance) == "010/111/010"
    assert PUZZLE.format(PUZZLE.edit(board, "cell:b2", mode="play").instance) == "010/111/010"
    assert PUZZLE.format(PUZZLE.edit(board, "cell:b2", mode="toggle").instance) == "000/010/000"
    tools = {t.label: t for t in PUZZLE.edit_tools(board)}
    assert set(tools) == {"Clear", "Resize"}  # no second Random beside the page's own
    full = PUZZLE.parse("111/111/111")
    assert PUZZLE.format(PUZZLE.edit(full, tools["Clear"].action).instance) == "000/000/000"
    randomised = PUZZLE.edit(board, "random:7")  # kept for API clients: this size, that seed
    assert isinstance(randomised, EditResult) and randomised.instance.rows == 3
    assert randomised.instance == PUZZLE.edit(board, "random:7").instance
    assert not PUZZLE.is_solved(randomised.instance)
    choices = dict(tools["Resize"].choices)
    grown = PUZZLE.edit(full, choices["4 x 6"]).instance
    assert PUZZLE.format(grown) == "111000/111000/111000/000000"
    assert PUZZLE.format(PUZZLE.edit(full, "resize:2x2").instance) == "11/11"


@pytest.mark.parametrize("action, mode, words", [
    ("cell:9z", None, "is not a cell"), ("cell:z9", None, "off the 3 x 3 board"),
    ("cell:a1", "paint", "unknown edit mode"), ("explode", None, "unknown edit action"),
    ("resize:20x20", None, "between 1 and 10"), ("random:abc", None, "not a whole number"),
])
def test_bad_edit_actions_are_named(action, mode, words):
    with pytest.raises(InputError, match=words):
        PUZZLE.edit(PUZZLE.parse("000/000/000"), action, mode=mode)


def test_a_light_pressed_twice_in_a_row_carries_only_the_next_move_cue():
    cells = _cells(_svg(PUZZLE.parse("000/000/000"), last_move="b2", next_move="b2"))
    assert cells["b2"].get("class").split() == ["light", "off", "next-move"]
