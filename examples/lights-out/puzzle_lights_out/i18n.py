"""The plugin's own translations: its gettext domain ``puzzle_lights_out`` in ``locale/``.

The host shows the puzzle's title, rules, notation, limits and option help through
``LightsOut.catalogue`` in the reader's language; the plugin's own code writes its notes, move
words and messages with ``_`` and ``ngettext`` when it is called, so they follow the language of
the request being answered. A message missing from the catalogue stays English.
"""

from pathlib import Path

from engine import Catalogue

CATALOGUE = Catalogue("puzzle_lights_out", Path(__file__).resolve().parent / "locale")
_ = CATALOGUE.gettext
ngettext = CATALOGUE.ngettext
