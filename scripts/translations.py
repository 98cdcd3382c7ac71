"""Extract, update and compile every gettext catalogue: `make translations` (docs/i18n.md).

    python scripts/translations.py            # extract, update the .po files, compile the .mo files
    python scripts/translations.py compile    # only compile (after editing a .po file)
    python scripts/translations.py check      # exit 1 when a catalogue is stale or incomplete

Each domain is one catalogue: its sources (read with the methods of babel.cfg), and the folder
of its ``<locale>/LC_MESSAGES/<domain>.po``. The compiled ``.mo`` files are committed with the
``.po`` files, so a checkout, a set-up and a built wheel have them without this step.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYBABEL = str(Path(sys.executable).with_name("pybabel"))
#: The host's translated locales (engine.i18n.LOCALES less English, the source language).
LOCALES = ("zh_Hans",)

#: domain -> (source folders, folders left out, catalogue folder, extra keywords)
DOMAINS = {
    "messages": (["web"], ["static"], "web/translations", []),
    "js": (["web/static"], [], "web/translations", ["t", "tn:1,2"]),
    "engine": (["engine"], ["scaffold"], "engine/locale", ["plural_words:1,2"]),
    "puzzle_tangram": (["plugins/tangram"], [], "plugins/tangram/locale", ["tr", "PluralNote:1,2"]),
    "puzzle_lights_out": (["examples/lights-out/puzzle_lights_out"], [],
                          "examples/lights-out/puzzle_lights_out/locale", []),
    "puzzle_sliding": (["plugins/sliding"], [], "plugins/sliding/locale", []),
    "puzzle_pegs": (["plugins/pegs"], [], "plugins/pegs/locale", []),
}


def run(*args: str) -> None:
    subprocess.run([PYBABEL, "-q", *args], cwd=ROOT, check=True)


def extract(domain: str, pot: Path) -> None:
    sources, ignored, _out, keywords = DOMAINS[domain]
    # File names but no line numbers: a translator sees where a message is used, and an edit
    # elsewhere in the file does not rewrite the catalogue.
    args = ["extract", "-F", "babel.cfg", "--add-location=file", "--sort-output",
            "--ignore-dirs", " ".join([".*", "_*", "__pycache__", *ignored]), "-o", str(pot)]
    for k in keywords:
        args += ["-k", k]
    run(*args, *sources)


def update() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for domain, (_src, _ign, out, _kw) in DOMAINS.items():
            pot = Path(tmp) / f"{domain}.pot"
            extract(domain, pot)
            for locale in LOCALES:
                po = ROOT / out / locale / "LC_MESSAGES" / f"{domain}.po"
                if po.exists():
                    before = po.read_text(encoding="utf-8")
                    run("update", "-D", domain, "-i", str(pot), "-d", out, "-l", locale,
                        "--no-fuzzy-matching", "--ignore-obsolete")
                    # A catalogue whose messages did not change keeps its old header date, so
                    # that two branches touching other catalogues do not conflict over it.
                    if _undated(po.read_text(encoding="utf-8")) == _undated(before):
                        po.write_text(before, encoding="utf-8")
                else:
                    run("init", "-D", domain, "-i", str(pot), "-d", out, "-l", locale)


def _undated(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith('"POT-Creation-Date:'))


def compile_all() -> None:
    for domain, (_src, _ign, out, _kw) in DOMAINS.items():
        for locale in LOCALES:
            if (ROOT / out / locale / "LC_MESSAGES" / f"{domain}.po").exists():
                run("compile", "-D", domain, "-d", out, "-l", locale, "--statistics")


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "all"
    if what in ("all", "update"):
        update()
    if what in ("all", "compile"):
        compile_all()
    if what == "check":
        return subprocess.call([sys.executable, "-m", "pytest", "-q", "tests/test_i18n_catalogues.py"], cwd=ROOT)
    if what not in ("all", "update", "compile", "check"):
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
