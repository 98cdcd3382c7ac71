"""Breadth-first search with a budget: the independent oracle for optimal and unsolvable claims.

It uses only the puzzle's own rules (``start``, ``legal_moves``, ``apply_move``, ``is_solved``),
never a solver, so a solver's claim is checked against something it did not compute.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Literal

from ..contract import Instance, Puzzle


@dataclass(frozen=True)
class SearchResult:
    """``found`` (with a shortest solution), ``exhausted`` (no solution exists among the states
    the legal moves reach) or ``budget`` (too many states to decide)."""

    status: Literal["found", "exhausted", "budget"]
    moves: tuple[str, ...] = ()
    states: int = 0


def shortest_solution(puzzle: Puzzle, instance: Instance, *, max_states: int = 20_000,
                      seconds: float = 3.0) -> SearchResult:
    """A shortest solution of ``instance`` by breadth-first search, within the budget."""
    deadline = time.monotonic() + seconds
    start = puzzle.start(instance)
    if puzzle.is_solved(start):
        return SearchResult("found", (), 1)
    parent: dict = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for move in puzzle.legal_moves(state):
            nxt = puzzle.apply_move(state, move)
            if nxt in parent:
                continue
            parent[nxt] = (state, move)
            if puzzle.is_solved(nxt):
                path = []
                node = nxt
                while parent[node] is not None:
                    node, m = parent[node]
                    path.append(m)
                return SearchResult("found", tuple(reversed(path)), len(parent))
            if len(parent) >= max_states or time.monotonic() > deadline:
                return SearchResult("budget", (), len(parent))
            queue.append(nxt)
    return SearchResult("exhausted", (), len(parent))
