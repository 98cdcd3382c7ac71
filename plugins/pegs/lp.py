"""Pagoda functions found by linear programming, one per position, each checked exactly.

A pagoda function is any weighting ``w`` of the holes with ``w[t] <= w[f] + w[o]`` for every
jump from ``f`` over ``o`` into ``t`` (negative weights allowed): no jump raises the total
weight of the pegs, so a position whose total is below the goal's can never reach the goal.
The fixed pagodas of :mod:`.pagoda` are a few such weightings chosen in advance; here the
weighting is *searched for*, for the position at hand, as a linear programme:

    find w with  w[f] + w[o] - w[t] >= 0  for every jump,  w.goal - w.position >= 1.

By Farkas' lemma it has a solution exactly when ``position - goal`` is not a nonnegative
combination of the jumps' effects, so no pagoda function at all refutes a position this one
cannot. The solver (HiGHS, through scipy) works in floating point, so its answer is never
trusted as it is: the weights are turned into exact fractions, scaled to integers and checked
against every jump of the board in integer arithmetic (:func:`.pagoda.is_pagoda`). Only a
checked weighting is a proof; anything else (no solution, a solver failure, a rounding that
does not check, scipy not installed) proves nothing and the caller goes on.
"""

from __future__ import annotations

import importlib.util
import math
from fractions import Fraction

import numpy as np

from engine import N_

from .board import Board
from .pagoda import Pagoda, is_pagoda

#: scipy is a dependency; without it this proof is skipped. Imported on first use only (it takes
#: a few tenths of a second, which a command that never judges a position should not pay).
AVAILABLE = importlib.util.find_spec("scipy") is not None
#: Bound on each weight in the programme (keeps it bounded; any solution can be scaled down).
WEIGHT_BOUND = 64.0
#: Largest denominator tried when turning the solver's weights into fractions.
MAX_DENOMINATOR = 720
#: The name of every pagoda found here (messages tell them apart from the fixed ones by it).
LP_NAME = N_("pagoda function found by linear programming")


class PagodaLP:
    """The constraint matrix of one board, built once, for :meth:`refute` on many positions."""

    def __init__(self, board: Board):
        from scipy.optimize import linprog  # here, with the judge, rather than in a verdict

        self._linprog = linprog
        self.board = board
        n, jumps = board.n, board.jumps
        # Each row, as "<= 0": w[t] - w[f] - w[o] <= 0.
        self.rows = np.zeros((len(jumps) + 1, n))
        for j, (f, o, t) in enumerate(jumps):
            self.rows[j, f] -= 1
            self.rows[j, o] -= 1
            self.rows[j, t] += 1
        self.rhs = np.zeros(len(jumps) + 1)
        self.rhs[-1] = -1.0  # the last row: w.position - w.goal <= -1
        # A small objective (total weight) steers the solver to a vertex with small entries,
        # which round to exact fractions more reliably than an arbitrary feasible point.
        self.cost = np.ones(n)

    def refute(self, position: int, goal: int, seconds: float | None = None) -> Pagoda | None:
        """A pagoda function (integer weights, checked against every jump) whose value on
        ``position`` is below its value on ``goal`` (compact bitboards), or None (also when the
        solver needs more than ``seconds``)."""
        if not AVAILABLE or not goal:
            return None
        n = self.board.n
        diff = np.array([(position >> k & 1) - (goal >> k & 1) for k in range(n)], dtype=float)
        rows = self.rows.copy()
        rows[-1] = diff
        weights = _solve(self, rows, self.rhs, seconds)
        if weights is None:
            return None
        pagoda = Pagoda(LP_NAME, weights)
        # The proof: exact checks, independent of the solver's arithmetic.
        return pagoda if pagoda.value(position) < pagoda.value(goal) else None


def pagoda_library(board: Board, goal: int, *, samples: int = 1000, size: int = 16,
                   seed: int = 0) -> list[Pagoda]:
    """Pagodas for a board and goal, found in advance from the board alone: the programme is
    solved for ``samples`` pseudo-random sets of holes (seeded, so the library is the same on
    every machine), each a half to nearly all of the board, and the ``size`` weightings that
    refute the most of those sets are kept, most useful first. Cheap to test at every position
    of a search, where solving a programme per position would not be; each one is checked like
    any other (:meth:`PagodaLP.refute`)."""
    if not AVAILABLE or not goal or board.n < 8:
        return []
    import random

    solver = PagodaLP(board)
    rng = random.Random(seed)
    hits: dict[tuple[int, ...], int] = {}
    found: list[Pagoda] = []
    for _ in range(samples):
        pos = 0
        for hole in rng.sample(range(board.n), rng.randint(board.n // 2, board.n - 4)):
            pos |= 1 << hole
        # A set already refuted by a weighting found before counts for it (no programme).
        known = next((pg for pg in found if pg.value(pos) < pg.value(goal)), None)
        if known is None:
            known = solver.refute(pos, goal)
            if known is None:
                continue
            found.append(known)
        hits[known.weights] = hits.get(known.weights, 0) + 1
    found.sort(key=lambda pg: -hits[pg.weights])
    return found[:size]


def table_library(board: Board, top_keys, *, samples: int = 300, size: int = 16,
                  seed: int = 0, rounds: int = 8, progress=None) -> list[Pagoda]:
    """Pagodas aimed at the table's bound rather than the goal (see ``Judge.bound``): for
    seeded pseudo-random sets of holes ``P``, find ``w`` with ``w.P < w.Q`` for every position
    ``Q`` of the table's top level (sorted ``top_keys``), by cutting planes: solve for a few
    such ``Q``, look for the top position of least weight, add it, solve again (at most
    ``rounds`` times). Weightings that pass the pagoda check are kept, the ``size`` refuting the
    most sets first. Only a search aid: the bound each one is tested against is computed
    exactly by the judge, over every position of the level, wherever the weights came from.
    ``progress(done, samples)`` is called every 100 sets."""
    if not AVAILABLE or board.n < 8 or len(top_keys) == 0:
        return []
    import random

    from . import levels as lv

    solver = PagodaLP(board)
    n = board.n
    rng = random.Random(seed)
    cuts = [int(top_keys[rng.randrange(len(top_keys))]) for _ in range(8)]
    found: dict[tuple[int, ...], int] = {}  # weights -> least value over the level
    hits: dict[tuple[int, ...], int] = {}

    def bits(x: int) -> np.ndarray:
        return np.array([x >> k & 1 for k in range(n)], dtype=float)

    for done in range(samples):
        if progress and done and done % 100 == 0:
            progress(done, samples)
        pos = 0
        for hole in rng.sample(range(n), rng.randint(n // 2, n - 4)):
            pos |= 1 << hole
        known = next((w for w, least in found.items()
                      if sum(w[k] for k in range(n) if pos >> k & 1) < least), None)
        if known is not None:
            hits[known] += 1
            continue
        p = bits(pos)
        for _ in range(rounds):
            rows = np.vstack([solver.rows[:-1]] + [p - bits(q) for q in cuts])
            rhs = np.concatenate([np.zeros(len(solver.rows) - 1), -np.ones(len(cuts))])
            weights = _solve(solver, rows, rhs)
            if weights is None:
                break
            least, at = lv.level_argmin(top_keys, lv.byte_values(np.array([weights], np.int64), n)[0])
            if least > sum(weights[k] for k in range(n) if pos >> k & 1):
                found[weights], hits[weights] = int(least), 1
                break
            cuts.append(int(top_keys[at]))
    best = sorted(found, key=lambda w: -hits[w])[:size]
    return [Pagoda(LP_NAME, w) for w in best]


def _solve(solver: PagodaLP, rows, rhs, seconds: float | None = None) -> tuple[int, ...] | None:
    """Integer weights for ``rows . w <= rhs`` (the first rows the pagoda ones), checked to be a
    pagoda function, or None (also when ``seconds`` run out)."""
    options = {} if seconds is None else {"time_limit": max(0.001, seconds)}
    try:
        res = solver._linprog(solver.cost, A_ub=rows, b_ub=rhs,
                              bounds=(-WEIGHT_BOUND, WEIGHT_BOUND), method="highs",
                              options=options)
    except (ValueError, ArithmeticError):  # pragma: no cover - a solver failure proves nothing
        return None
    if res.status != 0 or res.x is None:
        return None
    fracs = [Fraction(float(v)).limit_denominator(MAX_DENOMINATOR) for v in res.x]
    scale = math.lcm(*(f.denominator for f in fracs))
    weights = tuple(int(f * scale) for f in fracs)
    if max(abs(w) for w in weights) > 1 << 20:  # an awkward rounding: skip (kernels use int64)
        return None
    return weights if is_pagoda(solver.board, weights) else None
