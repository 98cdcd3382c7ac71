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

__all__ = ["CATALOGUE", "_", "ngettext", "count"]
