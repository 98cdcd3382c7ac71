"""The plugin author's commands: ``puzzle check`` and ``puzzle new-plugin``.

Kept apart from :mod:`engine.cli` (solving, rendering) so each module has one job; ``cli.py``
only attaches :data:`KIT_COMMANDS` to its group.
"""

from __future__ import annotations

import sys

import click

from .cli_help import TranslatedCommand
from .errors import InputError
from .i18n import ENGINE, N_, _
from .plugins import get_registry

EXIT_OK, EXIT_BAD_INPUT, EXIT_LAW_FAILED = 0, 2, 4


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    click.echo(_("error: {message}").format(message=message), err=True)
    sys.exit(code)


@click.command("check", cls=TranslatedCommand, catalogue=ENGINE, help=N_(
    "Check an installed PUZZLE against the engine's conformance laws.\n\n"
    "Prints each law with PASS, FAIL (with a minimal failing example) or SKIP (why it cannot "
    "be checked here). Exit code 0 when no law fails, 4 when one does, 2 for bad input. "
    "Writes nothing into the current directory."))
@click.argument("puzzle_id", metavar="PUZZLE")
@click.option("--examples", type=click.IntRange(1, 100_000), default=50, show_default=True,
              help=N_("Generated inputs per junk law (more finds rarer bugs, slower)."))
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help=N_("Seed of the random instances and generated inputs (a run is reproducible)."))
@click.option("--law", "laws", multiple=True, metavar="NAME",
              help=N_("Check only this law (repeatable); names are printed by every run."))
def check_command(puzzle_id: str, examples: int, seed: int, laws: tuple[str, ...]) -> None:
    """``check``: its help (above) is what people read."""
    from . import conformance

    conformance.use_cache_dir()
    registry = get_registry()
    try:
        puzzle = registry.puzzle(puzzle_id)
    except InputError as exc:
        _fail(str(exc))
    owner = registry.owner(puzzle.id)
    info = registry.plugins.get(owner or "")
    if info and info.distribution:
        click.echo(_("checking {puzzle} (plugin {plugin} from {distribution} {version}), seed {seed}, {examples} "
                     "examples per junk law").format(puzzle=puzzle.id, plugin=owner, distribution=info.distribution,
                                                     version=info.version, seed=seed, examples=examples))
    else:
        click.echo(_("checking {puzzle} (plugin {plugin}), seed {seed}, {examples} examples per junk law").format(
            puzzle=puzzle.id, plugin=owner, seed=seed, examples=examples))
    try:
        report = conformance.check_puzzle(puzzle.id, registry=registry, examples=examples, seed=seed,
                                          laws=laws or None, on_result=lambda r: click.echo(r.text()))
    except ValueError as exc:
        _fail(str(exc))
    click.echo(report.summary())
    sys.exit(EXIT_OK if report.ok else EXIT_LAW_FAILED)


@click.command("new-plugin", cls=TranslatedCommand, catalogue=ENGINE, help=N_(
    "Write a complete plugin package for a new puzzle called NAME.\n\n"
    "The package (pyproject with the entry point, puzzle, solver, renderer, hooks, README and "
    "tests) installs with `puzzle install -e` and passes `puzzle check` as written: change "
    "the rules from there."))
@click.argument("name")
@click.option("--dir", "directory", type=click.Path(file_okay=False),
              help=N_("Where to write the package (default: ./puzzle-engine-NAME)."))
def new_plugin_command(name: str, directory: str | None) -> None:
    """``new_plugin``: its help (above) is what people read."""
    from .scaffold import names, write_plugin

    try:
        files = write_plugin(name, directory)
        values = names(name)
    except InputError as exc:
        _fail(str(exc))
    root = files[0].parent
    for path in files:
        click.echo(_("wrote {path}").format(path=path))
    click.echo("\n" + _("next:"))
    click.echo(f"    puzzle install -e {root}\n    puzzle check {values['id']}\n    cd {root} && python -m pytest")


#: The commands :mod:`engine.cli` adds to the ``puzzle`` group.
KIT_COMMANDS = (check_command, new_plugin_command)
