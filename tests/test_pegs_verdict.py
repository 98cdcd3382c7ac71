"""The live verdict (``PegSolitaire.assess``) against an exhaustive oracle on small boards.

The oracle decides every position of the board by dynamic programming over all subsets of
holes, with jumps recomputed from the drawing (``brute_jumps``): a verdict may be "unknown", but
"can" must never meet an unsolvable position nor "cannot" a solvable one.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from dataclasses import replace

import numpy as np
import pytest
from test_pegs_solver import brute_jumps

from plugins.pegs import fastdfs, tables, verdict
from plugins.pegs import judge as judge_module
from plugins.pegs import levels as lv
from plugins.pegs.book import OpeningBook
from plugins.pegs.parse import parse_instance
from plugins.pegs.presets import PRESETS
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.tablefile import load_arrays, save_arrays

PUZZLE = PegSolitaire()
TRIANGLE_5 = "./oo/ooo/oooo/ooooo"
BOARDS = [
    f"geometry: triangular; goal: a1; board: {TRIANGLE_5}",
    f"geometry: triangular; goal: any; board: {TRIANGLE_5}",
    "geometry: square; goal: c2; board: ooooo/oo.oo/ooooo/_ooo_",
    PRESETS["triangle-corners"],
]


def oracle(inst) -> dict[int, bool]:
    """Every position (grid bitboard, pegs only on holes) -> can it reach the goal?"""
    cells = [c for c in range(inst.rows * inst.cols) if inst.holes >> c & 1]
    jumps = brute_jumps(inst)
    n = len(cells)
    positions = []
    for mask in range(1, 1 << n):
        pos = 0
        for k in range(n):
            if mask >> k & 1:
                pos |= 1 << cells[k]
        positions.append(pos)
    positions.sort(key=int.bit_count)
    good: dict[int, bool] = {}
    for pos in positions:
        if (inst.goal and pos == inst.goal) or (not inst.goal and pos.bit_count() == 1):
            good[pos] = True
            continue
        good[pos] = any(pos >> a & 1 and pos >> b & 1 and not pos >> c & 1
                        and good[pos & ~(1 << a) & ~(1 << b) | (1 << c)]
                        for a, b, c in jumps)
    return good


def _join_builds() -> None:
    """Wait for the judges being built in the background (a build stores its judge in the
    module's table when it ends, whichever test is running then)."""
    for thread in list(verdict._building.values()):
        thread.join()


@pytest.fixture()
def fresh(monkeypatch, tmp_path):
    """No judge or disk table carried over between configurations: nor a judge a build started
    by an earlier test stores during this one (a judge on another table, made with other
    settings, then answered in its place: a test counting one kind of proof once found none)."""
    _join_builds()
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    monkeypatch.setattr(verdict, "_judges", OrderedDict())
    monkeypatch.setattr(verdict, "_building", {})
    yield monkeypatch
    _join_builds()


def sample(inst, truth, count=1500, seed=7):
    rng = random.Random(seed)
    keys = sorted(truth)
    return [replace(inst, pegs=p) for p in rng.sample(keys, min(count, len(keys)))]


def check(states, truth, budget=30.0):
    seen = {"solved": 0, "can": 0, "cannot": 0, "unknown": 0}
    for state in states:
        a = verdict.assess(state, budget=budget, wait=True)
        seen[a.verdict] += 1
        if a.verdict == "solved":
            assert PUZZLE.is_solved(state)
        elif a.verdict == "can":
            assert truth[state.pegs], (state, a)
        elif a.verdict == "cannot":
            assert not truth[state.pegs], (state, a)
            assert a.reason and a.detail
    return seen


@pytest.mark.parametrize("text", BOARDS)
def test_full_table_decides_every_position_exactly(fresh, text):
    inst = parse_instance(text)
    truth = oracle(inst)
    seen = check(sample(inst, truth), truth)
    assert seen["unknown"] == 0
    assert seen["can"] and seen["cannot"]


@pytest.mark.parametrize("text", BOARDS)
def test_search_above_a_small_backward_set_is_never_wrong(fresh, text):
    fresh.setattr(tables, "LIVE_POSITIONS", 40)  # forces the compiled search for most positions
    inst = parse_instance(text)
    truth = oracle(inst)
    seen = check(sample(inst, truth), truth)
    assert seen["unknown"] == 0  # small boards: the search always finishes
    assert seen["can"] and seen["cannot"]


def test_python_fallback_is_never_wrong(fresh):
    fresh.setattr(lv, "AVAILABLE", False)  # as on boards of more than 64 holes
    fresh.setattr(judge_module, "BACKWARD_BUDGET", 30)
    inst = parse_instance(BOARDS[0])
    truth = oracle(inst)
    seen = check(sample(inst, truth, count=600), truth)
    assert seen["can"] and seen["cannot"]


def test_positions_of_a_played_game(fresh):
    inst = parse_instance(BOARDS[0])
    truth = oracle(inst)
    rng = random.Random(3)
    for _ in range(30):
        state = inst
        while True:
            a = PUZZLE.assess(state, budget=2.0)
            if a.verdict != "unknown":  # the first verdict may come before the table is built
                assert a.verdict in ("solved", "can") if truth[state.pegs] else a.verdict == "cannot"
            moves = PUZZLE.legal_moves(state)
            if not moves:
                break
            state = PUZZLE.apply_move(state, rng.choice(moves))


def test_first_verdict_does_not_wait_for_the_table(fresh):
    inst = parse_instance(BOARDS[0])
    first = verdict.assess(inst, budget=0.01)  # starts the build in the background
    assert first.verdict in ("unknown", "can")
    for thread in list(verdict._building.values()):
        thread.join()
    assert verdict.assess(inst, budget=1.0).verdict == "can"




def refutations_are_right(inst, truth, words, seed) -> int:
    """Judge 800 sampled positions; every verdict whose detail holds ``words`` must be a right
    "cannot" (the oracle's truth). Returns how many there were."""
    count = 0
    for state in sample(inst, truth, count=800, seed=seed):
        a = verdict.assess(state, budget=30.0, wait=True)
        if words in a.detail:
            count += 1
            assert a.verdict == "cannot" and not truth[state.pegs], (state, a)
    return count


@pytest.mark.parametrize("text", [BOARDS[0], BOARDS[2]])
def test_pagodas_found_by_linear_programming_are_never_wrong(fresh, text):
    """The programme's pagodas (the board's library, and one per position, kept afterwards)
    decide positions above a small table: every such "cannot" is checked by the oracle."""
    fresh.setattr(tables, "LIVE_POSITIONS", 40)
    fresh.setattr(tables, "LIBRARY_SAMPLES", 8)  # a small library leaves work for the programme
    fresh.setattr(judge_module, "BEAM_WIDTHS", ())  # the programme runs before any search
    inst = parse_instance(text)
    truth = oracle(inst)
    assert refutations_are_right(inst, truth, "linear programming", seed=11)
    judge = verdict.judge_for(inst)
    assert judge.learnt  # pagodas made for single positions were in play


def test_table_bounds_are_the_least_values_over_every_image():
    """``levels.level_minima`` against a plain minimum over every symmetric image."""
    from plugins.pegs import levels as lv
    from plugins.pegs.symmetry import permute

    board = parse_instance(PRESETS["english"]).board
    perms = board.symmetries()
    rng = random.Random(4)
    keys = np.array(sorted({sum(1 << h for h in rng.sample(range(board.n), 9)) for _ in range(300)}),
                    dtype=np.uint64)
    weights = np.array([[rng.randint(-5, 9) for _ in range(board.n)] for _ in range(3)], np.int64)
    got = lv.level_minima(keys, lv.byte_tables(perms, board.n), lv.byte_values(weights, board.n))
    for k in range(3):
        plain = min(sum(int(weights[k, h]) for h in range(board.n) if permute(int(x), p) >> h & 1)
                    for x in keys for p in perms)
        assert got[k] == plain


def test_pagodas_against_the_table_bound_are_never_wrong(fresh):
    """Above the table's top, a pagoda's bound is its least value over the top level (every way
    to the goal passes through it): stronger than the goal's value, and checked here."""
    fresh.setattr(tables, "LIVE_POSITIONS", 60)
    fresh.setattr(tables, "LARGE_POSITIONS", 60)  # a "large" table: the table library too
    fresh.setattr(tables, "LIBRARY_SAMPLES", 60)
    fresh.setattr(tables, "TABLE_LIBRARY_SAMPLES", 40)
    by_bound = 0
    for text in (BOARDS[0], BOARDS[2], BOARDS[3]):
        inst = parse_instance(text)
        truth = oracle(inst)
        judge = verdict.judge_for(inst)
        assert any(judge.bound(pg) > pg.value(judge.problem.goal) for pg in judge.pagodas)
        if text == BOARDS[0]:  # the table library joined the goal's
            assert len(judge.library) > len(tables.load_or_build_library(judge.problem))
        by_bound += refutations_are_right(
            inst, truth, "that can reach the goal weighs at least", seed=13)
    assert by_bound


@pytest.mark.parametrize("text", [BOARDS[0], BOARDS[2]])
def test_probe_is_exact_when_wide_enough_and_never_claims_a_dead_position(fresh, text):
    """The heuristic probe (``fastdfs.beam``) carries pagoda values from parent to child and
    ranks children by score. With a width that keeps every child it is an exhaustive search,
    so it finds a way down from every position that has one; at width 1 it may miss some,
    but it never claims one for a position that cannot reach the goal."""
    fresh.setattr(tables, "LIVE_POSITIONS", 40)  # a small table: the probe has levels to walk
    inst = parse_instance(text)
    truth = oracle(inst)
    judge = verdict.judge_for(inst, wait=True)
    top_keys = judge.levels[judge.top]
    board = inst.board
    probed = {1: 0, 10_000: 0}
    for state in sample(inst, truth, count=400, seed=11):
        pos = board.to_compact(state.pegs)
        if pos.bit_count() <= judge.top + 1 or any(
                pg.value(pos) < judge.bound(pg) for pg in judge.pagodas):
            continue
        for width in probed:
            judge.dead_table[:] = 0
            found = fastdfs.beam(np.uint64(pos), judge.top, top_keys, judge.need, judge.to,
                                 judge.flip, judge.tables, judge.pag_weights, judge.loss_t,
                                 judge.need_vals, judge.dead_table, judge.hard, judge.nbr,
                                 width, judge._bloom(), judge.bloom_bits)
            assert not found or truth[state.pegs], (text, state.pegs, width)
            if width > 1:
                assert found == truth[state.pegs], (text, state.pegs)
            probed[width] += found
    assert probed[10_000] > 0


@pytest.mark.parametrize("text", [BOARDS[0], BOARDS[3]])
def test_filter_of_the_level_above_the_table_keeps_every_live_position(fresh, text):
    """``parents_bloom`` stands for the positions one peg above the table that can reach the
    goal: the search drops a position it rejects as dead, so it must hold every live one
    (checked against the oracle), and it is only worth its memory if it rejects dead ones."""
    fresh.setattr(tables, "LIVE_POSITIONS", 40)
    inst = parse_instance(text)
    truth = oracle(inst)
    judge = verdict.judge_for(inst, wait=True)
    board = inst.board
    rejected = 0
    for grid, alive in truth.items():
        pos = board.to_compact(grid)
        if pos.bit_count() != judge.top + 1:
            continue
        key = lv.canon(np.uint64(pos), judge.tables)
        kept = lv.maybe(judge.above, judge.above_bits, key)
        assert kept or not alive, (text, grid)
        rejected += not kept
    assert judge.above_bits > 6 and rejected > 0


def test_a_damaged_filter_on_disk_is_built_again_not_trusted(fresh, tmp_path):
    """A filter read from disk that lacks the parents of top-level positions would drop live
    positions (a wrong "cannot"): it is checked on load and built again."""
    fresh.setattr(tables, "LIVE_POSITIONS", 40)
    inst = parse_instance(BOARDS[0])
    judge = verdict.judge_for(inst, wait=True)
    built = judge.above.copy()
    [path] = tmp_path.glob("pegs-live-*-above-*.npz")
    # Signed as if sound, so only the spot check against the top level's parents can catch it.
    params = f"{tables.table_params(judge.problem, judge.positions)}-above-{judge.above_bits}"
    save_arrays(path, params, {"above": np.zeros_like(built)})
    fresh.setattr(verdict, "_judges", OrderedDict())
    fresh.setattr(verdict, "_building", {})
    again = verdict.judge_for(inst, wait=True)
    assert np.array_equal(again.above, built)
    assert np.array_equal(load_arrays(path, params)["above"], built)


def test_each_lane_of_the_exact_search_alone_and_both_together_are_exact(fresh):
    """The exact search runs in lanes that try the jumps in different orders and share the
    dead-position table (``Judge._exhaust``). Each lane alone must be an exact search (its
    jump arrays permuted together), and two lanes sharing the table must agree with the
    oracle, whatever the other one has stored; so must the lanes the judge made itself."""
    fresh.setattr(tables, "LIVE_POSITIONS", 40)
    fresh.setattr(judge_module, "BEAM_WIDTHS", ())  # no probes: the exhaustive search decides
    text = BOARDS[2]
    inst = parse_instance(text)
    truth = oracle(inst)
    judge = verdict.judge_for(inst, wait=True)
    judge.lp = None  # no pagoda learnt on the way: the lanes' arrays stay as set here
    own = list(judge.lane_arrays)
    order = np.arange(len(judge.need))[::-1]
    forward = (judge.need, judge.to, judge.flip, judge.loss_t)
    backward = (judge.need[order].copy(), judge.to[order].copy(), judge.flip[order].copy(),
                np.ascontiguousarray(judge.loss_t[order]))
    board = inst.board
    decided = {"can": 0, "cannot": 0}
    for lanes in ([forward], [backward], [forward, backward], own):
        judge.lane_arrays = lanes
        judge.dead_table[:] = 0
        for state in sample(inst, truth, count=200, seed=5):
            pos = board.to_compact(state.pegs)
            if pos.bit_count() <= judge.top + 1:
                continue
            answer, _ = judge.search(pos, float("inf"))
            assert judge.lane_arrays is lanes
            if answer in ("cannot", "pagoda"):
                assert not truth[state.pegs], (text, state.pegs, len(lanes))
                decided["cannot"] += 1
            else:
                assert answer == "can" and truth[state.pegs], (text, state.pegs, len(lanes))
                decided["can"] += 1
    assert decided["can"] and decided["cannot"]


def test_opening_book_holds_every_position_near_the_start_decided_exactly(fresh):
    """``puzzle pegs table``, with a table too small to decide the start's openings, decides
    every position within a few jumps of the start into the opening book, with progress: each
    one agrees with the oracle, the verdict then answers from the book, and a new judge reads
    the book back from disk."""
    from click.testing import CliRunner

    from plugins.pegs.commands import pegs_group

    text = BOARDS[3]
    fresh.setattr(tables, "LARGE_POSITIONS", 40)
    out = CliRunner().invoke(pegs_group, ["table", text])
    assert out.exit_code == 0, out.output
    assert "in the opening book" in out.stdout and "from 1 start" in out.stdout
    assert "opening book:" in out.stderr and "positions decided" in out.stderr
    inst = parse_instance(text)
    truth = oracle(inst)
    board = inst.board
    start = board.to_compact(inst.pegs)
    judge = verdict.judge_for(inst, wait=True)
    assert len(judge.book) > 0
    # Every position a few jumps from the start, found here by brute force over the oracle's
    # positions (grid bitboards), is in the book with the oracle's answer.
    reachable, level = set(), {inst.pegs}
    jumps = brute_jumps(inst)
    while level:
        level = {p & ~(1 << a) & ~(1 << b) | (1 << c) for p in level for a, b, c in jumps
                 if p >> a & 1 and p >> b & 1 and not p >> c & 1}
        level = {p for p in level if p.bit_count() > judge.top}
        reachable |= level
    keys = set()
    for grid in reachable:
        known = judge.book_verdict(board.to_compact(grid))
        assert known == truth[grid], (text, grid)  # in the book (not None), and right
        keys.add(int(lv.canon(np.uint64(board.to_compact(grid)), judge.tables)))
    assert keys == {int(k) for k in judge.book.alive} | {int(k) for k in judge.book.dead}
    assert judge.open_book(start) == 0  # already there
    # A fresh judge finds it on disk; the verdict answers from it.
    fresh.setattr(verdict, "_judges", OrderedDict())
    again = verdict.judge_for(inst, wait=True)
    assert np.array_equal(again.book.dead, judge.book.dead)
    assert np.array_equal(again.book.alive, judge.book.alive)
    answered = 0
    for grid in sorted(reachable):
        # The cheaper proofs (no jump left, position classes, pagodas) come before the book.
        a = verdict.assess(replace(inst, pegs=grid), budget=1.0, wait=True)
        assert a.verdict == ("can" if truth[grid] else "cannot"), a
        answered += "opening book" in a.detail
    assert answered


def test_a_damaged_opening_book_is_ignored(tmp_path):
    """A book read from disk whose contents do not match its digest would give wrong verdicts:
    it is read as empty, as is a file that is not a book."""
    keys = np.array([3, 5, 9], np.uint64)
    book = OpeningBook(keys, np.array([4, 6], np.uint64), np.array([7], np.uint64))
    path = tmp_path / "book.npz"
    book.save(path)
    loaded = OpeningBook.load(path)
    assert loaded.verdict(5) is True and loaded.verdict(6) is False and loaded.verdict(8) is None
    with np.load(path) as data:
        parts = {name: data[name] for name in data.files}
    parts["dead"] = np.array([4, 8], np.uint64)  # 6 became 8, the digest unchanged
    np.savez(path, **parts)
    assert len(OpeningBook.load(path)) == 0
    book.save(path)
    path.write_bytes(path.read_bytes()[:-40])  # cut short, as by a full disk
    assert len(OpeningBook.load(path)) == 0
    path.write_bytes(b"not a book")
    assert len(OpeningBook.load(path)) == 0

