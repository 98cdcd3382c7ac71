"""Plugin loading and the registry of puzzles, solvers, renderers and tasks.

Each entry point is loaded on its own, and each plugin's registration hooks are called on their
own, so one broken plugin (raising on import or at registration) is recorded with its error and
skipped; the others still work. ``PUZZLE_ENGINE_PLUGINS`` (a comma-separated list of entry-point
names) restricts which puzzle plugins load.

Ownership: the plugin that registers a puzzle *owns* it. The registry keeps who registered what
in its own tables (it never writes onto plugin objects, so frozen dataclasses and classes with
``__slots__`` work). A puzzle's solvers and renderers are listed owner's first, in the order the
owner registered them, then other plugins' ones, by plugin name and then registration order.
The default solver and renderer are the owner's first ones; another plugin's can be chosen by
name but never becomes the default, whatever its plugin is called.

Slow imports: each plugin's import time is recorded (``PluginInfo.import_seconds``). An import
that has not finished after ``PUZZLE_ENGINE_IMPORT_TIMEOUT`` seconds (default 10; ``0`` waits
for ever) is recorded as a failure and left out, so one hanging plugin cannot stall the CLI or
the web app's start.

Compatibility: before a plugin is imported, the ``Requires-Dist: puzzle-engine ...`` range in its
distribution's metadata is compared with the running host (:mod:`engine.compat`); a plugin the
host falls outside of is not imported at all and is listed with one line saying what it needs
and what is running. Deprecation warnings that pluggy raises while registering a plugin (a hook
spec's ``warn_on_impl``) are raised again with the plugin's name and kept on its
:class:`PluginInfo`.
"""

from __future__ import annotations

import os
import threading
import time
import traceback
import warnings
from dataclasses import dataclass, field
from importlib import metadata
from importlib import util as import_util
from typing import Any, Callable, Iterable

import pluggy

from . import hookspecs
from .compat import HOST_DISTRIBUTION, incompatibility, needs_words
from .contract import Puzzle, Renderer, Solver, Task
from .errors import InputError, UnknownPuzzle
from .i18n import _

#: Entry-point group of puzzle plugins (built-in ones too).
PLUGIN_GROUP = "puzzle_engine"
#: Entry-point group of plugins that only add commands (the web app); not restricted by the
#: environment variable, so restricting puzzles never removes ``puzzle serve``.
COMMAND_GROUP = "puzzle_engine_commands"
ENV_RESTRICT = "PUZZLE_ENGINE_PLUGINS"
#: Seconds to wait for one plugin's import before leaving it out (0: no limit).
ENV_IMPORT_TIMEOUT = "PUZZLE_ENGINE_IMPORT_TIMEOUT"
DEFAULT_IMPORT_TIMEOUT = 10.0
#: Imports slower than this are reported by ``puzzle serve`` at start.
SLOW_IMPORT_SECONDS = 2.0


@dataclass
class PluginInfo:
    """What ``puzzle plugins`` and the plugins page show about one plugin."""

    name: str
    module: str
    version: str | None = None
    distribution: str | None = None
    hooks: list[str] = field(default_factory=list)
    error: str | None = None  # why it failed to load or register, if it did
    import_seconds: float | None = None  # None: not imported through an entry point
    #: Set when the plugin's declared puzzle-engine range leaves the running host out, e.g.
    #: "needs puzzle-engine<0.1, this is 0.2.0"; the plugin is then not imported at all.
    needs: str | None = None
    #: Warnings raised while registering it (deprecated hooks), each naming the plugin.
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def slow(self) -> bool:
        """True if importing it took longer than :data:`SLOW_IMPORT_SECONDS`."""
        return self.import_seconds is not None and self.import_seconds > SLOW_IMPORT_SECONDS

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "module": self.module,
            "version": self.version,
            "distribution": self.distribution,
            "hooks": list(self.hooks),
            "error": self.error,
            "import_seconds": None if self.import_seconds is None else round(self.import_seconds, 3),
            "needs": self.needs,
            "warnings": list(self.warnings),
        }

    def notice(self) -> str:
        """The one line that listings show for a plugin that is not working."""
        if self.needs:
            return _("plugin {name} is not loaded: it {needs}").format(name=self.name, needs=needs_words(self.needs))
        return _("plugin {name} failed to load: {error}").format(name=self.name, error=self.error)


@dataclass(frozen=True)
class _Entry:
    """One registered solver or renderer and the plugin that registered it."""

    obj: Any
    plugin: str
    seq: int  # registration order, for a stable order within one plugin


def _describe(exc: BaseException) -> str:
    """One line for a plugin failure: the exception and the innermost real source line."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<")]
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


class Registry:
    """Which puzzles are installed, which solvers and renderers each one has, and who owns them."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.plugins: dict[str, PluginInfo] = {}
        self.puzzles: dict[str, Puzzle] = {}
        self._puzzle_owner: dict[str, str] = {}
        self._solvers: dict[str, list[_Entry]] = {}
        self._renderers: dict[str, list[_Entry]] = {}
        self._tasks: dict[str, list[_Entry]] = {}
        self._seq = 0

    # -- building ----------------------------------------------------------------------------

    def add_plugin(self, name: str, module: Any, *, version: str | None = None, distribution: str | None = None,
                   import_seconds: float | None = None) -> PluginInfo:
        """Register a loaded plugin module (or object) under ``name``; used by tests too."""
        info = PluginInfo(name=name, module=getattr(module, "__name__", repr(module)),
                          version=version, distribution=distribution, import_seconds=import_seconds)
        self.plugins[name] = info
        try:
            # pluggy warns (a spec's warn_on_impl) when a plugin implements a deprecated hook;
            # its message names the hook, not the plugin, so it is raised again naming both.
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                self.pm.register(module, name=name)
                self.pm.check_pending()
        except Exception as exc:  # a broken plugin must not take the host down
            info.error = f"rejected by the plugin manager: {_describe(exc)}"
            if self.pm.is_registered(module):
                self.pm.unregister(module)
            return info
        for warning in caught:
            text = f"plugin {name}: {warning.message}"
            info.warnings.append(text)
            warnings.warn(text, warning.category, stacklevel=2)
        info.hooks = sorted(impl.name for impl in self.pm.get_hookcallers(module) or [])
        return info

    def record_failure(self, name: str, module: str, error: str, *, version: str | None = None,
                       distribution: str | None = None, import_seconds: float | None = None,
                       needs: str | None = None) -> PluginInfo:
        """Record a plugin that could not be loaded at all (its import failed or hung, or its
        declared puzzle-engine range leaves this host out: ``needs``)."""
        info = PluginInfo(name=name, module=module, version=version, distribution=distribution,
                          error=error, import_seconds=import_seconds, needs=needs)
        self.plugins[name] = info
        return info

    def collect(self) -> None:
        """Call every plugin's registration hooks, one plugin at a time.

        Puzzles first (so every puzzle's owner is known before any solver or renderer arrives),
        each hook's plugins in name order, so the outcome never depends on install order.
        """
        self._call_each("register_puzzles", self._add_puzzle)
        self._call_each("register_solvers", self._add_solver)
        self._call_each("register_renderers", self._add_renderer)
        self._call_each("register_tasks", self._add_task)

    def _call_each(self, hook_name: str, add: Callable[[Any, str], None]) -> None:
        caller = getattr(self.pm.hook, hook_name)
        for impl in sorted(caller.get_hookimpls(), key=lambda i: i.plugin_name):
            name = impl.plugin_name
            info = self.plugins.get(name)
            if info is not None and info.error:
                continue
            try:
                impl.function(register=lambda obj, _n=name: add(obj, _n))
            except Exception as exc:
                self._fail(name, f"{hook_name} raised {_describe(exc)}")

    def add_commands(self, cli: Any) -> None:
        """Let every plugin add its commands to ``cli``, one plugin at a time.

        A plugin whose ``register_commands`` raises is recorded as failed; the others' commands
        are still added.
        """
        for impl in self.pm.hook.register_commands.get_hookimpls():
            try:
                impl.function(cli=cli)
            except Exception as exc:
                self._fail(impl.plugin_name, f"register_commands raised {_describe(exc)}")

    def _fail(self, plugin_name: str, error: str) -> None:
        info = self.plugins.setdefault(plugin_name, PluginInfo(name=plugin_name, module="?"))
        info.error = error if not info.error else f"{info.error}; {error}"
        # Drop whatever the broken plugin registered, so nothing half-registered is served.
        for pid in [p for p, owner in self._puzzle_owner.items() if owner == plugin_name]:
            del self.puzzles[pid]
            del self._puzzle_owner[pid]
        for table in (self._solvers, self._renderers, self._tasks):
            for pid, entries in table.items():
                table[pid] = [e for e in entries if e.plugin != plugin_name]

    def _add_puzzle(self, puzzle: Any, plugin: str) -> None:
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"register_puzzles got {puzzle!r}, not an engine.Puzzle")
        pid = getattr(puzzle, "id", None)
        if not isinstance(pid, str) or not pid.replace("-", "").replace("_", "").isalnum():
            raise ValueError(f"puzzle id {pid!r} is not a URL-safe word")
        if pid in self.puzzles:
            raise ValueError(f"puzzle id {pid!r} is already registered by plugin "
                             f"{self._puzzle_owner.get(pid, '?')}")
        self.puzzles[pid] = puzzle
        self._puzzle_owner[pid] = plugin

    def _add_entry(self, table: dict[str, list[_Entry]], obj: Any, plugin: str, kind: str) -> None:
        entries = table.setdefault(obj.puzzle_id, [])
        clash = next((e for e in entries if e.obj.name == obj.name), None)
        if clash is not None:
            owner = self._puzzle_owner.get(obj.puzzle_id)
            if plugin == owner and clash.plugin != owner:
                # The owner's name wins: the other plugin took it first only by sorting first.
                self._fail(clash.plugin, f"its {kind} {obj.name!r} for {obj.puzzle_id!r} has the "
                                         f"name of one that {owner}, the puzzle's owner, registers")
                entries = table[obj.puzzle_id]
            else:
                raise ValueError(f"{kind} {obj.name!r} for {obj.puzzle_id!r} is registered twice"
                                 + (f" (first by plugin {clash.plugin})" if clash.plugin != plugin else ""))
        self._seq += 1
        entries.append(_Entry(obj, plugin, self._seq))

    def _add_solver(self, solver: Any, plugin: str) -> None:
        if not isinstance(solver, Solver):
            raise TypeError(f"register_solvers got {solver!r}, not an engine.Solver")
        self._add_entry(self._solvers, solver, plugin, "solver")

    def _add_renderer(self, renderer: Any, plugin: str) -> None:
        if not isinstance(renderer, Renderer):
            raise TypeError(f"register_renderers got {renderer!r}, not an engine.Renderer")
        self._add_entry(self._renderers, renderer, plugin, "renderer")

    def _add_task(self, task: Any, plugin: str) -> None:
        if not isinstance(task, Task):
            raise TypeError(f"register_tasks got {task!r}, not an engine.Task")
        name = getattr(task, "name", None)
        if not isinstance(name, str) or not name.replace("-", "").replace("_", "").isalnum():
            raise ValueError(f"task name {name!r} is not a URL-safe word")
        label = getattr(task, "label", None)
        if not isinstance(label, str) or not label.strip():
            raise ValueError(f"task {name!r} has no label (the text of its button)")
        self._add_entry(self._tasks, task, plugin, "task")

    # -- ownership ---------------------------------------------------------------------------

    def owner(self, puzzle_id: str) -> str | None:
        """The name of the plugin that registered the puzzle (None if it is not installed)."""
        return self._puzzle_owner.get(puzzle_id)

    def plugin_of(self, obj: Any) -> str | None:
        """The name of the plugin that registered this puzzle, solver or renderer object."""
        for pid, puzzle in self.puzzles.items():
            if puzzle is obj:
                return self._puzzle_owner[pid]
        for table in (self._solvers, self._renderers, self._tasks):
            for entries in table.values():
                for e in entries:
                    if e.obj is obj:
                        return e.plugin
        return None

    def provided_by(self, plugin_name: str) -> list[str]:
        """What a plugin registered, as short lines: ``puzzle p``, ``solver p/name``, ``renderer p/name``."""
        return [f"{kind} {name}" for kind, name in self.provided(plugin_name)]

    def provided(self, plugin_name: str) -> list[tuple[str, str]]:
        """What a plugin registered, as (kind, id) pairs: ``("puzzle", "p")``, ``("solver",
        "p/name")``, ``("renderer", "p/name")``, ``("task", "p/name")``. The kind is a fixed word
        a page can translate; the id is a machine name and stays as it is."""
        found = [("puzzle", pid) for pid, owner in sorted(self._puzzle_owner.items()) if owner == plugin_name]
        for kind, table in (("solver", self._solvers), ("renderer", self._renderers), ("task", self._tasks)):
            for pid in sorted(table):
                found += [(kind, f"{pid}/{e.obj.name}") for e in self._ordered(table, pid)
                          if e.plugin == plugin_name]
        return found

    def _ordered(self, table: dict[str, list[_Entry]], puzzle_id: str) -> list[_Entry]:
        """Entries of an installed puzzle: the owner's in registration order, then the others'."""
        if puzzle_id not in self.puzzles:
            return []
        owner = self._puzzle_owner.get(puzzle_id)
        return sorted(table.get(puzzle_id, []),
                      key=lambda e: (e.plugin != owner, e.plugin if e.plugin != owner else "", e.seq))

    # -- queries -----------------------------------------------------------------------------

    def puzzle(self, puzzle_id: str) -> Puzzle:
        """The puzzle with this id; UnknownPuzzle (an InputError) listing the installed ones if there is none."""
        try:
            return self.puzzles[puzzle_id]
        except (KeyError, TypeError):
            known = ", ".join(sorted(self.puzzles)) or "none"
            failed = ", ".join(p.name for p in self.failures())
            hint = (_("; plugins that failed to load: {failed} (see `puzzle plugins`)").format(failed=failed)
                    if failed else "")
            raise UnknownPuzzle(_("unknown puzzle {name}; installed puzzles: {known}{hint}").format(
                name=repr(puzzle_id), known=known, hint=hint)) from None

    def solvers(self, puzzle_id: str) -> list[Solver]:
        """Solvers for the puzzle: the owner's first (the first is the default), then others'."""
        return [e.obj for e in self._ordered(self._solvers, puzzle_id)]

    def solver(self, puzzle_id: str, name: str | None = None) -> Solver:
        """The named solver (None: the default); InputError if there is no such solver."""
        return self._pick(self._solvers, "solver", puzzle_id, name)

    def renderers(self, puzzle_id: str) -> list[Renderer]:
        """Renderers for the puzzle: the owner's first (the first is the default), then others'."""
        return [e.obj for e in self._ordered(self._renderers, puzzle_id)]

    def renderer(self, puzzle_id: str, name: str | None = None) -> Renderer:
        """The named renderer (None: the default); InputError if there is no such renderer."""
        return self._pick(self._renderers, "renderer", puzzle_id, name)

    def tasks(self, puzzle_id: str) -> list[Task]:
        """Tasks for the puzzle: the owner's first (in registration order), then others'."""
        return [e.obj for e in self._ordered(self._tasks, puzzle_id)]

    def task(self, puzzle_id: str, name: Any) -> Task:
        """The named task of the puzzle; InputError naming the puzzle's tasks if there is none."""
        puzzle = self.puzzle(puzzle_id)
        tasks = self.tasks(puzzle.id)
        if not isinstance(name, str) or not name:
            raise InputError("name the task (its name, e.g. from /api/<puzzle>/tasks)", where="task")
        for task in tasks:
            if task.name == name:
                return task
        has = f"its tasks: {', '.join(t.name for t in tasks)}" if tasks else "it has none"
        raise InputError(f"{puzzle.title} has no task {name[:40]!r} ({has})", where="task")

    def _pick(self, table: dict[str, list[_Entry]], kind: str, puzzle_id: str, name: str | None) -> Any:
        entries = self._ordered(table, self.puzzle(puzzle_id).id)
        if not entries:
            raise InputError((_("no solver is installed for {puzzle}") if kind == "solver"
                              else _("no renderer is installed for {puzzle}")).format(puzzle=repr(puzzle_id)))
        if name is None:
            owner = self._puzzle_owner[puzzle_id]
            if entries[0].plugin != owner:
                names = ", ".join(e.obj.name for e in entries)
                raise InputError(f"{puzzle_id!r} has no default {kind}: its plugin {owner} registers "
                                 f"none, and another plugin's never becomes the default; name one of: {names}")
            return entries[0].obj
        for e in entries:
            if e.obj.name == name:
                return e.obj
        names = ", ".join(e.obj.name for e in entries)
        said = (_("unknown solver {name} for {puzzle}; choose one of: {names}") if kind == "solver"
                else _("unknown renderer {name} for {puzzle}; choose one of: {names}"))
        raise InputError(said.format(name=repr(name), puzzle=repr(puzzle_id), names=names))

    def failures(self) -> list[PluginInfo]:
        """The plugins that failed to load or register (incompatible ones too), by name."""
        return sorted((p for p in self.plugins.values() if not p.ok), key=lambda p: p.name)

    def incompatible(self) -> list[PluginInfo]:
        """The plugins left out because their puzzle-engine range leaves this host out."""
        return [p for p in self.failures() if p.needs]

    def slow_plugins(self) -> list[PluginInfo]:
        """Plugins whose import took longer than :data:`SLOW_IMPORT_SECONDS`, by name."""
        return sorted((p for p in self.plugins.values() if p.slow), key=lambda p: p.name)


def startup_warnings(registry: Registry) -> list[str]:
    """One line per failed or slow plugin, for a server to log when it starts."""
    lines = [p.notice() if p.needs else f"plugin {p.name} failed to load and is left out: {p.error}"
             for p in registry.failures()]
    lines += [text for p in sorted(registry.plugins.values(), key=lambda p: p.name) for text in p.warnings]
    lines += shadowing_warnings()
    lines += [f"plugin {p.name} took {p.import_seconds:.1f} s to import (over {SLOW_IMPORT_SECONDS:g} s); "
              f"every worker pays this at start (exclude it with {ENV_RESTRICT})"
              for p in registry.slow_plugins()]
    return lines


def _restriction() -> set[str] | None:
    raw = os.environ.get(ENV_RESTRICT)
    if raw is None or not raw.strip():
        return None
    return {part.strip() for part in raw.split(",") if part.strip()}


def import_timeout() -> float | None:
    """Seconds to wait for one plugin's import (``PUZZLE_ENGINE_IMPORT_TIMEOUT``); None: no limit."""
    raw = os.environ.get(ENV_IMPORT_TIMEOUT, "").strip()
    if not raw:
        return DEFAULT_IMPORT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        return DEFAULT_IMPORT_TIMEOUT
    return value if value > 0 else None


def _entry_points(group: str) -> Iterable[metadata.EntryPoint]:
    return sorted(metadata.entry_points(group=group), key=lambda ep: ep.name)


class _ImportTimeout(Exception):
    pass


def _load(ep: metadata.EntryPoint, timeout: float | None) -> Any:
    """``ep.load()``, but give up waiting after ``timeout`` seconds.

    The import runs in a daemon thread: Python cannot stop an import half way, so a hanging one
    goes on in the background (and dies with the process) while the host carries on without it.
    """
    if timeout is None:
        return ep.load()
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["module"] = ep.load()
        except BaseException as exc:  # handed back to the loading thread below
            result["error"] = exc

    thread = threading.Thread(target=run, name=f"import plugin {ep.name}", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise _ImportTimeout(f"its import did not finish within {timeout:g} s "
                             f"({ENV_IMPORT_TIMEOUT}); left out while it goes on in the background")
    if "error" in result:
        raise result["error"]
    return result["module"]


def load_registry(extra: Iterable[tuple[str, Any]] = ()) -> Registry:
    """Load every installed plugin (honouring ``PUZZLE_ENGINE_PLUGINS``) into a new Registry.

    ``extra`` adds (name, module) pairs without entry points, as tests do.
    """
    registry = Registry()
    allowed = _restriction()
    timeout = import_timeout()
    for group in (PLUGIN_GROUP, COMMAND_GROUP):
        for ep in _entry_points(group):
            if group == PLUGIN_GROUP and allowed is not None and ep.name not in allowed:
                continue
            if ep.name in registry.plugins:
                continue  # the same plugin installed twice: the first one wins
            dist = getattr(ep, "dist", None)
            version = dist.version if dist else None
            dist_name = dist.metadata["Name"] if dist else None
            needs = incompatibility(dist)
            if needs is not None:  # never imported: its code may not even run on this host
                registry.record_failure(ep.name, ep.value, f"not loaded: it {needs}", version=version,
                                        distribution=dist_name, needs=needs)
                continue
            started = time.perf_counter()
            try:
                module = _load(ep, timeout)
            except _ImportTimeout as exc:
                registry.record_failure(ep.name, ep.value, f"failed to import: {exc}", version=version,
                                        distribution=dist_name, import_seconds=time.perf_counter() - started)
                continue
            except Exception as exc:
                registry.record_failure(ep.name, ep.value,
                                        f"failed to import: {_describe(exc)}{_shadow_hint(ep.value, exc)}",
                                        version=version, distribution=dist_name,
                                        import_seconds=time.perf_counter() - started)
                continue
            registry.add_plugin(ep.name, module, version=version, distribution=dist_name,
                                import_seconds=time.perf_counter() - started)
    for name, module in extra:
        registry.add_plugin(name, module)
    registry.collect()
    return registry


#: The top-level packages the host installs. They are generic names that other distributions
#: use too (the old ``web.py`` framework installs ``web``); whichever comes first on
#: ``sys.path`` wins, and the other's modules go missing.
HOST_PACKAGES = ("engine", "plugins", "web")


def _others_owning(top: str) -> list[str]:
    """Distributions other than the host that install the top-level package ``top``."""
    owned = metadata.packages_distributions().get(top, [])
    return sorted({d for d in owned if d.lower().replace("_", "-") != HOST_DISTRIBUTION})


def _shadow_hint(target: str, exc: BaseException | None = None) -> str:
    """Why an entry point's module may be missing: another package with the same top-level name.

    Both the entry point's own package and, for a ``ModuleNotFoundError``, the package of the
    module that was not found are looked at (a plugin fails on ``import engine.x`` when another
    ``engine`` shadows the host's).
    """
    tops = [target.split(":")[0].split(".")[0]]
    missing = getattr(exc, "name", None) if isinstance(exc, ImportError) else None
    if missing:
        tops.append(missing.split(".")[0])
    for top in dict.fromkeys(t for t in tops if t):
        others = _others_owning(top)
        if not others:
            continue
        try:
            spec = import_util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        origin = getattr(spec, "origin", None) or ""
        return (f" (the top-level package {top!r} here is {origin or 'another package'}, installed by "
                f"{', '.join(others)}; it shadows this plugin's: uninstall it or use a separate "
                f"virtual environment)")
    return ""


def shadowing_warnings() -> list[str]:
    """One line per host package (engine, plugins, web) that another distribution also installs."""
    lines = []
    for top in HOST_PACKAGES:
        others = _others_owning(top)
        if others:
            lines.append(f"the top-level package {top!r} is also installed by {', '.join(others)}: one "
                         f"shadows the other, so parts of the puzzle engine may go missing (uninstall "
                         f"{others[0]} or use a separate virtual environment)")
    return lines


_default: Registry | None = None


def get_registry() -> Registry:
    """The process-wide registry, loaded on first use."""
    global _default
    if _default is None:
        _default = load_registry()
    return _default


def loaded_registry() -> Registry | None:
    """The process-wide registry if it has been loaded, without loading it."""
    return _default
