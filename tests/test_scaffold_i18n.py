"""`puzzle new-plugin` writes a plugin that ships its own catalogue, like Lights Out: its title and
the words it writes while it runs come out in Chinese under ``use_locale("zh_Hans")``, and in
English otherwise (docs/plugins.md, "Translations")."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from engine import use_locale
from engine.i18n import translate
from engine.scaffold import write_plugin


@pytest.fixture()
def scaffolded(tmp_path, monkeypatch):
    """The generated package ``puzzle_tower``, imported from where it was written."""
    write_plugin("tower", tmp_path / "tower")
    monkeypatch.syspath_prepend(str(tmp_path / "tower"))
    for name in [m for m in sys.modules if m == "puzzle_tower" or m.startswith("puzzle_tower.")]:
        monkeypatch.delitem(sys.modules, name)
    yield tmp_path / "tower", importlib.import_module("puzzle_tower.puzzle"), \
        importlib.import_module("puzzle_tower.solver")


def test_the_scaffolded_title_is_chinese_under_zh_hans_and_english_otherwise(scaffolded):
    _folder, puzzle_module, solver_module = scaffolded
    puzzle = puzzle_module.TowerPuzzle()
    solver = solver_module.BreadthFirstSolver()
    assert puzzle.catalogue.locales() == ("en", "zh_Hans")
    with use_locale("zh_Hans"):
        assert translate(puzzle, puzzle.title) == "加一翻倍"
        assert translate(solver, solver.description).startswith("对各个数做广度优先搜索")
        # What the plugin writes while it runs follows the locale too.
        assert puzzle.describe_move(puzzle.parse("3 -> 20"), "x2") == "翻倍：3 变成 6"
        with pytest.raises(Exception, match="起始数必须是 0 到 500 之间的整数"):
            puzzle.parse("x -> 3")
    for locale in ("en", None, "zh_Hant"):
        with use_locale(locale):
            assert translate(puzzle, puzzle.title) == "Tower"
            assert puzzle.describe_move(puzzle.parse("3 -> 20"), "x2") == "double: 3 becomes 6"


def test_the_scaffold_catalogue_holds_every_message_and_its_mo_matches_its_po(scaffolded):
    folder, _puzzle, _solver = scaffolded
    messages = folder / "puzzle_tower" / "locale" / "zh_Hans" / "LC_MESSAGES"
    with (messages / "puzzle_tower.po").open("rb") as f:
        po = read_po(f)
    with (messages / "puzzle_tower.mo").open("rb") as f:
        mo = read_mo(f)
    assert not po.fuzzy  # pybabel compile skips a fuzzy catalogue
    translated = {m.id: m.string for m in po if m.id}
    assert all(translated.values())
    assert {m.id: m.string for m in mo if m.id} == translated
    # Every message the package's code marks is in the catalogue (as `pybabel extract` finds them).
    pot = folder / "messages.pot"
    pybabel = [sys.executable, "-c", "import sys; from babel.messages.frontend import main; sys.exit(main())"]
    subprocess.run([*pybabel, "-q", "extract", "-o", str(pot), "puzzle_tower"], cwd=folder, check=True)
    with pot.open("rb") as f:
        extracted = {m.id for m in read_po(f) if m.id}
    assert extracted == set(translated)
    assert 'puzzle_tower = ["locale/*/LC_MESSAGES/*.mo"' in (folder / "pyproject.toml").read_text()
    assert "pybabel compile -D puzzle_tower -d puzzle_tower/locale" in (folder / "README.md").read_text()
