"""Build plugin packages on a temporary path, as pip would leave them, for tests of the kit.

A package is made "installed" without pip: its folder goes on ``PYTHONPATH`` next to a
``.dist-info`` folder holding its entry point, which is all ``importlib.metadata`` looks at.
The scaffold (``puzzle new-plugin``) is the starting point; ``patch`` breaks it on purpose.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine.scaffold import names, write_plugin

ROOT = Path(__file__).resolve().parent.parent


def make_plugin(base: Path, name: str, patches: dict[str, tuple[str, str]] | None = None) -> Path:
    """Write the scaffold for ``name`` into ``base/name``, apply ``patches`` (file -> (old, new)),
    and add a dist-info with its entry point. Returns the folder to put on PYTHONPATH."""
    values = names(name)
    folder = base / name
    write_plugin(name, folder)
    for rel, (old, new) in (patches or {}).items():
        path = folder / values["pkg"] / rel
        text = path.read_text()
        assert old in text, f"the scaffold changed: {old!r} is not in {rel}"
        path.write_text(text.replace(old, new))
    info = folder / f"{values['dist'].replace('-', '_')}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {values['dist']}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[puzzle_engine]\n{values['id']} = {values['pkg']}.hooks\n")
    return folder


def raw_plugin(base: Path, name: str, hooks_source: str) -> Path:
    """A one-module plugin ``name`` whose hooks module is ``hooks_source`` (to break on import)."""
    folder = base / name
    pkg = folder / f"raw_{name}"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "hooks.py").write_text(hooks_source)
    info = folder / f"raw_{name}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: raw-{name}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[puzzle_engine]\n{name} = raw_{name}.hooks\n")
    return folder


def puzzle_cli(*args: str, paths: list[Path] = (), cwd: Path, env: dict | None = None,
               timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``puzzle ARGS`` in a fresh interpreter with ``paths`` on PYTHONPATH."""
    # Keep an inherited PYTHONPATH after ``paths``: the mutation check runs the engine from a copy.
    inherited = [os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([*map(str, paths), *inherited]),
                   **(env or {})}
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=timeout)
