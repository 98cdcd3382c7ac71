"""The CLI guards against plugin code: every way a plugin can fail ends with one ``error:`` line
and the documented exit code (3 gave up, 4 broken contract, 5 environment), never a traceback.

The misbehaving plugin is tests/rogue.py, installed as a pip-style distribution on PYTHONPATH.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
PUZZLE = [sys.executable, "-m", "engine.cli"]


@pytest.fixture(scope="module")
def rogue_env(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    for name in ("toy.py", "rogue.py"):
        shutil.copy(TESTS / name, site / name)
    info = site / "puzzle_rogue-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: puzzle-rogue\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[puzzle_engine]\nrogue = rogue\n")
    env = dict(os.environ)
    env.update(PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
               PUZZLE_ENGINE_PLUGINS="rogue")
    return env


def run(env, *args, stdin=None):
    return subprocess.run(PUZZLE + list(args), capture_output=True, text=True, env=env,
                          input=stdin, timeout=120)


def one_error_line(result) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_gave_up_exits_3(rogue_env):
    result = run(rogue_env, "solve", "rogue", "1 -> 5", "--solver", "quitter")
    assert result.returncode == 3, result.stderr
    assert result.stdout.strip().startswith("gave up (deadline)")


def test_a_solver_ignoring_its_deadline_is_killed_after_the_grace_and_exits_3(rogue_env):
    started = time.monotonic()
    result = run(rogue_env, "solve", "rogue", "1 -> 5", "--solver", "sleeper",
                 "--timeout", "0.5", "--grace", "0.5")
    assert result.returncode == 3
    line = one_error_line(result)
    assert "solver 'sleeper' of plugin 'rogue' ignored its 0.5 s time limit" in line
    assert time.monotonic() - started < 100  # it did not sleep its 600 s (subprocess cap: 120)


def test_a_solver_that_raises_exits_4(rogue_env):
    result = run(rogue_env, "solve", "rogue", "1 -> 5", "--solver", "crasher")
    assert result.returncode == 4
    assert "solver 'crasher' crashed (plugin 'rogue'): RuntimeError" in one_error_line(result)


def test_a_solver_that_ends_its_process_is_reported_and_exits_4(rogue_env):
    result = run(rogue_env, "solve", "rogue", "1 -> 5", "--solver", "exiter")
    assert result.returncode == 4
    line = one_error_line(result)
    assert "solver 'exiter' of plugin 'rogue'" in line and "exited with code 7" in line


def test_stats_json_cannot_encode_exit_4_with_the_plugin_named(rogue_env):
    result = run(rogue_env, "solve", "rogue", "1 -> 5", "--solver", "oddstats", "--json")
    assert result.returncode == 4 and result.stdout == ""
    line = one_error_line(result)
    assert "'oddstats'" in line and "plugin 'rogue'" in line and "stats['visited']" in line


def test_an_unwritable_directory_exits_5_not_4(rogue_env):
    result = run(rogue_env, "solve", "rogue", "1 -> 5", "--solver", "nodir")
    assert result.returncode == 5
    line = one_error_line(result)
    assert "solver 'nodir' could not run (plugin 'rogue'): NotADirectoryError" in line


def test_plugin_exceptions_while_parsing(rogue_env):
    bad_text = run(rogue_env, "solve", "rogue", "valueerror")
    assert bad_text.returncode == 2  # a ValueError on the text is about the text (as the web's 400)
    assert "the instance was rejected: invalid literal" in one_error_line(bad_text)
    broken = run(rogue_env, "solve", "rogue", "runtime")
    assert broken.returncode == 4
    assert "plugin 'rogue' failed" in one_error_line(broken)


def test_any_other_plugin_exception_is_one_line_naming_the_plugin_and_exit_4(rogue_env):
    result = run(dict(rogue_env, ROGUE_BROKEN_PRESETS="1"), "list")
    assert result.returncode == 4
    line = one_error_line(result)
    assert line.startswith("error: plugin 'rogue' failed: AttributeError")


def test_stdin_over_the_limit_is_refused_without_reading_it_all(rogue_env):
    result = run(rogue_env, "solve", "rogue", "-", stdin="1" * 1_000_000)
    assert result.returncode == 2
    assert "longer than the limit" in one_error_line(result)


def interrupt(env, wait_for) -> subprocess.CompletedProcess:
    process = subprocess.Popen(PUZZLE + ["solve", "rogue", "1 -> 5", "--solver", "sleeper"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        wait_for()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def wait_for_file(path, what: str):
    def waiting():
        for _ in range(600):
            if path.exists():
                return
            time.sleep(0.1)
        raise AssertionError(f"{what} never started")
    return waiting


def test_ctrl_c_while_the_plugins_load_exits_3_without_a_traceback(rogue_env, tmp_path):
    # Ctrl+C once the rogue plugin's import has begun (it then sleeps 30 s): inside the loading
    # however busy the machine is (a fixed 1.5 s could come before or after it under load).
    importing = tmp_path / "importing"
    env = dict(rogue_env, ROGUE_IMPORT_SECONDS="30", ROGUE_IMPORT_STARTED_FILE=str(importing))
    result = interrupt(env, wait_for_file(importing, "the plugin's import"))
    assert result.returncode == 3
    assert one_error_line(result) == "error: cancelled"


def test_ctrl_c_while_the_solver_runs_exits_3_without_a_traceback(rogue_env, tmp_path):
    started = tmp_path / "started"
    # The sleeper ignores the cancel too, so this also shows the kill after --grace.
    result = interrupt(dict(rogue_env, ROGUE_STARTED_FILE=str(started)), wait_for_file(started, "the solver"))
    assert result.returncode == 3
    assert one_error_line(result).startswith("error: solver 'sleeper' of plugin 'rogue' did not stop")
