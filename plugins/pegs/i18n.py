"""The plugin's own translations: its gettext domain ``puzzle_pegs`` in ``locale/``.

The host shows the puzzle's title, rules, notation, limits, option help, solver and task
descriptions through the ``catalogue`` of each class (they are marked with ``N_``); the
plugin's own code writes its notes, verdicts, move words and messages with ``_`` and
``ngettext`` when it is called, so they follow the language of the request being answered. A
message missing from the catalogue stays English (docs/i18n.md).
"""

from pathlib import Path

from engine import Catalogue

CATALOGUE = Catalogue("puzzle_pegs", Path(__file__).resolve().parent / "locale")
_ = CATALOGUE.gettext
ngettext = CATALOGUE.ngettext


def join_names(names: list[str] | tuple[str, ...]) -> str:
    """Hole names as a list people read: "d4, e5" ("d4、e5" in Chinese)."""
    return _(", ").join(names)


def either(names: list[str] | tuple[str, ...]) -> str:
    """"d4", "d4 or e5", "b2, d4 or e5"."""
    if len(names) == 1:
        return names[0]
    return _("{names} or {last}").format(names=join_names(names[:-1]), last=names[-1])


def sentences(parts: list[str]) -> str:
    """Whole sentences one after the other: a space between them in English, none in Chinese
    (the translator says so with the message ``"{text} {next}"``)."""
    text = parts[0]
    for part in parts[1:]:
        text = _("{text} {next}").format(text=text, next=part)
    return text


def named(ids, labels) -> str:
    """Ids a person types (``square``, ``english``) listed with their names in the reader's
    language where those differ: "square (方格), diagonal (含斜线)"; just the ids in English."""
    shown = []
    for key in ids:
        label = _(labels.get(key, key))
        shown.append(key if label == key else _("{id} ({label})").format(id=key, label=label))
    return ", ".join(shown) if all(item in ids for item in shown) else join_names(shown)
