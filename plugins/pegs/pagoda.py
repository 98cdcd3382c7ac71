"""Pagoda functions (Beasley): weights that a jump can never increase.

A pagoda function ``p`` gives each hole a weight with ``p(a) + p(b) >= p(c)`` for every jump
from ``a`` over ``b`` into ``c``. The total weight of the pegs then never grows, so a position
whose weight is below the goal's weight can never reach the goal and is pruned.

The ones derived here, for any board and any goal hole ``g``, are Conway's "soldiers" resource
count made integral: ``p(h) = F(D - d(h, g))`` with ``F`` the Fibonacci numbers, ``d`` the jump
distance of the geometry (Manhattan on the square grid, Chebyshev with diagonals, hexagonal on
the triangular lattice) and ``D`` the largest distance on the board. A jump toward ``g`` keeps
the weight (``F(k) + F(k+1) = F(k+2)``); any other jump loses weight. They prune positions whose
pegs are too few and too far from the goal. Every function is checked against every jump of the
board before it is used, so a wrong one can never prune a solvable position.

A second family is also derived for every goal: *region* pagodas, 0/1 weights on a set ``S``
of holes closed under "a jump into ``S`` starts or passes in ``S``". A position with no peg in
``S`` can never put one there; with the goal inside ``S`` such a position is dead.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board


@dataclass(frozen=True)
class Pagoda:
    """Integer weights per compact hole, with a name for messages."""

    name: str
    weights: tuple[int, ...]

    def value(self, compact_pegs: int) -> int:
        w = self.weights
        total = 0
        k = 0
        while compact_pegs:
            if compact_pegs & 1:
                total += w[k]
            compact_pegs >>= 1
            k += 1
        return total


def _distance(geometry: str, a: tuple[int, int], b: tuple[int, int]) -> int:
    dr, dc = a[0] - b[0], a[1] - b[1]
    if geometry == "square":
        return abs(dr) + abs(dc)
    if geometry == "diagonal":
        return max(abs(dr), abs(dc))
    return (abs(dr) + abs(dc) + abs(dr - dc)) // 2  # triangular lattice, skewed coordinates


def is_pagoda(board: Board, weights: tuple[int, ...]) -> bool:
    return all(weights[f] + weights[o] >= weights[t] for f, o, t in board.jumps)


def soldiers_pagoda(board: Board, centre: int) -> Pagoda | None:
    """The Fibonacci distance pagoda centred on compact hole ``centre`` (None if invalid)."""
    dist = [_distance(board.geometry, board.coords[centre], rc) for rc in board.coords]
    top = max(dist)
    fib = [0, 1]
    while len(fib) < top + 3:
        fib.append(fib[-1] + fib[-2])
    weights = tuple(fib[top + 1 - d] for d in dist)
    if not is_pagoda(board, weights):
        return None
    return Pagoda(f"distance pagoda around {board.names[centre]}", weights)


def region_pagoda(board: Board, centre: int) -> Pagoda | None:
    """The smallest jump-closed region containing ``centre`` as a 0/1 pagoda.

    Closure: if ``c`` is in the region, every jump into ``c`` must start or pass inside it; when
    neither does, add the jumped-over hole (the cheaper choice to keep the region small).
    """
    region = {centre}
    changed = True
    while changed:
        changed = False
        for f, o, t in board.jumps:
            if t in region and f not in region and o not in region:
                region.add(o)
                changed = True
    if len(region) == board.n:
        return None  # covers every hole: never prunes anything
    weights = tuple(1 if k in region else 0 for k in range(board.n))
    if not is_pagoda(board, weights):
        return None
    return Pagoda(f"region pagoda around {board.names[centre]}", weights)


def pagodas_for(board: Board, goal: int) -> tuple[Pagoda, ...]:
    """Pagodas worth testing for a goal (compact bitboard, 0 = one peg anywhere)."""
    if goal == 0:
        return ()
    found = []
    centres = [k for k in range(board.n) if goal >> k & 1][:4]
    for centre in centres:
        for make in (soldiers_pagoda, region_pagoda):
            p = make(board, centre)
            if p is not None:
                found.append(p)
    return tuple(found)
