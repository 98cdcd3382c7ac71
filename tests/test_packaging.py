"""Package definitions install quietly: no setuptools deprecations for their metadata."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine.scaffold import write_plugin

ROOT = Path(__file__).resolve().parent.parent


def _setuptools_floor(data: dict) -> int:
    wanted = [r for r in data["build-system"]["requires"] if r.startswith("setuptools")]
    assert wanted, data["build-system"]
    found = re.search(r">=\s*(\d+)", wanted[0])
    assert found, wanted
    return int(found.group(1))


@pytest.mark.parametrize("path", ["pyproject.toml", "examples/lights-out/pyproject.toml"],
                         ids=["host", "lights-out"])
def test_our_packages_carry_an_spdx_licence_with_a_setuptools_that_reads_it(path):
    # setuptools >= 77 warns on every install that `license = { text = ... }` is deprecated;
    # the SPDX string form (PEP 639) needs setuptools >= 77 in the build requirements.
    data = tomllib.loads((ROOT / path).read_text())
    assert "license" in data["project"], f"{path} has no licence field"
    assert data["project"]["license"] == "MIT", data["project"]["license"]
    assert _setuptools_floor(data) >= 77


def test_the_scaffold_leaves_the_licence_to_the_author(tmp_path):
    # The author picks the licence of a new plugin; a table form added with setuptools < 77 in
    # the build requirements would warn, so the scaffold writes no licence field at all.
    write_plugin("quiet", tmp_path / "quiet")
    data = tomllib.loads((tmp_path / "quiet" / "pyproject.toml").read_text())
    assert "license" not in data["project"], data["project"]["license"]
    assert _setuptools_floor(data) >= 64
