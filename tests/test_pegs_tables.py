"""Damaged peg tables on disk are rebuilt, never trusted (issue: a wrong "unsolvable").

Each kind of damage is applied to the backward-level table of triangle-5 that a first solve
wrote; the fewest-moves solver must then still find the solution the oracle knows exists, and
the file on disk must be a sound table again.
"""

from __future__ import annotations

import shutil
from collections import OrderedDict

import numpy as np
import pytest

from engine import SolveContext
from engine.solving import run_solver
from plugins.pegs import verdict
from plugins.pegs.fewest import FewestMovesSolver
from plugins.pegs.parse import parse_instance
from plugins.pegs.presets import PRESETS
from plugins.pegs.puzzle import PegSolitaire
from plugins.pegs.tablefile import load_arrays, save_arrays, table_digest

PUZZLE = PegSolitaire()
INST = parse_instance(PRESETS["triangle-5"])
OTHER = parse_instance("geometry: square; goal: c2; board: ooooo/oo.oo/ooooo/_ooo_")


def _forget():
    verdict._judges.clear()
    verdict._building.clear()


@pytest.fixture()
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    monkeypatch.setattr(verdict, "_judges", OrderedDict())
    monkeypatch.setattr(verdict, "_building", {})
    return tmp_path


def _live_files(folder):
    return sorted(p for p in folder.glob("pegs-live-*.npz") if "-above-" not in p.name)


def _solve():
    return run_solver(PUZZLE, FewestMovesSolver(), INST, SolveContext.with_timeout(60)).outcome


def _levels(path):
    with np.load(path) as data:
        return {n: data[n] for n in data.files if n.startswith("k")}


def reversed_level(path, other):
    levels = _levels(path)
    name = max((n for n in levels if len(levels[n]) > 1), key=lambda n: len(levels[n]))
    levels[name] = levels[name][::-1].copy()
    np.savez(path, **levels)


def emptied_top(path, other):
    levels = _levels(path)
    top = max(levels, key=lambda n: int(n[1:]))
    levels[top] = levels[top][:0]
    np.savez(path, **levels)


def other_board(path, other):
    shutil.copyfile(other, path)


def truncated(path, other):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def bit_flip(path, other):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))


def empty_file(path, other):  # np.load raises EOFError on it
    path.write_bytes(b"")


@pytest.mark.parametrize("damage", [reversed_level, emptied_top, other_board, truncated,
                                    bit_flip, empty_file], ids=lambda f: f.__name__)
def test_a_damaged_table_is_rebuilt_and_the_answer_stays_right(cache, damage):
    verdict.judge_for(OTHER, wait=True)
    [other] = _live_files(cache)
    first = _solve()
    assert first.status == "solved"
    [path] = [p for p in _live_files(cache) if p != other]
    sound = _levels(path)
    damage(path, other)
    _forget()
    outcome = _solve()
    assert outcome.status == "solved", outcome
    assert len(outcome.moves) == len(first.moves)
    rebuilt = _levels(path)  # written again, whole
    assert sound.keys() == rebuilt.keys()
    assert all(np.array_equal(sound[k], rebuilt[k]) for k in sound)


def test_the_editor_gets_a_judge_after_a_damaged_table_not_building_forever(cache):
    verdict.judge_for(INST, wait=True)
    [path] = _live_files(cache)
    truncated(path, None)
    _forget()
    assert verdict.judge_for(INST, wait=False) is None  # being built, in the background
    verdict._building[verdict._key(INST)].join(timeout=60)
    assert verdict.judge_for(INST, wait=False) is not None


def test_the_digest_covers_parameters_and_every_byte(tmp_path):
    arrays = {"k3": np.arange(5, dtype=np.uint64), "k4": np.arange(3, dtype=np.uint64)}
    path = tmp_path / "t.npz"
    save_arrays(path, "board-a", arrays)
    loaded = load_arrays(path, "board-a")
    assert loaded is not None and all(np.array_equal(loaded[k], arrays[k]) for k in arrays)
    assert load_arrays(path, "board-b") is None  # another board's table
    changed = dict(arrays, k4=arrays["k4"][::-1].copy())
    assert table_digest("board-a", changed) != table_digest("board-a", arrays)
    assert table_digest("board-a", {"k3": arrays["k3"]}) != table_digest("board-a", arrays)
    assert load_arrays(tmp_path / "missing.npz", "board-a") is None
