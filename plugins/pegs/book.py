"""The opening book: every position within a few jumps of a start, decided once and kept.

The live verdict (:mod:`.verdict`) has a fraction of a second per position. Early in a game on
the 37-hole board, a position that is already lost can need an exhaustive search of hundreds of
thousands of positions (more than a second) before the table of positions near the goal settles
it. Those positions are few and the same in every game from that start: at most a few tens of
thousands within seven jumps. So they are decided once, with no time limit, by the same exact
search (:meth:`.verdict.Judge.search`), and kept on disk beside the judge's table. A verdict on
a position of the book is then one look-up.

A book holds canonical positions (:func:`.levels.canon`), sorted, in two arrays: those that can
reach the goal and those that cannot, with the starts it was grown from. It is checked on load
(a digest of its contents): a damaged one would give wrong verdicts, so it is ignored.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine import table_cache

from . import levels as lv

#: Most positions a book takes from one start: whole levels (jumps from the start) while the
#: total stays within it. About four minutes of work on two cores for the 37-hole board
#: (one to seven jumps: 28,694 positions).
BOOK_POSITIONS = 30_000

#: Version of the on-disk format (change it when the format changes).
BOOK_FORMAT = 1


@dataclass(frozen=True)
class BookProgress:
    """Reported while a book is built: ``done`` of ``total`` positions decided so far."""

    done: int
    total: int
    seconds: float


@dataclass
class OpeningBook:
    """Positions decided exactly, as sorted canonical keys, and the starts they came from."""

    alive: np.ndarray
    dead: np.ndarray
    starts: np.ndarray  # the starts (canonical) whose openings are in the book

    @classmethod
    def empty(cls) -> OpeningBook:
        nothing = np.zeros(0, np.uint64)
        return cls(nothing, nothing.copy(), nothing.copy())

    def __len__(self) -> int:
        return len(self.alive) + len(self.dead)

    def verdict(self, key: int) -> bool | None:
        """True (can reach the goal), False (cannot) or None (not in the book), for a
        canonical position."""
        for keys, answer in ((self.alive, True), (self.dead, False)):
            i = int(np.searchsorted(keys, np.uint64(key)))
            if i < len(keys) and int(keys[i]) == key:
                return answer
        return None

    def covers(self, start_key: int) -> bool:
        return bool(np.any(self.starts == np.uint64(start_key)))

    def merged(self, alive: np.ndarray, dead: np.ndarray, start_key: int) -> OpeningBook:
        return OpeningBook(np.union1d(self.alive, alive), np.union1d(self.dead, dead),
                           np.union1d(self.starts, np.array([start_key], np.uint64)))

    def digest(self) -> str:
        h = hashlib.sha1()
        for keys in (self.alive, self.dead, self.starts):
            h.update(np.ascontiguousarray(keys, dtype=np.uint64).tobytes())
            h.update(b"|")
        return h.hexdigest()

    def save(self, path: Path) -> None:
        """Store through the engine's table cache (atomically; a read-only cache only costs
        building the book again)."""
        arrays = {"alive": self.alive, "dead": self.dead, "starts": self.starts,
                  "digest": np.array(self.digest())}
        table_cache().write(path, lambda out: np.savez(out, **arrays))

    @classmethod
    def load(cls, path: Path) -> OpeningBook:
        """The book on disk, or an empty one when it is missing or fails its check."""
        f = table_cache().read(path)  # None: never built, or evicted from the cache
        if f is None:
            return cls.empty()
        try:
            with f, np.load(f, allow_pickle=False) as data:
                book = cls(data["alive"], data["dead"], data["starts"])
                digest = str(data["digest"])
        except Exception:  # noqa: BLE001 - a truncated zip, a file of another kind, ...
            return cls.empty()
        arrays = (book.alive, book.dead, book.starts)
        if digest != book.digest() or any(a.dtype != np.uint64 or a.ndim != 1 for a in arrays) \
                or any(np.any(a[1:] <= a[:-1]) for a in arrays) \
                or len(np.intersect1d(book.alive, book.dead)):
            return cls.empty()
        return book


def opening_levels(start: int, need: np.ndarray, to: np.ndarray, flip: np.ndarray,
                   tables: np.ndarray, stop_pegs: int, budget: int = BOOK_POSITIONS
                   ) -> list[np.ndarray]:
    """The canonical positions 1, 2, ... jumps from ``start``, whole levels while the total stays
    within ``budget``, and only levels with more than ``stop_pegs`` pegs (the table below
    decides the rest). Grown like the counter's forward levels (:func:`.levels.grow`), with no
    pruning: every position reachable is one a player may reach."""
    no_pagodas = np.zeros((0, 1), np.int64), np.zeros((0, len(need)), np.int64)
    side = lv.Side("forward", np.array([lv.canon(np.uint64(start), tables)], np.uint64),
                 np.ones(1, np.uint64), start.bit_count(), False, *no_pagodas,
                 np.zeros(0, np.int64), 0)
    out: list[np.ndarray] = []
    total = 0
    while side.pegs - 1 > stop_pegs:
        keys, _ = lv.grow(side, need, to, flip, tables, len(side.keys) * 8)
        if not len(keys) or total + len(keys) > budget:
            break
        out.append(keys)
        total += len(keys)
        side.keys, side.counts = keys, np.ones(len(keys), np.uint64)  # counts unused here
        side.pegs -= 1
    return out


def decide_openings(levels: list[np.ndarray], decide: Callable[[int], bool],
                    progress: Callable[[BookProgress], None] | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(alive, dead) among ``levels``, each position decided by ``decide`` (exactly, with no
    time limit). The deepest level goes first: what it proves dead, the shallower searches
    find in the dead-position table."""
    started = time.monotonic()
    total = sum(len(keys) for keys in levels)
    alive, dead = [], []
    done = 0
    step = max(1, math.ceil(total / 200))
    for keys in reversed(levels):
        for key in keys:
            (alive if decide(int(key)) else dead).append(key)
            done += 1
            if progress and (done % step == 0 or done == total):
                progress(BookProgress(done, total, time.monotonic() - started))
    return np.sort(np.array(alive, np.uint64)), np.sort(np.array(dead, np.uint64))
