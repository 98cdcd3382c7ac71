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

from engine import InputError, plural

from . import levels as lv
from .board import PegInstance
from .classes import class_verdict
from .pagoda import pagodas_for
from .symmetry import goal_symmetries

#: Default memory budget of a count, in bytes.
DEFAULT_MEMORY = 4 * 2**30
#: Parents expanded per kernel call (between progress reports and Ctrl+C checks).
CHUNK = 1 << 18


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


class _Side:
    """One growing side: its current level (sorted keys, counts) and pruning tables."""

    def __init__(self, name, keys, counts, pegs, backward, weights, delta, bound, complement):
        self.name, self.keys, self.counts, self.pegs = name, keys, counts, pegs
        self.backward, self.weights, self.delta, self.bound = backward, weights, delta, bound
        self.complement = np.uint64(complement)
        self.growth = 8.0  # last observed size ratio between levels (a guess at first)


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


def count_solutions(inst: PegInstance, *, memory: int = DEFAULT_MEMORY,
                    progress: Callable[[LevelInfo], None] | None = None) -> CountResult:
    """Count every jump sequence solving ``inst``. Raises :class:`CountRefused` when the
    projected memory exceeds ``memory`` bytes (checked before each level is built)."""
    if not lv.AVAILABLE:
        raise InputError("counting needs numba, which is not installed")
    started = time.monotonic()
    board = inst.board
    if board.n > 64:
        raise CountRefused(f"counting handles boards of at most 64 holes; this one has {board.n}")
    start, goal = board.to_compact(inst.pegs), board.to_compact(inst.goal)
    perms = [p for p in goal_symmetries(board, goal) if _permute(start, p) == start]
    tables = lv.byte_tables(perms, board.n)
    jumps = board.jumps
    need = np.array([(1 << f) | (1 << o) for f, o, t in jumps], dtype=np.uint64)
    to = np.array([1 << t for f, o, t in jumps], dtype=np.uint64)
    flip = need | to
    result = CountResult(0, 0, 0, 0, len(perms), 0.0, 0)
    goal_pegs = goal.bit_count() or 1
    if start.bit_count() < goal_pegs or not class_verdict(board, start, goal).feasible:
        result.seconds = time.monotonic() - started
        return result

    # Forward side, pruned by the goal's pagodas: value(pegs) must stay >= value(goal).
    fpag = pagodas_for(board, goal)
    fw, fd = _pagoda_arrays(board, fpag, jumps, False)
    fbound = np.array([pg.value(goal) for pg in fpag], dtype=np.int64)
    fwd = _Side("forward", np.array([lv.canon(np.uint64(start), tables)], np.uint64),
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
    bwd = _Side("backward", bkeys, bcounts, goal_pegs, True, bw, bd, bbound, board.full)
    for side in (fwd, bwd):
        info = LevelInfo(side.name, side.pegs, len(side.keys), 0.0)
        result.levels.append(info)
        if progress:
            progress(info)

    peak = 0
    while fwd.pegs > bwd.pegs and len(fwd.keys) and len(bwd.keys):
        side = fwd if len(fwd.keys) <= len(bwd.keys) else bwd
        other = bwd if side is fwd else fwd
        # Memory check before building: this level's table plus both stored levels.
        guess = int(len(side.keys) * side.growth) + 1024
        projected = guess * lv.BUILD_BYTES + (len(side.keys) + len(other.keys)) * lv.STORED_BYTES
        if projected > memory:
            raise CountRefused(
                f"counting this problem would need about {projected / 2**30:.1f} GB for the "
                f"level with {plural(side.pegs + (1 if side.backward else -1), 'peg')} (the {side.name} "
                f"side has {plural(len(side.keys), 'position')} with {plural(side.pegs, 'peg')} and grows about "
                f"{side.growth:.1f}x per level); the budget is {memory / 2**30:.1f} GB")
        t0 = time.monotonic()
        keys, counts = _grow(side, need, to, flip, tables, guess)
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
        orbits = lv.orbit_sizes(fwd.keys, tables)
        flags = np.zeros(1, np.int64)
        total, common = lv.meet_total(fwd.keys, fwd.counts, bwd.keys, bwd.counts, orbits, flags)
        if flags[0]:
            total = _exact_total(fwd, bwd, orbits)
        result.solutions, result.middle = int(total), int(common)
    result.peak_bytes = peak
    result.seconds = time.monotonic() - started
    return result


def _grow(side: _Side, need, to, flip, tables, guess: int):
    """The next level of ``side``: (sorted keys, counts). Raises OverflowError past 2**64."""
    capacity = 1 << max(10, (2 * guess).bit_length())
    while True:
        hkeys = np.zeros(capacity, np.uint64)
        hcounts = np.zeros(capacity, np.uint64)
        flags = np.zeros(3, np.int64)
        for lo in range(0, len(side.keys), CHUNK):
            hi = min(len(side.keys), lo + CHUNK)
            lv.expand(side.keys, side.counts, lo, hi, need, to, flip, side.backward, tables,
                      side.weights, side.delta, side.bound, side.complement, hkeys, hcounts,
                      flags)
            if flags[0]:
                break
        if flags[1]:
            raise OverflowError("a count exceeds 2**64; this problem has too many solutions "
                                "for this counter")
        if not flags[0]:
            break
        capacity *= 2  # too full: start the level again with twice the room
    used = hkeys != 0
    keys, counts = hkeys[used], hcounts[used]
    del hkeys, hcounts
    order = np.argsort(keys, kind="stable")
    return keys[order], counts[order]


def _exact_total(fwd: _Side, bwd: _Side, orbits) -> int:
    """The meeting sum in Python integers (when it passes 2**64)."""
    _, fi, bi = np.intersect1d(fwd.keys, bwd.keys, assume_unique=True, return_indices=True)
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
        raise InputError("level sizes need numba and a board of at most 64 holes")
    start, goal = board.to_compact(inst.pegs), board.to_compact(inst.goal)
    perms = [p for p in goal_symmetries(board, goal) if _permute(start, p) == start]
    tables = lv.byte_tables(perms, board.n)
    need = np.array([(1 << f) | (1 << o) for f, o, t in board.jumps], dtype=np.uint64)
    to = np.array([1 << t for f, o, t in board.jumps], dtype=np.uint64)
    none_w, none_d = np.zeros((0, board.n), np.int64), np.zeros((0, len(need)), np.int64)
    side = _Side("forward", np.array([lv.canon(np.uint64(start), tables)], np.uint64),
                 np.ones(1, np.uint64), start.bit_count(), False, none_w, none_d,
                 np.zeros(0, np.int64), 0)
    out = []
    while len(side.keys):
        full = int(lv.orbit_sizes(side.keys, tables).sum())
        out.append((side.pegs, len(side.keys), full))
        keys, _ = _grow(side, need, to, need | to, tables, len(side.keys) * 8)
        side.keys, side.counts = keys, np.ones(len(keys), np.uint64)  # counts unused here
        side.pegs -= 1
    return out
