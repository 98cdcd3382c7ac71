"""Conformance law for every installed renderer: its SVG is already safe.

The engine sanitises renderer output with an allowlist (engine/svgsafe.py). A well-behaved
renderer loses nothing to it: no element or attribute of its boards is removed, for the start of
every preset and after a few legal moves. (Kept as its own small test so it can join the
conformance suite wherever that lives.)
"""

from __future__ import annotations

import pytest

from engine.plugins import get_registry
from engine.solving import iter_states
from engine.svgsafe import sanitize_svg_report

REGISTRY = get_registry()
CASES = [(pid, r.name) for pid in sorted(REGISTRY.puzzles) for r in REGISTRY.renderers(pid)]


def _boards(puzzle, renderer, limit=3):
    for name, text in list(puzzle.presets().items())[:limit]:
        instance = puzzle.parse(text)
        state = puzzle.start(instance)
        moves = []
        for _ in range(3):  # a few legal moves, so last/next-move markup is drawn too
            legal = list(puzzle.legal_moves(state))
            if not legal:
                break
            moves.append(legal[0])
            state = puzzle.apply_move(state, legal[0])
        for step, st in enumerate(iter_states(puzzle, instance, moves)):
            yield (name, step), renderer.render(
                st, last_move=moves[step - 1] if step else None,
                next_move=moves[step] if step < len(moves) else None)


@pytest.mark.parametrize("puzzle_id, renderer_name", CASES)
def test_law_renderer_svg_passes_the_sanitiser_unchanged(puzzle_id, renderer_name):
    puzzle = REGISTRY.puzzle(puzzle_id)
    renderer = REGISTRY.renderer(puzzle_id, renderer_name)
    seen = 0
    for where, svg in _boards(puzzle, renderer):
        _, removed = sanitize_svg_report(svg)
        assert removed == [], (puzzle_id, renderer_name, where, removed)
        seen += 1
    assert seen > 0, f"{puzzle_id} has no preset to render"
