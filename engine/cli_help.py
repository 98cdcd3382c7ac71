"""A plugin's command-line help in the reader's language.

click builds a command's help when the module is imported, before the command line has chosen
its locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), and keeps it as plain text. So a plugin
writes its help texts as messages of its own catalogue, marked with ``N_`` for extraction, and
makes its commands with these classes, which look each text up in the catalogue at the moment
the help is printed::

    @click.group("pegs", cls=TranslatedGroup, catalogue=CATALOGUE, help=N_("Peg solitaire tools."))
    def pegs_group(): ...

    @pegs_group.command("count", help=N_("Count every sequence of jumps that solves INSTANCE."))
    @click.option("--json", "as_json", is_flag=True, help=N_("Print one JSON object."))
    def count_command(instance, as_json): ...

A :class:`TranslatedGroup` makes its subcommands (and subgroups) translated with the same
catalogue. The help of the command and of its options, and the one-line summary a group lists,
are translated; a text the catalogue lacks is shown in English, as always. Option names,
metavars and ``--json`` output are never touched.

click's own words around them ("Usage:", "Options", "Show this message and exit.", "default:",
and its usage errors: "No such option", "Missing argument", ...) are said in the reader's
language too, from the engine's catalogue (:data:`CLICK_WORDS`): click looks each one up
through the ``_`` and ``ngettext`` of its own modules, which :func:`click_words` points at the
engine's catalogue while a translated command parses its arguments or prints its help.
"""

from __future__ import annotations

import importlib
import inspect
import re
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import click
import click.formatting

from .i18n import ENGINE, N_, Catalogue

#: click's own line wrapping, for text without wide characters.
_click_wrap_text = click.formatting.wrap_text


def plural_words(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural message of click's for extraction (``make translations`` reads the two
    arguments as one message, like ``ngettext``'s)."""
    return singular, plural


#: The help option's own text, as click writes it.
HELP_TEXT = N_("Show this message and exit.")

#: click's words that a command's help and its usage errors show, exactly as click 8 writes them
#: (``tests/test_cli_help_host.py`` checks that click still has each one), marked so that
#: ``make translations`` puts them in the engine's catalogue.
CLICK_WORDS = (
    N_("Usage:"), N_("Options"), N_("Commands"), N_("Positional arguments"), HELP_TEXT,
    N_("default: {default}"), N_("env var: {var}"), N_("required"), N_("(dynamic)"),
    N_("Missing argument"), N_("Missing option"), N_("Missing parameter"), N_("Missing command."),
    N_("Missing parameter: {param_name}"), N_("No such option {name!r}."), N_("No such command {name!r}."),
    N_("Invalid value for {param_hint}: {message}"), N_("Invalid value: {message}"),
    N_("{value!r} is not a valid {number_type}."), N_("{value} is not in the range {range}."),
    N_("Option {name!r} does not take a value."), N_("{name} {filename!r} does not exist."),
    N_("{name} {filename!r} is a directory."), N_("{name} {filename!r} is a file."),
    N_("file"), N_("directory"), N_("path"), N_("Aborted!"), N_("Error: {message}"),
    N_("Try '{command} {option}' for help."),
)
CLICK_PLURAL_WORDS = (
    plural_words("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    plural_words("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
    plural_words("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
    plural_words("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
)
#: A section heading ("Options:"), as the reader's language punctuates it ("选项：").
HEADING = N_("{heading}:")
#: The click modules whose ``_`` and ``ngettext`` say those words.
CLICK_MODULES = ("click.core", "click.exceptions", "click.formatting", "click.types", "click.parser",
                 "click.decorators", "click.termui")


def _click_gettext(message: str) -> str:
    try:
        return ENGINE.gettext(message)
    except Exception:  # a broken catalogue never breaks the command line: click's English
        return message


def _click_ngettext(singular: str, plural: str, n: int) -> str:
    try:
        return ENGINE.ngettext(singular, plural, n)
    except Exception:
        return singular if n == 1 else plural


@contextmanager
def click_words() -> Iterator[None]:
    """Inside the block, click says its own words in the current locale (engine catalogue)."""
    saved = []
    for name in CLICK_MODULES:
        module = importlib.import_module(name)
        for attr, ours in (("_", _click_gettext), ("ngettext", _click_ngettext)):
            theirs = getattr(module, attr, None)
            if callable(theirs) and theirs not in (_click_gettext, _click_ngettext):
                saved.append((module, attr, theirs))
                setattr(module, attr, ours)
    try:
        yield
    finally:
        for module, attr, theirs in reversed(saved):
            setattr(module, attr, theirs)


@contextmanager
def _headings(formatter: click.HelpFormatter) -> Iterator[None]:
    """While ``formatter`` writes help: section headings punctuated in the reader's language,
    and text in a language written without spaces wrapped by :func:`_wrap_wide`."""
    def write_heading(heading: str) -> None:
        formatter.write(f"{'':>{formatter.current_indent}}{_click_gettext(HEADING).format(heading=heading)}\n")

    formatter.write_heading = write_heading  # type: ignore[method-assign]
    click.formatting.wrap_text = _wrap_wide
    try:
        yield
    finally:
        del formatter.write_heading
        click.formatting.wrap_text = _click_wrap_text


#: Punctuation that may not begin a line, and that may not end one (Chinese line breaking).
_NO_LINE_START = set("，。、；：？！）》」』”’…%")
_NO_LINE_END = set("（《「『“‘：[")
_WIDE = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef…“”‘’"
#: A run of spaces, one wide character, or a run of anything else (a word, a number, --an-option).
_UNITS = re.compile(rf"\s+|[{_WIDE}]|[^\s{_WIDE}]+")


def _wrap_wide(text: str, width: int = 78, initial_indent: str = "", subsequent_indent: str = "",
               preserve_paragraphs: bool = False) -> str:
    """click's ``wrap_text`` for text with wide (CJK) characters: lines are measured in
    columns, a line may break between two Chinese characters but never inside a word such as
    ``--no-prepare``, and no line starts with a closing mark (，。）) or ends with an opening one."""
    if not any(_width(c) == 2 for c in text):
        return _click_wrap_text(text, width, initial_indent, subsequent_indent, preserve_paragraphs)
    paragraphs = re.split(r"\n\s*\n", text.strip()) if preserve_paragraphs else [text]
    out = []
    for paragraph in paragraphs:
        units: list[str] = []
        for unit in _UNITS.findall(" ".join(line.strip() for line in paragraph.splitlines())):
            if units and not units[-1].isspace() and (unit[0] in _NO_LINE_START or units[-1][-1] in _NO_LINE_END):
                units[-1] += unit  # kept together: a mark stays with its neighbour
            else:
                units.append(unit)
        lines, line, space = [], initial_indent, False
        for unit in units:
            if unit.isspace():
                space = True
                continue
            piece = (" " if space and line.strip() else "") + unit
            if line.strip() and _width(line + piece) > width:
                lines.append(line)
                line, piece = subsequent_indent, unit
            line += piece
            space = False
        lines.append(line)
        out.append("\n".join(lines))
    return "\n\n".join(out)


def _width(text: str) -> int:
    """Columns a terminal gives ``text``: two for each wide (CJK) character."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _short_help(text: str, limit: int) -> str:
    """The one line a group lists for a command whose help is in a language written without
    spaces (click's own shortening counts words and characters): its first sentence when it
    fits in ``limit`` columns, else as much as fits and an ellipsis."""
    first = inspect.cleandoc(text).split("\n\n", 1)[0].replace("\n", " ").strip()
    end = first.find("。")
    if end >= 0 and _width(first[:end + 1]) <= limit:
        return first[:end + 1]
    if _width(first) <= limit:
        return first
    cut = ""
    for char in first:
        if _width(cut + char) > limit - 4:
            break
        cut += char
    return cut.rstrip("，、；： ") + "……"


class TranslatedCommand(click.Command):
    """A click command whose help texts are messages of ``catalogue``, said when printed."""

    def __init__(self, *args: Any, catalogue: Catalogue | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.catalogue = catalogue

    def _say(self, text: str | None) -> str | None:
        if not text or self.catalogue is None:
            return text
        try:
            return self.catalogue.gettext(text)
        except Exception:  # a broken catalogue never breaks --help: the English text
            return text

    @contextmanager
    def _in_words(self, ctx: click.Context | None = None) -> Iterator[None]:
        # click reads self.help, self.short_help and each option's help while it formats; they
        # hold the English messages, swapped for the reader's words only while help is printed.
        saved = (self.help, self.short_help, [(p, p.help) for p in self.params if isinstance(p, click.Option)])
        self.help, self.short_help = self._say(self.help), self._say(self.short_help)
        for param, text in saved[2]:
            param.help = self._say(text)
        # click's help option is made once and kept: its text is set for each printing, from
        # the English (it may have been made while click's words were another language's).
        helper = self.get_help_option(ctx) if ctx is not None else None
        if helper is not None and helper.help in (HELP_TEXT, _click_gettext(HELP_TEXT)):
            helper.help = _click_gettext(HELP_TEXT)
        else:
            helper = None
        try:
            yield
        finally:
            self.help, self.short_help = saved[0], saved[1]
            for param, text in saved[2]:
                param.help = text
            if helper is not None:
                helper.help = HELP_TEXT

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with self._in_words(ctx), click_words(), _headings(formatter):
            super().format_help(ctx, formatter)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # "Usage: puzzle ...", or "用法：puzzle ..." (no space after a full-width colon)
        said = _click_gettext("Usage:")
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)),
                              prefix=said if said.endswith("：") else said + " ")

    def get_short_help_str(self, limit: int = 45) -> str:
        with self._in_words():
            if self.short_help or not self.help or self.help.isascii():
                return super().get_short_help_str(limit)
            return _short_help(self.help, limit)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # Usage errors are worded while the arguments are read, and --help is printed then.
        with click_words():
            return super().parse_args(ctx, args)


class TranslatedGroup(TranslatedCommand, click.Group):
    """A click group translated like :class:`TranslatedCommand`; the commands and groups made
    with its ``command()`` and ``group()`` decorators are translated with its catalogue."""

    command_class = TranslatedCommand

    def command(self, *args: Any, **kwargs: Any) -> Callable:  # type: ignore[override]
        kwargs.setdefault("catalogue", self.catalogue)
        return super().command(*args, **kwargs)

    def group(self, *args: Any, **kwargs: Any) -> Callable:  # type: ignore[override]
        kwargs.setdefault("cls", TranslatedGroup)
        kwargs.setdefault("catalogue", self.catalogue)
        return super().group(*args, **kwargs)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        with click_words():  # "No such command"
            return super().resolve_command(ctx, args)


TranslatedGroup.group_class = TranslatedGroup
