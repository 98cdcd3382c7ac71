"""Counting every solution of a peg solitaire problem, by meeting in the middle.

Level sets (:mod:`.levels`) grow from the start by jumps and from the goal by reverse jumps,
always on the smaller side, until both reach the same number of pegs. The number of solutions
is then the sum, over the positions common to both middle levels, of (sequences from the start
to it) x (sequences from it to the goal). Both sides are pruned by pagoda functions: forward
positions that cannot reach the goal, backward positions that cannot be reached from the start
(a pagoda total of the *empty* holes, which reverse jumps never increase). Positions are merged
under the symmetries that fix both the start and the goal, with counts kept exact.

A solution here is a sequence of single jumps ending exactly at the goal (one peg anywhere,
one peg at a hole, or a pattern); two sequences that differ only in the order of independent
jumps are different solutions, as in the published counts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from engine import InputError, format_number

from . import levels as lv
from .board import PegInstance
from .classes import class_verdict
from .i18n import _
from .pagoda import pagodas_for
from .symmetry import goal_symmetries
from .wording import count_pegs, count_positions

#: Default memory budget of a count, in bytes.
DEFAULT_MEMORY = 4 * 2**30


class CountRefused(InputError):
    """The count would not fit the memory budget (the message carries the estimate)."""


@dataclass
class LevelInfo:
    """One level set: which side, how many pegs, positions (up to symmetry), seconds."""

    side: str
    pegs: int
    positions: int
    seconds: float


@dataclass
class CountResult:
    solutions: int
    positions: int  # distinct positions (up to symmetry) in all level sets built
    middle: int  # positions common to both middle levels (up to symmetry)
    meet_pegs: int
    symmetries: int
    seconds: float
    peak_bytes: int
    levels: list[LevelInfo] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"solutions": self.solutions, "positions": self.positions,
                "middle_positions": self.middle, "meet_pegs": self.meet_pegs,
                "symmetries": self.symmetries, "seconds": round(self.seconds, 3),
                "peak_bytes": self.peak_bytes,
                "levels": [vars(level) | {"seconds": round(level.seconds, 3)}
                           for level in self.levels]}


def _pagoda_arrays(board, pagodas, jumps, backward):
    """Per-pagoda hole weights and per-jump change of the tracked total."""
    if not pagodas:
        return np.zeros((0, board.n), np.int64), np.zeros((0, len(jumps)), np.int64)
    weights = np.array([pg.weights for pg in pagodas], dtype=np.int64)
    delta = np.zeros((len(pagodas), len(jumps)), dtype=np.int64)
    for k, pg in enumerate(pagodas):
        w = pg.weights
        for j, (f, o, t) in enumerate(jumps):
            # Forward: the pegs' total loses w[f] + w[o] and gains w[t]. Backward the empty
            # holes' total changes the same way (a reverse jump empties t, fills f and o).
            delta[k, j] = w[t] - w[f] - w[o]
    return weights, delta


class CountStopped(Exception):
    """``should_stop()`` said stop (cancelled, or past a deadline) before the count finished;
    ``levels`` are the level sets built so far."""

    def __init__(self, levels: list[LevelInfo]):
        super().__init__("the count was stopped")
        self.levels = levels


@dataclass
class _Problem:
    """Both sides of a count ready to grow, and the tables the kernels need."""

    fwd: lv.Side
    bwd: lv.Side
    tables: np.ndarray
    need: np.ndarray
    to: np.ndarray
    flip: np.ndarray
    holes: int
    symmetries: int

    def next_side(self) -> tuple[lv.Side, lv.Side] | None:
        """(the side to grow next, the other one): always the smaller; None when they met."""
        fwd, bwd = self.fwd, self.bwd
        if not (fwd.pegs > bwd.pegs and len(fwd.keys) and len(bwd.keys)):
            return None
        return (fwd, bwd) if len(fwd.keys) <= len(bwd.keys) else (bwd, fwd)


def _projected_bytes(side_size: int, growth: float, other_size: int) -> tuple[int, int]:
    """(guessed size of the next level, bytes to build it while both sides are kept): the
    count's memory rule, checked before each level is built."""
    guess = int(side_size * growth) + 1024
    return guess, guess * lv.BUILD_BYTES + (side_size + other_size) * lv.STORED_BYTES


def _problem(inst: PegInstance) -> _Problem | None:
    """The two sides of a count of ``inst``; None when no solution can exist (too few pegs,
    or the position classes of start and goal rule it out)."""
    if not lv.AVAILABLE:
        raise InputError(_("counting needs numba, which is not installed"))
    board = inst.board
    if board.n > 64:
        raise CountRefused(_("counting handles boards of at most 64 holes; this one has {count}").format(
            count=board.n))
    start, goal = board.to_compact(inst.pegs), board.to_compact(inst.goal)
    perms = [p for p in goal_symmetries(board, goal) if _permute(start, p) == start]
    tables = lv.byte_tables(perms, board.n)
    jumps = board.jumps
    need = np.array([(1 << f) | (1 << o) for f, o, t in jumps], dtype=np.uint64)
    to = np.array([1 << t for f, o, t in jumps], dtype=np.uint64)
    goal_pegs = goal.bit_count() or 1
    if start.bit_count() < goal_pegs or not class_verdict(board, start, goal).feasible:
        return None

    # Forward side, pruned by the goal's pagodas: value(pegs) must stay >= value(goal).
    fpag = pagodas_for(board, goal)
    fw, fd = _pagoda_arrays(board, fpag, jumps, False)
    fbound = np.array([pg.value(goal) for pg in fpag], dtype=np.int64)
    fwd = lv.Side("forward", np.array([lv.canon(np.uint64(start), tables)], np.uint64),
                np.ones(1, np.uint64), start.bit_count(), False, fw, fd, fbound, 0)
    # Backward side from the goal (every allowed single hole for "one peg anywhere"), pruned by
    # pagodas of the start's empty holes: value(empty) must stay >= value(start's empty holes).
    empty_start = board.full ^ start
    bpag = pagodas_for(board, empty_start) if empty_start else ()
    bw, bd = _pagoda_arrays(board, bpag, jumps, True)
    bbound = np.array([pg.value(empty_start) for pg in bpag], dtype=np.int64)
    if goal:
        bkeys = np.array([lv.canon(np.uint64(goal), tables)], np.uint64)
        bcounts = np.ones(1, np.uint64)
    else:
        allowed = set(class_verdict(board, start, 0).holes_by_class)
        seeds: dict[int, int] = {}
        for k in range(board.n):
            if board.names[k] in allowed:
                c = int(lv.canon(np.uint64(1 << k), tables))
                seeds[c] = seeds.get(c, 0) + 1
        order = sorted(seeds)
        bkeys = np.array(order, np.uint64)
        bcounts = np.array([seeds[c] for c in order], np.uint64)
    bwd = lv.Side("backward", bkeys, bcounts, goal_pegs, True, bw, bd, bbound, board.full)
    return _Problem(fwd, bwd, tables, need, to, need | to, board.n, len(perms))


def count_solutions(inst: PegInstance, *, memory: int = DEFAULT_MEMORY,
                    progress: Callable[[LevelInfo], None] | None = None,
                    should_stop: Callable[[], bool] | None = None) -> CountResult:
    """Count every jump sequence solving ``inst``. Raises :class:`CountRefused` when the
    projected memory exceeds ``memory`` bytes (checked before each level is built), and
    :class:`CountStopped` once ``should_stop()`` is true (asked between chunks of a level)."""
    started = time.monotonic()
    problem = _problem(inst)
    result = CountResult(0, 0, 0, 0, problem.symmetries if problem else 0, 0.0, 0)
    if problem is None:
        result.seconds = time.monotonic() - started
        return result
    fwd, bwd = problem.fwd, problem.bwd
    for side in (fwd, bwd):
        info = LevelInfo(side.name, side.pegs, len(side.keys), 0.0)
        result.levels.append(info)
        if progress:
            progress(info)

    peak = 0
    while (pair := problem.next_side()) is not None:
        side, other = pair
        # Memory check before building: this level's table plus both stored levels.
        guess, projected = _projected_bytes(len(side.keys), side.growth, len(other.keys))
        if projected > memory:
            if side.backward:
                message = _("counting this problem would need about {need} GB for the level with "
                            "{level} (the backward side has {positions} with {pegs} and grows about "
                            "{growth}x per level); the budget is {budget} GB")
            else:
                message = _("counting this problem would need about {need} GB for the level with "
                            "{level} (the forward side has {positions} with {pegs} and grows about "
                            "{growth}x per level); the budget is {budget} GB")
            raise CountRefused(message.format(
                need=format_number(projected / 2**30, 1),
                level=count_pegs(side.pegs + (1 if side.backward else -1)),
                positions=count_positions(len(side.keys)), pegs=count_pegs(side.pegs),
                growth=format_number(side.growth, 1), budget=format_number(memory / 2**30, 1)))
        t0 = time.monotonic()
        try:
            keys, counts = lv.grow(side, problem.need, problem.to, problem.flip, problem.tables, guess,
                                 should_stop)
        except lv.GrowStopped:
            raise CountStopped(result.levels) from None
        peak = max(peak, keys.nbytes * 2 + counts.nbytes * 2 + side.keys.nbytes * 2
                   + other.keys.nbytes * 2)
        side.growth = max(1.0, len(keys) / max(1, len(side.keys)))
        side.keys, side.counts = keys, counts
        side.pegs += 1 if side.backward else -1
        info = LevelInfo(side.name, side.pegs, len(keys), time.monotonic() - t0)
        result.levels.append(info)
        if progress:
            progress(info)

    result.meet_pegs = fwd.pegs
    result.positions = sum(level.positions for level in result.levels)
    if fwd.pegs == bwd.pegs and len(fwd.keys) and len(bwd.keys):
        orbits = lv.orbit_sizes(fwd.keys, problem.tables)
        flags = np.zeros(1, np.int64)
        total, common = lv.meet_total(fwd.keys, fwd.counts, bwd.keys, bwd.counts, orbits, flags)
        if flags[0]:
            total = _exact_total(fwd, bwd, orbits)
        result.solutions, result.middle = int(total), int(common)
    result.peak_bytes = peak
    result.seconds = time.monotonic() - started
    return result


#: The estimate builds levels for real while the next one is guessed at most this many
#: positions (a few milliseconds), then projects the rest.
PROBE_POSITIONS = 20_000
#: The projection is multiplied by this: on the English board it falls short of the count's own
#: figure by about 40% (growth factors fall a little slower near the middle than modelled).
ESTIMATE_SAFETY = 2.0


@dataclass(frozen=True)
class CountEstimate:
    """What a count of one problem would need, found before counting.

    ``bytes`` is the count's memory rule (see :func:`count_solutions`) at its largest level,
    ``largest_level`` the positions (up to symmetry) of that level, ``measured`` True when every
    level was small enough to be built while estimating (the figures are then exact).
    ``positions`` is the projected total over all levels (for progress: a level's work grows
    with its size, so counting levels would run far ahead of the work).
    """

    bytes: int
    largest_level: int
    measured: bool
    positions: int = 0


def _binomial_step(side: lv.Side, holes: int) -> float:
    """How much C(holes, pegs) grows from this side's level to its next one."""
    p = side.pegs
    return p / (holes - p + 1) if not side.backward else (holes - p) / (p + 1)


def estimate_count(inst: PegInstance, probe: int = PROBE_POSITIONS) -> CountEstimate:
    """The memory a count of ``inst`` would need, in milliseconds: build the small levels for
    real (up to ``probe`` positions), then project the rest. Raises CountRefused for boards
    of more than 64 holes.

    Projection: the level sizes of a side follow the shape of the binomial coefficients
    C(holes, pegs) scaled by a constant, the last measured growth over the binomial one (on the
    English board that predicts each growth factor within 10%); the sides grow in the count's
    order (smaller first) until they meet, and the count's memory rule is applied at each level.
    """
    problem = _problem(inst)
    if problem is None:
        return CountEstimate(0, 0, True)
    fwd, bwd = problem.fwd, problem.bwd
    largest = max(len(fwd.keys), len(bwd.keys))
    positions = float(len(fwd.keys) + len(bwd.keys))
    peak = 0
    scale: dict[str, float] = {}
    while (pair := problem.next_side()) is not None:
        side, other = pair
        guess, projected = _projected_bytes(len(side.keys), side.growth, len(other.keys))
        if guess > probe:
            break
        peak = max(peak, projected)
        step = _binomial_step(side, problem.holes)
        keys, counts = lv.grow(side, problem.need, problem.to, problem.flip, problem.tables, guess)
        raw = len(keys) / max(1, len(side.keys))
        scale[side.name] = raw / step if step > 0 else 1.0
        side.growth = max(1.0, raw)
        side.keys, side.counts = keys, counts
        side.pegs += 1 if side.backward else -1
        largest = max(largest, len(keys))
        positions += len(keys)
    else:
        return CountEstimate(peak, largest, True, int(positions))

    # Sizes only from here on: (size, growth, pegs) per side.
    sizes = {"forward": float(len(fwd.keys)), "backward": float(len(bwd.keys))}
    default_scale = max(scale.values(), default=1.5)
    pegs = {"forward": fwd.pegs, "backward": bwd.pegs}
    growth = {"forward": fwd.growth, "backward": bwd.growth}
    limit = 2**62  # far past any budget: no need to project further
    while pegs["forward"] > pegs["backward"] and min(sizes.values()) >= 1 and peak < limit:
        name = "forward" if sizes["forward"] <= sizes["backward"] else "backward"
        other = "backward" if name == "forward" else "forward"
        _guess, projected = _projected_bytes(int(sizes[name]), growth[name], int(sizes[other]))
        peak = max(peak, projected)
        p = pegs[name]
        step = p / (problem.holes - p + 1) if name == "forward" else (problem.holes - p) / (p + 1)
        new = sizes[name] * scale.get(name, default_scale) * step
        growth[name] = max(1.0, new / sizes[name])
        sizes[name] = new
        pegs[name] += -1 if name == "forward" else 1
        largest = max(largest, int(min(new, limit)))
        positions += min(new, limit)
    return CountEstimate(int(min(peak * ESTIMATE_SAFETY, limit)), largest, False,
                         int(min(positions, limit)))


def _exact_total(fwd: lv.Side, bwd: lv.Side, orbits) -> int:
    """The meeting sum in Python integers (when it passes 2**64)."""
    _common, fi, bi = np.intersect1d(fwd.keys, bwd.keys, assume_unique=True, return_indices=True)
    total = 0
    for i, j in zip(fi.tolist(), bi.tolist()):
        total += int(fwd.counts[i]) // int(orbits[i]) * int(bwd.counts[j])
    return total


def _permute(bits: int, perm: tuple[int, ...]) -> int:
    out = 0
    for k, image in enumerate(perm):
        if bits >> k & 1:
            out |= 1 << image
    return out


def forward_level_sizes(inst: PegInstance) -> list[tuple[int, int, int]]:
    """Every position reachable from the start, per level, without pruning: a list of
    (pegs, positions up to symmetry, positions). For small boards and checks."""
    board = inst.board
    if not lv.AVAILABLE or board.n > 64:
        raise InputError(_("level sizes need numba and a board of at most 64 holes"))
    start, goal = board.to_compact(inst.pegs), board.to_compact(inst.goal)
    perms = [p for p in goal_symmetries(board, goal) if _permute(start, p) == start]
    tables = lv.byte_tables(perms, board.n)
    need = np.array([(1 << f) | (1 << o) for f, o, t in board.jumps], dtype=np.uint64)
    to = np.array([1 << t for f, o, t in board.jumps], dtype=np.uint64)
    none_w, none_d = np.zeros((0, board.n), np.int64), np.zeros((0, len(need)), np.int64)
    side = lv.Side("forward", np.array([lv.canon(np.uint64(start), tables)], np.uint64),
                 np.ones(1, np.uint64), start.bit_count(), False, none_w, none_d,
                 np.zeros(0, np.int64), 0)
    out = []
    while len(side.keys):
        full = int(lv.orbit_sizes(side.keys, tables).sum())
        out.append((side.pegs, len(side.keys), full))
        keys, _counts = lv.grow(side, need, to, need | to, tables, len(side.keys) * 8)
        side.keys, side.counts = keys, np.ones(len(keys), np.uint64)  # counts unused here
        side.pegs -= 1
    return out
