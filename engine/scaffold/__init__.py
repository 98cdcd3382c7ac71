"""``puzzle new-plugin``: write a complete plugin package to start from.

The package has a pyproject with the entry point, a puzzle, a solver, a renderer, the hooks,
a README and tests that run the conformance check. It installs with ``pip install -e`` and passes
``puzzle check`` as generated (the host's tests prove both).
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from ..compat import CONTRACT_VERSION, contract_range
from ..errors import InputError
from .templates import FILES

_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


def names(name: str) -> dict[str, str]:
    """The identifiers derived from a plugin name: puzzle id, package, distribution, class, title."""
    raw = name.strip().lower()
    if not _NAME.match(raw):
        raise InputError(f"plugin name {name[:40]!r} must start with a letter and use only letters, "
                         f"digits, - and _ (at most 40 characters)")
    pid = raw.replace("-", "_")
    words = [w for w in pid.split("_") if w]
    return {
        "id": pid,
        "pkg": f"puzzle_{pid}",
        "dist": f"puzzle-engine-{pid.replace('_', '-')}",
        "cls": "".join(w.capitalize() for w in words) + "Puzzle",
        "title": " ".join(w.capitalize() for w in words),
        "name": raw,
        "contract": CONTRACT_VERSION,
        "host_range": contract_range(),
    }


def write_plugin(name: str, directory: str | Path | None = None) -> list[Path]:
    """Write the package for plugin ``name`` into ``directory`` (default: ``./<dist name>``).

    InputError if the name is not usable or the directory exists and is not empty. Returns the
    files written.
    """
    values = names(name)
    target = Path(directory) if directory is not None else Path(values["dist"])
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InputError(f"{target} already exists and is not an empty folder; choose another with --dir")
    written = []
    for rel, text in FILES.items():
        path = target / Template(rel).substitute(values)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Template(text).substitute(values), encoding="utf-8")
        written.append(path)
    return written
