"""``puzzle install``, ``puzzle uninstall`` and ``puzzle plugins --requirements``.

They work on the environment of the running ``puzzle`` (``sys.executable``), through
``python -m pip``, or ``uv pip`` where the environment has no pip (``uv tool`` environments).
Three rules:

- The host cannot move. Every install gets a constraints file pinning ``puzzle-engine`` to the
  running version, so a plugin can never upgrade, downgrade or replace it; the installer then
  refuses, and this says so in one sentence.
- Plugins are never loaded here. A plugin that raises on import, hangs or ends the process must
  not stop the commands that remove it; what a new distribution registers is read by loading
  the plugins in a child process, after the install is done.
- The installed set can be restored: ``puzzle plugins --requirements`` prints requirement lines
  read from the distributions' metadata alone.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from importlib import metadata
from importlib import util as import_util
from pathlib import Path
from typing import Any, NoReturn

import click
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from .cli_help import TranslatedCommand
from .compat import HOST_DISTRIBUTION, host_version, needs_words
from .i18n import ENGINE, N_, _, format_number

#: Entry-point groups that make a distribution a puzzle-engine plugin.
GROUPS = ("puzzle_engine", "puzzle_engine_commands")
#: Commands that must run without loading any plugin.
_MANAGEMENT = {"install", "uninstall"}
EXIT_OK, EXIT_INSTALLER_FAILED, EXIT_BAD_INPUT, EXIT_ENVIRONMENT = 0, 1, 2, 5
#: Seconds the child process that loads the plugins after an install may take.
REPORT_TIMEOUT = 120


def needs_no_plugins(args: list[str]) -> bool:
    """True for the command lines that must not load plugins (install, uninstall, requirements)."""
    words = [a for a in args if not a.startswith("-")]
    if not words:
        return False
    return words[0] in _MANAGEMENT or (words[0] == "plugins" and "--requirements" in args)


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    click.echo(_("error: {message}").format(message=message), err=True)
    sys.exit(code)


# -- the installer -------------------------------------------------------------------------------


def installer() -> tuple[str, list[str]]:
    """(name, command prefix) of the installer for this environment: pip, else ``uv pip``."""
    if import_util.find_spec("pip") is not None:
        return "pip", [sys.executable, "-m", "pip"]
    uv = shutil.which("uv")
    if uv:
        return "uv", [uv, "pip"]
    _fail(_("this environment has neither pip nor uv: add pip (`python -m ensurepip`) or install uv"),
          EXIT_ENVIRONMENT)


def _installed() -> dict[str, str]:
    """Every distribution in this environment: canonical name -> version (first one found)."""
    found: dict[str, str] = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            found.setdefault(canonicalize_name(name), dist.version)
    return found


# -- which distributions the arguments name -------------------------------------------------------


def _name_of_path(path: Path) -> str | None:
    """The distribution a wheel, sdist or source folder holds, from its file name or pyproject."""
    if path.is_dir():
        try:
            project = tomllib.loads((path / "pyproject.toml").read_text()).get("project", {})
        except (OSError, tomllib.TOMLDecodeError):
            return None
        name = project.get("name")
        return canonicalize_name(name) if isinstance(name, str) else None
    if path.name.endswith(".whl"):
        return canonicalize_name(path.name.split("-")[0])
    for suffix in (".tar.gz", ".zip"):
        if path.name.endswith(suffix):
            return canonicalize_name(path.name[: -len(suffix)].rsplit("-", 1)[0])
    return None


def _name_of(argument: str) -> str | None:
    """The distribution an install argument names, or None when that cannot be told (a URL)."""
    path = Path(argument)
    if path.exists():
        return _name_of_path(path)
    try:
        return canonicalize_name(Requirement(argument).name)
    except InvalidRequirement:
        return None


def _names_in_file(path: Path, seen: set[Path] | None = None) -> list[str | None]:
    """The distributions a requirements file names (``-r`` inside it followed, options skipped)."""
    seen = seen if seen is not None else set()
    if path.resolve() in seen:
        return []
    seen.add(path.resolve())
    names: list[str | None] = []
    for raw in path.read_text().splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if not line:
            continue
        if line.startswith(("-r ", "--requirement ")):
            names += _names_in_file(path.parent / line.split(None, 1)[1], seen)
        elif line.startswith(("-e ", "--editable ")):
            target = line.split(None, 1)[1]
            names.append(_name_of(str(path.parent / target)) if not re.match(r"\w+\+?\w*://", target)
                         else None)
        elif not line.startswith("-"):
            names.append(_name_of(line))
    return names


def requested_names(packages: tuple[str, ...], editables: tuple[str, ...],
                    requirement_files: tuple[str, ...]) -> list[str | None]:
    """What each argument names (None where it cannot be told)."""
    names = [_name_of(a) for a in (*packages, *editables)]
    for file in requirement_files:
        names += _names_in_file(Path(file))
    return names


# -- after an install: what the new distributions registered --------------------------------------


def _refusal(output: str, host: str) -> str | None:
    """The one sentence for an install the host pin refused, from pip's or uv's own words."""
    # pip: "toy 0.1.0 depends on puzzle-engine==99"; uv: "toy==0.1.0 depends on puzzle-engine==99".
    wants = re.findall(r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:==\S+|\s+\d\S*)?\s+depends on puzzle[-_.]engine\s*"
                       r"([<>=!~][^\s;,)]*(?:,\s*[<>=!~][^\s;,)]*)*)", output, flags=re.IGNORECASE)
    if not wants:
        if re.search(r"puzzle[-_.]engine", output, re.IGNORECASE) and re.search(
                r"ResolutionImpossible|conflict|unsatisfiable|No solution found", output, re.IGNORECASE):
            return _("the install would change {host} {version}, which a plugin may not do; "
                     "nothing was installed").format(host=HOST_DISTRIBUTION, version=host)
        return None
    who, spec = wants[-1]
    return _("{plugin} needs {host}{range}, but this is {host} {version} and a plugin may not change "
             "the host: nothing was installed").format(plugin=who, host=HOST_DISTRIBUTION,
                                                       range=spec.replace(" ", ""), version=host)


def _report() -> dict[str, Any]:
    """Load every plugin in a child process and say what each registered (None if it died)."""
    env = {k: v for k, v in os.environ.items() if k != "PUZZLE_ENGINE_PLUGINS"}  # see them all
    try:
        done = subprocess.run([sys.executable, "-m", "engine.installing"], capture_output=True, text=True,
                              env=env, timeout=REPORT_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"error": _("loading the plugins took over {seconds} s").format(
            seconds=format_number(REPORT_TIMEOUT))}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines()
                or [_("exit code {code}").format(code=done.returncode)])[-1]
        return {"error": _("loading the plugins failed ({error})").format(error=last[:200])}
    return json.loads(done.stdout)


def _report_main() -> None:
    """The child process of :func:`_report`: JSON on stdout."""
    from .plugins import load_registry

    registry = load_registry()
    dists: dict[str, dict[str, Any]] = {}
    for dist in metadata.distributions():
        name = canonicalize_name(dist.metadata["Name"] or "")
        if name and name not in dists:
            dists[name] = {"version": dist.version,
                           "entry_points": sorted({ep.name for ep in dist.entry_points if ep.group in GROUPS})}
    plugins = {p.name: {"distribution": canonicalize_name(p.distribution or ""), "error": p.error,
                        "needs": p.needs, "provides": registry.provided_by(p.name), "warnings": p.warnings}
               for p in registry.plugins.values()}
    json.dump({"host": host_version(), "distributions": dists, "plugins": plugins}, sys.stdout)


def _say_what_it_registered(name: str, version: str, report: dict[str, Any]) -> None:
    dist = report["distributions"].get(name, {})
    if not dist.get("entry_points"):
        click.echo(_("warning: {name} {version} has no puzzle_engine entry point, so it adds no puzzles, "
                     "solvers, renderers or tasks (is it a puzzle-engine plugin?)").format(
                         name=name, version=version), err=True)
        return
    for ep_name in dist["entry_points"]:
        plugin = report["plugins"].get(ep_name)
        if plugin is None or plugin["distribution"] != name:
            click.echo("    " + _("plugin {name}: another distribution's plugin of that name is loaded "
                                  "instead").format(name=ep_name))
        elif plugin["needs"]:
            click.echo("    " + _("plugin {name} is not loaded: it {needs}").format(
                name=ep_name, needs=needs_words(plugin["needs"])))
        elif plugin["error"]:
            click.echo("    " + _("plugin {name} FAILED to load: {error}").format(name=ep_name, error=plugin["error"]))
        elif plugin["provides"]:
            click.echo("    " + _("plugin {name} registers: {provides}").format(
                name=ep_name, provides=", ".join(plugin["provides"])))
        else:
            click.echo("    " + _("plugin {name} registers nothing (it adds commands or hooks only)").format(
                name=ep_name))
        for warning in (plugin or {}).get("warnings", []):
            click.echo("    " + _("warning: {warning}").format(warning=warning))


# -- the commands -------------------------------------------------------------------------------


def _refuse_the_host(names: list[str | None], verb: str) -> None:
    if HOST_DISTRIBUTION in names:
        _fail(_("`puzzle {command}` manages plugins, not {host} itself: reinstall the host with pip (the "
                "README says how to keep your plugins)").format(command=verb, host=HOST_DISTRIBUTION))


@click.command("install", cls=TranslatedCommand, catalogue=ENGINE, help=N_(
    "Install plugins into the environment of this `puzzle`, never changing the host.\n\n"
    "Uses pip (or `uv pip` where there is no pip) with a constraint pinning puzzle-engine to "
    "the running version, then says what each new distribution registered. Plugins are not "
    "loaded by this command itself, so a broken one cannot stop it. Installer settings "
    "(PIP_INDEX_URL, PIP_FIND_LINKS, UV_INDEX_URL, ...) apply as usual. Exit code 0 when "
    "installed, 1 when the installer failed, 2 for bad input or an install that would change "
    "the host."))
@click.argument("packages", nargs=-1, metavar="PKG|WHEEL|PATH...")
@click.option("-U", "--upgrade", is_flag=True, help=N_("Upgrade the named packages to their newest versions."))
@click.option("-e", "--editable", "editables", multiple=True, metavar="PATH",
              help=N_("Install the plugin in PATH in editable mode (repeatable)."))
@click.option("-r", "--requirement", "requirement_files", multiple=True, metavar="FILE",
              type=click.Path(exists=True, dir_okay=False),
              help=N_("Install the packages listed in FILE, e.g. from `puzzle plugins --requirements`."))
@click.option("--pre", is_flag=True, help=N_("Allow pre-release versions."))
def install_command(packages: tuple[str, ...], upgrade: bool, editables: tuple[str, ...],
                    requirement_files: tuple[str, ...], pre: bool) -> None:
    """``install``: its help (above) is what people read."""
    if not (packages or editables or requirement_files):
        _fail(_("name what to install: a package, a wheel, a folder, -e PATH or -r FILE"))
    names = requested_names(packages, editables, requirement_files)
    _refuse_the_host(names, "install")
    tool, prefix = installer()
    host = host_version()
    before = _installed()
    with tempfile.TemporaryDirectory(prefix="puzzle-install-") as tmp:
        constraints = Path(tmp) / "constraints.txt"
        # The pin that keeps the host where it is, whatever a plugin's dependencies say.
        constraints.write_text(f"{HOST_DISTRIBUTION}=={host}\n")
        command = [*prefix, "install", "-c", str(constraints)]
        if tool == "uv":
            command += ["--python", sys.executable] + (["--prerelease", "allow"] if pre else [])
        elif pre:
            command.append("--pre")
        command += ["--upgrade"] if upgrade else []
        for file in requirement_files:
            command += ["-r", file]
        for path in editables:
            command += ["-e", path]
        command += list(packages)
        output = _run_streaming(command)
        if output.returncode != 0:
            sentence = _refusal(output.text, host)
            if sentence:
                _fail(sentence)
            _fail(_("{installer} could not install that (its output is above); the host is unchanged").format(
                installer=tool), EXIT_INSTALLER_FAILED)
    importlib.invalidate_caches()  # see what pip just wrote
    after = _installed()
    if after.get(HOST_DISTRIBUTION, host) != host:  # the pin makes this impossible; say so if it happens
        _fail(_("the install changed {host} from {before} to {after}").format(
            host=HOST_DISTRIBUTION, before=host, after=after[HOST_DISTRIBUTION]), EXIT_ENVIRONMENT)
    changed = {name for name, version in after.items() if before.get(name) != version}
    report = _report()
    named = {n for n in names if n}
    # Arguments whose name cannot be told (a URL): every changed distribution is reported.
    shown = (named | {n for n in changed if None in names}) & set(after)
    # Dependencies that are plugins too are reported; other dependencies are pip's business.
    shown |= {n for n in changed if report.get("distributions", {}).get(n, {}).get("entry_points")}
    for name in sorted(shown):
        if name in changed:
            click.echo(_("installed {name} {version}").format(name=name, version=after[name]))
        else:
            click.echo(_("already installed: {name} {version}").format(name=name, version=after[name]))
        if "error" not in report:
            _say_what_it_registered(name, after[name], report)
    if "error" in report:
        click.echo(_("warning: installed, but {error}: a plugin breaks every command that loads plugins; "
                     "`puzzle plugins --requirements` lists them and `puzzle uninstall` removes one without "
                     "loading any").format(error=report["error"]), err=True)


class _Output:
    def __init__(self, returncode: int, text: str) -> None:
        self.returncode, self.text = returncode, text


def _run_streaming(command: list[str]) -> _Output:
    """Run the installer, its output going to stderr as it comes and kept for reading."""
    lines = []
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   stdin=subprocess.DEVNULL)
    except OSError as exc:
        _fail(_("could not start {program}: {error}").format(program=command[0], error=exc), EXIT_ENVIRONMENT)
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line)
        click.echo(line.rstrip("\n"), err=True)
    return _Output(process.wait(), "".join(lines))


@click.command("uninstall", cls=TranslatedCommand, catalogue=ENGINE, help=N_(
    "Uninstall plugin distributions from the environment of this `puzzle`.\n\n"
    "Works whatever state the installed plugins are in: no plugin is loaded."))
@click.argument("packages", nargs=-1, required=True, metavar="PKG...")
@click.option("-y", "--yes", is_flag=True, help=N_("Do not ask for confirmation."))
def uninstall_command(packages: tuple[str, ...], yes: bool) -> None:
    """``uninstall``: its help (above) is what people read."""
    names = [_name_of(p) if not Path(p).exists() else _name_of_path(Path(p)) for p in packages]
    _refuse_the_host(names, "uninstall")
    bad = [p for p, n in zip(packages, names) if n is None]
    if bad:
        _fail(_("{name} is not a package name").format(name=repr(bad[0])))
    before = _installed()
    missing = [n for n in names if n not in before]
    for name in missing:
        click.echo(_("{name} is not installed here").format(name=name))
    present = [n for n in names if n in before and n is not None]
    if not present:
        return
    tool, prefix = installer()
    command = [*prefix, "uninstall"]
    if tool == "uv":  # uv never asks
        command += ["--python", sys.executable]
    elif yes:
        command.append("-y")
    done = subprocess.run([*command, *present])
    if done.returncode != 0:
        _fail(_("{installer} could not uninstall {names}").format(installer=tool, names=", ".join(present)),
              EXIT_INSTALLER_FAILED)
    after = _installed()
    for name in present:
        if name not in after:
            click.echo(_("uninstalled {name} {version}").format(name=name, version=before[name]))


def requirement_lines() -> list[str]:
    """``name==version`` for each installed plugin distribution (the host excluded), read from
    metadata only; an editable install is ``-e PATH`` and one from version control its URL,
    as ``pip freeze`` writes them. A wheel installed from a file notes where it came from."""
    lines: dict[str, str] = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"] or ""
        key = canonicalize_name(name)
        if not key or key == HOST_DISTRIBUTION or key in lines:
            continue
        if not any(ep.group in GROUPS for ep in dist.entry_points):
            continue
        lines[key] = _requirement_line(dist, name)
    return [lines[k] for k in sorted(lines)]


def _requirement_line(dist: metadata.Distribution, name: str) -> str:
    pinned = f"{name}=={dist.version}"
    try:
        direct = json.loads(dist.read_text("direct_url.json") or "{}")
    except (ValueError, OSError):
        direct = {}
    url = direct.get("url", "")
    if direct.get("dir_info", {}).get("editable") and url.startswith("file://"):
        return f"-e {url[len('file://'):]}"
    vcs = direct.get("vcs_info")
    if vcs:
        return f"{name} @ {vcs['vcs']}+{url}@{vcs.get('commit_id', '')}".rstrip("@")
    if url:
        return f"{pinned}  # installed from {url}"
    return pinned


#: The commands :mod:`engine.cli` adds to the ``puzzle`` group.
INSTALL_COMMANDS = (install_command, uninstall_command)


if __name__ == "__main__":  # the child process of puzzle install's report
    _report_main()
