"""Messages in the reader's language: the current locale, and gettext catalogues by domain.

The host chooses one locale per request (the web app) or per run (the command line) and sets it
with :func:`use_locale`; code that builds a message people read asks a :class:`Catalogue` for it
at that moment, so the same code answers in English to one request and in Chinese to the next.

Every catalogue is a gettext domain of its own: the engine's is ``engine`` (``engine/locale``),
a plugin ships its own (docs/plugins.md, "Translations"). The folder of a language is named by
the locale the host picks, never by a browser's tag: ``zh_Hans`` for Simplified Chinese (Babel
reads ``zh-CN`` as ``zh_Hans_CN``, and gettext would look for ``zh_Hans_CN`` and ``zh``, so the
host always asks for ``zh_Hans`` exactly). A message missing from a catalogue, or a catalogue
missing altogether, gives back the English text: never an error.
"""

from __future__ import annotations

import gettext as _gettext
import os
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Mapping

#: The language of the source text of every message.
DEFAULT_LOCALE = "en"
#: The locales the host has catalogues for, each with its name in its own script (the picker).
LOCALES = {"en": "English", "zh_Hans": "简体中文"}

_current: ContextVar[str] = ContextVar("puzzle_engine_locale", default=DEFAULT_LOCALE)


def current_locale() -> str:
    """The locale messages are being written in now (``"en"`` or ``"zh_Hans"``)."""
    return _current.get()


@contextmanager
def use_locale(locale: str | None) -> Iterator[str]:
    """Write messages in ``locale`` inside the block (unknown or None: English)."""
    chosen = locale if locale in LOCALES else DEFAULT_LOCALE
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def set_locale(locale: str | None) -> object:
    """Set the locale until :func:`reset_locale` is called with the token returned (for hosts
    whose request handling has a start and an end hook rather than one block)."""
    return _current.set(locale if locale in LOCALES else DEFAULT_LOCALE)


def reset_locale(token: object) -> None:
    _current.reset(token)  # type: ignore[arg-type]


#: A Traditional Chinese tag: understood, but there is no catalogue for it yet (English).
TRADITIONAL = "zh_Hant"


def locale_for_tag(tag: str) -> str | None:
    """The host locale a language tag asks for: ``"en"``, ``"zh_Hans"``, :data:`TRADITIONAL`
    or None (a language the host does not have). Tags are read as BCP 47 (``zh-Hans-CN``) or
    as POSIX names (``zh_CN``, ``zh_CN.UTF-8``, ``de_DE@euro``), in any case."""
    tag = tag.strip().split(".", 1)[0].split("@", 1)[0]  # a POSIX name's codeset and modifier
    parts = [p.lower() for p in tag.replace("_", "-").split("-") if p]
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


#: The variables a POSIX program reads for the language of its messages, in their order.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def locale_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The host locale of a command run in ``environ`` (default ``os.environ``).

    The first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set and not empty decides, as
    POSIX says: a later one is not consulted even when the first names a language the host
    lacks. ``C`` and ``POSIX`` are English; ``zh_CN.UTF-8``, ``zh_SG`` and ``zh_Hans`` are
    Simplified Chinese; ``zh_TW`` and every other language are English."""
    environ = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "").strip()
        if value:
            if value in ("C", "POSIX") or value.startswith(("C.", "POSIX.")):
                return DEFAULT_LOCALE
            found = locale_for_tag(value)
            return found if found in LOCALES else DEFAULT_LOCALE
    return DEFAULT_LOCALE


@lru_cache(maxsize=None)
def _translations(directory: str, domain: str, locale: str) -> _gettext.NullTranslations:
    # fallback=True: no file for this locale gives NullTranslations, which answers in English;
    # so does a file that cannot be read (a plugin's broken catalogue never breaks a page).
    try:
        return _gettext.translation(domain, directory, languages=[locale], fallback=True)
    except (OSError, ValueError, UnicodeError):
        return _gettext.NullTranslations()


class Catalogue:
    """One gettext domain: ``Catalogue("puzzle_lights_out", Path(__file__).parent / "locale")``
    reads ``locale/<locale>/LC_MESSAGES/puzzle_lights_out.mo``.

    ``gettext``, ``ngettext`` and ``pgettext`` answer in the current locale (:func:`use_locale`);
    a message the catalogue lacks comes back as the English text given.
    """

    def __init__(self, domain: str, directory: str | Path) -> None:
        self.domain = domain
        self.directory = Path(directory)

    def __repr__(self) -> str:
        return f"Catalogue({self.domain!r}, {str(self.directory)!r})"

    def translations(self, locale: str | None = None) -> _gettext.NullTranslations:
        return _translations(str(self.directory), self.domain, locale or current_locale())

    def gettext(self, message: str) -> str:
        """``message`` in the current locale (or as given, when there is no translation)."""
        if not message:
            return message
        return self.translations().gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of the message that agrees with ``n`` under the locale's CLDR plural rule
        (English has two forms, Chinese one). Format the number in yourself:
        ``ngettext("{n} move", "{n} moves", n).format(n=n)``."""
        return self.translations().ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in a context (the same English word translated two ways)."""
        return self.translations().pgettext(context, message)

    def locales(self) -> tuple[str, ...]:
        """The host locales this catalogue has a compiled translation for (English always)."""
        found = [DEFAULT_LOCALE]
        for locale in LOCALES:
            if locale != DEFAULT_LOCALE and (self.directory / locale / "LC_MESSAGES" / f"{self.domain}.mo").is_file():
                found.append(locale)
        return tuple(found)


def N_(message: str) -> str:
    """Mark a message for extraction without translating it now (a class attribute, a table):
    translate it where it is shown, with the catalogue of the code that defined it."""
    return message


def translate(owner: object, message: str | None) -> str | None:
    """A plugin's fixed text (a title, rules, a label) in the current locale, looked up in the
    ``catalogue`` of the object that declares it (a Puzzle, Solver, Renderer or Task); English
    when it has none or the catalogue lacks the message."""
    if not message:
        return message
    catalogue = getattr(owner, "catalogue", None)
    if not isinstance(catalogue, Catalogue):
        return message
    try:
        return catalogue.gettext(message)
    except Exception:  # a broken catalogue file must not break the page: English instead
        return message


#: The engine's own messages (errors from parsing requests, solving, jobs).
ENGINE = Catalogue("engine", Path(__file__).resolve().parent / "locale")
_ = ENGINE.gettext
ngettext = ENGINE.ngettext


def format_number(value: float, decimals: int | None = None) -> str:
    """``value`` written for the current locale by CLDR rules (Babel): ``12,000`` and ``0.25`` in
    English, and the grouping and decimal sign of the reader's locale otherwise. ``decimals``
    fixes the number of digits after the point (``format_number(0.1432, 2)`` is ``0.14``)."""
    from babel.numbers import format_decimal

    locale = current_locale()
    if decimals is None:
        return format_decimal(value, locale=locale)
    pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    return format_decimal(value, format=pattern, locale=locale, decimal_quantization=True)
