"""The engine itself: plugin loading and isolation, the registry, verified solving, the context."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest
from toy import CounterPuzzle, GreedySolver, ToyPlugin

from engine import GaveUp, InputError, SolveContext, Solved, Solver, SolverError, Unsolvable, hookimpl
from engine.plugins import Registry, load_registry
from engine.solving import prepare_solvers, replay, resolve_instance, run_solver, solve


def toy_registry(*extra) -> Registry:
    registry = Registry()
    registry.add_plugin("toy", ToyPlugin())
    for name, plugin in extra:
        registry.add_plugin(name, plugin)
    registry.collect()
    return registry


def test_registry_answers_which_puzzles_solvers_and_renderers():
    registry = toy_registry()
    assert list(registry.puzzles) == ["counter"]
    assert [s.name for s in registry.solvers("counter")] == ["greedy"]
    assert registry.solver("counter").name == "greedy"
    assert registry.renderer("counter").name == "default"
    assert registry.plugins["toy"].hooks == ["register_puzzles", "register_renderers", "register_solvers"]


def test_unknown_names_are_input_errors_that_list_the_choices():
    registry = toy_registry()
    with pytest.raises(InputError, match="installed puzzles: counter"):
        registry.puzzle("nope")
    with pytest.raises(InputError, match="choose one of: greedy"):
        registry.solver("counter", "nope")
    with pytest.raises(InputError, match="choose one of: default"):
        registry.renderer("counter", "nope")


class RaisesAtRegistration:
    @hookimpl
    def register_puzzles(self, register):
        raise RuntimeError("boom at registration")


class RegistersThenRaises:
    """Registers a solver for the toy puzzle, then breaks: nothing it registered may stay."""

    @hookimpl
    def register_solvers(self, register):
        class Sneaky(GreedySolver):
            name = "sneaky"
        register(Sneaky())
        raise ValueError("half way")


class RegistersJunk:
    @hookimpl
    def register_renderers(self, register):
        register("not a renderer")


class BadHookName:
    @hookimpl
    def register_puzzle(self, register):  # typo: no such hook spec
        pass


@pytest.mark.parametrize("plugin, message", [
    (RaisesAtRegistration(), "boom at registration"),
    (RegistersThenRaises(), "half way"),
    (RegistersJunk(), "not an engine.Renderer"),
    (BadHookName(), "unknown hook"),
])
def test_a_broken_plugin_is_recorded_and_the_others_still_work(plugin, message):
    registry = toy_registry(("broken", plugin))
    info = registry.plugins["broken"]
    assert info.error is not None and message in info.error
    assert registry.failures() == [info]
    assert registry.puzzle("counter").id == "counter"
    assert [s.name for s in registry.solvers("counter")] == ["greedy"]
    report = run_solver(registry.puzzle("counter"), registry.solver("counter"), CounterPuzzle().parse("1 -> 5"))
    assert report.status == "solved"


def test_a_duplicate_puzzle_id_fails_the_plugin_whose_name_sorts_second_only():
    registry = toy_registry(("zz-copycat", ToyPlugin()))
    assert "already registered" in registry.plugins["zz-copycat"].error
    assert registry.plugins["toy"].ok
    assert [s.name for s in registry.solvers("counter")] == ["greedy"]


def test_environment_restricts_which_puzzle_plugins_load(monkeypatch):
    monkeypatch.setenv("PUZZLE_ENGINE_PLUGINS", "no-such-plugin")
    registry = load_registry()
    assert registry.puzzles == {}
    # Command plugins are not restricted: restricting puzzles must not remove `puzzle serve`.
    assert sorted(registry.plugins) == ["web"]
    assert registry.plugins["web"].ok
    import click
    group = click.Group("puzzle")
    registry.add_commands(group)
    assert "serve" in group.commands


def test_solutions_are_replayed_and_a_wrong_one_names_the_solver_and_the_move():
    puzzle = CounterPuzzle()

    class Liar(Solver):
        puzzle_id, name = "counter", "liar"

        def solve(self, instance, ctx):
            return Solved(["+1", "/3", "+1"])

    with pytest.raises(SolverError) as err:
        run_solver(puzzle, Liar(), puzzle.parse("1 -> 5"))
    assert "liar" in err.value.message and "move 2 (/3)" in err.value.message
    assert err.value.move_index == 2

    class Short(Solver):
        puzzle_id, name = "counter", "short"

        def solve(self, instance, ctx):
            return Solved(["+1"])

    with pytest.raises(SolverError, match="'short' returned 1 move that does not reach the goal"):
        run_solver(puzzle, Short(), puzzle.parse("1 -> 5"))


def test_a_crashing_solver_becomes_a_solver_error():
    class Crash(Solver):
        puzzle_id, name = "counter", "crash"

        def solve(self, instance, ctx):
            raise ZeroDivisionError("oops")

    with pytest.raises(SolverError, match="'crash' crashed: ZeroDivisionError"):
        run_solver(CounterPuzzle(), Crash(), CounterPuzzle().parse("1 -> 5"))


def test_optimal_is_the_class_promise_or_a_per_answer_proof():
    """One contract: ``Solver.optimal = True`` promises every answer is shortest; a solver without
    that promise marks the answers it proved with ``Solved(..., optimal=True)``."""
    class SometimesOptimal(GreedySolver):
        name = "sometimes"

        def solve(self, instance, ctx):
            moves = super().solve(instance, ctx).moves
            return Solved(moves, optimal=len(moves) <= 1)  # one move: nothing can be shorter

    class AlwaysOptimal(GreedySolver):
        name, optimal = "always", True

        def solve(self, instance, ctx):
            return Solved(super().solve(instance, ctx).moves)

    puzzle = CounterPuzzle()
    assert run_solver(puzzle, SometimesOptimal(), puzzle.parse("4 -> 5")).to_json()["optimal"] is True
    assert run_solver(puzzle, SometimesOptimal(), puzzle.parse("1 -> 5")).to_json()["optimal"] is False
    assert run_solver(puzzle, AlwaysOptimal(), puzzle.parse("1 -> 4")).to_json()["optimal"] is True


def test_a_note_is_shown_only_where_a_table_could_change_the_answer():
    """``stats["note"]`` (what would help) reaches the answer's details on a give-up and on an
    answer not proven shortest, and is dropped from a proven-shortest answer (by the class
    promise, its own flag, or a lower bound equal to its length) and from an "unsolvable"."""
    note = "`puzzle prepare toy` (about 5 s, once) makes it shortest"

    def answering(outcome_of):
        class Noted(GreedySolver):
            name = "noted"

            def solve(self, instance, ctx):
                return outcome_of(super().solve(instance, ctx).moves)
        return Noted()

    puzzle = CounterPuzzle()
    start = puzzle.parse("1 -> 5")      # greedy: 4 moves; the shortest is 3 (+1 *2 +1)
    cases = {
        "not proven": (lambda m: Solved(m, stats={"note": note}), True),
        "gave up": (lambda m: GaveUp("deadline", stats={"note": note}), True),
        "flagged optimal": (lambda m: Solved(m, optimal=True, stats={"note": note}), False),
        "bound meets length": (lambda m: Solved(m, stats={"note": note, "lower_bound": len(m)}), False),
        "unsolvable": (lambda m: Unsolvable("No.", stats={"note": note}), False),
    }
    for name, (outcome_of, shown) in cases.items():
        report = run_solver(puzzle, answering(outcome_of), start).to_json()
        assert ("note" in report["details"]) == shown, name
        assert ("note" in report["stats"]) == shown, name      # the page reads the stats too
        if shown:
            assert report["details"]["note"] == note


def test_solve_by_name_resolves_presets_and_reports_json():
    registry = toy_registry()
    data = solve(registry, "counter", "small").to_json()
    assert data["status"] == "solved" and data["instance"] == "1 -> 10"
    states = replay(CounterPuzzle(), CounterPuzzle().parse("1 -> 10"), data["moves"])
    assert states[-1].value == 10 and data["length"] == len(data["moves"])
    data = solve(registry, "counter", "9 -> 3").to_json()
    assert data["status"] == "unsolvable" and data["reason"] == "the counter only goes up"


def test_bad_instances_and_timeouts_are_input_errors():
    registry = toy_registry()
    with pytest.raises(InputError, match="empty"):
        solve(registry, "counter", "   ")
    with pytest.raises(InputError, match="limit"):
        resolve_instance(CounterPuzzle(), "1" * 300_000)
    with pytest.raises(InputError, match="positive"):
        solve(registry, "counter", "1 -> 5", timeout=0)


def test_a_lone_word_that_is_no_preset_is_called_an_unknown_preset_with_the_list():
    with pytest.raises(InputError) as err:
        resolve_instance(CounterPuzzle(), "nosuch")
    message = str(err.value)
    assert "'nosuch' is not a preset of" in message and "presets: small" in message
    assert 'expected "START -> TARGET"' in message  # the parser's own complaint is kept
    # Text that is not one word, or a one-line drawing ("01x1", "ooo.ooo"), gets only the
    # parser's message.
    for text in ("no such", "01x1", "ooo.ooo"):
        with pytest.raises(InputError) as err:
            resolve_instance(CounterPuzzle(), text)
        assert "preset" not in str(err.value)


def test_replay_names_the_first_illegal_move():
    with pytest.raises(InputError) as err:
        replay(CounterPuzzle(), CounterPuzzle().parse("1 -> 5"), ["+1", "+1", "x"])
    assert err.value.where == "move 3 (x)"


def test_context_deadline_cancellation_and_throttled_progress():
    seen = []
    ctx = SolveContext.with_timeout(0.05, on_progress=seen.append, progress_interval=10)
    assert not ctx.should_stop()
    ctx.progress(nodes=1)
    ctx.progress(nodes=2)  # throttled away
    ctx.progress(force=True, nodes=3)
    assert [s["nodes"] for s in seen] == [1, 3]
    time.sleep(0.06)
    assert ctx.stop_reason() == "deadline"
    assert isinstance(ctx.gave_up(nodes=3), GaveUp)

    flag = threading.Event()
    ctx = SolveContext(cancel=flag)
    assert ctx.stop_reason() is None
    flag.set()
    assert ctx.gave_up().reason == "cancelled"


def test_a_cancelled_solve_gives_up():
    flag = threading.Event()
    flag.set()
    report = run_solver(CounterPuzzle(), GreedySolver(), CounterPuzzle().parse("0 -> 900"),
                        SolveContext(cancel=flag))
    assert report.status == "gave_up" and report.outcome.reason == "cancelled"


def test_outcomes_are_immutable():
    outcome = Unsolvable("because", stats={"nodes": 1})
    with pytest.raises(TypeError):
        outcome.stats["nodes"] = 2


def test_a_plugin_whose_commands_raise_is_recorded_and_the_others_are_added():
    import click

    class GoodCommands:
        @hookimpl
        def register_commands(self, cli):
            cli.add_command(click.Command("hello", callback=lambda: None))

    class BadCommands:
        @hookimpl
        def register_commands(self, cli):
            raise RuntimeError("no commands today")

    registry = toy_registry(("bad", BadCommands()), ("good", GoodCommands()))
    group = click.Group("puzzle")
    registry.add_commands(group)
    assert "hello" in group.commands
    assert "no commands today" in registry.plugins["bad"].error
    assert registry.plugins["good"].ok


def test_the_deprecated_plural_still_works_and_warns_that_it_only_knows_english():
    from engine import plural
    with pytest.warns(DeprecationWarning, match="ngettext"):
        said = [plural(n, "move") for n in (0, 1, 2, 12000)]
    assert said == ["0 moves", "1 move", "2 moves", "12,000 moves"]
    with pytest.warns(DeprecationWarning):
        assert plural(1, "vertex", "vertices") == "1 vertex" and plural(3, "vertex", "vertices") == "3 vertices"


def test_no_code_of_the_engine_or_its_plugins_builds_a_plural_with_the_english_only_helper():
    # Plurals go through ngettext (CLDR rules); engine.plural stays only for old plugins.
    root = Path(__file__).resolve().parents[1]
    folders = ("engine", "plugins", "web", "examples/lights-out/puzzle_lights_out")
    users = sorted(str(path.relative_to(root)) for folder in folders for path in (root / folder).rglob("*.py")
                   if re.search(r"\bplural\(", path.read_text()) and path.name != "wording.py")
    assert not users, users


def test_another_package_named_web_is_named_when_the_web_app_fails_to_load(tmp_path, monkeypatch):
    """The web app is the top-level package ``web``, as is the old web.py framework: when an
    entry point's module is missing, the failure names the package that holds that name."""
    import importlib

    from engine.plugins import _shadow_hint
    site = tmp_path / "site"
    (site / "web").mkdir(parents=True)
    (site / "web" / "__init__.py").write_text("# the web.py framework, not ours\n")
    info = site / "web.py-0.62.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: web.py\nVersion: 0.62\n")
    (info / "top_level.txt").write_text("web\n")
    assert _shadow_hint("web.commands") == ""          # only the puzzle engine provides `web`
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    hint = _shadow_hint("web.commands")
    assert "installed by web.py" in hint and "shadows" in hint
    assert _shadow_hint("plugins.sliding.hooks") == ""


def test_cache_dir_follows_the_engine_variable_then_xdg_then_home(monkeypatch, tmp_path):
    from engine import cache_dir
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PUZZLE_ENGINE_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert cache_dir() == tmp_path / "home" / ".cache" / "puzzle-engine"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "puzzle-engine"
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"


def test_prepare_passes_the_big_build_permission_to_solvers_that_take_it():
    """``puzzle prepare`` allows minutes and gigabytes, a server preparing its workers does not;
    a ``prepare(self, ctx)`` written before the argument existed is still called."""
    seen = []

    class Recording(GreedySolver):
        name = "recording"

        def prepare(self, ctx, *, big_builds=False):
            seen.append(("recording", big_builds))
            return True

    class OldStyle(GreedySolver):
        name = "old"

        def prepare(self, ctx):
            seen.append(("old", None))
            return True

    class Extra:
        @hookimpl
        def register_solvers(self, register):
            register(Recording())
            register(OldStyle())

    registry = toy_registry(("extra", Extra()))
    for big in (False, True):
        seen.clear()
        done = list(prepare_solvers(registry, ["counter"], big_builds=big))
        assert [(d.solver, d.ready, d.error) for d in done] == [
            ("greedy", True, None), ("recording", True, None), ("old", True, None)]
        assert seen == [("recording", big), ("old", None)]
