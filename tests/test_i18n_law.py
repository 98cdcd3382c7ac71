"""The conformance law ``translations`` (docs/plugins.md, section 13): in every locale a puzzle's
catalogue declares, every text the puzzle shows people is non-empty text with no unfilled
placeholder, and every translation keeps its message's placeholders.

A toy plugin (the pairs puzzle with a catalogue of its own) is broken one way at a time, from a
real compiled ``.mo`` file: the law names the locale and what is wrong. Lights Out, whose
catalogue is complete, passes in Simplified Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from pairs_toy import Bits, Pairs, Sweep

from engine import Catalogue, hookimpl
from engine.conformance import check_law
from engine.plugins import Registry, get_registry

MOVE_WORDS = "flip bits {first} and {second}"
GOOD = {"Pairs <&> test": "成对", MOVE_WORDS: "翻转第 {first} 位和第 {second} 位", "easy": "简单"}


def toy_registry(folder: Path, translations: dict[str, str], label=None) -> Registry:
    """A registry with the pairs puzzle speaking through a catalogue compiled from
    ``translations`` (zh_Hans); ``label(name)`` replaces its preset labels when given."""
    catalog = Catalog(locale="zh_Hans", domain="toy_law", fuzzy=False)
    for msgid, text in translations.items():
        catalog.add(msgid, text)
    target = folder / "zh_Hans" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "toy_law.mo").open("wb") as f:
        write_mo(f, catalog)
    catalogue = Catalogue("toy_law", folder)

    class SpokenPairs(Pairs):
        def describe_move(self, state, move):
            k = int(move)
            return catalogue.gettext(MOVE_WORDS).format(first=k, second=k + 1)

        def preset_label(self, name):
            return label(name) if label is not None else catalogue.gettext(name)

    SpokenPairs.catalogue = catalogue

    class Plugin:
        @hookimpl
        def register_puzzles(self, register):
            register(SpokenPairs())

        @hookimpl
        def register_solvers(self, register):
            register(Sweep())

        @hookimpl
        def register_renderers(self, register):
            register(Bits())

    registry = Registry()
    registry.add_plugin("toy-law", Plugin(), version="1.0")
    registry.collect()
    return registry


def law(registry: Registry):
    return check_law("pairs", "translations", registry=registry, examples=10, seed=0)


def test_a_complete_catalogue_passes_in_both_locales(tmp_path):
    result = law(toy_registry(tmp_path / "locale", GOOD))
    assert result.status == "pass", result.text()
    assert "(en, zh_Hans)" in result.message


@pytest.mark.parametrize("broken, expected", [
    # A translation that renames a placeholder: .format() would raise, or show "{secnd}".
    ({MOVE_WORDS: "翻转第 {first} 位和第 {secnd} 位"}, "placeholders ['{first}', '{secnd}'] are not"),
    # One that drops a placeholder: the sentence would lose its number.
    ({MOVE_WORDS: "翻转两位"}, "placeholders [] are not the message's ['{first}', '{second}']"),
    # A class text whose translation adds a placeholder nobody fills.
    ({"Pairs <&> test": "成对 {size}"}, "placeholders ['{size}'] are not the message's []"),
])
def test_a_broken_translation_is_named_with_its_locale(tmp_path, broken, expected):
    result = law(toy_registry(tmp_path / "locale", {**GOOD, **broken}))
    assert result.status == "fail", result.text()
    assert "(zh_Hans)" in result.message and expected in result.message, result.message


@pytest.mark.parametrize("label, expected", [
    (lambda name: None, "in locale en, preset_label('easy') is NoneType"),
    (lambda name: name.encode(), "preset_label('easy') is bytes"),
    (lambda name: "", "preset_label('easy') is empty"),
    (lambda name: "{name}", "preset_label('easy') has the unfilled placeholder {name}"),
])
def test_a_text_that_is_not_filled_in_text_fails(tmp_path, label, expected):
    result = law(toy_registry(tmp_path / "locale", GOOD, label=label))
    assert result.status == "fail", result.text()
    assert expected in result.message, result.message


def test_a_label_broken_only_in_chinese_is_found_in_chinese(tmp_path):
    from engine import current_locale

    def label(name):
        return None if current_locale() == "zh_Hans" else name

    result = law(toy_registry(tmp_path / "locale", GOOD, label=label))
    assert result.status == "fail"
    assert "in locale zh_Hans, preset_label('easy') is NoneType" in result.message, result.message


def test_lights_out_passes_in_simplified_chinese():
    registry = get_registry()
    if "lights_out" not in registry.puzzles:
        pytest.skip("the example plugin is not installed (scripts/setup.sh installs it)")
    result = check_law("lights_out", "translations", registry=registry, examples=10, seed=0)
    assert result.status == "pass", result.text()
    assert "(en, zh_Hans)" in result.message
