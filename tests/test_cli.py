"""The `puzzle` command line, run as a real subprocess against the installed plugins.

A fake third-party distribution (a dist-info folder with an entry point, put on PYTHONPATH)
shows that plugins are found through entry points and that a broken one is reported while the
others still work.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
PUZZLE = [sys.executable, "-m", "engine.cli"]


def run(args, env_extra=None, stdin=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    return subprocess.run(PUZZLE + args, capture_output=True, text=True, env=env, input=stdin, timeout=120)


@pytest.fixture(scope="module")
def third_party(tmp_path_factory):
    """A site folder holding two pip-style distributions: the toy puzzle and a broken plugin."""
    site = tmp_path_factory.mktemp("site")
    shutil.copy(TESTS / "toy.py", site / "toy.py")
    (site / "toy_hooks.py").write_text("from toy import ToyPlugin\nplugin = ToyPlugin()\n"
                                       "register_puzzles = plugin.register_puzzles\n"
                                       "register_solvers = plugin.register_solvers\n"
                                       "register_renderers = plugin.register_renderers\n")
    (site / "broken_hooks.py").write_text("raise ImportError('this plugin is broken on purpose')\n")
    for name, module in [("toy", "toy_hooks"), ("broken", "broken_hooks")]:
        info = site / f"puzzle_{name}-1.2.3.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: puzzle-{name}\nVersion: 1.2.3\n")
        (info / "entry_points.txt").write_text(f"[puzzle_engine]\n{name} = {module}\n")
    return {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def test_plugins_lists_third_party_plugins_and_load_failures(third_party):
    result = run(["plugins"], third_party)
    assert result.returncode == 0, result.stderr
    assert "toy 1.2.3 from puzzle-toy (toy_hooks)" in result.stdout
    assert "hooks: register_puzzles, register_renderers, register_solvers" in result.stdout
    assert "broken 1.2.3" in result.stdout
    assert "FAILED: failed to import: ImportError: this plugin is broken on purpose" in result.stdout
    listed = run(["list"], third_party)
    assert "counter: Counter" in listed.stdout and "solvers: greedy" in listed.stdout


def test_solve_prints_moves_then_a_summary_and_exits_0(third_party):
    result = run(["solve", "counter", "3 -> 7"], third_party)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:-1] == ["*2", "+1"]
    assert lines[-1].startswith("solved: 2 moves (not proven optimal)")
    one = run(["solve", "counter", "3 -> 4"], third_party)
    assert one.stdout.splitlines()[-1].startswith("solved: 1 move (not proven optimal)"), one.stdout


def test_solve_json_has_the_documented_fields(third_party):
    result = run(["solve", "counter", "small", "--json"], third_party)
    data = json.loads(result.stdout)
    assert result.returncode == 0
    assert {"status", "moves", "length", "optimal", "seconds", "stats", "reason"} <= set(data)
    assert data["status"] == "solved" and data["length"] == len(data["moves"]) > 0


def test_solve_says_how_a_noisy_outline_was_read_before_the_answer():
    # A tangram square traced by hand at 23.7 units a side: the answer covers the exact figure
    # it was read as, so the reading (and how far it moved the corners) comes first, in the
    # text and in the JSON.
    traced = "ring 0.02,0.01 94.81,-0.03 94.83,94.79 -0.04,94.82"
    result = run(["solve", "tangram", "-"], stdin=traced)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    read = [i for i, line in enumerate(lines) if line.startswith("note: read as an exact figure; vertices moved")]
    moves = [i for i, line in enumerate(lines) if " @ " in line]
    assert read and len(moves) == 7 and read[0] < moves[0]
    data = json.loads(run(["solve", "tangram", "-", "--json"], stdin=traced).stdout)
    assert any(note.startswith("read as an exact figure") for note in data["notes"])
    assert data["instance"] == "outer 0,0 4,0 4,4 0,4\n"


def test_solve_reads_stdin_and_reports_unsolvable_with_exit_1(third_party):
    result = run(["solve", "counter", "-"], third_party, stdin="9 -> 2\n")
    assert result.returncode == 1
    assert "unsolvable: the counter only goes up" in result.stdout


def test_bad_input_exits_2_with_one_line_and_no_traceback(third_party):
    for args in (["solve", "counter", "three -> 4"], ["solve", "nope", "1"],
                 ["solve", "counter", "1 -> 5", "--solver", "x"],
                 ["render", "counter", "1 -> 5", "--moves", "+1,/2"],
                 ["random", "counter", "-o", "colour=red"]):
        result = run(args, third_party)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: ")


def test_render_writes_svg_after_the_given_step(third_party):
    result = run(["render", "counter", "1 -> 5", "--moves", "+1,*2,+1", "--step", "2"], third_party)
    assert result.returncode == 0, result.stderr
    assert ">4 / 5<" in result.stdout and "viewBox" in result.stdout


def test_random_prints_reproducible_instance_text(third_party):
    first = run(["random", "counter", "--seed", "4"], third_party)
    again = run(["random", "counter", "--seed", "4"], third_party)
    assert first.returncode == 0 and first.stdout == again.stdout == "4 -> 14\n"


def test_restricting_plugins_hides_the_others(third_party):
    env = dict(third_party, PUZZLE_ENGINE_PLUGINS="toy")
    result = run(["list"], env)
    assert result.stdout.startswith("counter: Counter")
    assert "sliding" not in result.stdout


def test_prepare_readies_every_solver_of_the_named_puzzle(third_party):
    result = run(["prepare", "counter"], third_party)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("counter greedy: ready (")
    assert run(["prepare", "nope"], third_party).returncode == 2


def test_usage_errors_are_one_line_with_exit_2(third_party):
    # Click used to print a four-line usage block for these; now they read like any bad input.
    for args in (["solve", "counter", "1 -> 5", "--timeout", "abc"], ["solve", "counter"],
                 ["render", "counter", "1 -> 5", "--step", "x"], ["no-such-command"],
                 ["random", "counter", "--seed", "-1"], ["random", "counter", "--seed", str(2**63)]):
        result = run(args, third_party)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and "--help" in lines[0], lines


def test_puzzle_prepare_gives_the_solvers_the_big_build_permission(monkeypatch):
    """Only `puzzle prepare`, which a person runs and watches, allows minutes and gigabytes
    (servers and workers prepare with the default, False)."""
    from click.testing import CliRunner

    from engine import cli as cli_module

    seen = []

    def prepare_solvers(registry, puzzle_ids, cancel, progress_factory, big_builds=False):
        seen.append(big_builds)
        return iter(())

    monkeypatch.setattr(cli_module, "prepare_solvers", prepare_solvers)
    monkeypatch.setattr(cli_module, "get_registry", lambda: None)
    monkeypatch.setattr(cli_module, "process_memory", lambda: 0)
    monkeypatch.setattr(cli_module, "preparation_costs", lambda registry, ids, big_builds: [])
    result = CliRunner().invoke(cli_module.cli, ["prepare"])
    assert result.exit_code == 0, result.output
    assert seen == [True]


def _fake_prepare(monkeypatch, cost):
    """`puzzle prepare` over a stand-in estimate and preparation (nothing is built)."""
    from engine import PrepareCost
    from engine import cli as cli_module
    from engine.solving import Preparation

    prepared = []

    def prepare_solvers(registry, puzzle_ids, cancel, progress_factory, big_builds=False):
        progress = progress_factory()
        progress({"built": "toy: a table, 3 MiB on disk"})
        prepared.append(puzzle_ids)
        yield Preparation("toy", "fast", True, 0.5)

    monkeypatch.setattr(cli_module, "prepare_solvers", prepare_solvers)
    monkeypatch.setattr(cli_module, "get_registry", lambda: None)
    monkeypatch.setattr(cli_module, "process_memory", lambda: 0)
    monkeypatch.setattr(cli_module, "preparation_costs", lambda registry, ids, big_builds: [
        ("toy", "fast", PrepareCost(*cost, what=("a table",)))])
    return cli_module, prepared


def test_puzzle_prepare_says_the_cost_and_asks_before_a_big_one(monkeypatch):
    from click.testing import CliRunner

    cli_module, prepared = _fake_prepare(monkeypatch, (600.0, 2 * 10**9, 5 * 10**8))
    declined = CliRunner().invoke(cli_module.cli, ["prepare"], input="n\n")
    assert "to build: toy fast: a table (about 10 minutes)" in declined.output
    assert "in all: about 10 minutes, up to 2.0 GB of memory, 500 MB of disk" in declined.output
    assert "Build them now?" in declined.output
    assert declined.exit_code == 3 and prepared == []
    # No answer at all (stdin closed) is a no too.
    assert CliRunner().invoke(cli_module.cli, ["prepare"], input="").exit_code == 3
    assert prepared == []
    accepted = CliRunner().invoke(cli_module.cli, ["prepare"], input="y\n")
    assert accepted.exit_code == 0 and prepared == [()]
    assert "  built toy: a table, 3 MiB on disk\ntoy fast: ready (0.5 s)" in accepted.output
    forced = CliRunner().invoke(cli_module.cli, ["prepare", "--yes"])
    assert forced.exit_code == 0 and "Build them now?" not in forced.output
    assert prepared == [(), ()]


def test_puzzle_prepare_counts_the_process_and_what_earlier_builds_keep(monkeypatch):
    """The builds run in the `puzzle prepare` process, after one another: its own memory and
    the tables an earlier build keeps loaded come on top of a build's peak. 0.9 GB of build
    alone would not be asked about; with them it is over a gigabyte."""
    from click.testing import CliRunner

    from engine import PrepareCost

    cli_module, prepared = _fake_prepare(monkeypatch, (60.0, 9 * 10**8, 10**8))
    monkeypatch.setattr(cli_module, "process_memory", lambda: 2 * 10**8)
    result = CliRunner().invoke(cli_module.cli, ["prepare"], input="n\n")
    assert "up to 1.1 GB of memory" in result.output and "Build them now?" in result.output
    first = PrepareCost(10.0, 6 * 10**8, 10**8, ("a",), kept=2 * 10**8)
    second = PrepareCost(20.0, 9 * 10**8, 10**8, ("b",), kept=10**8)
    both = first + second
    assert both.memory == 11 * 10**8 and both.kept == 3 * 10**8
    assert (both.seconds, both.disk, both.what) == (30.0, 2 * 10**8, ("a", "b"))
    assert (PrepareCost() + first).memory == first.memory


def test_puzzle_prepare_does_not_ask_below_a_gigabyte(monkeypatch):
    from click.testing import CliRunner

    cli_module, prepared = _fake_prepare(monkeypatch, (30.0, 3 * 10**8, 10**8))
    result = CliRunner().invoke(cli_module.cli, ["prepare"])
    assert result.exit_code == 0 and "Build them now?" not in result.output
    assert "in all: about 30 s, up to 300 MB of memory, 100 MB of disk" in result.output
    assert prepared == [()]


def test_puzzle_solve_prints_what_would_help(monkeypatch):
    from click.testing import CliRunner

    from engine import cli as cli_module

    answer = {"status": "gave_up", "reason": "deadline", "seconds": 20.0, "stats": {},
              "moves": [], "details": {"note": "`puzzle prepare pegs` (about 70 s, once) "
                                                "builds the large one"}}
    monkeypatch.setattr(cli_module, "solve_isolated", lambda *a, **k: answer)
    result = CliRunner().invoke(cli_module.cli, ["solve", "pegs", "english", "--timeout", "1"])
    assert result.exit_code == 3
    lines = result.output.splitlines()
    assert lines[-1] == "note: `puzzle prepare pegs` (about 70 s, once) builds the large one"
