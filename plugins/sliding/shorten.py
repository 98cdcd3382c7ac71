"""Shortening a sliding-tile solution by re-solving its windows exactly.

Take the states a solution passes through; for a window from state i to state i + w, an exact
IDA* (Manhattan distance + linear conflict towards state i + w, which works for any goal) finds
the shortest way between the two. When it is shorter than w, it replaces that stretch. Windows
slide along the path, then grow, until the time is up. Every replacement keeps the path a
solution, so the answer only gets shorter. A common companion of weighted search: the weighted
answer is good at large scale and wasteful in places, which is what short windows repair.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .ida_lc import LinearConflictSearch

#: Window lengths tried, in order (each pass slides by half a window).
WINDOWS = (12, 18, 24, 30, 36, 44)
#: Nodes an exact window search may use before it is abandoned.
WINDOW_NODES = 300_000


def states_along(tiles: Sequence[int], moves: Sequence[int]) -> list[list[int]]:
    """The boards after 0, 1, ..., len(moves) moves (moves name the tile slid into the blank)."""
    board = list(tiles)
    out = [board[:]]
    for t in moves:
        b, q = board.index(0), board.index(t)
        board[b], board[q] = t, 0
        out.append(board[:])
    return out


def cancel_undos(moves: list[int]) -> list[int]:
    """Drop a move immediately undone (the same tile slid twice in a row)."""
    out: list[int] = []
    for t in moves:
        if out and out[-1] == t:
            out.pop()
        else:
            out.append(t)
    return out


def shorten(tiles: Sequence[int], moves: Sequence[int], rows: int, cols: int,
            stop: Callable[[], bool], windows: Sequence[int] = WINDOWS,
            node_cap: int = WINDOW_NODES) -> tuple[list[int], int]:
    """A solution no longer than ``moves`` (often shorter), and the nodes searched.

    ``stop()`` is polled between windows and inside each window search.
    """
    moves = cancel_undos(list(moves))
    nodes = 0
    for w in windows:
        if stop():
            break
        i = 0
        while i + 2 <= len(moves) and not stop():
            j = min(len(moves), i + w)
            states = states_along(tiles, moves[:j])
            search = LinearConflictSearch(states[i], rows, cols, states[j])
            budget = {"n": 0}

            def poll(stats: dict, budget=budget) -> bool:
                budget["n"] = stats["nodes"]
                return stats["nodes"] >= node_cap or stop()

            search.chunk = 50_000
            path = search.run(poll)
            nodes += search.stats()["nodes"]
            if path is not None and len(path) < j - i:
                moves = cancel_undos(moves[:i] + list(path) + moves[j:])
            i += max(1, w // 2)
    return moves, nodes
