"""The plugin's own translations: its gettext domain ``puzzle_tangram`` in ``locale/``.

The host shows the puzzle's title, rules, notation, limits, option help, the solver's
description and the "solved" sentence through the ``catalogue`` of each class, in the reader's
language; the plugin's own code writes its notes, move words, verdicts and error messages with
``_`` and ``ngettext`` when it is called, so they follow the language of the request being
answered. A message missing from the catalogue stays English (docs/i18n.md).

``count`` writes a number for the reader's locale (``12,000``); it is not the exact numbers'
text of :mod:`numbers` (``1+r2``), which stays as written because people copy it back.
"""

from pathlib import Path

from engine import Catalogue
from engine import format_number as count

CATALOGUE = Catalogue("puzzle_tangram", Path(__file__).resolve().parent / "locale")
_ = CATALOGUE.gettext
ngettext = CATALOGUE.ngettext


class Note(str):
    """A note stored with an instance (a snapped decimal, a scaling) that is shown later, maybe
    to a reader of another language: the host caches parsed instances by their text alone.

    Its value is the English text (so it compares, hashes and serialises as before); ``str()``
    gives it in the current locale, which is how :meth:`Tangram.notes` shows it. Mark the
    message with ``N_`` so that it is extracted: ``Note(N_("area {area} ..."), area=...)``.
    """

    def __new__(cls, message: str, **params: object) -> "Note":
        note = super().__new__(cls, message.format(**params) if params else message)
        note._message = message
        note._params = params
        return note

    def __str__(self) -> str:
        try:
            return _(self._message).format(**self._params) if self._params else _(self._message)
        except (KeyError, IndexError, ValueError):  # a broken translation: the English text
            return super().__str__()


class PluralNote(Note):
    """A :class:`Note` whose words agree with a number (the language's CLDR plural rule):
    ``PluralNote("read as the union of {count} drawn piece", "... {count} drawn pieces", n,
    count=n)``. ``make translations`` extracts its first two arguments as one plural message."""

    def __new__(cls, singular: str, plural: str, n: int, **params: object) -> "PluralNote":
        english = singular if n == 1 else plural
        note = super().__new__(cls, english, **params)
        note._plural = (singular, plural, n)
        return note

    def __str__(self) -> str:
        singular, plural, n = self._plural
        try:
            return ngettext(singular, plural, n).format(**self._params)
        except (KeyError, IndexError, ValueError):  # a broken translation: the English text
            return str.__str__(self)


__all__ = ["CATALOGUE", "_", "ngettext", "count", "Note", "PluralNote"]
