"""The reader's language: which locale a request gets, the headers that say so, the links that
keep it, and the JavaScript's catalogue (docs/i18n.md).

The order is ``?lang=`` (links then carry it on), then ``Accept-Language``, then English. The
host's locales are :data:`engine.i18n.LOCALES`: ``en`` and ``zh_Hans``. Every Simplified
Chinese tag (``zh``, ``zh-CN``, ``zh-SG``, ``zh-Hans``, ``zh-Hans-CN``) is read as ``zh_Hans``,
the folder name of the catalogues; Traditional tags (``zh-TW``, ``zh-HK``, ``zh-Hant``) are
not Simplified Chinese and get English until a Traditional catalogue exists.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlencode

from babel import Locale
from babel.messages.mofile import read_mo
from flask import Blueprint, Flask, Response, abort, g, request
from flask_babel import Babel, get_locale

from engine.i18n import (
    DEFAULT_LOCALE,
    LOCALES,
    TRADITIONAL,
    Catalogue,
    locale_for_tag,
    reset_locale,
    set_locale,
)

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
bp = Blueprint("i18n", __name__)


def from_accept_language() -> str | None:
    """The first host locale the ``Accept-Language`` header asks for, in its order of quality.

    A bare ``zh`` after a Traditional tag (Chrome in Taiwan sends ``zh-TW,zh;q=0.9,en;q=0.8``)
    means Traditional Chinese too, not Simplified: it is skipped like the Traditional tag."""
    traditional = False
    for tag, _quality in request.accept_languages:
        found = locale_for_tag(tag)
        if found == TRADITIONAL:
            traditional = True
            continue
        if found == "zh_Hans" and traditional and tag.strip().lower() == "zh":
            continue
        if found in LOCALES:
            return found
    return None


def choose_locale() -> str:
    """The locale of this request (also kept in ``g`` for the links and headers)."""
    if "locale" in g:
        return g.locale
    asked = request.args.get("lang", "")
    chosen = locale_for_tag(asked) if asked else None
    if chosen == TRADITIONAL:
        chosen = DEFAULT_LOCALE
    g.lang_param = chosen if chosen in LOCALES else None  # links carry only a valid choice
    if g.lang_param is None:
        chosen = from_accept_language() or DEFAULT_LOCALE
    g.locale = chosen
    return chosen


#: The web package's own catalogue, for what it says outside a request (``puzzle serve``).
MESSAGES = Catalogue("messages", TRANSLATIONS)


def cli_gettext(message: str, **variables: object) -> str:
    """``message`` in the command line's locale (:func:`engine.i18n.current_locale`), with
    ``%(name)s`` placeholders filled like Flask-Babel's ``gettext``: for web/ commands, which run
    with no request and so no Flask-Babel locale. Import it as ``gettext`` so it is extracted."""
    text = MESSAGES.gettext(message)
    return text % variables if variables else text


def bcp47(locale: str) -> str:
    """``zh_Hans`` as HTML and HTTP write it: ``zh-Hans``."""
    return locale.replace("_", "-")


def html_lang() -> str:
    return bcp47(choose_locale())


def link(path: str) -> str:
    """A link within the site that keeps a language chosen with ``?lang=``."""
    choose_locale()
    if not g.lang_param:
        return path
    return path + ("&" if "?" in path else "?") + urlencode({"lang": bcp47(g.lang_param)})


def link_lang() -> str | None:
    """The ``lang`` that links must carry (chosen with ``?lang=``), or None."""
    choose_locale()
    return bcp47(g.lang_param) if g.lang_param else None


def switch_url(locale: str) -> str:
    """This page in another language: the same path and query, ``lang`` replaced."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    args.append(("lang", bcp47(locale)))
    return request.path + "?" + urlencode(args)


def languages() -> list[dict]:
    """The picker's entries: each language in its own script, the current one marked."""
    now = choose_locale()
    return [{"locale": loc, "lang": bcp47(loc), "name": name, "current": loc == now,
             "href": switch_url(loc)} for loc, name in LOCALES.items()]


def format_number(value: float | int, digits: int | None = None) -> str:
    """A number written as the reader's locale writes it (Babel's CLDR data), with exactly
    ``digits`` decimals when given."""
    from babel.numbers import format_decimal
    pattern = "#,##0." + "0" * digits if digits else None
    return format_decimal(value, format=pattern, locale=Locale.parse(choose_locale()))


# -- the JavaScript's catalogue ------------------------------------------------------------

def plural_categories(locale: str) -> list[str]:
    """The CLDR plural categories of ``locale`` in gettext's order (the order of the forms in a
    compiled catalogue): English ``["one", "other"]``, Chinese ``["other"]``."""
    order = ("zero", "one", "two", "few", "many", "other")
    tags = set(Locale.parse(locale).plural_form.tags) | {"other"}
    return [t for t in order if t in tags]


def _mo_messages(mo: Path, locale: str, wanted=None) -> dict[str, object]:
    """The translated messages of a compiled catalogue as the scripts take them: msgid -> text,
    or a plural message's msgid -> {CLDR category: text}; ``wanted(msgid)`` filters them."""
    messages: dict[str, object] = {}
    if locale == DEFAULT_LOCALE or not mo.is_file():
        return messages
    categories = plural_categories(locale)
    try:
        with mo.open("rb") as f:
            catalog = read_mo(f)
    except Exception:  # a plugin's broken file: its script speaks English, the page still works
        return messages
    for message in catalog:
        if not message.id or not message.string:
            continue
        key = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
        if wanted is not None and not wanted(key):
            continue
        if isinstance(message.id, (tuple, list)):
            forms = list(message.string)
            if all(forms):
                messages[key] = {c: forms[min(i, len(forms) - 1)] for i, c in enumerate(categories)}
        else:
            messages[key] = message.string
    return messages


def plugin_script_messages(catalogue: Catalogue | None, locale: str, source: str) -> dict[str, object]:
    """A plugin's translations for its client script (``Puzzle.client_script``): the messages of
    its own catalogue whose English text appears in the script's source, in ``locale``."""
    if not isinstance(catalogue, Catalogue):
        return {}
    mo = catalogue.directory / locale / "LC_MESSAGES" / f"{catalogue.domain}.mo"
    return _mo_messages(mo, locale, wanted=lambda msgid: json.dumps(msgid)[1:-1] in source or msgid in source)


@lru_cache(maxsize=None)
def js_catalogue(locale: str) -> tuple[str, str]:
    """(the JSON catalogue of the scripts' messages in ``locale``, its content hash).

    ``{"locale": "zh-Hans", "messages": {msgid: text or {category: text}}}``: a plural message
    gives one text per CLDR category, chosen in the page with ``Intl.PluralRules``. Only
    translated messages are listed; the scripts show the English text of any other."""
    messages = _mo_messages(TRANSLATIONS / locale / "LC_MESSAGES" / "js.mo", locale)
    text = json.dumps({"locale": bcp47(locale), "messages": messages}, ensure_ascii=False,
                      sort_keys=True, separators=(",", ":"))
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@bp.get("/-/i18n/<lang>.json")
def catalogue(lang: str):
    """The scripts' messages in one language (``en`` or ``zh-Hans``), as JSON."""
    locale = lang.replace("-", "_")
    if locale not in LOCALES:
        abort(404, description=f"there is no catalogue for {lang!r}; languages: "
                               + ", ".join(bcp47(loc) for loc in LOCALES))
    text, digest = js_catalogue(locale)
    response = Response(text, mimetype="application/json")
    response.set_etag(digest)
    response.headers["Cache-Control"] = "public, max-age=300"
    return response.make_conditional(request)


# -- the app -------------------------------------------------------------------------------

def _start() -> None:
    g.locale_token = set_locale(choose_locale())


def _end(_exc) -> None:
    token = g.pop("locale_token", None)
    if token is not None:
        reset_locale(token)


#: Answers whose words follow the request's language: pages, API answers (errors in words) and
#: boards (an SVG's <title> and its parts' names).
WORDED = ("text/html", "application/json", "image/svg+xml")
#: Pictures drawn from those boards (a board may draw words, as tangram's tray does).
DRAWN = ("image/png", "image/gif")


def _headers(response):
    # What differs by language says so, so shared caches keep the languages apart.
    if response.mimetype in WORDED and request.endpoint != "i18n.catalogue":
        response.vary.add("Accept-Language")
        response.headers["Content-Language"] = html_lang()
    elif response.mimetype in DRAWN:
        response.vary.add("Accept-Language")
    return response


def install(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LOCALE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=choose_locale)
    app.before_request(_start)
    app.teardown_request(_end)
    app.after_request(_headers)
    app.jinja_env.globals.update(html_lang=html_lang, link=link, languages=languages,
                                 format_number=format_number)
    app.register_blueprint(bp)


__all__ = ["choose_locale", "get_locale", "install", "link", "locale_for_tag"]
