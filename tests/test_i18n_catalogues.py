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


def key(message) -> str:
    return message.id[0] if isinstance(message.id, (tuple, list)) else message.id


def texts(message) -> list[str]:
    return list(message.string) if isinstance(message.string, (tuple, list)) else [message.string]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> dict[str, set[str]]:
    out = tmp_path_factory.mktemp("pot")
    found = {}
    for domain in DOMAINS:
        pot = out / f"{domain}.pot"
        translations.extract(domain, pot)
        found[domain] = {key(m) for m in read(pot) if m.id}
    return found


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_in_the_sources_has_a_chinese_translation(extracted, domain):
    catalogue = {key(m): m for m in read(po_path(domain)) if m.id}
    missing = sorted(k for k in extracted[domain]
                     if k not in catalogue or catalogue[k].fuzzy or not all(texts(catalogue[k])))
    assert not missing, f"{domain}: {len(missing)} messages without a translation: {missing[:10]}"


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
    have = {key(m): texts(m) for m in read(mo) if m.id}
    assert have == want, f"{mo.relative_to(ROOT)} is stale: run `make translations`"


def test_chinese_plural_forms_follow_cldr():
    # One form for Chinese (CLDR: only "other"); pybabel writes the header from CLDR.
    for domain in DOMAINS:
        catalogue = read(po_path(domain))
        assert catalogue.num_plurals == 1 and catalogue.plural_expr == "0", domain
