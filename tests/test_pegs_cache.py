"""Peg tables through the engine's table cache: one-off boards from web requests stay in
memory, presets and boards asked for again reach the disk, one build at a time for the editor,
an evicted table is rebuilt, a large table built later by another process is picked up, and a
table-based "unsolvable" is checked again before it is given."""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np
import pytest

from engine import SolveContext, keep_tables_after, table_cache
from engine.solving import run_solver
from plugins.pegs import tables, verdict
from plugins.pegs.fewest import FewestMovesSolver
from plugins.pegs.judge import Judge
from plugins.pegs.parse import parse_instance
from plugins.pegs.presets import PRESETS, is_preset_board
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.search import compile_problem
from plugins.pegs.tablefile import save_arrays

PUZZLE = PegSolitaire()
TRIANGLE = parse_instance(PRESETS["triangle-5"])
# Small custom boards (not presets): each has its own table.
CUSTOM = [parse_instance(f"geometry: square; goal: c2; board: {board}")
          for board in ("ooooo/oo.oo/ooooo/_ooo_", "ooooo/oo.oo/ooooo/ooo__", "oooo/oo.o/oooo/oooo",
                        "_ooo_/oo.oo/ooooo/_ooo_")]


@pytest.fixture()
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    monkeypatch.setattr(verdict, "_judges", OrderedDict())
    monkeypatch.setattr(verdict, "_building", {})
    return tmp_path


def _forget():
    verdict._judges.clear()
    verdict._building.clear()


def _live(folder):
    return sorted(p for p in folder.glob("pegs-live-*.npz") if "-above-" not in p.name)


def _build_in_background(state):
    """What the editor does: ask without waiting, then let the build finish."""
    assert verdict.judge_for(state, wait=False) is None
    verdict._building[verdict._key(state)].join(timeout=120)
    judge = verdict.judge_for(state, wait=False)
    assert judge is not None
    return judge


def test_one_off_boards_from_requests_stay_in_memory_and_repeated_ones_are_kept(cache):
    assert not any(is_preset_board(s) for s in CUSTOM)
    with keep_tables_after(2):
        for state in CUSTOM:
            _build_in_background(state)
        assert _live(cache) == []  # nothing on disk for boards asked for once
        assert table_cache().memory_bytes() > 0
        _forget()  # the judges are dropped (as MAX_JUDGES does under a flood)
        _build_in_background(CUSTOM[0])  # needed again: now worth keeping
    [kept] = _live(cache)
    assert kept == tables.cache_path(compile_problem(CUSTOM[0]), tables.LIVE_POSITIONS)


def test_a_preset_board_is_kept_on_disk_at_its_first_request(cache):
    assert is_preset_board(TRIANGLE)
    played = parse_instance(PRESETS["triangle-5"].replace("./oo/", "o/.o/"))  # pegs moved
    assert is_preset_board(played)
    with keep_tables_after(2):
        _build_in_background(played)
    assert len(_live(cache)) == 1


def test_the_editor_builds_one_table_at_a_time_and_says_so(cache):
    verdict._building[("another board",)] = threading.Thread()  # a build under way
    answer = PUZZLE.assess(CUSTOM[0])
    assert answer.verdict == "unknown"
    assert "another board" in answer.reason
    assert not verdict.building(CUSTOM[0])  # not started: the one under way goes first
    del verdict._building[("another board",)]
    answer = PUZZLE.assess(CUSTOM[0])
    assert "this board's table is being built" in answer.reason
    assert verdict.building(CUSTOM[0])
    verdict._building[verdict._key(CUSTOM[0])].join(timeout=120)
    # A solver (which waits) is never turned away.
    verdict._building[("another board",)] = threading.Thread()
    assert verdict.judge_for(CUSTOM[1], wait=True) is not None


def _solve(state=TRIANGLE):
    return run_solver(PUZZLE, FewestMovesSolver(), state, SolveContext.with_timeout(60)).outcome


def test_an_evicted_table_is_rebuilt(cache):
    first = _solve()
    [path] = _live(cache)
    path.unlink()  # evicted by the budget (another process's)
    _forget()
    again = _solve()
    assert again.status == "solved" and len(again.moves) == len(first.moves)
    assert _live(cache) == [path]


def test_a_large_table_built_later_by_another_process_is_picked_up(cache, monkeypatch):
    monkeypatch.setattr("engine.tablecache.RECHECK_SECONDS", 0.0)
    small = verdict.judge_for(TRIANGLE, wait=True)
    assert small.positions == tables.LIVE_POSITIONS
    assert verdict.judge_for(TRIANGLE, wait=False) is small  # no large table: nothing to do
    Judge(TRIANGLE, tables.LARGE_POSITIONS)  # "puzzle pegs table" elsewhere: its file
    assert verdict.judge_for(TRIANGLE, wait=False) is small  # answers while the new one loads
    verdict._building[verdict._key(TRIANGLE)].join(timeout=120)
    large = verdict.judge_for(TRIANGLE, wait=False)
    assert large.positions == tables.LARGE_POSITIONS


def _emptied_top_with_a_valid_digest(state):
    """The damage a digest cannot catch: a wrong table saved with its own, correct digest."""
    judge = verdict.judge_for(state, wait=True)
    p = judge.problem
    levels = {f"k{k}": v for k, v in judge.levels.items()}
    top = max(judge.levels)
    levels[f"k{top}"] = levels[f"k{top}"][:0]
    path = tables.cache_path(p, judge.positions)
    save_arrays(path, tables.table_params(p, judge.positions), levels)
    _forget()
    return path, judge.levels


def test_a_table_based_unsolvable_is_checked_again_before_it_is_given(cache, monkeypatch):
    first = _solve()
    assert first.status == "solved"
    path, sound = _emptied_top_with_a_valid_digest(TRIANGLE)
    # Without the check, this table makes the solver say "unsolvable" (the defect).
    with monkeypatch.context() as m:
        m.setattr(verdict, "confirm_table", lambda state, judge: judge)
        assert _solve().status == "unsolvable"
    _forget()
    outcome = _solve()
    assert outcome.status == "solved", outcome
    assert len(outcome.moves) == len(first.moves)
    with np.load(path) as data:  # the file was replaced by the table built afresh
        assert all(np.array_equal(data[f"k{k}"], v) for k, v in sound.items())


def test_a_sound_table_passes_the_check_and_a_changed_large_one_does_not(cache):
    judge = verdict.judge_for(CUSTOM[0], wait=True)
    assert verdict.confirm_table(CUSTOM[0], judge) is judge
    large = verdict.prepare_table(TRIANGLE)
    assert verdict.confirm_table(TRIANGLE, large) is large  # its file's digest verified again
    top = max(large.levels)
    large.levels[top] = large.levels[top][1:]  # changed in memory after it was loaded
    assert verdict.confirm_table(TRIANGLE, large) is None


def test_editor_requests_for_new_boards_write_no_tables(cache, tmp_path_factory):
    """Through the web app: each new custom board a visitor sends is judged from memory; only a
    board asked for again reaches the disk."""
    from engine.plugins import get_registry
    from web import create_app

    registry = get_registry()
    if "pegs" not in registry.puzzles:
        pytest.skip("the pegs plugin is not installed")
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path_factory.mktemp("data")),
                      "TESTING": True})
    client = app.test_client()

    def ask(state):
        r = client.post("/api/pegs/validate", json={"instance": PUZZLE.format(state)})
        assert r.status_code == 200
        for thread in list(verdict._building.values()):
            thread.join(timeout=120)
        return r.get_json()["assessment"]

    try:
        for state in CUSTOM:
            ask(state)
        assert _live(cache) == []
        assert ask(CUSTOM[1])["verdict"] in ("can", "cannot")  # judged, from memory
        _forget()
        ask(CUSTOM[1])  # its table needed again: worth keeping now
        assert _live(cache) == [tables.cache_path(compile_problem(CUSTOM[1]),
                                                    tables.LIVE_POSITIONS)]
    finally:
        app.extensions["puzzle_jobs"].close()
