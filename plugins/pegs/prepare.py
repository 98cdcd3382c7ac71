"""Which peg tables pay for themselves, what they cost, and building them: ahead of time
(``puzzle prepare pegs``) or inside a fewest-moves solve whose time limit leaves room.

The table of positions that can reach the goal (:mod:`.tables`) comes in two sizes. The small
one (:data:`.tables.LIVE_POSITIONS`) is built on first use in a second or two. The large one
(:data:`.tables.LARGE_POSITIONS`) takes a minute or more, and turns the English fewest-moves
proof from a give-up after a minute into an answer in seconds. So:

* ``prepare`` always builds the small tables of the presets' boards and goals; with
  ``big_builds`` (``puzzle prepare``) also the large tables of :data:`LARGE_PRESETS`, with
  their pagoda libraries and opening books, as ``puzzle pegs table`` does;
* a fewest-moves solve that the small table cannot settle builds the large one itself when
  the time left is :data:`BUILD_MARGIN` times the estimate (:func:`large_plan`) and memory and
  disk suffice; otherwise it answers as before, with one sentence saying what would help
  (:func:`help_sentence`).

Every file is written whole or not at all (the table cache writes to a temporary name and
renames), and a build stopped by a cancel or the deadline writes nothing.
"""

from __future__ import annotations

import contextlib
import logging
import math
from dataclasses import dataclass

from engine import PrepareCost, SolveContext, build_room, format_number, keep_tables_after

from . import levels as lv
from . import tables
from .board import PegInstance
from .classes import class_verdict
from .i18n import _, ngettext
from .presets import PRESETS, is_preset_board
from .presets import label as board_label
from .search import compile_problem
from .wording import count_pegs, count_positions

log = logging.getLogger("puzzle_engine.pegs")

#: Seconds per position of a large table's build, measured on a busy 2-core machine: the
#: English table, 23.5 million positions, in 64 s (2.7 us each), rounded up.
SECONDS_PER_POSITION = 3.0e-6
#: Peak bytes of memory per position of a large table's build, above what the process held
#: before it: the levels kept (8), the file made in memory before it is written (8, twice: the
#: buffer and its copy) and the hash table of the level being grown. Measured with
#: ``/usr/bin/time -v puzzle pegs table english`` into an empty cache: a maximum resident set
#: of 773,552 KiB (792 MB), of which about 186 MB is the process before the build, for 23.5
#: million positions (26 per position), rounded up.
MEMORY_PER_POSITION = 28
#: The same with the pagoda library, the filter of the level above and the opening book that
#: ``puzzle prepare`` adds on the 37-hole board: ``puzzle pegs table european-c1`` peaked at
#: 1,197,804 KiB (1.23 GB) for 21.2 million positions (49 per position above the process).
EXTRAS_MEMORY_PER_POSITION = 52
#: Bytes per position a built table keeps in the process afterwards (the judge, with its
#: levels and look-up structures), under the next build: ``puzzle prepare pegs`` peaked at
#: 1,590,204 KiB (1.63 GB), 0.40 GB above the 37-hole build alone, which ran after the English
#: table's (23.5 million positions: 17 per position), rounded up.
KEPT_PER_POSITION = 18
#: Bytes of disk per position (the levels, 8 bytes each, in an uncompressed .npz).
DISK_PER_POSITION = 8
#: A build starts inside a solve only if the time left is this many times its estimate: the
#: rest is for the proof on the new table (11 s of the English 120 s budget).
BUILD_MARGIN = 1.4
#: Seconds (at most, and at most a tenth of the time left) of the search with the small table
#: before a build: a board the small table nearly covers is answered without one.
QUICK_TRY_SECONDS = 5.0
#: Extra seconds a large table that does not hold every position costs ahead of time: its
#: pagoda library (about a minute) and the filter of the level above (13 s), measured; and
#: the opening book (about four minutes on the 37-hole board).
LIBRARY_SECONDS, BOOK_SECONDS = 90.0, 240.0
#: The presets whose large tables (and opening books) ``puzzle prepare`` builds, the English
#: and European boards' headline problems, with the seconds their extras take: the English
#: table holds every position (23.5 million), so it needs no library and no book.
LARGE_PRESETS = {"english": 0.0, "european-c1": LIBRARY_SECONDS + BOOK_SECONDS}
#: Seconds to build a preset's small table (and its pagoda library), generously.
SMALL_SECONDS = 3.0


@dataclass(frozen=True)
class Plan:
    """What building the large table of one board and goal would take: ``positions`` (an
    estimate, at most the budget), ``seconds``, peak ``memory`` and ``disk`` bytes, and
    ``short``: why memory or disk do not allow it now (None when they do)."""

    positions: int
    seconds: float
    memory: int
    disk: int
    short: str | None

    def fits(self, seconds_left: float | None) -> bool:
        """Whether a solve with ``seconds_left`` (None: no limit) should build it."""
        return self.short is None and (seconds_left is None
                                       or seconds_left >= BUILD_MARGIN * self.seconds)

    @property
    def limit(self) -> int:
        """The least time limit, in whole seconds, with which a solve builds it."""
        return math.ceil(BUILD_MARGIN * self.seconds) + 5


def estimated_positions(sizes: dict[int, int], n: int, budget: int) -> int:
    """About how many positions a table of ``budget`` will hold, from the level sizes of a
    smaller one (``sizes``: pegs -> positions): the levels above grow by the last ratio seen,
    each at most C(n, pegs) (every position with that many pegs), until the budget or the board
    is full. Level sizes peak and shrink near the middle, so this overestimates: a table of
    every position on the English board (23.5 million) is estimated at the budget."""
    if not sizes:
        return budget
    top = max(sizes)
    total = sum(sizes.values())
    size = sizes[top]
    ratio = max(1.0, size / max(1, sizes.get(top - 1, size)))
    pegs = top
    while pegs + 1 < n and total < budget:
        pegs += 1
        size = min(size * ratio, math.comb(n, pegs))
        total += int(size)
    return min(budget, total)


def large_plan(judge) -> Plan:
    """What the large table of ``judge``'s board and goal would take (``judge``: the small one)."""
    sizes = {k: len(v) for k, v in judge.levels.items()}
    positions = estimated_positions(sizes, judge.problem.board.n, tables.LARGE_POSITIONS)
    memory, disk = MEMORY_PER_POSITION * positions, DISK_PER_POSITION * positions
    return Plan(positions, SECONDS_PER_POSITION * positions, memory, disk,
                build_room(memory, disk))


def preset_name(state: PegInstance) -> str | None:
    """The name of a preset played on this board towards this goal (its start may differ)."""
    from .parse import parse_instance

    for name, text in PRESETS.items():
        p = parse_instance(text)
        if (p.geometry, p.rows, p.cols, p.holes, p.goal) == \
                (state.geometry, state.rows, state.cols, state.holes, state.goal):
            return name
    return None


def _duration(seconds: float) -> str:
    if seconds < 90:
        return _("about {seconds} s").format(seconds=max(5, 5 * round(seconds / 5)))
    minutes = round(seconds / 60)
    return ngettext("about {minutes} minute", "about {minutes} minutes", minutes).format(minutes=minutes)


def help_sentence(state: PegInstance, plan: Plan) -> str:
    """What would make this fewest-moves answer fast, in one plain sentence."""
    name = preset_name(state)
    if name in LARGE_PRESETS:
        command = "`puzzle prepare pegs`"
    elif name is not None:
        command = f"`puzzle pegs table {name}`"
    else:
        command = _("`puzzle pegs table` with this instance")
    if plan.short is not None:
        return _("the proof needs the large table of positions that can reach the goal "
                 "({duration} to build once), but {short}").format(duration=_duration(plan.seconds),
                                                                   short=plan.short)
    return _("the small table of positions that can reach the goal was not enough for this "
             "proof; {command} ({duration}, once) builds the large one, and so does a solve with "
             "a time limit of {limit} s or more").format(command=command, duration=_duration(plan.seconds),
                                                         limit=plan.limit)


def build_large(state: PegInstance, ctx: SolveContext):
    """The large table's judge, built now with progress and stop from ``ctx`` (its pagoda
    library and the filter above it are left for ``puzzle prepare``), and made the shared
    one; None when ``ctx`` said stop first (nothing is kept)."""
    from .judge import Judge
    from .verdict import use_judge

    budget = tables.LARGE_POSITIONS
    so_far = [0]

    def progress(pegs: int, positions: int) -> None:
        so_far[0] += positions  # a bar over the budget: the table ends at it or before
        ctx.progress(phase=_("building the table of positions that can reach the goal"),
                     done=min(so_far[0], budget), total=budget, table_pegs=pegs)

    try:
        # A preset board's table is worth keeping on disk, whoever asks first.
        with keep_tables_after(1) if is_preset_board(state) else contextlib.nullcontext():
            judge = Judge(state, budget, progress, should_stop=ctx.should_stop, extras=False)
    except lv.GrowStopped:
        return None
    use_judge(state, judge)
    return judge


# -- ahead of time: `puzzle prepare pegs` -------------------------------------------------------


def preset_states() -> list[tuple[str, PegInstance]]:
    """The presets whose tables are worth preparing: compiled boards (at most 64 holes) whose
    start passes the position-class test (the European central game does not: no table
    helps a proof that needs none)."""
    from .parse import parse_instance

    out = []
    for name, text in PRESETS.items():
        inst = parse_instance(text)
        board = inst.board
        if board.n > 64 or not lv.AVAILABLE:
            continue
        if class_verdict(board, board.to_compact(inst.pegs), board.to_compact(inst.goal)).feasible:
            out.append((name, inst))
    return out


def _on_disk(inst: PegInstance, positions: int) -> bool:
    return tables.cache_path(compile_problem(inst), positions).exists()


def prepare_cost(big_builds: bool) -> PrepareCost:
    """What :func:`prepare` would still build (files not on disk), estimated."""
    cost = PrepareCost()
    for name, inst in preset_states():
        if not _on_disk(inst, tables.LIVE_POSITIONS):
            cost += PrepareCost(SMALL_SECONDS, 64 << 20, 4 << 20, kept=4 << 20, what=(_("{board} small table").format(
                board=board_label(name)),))
        if big_builds and name in LARGE_PRESETS and not _on_disk(inst, tables.LARGE_POSITIONS):
            n = tables.LARGE_POSITIONS
            extras = LARGE_PRESETS[name]
            what = (_("{board} large table, pagoda library and opening book") if extras
                    else _("{board} large table")).format(board=board_label(name))
            memory = (EXTRAS_MEMORY_PER_POSITION if extras else MEMORY_PER_POSITION) * n
            cost += PrepareCost(SECONDS_PER_POSITION * n + extras, memory,
                                DISK_PER_POSITION * n + (128 << 20 if extras else 0), (what,),
                                kept=KEPT_PER_POSITION * n)
    return cost


def prepare(ctx: SolveContext, big_builds: bool) -> bool:
    """Build (or load) the presets' small tables, and with ``big_builds`` the large tables and
    opening books of :data:`LARGE_PRESETS` (when memory and disk suffice; else say why on the
    log). Reports ``built=...`` for each table made; False when stopped."""
    from .judge import Judge
    from .verdict import prepare_table, use_judge

    try:
        for name, inst in preset_states():
            if ctx.should_stop():
                return False
            ctx.progress(force=True, phase=_("{board}: small table").format(board=board_label(name)))
            fresh = not _on_disk(inst, tables.LIVE_POSITIONS)
            with keep_tables_after(1):
                judge = Judge(inst, should_stop=ctx.should_stop)
            use_judge(inst, judge)
            if fresh:
                ctx.progress(force=True, built=_("{board}: small table, {size}").format(
                    board=board_label(name), size=_size(judge)))
        if not big_builds:
            return True
        for name, inst in preset_states():
            if name not in LARGE_PRESETS:
                continue
            fresh = not _on_disk(inst, tables.LARGE_POSITIONS)
            n = tables.LARGE_POSITIONS
            per = EXTRAS_MEMORY_PER_POSITION if LARGE_PRESETS[name] else MEMORY_PER_POSITION
            short = build_room(per * n, DISK_PER_POSITION * n) if fresh else None
            if short is not None:
                log.warning("warning: the %s large table is not built (%s); fewest-moves "
                            "answers there may give up", name, short)
                continue
            judge = prepare_table(inst, _level_progress(ctx, name), should_stop=ctx.should_stop,
                                  book_progress=_book_progress(ctx, name))
            if fresh:
                ctx.progress(force=True, built=_("{board}: large table, {size}").format(
                    board=board_label(name), size=_size(judge)))
            if len(judge.book):
                ctx.progress(force=True, built=_("{board}: opening book, {positions}").format(
                    board=name, positions=count_positions(len(judge.book))))
    except lv.GrowStopped:
        return False
    return True


def _size(judge) -> str:
    path = tables.cache_path(judge.problem, judge.positions)
    size = path.stat().st_size if path.exists() else 0
    if not size:
        where = _("kept in memory only")
    elif size < 2**20:
        where = _("{size} KiB on disk").format(size=format_number(max(1, round(size / 2**10))))
    else:
        where = _("{size} MiB on disk").format(size=format_number(size / 2**20, 1))
    return _("{positions} up to {pegs}, {where}").format(
        positions=count_positions(judge.backward_size), pegs=count_pegs(judge.top), where=where)


def _level_progress(ctx: SolveContext, name: str):
    def progress(pegs: int, positions: int) -> None:
        ctx.progress(phase=_("{board}: large table").format(
            board=board_label(name)), table_pegs=pegs, positions=positions)
    return progress


def _book_progress(ctx: SolveContext, name: str):
    def progress(done) -> None:
        ctx.progress(phase=_("{board}: opening book").format(board=board_label(name)), done=done.done, total=done.total)
    return progress
