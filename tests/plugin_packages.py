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


def wheel(out: Path, dist: str, version: str, files: dict[str, str], *, requires: tuple[str, ...] = (),
          entry_points: dict[str, str] | None = None) -> Path:
    """Write a real wheel (PEP 427: dist-info with METADATA, WHEEL and a hashed RECORD) holding
    ``files`` (archive path -> text), for pip to install; much quicker than building one."""
    import base64
    import hashlib
    import zipfile

    stem = f"{dist.replace('-', '_')}-{version}"
    info = f"{stem}.dist-info"
    meta = [f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n"]
    meta += [f"Requires-Dist: {r}\n" for r in requires]
    contents = {**files, f"{info}/METADATA": "".join(meta),
                f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    if entry_points:
        contents[f"{info}/entry_points.txt"] = "[puzzle_engine]\n" + "".join(
            f"{k} = {v}\n" for k, v in entry_points.items())
    record = []
    for name, text in contents.items():
        data = text.encode()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in contents.items():
            archive.writestr(name, text)
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return path


def scaffold_wheel(out: Path, name: str, version: str, requires: tuple[str, ...]) -> Path:
    """The ``puzzle new-plugin NAME`` package as a wheel of ``version`` with these requirements."""
    values = names(name)
    folder = out / f"src-{name}-{version}"
    write_plugin(name, folder)
    files = {p.relative_to(folder).as_posix(): p.read_text()
             for p in (folder / values["pkg"]).rglob("*.py")}
    return wheel(out, values["dist"], version, files, requires=requires,
                 entry_points={values["id"]: f"{values['pkg']}.hooks"})
