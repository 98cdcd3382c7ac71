"""``puzzle pegs ...``: command-line tools of the peg solitaire plugin (``count``, ``table``).

What they print for people is in the locale the command line chose (``LC_ALL``, ``LANG``: the
host sets it), their ``--help`` too (the help texts are messages of the plugin's catalogue,
said when printed: ``TranslatedGroup``); ``--json`` output is for programs and never changes.
"""

from __future__ import annotations

import json
import sys
import time

import click

from engine import N_, InputError, TranslatedGroup, format_number, pinned_tables

from .count import DEFAULT_MEMORY, CountRefused, LevelInfo, count_solutions
from .i18n import CATALOGUE, _, ngettext
from .puzzle import PegSolitaire
from .wording import count_pegs, count_positions

#: Longest instance text accepted on the command line.
MAX_TEXT = 10_000


@click.group("pegs", cls=TranslatedGroup, catalogue=CATALOGUE, help=N_("Peg solitaire tools."))
def pegs_group() -> None:
    """``puzzle pegs``: the plugin's tools (the help above is what people read)."""


def _instance(text: str):
    puzzle = PegSolitaire()
    if text == "-":
        text = sys.stdin.read(MAX_TEXT + 1)
    if len(text) > MAX_TEXT:
        raise InputError(_("the instance text is longer than {limit} characters").format(
            limit=format_number(MAX_TEXT)))
    presets = puzzle.presets()
    return puzzle.parse(presets.get(text.strip(), text))


@pegs_group.command("count", short_help=N_("Count the solutions of INSTANCE."), help=N_(
    "Count every sequence of jumps that solves INSTANCE (a preset name, instance text, or - for "
    "standard input), and the positions visited on the way.\n\n"
    "Level sets grow from the start and from the goal until they meet; progress is shown per level "
    "on standard error. Ctrl+C stops the count."))
@click.argument("instance")
@click.option("--json", "as_json", is_flag=True, help=N_("Print one JSON object."))
@click.option("--memory", type=click.FloatRange(0.01, 64.0), default=DEFAULT_MEMORY / 2**30,
              show_default=True, help=N_("Memory budget in GB; a larger count is refused up front."))
def count_command(instance: str, as_json: bool, memory: float) -> None:
    """``puzzle pegs count``: the number of solutions of an instance (see its help above)."""
    try:
        inst = _instance(instance)
    except InputError as exc:
        click.echo(_("error: {message}").format(message=exc), err=True)
        sys.exit(2)
    started = time.monotonic()

    def progress(level: LevelInfo) -> None:
        # Columns: the values are padded before they go into the sentence.
        line = (_("  backward level {pegs}: {positions} positions  ({seconds} s)") if level.side == "backward"
                else _("  forward  level {pegs}: {positions} positions  ({seconds} s)"))
        click.echo(line.format(pegs=f"{count_pegs(level.pegs):>8}", positions=f"{format_number(level.positions):>12}",
                               seconds=f"{format_number(time.monotonic() - started, 1):>6}"), err=True)

    try:
        result = count_solutions(inst, memory=int(memory * 2**30), progress=progress)
    except CountRefused as exc:
        click.echo(_("error: {message}").format(message=_("refused: {reason}").format(reason=exc)), err=True)
        sys.exit(2)
    except OverflowError as exc:
        click.echo(_("error: {message}").format(message=exc), err=True)
        sys.exit(4)
    except KeyboardInterrupt:
        click.echo(_("error: {message}").format(message=_("stopped")), err=True)
        sys.exit(3)
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    click.echo(ngettext("{count} solution (sequences of jumps reaching the goal)",
                        "{count} solutions (sequences of jumps reaching the goal)",
                        result.solutions).format(count=format_number(result.solutions)))
    click.echo(ngettext("{positions} distinct positions visited (up to the {count} symmetry that fixes "
                        "the start and the goal), {middle} of them in the middle level ({pegs}) on a "
                        "solution",
                        "{positions} distinct positions visited (up to the {count} symmetries that fix "
                        "the start and the goal), {middle} of them in the middle level ({pegs}) on a "
                        "solution", result.symmetries).format(
        positions=format_number(result.positions), count=result.symmetries,
        middle=format_number(result.middle), pegs=count_pegs(result.meet_pegs)))
    click.echo(_("{seconds} s").format(seconds=format_number(result.seconds, 2)))


@pegs_group.command("table", short_help=N_("Build INSTANCE's large table ahead of time."), help=N_(
    "Build the large table of positions that can reach INSTANCE's goal on its board (used by the "
    "live verdicts; kept on disk; one to two minutes for the English board, more for the 37-hole "
    "one, which also gets a library of pagoda functions: about two minutes, and an opening book of "
    "the positions within seven jumps of INSTANCE's start: about four)."))
@click.argument("instance")
def table_command(instance: str) -> None:
    """``puzzle pegs table``: build an instance's large table ahead of time (see its help above)."""
    from .book import BookProgress
    from .verdict import prepare_table

    try:
        inst = _instance(instance)
    except InputError as exc:
        click.echo(_("error: {message}").format(message=exc), err=True)
        sys.exit(2)
    started = time.monotonic()

    def elapsed() -> str:
        return f"{format_number(time.monotonic() - started, 1):>6}"

    def progress(pegs: int, positions: int) -> None:
        click.echo(_("  level {pegs}: {positions} positions ({seconds} s)").format(
            pegs=f"{count_pegs(pegs):>8}", positions=f"{format_number(positions):>12}", seconds=elapsed()),
            err=True)

    def library_progress(done: int, total: int) -> None:
        click.echo(_("  pagoda library: {done} of {total} sets of holes ({seconds} s)").format(
            done=format_number(done), total=format_number(total), seconds=elapsed()), err=True)

    last_book = [0.0]

    def book_progress(done: BookProgress) -> None:
        if done.done == done.total or time.monotonic() - last_book[0] >= 2.0:
            last_book[0] = time.monotonic()
            click.echo(_("  opening book: {done} of {total} positions decided ({seconds} s)").format(
                done=format_number(done.done), total=format_number(done.total), seconds=elapsed()), err=True)

    try:
        with pinned_tables():  # built on purpose: the cache's budget evicts them last
            judge = prepare_table(inst, progress, library_progress, book_progress)
    except KeyboardInterrupt:
        click.echo(_("error: {message}").format(message=_("stopped")), err=True)
        sys.exit(3)
    click.echo(_("{positions} with at most {pegs} can reach the goal ({seconds} s)").format(
        positions=count_positions(judge.backward_size), pegs=count_pegs(judge.top),
        seconds=format_number(time.monotonic() - started, 1)))
    if judge.library:
        click.echo(ngettext("{count} pagoda function in the board's libraries (found by linear "
                            "programming, each checked against every jump)",
                            "{count} pagoda functions in the board's libraries (found by linear "
                            "programming, each checked against every jump)",
                            len(judge.library)).format(count=format_number(len(judge.library))))
    if len(judge.book):
        starts = len(judge.book.starts)
        click.echo(ngettext("{positions} in the opening book ({alive} can reach the goal, {dead} cannot), "
                            "from {count} start",
                            "{positions} in the opening book ({alive} can reach the goal, {dead} cannot), "
                            "from {count} starts", starts).format(
            positions=count_positions(len(judge.book)), alive=format_number(len(judge.book.alive)),
            dead=format_number(len(judge.book.dead)), count=format_number(starts)))
