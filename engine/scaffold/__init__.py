"""``puzzle new-plugin``: write a complete plugin package to start from.

The package has a pyproject with the entry point, a puzzle, a solver, a renderer, the hooks,
its own translations (a gettext catalogue in its own domain, Simplified Chinese included), a
README and tests that run the conformance check. It installs with ``pip install -e`` and passes
``puzzle check`` as generated (the host's tests prove both).
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from ..compat import CONTRACT_VERSION, contract_range
from ..errors import InputError
from .templates import CATALOGUE_ZH, FILES

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
    return written + write_catalogue(target / values["pkg"] / "locale", values)


def write_catalogue(folder: Path, values: dict[str, str], locale: str = "zh_Hans") -> list[Path]:
    """The plugin's Simplified Chinese catalogue: ``<folder>/zh_Hans/LC_MESSAGES/<pkg>.po`` and
    the ``.mo`` compiled from it (Babel writes both, so the .po is valid gettext however the
    messages are quoted, and the plugin is shown in Chinese straight after it is written)."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import write_po

    catalog = Catalog(locale=locale, domain=values["pkg"], project=values["dist"], version="0.1.0",
                      charset="utf-8", fuzzy=False)  # fuzzy: pybabel compile would skip it
    for msgid, text in CATALOGUE_ZH.items():
        flags = ("python-brace-format",) if "{" in msgid and "}" in msgid else ()
        catalog.add(Template(msgid).substitute(values), Template(text).substitute(values), flags=flags)
    target = folder / locale / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    po, mo = target / f"{values['pkg']}.po", target / f"{values['pkg']}.mo"
    with po.open("wb") as f:
        write_po(f, catalog, width=76, sort_output=True)
    with mo.open("wb") as f:
        write_mo(f, catalog)
    return [po, mo]
