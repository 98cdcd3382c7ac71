"""The plugin's own translations: its gettext domain ``puzzle_sliding`` in ``locale/``.

The host shows the puzzle's title, rules, notation, limits, option help, solver descriptions
and tool labels through the ``catalogue`` of each class in the reader's language; the plugin's
own code writes its notes, move words, proofs and error messages with ``_`` and ``ngettext``
when it is called, so they follow the language of the request being answered. A message
missing from the catalogue stays English (docs/i18n.md has the glossary: 数字华容道, 方块,
空格, 步).
"""

from pathlib import Path

from engine import Catalogue

CATALOGUE = Catalogue("puzzle_sliding", Path(__file__).resolve().parent / "locale")
_ = CATALOGUE.gettext
ngettext = CATALOGUE.ngettext
pgettext = CATALOGUE.pgettext
