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

from engine.i18n import DEFAULT_LOCALE, LOCALES, reset_locale, set_locale

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
#: A Traditional Chinese tag: understood, but there is no catalogue for it yet.
TRADITIONAL = "zh_Hant"

bp = Blueprint("i18n", __name__)


def locale_for_tag(tag: str) -> str | None:
    """The host locale a language tag asks for: ``"en"``, ``"zh_Hans"``, :data:`TRADITIONAL`
    or None (a language the host does not have). Tags are read as BCP 47 (``zh-Hans-CN``) or
    as POSIX names (``zh_CN``), in any case."""
    parts = [p.lower() for p in tag.strip().replace("_", "-").split("-") if p]
    if not parts:
        return None
    if parts[0] == "en":
        return "en"
    if parts[0] != "zh":
        return None
    rest = parts[1:]
    script = next((p for p in rest if len(p) == 4 and p.isalpha()), None)
    region = next((p for p in rest if len(p) == 2 or (len(p) == 3 and p.isdigit())), None)
    if script == "hans":
        return "zh_Hans"
    if script == "hant" or region in ("tw", "hk", "mo"):
        return TRADITIONAL
    return "zh_Hans"  # zh, zh-CN, zh-SG, zh-MY: Simplified is the likely script


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


@lru_cache(maxsize=None)
def js_catalogue(locale: str) -> tuple[str, str]:
    """(the JSON catalogue of the scripts' messages in ``locale``, its content hash).

    ``{"locale": "zh-Hans", "messages": {msgid: text or {category: text}}}``: a plural message
    gives one text per CLDR category, chosen in the page with ``Intl.PluralRules``. Only
    translated messages are listed; the scripts show the English text of any other."""
    messages: dict[str, object] = {}
    mo = TRANSLATIONS / locale / "LC_MESSAGES" / "js.mo"
    if locale != DEFAULT_LOCALE and mo.is_file():
        categories = plural_categories(locale)
        with mo.open("rb") as f:
            catalog = read_mo(f)
        for message in catalog:
            if not message.id or not message.string:
                continue
            if isinstance(message.id, (tuple, list)):
                forms = list(message.string)
                if all(forms):
                    messages[message.id[0]] = {c: forms[min(i, len(forms) - 1)] for i, c in enumerate(categories)}
            else:
                messages[message.id] = message.string
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
