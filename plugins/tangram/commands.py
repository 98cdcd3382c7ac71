"""``puzzle tangram ...``: command-line tools of the tangram plugin (``trace``).

Their ``--help`` is in the command line's locale: the help texts are messages of the plugin's
catalogue, said when printed (``TranslatedGroup``).
"""

from __future__ import annotations

import json
import sys

import click

from engine import N_, InputError, TranslatedGroup

from .i18n import CATALOGUE, _
from .picture import MAX_BYTES


@click.group("tangram", cls=TranslatedGroup, catalogue=CATALOGUE, help=N_("Tangram tools."))
def tangram_group() -> None:
    """``puzzle tangram``: the plugin's tools (the help above is what people read)."""


@tangram_group.command("trace", short_help=N_("Read a tangram figure from a picture."), help=N_(
    "Read the tangram figure in IMAGE (PNG, JPEG, WebP or GIF, at most 5 MB and 25 megapixels, "
    "or an SVG drawing) and print it as figure text, which `puzzle solve tangram` accepts.\n\n"
    "How far the outline moved to become exact goes to standard error. Exit 2 when the picture "
    "cannot be read, with the reason in one line."))
@click.argument("image", metavar="IMAGE")
@click.option("--json", "as_json", is_flag=True, help=N_("Print one JSON object (the text, the outline read, ...)."))
def trace_command(image: str, as_json: bool) -> None:
    """``puzzle tangram trace``: a picture read as figure text (see its help above)."""
    from .trace import trace_picture  # Pillow and scikit-image load only for this command

    try:
        try:
            with open(image, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError as exc:
            raise InputError(_("cannot read the picture {path}: {error}").format(
                path=repr(image), error=exc.strerror or exc)) from None
        from .svg import drawing_as_trace, is_svg

        result = drawing_as_trace(data) if is_svg(data) else trace_picture(data)
    except InputError as exc:
        click.echo(_("error: {message}").format(message=exc), err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    click.echo(result.text.rstrip("\n"))
    for note in result.notes:
        click.echo(note, err=True)
