"""Test markers for the quick target: ``pytest -m "not e2e and not slow"`` runs the unit tests.

Every test under ``e2e/`` is marked ``e2e`` (it drives a real browser against a real server);
tests that take seconds each (table builds, many solves, subprocess servers) carry ``slow``,
either by their own ``@pytest.mark.slow`` or by their module being listed in ``SLOW_MODULES``.
``make test`` runs everything.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).parent

#: Test modules whose tests are slow as a whole (seconds each).
SLOW_MODULES: frozenset[str] = frozenset({
    "tests/test_sliding_fast.py",   # compiles and runs the big-board search on many boards
    "tests/test_cli.py",            # each test starts the `puzzle` command in a fresh process
})


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: a browser test against a real server (Playwright)")
    config.addinivalue_line("markers", "slow: takes seconds; left out of the quick target")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.fspath)).resolve()
        try:
            relative = path.relative_to(ROOT)
        except ValueError:
            continue
        if relative.parts and relative.parts[0] == "e2e":
            item.add_marker(pytest.mark.e2e)
        if relative.as_posix() in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
