"""The plugin author's kit: `puzzle check` catching broken plugins built as packages on a temp
path, the scaffold installing and passing, and broken or hanging plugins shown where authors look."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from plugin_packages import make_plugin, puzzle_cli, raw_plugin

from engine import InputError, Puzzle, Renderer, Solved, Solver, hookimpl
from engine.conformance import check_law, law_names
from engine.plugins import Registry

FAST = ["--examples", "15"]
#: Every law passes (a puzzle without tasks passes the tasks law at once).
LAWS = len(law_names())


@pytest.fixture()
def cwd(tmp_path):
    """An empty working directory; each test checks nothing was written into it."""
    folder = tmp_path / "cwd"
    folder.mkdir()
    yield folder
    assert sorted(os.listdir(folder)) == [], "puzzle check wrote into the current directory"


@pytest.mark.slow  # a fresh `puzzle` process per run
def test_the_scaffold_as_written_passes_every_law(tmp_path, cwd):
    site = make_plugin(tmp_path, "tower")
    run = puzzle_cli("check", "tower", *FAST, paths=[site], cwd=cwd, env={"PUZZLE_ENGINE_PLUGINS": "tower"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "checking tower (plugin tower from puzzle-engine-tower 0.1.0)" in run.stdout
    assert run.stdout.count("PASS ") == LAWS and "FAIL" not in run.stdout
    assert f"tower conforms: {LAWS} passed, 0 failed" in run.stdout


@pytest.mark.slow  # a fresh `puzzle` process per run
@pytest.mark.parametrize("name, patches, law, expected", [
    ("roundtrip", {"puzzle.py": ('return f"{instance.value} -> {instance.target}"',
                                 'return f"{instance.value} -> {instance.target + 1}"')},
     "text-round-trip", "parse(format(i)) != i"),
    ("scripted", {"renderer.py": ("return drawing.tostring()",
                                  'return drawing.tostring().replace("</svg>", "<script>alert(1)</script></svg>")')},
     "svg", "emitted a <script> element"),
    ("boaster", {"solver.py": ("        parent = {instance.value: None}",
                               "        return Solved(('+1',) * (instance.target - instance.value), optimal=True)\n"
                               "        parent = {instance.value: None}")},
     "optimal-claims", "claims its"),
    # The scaffold once checked numbers with str.isdigit() alone: "²" crashed int(), "١٢" read as 12.
    ("unidigits", {"puzzle.py": ("if not (text.isascii() and text.isdigit())", "if not text.isdigit()")},
     "junk-text", "ValueError"),
    ("decimals", {"puzzle.py": ("if not (text.isascii() and text.isdigit())", "if not text.isdecimal()")},
     "junk-text", "Arabic-Indic digits were read as the ASCII digits 0-9"),
])
def test_check_fails_a_broken_plugin_with_the_law_and_a_minimal_example(tmp_path, cwd, name, patches, law, expected):
    site = make_plugin(tmp_path, name, patches)
    run = puzzle_cli("check", name, *FAST, paths=[site], cwd=cwd, env={"PUZZLE_ENGINE_PLUGINS": name})
    assert run.returncode == 4, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    failed = {lines[i].split()[1].rstrip(":"): i for i, line in enumerate(lines) if line.startswith("FAIL")}
    # The break shows in its own law, and only in laws that depend on what broke.
    also = {"text-round-trip": {"canonical-text", "edits", "junk-text"}, "svg": {"edits", "junk-text"}}.get(law, set())
    assert law in failed and set(failed) <= {law} | also, run.stdout
    detail = "\n".join(lines[failed[law]:failed[law] + 3])
    assert expected in detail and "minimal failing example: " in detail, detail
    assert f"{name} does NOT conform" in run.stdout


@pytest.mark.slow  # a fresh `puzzle` process per run
def test_a_false_optimum_is_refuted_with_a_shorter_solution_that_replays(tmp_path, cwd):
    site = make_plugin(tmp_path, "boast2", {"solver.py": (
        "        parent = {instance.value: None}",
        "        return Solved(('+1',) * (instance.target - instance.value))\n        parent = {}")})
    run = puzzle_cli("check", "boast2", "--law", "optimal-claims", paths=[site], cwd=cwd,
                     env={"PUZZLE_ENGINE_PLUGINS": "boast2"})
    assert run.returncode == 4
    # The first instance tried (shortest text, then alphabetical) is the preset "1 -> 64":
    # 63 presses of +1, claimed optimal by the class flag, against 6 moves (doubling from 1).
    assert "claims its 63 moves are optimal, but 6 moves solve it: +1 x2 x2 x2 x2 x2" in run.stdout
    assert "minimal failing example: boast2 instance '1 -> 64'" in run.stdout


class Labelled(Puzzle):
    """A puzzle whose instance carries free text (a label), drawn by a careless renderer."""

    id, title, rules, notation, limits = "labelled", "Labelled", "Reach 0.", '"-1"', "0 to 9"

    def parse(self, text):
        head, _, label = text.partition(" ")
        if not head.isdigit() or len(head) > 1:
            raise InputError("expected a digit, then an optional label")
        return (int(head), label)

    def format(self, instance):
        return f"{instance[0]} {instance[1]}".strip() if instance[1] else str(instance[0])

    def presets(self):
        return {"three": "3 start"}

    def random(self, seed, options=None):
        if options:
            raise InputError("no options")
        return (seed % 10, "")

    def legal_moves(self, state):
        return ["-1"] if state[0] else []

    def apply_move(self, state, move):
        if move != "-1" or not state[0]:
            raise InputError("the only move is -1, above 0")
        return (state[0] - 1, state[1])

    def is_solved(self, state):
        return state[0] == 0


class RawLabelRenderer(Renderer):
    puzzle_id = "labelled"

    def render(self, state, *, last_move=None, next_move=None, selection=None):
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><text>{state[1]}</text></svg>'


class Countdown(Solver):
    puzzle_id, name = "labelled", "countdown"

    def solve(self, instance, ctx):
        return Solved(["-1"] * instance[0])


class LabelPlugin:
    @hookimpl
    def register_puzzles(self, register):
        register(Labelled())

    @hookimpl
    def register_solvers(self, register):
        register(Countdown())

    @hookimpl
    def register_renderers(self, register):
        register(RawLabelRenderer())


def test_the_escaping_law_finds_user_text_drawn_as_markup():
    registry = Registry()
    registry.add_plugin("labels", LabelPlugin())
    registry.collect()
    result = check_law("labelled", "escaping", registry=registry)
    assert result.status == "fail"
    assert "<script> element" in result.message
    assert result.example.startswith("labelled instance '") and "<script>" in result.example


@pytest.mark.slow  # a fresh `puzzle` process per run
def test_check_passes_the_example_plugin_from_the_command_line_and_from_python(cwd):
    env = {"PUZZLE_ENGINE_PLUGINS": "lights_out", "HYPOTHESIS_STORAGE_DIRECTORY": ""}
    run = puzzle_cli("check", "lights_out", "--examples", "10", cwd=cwd, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"lights_out conforms: {LAWS} passed, 0 failed, 0 skipped" in run.stdout
    code = ("from engine.conformance import assert_conforms; "
            "print(assert_conforms('lights_out', examples=10, laws=['junk-text']).summary())")
    env = {**os.environ, **env}
    env.pop("HYPOTHESIS_STORAGE_DIRECTORY")
    python = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True)
    assert "lights_out conforms: 1 passed" in python.stdout, python.stderr
    # (the cwd fixture then checks that neither run wrote anything, e.g. a .hypothesis folder)


@pytest.mark.slow  # a fresh `puzzle` process per run
def test_check_refuses_an_unknown_puzzle_or_law(cwd):
    run = puzzle_cli("check", "no-such-puzzle", cwd=cwd)
    assert run.returncode == 2 and "unknown puzzle 'no-such-puzzle'" in run.stderr
    run = puzzle_cli("check", "lights_out", "--law", "no-such-law", cwd=cwd,
                     env={"PUZZLE_ENGINE_PLUGINS": "lights_out"})
    assert run.returncode == 2 and "unknown law(s) no-such-law" in run.stderr


@pytest.mark.slow  # a fresh `puzzle` process per run
def test_new_plugin_writes_a_package_that_pip_installs_and_that_passes_its_own_tests(tmp_path, cwd):
    """`puzzle new-plugin`, `pip install -e` (into a temporary prefix), `puzzle check` and the
    generated tests, as an author would run them."""
    target = tmp_path / "hanoi-plugin"
    run = puzzle_cli("new-plugin", "hanoi", "--dir", str(target), cwd=cwd)
    assert run.returncode == 0, run.stderr
    assert {p.name for p in target.rglob("*") if p.is_file()} >= {
        "pyproject.toml", "README.md", "puzzle.py", "solver.py", "renderer.py", "hooks.py",
        "test_conformance.py"}
    entry_point = '[project.entry-points.puzzle_engine]\nhanoi = "puzzle_hanoi.hooks"'
    assert entry_point in (target / "pyproject.toml").read_text()
    prefix = tmp_path / "prefix"
    install = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--prefix",
                              str(prefix), "-e", str(target)], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-2000:]
    site_dir = next(prefix.glob("lib/python*/site-packages"))
    # .pth files (how an editable install points at the source) are read only in site dirs.
    env = {**os.environ, "PUZZLE_ENGINE_PLUGINS": "hanoi", "SITE_DIR": str(site_dir)}
    boot = "import os, site, sys; site.addsitedir(os.environ['SITE_DIR']); "
    check = subprocess.run([sys.executable, "-c", boot + "from engine.cli import main; main(sys.argv[1:])",
                            "check", "hanoi", *FAST], cwd=cwd, env=env, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    assert f"hanoi conforms: {LAWS} passed, 0 failed" in check.stdout
    tests = subprocess.run([sys.executable, "-c", boot + "import pytest; sys.exit(pytest.main(['-q', '-p', "
                            "'no:cacheprovider', 'tests']))"], cwd=target, env=env, capture_output=True, text=True)
    assert tests.returncode == 0, tests.stdout[-3000:]
    assert "3 passed" in tests.stdout


@pytest.mark.slow  # a fresh `puzzle` process per run
def test_new_plugin_refuses_a_bad_name_or_a_folder_in_use(tmp_path, cwd):
    run = puzzle_cli("new-plugin", "9lives", "--dir", str(tmp_path / "x"), cwd=cwd)
    assert run.returncode == 2 and "must start with a letter" in run.stderr
    used = tmp_path / "used"
    used.mkdir()
    (used / "keep.txt").write_text("mine")
    run = puzzle_cli("new-plugin", "fine", "--dir", str(used), cwd=cwd)
    assert run.returncode == 2 and "not an empty folder" in run.stderr
    assert sorted(os.listdir(used)) == ["keep.txt"]


BROKEN_IMPORT = "import numpyy  # a typo: the plugin cannot import\n"
HANGING_IMPORT = "import time\ntime.sleep(600)\n"


@pytest.mark.slow  # a fresh `puzzle` process per run
def test_a_broken_plugin_is_named_by_list_solve_and_plugins(tmp_path, cwd):
    site = raw_plugin(tmp_path, "wonky", BROKEN_IMPORT)
    env = {"PUZZLE_ENGINE_PLUGINS": "lights_out,wonky"}
    listing = puzzle_cli("list", paths=[site], cwd=cwd, env=env)
    assert listing.returncode == 0
    last = listing.stdout.strip().splitlines()[-1]
    assert last.startswith("plugin wonky FAILED to load") and "No module named 'numpyy'" in last
    assert "lights_out: Lights Out" in listing.stdout
    solve = puzzle_cli("solve", "wonky", "1", paths=[site], cwd=cwd, env=env)
    assert solve.returncode == 2 and "plugins that failed to load: wonky" in solve.stderr
    plugins = puzzle_cli("plugins", paths=[site], cwd=cwd, env=env)
    assert "FAILED: failed to import: ModuleNotFoundError" in plugins.stdout
    assert "imported in" in plugins.stdout


FOREIGN_SOLVER = """
from engine import GaveUp, Solver, hookimpl


class Hijacker(Solver):
    puzzle_id = "lights_out"
    name = "hijack"

    def solve(self, instance, ctx):
        return GaveUp("I only wanted to be the default")


@hookimpl
def register_solvers(register):
    register(Hijacker())
"""


@pytest.mark.slow  # a fresh `puzzle` process per run
def test_an_installed_foreign_solver_named_to_load_first_is_listed_after_the_owners(tmp_path, cwd):
    site = raw_plugin(tmp_path, "aaa_badsolver", FOREIGN_SOLVER)
    env = {"PUZZLE_ENGINE_PLUGINS": "aaa_badsolver,lights_out"}
    listing = puzzle_cli("list", paths=[site], cwd=cwd, env=env)
    assert "    solvers: gf2 (optimal), hijack" in listing.stdout
    solved = puzzle_cli("solve", "lights_out", "small", paths=[site], cwd=cwd, env=env)
    assert solved.returncode == 0 and "(optimal)" in solved.stdout.splitlines()[-1]
    chosen = puzzle_cli("solve", "lights_out", "small", "--solver", "hijack", paths=[site], cwd=cwd, env=env)
    assert chosen.returncode == 3 and "I only wanted to be the default" in chosen.stdout


@pytest.mark.slow  # a fresh `puzzle` process per run
def test_a_hanging_import_is_left_out_after_the_timeout(tmp_path, cwd):
    site = raw_plugin(tmp_path, "sleepy", HANGING_IMPORT)
    env = {"PUZZLE_ENGINE_PLUGINS": "lights_out,sleepy", "PUZZLE_ENGINE_IMPORT_TIMEOUT": "1"}
    # The plugin sleeps 600 s; the subprocess timeout only keeps a regression from hanging the suite.
    plugins = puzzle_cli("plugins", paths=[site], cwd=cwd, env=env, timeout=120)
    assert plugins.returncode == 0
    assert "FAILED: failed to import: its import did not finish within 1 s (PUZZLE_ENGINE_IMPORT_TIMEOUT)" \
        in plugins.stdout
    assert "lights_out 0.1.0" in plugins.stdout


@pytest.mark.slow  # a fresh `puzzle` process per run
def test_list_shows_the_random_options_that_random_accepts(cwd):
    env = {"PUZZLE_ENGINE_PLUGINS": "lights_out"}
    listing = puzzle_cli("list", cwd=cwd, env=env)
    assert "random options (-o KEY=VALUE): size (ROWSxCOLUMNS" in listing.stdout
    assert puzzle_cli("random", "lights_out", "-o", "size=3x3", cwd=cwd, env=env).returncode == 0
    bad = puzzle_cli("random", "lights_out", "--preset", "small", cwd=cwd, env=env)
    assert bad.returncode == 2 and "--preset" in bad.stderr


def test_pages_show_a_broken_plugin_on_the_gallery_and_its_reason_on_the_plugins_page(tmp_path):
    from toy import ToyPlugin

    from web import create_app

    registry = Registry()
    registry.add_plugin("toy", ToyPlugin())
    registry.record_failure("wonky", "raw_wonky.hooks",
                            "failed to import: ModuleNotFoundError: No module named 'numpyy' <b>")
    registry.collect()
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path), "TESTING": True})
    try:
        client = app.test_client()
        gallery = client.get("/").get_data(as_text=True)
        assert "1 plugin failed to load" in gallery and "(wonky)" in gallery
        assert 'href="/-/plugins#failed"' in gallery
        page = client.get("/-/plugins").get_data(as_text=True)
        assert 'id="failed"' in page and "No module named &#39;numpyy&#39; &lt;b&gt;" in page
        # what the healthy plugin provides, from the owner map (the id quoted in a span of its own)
        assert "puzzle <span data-untranslated>counter</span>" in page
        healthy = Registry()
        healthy.add_plugin("toy", ToyPlugin())
        healthy.collect()
    finally:
        app.extensions["puzzle_jobs"].close()
    app2 = create_app({"REGISTRY": healthy, "DATA_DIR": str(tmp_path / "2"), "TESTING": True})
    try:
        assert "failed to load" not in app2.test_client().get("/").get_data(as_text=True)
    finally:
        app2.extensions["puzzle_jobs"].close()


def test_serve_says_which_plugins_failed_or_were_slow_at_start():
    from engine.plugins import PluginInfo, startup_warnings

    registry = Registry()
    registry.plugins["wonky"] = PluginInfo("wonky", "raw_wonky.hooks", error="failed to import: boom")
    registry.plugins["slow"] = PluginInfo("slow", "slow.hooks", import_seconds=2.5)
    registry.plugins["quick"] = PluginInfo("quick", "quick.hooks", import_seconds=0.2)
    lines = startup_warnings(registry)
    assert lines[0] == "plugin wonky failed to load and is left out: failed to import: boom"
    assert lines[1].startswith("plugin slow took 2.5 s to import (over 2 s)")
    assert len(lines) == 2
