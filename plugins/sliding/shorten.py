"""Shortening a sliding-tile solution by re-solving its windows exactly.

Take the states a solution passes through; for a window from state i to state i + w, an exact
search finds the shortest way between the two. When it is shorter than w, it replaces that
stretch. Windows slide along the path, then grow, until the time is up. Every replacement keeps
the path a solution, so the answer only gets shorter. A common companion of weighted search:
the weighted answer is good at large scale and wasteful in places, which is what windows
repair.

Two window searches: IDA* with Manhattan distance + linear conflict towards state i + w
(:func:`lc_window`, any board and goal; weak on the 5x5, so only short windows are affordable),
and IDA* over the compact pattern databases relabelled so that state i + w reads as their goal
(:func:`.window_pdb.solve_window`; windows of 60-70 moves of a 24-puzzle answer in well under a
second).
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from .ida_lc import LinearConflictSearch

#: Window lengths tried, in order (each pass slides by half a window).
WINDOWS = (12, 18, 24, 30, 36, 44)
#: Nodes an exact window search may use before it is abandoned.
WINDOW_NODES = 300_000

#: ``solve(start, end, length, stop, node_cap)``: a way from board ``start`` to board ``end``
#: (the tiles moved) if it finds one shorter than ``length`` (the stretch it would replace; it
#: may return a longer one, which is not used), else None; and the nodes it searched.
WindowSolver = Callable[[list[int], list[int], int, Callable[[], bool], int],
                        tuple[list[int] | None, int]]


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


def lc_window(rows: int, cols: int) -> WindowSolver:
    """The linear-conflict window search for a ``rows`` x ``cols`` board: a shortest way."""

    def solve(start: list[int], end: list[int], length: int, stop: Callable[[], bool],
              node_cap: int) -> tuple[list[int] | None, int]:
        search = LinearConflictSearch(start, rows, cols, end)
        search.chunk = 50_000
        path = search.run(lambda stats: stats["nodes"] >= node_cap or stop())
        return path, search.stats()["nodes"]
    return solve


def shorten(tiles: Sequence[int], moves: Sequence[int], rows: int, cols: int,
            stop: Callable[[], bool], windows: Sequence[int] = WINDOWS,
            node_cap: int = WINDOW_NODES,
            solve: WindowSolver | None = None) -> tuple[list[int], int]:
    """A solution no longer than ``moves`` (often shorter), and the nodes searched.

    ``solve``: the window search (default :func:`lc_window`). ``stop()`` is polled between
    windows and inside each window search.
    """
    solve = solve or lc_window(rows, cols)
    moves = cancel_undos(list(moves))
    nodes = 0
    for w in windows:
        if stop():
            break
        i = 0
        while i + 2 <= len(moves) and not stop():
            j = min(len(moves), i + w)
            states = states_along(tiles, moves[:j])
            path, work = solve(states[i], states[j], j - i, stop, node_cap)
            nodes += work
            if path is not None and len(path) < j - i:
                moves = cancel_undos(moves[:i] + list(path) + moves[j:])
            i += max(1, w // 2)
    return moves, nodes


#: Window lengths :func:`polish` draws from, and the nodes each window may take (about a tenth
#: of a second). On the answers of the bounded solver for 5 of Korf and Felner's 24-puzzles,
#: 5 s of these shortened them by 10 moves in all (windows of 50-80 with 10 M nodes each: 6).
POLISH_WINDOWS = (40, 50, 60)
POLISH_NODES = 2_000_000

#: ``solve(start, end, length, stop, node_cap, variant)``: a shortest way from ``start`` to
#: ``end`` if one of at most ``length`` moves exists (else None), and the nodes searched;
#: ``variant`` picks one of several move orders, so that ties come out differently.
TiedSolver = Callable[[list[int], list[int], int, Callable[[], bool], int, int],
                      tuple[list[int] | None, int]]


def polish(tiles: Sequence[int], moves: Sequence[int], solve: TiedSolver,
           stop: Callable[[], bool], exchange: Callable[[list[int], int], list[int]] | None = None,
           windows: Sequence[int] = POLISH_WINDOWS, node_cap: int = POLISH_NODES,
           seed: int = 0) -> tuple[list[int], int]:
    """Re-solve windows at random places until ``stop()``: a solution no longer than
    ``moves``, and the nodes searched.

    Unlike :func:`shorten`, a window's way as short as the stretch but different replaces it
    too: that moves the boards in between, so the windows that overlap it get new ends and
    may then find shorter ways (sliding windows alone stop where every window is shortest).
    ``exchange(moves, nodes)``, called between windows with the nodes searched so far, returns
    the solution to go on with (a lane offers its shorter ones there and takes a shorter one
    found elsewhere).
    """
    rng = random.Random(seed)
    moves = cancel_undos(list(moves))
    nodes = 0
    while not stop():
        if exchange is not None:
            moves = exchange(moves, nodes)
        w = windows[rng.randrange(len(windows))]
        i = rng.randrange(max(1, len(moves) - w + 1))
        j = min(len(moves), i + w)
        if j - i < 2:
            break
        whole = i == 0 and j == len(moves)
        states = states_along(tiles, moves[:j])
        path, work = solve(states[i], states[j], j - i, stop, node_cap, rng.randrange(8))
        nodes += work
        if path is not None and len(path) <= j - i and path != moves[i:j]:
            moves = cancel_undos(moves[:i] + list(path) + moves[j:])
        if whole:
            # The window was the whole solution: re-solved exactly (or beyond the node cap,
            # and it would be again), so there is nothing more for windows to find.
            break
    if exchange is not None:
        moves = exchange(moves, nodes)
    return moves, nodes
