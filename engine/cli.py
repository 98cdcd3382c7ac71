"""The ``puzzle`` command line.

Exit codes: 0 solved (or success), 1 unsolvable, 2 bad input (one-line message on stderr, no
traceback), 3 gave up (deadline or cancelled, including a solver killed for ignoring its time
limit, and Ctrl+C at any moment), 4 a solver or plugin broke its contract (it raised, returned a
wrong or unencodable answer, or its process died), 5 the environment failed a plugin (an
unwritable directory, a missing file, out of memory). Errors are one ``error:`` line on stderr.

``puzzle solve`` runs the solver in a child process (:mod:`engine.isolation`) with the web app's
rules: ``--timeout`` is the solver's cooperative deadline, and a solver still running ``--grace``
seconds past it is killed. Plugins add commands through the ``register_commands`` hook (the web
app adds ``serve``).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import traceback
from typing import Any, Mapping, NoReturn

import click

from . import tablecache
from ._ctrl_c import guard_startup
from .cli_help import TranslatedGroup, click_words
from .compat import needs_words
from .contract import PrepareCost
from .deadlines import DEFAULT_GRACE
from .errors import EnvironmentProblem, InputError, PluginError, SolverError, plugin_call
from .i18n import (
    ENGINE,
    N_,
    _,
    format_number,
    locale_from_environment,
    ngettext,
    set_locale,
    translate,
    use_locale,
)
from .isolation import Stopped, solve_isolated
from .jobs.worker import worker_command
from .plugins import get_registry, loaded_registry, shadowing_warnings
from .resources import process_memory
from .solving import (
    MAX_INPUT_CHARS,
    final_state,
    owner_of,
    preparation_costs,
    prepare_solvers,
    resolve_instance,
)
from .svgsafe import UnsafeSVG, sanitize_svg

EXIT_SOLVED, EXIT_UNSOLVABLE, EXIT_BAD_INPUT, EXIT_GAVE_UP, EXIT_SOLVER_ERROR = 0, 1, 2, 3, 4
EXIT_ENVIRONMENT = 5
#: The exit code for each engine error a command can end with.
EXIT_CODES = ((InputError, EXIT_BAD_INPUT), (EnvironmentProblem, EXIT_ENVIRONMENT),
              (SolverError, EXIT_SOLVER_ERROR), (PluginError, EXIT_SOLVER_ERROR))


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    click.echo(_("error: {message}").format(message=message), err=True)
    sys.exit(code)


def _fail_with(exc: Exception) -> NoReturn:
    """End with the one line and exit code an engine error stands for."""
    for kind, code in EXIT_CODES:
        if isinstance(exc, kind):
            _fail(str(exc) if isinstance(exc, InputError) else exc.message, code)
    raise exc


def _read_instance(text: str) -> str:
    """The INSTANCE argument, or stdin for ``-``: at most the size limit plus one character is
    read, so a huge input costs no memory before it is refused."""
    if text == "-":
        text = sys.stdin.read(MAX_INPUT_CHARS + 1)
        if len(text) > MAX_INPUT_CHARS:
            raise InputError(_("the instance on stdin is longer than the limit of {limit} characters").format(
                limit=format_number(MAX_INPUT_CHARS)))
    return text


def _cache_budget(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None:
        return
    try:
        tablecache.parse_size(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    # Through the environment, so that the worker processes a command starts follow it too.
    os.environ[tablecache.BUDGET_ENV] = value


@click.group(cls=TranslatedGroup, catalogue=ENGINE, context_settings={"help_option_names": ["-h", "--help"]}, help=N_(
    "Solve, render and explore puzzles from every installed puzzle plugin."))
@click.option("--cache-budget", metavar="SIZE", expose_value=False, callback=_cache_budget,
              help=N_("Bytes the table cache folder may hold, e.g. 2G or 500M (default: "
                      "$PUZZLE_ENGINE_CACHE_BUDGET, else 4G); least recently used tables go first."))
@click.pass_context
def cli(ctx: click.Context) -> None:
    """``puzzle``: its help (above) is what people read, in their language (engine.cli_help)."""
    # Messages for people follow LC_ALL, LC_MESSAGES, LANG (--json output does not change);
    # the locale is undone when the command ends, so a test runner's process is left as it was.
    ctx.with_resource(use_locale(locale_from_environment()))


@cli.command("plugins", help=N_(
    "Each plugin: name, version, hooks it implements, and load failures."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print JSON."))
@click.option("--requirements", is_flag=True,
              help=N_("Print the installed plugin distributions as requirement lines for "
                      "`puzzle install -r` (no plugin is loaded)."))
def plugins_command(as_json: bool, requirements: bool) -> None:
    """``plugins``: its help (above) is what people read."""
    if requirements:
        from .installing import requirement_lines

        for line in requirement_lines():
            click.echo(line)
        return
    registry = get_registry()
    infos = sorted(registry.plugins.values(), key=lambda p: p.name)
    if as_json:
        click.echo(json.dumps([p.to_json() for p in infos], indent=2))
        return
    for p in infos:
        version = p.version or "?"
        if p.distribution:
            click.echo(_("{name} {version} from {distribution} ({module})").format(
                name=p.name, version=version, distribution=p.distribution, module=p.module))
        else:
            click.echo(_("{name} {version} ({module})").format(name=p.name, version=version, module=p.module))
        if p.import_seconds is not None:
            click.echo("    " + _("imported in {seconds} s").format(seconds=format_number(p.import_seconds, 2)))
        if p.hooks:
            click.echo("    " + _("hooks: {hooks}").format(hooks=", ".join(p.hooks)))
        for warning in p.warnings:
            click.echo("    " + _("warning: {warning}").format(warning=warning))
        if p.needs:
            click.echo("    " + _("NOT LOADED: it {needs}").format(needs=needs_words(p.needs)))
        elif p.error:
            click.echo("    " + _("FAILED: {error}").format(error=p.error))
    for line in shadowing_warnings():
        click.echo(_("warning: {warning}").format(warning=line))


@cli.command("list", help=N_(
    "Puzzles with their solvers, renderers, tasks and presets."))
def list_command() -> None:
    """``list``: its help (above) is what people read."""
    registry = get_registry()
    if not registry.puzzles:
        click.echo(_("no puzzles installed (see `puzzle plugins`)"))
    none = _("none")
    for pid, puzzle in sorted(registry.puzzles.items()):
        # Names (ids, solver and renderer names) stay as typed on the command line; the words
        # a plugin wrote for people (title, rules, descriptions) come in its catalogue's language.
        click.echo(f"{pid}: {translate(puzzle, puzzle.title)}")
        click.echo("    " + _("rules: {rules}").format(rules=translate(puzzle, puzzle.rules)))
        solvers = ", ".join(_("{name} (optimal)").format(name=s.name) if s.optimal else s.name
                            for s in registry.solvers(pid)) or none
        click.echo("    " + _("solvers: {solvers}").format(solvers=solvers))
        default = next(iter(registry.solvers(pid)), None)
        if default is not None and default.description:
            click.echo("    " + _("default solver {name}: {description}").format(
                name=default.name, description=translate(default, default.description)))
        renderers = ", ".join(r.name for r in registry.renderers(pid)) or none
        click.echo("    " + _("renderers: {renderers}").format(renderers=renderers))
        tasks = registry.tasks(pid)
        if tasks:  # tools the web editor runs as jobs (engine.Task)
            listed = ", ".join(f"{t.name} ({translate(t, t.label)})" for t in tasks)
            click.echo("    " + _("tasks (web editor): {tasks}").format(tasks=listed))
        click.echo("    " + _("presets: {presets}").format(presets=", ".join(puzzle.presets()) or none))
        options = _("; ").join(_("{name} ({help})").format(name=k, help=translate(puzzle, v))
                               for k, v in puzzle.random_options.items()) or none
        click.echo("    " + _("random options (-o KEY=VALUE): {options}").format(options=options))
        click.echo("    " + _("limits: {limits}").format(limits=translate(puzzle, puzzle.limits)))
    for failed in registry.failures():
        if failed.needs:
            click.echo(_("plugin {name} is not loaded, its puzzles are missing: it {needs}").format(
                name=failed.name, needs=needs_words(failed.needs)))
        else:
            click.echo(_("plugin {name} FAILED to load, its puzzles are missing: {error}").format(
                name=failed.name, error=failed.error))


class _ProgressLine:
    """Prints a progress line on a terminal's stderr once a solve has run for a second."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self.shown = False
        self.built: list[str] = []  # what a prepare reported it made (``built="..."``)

    def __call__(self, stats: Mapping[str, Any]) -> None:
        if isinstance(stats.get("built"), str):
            self.built.append(stats["built"])
        if not self.enabled or stats.get("elapsed", 0) < 1.0:
            return
        parts = [f"{k}={v:,}" if isinstance(v, int) else f"{k}={v}" for k, v in stats.items()]
        sys.stderr.write("\r\x1b[K" + "  ".join(parts)[:150])
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _summary(report_json: dict) -> str:
    stats = report_json["stats"]
    nodes = stats.get("nodes", stats.get("positions"))
    secs = _("{seconds} s").format(seconds=format_number(report_json["seconds"], 3))
    if isinstance(nodes, int):  # the time and the nodes searched, one phrase
        spent = ngettext("{seconds}, {count} node", "{seconds}, {count} nodes", nodes).format(
            seconds=secs, count=format_number(nodes))
    else:
        spent = secs
    status = report_json["status"]
    if status == "solved":
        length = report_json["length"]
        moves = ngettext("{count} move", "{count} moves", length).format(count=format_number(length))
        gap = report_json.get("details", {}).get("longer_than_shortest_at_most")
        if report_json["optimal"]:
            kind = _("optimal")
        elif isinstance(gap, int):
            kind = ngettext("at most {count} move longer than the shortest",
                            "at most {count} moves longer than the shortest", gap).format(count=format_number(gap))
        else:
            kind = _("not proven optimal")
        return _("solved: {moves} ({kind}), {spent}").format(moves=moves, kind=kind, spent=spent)
    if status == "unsolvable":
        return _("unsolvable: {reason} ({spent})").format(reason=report_json["reason"], spent=spent)
    return _("gave up ({reason}) after {spent}").format(reason=report_json["reason"], spent=spent)


#: The largest picture ``puzzle solve --image`` reads (a puzzle may refuse smaller ones).
MAX_PICTURE_BYTES = 5 * 1024 * 1024


def read_picture_file(puzzle: Any, path: str) -> Mapping[str, Any]:
    """A puzzle's reading of a picture file (``Puzzle.read_picture``), the file bounded first."""
    if not puzzle.picture_formats:
        raise InputError(_("{puzzle} cannot read an instance from a picture").format(
            puzzle=translate(puzzle, puzzle.title)))
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_PICTURE_BYTES + 1)
    except OSError as exc:
        raise InputError(_("cannot read the picture {path}: {error}").format(
            path=repr(path), error=exc.strerror or exc)) from None
    if len(data) > MAX_PICTURE_BYTES:
        raise InputError(_("the picture {path} is larger than {size} MB").format(
            path=repr(path), size=format_number(MAX_PICTURE_BYTES // 2**20)))
    return puzzle.read_picture(data)


@cli.command("solve", help=N_(
    "Solve INSTANCE (instance text, a preset name, or - for stdin), or the instance read from "
    "a picture with --image FILE.\n\n"
    "The solver runs in a child process: with --timeout, one that is still running --grace "
    "seconds after it is killed (exit 3); one whose process dies is reported (exit 4)."))
@click.argument("puzzle_id", metavar="PUZZLE")
@click.argument("instance", required=False)
@click.option("--image", "image", metavar="FILE",
              help=N_("Read the instance from a picture (puzzles that read pictures, e.g. tangram)."))
@click.option("--solver", "solver_name", help=N_("Solver name (default: the puzzle's first)."))
@click.option("--timeout", type=float, help=N_("Give up after this many seconds."))
@click.option("--grace", type=click.FloatRange(0, 3600), default=DEFAULT_GRACE, show_default=True,
              help=N_("Seconds a solver may overrun --timeout (or a Ctrl+C) before it is killed."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print one JSON object."))
def solve_command(puzzle_id: str, instance: str | None, image: str | None, solver_name: str | None,
                  timeout: float | None, grace: float, as_json: bool) -> None:
    """``solve``: its help (above) is what people read."""
    progress = _ProgressLine()
    try:
        registry = get_registry()
        puzzle = registry.puzzle(puzzle_id)
        if (instance is None) == (image is None):
            raise InputError(_("give either INSTANCE or --image FILE (one of them); see "
                               "`puzzle solve --help`"))
        read_from_picture: list[str] = []
        if image is not None:
            picture = read_picture_file(puzzle, image)
            text = str(picture["instance"])
            # how the picture was read (tangram: the size, and how far the outline moved)
            read_from_picture = [note for note in picture.get("notes") or () if isinstance(note, str)]
        else:
            text = _read_instance(str(instance))
        solver = registry.solver(puzzle_id, solver_name)
        if timeout is not None and not timeout > 0:
            raise InputError(_("the timeout must be a positive number of seconds"))
        plugin = owner_of(registry, solver)
        label = f"solver {solver.name!r}" + (f" of plugin {plugin!r}" if plugin else "")
        result = solve_isolated(puzzle.id, text, solver.name, timeout, grace=grace,
                                on_progress=progress, solver_label=label)
    except (InputError, SolverError, PluginError, EnvironmentProblem) as exc:
        progress.close()
        _fail_with(exc)
    progress.close()
    if isinstance(result, Stopped):
        _fail(result.message, EXIT_GAVE_UP)
    if read_from_picture:
        result = {**result, "notes": read_from_picture + list(result.get("notes") or ())}
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        for line in result.get("notes") or ():
            # what the puzzle says of the instance as read (a tangram outline: how far it moved)
            click.echo(_("note: {note}").format(note=line))
        for move in result["moves"]:
            click.echo(move)
        click.echo(_summary(result))
        note = (result.get("details") or {}).get("note")
        if isinstance(note, str) and note:
            click.echo(_("note: {note}").format(note=note))  # what would help: a table to build, and how long
    if result["status"] == "unsolvable":
        sys.exit(EXIT_UNSOLVABLE)
    if result["status"] == "gave_up":
        sys.exit(EXIT_GAVE_UP)


#: ``puzzle prepare`` asks before building more than this (memory or disk) without ``--yes``.
ASK_ABOVE_BYTES = 10**9


def _duration(seconds: float) -> str:
    if seconds < 90:
        return _("about {seconds} s").format(seconds=format_number(max(1, round(seconds))))
    minutes = round(seconds / 60)
    return ngettext("about {count} minute", "about {count} minutes", minutes).format(count=format_number(minutes))


def _size(n: int) -> str:
    if n >= 10**9:
        return _("{size} GB").format(size=format_number(n / 10**9, 1))
    return _("{size} MB").format(size=format_number(max(1, round(n / 10**6))))


@cli.command("prepare", help=N_(
    "Build the solvers' tables ahead of time (all puzzles, or those named).\n\n"
    "First says what is left to build and about how much time, memory and disk it takes, and "
    "asks before going over about 1 GB (unless --yes). Tables are cached on disk, so this is "
    "quick once done. Unlike the preparing `puzzle serve` does, this may build the biggest "
    "tables (minutes, gigabytes). Ctrl+C stops it; nothing half-built is kept."))
@click.argument("puzzle_ids", metavar="[PUZZLE]...", nargs=-1)
@click.option("--yes", "-y", is_flag=True,
              help=N_("Build without asking, even past about 1 GB of memory or disk."))
def prepare_command(puzzle_ids: tuple[str, ...], yes: bool) -> None:
    """``prepare``: its help (above) is what people read."""
    cancel = threading.Event()
    lines: list[_ProgressLine] = []

    def new_line() -> _ProgressLine:
        lines.append(_ProgressLine())
        return lines[-1]

    try:
        registry = get_registry()
        # A person runs this and watches it: the solvers may take minutes and gigabytes.
        costs = preparation_costs(registry, puzzle_ids, big_builds=True)
        if costs:
            total = sum((cost for _, _, cost in costs), PrepareCost())
            for pid, name, cost in costs:
                what = ", ".join(cost.what) or _("tables")
                click.echo(_("to build: {puzzle} {solver}: {what} ({duration})").format(
                    puzzle=pid, solver=name, what=what, duration=_duration(cost.seconds)))
            # The builds run in this process, on top of what it holds already (the plugins).
            memory = process_memory() + total.memory
            click.echo(_("in all: {duration}, up to {memory} of memory, {disk} of disk").format(
                duration=_duration(total.seconds), memory=_size(memory), disk=_size(total.disk)))
            if max(memory, total.disk) > ASK_ABOVE_BYTES and not yes:
                try:
                    go = click.confirm(_("Build them now?"), default=False, err=True)
                except click.Abort:  # no answer (stdin closed): ask again with --yes
                    go = False
                if not go:
                    _fail(_("nothing was built (`puzzle prepare --yes` builds without asking)"),
                          EXIT_GAVE_UP)
        for done in prepare_solvers(registry, puzzle_ids, cancel, new_line, big_builds=True):
            lines[-1].close()
            if done.error:
                _fail(_("{puzzle} solver {solver} failed to prepare: {error}").format(
                    puzzle=done.puzzle_id, solver=repr(done.solver), error=done.error),
                      EXIT_SOLVER_ERROR)
            if not done.ready:
                _fail(_("stopped while preparing {puzzle} solver {solver}").format(
                    puzzle=done.puzzle_id, solver=repr(done.solver)), EXIT_GAVE_UP)
            for line in lines[-1].built:
                click.echo("  " + _("built {what}").format(what=line))
            click.echo(_("{puzzle} {solver}: ready ({seconds} s)").format(
                puzzle=done.puzzle_id, solver=done.solver, seconds=format_number(done.seconds, 1)))
    except KeyboardInterrupt:
        _fail(_("stopped"), EXIT_GAVE_UP)
    except InputError as exc:
        _fail(str(exc))


def _split_moves(text: str | None) -> list[str]:
    if not text:
        return []
    return [m.strip() for m in text.split(",") if m.strip()]


@cli.command("render", help=N_(
    "Write the SVG of INSTANCE (after STEP of the MOVES) to stdout."))
@click.argument("puzzle_id", metavar="PUZZLE")
@click.argument("instance")
@click.option("--moves", help=N_("Comma-separated moves to play first."))
@click.option("--step", type=int, help=N_("Render after this many of the moves (default: all)."))
@click.option("--renderer", "renderer_name", help=N_("Renderer (theme) name."))
def render_command(puzzle_id: str, instance: str, moves: str | None, step: int | None,
                   renderer_name: str | None) -> None:
    """``render``: its help (above) is what people read."""
    registry = get_registry()
    try:
        puzzle = registry.puzzle(puzzle_id)
        renderer = registry.renderer(puzzle_id, renderer_name)
        with plugin_call(what=N_("the instance"), plugin=owner_of(registry, puzzle),
                         doing=N_("reading a {puzzle} instance"), values={"puzzle": puzzle.id}):
            inst = resolve_instance(puzzle, _read_instance(instance))
        move_list = _split_moves(moves)
        step = len(move_list) if step is None else step
        if not 0 <= step <= len(move_list):
            raise InputError(_("--step must be between 0 and {count} (the number of moves)").format(
                count=len(move_list)))
        with plugin_call(what=N_("a move"), plugin=owner_of(registry, puzzle), doing=N_("replaying moves")):
            state = final_state(puzzle, inst, move_list[:step])
        last = move_list[step - 1] if step > 0 else None
        nxt = move_list[step] if step < len(move_list) else None
        with plugin_call(plugin=owner_of(registry, renderer), doing=N_("rendering a {puzzle} board"),
                         values={"puzzle": puzzle.id}):
            svg = sanitize_svg(renderer.render(state, last_move=last, next_move=nxt))
    except (InputError, SolverError, PluginError, EnvironmentProblem) as exc:
        _fail_with(exc)
    except UnsafeSVG as exc:
        _fail(_("renderer {renderer} of plugin {plugin} drew an SVG that cannot be made safe: {error}").format(
            renderer=repr(renderer.name), plugin=repr(owner_of(registry, renderer)), error=exc), EXIT_SOLVER_ERROR)
    click.echo(svg)


def _parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(_("option {option} is not of the form KEY=VALUE").format(option=repr(pair)))
        options[key.strip()] = value.strip()
    return options


@cli.command("random", help=N_(
    "Print a random solvable instance's text (the same one for the same seed and options)."))
@click.argument("puzzle_id", metavar="PUZZLE")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help=N_("Random seed, 0 to 2^63-1 (the same range as the web app's)."))
@click.option("--size", help=N_("Short for -o size=SIZE, for puzzles with a size option (e.g. 4x4)."))
@click.option("-o", "--option", "options", multiple=True, metavar="KEY=VALUE",
              help=N_("A puzzle-specific option (`puzzle list` shows each puzzle's random options)."))
def random_command(puzzle_id: str, seed: int, size: str | None, options: tuple[str, ...]) -> None:
    """``random``: its help (above) is what people read."""
    registry = get_registry()
    try:
        puzzle = registry.puzzle(puzzle_id)
        opts = _parse_options(options)
        if size is not None:
            opts["size"] = size
        unknown = sorted(set(opts) - set(puzzle.random_options))
        if unknown:
            known = ", ".join(puzzle.random_options) or _("none")
            raise InputError(_("{puzzle} has no random option {option}; options: {options}").format(
                puzzle=translate(puzzle, puzzle.title), option=repr(unknown[0]), options=known))
        with plugin_call(what=N_("the random options"), plugin=owner_of(registry, puzzle),
                         doing=N_("making a random {puzzle} instance"), values={"puzzle": puzzle.id}):
            instance = puzzle.random(seed, opts)
    except (InputError, PluginError, EnvironmentProblem) as exc:
        _fail_with(exc)
    click.echo(puzzle.format(instance))


# `puzzle worker` (RQ on Redis) is the engine's own: the distributed job runner lives in engine.jobs.
cli.add_command(worker_command)

from .cli_kit import KIT_COMMANDS  # noqa: E402  (the plugin author's commands, own module)

for _command in KIT_COMMANDS:
    cli.add_command(_command)

from .installing import INSTALL_COMMANDS, needs_no_plugins  # noqa: E402  (install, uninstall)

for _command in INSTALL_COMMANDS:
    cli.add_command(_command)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``puzzle`` console script.

    Click's own usage errors (a bad option value, a missing argument, an unknown command) are
    printed as one ``error:`` line with exit code 2, like every other bad input, instead of
    Click's four-line usage block. Ctrl+C at any moment ends with exit 3 and no traceback.
    """
    guard_startup()  # already in place when run as `puzzle`; main() may be called otherwise
    # The locale for what main() itself says (usage errors, "cancelled"); commands set their own.
    set_locale(locale_from_environment())
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        # Managing plugins never loads them: a plugin that breaks on import (or kills the
        # process) must not stop `puzzle uninstall` from removing it.
        if not needs_no_plugins(args):
            get_registry().add_commands(cli)
    finally:
        # From here on Ctrl+C is a KeyboardInterrupt each command (and the end of main) handles.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        cli.main(args=args, prog_name="puzzle", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # bare `puzzle`: the help is the answer
        exc.show()
        sys.exit(exc.exit_code)
    except click.UsageError as exc:
        with click_words():  # "Invalid value for ...": worded when it is formatted
            said = exc.format_message()
        if exc.ctx is not None:
            _fail(_("{error} (see `{command} --help`)").format(error=said, command=exc.ctx.command_path),
                  exc.exit_code)
        _fail(said, exc.exit_code)
    except click.ClickException as exc:
        with click_words():
            said = exc.format_message()
        _fail(said, exc.exit_code)
    except (click.Abort, KeyboardInterrupt):
        _fail(_("cancelled"), EXIT_GAVE_UP)
    except (InputError, SolverError, PluginError, EnvironmentProblem) as exc:
        _fail_with(exc)
    except Exception as exc:  # a plugin's bug anywhere else: one line naming it, exit 4
        if os.environ.get("PUZZLE_ENGINE_DEBUG"):
            raise
        _fail(_unexpected(exc), EXIT_SOLVER_ERROR)


def _unexpected(exc: BaseException) -> str:
    """One line for an exception no command expected, naming the plugin whose code raised it
    (the innermost traceback frame in a plugin's package), or the engine."""
    modules = {}
    registry = loaded_registry()  # never load plugins just to word an error
    for info in (registry.plugins.values() if registry else ()):
        package = (info.module or "").rsplit(".", 1)[0] if "." in (info.module or "") else info.module
        if package:
            modules[package] = info.name
    culprit = None
    for frame, _line in traceback.walk_tb(exc.__traceback__):
        name = frame.f_globals.get("__name__", "")
        for package, plugin in modules.items():
            if name == package or name.startswith(package + "."):
                culprit = plugin
    if culprit:
        return _("plugin {plugin} failed: {kind}: {error} (set PUZZLE_ENGINE_DEBUG=1 to see the "
                 "traceback)").format(plugin=repr(culprit), kind=type(exc).__name__, error=exc)
    return _("the puzzle engine failed: {kind}: {error} (set PUZZLE_ENGINE_DEBUG=1 to see the "
             "traceback)").format(kind=type(exc).__name__, error=exc)


if __name__ == "__main__":
    main()
