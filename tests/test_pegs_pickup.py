"""A long-running server's peg verdicts use what `puzzle pegs table` finished after it started:
the large table and, written last, the opening book (plugins/pegs/verdict.py's file watch).
Before, a judge that had loaded the large table before the book existed kept answering
"unknown" from a start that a fresh server decides from the book at once."""

from __future__ import annotations

from collections import OrderedDict

from plugins.pegs import tables, verdict
from plugins.pegs.judge import Judge
from plugins.pegs.parse import parse_instance
from plugins.pegs.presets import PRESETS

START = parse_instance(PRESETS["triangle-corners"])


def test_a_book_written_after_the_judge_was_built_is_picked_up(monkeypatch, tmp_path):
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    monkeypatch.setattr(verdict, "_judges", OrderedDict())
    monkeypatch.setattr(verdict, "_building", {})
    monkeypatch.setattr(tables, "LARGE_POSITIONS", 40)  # a "large" table too small to decide starts
    monkeypatch.setattr("engine.tablecache.RECHECK_SECONDS", 0.0)
    Judge(START, tables.LARGE_POSITIONS)  # `puzzle pegs table` has written its table...
    early = verdict.judge_for(START, wait=True)  # ...and this server loaded it at once
    start = early.problem.board.to_compact(START.pegs)
    assert early.positions == tables.LARGE_POSITIONS and len(early.book) == 0
    assert verdict.judge_for(START, wait=False) is early  # nothing new on disk: no rebuild

    other = Judge(START, tables.LARGE_POSITIONS)  # the command goes on: the opening book
    assert other.open_book(start) > 0
    assert verdict.judge_for(START, wait=False) is early  # answers while the new one loads
    verdict._building[verdict._key(START)].join(timeout=120)
    late = verdict.judge_for(START, wait=False)
    assert late is not early
    assert len(late.book) == len(other.book) > 0  # the positions near the start, decided
