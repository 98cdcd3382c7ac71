"""Plugin loading and the registry of puzzles, solvers and renderers.

Each entry point is loaded on its own, and each plugin's registration hooks are called on their
own, so one broken plugin (raising on import or at registration) is recorded with its error and
skipped; the others still work. ``PUZZLE_ENGINE_PLUGINS`` (a comma-separated list of entry-point
names) restricts which puzzle plugins load.
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Callable, Iterable

import pluggy

from . import hookspecs
from .contract import Puzzle, Renderer, Solver
from .errors import InputError

#: Entry-point group of puzzle plugins (built-in ones too).
PLUGIN_GROUP = "puzzle_engine"
#: Entry-point group of plugins that only add commands (the web app); not restricted by the
#: environment variable, so restricting puzzles never removes ``puzzle serve``.
COMMAND_GROUP = "puzzle_engine_commands"
ENV_RESTRICT = "PUZZLE_ENGINE_PLUGINS"


@dataclass
class PluginInfo:
    """What ``puzzle plugins`` and the plugins page show about one plugin."""

    name: str
    module: str
    version: str | None = None
    distribution: str | None = None
    hooks: list[str] = field(default_factory=list)
    error: str | None = None  # why it failed to load or register, if it did

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "module": self.module,
            "version": self.version,
            "distribution": self.distribution,
            "hooks": list(self.hooks),
            "error": self.error,
        }


def _describe(exc: BaseException) -> str:
    """One line for a plugin failure: the exception and the innermost real source line."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<")]
    where = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


class Registry:
    """Which puzzles are installed, and which solvers and renderers each one has."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.plugins: dict[str, PluginInfo] = {}
        self.puzzles: dict[str, Puzzle] = {}
        self._solvers: dict[str, dict[str, Solver]] = {}
        self._renderers: dict[str, dict[str, Renderer]] = {}

    # -- building ----------------------------------------------------------------------------

    def add_plugin(self, name: str, module: Any, *, version=None, distribution=None) -> PluginInfo:
        """Register a loaded plugin module (or object) under ``name``; used by tests too."""
        info = PluginInfo(name=name, module=getattr(module, "__name__", repr(module)),
                          version=version, distribution=distribution)
        self.plugins[name] = info
        try:
            self.pm.register(module, name=name)
            self.pm.check_pending()
        except Exception as exc:  # a broken plugin must not take the host down
            info.error = f"rejected by the plugin manager: {_describe(exc)}"
            if self.pm.is_registered(module):
                self.pm.unregister(module)
            return info
        info.hooks = sorted(impl.name for impl in self.pm.get_hookcallers(module) or [])
        return info

    def record_failure(self, name: str, module: str, error: str, *, version=None, distribution=None):
        self.plugins[name] = PluginInfo(name=name, module=module, version=version,
                                        distribution=distribution, error=error)

    def collect(self) -> None:
        """Call every plugin's registration hooks, one plugin at a time."""
        self._call_each("register_puzzles", self._add_puzzle)
        self._call_each("register_solvers", self._add_solver)
        self._call_each("register_renderers", self._add_renderer)

    def _call_each(self, hook_name: str, add: Callable[[Any, str], None]) -> None:
        caller = getattr(self.pm.hook, hook_name)
        for impl in caller.get_hookimpls():
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
        for pid in [p for p, pz in self.puzzles.items() if getattr(pz, "_plugin", None) == plugin_name]:
            del self.puzzles[pid]
        for table in (self._solvers, self._renderers):
            for objs in table.values():
                for key in [k for k, o in objs.items() if getattr(o, "_plugin", None) == plugin_name]:
                    del objs[key]

    def _add_puzzle(self, puzzle: Any, plugin: str) -> None:
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"register_puzzles got {puzzle!r}, not an engine.Puzzle")
        pid = getattr(puzzle, "id", None)
        if not isinstance(pid, str) or not pid.replace("-", "").replace("_", "").isalnum():
            raise ValueError(f"puzzle id {pid!r} is not a URL-safe word")
        if pid in self.puzzles:
            raise ValueError(f"puzzle id {pid!r} is already registered by plugin "
                             f"{getattr(self.puzzles[pid], '_plugin', '?')}")
        puzzle._plugin = plugin
        self.puzzles[pid] = puzzle

    def _add_solver(self, solver: Any, plugin: str) -> None:
        if not isinstance(solver, Solver):
            raise TypeError(f"register_solvers got {solver!r}, not an engine.Solver")
        table = self._solvers.setdefault(solver.puzzle_id, {})
        if solver.name in table:
            raise ValueError(f"solver {solver.name!r} for {solver.puzzle_id!r} is registered twice")
        solver._plugin = plugin
        table[solver.name] = solver

    def _add_renderer(self, renderer: Any, plugin: str) -> None:
        if not isinstance(renderer, Renderer):
            raise TypeError(f"register_renderers got {renderer!r}, not an engine.Renderer")
        table = self._renderers.setdefault(renderer.puzzle_id, {})
        if renderer.name in table:
            raise ValueError(f"renderer {renderer.name!r} for {renderer.puzzle_id!r} is registered twice")
        renderer._plugin = plugin
        table[renderer.name] = renderer

    # -- queries -----------------------------------------------------------------------------

    def puzzle(self, puzzle_id: str) -> Puzzle:
        """The puzzle with this id; InputError listing the installed ones if there is none."""
        try:
            return self.puzzles[puzzle_id]
        except (KeyError, TypeError):
            known = ", ".join(sorted(self.puzzles)) or "none"
            raise InputError(f"unknown puzzle {puzzle_id!r}; installed puzzles: {known}") from None

    def solvers(self, puzzle_id: str) -> list[Solver]:
        """Solvers for the puzzle, default first (only those whose puzzle is installed)."""
        if puzzle_id not in self.puzzles:
            return []
        return list(self._solvers.get(puzzle_id, {}).values())

    def solver(self, puzzle_id: str, name: str | None = None) -> Solver:
        """The named solver (None: the default); InputError if there is no such solver."""
        solvers = self.solvers(self.puzzle(puzzle_id).id)
        if not solvers:
            raise InputError(f"no solver is installed for {puzzle_id!r}")
        if name is None:
            return solvers[0]
        for s in solvers:
            if s.name == name:
                return s
        names = ", ".join(s.name for s in solvers)
        raise InputError(f"unknown solver {name!r} for {puzzle_id!r}; choose one of: {names}")

    def renderers(self, puzzle_id: str) -> list[Renderer]:
        if puzzle_id not in self.puzzles:
            return []
        return list(self._renderers.get(puzzle_id, {}).values())

    def renderer(self, puzzle_id: str, name: str | None = None) -> Renderer:
        """The named renderer (None: the default); InputError if there is no such renderer."""
        renderers = self.renderers(self.puzzle(puzzle_id).id)
        if not renderers:
            raise InputError(f"no renderer is installed for {puzzle_id!r}")
        if name is None:
            return renderers[0]
        for r in renderers:
            if r.name == name:
                return r
        names = ", ".join(r.name for r in renderers)
        raise InputError(f"unknown renderer {name!r} for {puzzle_id!r}; choose one of: {names}")

    def failures(self) -> list[PluginInfo]:
        return [p for p in self.plugins.values() if not p.ok]


def _restriction() -> set[str] | None:
    raw = os.environ.get(ENV_RESTRICT)
    if raw is None or not raw.strip():
        return None
    return {part.strip() for part in raw.split(",") if part.strip()}


def _entry_points(group: str) -> Iterable[metadata.EntryPoint]:
    return sorted(metadata.entry_points(group=group), key=lambda ep: ep.name)


def load_registry(extra: Iterable[tuple[str, Any]] = ()) -> Registry:
    """Load every installed plugin (honouring ``PUZZLE_ENGINE_PLUGINS``) into a new Registry.

    ``extra`` adds (name, module) pairs without entry points, as tests do.
    """
    registry = Registry()
    allowed = _restriction()
    for group in (PLUGIN_GROUP, COMMAND_GROUP):
        for ep in _entry_points(group):
            if group == PLUGIN_GROUP and allowed is not None and ep.name not in allowed:
                continue
            if ep.name in registry.plugins:
                continue  # the same plugin installed twice: the first one wins
            dist = getattr(ep, "dist", None)
            version = dist.version if dist else None
            dist_name = dist.metadata["Name"] if dist else None
            try:
                module = ep.load()
            except Exception as exc:
                registry.record_failure(ep.name, ep.value, f"failed to import: {_describe(exc)}",
                                        version=version, distribution=dist_name)
                continue
            registry.add_plugin(ep.name, module, version=version, distribution=dist_name)
    for name, module in extra:
        registry.add_plugin(name, module)
    registry.collect()
    return registry


_default: Registry | None = None


def get_registry() -> Registry:
    """The process-wide registry, loaded on first use."""
    global _default
    if _default is None:
        _default = load_registry()
    return _default
