"""Reliability of the engine boundary: streaming checks, the check's own time bound, JSON-safe
plugin values, the one exception converter, the SVG sanitiser and the web app's fallbacks."""

from __future__ import annotations

import io
import json
import logging
import math
import pickle
import random
import time
import weakref

import pytest
import rogue
from toy import Counter, CounterPuzzle

from engine import InputError, Puzzle, SolveContext, Solved, Solver
from engine.errors import EnvironmentProblem, PluginError, SolverError, convert_exception, plugin_call
from engine.jsonsafe import NotJSONable, json_safe
from engine.plugins import Registry
from engine.solving import (
    CHECK_CLOCK_EVERY,
    check_time_bound,
    final_state,
    iter_states,
    replay,
    run_solver,
    solve,
    verify_solution,
)
from engine.svgsafe import UnsafeSVG, sanitize_svg, sanitize_svg_report

# -- 1. the check streams -------------------------------------------------------------------------

class Cell:
    """A state that knows how many of its kind are alive (weakly tracked)."""

    live: "weakref.WeakSet[Cell]" = weakref.WeakSet()
    most_alive = 0

    def __init__(self, value: int):
        self.value = value
        Cell.live.add(self)
        Cell.most_alive = max(Cell.most_alive, len(Cell.live))


class Walk(Puzzle):
    """Walk from 0 to ``instance`` one step ("+") at a time; the states count themselves."""

    id = "walk"

    def parse(self, text):
        return int(text)

    def format(self, instance):
        return str(instance)

    def presets(self):
        return {}

    def random(self, seed, options=None):
        return seed % 10

    def start(self, instance):
        return (Cell(0), instance)

    def legal_moves(self, state):
        return ["+"]

    def apply_move(self, state, move):
        if move != "+":
            raise InputError(f"unknown move {move!r}")
        return (Cell(state[0].value + 1), state[1])

    def is_solved(self, state):
        return state[0].value == state[1]


def test_checking_an_answer_keeps_a_constant_number_of_states_alive():
    Cell.most_alive = 0
    verify_solution(Walk(), 5000, ["+"] * 5000, "walker")
    assert Cell.most_alive <= 3  # the current state, the next one, and a transient
    Cell.most_alive = 0
    assert final_state(Walk(), 5000, ["+"] * 5000)[0].value == 5000
    assert Cell.most_alive <= 3


def test_replay_still_returns_every_state_and_iter_states_streams_them():
    states = replay(CounterPuzzle(), Counter(1, 5), ["+1", "*2", "+1"])
    assert [s.value for s in states] == [1, 2, 4, 5]
    assert [s.value for s in iter_states(CounterPuzzle(), Counter(1, 5), ["*2"])] == [1, 2]
    with pytest.raises(InputError) as bad:
        final_state(CounterPuzzle(), Counter(1, 5), ["+1", "/2"])
    assert bad.value.where == "move 2 (/2)"


def test_a_wrong_answer_is_still_rejected_with_the_first_bad_move():
    with pytest.raises(SolverError) as bad:
        verify_solution(CounterPuzzle(), Counter(1, 5), ["+1", "-1"], "s")
    assert bad.value.move_index == 2
    with pytest.raises(SolverError) as short:
        verify_solution(CounterPuzzle(), Counter(1, 5), ["+1"], "s")
    assert "1 move that does not reach the goal" in short.value.message


# -- 2. the check has its own bound ------------------------------------------------------------------

def test_check_time_bound_grows_with_the_move_count():
    assert check_time_bound(0) > 0
    assert check_time_bound(100_000) > check_time_bound(83_000) > check_time_bound(10)
    assert check_time_bound(-5) == check_time_bound(0)


class LateSolver(Solver):
    """Finds the answer, but only returns it after its deadline has passed."""

    puzzle_id, name, optimal = "counter", "late", False

    def solve(self, instance, ctx):
        ctx.deadline = 0.0  # the deadline is long gone when the answer comes back
        return Solved(["+1"] * (instance.target - instance.value))


def test_an_answer_found_is_checked_and_kept_even_past_the_solvers_deadline():
    reports = []
    ctx = SolveContext(deadline=None, on_progress=reports.append)
    report = run_solver(CounterPuzzle(), LateSolver(), Counter(1, 30), ctx)
    assert report.status == "solved" and len(report.outcome.moves) == 29
    checking = [r for r in reports if r.get("phase") == "checking"]
    assert checking and checking[0]["moves"] == 29  # the runner learns how long a check to allow


def test_a_check_that_overruns_its_own_bound_blames_the_puzzles_rules():
    moves = ["+"] * (2 * CHECK_CLOCK_EVERY)
    with pytest.raises(PluginError) as slow:
        verify_solution(Walk(), len(moves), moves, "walker", time_bound=-1.0)
    assert "too slow to check" in slow.value.message


def test_sliding_moves_keep_the_cached_blank_right():
    from plugins.sliding.board import make_board, movable_tiles, slide
    rng = random.Random(3)
    board = make_board(5, 4, list(range(1, 20)) + [0])
    for _ in range(300):
        board = slide(board, rng.choice(movable_tiles(board)))
        assert board.blank == board.tiles.index(0)
    again = pickle.loads(pickle.dumps(board))
    assert again == board and again.blank == board.tiles.index(0) and hash(again) == hash(board)
    with pytest.raises(InputError, match="not next to the blank"):
        far = next(t for t in board.tiles if t and t not in movable_tiles(board))
        slide(board, far)


# -- 3 and 5: plugin faults at the engine boundary -----------------------------------------------------

def rogue_registry() -> Registry:
    registry = Registry()
    registry.add_plugin("rogue", rogue)
    registry.collect()
    return registry


def test_stats_json_cannot_encode_are_the_plugins_fault_named_clearly():
    with pytest.raises(PluginError) as bad:
        solve(rogue_registry(), "rogue", "1 -> 4", "oddstats")
    assert "solver 'oddstats'" in bad.value.message and "stats['visited']" in bad.value.message
    assert "plugin 'rogue'" in bad.value.message and bad.value.plugin == "rogue"


def test_stats_with_an_obvious_json_form_are_converted():
    class NumpyLike:
        def __init__(self, v):
            self.v = v

        def item(self):
            return self.v

    data = json_safe({"seen": {3, 1, 2}, "pair": (1, "a"), "n": NumpyLike(7), "x": math.inf,
                      "nested": {"ok": [None, True, 1.5]}})
    assert data == {"seen": [1, 2, 3], "pair": [1, "a"], "n": 7, "x": "inf",
                    "nested": {"ok": [None, True, 1.5]}}
    json.dumps(data, allow_nan=False)
    with pytest.raises(NotJSONable, match=r"value\['k'\]\[0\] is a object"):
        json_safe({"k": [object()]})
    with pytest.raises(NotJSONable):
        json_safe({1: "non-string key"})


def test_the_report_json_of_a_solve_always_encodes():
    report = solve(rogue_registry(), "rogue", "1 -> 4", "honest")
    json.dumps(report.to_json(), allow_nan=False)


def test_an_unwritable_directory_is_an_environment_problem_not_a_broken_contract():
    with pytest.raises(EnvironmentProblem) as env:
        solve(rogue_registry(), "rogue", "1 -> 4", "nodir")
    assert "NotADirectoryError" in env.value.message
    assert not isinstance(env.value, (SolverError, PluginError))


# -- 15: one converter -----------------------------------------------------------------------------

def test_the_converter_maps_each_kind_of_exception_once():
    assert isinstance(convert_exception(ValueError("x"), what="the instance"), InputError)
    assert str(convert_exception(KeyError("k"), what="the edit")) == "the edit was rejected: 'k'"
    assert isinstance(convert_exception(ValueError("x")), PluginError)  # not reading input
    assert isinstance(convert_exception(PermissionError("ro"), what="x"), EnvironmentProblem)
    plugin = convert_exception(RuntimeError("boom"), plugin="rogue", doing="parsing")
    assert isinstance(plugin, PluginError) and plugin.plugin == "rogue"
    assert plugin.message == "plugin 'rogue' failed while parsing: RuntimeError: boom"
    same = InputError("as is")
    assert convert_exception(same, what="x") is same


def test_plugin_call_converts_and_lets_interrupts_through():
    with pytest.raises(InputError, match="the instance was rejected: bad"):
        with plugin_call(what="the instance"):
            raise ValueError("bad")
    with pytest.raises(KeyboardInterrupt):
        with plugin_call(what="the instance"):
            raise KeyboardInterrupt


def test_a_parse_valueerror_is_bad_input_and_any_other_parse_exception_names_the_plugin():
    with pytest.raises(InputError, match="the instance was rejected: invalid literal"):
        solve(rogue_registry(), "rogue", "valueerror", "honest")
    with pytest.raises(PluginError) as broken:
        solve(rogue_registry(), "rogue", "runtime", "honest")
    assert "plugin 'rogue'" in broken.value.message and "RuntimeError" in broken.value.message


# -- 9: stdin is read up to the limit only ----------------------------------------------------------

def test_the_cli_reads_at_most_the_limit_plus_one_character_of_stdin(monkeypatch):
    from engine import cli
    from engine.solving import MAX_INPUT_CHARS

    class Recording(io.StringIO):
        asked: list = []

        def read(self, size=-1):
            self.asked.append(size)
            return super().read(size)

    stdin = Recording("x" * (3 * MAX_INPUT_CHARS))
    monkeypatch.setattr("sys.stdin", stdin)
    with pytest.raises(InputError, match="longer than the limit"):
        cli._read_instance("-")
    assert stdin.asked == [MAX_INPUT_CHARS + 1]
    assert stdin.tell() == MAX_INPUT_CHARS + 1  # the rest was never read
    monkeypatch.setattr("sys.stdin", io.StringIO("1 -> 5\n"))
    assert cli._read_instance("-") == "1 -> 5\n"


# -- 10: the SVG sanitiser --------------------------------------------------------------------------

HOSTILE = [
    ('<script>alert(1)</script>', "<script>"),
    ('<g onclick="alert(1)"/>', "onclick"),
    ('<rect onmouseover="alert(1)" ONLOAD="x"/>', "onmouseover"),
    ('<a href="javascript:alert(1)"><text>x</text></a>', "javascript"),
    ('<rect fill="javascript:alert(1)"/>', "javascript"),
    ('<animate attributeName="fill" values="javascript:alert(1)"/>', "javascript"),
    ('<use href="java&#10;script:alert(1)"/>', "script:"),
    ('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>', "foreignObject"),
    ('<use xlink:href="https://evil.example/x.svg#a"/>', "evil"),
    ('<image href="https://evil.example/x.png"/>', "evil"),
    ('<rect style="fill: url(https://evil.example/x)"/>', "evil"),
    ('<rect fill="url(//evil.example/x#a)"/>', "evil"),
    ('<style>@import url(https://evil.example/x.css);</style>', "evil"),
    ('<style>rect { background: url("https://evil.example/x") }</style>', "evil"),
    ('<animate attributeName="href" to="javascript:alert(1)"/>', "javascript"),
    ('<set attributeName="onclick" to="alert(1)"/>', "alert"),
    ('<iframe src="https://evil.example/"/>', "iframe"),
    ('<x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script>', "alert"),
    ('<g xmlns:h="http://www.w3.org/1999/xhtml"><h:script>alert(1)</h:script></g>', "alert"),
]


@pytest.mark.parametrize("inner, marker", HOSTILE)
def test_the_sanitiser_removes_each_kind_of_active_content(inner, marker):
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
           f'viewBox="0 0 10 10">{inner}<rect class="keep" x="1" y="1" width="2" height="2"/></svg>')
    out, removed = sanitize_svg_report(svg)
    assert marker.lower() not in out.lower() and removed
    assert 'class="keep"' in out  # the drawing survives


def test_the_sanitiser_keeps_the_board_markup_contract():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" role="img">'
           '<title>board</title><defs><marker id="arrow"><path d="M0 0 L2 1 L0 2 z"/></marker>'
           '<style>.last-move { stroke: gold }</style></defs>'
           '<g class="tile last-move" data-key="tile-5" data-action="tile:5" data-row="0" '
           'data-col="1" aria-label="tile 5, can slide" transform="translate(1,2)">'
           '<rect width="3" height="3" fill="url(#grad)"/><text x="1" y="1">5</text></g>'
           '<g class="move-arrow next-move"><line x1="0" y1="0" x2="3" y2="3" '
           'marker-end="url(#arrow)"/></g><use href="#arrow"/></svg>')
    out, removed = sanitize_svg_report(svg)
    assert removed == []
    for kept in ('data-key="tile-5"', 'aria-label="tile 5, can slide"', 'marker-end="url(#arrow)"',
                 'href="#arrow"', "<title>board</title>", ".last-move { stroke: gold }"):
        assert kept in out


def test_the_sanitiser_refuses_what_is_not_an_svg_document():
    for bad in ("<svg", "<html xmlns='http://www.w3.org/1999/xhtml'/>", "<svg/>", 42):
        with pytest.raises(UnsafeSVG):
            sanitize_svg(bad)
    entity = ('<!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
              '<svg xmlns="http://www.w3.org/2000/svg"><text>&e;</text></svg>')
    try:
        assert "root:" not in sanitize_svg(entity)
    except UnsafeSVG:
        pass  # refusing it is as good


def test_the_web_app_sanitises_renderer_svg_and_its_csp_has_no_unsafe_eval(tmp_path):
    from web import PAGE_CSP, create_app
    assert "unsafe-eval" not in PAGE_CSP
    app = create_app({"REGISTRY": rogue_registry(), "DATA_DIR": str(tmp_path), "TESTING": True,
                      "JOB_WORKERS": 1})
    try:
        boards = app.extensions["puzzle_boards"]
        svg, _ = boards.step("rogue", None, "1 -> 4", ("+1",))
        assert ">2<" in svg
        for bad in ("<script", "onload", "onclick", "foreignObject", "example.com"):
            assert bad not in svg
    finally:
        app.extensions["puzzle_jobs"].close()


# -- 3: serve without a writable data directory ------------------------------------------------------

def test_an_unusable_data_dir_gives_an_in_memory_store_and_one_warning(tmp_path, caplog):
    from web import create_app
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")
    with caplog.at_level(logging.WARNING):
        app = create_app({"REGISTRY": rogue_registry(), "DATA_DIR": str(not_a_dir / "data"),
                          "REGISTRY_FACTORY": "test_reliability:rogue_registry",
                          "TESTING": True, "JOB_WORKERS": 1})
    try:
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and "in memory" in warnings[0].getMessage()
        assert app.extensions.get("puzzle_store_in_memory") is True
        store = app.extensions["puzzle_jobs"].store
        report = {"puzzle": "rogue", "solver": "honest", "instance": "1 -> 2", "status": "solved",
                  "moves": ["+1"]}
        row = store.put(report)
        assert store.put(dict(report)) == row  # a permanent number, as in the SQLite store
        assert store.get("rogue", "honest", "1 -> 2") == (row, report)
        assert store.get_by_id(row)[1] == report and store.count() == 1
        client = app.test_client()
        job = client.post("/api/rogue/jobs", json={"instance": "1 -> 3", "solver": "honest"}).get_json()
        for _ in range(200):
            if job["done"]:
                break
            time.sleep(0.05)
            job = client.get(f"/api/jobs/{job['id']}").get_json()
        assert job["status"] == "solved" and store.get("rogue", "honest", "1 -> 3") is not None
    finally:
        app.extensions["puzzle_jobs"].close()


def test_sliding_apply_moves_agrees_with_apply_move_move_by_move():
    from engine.plugins import get_registry
    puzzle = get_registry().puzzle("sliding")
    rng = random.Random(5)
    start = puzzle.start(puzzle.parse("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"))
    odd = ["+5", "\u0663", " 4 ", "04", "00012", "123456", "", "0", "16", "x"]
    for _ in range(200):
        state, moves = start, []
        for _ in range(rng.randrange(1, 40)):
            move = rng.choice(list(puzzle.legal_moves(state)) + (odd if rng.random() < 0.05 else []))
            moves.append(move)
            try:
                state = puzzle.apply_move(state, move)
            except InputError:
                state = None
                break
        if state is None:
            with pytest.raises(InputError):
                puzzle.apply_moves(start, moves)
        else:
            fast = puzzle.apply_moves(start, moves)
            assert fast == state and fast.blank == fast.tiles.index(0)


def test_a_bad_move_found_by_the_fast_path_is_named_by_the_slow_one():
    from engine.plugins import get_registry
    puzzle = get_registry().puzzle("sliding")
    instance = puzzle.parse("1 2 3/4 5 6/7 8 0")
    with pytest.raises(InputError) as bad:
        final_state(puzzle, instance, ["8", "7", "+4"])
    assert bad.value.where == "move 3 (+4)"


def test_the_job_api_converts_a_plugins_parse_errors_through_the_one_converter(tmp_path):
    """ValueError on odd input is the user's 400; any other exception is the plugin's fault,
    a 500 that names the plugin, never a traceback."""
    from web import create_app
    app = create_app({"REGISTRY": rogue_registry(), "DATA_DIR": str(tmp_path), "TESTING": True,
                      "REGISTRY_FACTORY": "test_reliability:rogue_registry", "JOB_WORKERS": 1})
    try:
        client = app.test_client()
        odd = client.post("/api/rogue/jobs", json={"instance": "valueerror"})
        assert odd.status_code == 400
        assert odd.get_json()["error"].startswith("the instance was rejected: invalid literal")
        broken = client.post("/api/rogue/jobs", json={"instance": "runtime"})
        assert broken.status_code == 500
        body = broken.get_json()["error"]
        assert "plugin 'rogue'" in body and "RuntimeError" in body and "Traceback" not in body
    finally:
        app.extensions["puzzle_jobs"].close()
