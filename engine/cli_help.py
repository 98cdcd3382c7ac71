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
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

import click

from .i18n import Catalogue


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
    def _in_words(self) -> Iterator[None]:
        # click reads self.help, self.short_help and each option's help while it formats; they
        # hold the English messages, swapped for the reader's words only while help is printed.
        saved = (self.help, self.short_help, [(p, p.help) for p in self.params if isinstance(p, click.Option)])
        self.help, self.short_help = self._say(self.help), self._say(self.short_help)
        for param, text in saved[2]:
            param.help = self._say(text)
        try:
            yield
        finally:
            self.help, self.short_help = saved[0], saved[1]
            for param, text in saved[2]:
                param.help = text

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with self._in_words():
            super().format_help(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        with self._in_words():
            return super().get_short_help_str(limit)


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


TranslatedGroup.group_class = TranslatedGroup
