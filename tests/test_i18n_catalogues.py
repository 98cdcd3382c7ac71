"""The catalogues are complete, consistent and compiled (docs/i18n.md).

Messages are extracted afresh from the sources (as ``make translations`` does) and compared
with each Simplified Chinese ``.po`` file: a message with no translation, or a fuzzy one, is
missing. Each translation keeps its msgid's placeholders, and each committed ``.mo`` file holds
exactly what its ``.po`` file says (a stale ``.mo`` shows old words).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("translations_script", ROOT / "scripts" / "translations.py")
translations = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(translations)

#: The domains held to completeness (every catalogue the host or a built-in plugin ships).
DOMAINS = sorted(translations.DOMAINS)
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")


def po_path(domain: str, locale: str = "zh_Hans") -> Path:
    return ROOT / translations.DOMAINS[domain][2] / locale / "LC_MESSAGES" / f"{domain}.po"


def read(path: Path):
    with path.open("rb") as f:
        return read_mo(f) if path.suffix == ".mo" else read_po(f)


Key = tuple[str | None, str]


def key(message) -> Key:
    """A message is its context and its msgid: the same English words in two contexts (", "
    between names, ", " inside a spoken label) are two messages, translated apart."""
    return message.context, message.id[0] if isinstance(message.id, (tuple, list)) else message.id


def texts(message) -> list[str]:
    return list(message.string) if isinstance(message.string, (tuple, list)) else [message.string]


def untranslated(wanted: set[Key], catalogue) -> list[Key]:
    """The messages of ``wanted`` that ``catalogue`` (read from a .po file) does not translate:
    absent, fuzzy or with an empty form."""
    have = {key(m): m for m in catalogue if m.id}
    return sorted((k for k in wanted if k not in have or have[k].fuzzy or not all(texts(have[k]))),
                  key=lambda k: (k[0] or "", k[1]))


def mo_texts(path: Path) -> dict[Key, list[str]]:
    """What gettext itself reads from a compiled file, keyed like :func:`key` (Babel's read_mo
    keys messages by msgid alone, so two contexts of one msgid would collide there)."""
    import gettext

    with path.open("rb") as f:
        compiled = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    forms: dict[Key, dict[int, str]] = {}
    for raw, text in compiled.items():
        name, index = raw if isinstance(raw, tuple) else (raw, 0)
        if not name:
            continue  # the header
        context, sep, msgid = name.rpartition("\x04")
        forms.setdefault((context if sep else None, msgid), {})[index] = text
    return {k: [v[i] for i in sorted(v)] for k, v in forms.items()}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, set[Key]]:
    out = tmp_path_factory.mktemp("pot")
    found = {}
    for domain in DOMAINS:
        pot = out / f"{domain}.pot"
        translations.extract(domain, pot)
        found[domain] = {key(m) for m in read(pot) if m.id}
    return found


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_in_the_sources_has_a_chinese_translation(extracted, domain):
    missing = untranslated(extracted[domain], read(po_path(domain)))
    assert not missing, f"{domain}: {len(missing)} messages without a translation: {missing[:10]}"


def test_a_message_translated_in_one_context_only_counts_as_missing_in_the_other(tmp_path):
    # The sliding plugin has ", " twice: between names and, in the context "spoken label",
    # inside a tile's aria-label. Keyed by msgid alone, one translation hid the other's absence.
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalogue = Catalog(locale="zh_Hans")
    catalogue.add(", ", "、")
    catalogue.add(", ", "", context="spoken label")
    wanted = {(None, ", "), ("spoken label", ", ")}
    assert untranslated(wanted, catalogue) == [("spoken label", ", ")]
    catalogue.get(", ", context="spoken label").string = "，"
    assert untranslated(wanted, catalogue) == []
    # and the compiled file holds both, apart
    with (tmp_path / "toy.mo").open("wb") as f:
        write_mo(f, catalogue)
    assert mo_texts(tmp_path / "toy.mo") == {(None, ", "): ["、"], ("spoken label", ", "): ["，"]}


@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_keep_the_placeholders_of_their_message(domain):
    for m in read(po_path(domain)):
        if not m.id or not all(texts(m)):
            continue
        ids = m.id if isinstance(m.id, (tuple, list)) else [m.id]
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for text in texts(m):
            # Chinese has one plural form: it may leave out what only the English plural says.
            assert set(PLACEHOLDER.findall(text)) == wanted, (domain, m.id, text)


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_mo_file_matches_its_po_file(domain):
    po = po_path(domain)
    mo = po.with_suffix(".mo")
    assert mo.is_file(), f"{mo.relative_to(ROOT)} is missing: run `make translations`"
    want = {key(m): texts(m) for m in read(po) if m.id and all(texts(m)) and not m.fuzzy}
    assert mo_texts(mo) == want, f"{mo.relative_to(ROOT)} is stale: run `make translations`"


def test_chinese_plural_forms_follow_cldr():
    # One form for Chinese (CLDR: only "other"); pybabel writes the header from CLDR.
    for domain in DOMAINS:
        catalogue = read(po_path(domain))
        assert catalogue.num_plurals == 1 and catalogue.plural_expr == "0", domain
