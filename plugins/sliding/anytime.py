"""The bounded solver's search over compact pattern databases: anytime weighted IDA* on two
lanes (one per core, at most two) that share the best answer.

* **Schedule** (lane 0): weighted IDA* rounds, ``f = g + w * h`` with w falling from 1.4 towards
  1 (:data:`LIGHTER`), each looking only for an answer shorter than the best one when it starts
  (every node whose admissible ``g + h`` reaches that length is cut). A weight whose answers
  would run longer than the best one is skipped (:func:`_worth_trying`).
* **Continuation** (lane 1): one weighted IDA* at w = 1.5 that does not stop at its first
  answer: it goes on, cut at that answer's length and at every shorter one either lane finds,
  so each further answer is shorter. Rounds that restart at a lighter weight and one search
  that keeps going find different answers; on Korf and Felner's 24-puzzles the two together
  beat either alone (docs/sliding-pdb.md).
* Every answer of either lane is shortened by re-solving windows of it exactly
  (:mod:`.shorten`), with the tables relabelled to each window's end (:mod:`.window_pdb`).
* **Polishing** (lane 1, the :data:`POLISH_SHARE` of the time before the exact search, once
  there is an answer): windows of the best answer at random places re-solved exactly, ties
  taken (:func:`.shorten.polish`).
* **Exact IDA*** (lane 1, the last :data:`EXACT_SHARE` of the time): cut at the best length
  like the others; each finished iteration proves a lower bound, and an answer it finds is
  proven shortest.

With one core the lanes run one after the other: the schedule (from w = 1.5), then polishing
(the last :data:`POLISH_SHARE` of the first :data:`WEIGHTED_SHARE` of the time), then the exact
search.

Before any answer, a weight that gives none within a slice of the time (:data:`FIRST_SLICE`) is
followed by heavier ones (:data:`FIRST_WEIGHTS`); weighted IDA* times vary a lot between
weights. A search that runs out of nodes to try (every node cut) proves that nothing is shorter
than its cut, so the best answer is shortest and the solve ends.

The kernels run without the GIL (:mod:`.ida_compact`), so the lanes use both cores. Only the
calling thread reports progress and watches the deadline and cancellation; the lanes look at a
shared stop flag between chunks of :attr:`.ida.Search.chunk` nodes (hundredths of a second).
"""

from __future__ import annotations

import contextvars
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import numpy as np

from engine import N_

from . import kernel_checks as kc
from .i18n import _
from .ida import FOUND, GROW, INF, R_BOUND, R_DEPTH, R_NEXT
from .ida_compact import CompactSearch
from .pdb_compact import CompactTables
from .shorten import polish, shorten
from .window_pdb import pdb_window, tied_window

#: Weights (numerator, denominator) tried first, each for FIRST_SLICE of the budget, until one
#: answers; heavier ones answer sooner and worse.
FIRST_WEIGHTS = ((3, 2), (2, 1), (3, 1))
FIRST_SLICE = 0.2
#: The schedule's weights once there is an answer, heaviest first.
LIGHTER = ((7, 5), (4, 3), (9, 7), (5, 4), (6, 5), (9, 8))
#: The continuation's weight.
CONTINUATION_WEIGHT = (3, 2)
#: A round whose answers run about ``w * h0 - 3`` (measured) cannot beat the best answer when
#: ``w * h0`` is this much longer than it: the schedule skips that weight.
SKIP_MARGIN = 5
#: Each weighted IDA* iteration raises its threshold by at least this many moves' worth
#: (:class:`.ida_compact.CompactSearch` ``step``): a weighted threshold otherwise rises by a
#: fraction of a move per iteration. On 20 of Korf and Felner's 24-puzzles, w = 4/3 answered 17
#: within 3 s instead of 11, the answers as long.
STEP_MOVES = 1
#: One lane: share of the budget for the weighted rounds before the exact search takes over.
WEIGHTED_SHARE = 0.7
#: Two lanes: share of the budget, at the end, in which the second lane runs the exact search.
EXACT_SHARE = 0.3
#: Windows re-solved exactly after each of the schedule's answers, with the pattern databases
#: relabelled to each window's end (:mod:`.shorten`, :mod:`.window_pdb`), and the nodes each
#: window may take (about 0.3 s).
SHORTEN_WINDOWS = (30, 50, 70)
WINDOW_NODES = 5_000_000
#: The same for the continuation's answers, cheaper: they come often, and shortening every one
#: with the windows above held the continuation back (on Korf and Felner's #4 it found two
#: answers instead of four).
CONTINUATION_WINDOWS = (30, 50)
CONTINUATION_NODES = 1_000_000
#: Share of the time, before the exact search, in which the second lane polishes the best
#: answer instead of going on with the continuation (:func:`.shorten.polish`: windows at random
#: places, ties taken to move along plateaus). Taken from the schedule instead (its last 40%),
#: the lighter rounds it cut off were missed as much as polishing gained (50 instances: 4.08 ->
#: 4.12 moves over the optimum).
POLISH_SHARE = 0.3
#: Seconds between two looks of the calling thread at the lanes (progress, deadline).
WATCH_EVERY = 0.05
#: The phase of the exact search that raises the proven bound, in progress reports.
RAISING = N_("IDA* (raising the lower bound)")


def search_lanes() -> int:
    """Lanes a solve uses: one per core this process may run on, at most two."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(2, cores or 1))


@dataclass
class Result:
    """What :func:`search` found: the best answer (tiles moved, standard goal) or None, a proven
    lower bound on the shortest answer's length (at most the answer's), and what happened."""

    best: list[int] | None
    lower_bound: int
    nodes: int
    rounds: list[str] = field(default_factory=list)
    proven: bool = False


class _Shared:
    """The state the lanes share: the best answer, the proven bound, the stop flag."""

    def __init__(self, h0: int):
        self.lock = threading.Lock()
        self.best: list[int] | None = None
        self.lb = h0
        self.proven = False
        self.stop = threading.Event()
        self.rounds: list[str] = []
        self.nodes = [0, 0]
        self.phases = ["", ""]
        self.first_weight: tuple[int, int] | None = None
        self.exact: CompactSearch | None = None
        self.error: BaseException | None = None

    def ub(self) -> int:
        """The length every further answer must be below."""
        best = self.best
        return len(best) if best is not None else INF

    def length(self) -> int | None:
        best = self.best
        return len(best) if best is not None else None

    def note(self, text: str) -> None:
        with self.lock:
            self.rounds.append(text)

    def offer(self, path: list[int], weight: tuple[int, int], note: str) -> bool:
        """Keep ``path`` (found at ``weight``) if it is shorter than the best; True if kept."""
        with self.lock:
            if self.best is not None and len(path) >= len(self.best):
                return False
            if self.best is None:
                self.first_weight = weight
            self.best = list(path)
            self.rounds.append(note)
            if self.lb >= len(path):
                self.proven = True
                self.stop.set()
            return True

    def prove(self, bound: int) -> None:
        """Nothing shorter than ``bound`` exists."""
        with self.lock:
            self.lb = max(self.lb, bound)
            if self.best is not None and self.lb >= len(self.best):
                self.proven = True
                self.stop.set()


class Continuing(CompactSearch):
    """A compact-table IDA* that goes on after an answer, looking only for shorter ones."""

    def answers(self, poll: Callable[[], bool]) -> Iterator[list[int]]:
        """Yield each answer found (tiles moved), each shorter than the one before: after an
        answer the search resumes with ``ub`` cut at its length. ``ub`` may also be lowered
        between chunks (by ``poll``: another lane's answer); it never rises. Ends when
        ``poll()`` is true or the search runs out of nodes (``exhausted``: nothing shorter than
        ``ub`` exists)."""
        kc.board(type(self).__name__, self.tiles, self.nbr)
        h0 = self.root_h()
        if h0 == 0:
            yield []
            return
        if h0 >= self.ub:
            self.exhausted = True
            return
        self._check()
        self._grow(h0 + 8)
        self.bpos[0] = int(np.flatnonzero(self.tiles == 0)[0])
        self.dirs[0] = 0
        self._set_root(h0)
        self.regs[R_DEPTH] = 0
        self.regs[R_BOUND] = self.wnum * h0
        self.regs[R_NEXT] = INF
        while True:
            self._ensure_stack()
            status = self._call(self.chunk)
            if status == FOUND:
                path = self._path()
                # Resuming at the answer's node: its children all reach the new cut, so the
                # search backs up and goes on for shorter answers.
                self.ub = len(path)
                yield path
            elif status == GROW:
                if int(self.regs[R_BOUND]) >= INF:
                    self.exhausted = True
                    return
                self._grow(int(self.regs[R_BOUND]) // self.wden + 8)
                self.dirs[0] = 0
            if poll():
                return


def search(tiles: Sequence[int], tables: CompactTables, start: float, end: float,
           stop: Callable[[], bool], progress: Callable[[dict], None], exact: bool = True,
           lanes: int | None = None) -> Result:
    """Search from ``tiles`` (standard goal) until ``end`` (:func:`time.monotonic`), ``stop()``
    (cancellation), a proof that the best answer is shortest, or the lanes' work running out.

    ``progress(stats)`` is called from the calling thread every :data:`WATCH_EVERY` seconds;
    ``exact``: run the exact search for the bound (tests turn it off); ``lanes``: default
    :func:`search_lanes`.
    """
    lanes = search_lanes() if lanes is None else max(1, min(2, lanes))
    h0 = CompactSearch(tiles, tables).h0
    shared = _Shared(h0)
    span = end - start
    if lanes == 1:
        weighted_until = start + WEIGHTED_SHARE * span if exact else end

        polish_from = weighted_until - POLISH_SHARE * (weighted_until - start)

        def one_lane() -> None:
            _schedule(tiles, tables, shared, h0, start, span, weighted_until, 0, FIRST_WEIGHTS,
                      polish_from)
            _polish(tiles, tables, shared, weighted_until, 0)
            if exact:
                _exact(tiles, tables, shared, end, 0)
        plans = [one_lane]
    else:
        exact_from = end - EXACT_SHARE * span if exact else end

        # Polishing takes its time from the continuation: cut at 60% of the time, the
        # schedule's lighter rounds missed answers they found later (Korf-Felner #1, #3, #24).
        polish_from = exact_from - POLISH_SHARE * span

        def second_lane() -> None:
            _continuation(tiles, tables, shared, exact_from, 1, polish_from)
            _polish(tiles, tables, shared, exact_from, 1)
            if exact:
                _exact(tiles, tables, shared, end, 1)
        # The continuation covers w = 1.5: until an answer exists the schedule tries the
        # next lighter weight, then the heavier ones.
        first = (LIGHTER[0],) + tuple(w for w in FIRST_WEIGHTS if w != CONTINUATION_WEIGHT)
        plans = [lambda: _schedule(tiles, tables, shared, h0, start, span, end, 0, first),
                 second_lane]
    # Each lane runs in a copy of the caller's context: the reader's language (messages are
    # written in the lanes) and the table cache's settings live in context variables.
    threads = [threading.Thread(target=contextvars.copy_context().run, args=(_guard, plan, shared),
                                name=f"sliding-lane-{i}", daemon=True)
               for i, plan in enumerate(plans)]
    for t in threads:
        t.start()
    try:
        while True:
            alive = [t for t in threads if t.is_alive()]
            if not alive:
                break
            if stop() or time.monotonic() >= end:
                shared.stop.set()
            progress({"phase": next((p for p in shared.phases if p), ""),
                      "nodes": sum(shared.nodes), "best": shared.length(),
                      "lower_bound": _bound(shared)})
            alive[0].join(WATCH_EVERY)
    finally:
        shared.stop.set()
        for t in threads:
            t.join()
    if shared.error is not None:
        raise shared.error
    lb = _bound(shared)
    best = shared.best
    return Result(best, min(lb, len(best)) if best is not None else lb, sum(shared.nodes),
                  shared.rounds, best is not None and lb >= len(best))


def _guard(plan: Callable[[], None], shared: _Shared) -> None:
    """Run one lane's plan; an exception stops the other lane and is raised by :func:`search`."""
    try:
        plan()
    except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
        shared.error = exc
        shared.stop.set()


def _bound(shared: _Shared) -> int:
    exact = shared.exact
    return max(shared.lb, exact.proven_lower_bound() if exact is not None else 0)


def _weight_text(weight: tuple[int, int]) -> str:
    return f"{weight[0] / weight[1]:g}"


def _lighter(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether weight ``a`` is lighter than ``b``."""
    return a[0] * b[1] < b[0] * a[1]


def _worth_trying(weight: tuple[int, int], h0: int, best: int) -> bool:
    """Whether a round at ``weight`` may beat an answer of length ``best``: its answers run about
    ``w * h0`` less a few moves (on the 24-puzzle)."""
    return weight[0] * h0 < (best + SKIP_MARGIN) * weight[1]


def _schedule(tiles, tables, shared: _Shared, h0: int, start: float, span: float,
              until: float, lane: int, first: Sequence[tuple[int, int]],
              polish_from: float | None = None) -> None:
    """The schedule's rounds (see the module doc) until ``until``, or ``polish_from`` once
    there is an answer. While no lane has an answer, the weights ``first`` in turn, each given
    up at the end of its slice of the time; once there is one, each round is at the heaviest
    weight lighter than every one tried so far and than the weight of the first answer."""
    if polish_from is None:
        polish_from = until

    def time_to_polish() -> bool:
        return shared.best is not None and time.monotonic() >= polish_from

    slices = [(w, start + FIRST_SLICE * (i + 1) * span) for i, w in enumerate(first)]
    all_weights = sorted(set(FIRST_WEIGHTS) | set(LIGHTER) | set(first),
                         key=lambda w: -w[0] / w[1])
    lightest: tuple[int, int] | None = None   # of the rounds run while an answer existed
    while not shared.stop.is_set() and time.monotonic() < until and not time_to_polish():
        slice_end: float | None = None
        hopeful = False
        if shared.best is None:
            if not slices:
                return            # no weight answered in its slice: the caller falls back
            weight, slice_end = slices.pop(0)
        else:
            cap = shared.first_weight or CONTINUATION_WEIGHT
            if lightest is not None and _lighter(lightest, cap):
                cap = lightest
            candidates = [w for w in all_weights if _lighter(w, cap)]
            if not candidates:
                return
            hopeful_ones = [w for w in candidates if _worth_trying(w, h0, shared.ub())]
            # None looks able to beat the best answer: the lightest may still.
            weight = hopeful_ones[0] if hopeful_ones else candidates[-1]
            hopeful = bool(hopeful_ones)
        ub = shared.ub()
        s = CompactSearch(tiles, tables, weight=weight, ub=ub, step=STEP_MOVES * weight[1])
        shared.phases[lane] = _("weighted IDA* w={weight}").format(weight=_weight_text(weight))
        done = shared.nodes[lane]

        def poll(st: dict, slice_end: float | None = slice_end, done: int = done,
                 weight: tuple[int, int] = weight, hopeful: bool = hopeful) -> bool:
            # A slice ends a round only while nobody has an answer; a round whose answers
            # can no longer beat the other lane's newer answer ends too.
            if shared.best is None:
                over = slice_end is not None and time.monotonic() >= slice_end
            else:
                over = hopeful and not _worth_trying(weight, h0, shared.ub())
            return (_lane_poll(shared, lane, done + st["nodes"], until) or over
                    or time_to_polish())

        path = s.run(poll)
        shared.nodes[lane] = done + s.stats()["nodes"]
        if shared.best is not None and (lightest is None or _lighter(weight, lightest)):
            lightest = weight
        if path is not None:
            better, work = _shortened(tiles, tables, path, shared, until)
            shared.nodes[lane] += work
            text = _weight_text(weight)
            shared.offer(better, weight, _("w={weight}: {length}, shortened to {shorter}").format(
                weight=text, length=len(path), shorter=len(better))
                if len(better) < len(path) else
                _("w={weight}: {length}").format(weight=text, length=len(path)))
        elif s.exhausted and ub < INF:
            # Nothing shorter than the best answer when the round began.
            shared.note(_("w={weight}: none shorter").format(weight=_weight_text(weight)))
            shared.prove(ub)
            return
    shared.phases[lane] = ""


def _continuation(tiles, tables, shared: _Shared, until: float, lane: int,
                  polish_from: float | None = None) -> None:
    """The continuation (see the module doc) until ``until``, or ``polish_from`` once there is
    an answer."""
    weight = CONTINUATION_WEIGHT
    s = Continuing(tiles, tables, weight=weight, ub=shared.ub(), step=STEP_MOVES * weight[1])
    shared.phases[lane] = _("weighted IDA* w={weight}").format(weight=_weight_text(weight))
    done = shared.nodes[lane]

    def poll() -> bool:
        s.ub = min(s.ub, shared.ub())
        late = (polish_from is not None and shared.best is not None
                and time.monotonic() >= polish_from)
        return _lane_poll(shared, lane, done + s.stats()["nodes"], until) or late

    for path in s.answers(poll):
        better, work = _shortened(tiles, tables, path, shared, until, CONTINUATION_WINDOWS,
                                  CONTINUATION_NODES)
        done += work
        shared.nodes[lane] = done + s.stats()["nodes"]
        text = _weight_text(weight)
        shared.offer(better, weight, _("w={weight}: {length}, shortened to {shorter}").format(
            weight=text, length=len(path), shorter=len(better))
            if len(better) < len(path) else
            _("w={weight}: {length}").format(weight=text, length=len(path)))
    shared.nodes[lane] = done + s.stats()["nodes"]
    if s.exhausted and s.ub < INF:
        shared.prove(s.ub)
    shared.phases[lane] = ""


def _polish(tiles: Sequence[int], tables: CompactTables, shared: _Shared, until: float,
            lane: int) -> None:
    """Polish the best answer until ``until`` (:func:`.shorten.polish`), offering each shorter
    one and going on from the other lane's when that one is shorter. Also after a schedule that
    ran out of weights early, unless :data:`POLISH_SHARE` is 0 (no polishing)."""
    if (not POLISH_SHARE or shared.best is None or shared.stop.is_set()
            or time.monotonic() >= until):
        return
    shared.phases[lane] = _("re-solving windows of the best answer")
    done = shared.nodes[lane]

    def exchange(moves: list[int], nodes: int) -> list[int]:
        shared.nodes[lane] = done + nodes
        if len(moves) < shared.ub():
            shared.offer(moves, (1, 1), _("windows: {length}").format(length=len(moves)))
        best = shared.best
        return list(best) if best is not None and len(best) < len(moves) else moves

    nodes = polish(tiles, shared.best, tied_window(tables),
                   lambda: shared.stop.is_set() or time.monotonic() >= until, exchange)[1]
    shared.nodes[lane] = done + nodes
    shared.phases[lane] = ""


def _shortened(tiles: Sequence[int], tables: CompactTables, path: list[int], shared: _Shared,
               until: float, windows: Sequence[int] | None = None,
               node_cap: int | None = None) -> tuple[list[int], int]:
    """``path`` shortened by re-solving windows of it (:data:`SHORTEN_WINDOWS`), and the nodes
    that took (even a path longer than the best answer: it may end up shorter)."""
    return shorten(tiles, path, tables.rows, tables.cols,
                   lambda: shared.stop.is_set() or time.monotonic() >= until,
                   SHORTEN_WINDOWS if windows is None else windows,
                   WINDOW_NODES if node_cap is None else node_cap, pdb_window(tables))


def _exact(tiles, tables, shared: _Shared, until: float, lane: int) -> None:
    """Exact IDA* cut at the best length, until ``until``: raises the proven bound, and an
    answer it finds is shortest."""
    if shared.stop.is_set() or time.monotonic() >= until or shared.best is None:
        return
    s = CompactSearch(tiles, tables, ub=shared.ub())
    shared.exact = s
    shared.phases[lane] = _(RAISING)
    done = shared.nodes[lane]

    def poll(st: dict) -> bool:
        s.ub = min(s.ub, shared.ub())
        return _lane_poll(shared, lane, done + st["nodes"], until)

    path = s.run(poll)
    shared.nodes[lane] = done + s.stats()["nodes"]
    if path is not None:
        # Every iteration below its length finished empty: a shortest answer.
        shared.prove(len(path))
        shared.offer(path, (1, 1), _("exact: {length}").format(length=len(path)))
    else:
        bound = min(s.proven_lower_bound(), shared.ub())
        shared.prove(bound)
        shared.note(_("exact: lower bound {bound}").format(bound=bound))
    shared.phases[lane] = ""


def _lane_poll(shared: _Shared, lane: int, nodes: int, until: float) -> bool:
    shared.nodes[lane] = nodes
    return shared.stop.is_set() or time.monotonic() >= until
