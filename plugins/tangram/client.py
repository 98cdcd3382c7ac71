"""The editor's scripts for the tangram (``static/compose.js``, ``static/picture.js``), served
as one ``client_script``, with their own words in every language the plugin's catalogue has.

The scripts write each message as ``tr("…", {name: value})``. ``make translations`` extracts
those messages into the plugin's domain (``puzzle_tangram``, keyword ``tr``) like its Python
ones; here the translations of just those messages are put in front of the scripts as one small
table, ``window.TangramWords``, which picks the page's language (``window.PuzzleI18n.lang``).
The script is the same for every reader (a cache may keep it): only the page's language picks
the words, and a message the table lacks is shown in English.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .i18n import CATALOGUE

STATIC = Path(__file__).resolve().parent / "static"
SCRIPTS = ("compose.js", "picture.js")
#: ``tr("message"`` in the scripts: one double-quoted literal (no concatenation), as written.
_MESSAGE = re.compile(r'\btr\(\s*"((?:[^"\\]|\\.)*)"')

_PRELUDE = """/* The tangram scripts' words (the plugin's catalogue, puzzle_tangram; see client.py). */
window.TangramWords = (function () {
  "use strict";
  const words = %s;
  const lang = (window.PuzzleI18n && window.PuzzleI18n.lang) || "en";
  const mine = words[lang] || {};
  return function tr(message, params) {
    const text = typeof mine[message] === "string" ? mine[message] : message;
    if (!params) return text;
    return text.replace(/\\{(\\w+)\\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  };
})();
"""


def script_messages(sources: list[str]) -> list[str]:
    """Every message the scripts pass to ``tr``."""
    return sorted({json.loads(f'"{m}"') for source in sources for m in _MESSAGE.findall(source)})


def words_table(messages: list[str]) -> dict[str, dict[str, str]]:
    """Page language tag (``zh-Hans``) -> message -> its translation, for the translated ones."""
    table = {}
    for locale in CATALOGUE.locales():
        translations = CATALOGUE.translations(locale)
        found = {m: translations.gettext(m) for m in messages if translations.gettext(m) != m}
        if found:
            table[locale.replace("_", "-")] = found
    return table


def client_script() -> str:
    """The scripts, with the table of their words in front."""
    sources = [(STATIC / name).read_text(encoding="utf-8") for name in SCRIPTS]
    table = json.dumps(words_table(script_messages(sources)), ensure_ascii=False, sort_keys=True)
    return "\n".join([_PRELUDE % table, *sources])
