"""The peg solitaire tools the web editor runs as jobs: "Count solutions".

The count (:mod:`.count`) can need gigabytes; a server runs it only when its up-front estimate
(:func:`.count.estimate_count`, turned into resident memory) fits :data:`SERVER_MEMORY`, and
refuses other boards with the estimate, so one click can never make a web server swap; should the
estimate fall short, the count's own check stops it at :data:`RULE_MEMORY` by its rule.
``puzzle pegs count`` on the command line has its own, larger budget.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from babel.numbers import format_compact_decimal

from engine import N_, GaveUp, InputError, SolveContext, Task, TaskResult, current_locale, format_number

from .board import PegInstance
from .count import CountRefused, CountStopped, LevelInfo, count_solutions, estimate_count
from .i18n import CATALOGUE, _, ngettext
from .levels import BUILD_BYTES, STORED_BYTES
from .wording import count_pegs, count_positions

#: Resident memory one count may use on a server.
SERVER_MEMORY = 2**30
#: Resident memory of a count over the figure of the count's own memory rule (count.py), as
#: measured on the English board: 206 MB by the rule at its largest level, about 450 MB
#: resident (the interpreter, numba, sorting copies).
RESIDENT_PER_RULE_BYTE = 2.2
#: The count's own budget on a server: it stops with CountRefused past it, should the estimate
#: have been too low.
RULE_MEMORY = int(SERVER_MEMORY / RESIDENT_PER_RULE_BYTE)


def _gb(nbytes: int) -> str:
    if nbytes >= 2**30 / 10:
        return _("{size} GB").format(size=format_number(nbytes / 2**30, 1))
    return _("{size} MB").format(size=format_number(nbytes / 2**20, 0))


def count_refusal(inst: PegInstance, memory: int = SERVER_MEMORY) -> str | None:
    """Why a count of ``inst`` will not run within ``memory`` bytes of resident memory, or None
    when it will.

    Boards small enough that even every position of the fullest level (C(holes, holes / 2))
    fits are allowed at once; others are estimated (milliseconds, remembered per instance and
    language: the answer is words, so a reader never gets the one written for another).
    """
    return _count_refusal(inst, memory, current_locale())


@lru_cache(maxsize=256)
def _count_refusal(inst: PegInstance, memory: int, locale: str) -> str | None:
    # ``locale`` only keys the cache: the words are written in the current locale, which it is.
    n = inst.board.n
    per_rule = RESIDENT_PER_RULE_BYTE
    if comb(n, n // 2) * (BUILD_BYTES + 2 * STORED_BYTES) * per_rule <= memory:
        return None
    try:
        estimate = estimate_count(inst)
    except CountRefused as exc:
        return str(exc)
    resident = int(estimate.bytes * per_rule)
    if resident <= memory:
        return None
    return _("counting it would need about {need} of memory (estimated: its largest level would "
             "hold about {positions} positions), over the {budget} a count may use on this server. "
             "The command line (puzzle pegs count) can use more").format(
                 need=_gb(resident), positions=_many(estimate.largest_level), budget=_gb(memory))


def _many(n: int) -> str:
    """A rough count in words for the reader's locale: "51 million", "230,000"."""
    # CLDR's compact long form: "51 million" in English, "5100万" in Chinese, which counts in
    # 万 and 亿 (10**4 and 10**8) rather than in millions.
    if n >= 10**6:
        return format_compact_decimal(n, format_type="long", locale=current_locale(), fraction_digits=1)
    return format_number(round(n, -3))


class CountSolutionsTask(Task):
    """Count every jump sequence that solves the instance (see docs/pegs.md)."""

    puzzle_id = "pegs"
    name = "count"
    catalogue = CATALOGUE
    label = N_("Count solutions")
    description = N_("Count every sequence of jumps that solves this problem, by growing level sets "
                     "from the start and from the goal until they meet.")

    def refusal(self, instance: PegInstance) -> str | None:
        return count_refusal(instance)

    def run(self, instance: PegInstance, ctx: SolveContext) -> TaskResult | GaveUp:
        # Progress by positions, not levels: the levels near the middle hold most positions
        # and take most of the time. The total is projected (milliseconds); the bar waits at
        # 99% when the projection falls short.
        try:
            expected = max(1, estimate_count(instance).positions)
        except CountRefused:
            expected = 1
        built: list[LevelInfo] = []

        def progress(level: LevelInfo) -> None:
            built.append(level)
            positions = sum(lv.positions for lv in built)
            if level.side == "backward":
                message = _("backward level with {pegs}: {positions}")
            else:
                message = _("forward level with {pegs}: {positions}")
            ctx.progress(force=True, phase=_("counting level sets"),
                         done=min(990, 1000 * positions // expected), total=1000,
                         message=message.format(pegs=count_pegs(level.pegs),
                                                positions=count_positions(level.positions)),
                         levels=len(built), positions=positions)

        try:
            result = count_solutions(instance, memory=RULE_MEMORY, progress=progress,
                                     should_stop=ctx.should_stop)
        except CountStopped as stopped:
            return ctx.gave_up(levels=len(stopped.levels),
                               positions=sum(lv.positions for lv in stopped.levels))
        except OverflowError as exc:  # past 2**64 ways: a fact about the board, said plainly
            raise InputError(str(exc)) from None
        ctx.progress(force=True, phase=_("counting level sets"), done=1000, total=1000,
                     message=_("the two sides met"), levels=len(built),
                     positions=sum(lv.positions for lv in built))
        data = result.to_json()
        # Decimal text: counts pass 2**53 (the English board has 4 x 10**16), which browsers'
        # JSON numbers would round.
        data["solutions"] = str(result.solutions)
        summary = _("{solutions} (sequences of jumps reaching the goal); {positions} visited, up to "
                    "{symmetries}.").format(
            solutions=ngettext("{count} solution", "{count} solutions", result.solutions).format(
                count=format_number(result.solutions)),
            positions=ngettext("{count} distinct position", "{count} distinct positions",
                               result.positions).format(count=format_number(result.positions)),
            symmetries=ngettext("{count} symmetry", "{count} symmetries", result.symmetries).format(
                count=format_number(result.symmetries)))
        return TaskResult(summary, data)
