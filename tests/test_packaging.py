"""Package definitions install quietly: no setuptools deprecations for their metadata."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine.scaffold import write_plugin

ROOT = Path(__file__).resolve().parent.parent


def _pyprojects(tmp_path: Path) -> list[Path]:
    write_plugin("quiet", tmp_path / "quiet")
    return [ROOT / "pyproject.toml", ROOT / "examples" / "lights-out" / "pyproject.toml",
            tmp_path / "quiet" / "pyproject.toml"]


@pytest.mark.parametrize("which", [0, 1, 2], ids=["host", "lights-out", "scaffold"])
def test_license_is_an_spdx_string_with_a_setuptools_that_reads_it(tmp_path, which):
    # setuptools >= 77 warns on every install that `license = { text = ... }` is deprecated;
    # the SPDX string form (PEP 639) needs setuptools >= 77 in the build requirements.
    data = tomllib.loads(_pyprojects(tmp_path)[which].read_text())
    license_ = data["project"].get("license")
    assert license_ is None or isinstance(license_, str), license_
    if license_ is not None:
        wanted = [r for r in data["build-system"]["requires"] if r.startswith("setuptools")]
        assert wanted and int(re.search(r">=\s*(\d+)", wanted[0]).group(1)) >= 77, wanted
