"""Script bundles: the editor's and the embed player's scripts, each sent as one file.

The scripts stay separate, readable files in ``web/static`` (they share the ``window``
namespace: ``animate.js``, ``keyboard.js``, ``jobs.js`` and ``playback.js`` are used by both
pages). A page loads them concatenated because one gzip stream of the five compresses the
words they share once: the editor's five scripts are about 17.9 KB gzip as one file and 19.8
KB as five, and one request replaces five.

Each bundle starts with the scripts' message catalogue of one language (``?lang=`` in its URL,
the same JSON as ``/-/i18n/<lang>.json``) and ``i18n.js``, which reads it: the page asks for the
bundle of its own language, and a cached bundle never mixes languages.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, abort, request, url_for

from engine.i18n import DEFAULT_LOCALE, LOCALES

from .i18n import bcp47, choose_locale, js_catalogue

STATIC = Path(__file__).resolve().parent / "static"
SHARED = ("animate.js", "keyboard.js", "jobs.js", "playback.js")
#: Each bundle's files, in load order (later files use what earlier ones define).
BUNDLES = {"editor": SHARED + ("editor.js",), "embed": SHARED + ("embed-player.js",)}
#: Read before every other script of a bundle: the messages, then t() and tn().
FIRST = "i18n.js"

bp = Blueprint("bundles", __name__)


@lru_cache(maxsize=None)
def bundle_text(name: str, locale: str = DEFAULT_LOCALE) -> tuple[str, str]:
    """(the bundle's script in ``locale``, its content hash): read once per process."""
    catalogue, _digest = js_catalogue(locale)
    parts = [f"window.PuzzleCatalogue = {catalogue};\n"]
    parts += [f"/* {file} */\n{(STATIC / file).read_text(encoding='utf-8')}\n"
              for file in (FIRST, *BUNDLES[name])]
    text = "".join(parts)
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def bundle_locale() -> str:
    """The bundle's language: its URL's ``lang`` only (never Accept-Language, so one URL is
    one script whatever the browser asks)."""
    asked = request.args.get("lang", "").replace("-", "_")
    return asked if asked in LOCALES else DEFAULT_LOCALE


def bundle_version(name: str) -> str:
    """The content hash the page puts in the bundle's URL, so a new release is fetched anew."""
    return bundle_text(name, choose_locale())[1]


def bundle_url(name: str) -> str:
    """The bundle in the page's language, with its hash."""
    locale = choose_locale()
    return url_for("bundles.script_bundle", name=name, lang=bcp47(locale), v=bundle_text(name, locale)[1])


@bp.get("/-/scripts/<name>.js")
def script_bundle(name: str):
    if name not in BUNDLES:
        abort(404, description=f"there is no script bundle called {name!r}")
    text, digest = bundle_text(name, bundle_locale())
    response = Response(text, mimetype="text/javascript")
    response.set_etag(digest)
    # The URL carries the hash (?v=...), so a cached copy is never stale for long.
    response.headers["Cache-Control"] = ("public, max-age=31536000, immutable"
                                         if request.args.get("v") == digest
                                         else "public, max-age=300")
    return response.make_conditional(request)
