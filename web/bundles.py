"""Script bundles: the editor's and the embed player's scripts, each sent as one file.

The scripts stay separate, readable files in ``web/static`` (they share the ``window``
namespace: ``animate.js``, ``keyboard.js``, ``jobs.js`` and ``playback.js`` are used by both
pages). A page loads them concatenated because one gzip stream of the five compresses the
words they share once: the editor's five scripts are about 17.9 KB gzip as one file and 19.8
KB as five, and one request replaces five.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, abort, request

STATIC = Path(__file__).resolve().parent / "static"
SHARED = ("animate.js", "keyboard.js", "jobs.js", "playback.js")
#: Each bundle's files, in load order (later files use what earlier ones define).
BUNDLES = {"editor": SHARED + ("editor.js",), "embed": SHARED + ("embed-player.js",)}

bp = Blueprint("bundles", __name__)


@lru_cache(maxsize=None)
def bundle_text(name: str) -> tuple[str, str]:
    """(the bundle's script, its content hash): read once per process."""
    parts = [f"/* {file} */\n{(STATIC / file).read_text(encoding='utf-8')}\n"
             for file in BUNDLES[name]]
    text = "".join(parts)
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def bundle_version(name: str) -> str:
    """The content hash the page puts in the bundle's URL, so a new release is fetched anew."""
    return bundle_text(name)[1]


@bp.get("/-/scripts/<name>.js")
def script_bundle(name: str):
    if name not in BUNDLES:
        abort(404, description=f"there is no script bundle called {name!r}")
    text, digest = bundle_text(name)
    response = Response(text, mimetype="text/javascript")
    response.set_etag(digest)
    # The URL carries the hash (?v=...), so a cached copy is never stale for long.
    response.headers["Cache-Control"] = ("public, max-age=31536000, immutable"
                                         if request.args.get("v") == digest
                                         else "public, max-age=300")
    return response.make_conditional(request)
