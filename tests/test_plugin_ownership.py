"""Ownership: the plugin that registers a puzzle owns its defaults, whatever other plugins are
called or register; the registry keeps the owner map itself (plugin objects are never written to)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from toy import CounterPuzzle, GreedySolver, TextRenderer, ToyPlugin

from engine import InputError, Renderer, Solved, Solver, hookimpl
from engine.plugins import Registry


class ForeignSolver(Solver):
    puzzle_id, name = "counter", "foreign"

    def solve(self, instance, ctx):
        return Solved(["+1"] * (instance.target - instance.value))


class ForeignRenderer(Renderer):
    puzzle_id, name = "counter", "neon"

    def render(self, state, *, last_move=None, next_move=None, selection=None):
        return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>'


class Foreign:
    """A third-party plugin adding a solver and a renderer to a puzzle it did not write."""

    @hookimpl
    def register_solvers(self, register):
        register(ForeignSolver())

    @hookimpl
    def register_renderers(self, register):
        register(ForeignRenderer())


def build(*plugins) -> Registry:
    registry = Registry()
    for name, plugin in plugins:
        registry.add_plugin(name, plugin)
    registry.collect()
    return registry


@pytest.mark.parametrize("order", ["owner-added-first", "foreign-added-first"])
def test_a_foreign_plugin_named_to_sort_first_never_becomes_the_default(order):
    plugins = [("toy", ToyPlugin()), ("aaa-badsolver", Foreign())]
    if order == "foreign-added-first":
        plugins.reverse()
    registry = build(*plugins)
    assert registry.owner("counter") == "toy"
    assert [s.name for s in registry.solvers("counter")] == ["greedy", "foreign"]
    assert [r.name for r in registry.renderers("counter")] == ["default", "neon"]
    assert registry.solver("counter").name == "greedy"
    assert registry.renderer("counter").name == "default"
    assert registry.solver("counter", "foreign").name == "foreign"  # still choosable by name
    assert registry.provided_by("aaa-badsolver") == ["solver counter/foreign", "renderer counter/neon"]
    assert registry.provided_by("toy") == ["puzzle counter", "solver counter/greedy",
                                           "renderer counter/default"]


def test_foreign_solvers_are_ordered_by_plugin_name_after_the_owners():
    class Second(ForeignSolver):
        name = "second"

    class PluginB:
        @hookimpl
        def register_solvers(self, register):
            register(Second())

    registry = build(("zzz-b", PluginB()), ("toy", ToyPlugin()), ("mmm-a", Foreign()))
    assert [s.name for s in registry.solvers("counter")] == ["greedy", "foreign", "second"]


def test_a_foreign_solver_taking_the_owners_name_is_the_one_that_fails():
    class Impostor(ForeignSolver):
        name = "greedy"

    class ImpostorPlugin:
        @hookimpl
        def register_solvers(self, register):
            register(Impostor())

    registry = build(("aaa-impostor", ImpostorPlugin()), ("toy", ToyPlugin()))
    assert registry.plugins["toy"].ok
    assert "owner" in registry.plugins["aaa-impostor"].error
    assert [type(s) for s in registry.solvers("counter")] == [GreedySolver]


def test_without_an_own_solver_there_is_no_default_but_foreign_ones_can_be_named():
    class PuzzleOnly:
        @hookimpl
        def register_puzzles(self, register):
            register(CounterPuzzle())

        @hookimpl
        def register_renderers(self, register):
            register(TextRenderer())

    registry = build(("owner", PuzzleOnly()), ("aaa-foreign", Foreign()))
    with pytest.raises(InputError, match="no default solver.*foreign"):
        registry.solver("counter")
    assert registry.solver("counter", "foreign").name == "foreign"


@dataclass(frozen=True)
class FrozenSolver(Solver):
    puzzle_id = "counter"
    name = "frozen"

    def solve(self, instance, ctx):
        return GreedySolver().solve(instance, ctx)


class SlotsRenderer(TextRenderer):
    __slots__ = ()
    name = "slots"


class FrozenAndSlots:
    @hookimpl
    def register_solvers(self, register):
        register(FrozenSolver())

    @hookimpl
    def register_renderers(self, register):
        register(SlotsRenderer())


def test_frozen_and_slotted_plugin_objects_register_and_are_not_written_to():
    registry = build(("toy", ToyPlugin()), ("frozen", FrozenAndSlots()))
    assert registry.plugins["frozen"].ok, registry.plugins["frozen"].error
    solver = registry.solver("counter", "frozen")
    assert registry.plugin_of(solver) == "frozen"
    assert registry.plugin_of(registry.renderer("counter", "slots")) == "frozen"
    assert registry.plugin_of(registry.puzzle("counter")) == "toy"
    assert not hasattr(solver, "_plugin") and not hasattr(registry.puzzle("counter"), "_plugin")
