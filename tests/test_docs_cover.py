"""The docs cannot drift from the code: every hook, every engine module and every `puzzle`
command (the plugins' included) is named in the README or docs/*.md, and the built-in plugins
import only what docs/plugins.md lists as the public API.

Every list is discovered from the code (the hook specifications, the modules on disk, the Click
command tree after every installed plugin added its commands), so a new hook, module or command
fails here until its docs are written. In the style of datasette's
``test_plugin_hooks_are_documented``.
"""

from __future__ import annotations

import ast
import pkgutil
import re
from pathlib import Path

import click
import pytest

import engine
from engine import hookspecs
from engine.cli import cli
from engine.plugins import load_registry

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TEXT = "\n".join(path.read_text() for path in DOCS)
PLUGIN_GUIDE = (ROOT / "docs" / "plugins.md").read_text()


def _hooks() -> list[str]:
    marker = f"{hookspecs.PROJECT}_spec"  # what pluggy's HookspecMarker sets on each spec
    return sorted(name for name, value in vars(hookspecs).items() if hasattr(value, marker))


def _engine_modules() -> list[str]:
    return sorted(info.name for info in pkgutil.walk_packages(engine.__path__, "engine.")
                  if not any(part.startswith("_") for part in info.name.split(".")))


def _commands() -> list[str]:
    # A copy of the group, so adding the plugins' commands leaves the real `cli` as it was.
    group = click.Group("puzzle", commands=dict(cli.commands))
    registry = load_registry()
    registry.add_commands(group)
    assert not [p.error for p in registry.failures()], "a plugin failed: its commands are missing"

    def walk(command: click.Command, path: str) -> list[str]:
        found = [path]
        for name, sub in getattr(command, "commands", {}).items():
            found += walk(sub, f"{path} {name}")
        return found

    return walk(group, "puzzle")[1:]


def _is_named(module: str) -> bool:
    """Its dotted name or its path anywhere; or, for ``engine.pkg.sub``, one line naming the
    package's folder and the file (as the module table in docs/architecture.md does)."""
    path = module.replace(".", "/")
    if re.search(rf"`{re.escape(module)}[`.(]", TEXT) or f"{path}.py" in TEXT or f"{path}/" in TEXT:
        return True
    package, _, leaf = path.rpartition("/")
    return any(f"{package}/" in line and f"`{leaf}.py`" in line for line in TEXT.splitlines())


def test_the_lists_are_discovered():
    # The discovery itself must find what is known to exist, or every test below passes on nothing.
    assert {"register_puzzles", "register_commands"} <= set(_hooks())
    assert {"engine.solving", "engine.jobs", "engine.conformance.laws"} <= set(_engine_modules())
    assert {"puzzle solve", "puzzle serve", "puzzle pegs count"} <= set(_commands())


@pytest.mark.parametrize("hook", _hooks())
def test_every_hook_is_documented_in_the_plugin_guide(hook):
    # The hook reference table in docs/plugins.md has one row per hook: `hook(arguments)`.
    assert re.search(rf"^\| `{hook}\(", PLUGIN_GUIDE, re.M), f"docs/plugins.md has no row for {hook}"


@pytest.mark.parametrize("module", _engine_modules())
def test_every_engine_module_is_documented(module):
    assert _is_named(module), (f"{module} is named nowhere in README.md or docs/*.md "
                               "(add it to the module table in docs/architecture.md)")


@pytest.mark.parametrize("command", _commands())
def test_every_command_is_documented(command):
    assert re.search(rf"`{re.escape(command)}[` ]", TEXT) or f"    {command} " in TEXT, (
        f"`{command}` is named nowhere in README.md or docs/*.md")


# -- what a plugin may import ------------------------------------------------------------------

def _public_api() -> dict[str, set[str]]:
    """The section of docs/plugins.md that lists what a plugin may import: module -> names."""
    section = PLUGIN_GUIDE.split("### What a plugin may import", 1)[1].split("\n#", 1)[0]
    allowed: dict[str, set[str]] = {}
    for item in re.split(r"\n(?=- )", section):  # one bullet, continuation lines included
        found = re.match(r"- `from (engine[\w.]*) import`(.*)", item.split("\n\n")[0], re.S)
        if found:
            allowed[found.group(1)] = set(re.findall(r"`(\w+)`", found.group(2)))
    return allowed


def test_the_listed_public_api_is_exactly_what_engine_exports():
    allowed = _public_api()
    assert set(allowed) == {"engine", "engine.conformance"}, allowed
    assert allowed["engine"] == set(engine.__all__)
    import engine.conformance as conformance
    assert allowed["engine.conformance"] <= set(vars(conformance)), allowed["engine.conformance"]


def _engine_imports(path: Path) -> list[tuple[str, str]]:
    """(module, name) for every import of the engine in one file; name is "" for `import x`."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "engine":
            found += [(node.module or "", alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, "") for alias in node.names if alias.name.split(".")[0] == "engine"]
    return found


PLUGIN_FILES = sorted(p for base in (ROOT / "plugins", ROOT / "examples") for p in base.rglob("*.py")
                      if ".venv" not in p.parts and "build" not in p.parts)


def test_the_built_in_plugins_import_only_the_public_api():
    allowed = _public_api()
    assert PLUGIN_FILES, "no plugin source found"
    wrong = []
    for path in PLUGIN_FILES:
        is_test = "tests" in path.parts or path.name.startswith("test_")
        for module, name in _engine_imports(path):
            ok = module in allowed and name in allowed[module] and (is_test or module == "engine")
            if not ok:
                wrong.append(f"{path.relative_to(ROOT)}: {module} {name}".rstrip())
    assert not wrong, "imports outside the public API (docs/plugins.md, section 1):\n" + "\n".join(wrong)
