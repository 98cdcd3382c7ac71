"""``puzzle pegs ...``: command-line tools of the peg solitaire plugin (``count``)."""

from __future__ import annotations

import json
import sys
import time

import click

from engine import InputError, pinned_tables, plural

from .count import DEFAULT_MEMORY, CountRefused, LevelInfo, count_solutions
from .puzzle import PegSolitaire

#: Longest instance text accepted on the command line.
MAX_TEXT = 10_000


@click.group("pegs")
def pegs_group() -> None:
    """Peg solitaire tools."""


def _instance(text: str):
    puzzle = PegSolitaire()
    if text == "-":
        text = sys.stdin.read(MAX_TEXT + 1)
    if len(text) > MAX_TEXT:
        raise InputError(f"the instance text is longer than {MAX_TEXT:,} characters")
    presets = puzzle.presets()
    return puzzle.parse(presets.get(text.strip(), text))


@pegs_group.command("count")
@click.argument("instance")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--memory", type=click.FloatRange(0.01, 64.0), default=DEFAULT_MEMORY / 2**30,
              show_default=True, help="Memory budget in GB; a larger count is refused up front.")
def count_command(instance: str, as_json: bool, memory: float) -> None:
    """Count every sequence of jumps that solves INSTANCE (a preset name, instance text, or -
    for standard input), and the positions visited on the way.

    Level sets grow from the start and from the goal until they meet; progress is shown per
    level on standard error. Ctrl+C stops the count.
    """
    try:
        inst = _instance(instance)
    except InputError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    started = time.monotonic()

    def progress(level: LevelInfo) -> None:
        click.echo(f"  {level.side:<8} level {plural(level.pegs, 'peg'):>8}: {level.positions:>12,} "
                   f"positions  ({time.monotonic() - started:6.1f} s)", err=True)

    try:
        result = count_solutions(inst, memory=int(memory * 2**30), progress=progress)
    except CountRefused as exc:
        click.echo(f"error: refused: {exc}", err=True)
        sys.exit(2)
    except OverflowError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(4)
    except KeyboardInterrupt:
        click.echo("error: stopped", err=True)
        sys.exit(3)
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    click.echo(f"{plural(result.solutions, 'solution')} (sequences of jumps reaching the goal)")
    click.echo(f"{result.positions:,} distinct positions visited (up to the "
               f"{result.symmetries} symmetries that fix the start and the goal), "
               f"{result.middle:,} of them in the middle level ({plural(result.meet_pegs, 'peg')}) on a "
               f"solution")
    click.echo(f"{result.seconds:.2f} s")


@pegs_group.command("table")
@click.argument("instance")
def table_command(instance: str) -> None:
    """Build the large table of positions that can reach INSTANCE's goal on its board (used by
    the live verdicts; kept on disk; one to two minutes for the English board, more for the
    37-hole one, which also gets a library of pagoda functions: about two minutes, and an
    opening book of the positions within seven jumps of INSTANCE's start: about four)."""
    from .book import BookProgress
    from .verdict import prepare_table

    try:
        inst = _instance(instance)
    except InputError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    started = time.monotonic()

    def progress(pegs: int, positions: int) -> None:
        click.echo(f"  level {plural(pegs, 'peg'):>8}: {positions:>12,} positions "
                   f"({time.monotonic() - started:6.1f} s)", err=True)

    def library_progress(done: int, total: int) -> None:
        click.echo(f"  pagoda library: {done:,} of {total:,} sets of holes "
                   f"({time.monotonic() - started:6.1f} s)", err=True)

    last_book = [0.0]

    def book_progress(done: BookProgress) -> None:
        if done.done == done.total or time.monotonic() - last_book[0] >= 2.0:
            last_book[0] = time.monotonic()
            click.echo(f"  opening book: {done.done:,} of {done.total:,} positions decided "
                       f"({time.monotonic() - started:6.1f} s)", err=True)

    try:
        with pinned_tables():  # built on purpose: the cache's budget evicts them last
            judge = prepare_table(inst, progress, library_progress, book_progress)
    except KeyboardInterrupt:
        click.echo("error: stopped", err=True)
        sys.exit(3)
    click.echo(f"{plural(judge.backward_size, 'position')} with at most {plural(judge.top, 'peg')} can reach the "
               f"goal ({time.monotonic() - started:.1f} s)")
    if judge.library:
        click.echo(f"{plural(len(judge.library), 'pagoda function')} in the board's libraries "
                   f"(found by linear programming, each checked against every jump)")
    if len(judge.book):
        click.echo(f"{plural(len(judge.book), 'position')} in the opening book ("
                   f"{len(judge.book.alive):,} can reach the goal, {len(judge.book.dead):,} cannot), "
                   f"from {plural(len(judge.book.starts), 'start')}")
