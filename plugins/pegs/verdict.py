"""The live verdict: can the goal still be reached from the position on the board?

:func:`assess` answers within a time budget, cheapest proof first, and never says "can" or
"cannot" without a proof:

1. solved; a goal with more pegs than the board; no jump left;
2. the position-class test (:mod:`.classes`);
3. pagoda functions: the goal's fixed ones (:mod:`.pagoda`), the board's library and those
   found for earlier positions (:mod:`.lp`);
4. the *backward set*: every position with few pegs that can reach the goal (built once per
   board and goal by reverse jumps). A position with that few pegs is decided by one lookup;
5. above it, the pagodas against the *table's bound* (:meth:`Judge.bound`): the least value
   over the backward set's top level, through which every way to the goal passes; then the
   *opening book* (:mod:`.book`): the positions within a few jumps of a start, decided once;
6. a pagoda function found by linear programming for this position (:mod:`.lp`), checked
   exactly against every jump;
7. heuristic probes (beams), then the exact depth-first search of the ``search`` solver
   (:class:`.solver._CompiledSearch`, compiled with numba) from the position down to the
   backward set, stopped at the budget ("unknown"). Finding a path proves "can"; running out
   of positions proves "cannot". One peg above the table, a Bloom filter of every position
   with a jump into the table (:func:`.levels.parents_bloom`) drops most dead positions
   without trying their jumps. The search runs in two lanes, one per core, that share the
   dead-position cache (:meth:`Judge._exhaust`).

Steps 4 to 7 share one :class:`Judge` per board, goal (and, for "one peg anywhere", position
class): its table of positions proved dead is the *dead-position cache*, kept from one verdict
to the next, so the positions of a game in progress, which share most of their futures, are
judged faster and faster. A dead position stays dead, so the cache never makes a verdict wrong.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np

from engine import (
    Assessment,
    SolveContext,
    cache_dir,
    fresh_tables,
    keep_tables_after,
    plural,
    table_cache,
)

from . import fastdfs, lp
from . import levels as lv
from .board import PegInstance
from .book import BOOK_FORMAT, OpeningBook, decide_openings, opening_levels
from .classes import class_verdict, invariant_for
from .count import _grow, _Side
from .lp import LP_NAME, PagodaLP, pagoda_library, table_library
from .pagoda import Pagoda, is_pagoda
from .presets import is_preset_board
from .solver import _Capped, _exact_dfs, _Stop, backward_levels, compile_problem
from .tablefile import load_arrays, save_arrays

#: Positions (up to symmetry) in the table a judge builds by itself, on first use, in the
#: background: every position with at most ``top`` pegs that can reach the goal (about a
#: second of work; kept on disk).
LIVE_POSITIONS = 300_000
#: Positions in the large table that :func:`prepare_table` builds (``puzzle pegs table``);
#: used whenever it is on disk. The English board with the goal at d4: every position, 23.5
#: million up to symmetry, 190 MB, one to two minutes.
LARGE_POSITIONS = 24_000_000
#: Positions in the backward set of the Python fallback (boards over 64 holes).
BACKWARD_BUDGET = 40_000
#: Positions the compiled search visits between two looks at the clock.
CHUNK = 500
#: Widths of the heuristic probes tried before the exhaustive search.
BEAM_WIDTHS = (32, 256)
#: Seconds of exhaustive search between two probes.
SEARCH_SLICE = 0.012
#: A generous guess of a probe's time per unit of width on a 37-hole board (seconds).
BEAM_SECONDS_PER_WIDTH = 0.00003
#: Lanes of the exact search run at once (:meth:`Judge._exhaust`): one per core, at most two.
SEARCH_LANES = max(1, min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                          else os.cpu_count() or 1))
#: Seconds kept in hand at the end of the budget (one more chunk of the search may run).
DEADLINE_MARGIN = 0.004
#: Pagodas found by linear programming that a judge keeps (the most recent ones).
MAX_LEARNT = 16
#: The board's pagoda library: pseudo-random sets of holes tried, weightings kept.
LIBRARY_SAMPLES, LIBRARY_SIZE = 1000, 16
#: Sets of holes tried for the library aimed at the table's bound (large tables only).
TABLE_LIBRARY_SAMPLES, TABLE_LIBRARY_SIZE = 1000, 48
#: Judges kept in memory.
MAX_JUDGES = 4
#: Version of the on-disk backward sets (change it when their format changes).
FORMAT_VERSION = 2


class Judge:
    """Everything the verdicts for one board and goal share: the backward set, the search
    and its dead-position cache. Not thread-safe by itself: :attr:`lock` guards it.

    ``levels[k]``: the canonical positions with ``k`` pegs (up to ``top``) that can reach the
    goal, exactly: a position with at most ``top`` pegs is decided by one lookup.
    """

    def __init__(self, inst: PegInstance, positions: int | None = None, progress=None,
                 load_only: bool = False, library_progress=None):
        """``positions``: the table's budget (default :data:`LIVE_POSITIONS`); ``load_only``:
        raise FileNotFoundError rather than build a missing table."""
        self.positions = LIVE_POSITIONS if positions is None else positions
        self.problem = compile_problem(inst)
        p = self.problem
        self.lock = threading.Lock()
        self._helper: ThreadPoolExecutor | None = None  # runs the second lane of the search
        self.library: list[Pagoda] = []
        self.minima: dict[tuple[int, ...], int] = {}
        self.bloom: np.ndarray | None = None
        self.bloom_bits = 0
        # Passes everything until :meth:`_raise_above` makes the real one.
        self.above, self.above_bits = np.full(1, ~np.uint64(0), np.uint64), 6
        self.learnt: list[Pagoda] = []
        self.found: Pagoda | None = None  # the last pagoda found for a position, for the message
        self.lp = PagodaLP(p.board) if lp.AVAILABLE and p.goal else None
        self.book = OpeningBook.empty()  # positions near a start, decided once (:mod:`.book`)
        self.compiled = lv.AVAILABLE and p.board.n <= 64
        if self.compiled:
            self._init_compiled(inst, progress, load_only, library_progress)
        else:
            levels = backward_levels(p, BACKWARD_BUDGET, stop_at=p.board.n)
            self.levels = {k: frozenset(v) for k, v in levels.items()}
            self.dead: set[int] = set()
        self.top = max(self.levels)
        self.backward_size = sum(len(s) for s in self.levels.values())
        if self.compiled and self.top < p.board.n - 1:
            self._warm_up()

    @property
    def pagodas(self) -> tuple[Pagoda, ...]:
        """The goal's fixed pagodas, the board's library (:func:`.lp.pagoda_library`), then
        those found for positions judged so far."""
        return self.problem.pagodas + tuple(self.library) + tuple(self.learnt)

    def learn(self, pagoda: Pagoda) -> None:
        """Keep a pagoda found for one position (checked: it refutes the goal for every
        position whose value is too low, wherever it came from) for the later verdicts and for
        the search's pruning; the oldest one goes past :data:`MAX_LEARNT`. Call under
        :attr:`lock`."""
        if pagoda.weights in {pg.weights for pg in self.pagodas}:
            return
        self.learnt.append(pagoda)
        del self.learnt[:-MAX_LEARNT]
        if self.compiled:
            self._pagoda_arrays()

    def _raise_bounds(self) -> None:
        """The table's bounds of the goal's fixed pagodas and of the library (a second or two
        on the 37-hole board; see :meth:`bound`)."""
        byte_values = lv.byte_values(self.pag_weights, self.problem.board.n)
        minima = lv.level_minima(self.levels[max(self.levels)], self.tables, byte_values)
        self.minima = {pg.weights: int(m) for pg, m in zip(self.pagodas, minima, strict=True)}
        self._pagoda_arrays()

    def bound(self, pagoda: Pagoda) -> int:
        """The least value of ``pagoda`` a position with more than :attr:`top` pegs needs to
        reach the goal. Every way to the goal passes through a position of the table's top
        level, and no jump raises the value, so it is the least value over that level (over
        each position's symmetric images too), when known; never less than the goal's value
        (a pagoda found during play only gets the goal's value: the pass over the level takes
        longer than a verdict)."""
        goal_value = pagoda.value(self.problem.goal)
        return max(goal_value, self.minima.get(pagoda.weights, goal_value))

    def _pagoda_arrays(self) -> None:
        """Per-pagoda losses per jump, bounds and weights, for the compiled kernels."""
        p, board = self.problem, self.problem.board
        pags = self.pagodas
        self.loss = np.array([[pg.weights[f] + pg.weights[o] - pg.weights[t]
                               for f, o, t in (board.jumps[j] for *_, j in p.jumps)]
                              for pg in pags], dtype=np.int64).reshape(len(pags), len(p.jumps))
        self.loss_t = np.ascontiguousarray(self.loss.T)  # the search reads a row per jump
        # The kernels test these only on positions with more pegs than the table's top.
        self.need_vals = np.array([self.bound(pg) for pg in pags], dtype=np.int64)
        self.pag_weights = np.array([pg.weights for pg in pags], dtype=np.int64).reshape(
            len(pags), board.n)
        if self.compiled:
            # One lane per core for the exact search (:meth:`_exhaust`), each trying the jumps
            # in its own order: the first in the board's, the second in reverse.
            orders = [np.arange(len(self.need))]
            if SEARCH_LANES > 1:
                orders.append(orders[0][::-1])
            self.lane_arrays = [(self.need[o].copy(), self.to[o].copy(), self.flip[o].copy(),
                                 np.ascontiguousarray(self.loss_t[o])) for o in orders]

    def is_alive(self, pos: int) -> bool:
        """Exact, for a position with at most :attr:`top` pegs."""
        level = self.levels.get(pos.bit_count())
        if level is None:
            return False
        if self.compiled:
            c = np.uint64(lv.canon(np.uint64(pos), self.tables))
            i = int(np.searchsorted(level, c))
            return i < len(level) and level[i] == c
        return self.problem.canon.canon(pos) in level

    # -- the compiled judge ----------------------------------------------------------------

    def _init_compiled(self, inst: PegInstance, progress, load_only: bool,
                       library_progress=None) -> None:
        p = self.problem
        board = p.board
        perms = list(p.canon.perms) or [tuple(range(board.n))]
        self.tables = lv.byte_tables(perms, board.n)
        self.perms = np.array(perms, dtype=np.int64).reshape(len(perms), board.n)
        self.need = np.array([nd for nd, _, _, _ in p.jumps], dtype=np.uint64)
        self.to = np.array([to for _, to, _, _ in p.jumps], dtype=np.uint64)
        self.flip = self.need | self.to
        self._pagoda_arrays()
        self.dead_table = np.zeros(1 << fastdfs.TABLE_BITS, dtype=np.uint64)
        # The beam's ranking (as the search solver's probes): pegs on holes few jumps pass
        # over are hard to clear; a peg with no neighbour is stranded.
        over = [0] * board.n
        nbr = [0] * board.n
        for f, o, _ in board.jumps:
            over[o] += 1
            nbr[f] |= 1 << o
        self.hard = np.array([8 // (1 + c) for c in over], dtype=np.int64)
        self.nbr = np.array(nbr, dtype=np.uint64)
        self.levels = _load_or_build(p, self.tables, self.need, self.to, self.flip,
                                     self.positions, progress, load_only)
        # The first call of a compiled function loads numba's machinery (a few tenths of a
        # second): here, with the judge, rather than in the first verdict.
        lv.canon(np.uint64(1), self.tables)
        if max(self.levels) < board.n - 1:
            if self.lp is not None:
                # The search above the table prunes by these too (no programme per position).
                self.library = _load_or_build_library(p)
                if self.positions >= LARGE_POSITIONS:
                    # Aimed at the table's bound; worth its build time on a large table only.
                    # (Only `puzzle pegs table` builds it: a judge loading the table in the
                    # background goes without rather than keep verdicts waiting a minute.)
                    self.library += _load_or_build_library(p, self.levels[max(self.levels)],
                                                           self.positions, library_progress,
                                                           load_only)
                self._pagoda_arrays()
            self._raise_bounds()
            self._bloom()  # now rather than in the first verdict (0.1-0.3 s on a large table)
            self._raise_above(load_only)
            # Filled now, on a table that searches: np.zeros maps its pages on first touch, and
            # touching thousands of them one fault at a time made the first search 50-130 ms
            # slower.
            self.dead_table.fill(0)
            self.book = OpeningBook.load(self._book_path())

    def _warm_up(self) -> None:
        """Load the compiled search and probe now (several milliseconds from numba's cache),
        not in the first verdict that needs them: one step of each from the full board (which
        has no jump, so nothing else happens)."""
        full = (1 << self.problem.board.n) - 1
        lane = _Lane(full, full.bit_count() - self.top + 2, [pg.value(full) for pg in self.pagodas])
        self._chunk(lane, self.lane_arrays[0], 1)
        self._probe(full, 1)

    def _book_path(self) -> Path:
        # Shared by the judge's small and large tables: the book's verdicts are exact either way.
        path = _cache_path(self.problem, 0)
        return path.with_name(f"{path.stem}-book-v{BOOK_FORMAT}.npz")

    def book_verdict(self, pos: int) -> bool | None:
        """The opening book's verdict on ``pos`` (see :mod:`.book`), or None."""
        if not len(self.book):
            return None
        return self.book.verdict(int(lv.canon(np.uint64(pos), self.tables)))

    def open_book(self, start: int, progress=None) -> int:
        """Decide every position within a few jumps of ``start`` (:data:`.book.BOOK_POSITIONS`
        at most) with no time limit, add them to the opening book and keep it on disk; the
        positions added (0 when the book already has that start, or the table decides every
        position). ``progress(BookProgress)`` is called as they are decided; Ctrl+C stops the
        build (nothing is kept)."""
        if not self.compiled or self.top >= start.bit_count() - 1:
            return 0
        start_key = int(lv.canon(np.uint64(start), self.tables))
        if self.book.covers(start_key):
            return 0
        levels = opening_levels(start, self.need, self.to, self.flip, self.tables, self.top)

        def decide(pos: int) -> bool:
            with self.lock:
                if any(pg.value(pos) < self.bound(pg) for pg in self.pagodas):
                    return False
                # No deadline: a year is as good as none, and keeps the arithmetic finite.
                answer, _ = self.search(pos, time.monotonic() + 3e7)
                if answer not in ("can", "cannot", "pagoda"):  # kept for good: proofs only
                    raise RuntimeError(f"the opening book got {answer!r} for {pos:#x}")
                return answer == "can"

        alive, dead = decide_openings(levels, decide, progress)
        with self.lock:
            self.book = self.book.merged(alive, dead, start_key)
            self.book.save(self._book_path())
        return len(alive) + len(dead)

    def _raise_above(self, load_only: bool) -> None:
        """The filter of the level above the table (:func:`.levels.parents_bloom`), from disk
        or built (about 13 s on two cores for the 37-hole board's large table); ``load_only``:
        a missing one is not built (the search then goes without)."""
        top_keys = self.levels[max(self.levels)]
        # About 16 bits per position of the level above (some 3 times the top level's), at
        # most 128 MB: a wrong "maybe" about 3% of the time.
        bits = max(10, min(30, (48 * len(top_keys)).bit_length()))
        path = _cache_path(self.problem, self.positions)
        path = path.with_name(f"{path.stem}-above-{bits}.npz")
        params = f"{_table_params(self.problem, self.positions)}-above-{bits}"
        above = (load_arrays(path, params) or {}).get("above")
        # Its digest checked, then a spot check against the parents of a spread of top-level
        # positions: a filter missing a live position would turn into a wrong "cannot".
        sample = top_keys[::max(1, len(top_keys) // 4096)]
        if above is not None and above.shape == (1 << (bits - 6),) and \
                above.dtype == np.uint64 and \
                lv.add_parents(sample, self.need, self.to, self.flip, self.tables, above,
                               bits) == 0:
            self.above, self.above_bits = above, bits
            return
        if load_only:
            return
        self.above, self.above_bits = _parents_bloom(top_keys, self, bits), bits
        save_arrays(path, params, {"above": self.above})

    def _bloom(self) -> np.ndarray:
        """The top level's Bloom filter, made with the judge when the table does not decide
        every position (else on a first search, which such a table never needs)."""
        if self.bloom is None:
            keys = self.levels[max(self.levels)]  # the top level (also before ``top`` is set)
            # About 32 bits per position (at most 64 MB): a wrong "maybe" about 3% of the time.
            self.bloom_bits = max(10, min(29, (32 * len(keys)).bit_length()))
            self.bloom = lv.bloom_filter(keys, self.bloom_bits)
        return self.bloom

    def search(self, start: int, deadline: float) -> tuple[str, int]:
        """("can" | "cannot" | "unknown" | "pagoda", positions visited) for a position with
        more pegs than :attr:`top`; "pagoda": refuted by a pagoda function found by linear
        programming for it, :attr:`found` (and kept in :attr:`learnt`)."""
        if not self.compiled:
            if self._refute(start, deadline):
                return "pagoda", 0
            return self._search_python(start, deadline)
        values = [pg.value(start) for pg in self.pagodas]
        if any(v < need for v, need in zip(values, self.need_vals, strict=True)):
            return "cannot", 0
        lanes = [_Lane(start, start.bit_count() - self.top + 2, values)
                 for _ in self.lane_arrays]

        def exhaustive(until: float) -> str | None:
            """Run (or resume) the exact search until ``until``: "can", "cannot" or None."""
            code = self._exhaust(lanes, until)
            return None if code is None else "can" if code == 1 else "cannot"

        # Heuristic probes find a way down for most live positions in a few milliseconds, where
        # the exhaustive search can wander for seconds; between two probes the exhaustive
        # search gets a slice of the budget, which settles the small dead ends (the wider probe
        # would only waste its time on them).
        for i, width in enumerate(BEAM_WIDTHS):
            if i:
                answer = exhaustive(min(deadline, time.monotonic() + SEARCH_SLICE))
                if answer is not None:
                    return answer, sum(int(lane.state[1]) for lane in lanes)
            # A probe cannot be interrupted: start a wide one only with time to spare.
            if time.monotonic() + width * BEAM_SECONDS_PER_WIDTH >= deadline:
                break
            if self._probe(start, width):
                return "can", 0  # 0: the message credits the probe
        # Not settled yet: try a pagoda function made for this position (a few milliseconds;
        # the board's library already holds most of those that random play needs, so only the
        # positions still open pay for the programme).
        if self._refute(start, deadline):
            return "pagoda", 0  # the search stops here: the pagodas' arrays have grown
        answer = exhaustive(deadline)
        return (answer or "unknown"), sum(int(lane.state[1]) for lane in lanes)

    def _probe(self, start: int, width: int) -> bool:
        """A heuristic probe (:func:`.levels.beam`) of ``width``: True proves "can"."""
        return bool(lv.beam(np.uint64(start), self.top, self.levels[self.top], self.need,
                            self.to, self.flip, self.tables, self.pag_weights, self.loss_t,
                            self.need_vals, self.dead_table, self.hard, self.nbr, width,
                            self._bloom(), self.bloom_bits))

    def _exhaust(self, lanes: list[_Lane], until: float) -> int | None:
        """Run (or resume) the exact search on every lane until one settles it (1: a way
        down, 0: none) or ``until`` (None).

        The lanes share the dead-position table, so what one proves dead the other skips
        (the "lazy SMP" of game-tree search): trying the jumps in opposite orders, they meet
        in the middle of a dead position's tree, about twice as fast as one lane alone. Each
        entry of the table is one machine word, written whole, so a lane only ever reads a
        position the other proved dead (or nothing); a race loses an entry at worst."""
        stop = threading.Event()
        helpers = []
        try:
            if len(lanes) > 1:
                if self._helper is None:
                    self._helper = ThreadPoolExecutor(len(lanes) - 1,
                                                      thread_name_prefix="pegs-lane")
                helpers = [self._helper.submit(self._run_lane, lanes[i], self.lane_arrays[i],
                                               until, stop)
                           for i in range(1, len(lanes))]
            codes = [self._run_lane(lanes[0], self.lane_arrays[0], until, stop)]
        finally:
            # Also on Ctrl+C during a long build: the other lanes must not run on.
            stop.set()
            others = [future.result() for future in helpers]
        return next((code for code in codes + others if code is not None), None)

    def _run_lane(self, lane: _Lane, arrays: tuple[np.ndarray, ...], until: float,
                  stop: threading.Event) -> int | None:
        """One lane of :meth:`_exhaust`, a chunk of :data:`CHUNK` positions at a time."""
        while not stop.is_set() and time.monotonic() + DEADLINE_MARGIN < until:
            code = self._chunk(lane, arrays, CHUNK)
            if code != 2:
                stop.set()
                return code
        return None

    def _chunk(self, lane: _Lane, arrays: tuple[np.ndarray, ...], budget: int) -> int:
        """Resume ``lane`` for at most ``budget`` positions (:func:`.levels.search_down`):
        1 (a way down), 0 (none) or 2 (not done)."""
        need, to, flip, loss_t = arrays
        return int(lv.search_down(self.levels[self.top], self.top, need, to, flip, loss_t,
                                  self.need_vals, self.tables, self.perms, self.problem.board.n,
                                  self.dead_table, lane.pos, lane.next, lane.vals, lane.state,
                                  budget, self._bloom(), self.bloom_bits, self.above,
                                  self.above_bits))

    def _refute(self, start: int, deadline: float) -> bool:
        """A pagoda function found by linear programming for ``start`` (within half the time
        left), kept (:meth:`learn`)."""
        if self.lp is None:
            return False
        found = self.lp.refute(start, self.problem.goal, (deadline - time.monotonic()) / 2)
        if found is None:
            return False
        self.found = found
        self.learn(found)
        return True

    def _search_python(self, start: int, deadline: float) -> tuple[str, int]:
        counter = [0, 0, 0]
        ctx = SolveContext(deadline=deadline)
        levels = {k: set(v) for k, v in self.levels.items()}
        try:
            moves = _exact_dfs(replace(self.problem, start=start), levels, ctx, counter, self.dead)
        except (_Stop, _Capped):
            return "unknown", counter[0]
        return ("can" if moves is not None else "cannot"), counter[0]


class _Lane:
    """The resumable stack of one lane of the exact search (:meth:`Judge._exhaust`)."""

    def __init__(self, start: int, depth: int, values: list[int]):
        self.pos = np.zeros(depth, np.uint64)
        self.next = np.zeros(depth, np.int64)
        self.vals = np.zeros((depth, max(1, len(values))), np.int64)
        self.state = np.zeros(2, np.int64)  # [depth, positions expanded]
        self.pos[0] = start
        self.vals[0, :len(values)] = values


def _table_params(p, positions: int) -> str:
    """What a table is built for (board, goal, size, format): named in its file and digest."""
    b = p.board
    # For "one peg anywhere" the finishing holes depend on the position class of the start.
    cls = 0 if p.goal else invariant_for(b.geometry, b.rows, b.cols, b.holes).of(p.start)
    return f"pegs-v{FORMAT_VERSION}-{b.geometry}-{b.rows}x{b.cols}-{b.holes:x}-{p.goal:x}-{cls}-{positions}"


def _cache_path(p, positions: int) -> Path:
    digest = hashlib.sha1(_table_params(p, positions).encode()).hexdigest()[:16]
    return cache_dir() / f"pegs-live-v{FORMAT_VERSION}-{digest}.npz"


def _load_or_build(p, tables, need, to, flip, positions, progress=None,
                   load_only=False) -> dict[int, np.ndarray]:
    """The backward level sets, from the disk cache when present (rebuilt if unreadable)."""
    path, params = _cache_path(p, positions), _table_params(p, positions)
    # Only a file whose digest matches is trusted (.tablefile): any damage means a rebuild.
    data = load_arrays(path, params)
    if data is not None and data and all(name[:1] == "k" and name[1:].isdigit() for name in data):
        return {int(name[1:]): v for name, v in data.items()}
    if load_only:
        raise FileNotFoundError(path)
    levels = _build_levels(p, tables, need, to, flip, positions, progress)
    save_arrays(path, params, {f"k{k}": v for k, v in levels.items()})
    return levels


def _parents_bloom(top_keys: np.ndarray, judge: Judge, bits: int) -> np.ndarray:
    """:func:`.levels.parents_bloom` of ``top_keys``, its pieces on separate cores (the
    kernel releases the GIL), or-ed together."""
    pieces = max(1, min(4, os.cpu_count() or 1, len(top_keys) // 100_000))
    bounds = np.linspace(0, len(top_keys), pieces + 1).astype(np.int64)

    def piece(i: int) -> np.ndarray:
        return lv.parents_bloom(top_keys[bounds[i]:bounds[i + 1]], judge.need, judge.to,
                                judge.flip, judge.tables, bits)

    if pieces == 1:
        return piece(0)
    with ThreadPoolExecutor(pieces, thread_name_prefix="pegs-above") as pool:
        parts = list(pool.map(piece, range(pieces)))
    out = parts[0]
    for part in parts[1:]:
        out |= part
    return out


def _load_or_build_library(p, top_keys=None, positions: int = 0, progress=None,
                           load_only: bool = False) -> list[Pagoda]:
    """The board's pagoda library (:func:`.lp.pagoda_library`; a couple of seconds to build)
    or, given the table's top level, the one aimed at the table's bound
    (:func:`.lp.table_library`; about a minute on the 37-hole board), kept on disk.
    ``load_only``: a missing table library is not built (an empty one is returned)."""
    key = f"{_cache_path(p, positions).stem}-{LIBRARY_SAMPLES}-{LIBRARY_SIZE}"
    if top_keys is not None:
        key += f"-table-{TABLE_LIBRARY_SAMPLES}-{TABLE_LIBRARY_SIZE}"
    path = cache_dir() / f"pegs-pagodas-v{FORMAT_VERSION}-{hashlib.sha1(key.encode()).hexdigest()[:16]}.npz"
    rows = (load_arrays(path, key) or {}).get("weights")
    if rows is not None and rows.ndim == 2 and rows.shape[1] == p.board.n:
        # Checked again on load: a damaged file must not become a wrong proof.
        found = [tuple(int(w) for w in row) for row in rows]
        if all(is_pagoda(p.board, w) for w in found):
            return [Pagoda(LP_NAME, w) for w in found]
    if load_only and top_keys is not None:
        return []
    if top_keys is None:
        library = pagoda_library(p.board, p.goal, samples=LIBRARY_SAMPLES, size=LIBRARY_SIZE)
    else:
        library = table_library(p.board, top_keys, samples=TABLE_LIBRARY_SAMPLES,
                                size=TABLE_LIBRARY_SIZE, progress=progress)
    save_arrays(path, key, {"weights": np.array([pg.weights for pg in library],
                                                dtype=np.int64).reshape(len(library), p.board.n)})
    return library


def _build_levels(p, tables, need, to, flip, positions, progress=None) -> dict[int, np.ndarray]:
    """Every position that can reach the goal, by reverse jumps, level by level while the total
    stays within ``positions`` (no pruning: each one can reach the goal)."""
    board = p.board
    if p.goal:
        seeds = [p.goal]
    else:
        allowed = set(class_verdict(board, p.start, 0).holes_by_class)
        seeds = [1 << k for k in range(board.n) if board.names[k] in allowed]
    keys = np.unique(np.array([lv.canon(np.uint64(s), tables) for s in seeds], np.uint64))
    pegs = p.goal_pegs
    empty = np.zeros((0, board.n), np.int64), np.zeros((0, len(need)), np.int64)
    side = _Side("backward", keys, np.ones(len(keys), np.uint64), pegs, True, empty[0],
                 empty[1], np.zeros(0, np.int64), 0)
    levels = {pegs: keys}
    total = len(keys)
    while side.pegs + 1 < board.n and len(side.keys):
        guess = int(len(side.keys) * side.growth) + 16
        if total + guess > positions:
            break
        keys, _ = _grow(side, need, to, flip, tables, guess)
        side.growth = max(1.0, len(keys) / max(1, len(side.keys)))
        side.keys, side.counts = keys, np.ones(len(keys), np.uint64)  # counts unused here
        side.pegs += 1
        levels[side.pegs] = keys
        total += len(keys)
        if progress:
            progress(side.pegs, len(keys))
    return levels


_judges: OrderedDict[tuple, Judge] = OrderedDict()
_building: dict[tuple, threading.Thread] = {}
_judges_lock = threading.Lock()


def _key(state: PegInstance) -> tuple:
    key = (state.geometry, state.rows, state.cols, state.holes, state.goal)
    if state.goal == 0:
        # "One peg anywhere": the finishing holes depend on the position's class.
        inv = invariant_for(state.geometry, state.rows, state.cols, state.holes)
        key += (inv.of(state.board.to_compact(state.pegs)),)
    return key


def judge_for(state: PegInstance, *, wait: bool = True) -> Judge | None:
    """The shared :class:`Judge` of the state's board and goal, built on first use.

    With ``wait=False`` a missing judge is built in a background thread and None is returned
    until it is ready, so a person playing is never kept waiting by a table build; one such
    build runs at a time (see :func:`building`), which bounds the CPU a stream of new boards
    can take. A judge on the small table looks again (:meth:`engine.TableCache.appeared`)
    for a large table another process has built since, and moves to it.
    """
    key = _key(state)
    with _judges_lock:
        judge = _judges.get(key)
        if judge is not None:
            _judges.move_to_end(key)
            if (judge.compiled and judge.positions < LARGE_POSITIONS and key not in _building
                    and table_cache().appeared(_cache_path(judge.problem, LARGE_POSITIONS))):
                _start_build(key, state)  # this judge answers until the new one is ready
            return judge
        thread = _building.get(key)
        if thread is None:
            if not wait and _building:
                return None
            thread = _start_build(key, state)
    if not wait:
        return None
    thread.join()
    with _judges_lock:
        judge = _judges.get(key)
    return judge or Judge(state)  # a failed background build: raise here


def building(state: PegInstance) -> bool:
    """Whether the table of the state's board and goal is being built now."""
    with _judges_lock:
        return _key(state) in _building


def _start_build(key: tuple, state: PegInstance) -> threading.Thread:
    """Start building the judge of ``key`` in a thread (call under ``_judges_lock``). It runs
    in the caller's context (the table cache's admission rule, :func:`engine.keep_tables_after`)."""
    thread = threading.Thread(target=contextvars.copy_context().run,
                              args=(_build, key, state, is_preset_board(state)), daemon=True,
                              name="pegs-judge")
    _building[key] = thread
    thread.start()
    return thread


def _build(key: tuple, state: PegInstance, preset: bool) -> None:
    judge = None
    try:
        # A preset board's tables are always worth keeping on disk.
        with keep_tables_after(1) if preset else contextlib.nullcontext():
            try:
                judge = Judge(state, LARGE_POSITIONS, load_only=True)
            except FileNotFoundError:
                judge = Judge(state)
    except Exception:  # noqa: BLE001 - reported by the waiting caller, which builds again
        pass
    finally:
        with _judges_lock:
            _building.pop(key, None)
            if judge is not None:
                _judges[key] = judge
                _judges.move_to_end(key)
                while len(_judges) > MAX_JUDGES:
                    _judges.popitem(last=False)


def forget_judge(state: PegInstance) -> None:
    """Drop the shared judge of the state's board and goal (its table failed a check): the
    next :func:`judge_for` builds it again."""
    with _judges_lock:
        _judges.pop(_key(state), None)


def confirm_table(state: PegInstance, judge: Judge) -> Judge | None:
    """Check the table of ``judge`` once more, before a final "unsolvable" that rests on it is
    given (and stored for good). A table small enough to build in seconds is built again from
    scratch (nothing read from disk; :func:`engine.fresh_tables`) and compared; a large one is
    compared with its file, whose digest is verified again. The judge to trust: ``judge`` when
    it passes, the fresh one when its table was wrong (it replaces the shared judge and the
    file), None when the check could not be made (the large table's file is gone or differs)."""
    if not judge.compiled:
        return judge  # the Python fallback's table is built in memory, never read from a file
    if judge.positions < LARGE_POSITIONS:
        # Written at once (whatever the request's admission rule): it replaces a wrong file.
        with fresh_tables(), keep_tables_after(1):
            fresh = Judge(state, judge.positions)
        if fresh.levels.keys() == judge.levels.keys() and all(
                np.array_equal(fresh.levels[k], judge.levels[k]) for k in fresh.levels):
            return judge
        with _judges_lock:
            _judges[_key(state)] = fresh
        return fresh
    params = _table_params(judge.problem, judge.positions)
    on_disk = load_arrays(_cache_path(judge.problem, judge.positions), params)
    mine = {f"k{k}": v for k, v in judge.levels.items()}
    if on_disk is not None and on_disk.keys() == mine.keys() and all(
            np.array_equal(on_disk[k], mine[k]) for k in mine):
        return judge
    return None


def prepare_table(state: PegInstance, progress=None, library_progress=None,
                  book_progress=None) -> Judge:
    """Build (or load) the large table of the state's board and goal, keep it on disk and use
    it for every later verdict. ``progress(pegs, positions)`` is called per level, then
    ``library_progress(done, total)`` while the table library is found (when not on disk),
    then ``book_progress(BookProgress)`` while the openings of the state's start are decided
    (when the table does not decide them and the book lacks them: :meth:`Judge.open_book`)."""
    judge = Judge(state, LARGE_POSITIONS, progress, library_progress=library_progress)
    judge.open_book(state.board.to_compact(state.pegs), book_progress)
    with _judges_lock:
        _judges[_key(state)] = judge
    return judge


def _goal_words(state: PegInstance) -> str:
    if state.goal == 0:
        return "one peg left"
    names = state.board.compact_names(state.board.to_compact(state.goal))
    if len(names) == 1:
        return f"one peg left at {names[0]}"
    return "the goal pattern"


def assess(state: PegInstance, *, budget: float = 0.05, wait: bool = False) -> Assessment:
    """The live verdict on ``state`` (a position with its goal), within ``budget`` seconds.

    The first verdict on a board starts building its :class:`Judge` in the background and
    answers from the proofs that need no table (``wait=True``: build it first).
    """
    started = time.monotonic()
    if state.is_solved():
        return Assessment("solved", "Solved: the goal is reached.")
    board = state.board
    pos, goal = board.to_compact(state.pegs), board.to_compact(state.goal)
    pegs, goal_pegs = pos.bit_count(), goal.bit_count() or 1
    goal_words = _goal_words(state)
    if pegs <= goal_pegs:
        return Assessment(
            "cannot", f"No: the goal ({goal_words}) cannot be reached any more.",
            f"A jump only ever removes a peg; there {'is' if pegs == 1 else 'are'} "
            f"{plural(pegs, 'peg')} and the goal needs {goal_pegs}, in other holes.")
    if not any(pos >> f & 1 and pos >> o & 1 and not pos >> t & 1 for f, o, t in board.jumps):
        return Assessment("cannot", "No: no jump is possible.",
                          f"{plural(pegs, 'peg')} {'is' if pegs == 1 else 'are'} left and none can "
                          f"jump, so the game is over.")
    verdict = class_verdict(board, pos, goal)
    if not verdict.feasible:
        return Assessment("cannot", f"No: {goal_words} is in another position class.",
                          verdict.reason)
    judge = judge_for(state, wait=wait)
    pagodas = judge.pagodas if judge else compile_problem(state).pagodas
    for pg in pagodas:
        if pg.value(pos) < pg.value(goal):
            return _from_pagoda(pg, pos, goal, board)
    if judge is None and not building(state):
        return Assessment("unknown", "Not decided yet: another board's table is being built.",
                          "Tables are built one at a time; this board's starts when that one is "
                          "done. Ask again in a moment.")
    if judge is None:
        return Assessment("unknown", "Not decided yet: this board's table is being built.",
                          "The table of positions that can reach this goal is built once per "
                          "board and goal (up to a minute), then kept.")
    deadline = started + budget
    if not judge.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
        return Assessment("unknown", "Not decided within the time allowed.",
                          "Another verdict on this board was still being worked out.")
    try:
        if pegs <= judge.top:
            return _from_backward(judge.is_alive(pos), pegs, goal_words, judge)
        for pg in judge.pagodas:
            if pg.value(pos) < judge.bound(pg):
                return _from_pagoda(pg, pos, goal, board, judge)
        # After the pagodas: a weighting says why in one sentence, the book only that it knows.
        known = judge.book_verdict(pos)
        if known is not None:
            return _from_book(known, goal_words, judge)
        answer, nodes = judge.search(pos, deadline)
        if answer == "pagoda":
            assert judge.found is not None
            return _from_pagoda(judge.found, pos, goal, board)
    finally:
        judge.lock.release()
    if answer == "can":
        how = (f"a search from this position ({plural(nodes, 'position')} visited)" if nodes
               else "a heuristic probe from this position")
        return Assessment("can", f"Yes: {goal_words} can still be reached.",
                          f"{how[0].upper()}{how[1:]} found a sequence of jumps down to a "
                          f"position with {plural(judge.top, 'peg')} that can reach the goal.")
    if answer == "cannot":
        return Assessment(
            "cannot", f"No: no sequence of jumps from here reaches {goal_words}.",
            f"An exhaustive search from this position ({plural(nodes, 'position')} visited, besides "
            f"positions already proved dead) meets none of the {plural(judge.backward_size, 'position')} "
            f"with at most {plural(judge.top, 'peg')} that can reach the goal; positions are pruned only "
            f"by proofs (pagoda functions, symmetry, positions proved dead).")
    return Assessment("unknown", "Not decided within the time allowed.",
                      f"The search visited {plural(nodes, 'position')} within {budget:g} s without "
                      f"deciding; the solver can take longer.")


def _from_pagoda(pg: Pagoda, pos: int, goal: int, board, judge: Judge | None = None) -> Assessment:
    """"cannot" by a pagoda; with ``judge``, against the table's bound (:meth:`Judge.bound`)
    rather than the goal's value."""
    have = pg.value(pos)
    if judge is None:
        target = f"{pg.value(goal)} at the goal"
    else:
        target = (f"at least {judge.bound(pg)} for every position with {plural(judge.top, 'peg')} "
                  f"that can reach the goal (the table holds them all), and every way to the "
                  f"goal passes through one")
    if pg.name != LP_NAME:
        return Assessment(
            "cannot", f"No: too few pegs are left near the goal ({pg.name}).",
            f"Pagoda function ({pg.name}): every jump keeps or lowers the total weight of "
            f"the pegs; it is {have} now but {target}, so the goal is out of reach.")
    weights = ", ".join(f"{name} {w}" for name, w in zip(board.names, pg.weights, strict=True) if w)
    return Assessment(
        "cannot", "No: a weighting of the holes shows the goal is out of reach (pagoda function).",
        f"Pagoda function found by linear programming, weights {weights} (0 "
        f"elsewhere): for every jump, checked one by one, the hole landed in weighs at most the "
        f"two emptied, so no jump raises the total weight of the pegs; it is {have} now but "
        f"{target}, so the goal is out of reach.")


def _from_book(alive: bool, goal_words: str, judge: Judge) -> Assessment:
    starts = len(judge.book.starts)
    near = "the start" if starts == 1 else f"{starts} starts"
    how = (f"The opening book holds {plural(len(judge.book), 'position')} near {near} it was built "
           f"for, each decided once by an exhaustive search with no time limit, and this is one "
           f"of them: from it,")
    if alive:
        return Assessment("can", f"Yes: {goal_words} can still be reached.",
                          f"{how} a sequence of jumps reaches the goal.")
    return Assessment("cannot", f"No: no sequence of jumps from here reaches {goal_words}.",
                      f"{how} no sequence of jumps reaches the goal.")


def _from_backward(alive: bool, pegs: int, goal_words: str, judge: Judge) -> Assessment:
    size = len(judge.levels.get(pegs, ()))
    if alive:
        return Assessment("can", f"Yes: {goal_words} can still be reached.",
                          f"This position is one of the {plural(size, 'position')} with {plural(pegs, 'peg')} "
                          f"(up to symmetry) found by reverse jumps from the goal.")
    return Assessment("cannot", f"No: no sequence of jumps from here reaches {goal_words}.",
                      f"Reverse jumps from the goal reach every position with {plural(pegs, 'peg')} that "
                      f"can reach it: {size:,} of them (up to symmetry), and this is not one.")
