"""Plain words for peg solitaire verdicts: the one sentence a person reads first.

The proof (position classes, pagoda functions, an exhaustive search) goes in the ``detail`` behind
it; the sentence itself only says what cannot happen, in the terms of the goal, so it is true
whichever proof found it.

Every text here is written when it is asked for, in the current locale (:mod:`.i18n`).
"""

from __future__ import annotations

import re

from engine import N_, format_number

from .board import PegInstance
from .i18n import _, ngettext

#: The geometries as people read them (the names stay in the instance text and the actions).
GEOMETRY_LABELS = {"square": N_("square"), "diagonal": N_("diagonal"), "triangular": N_("triangular")}


def geometry_label(geometry: str) -> str:
    """"square", "diagonal" or "triangular" in the reader's language."""
    return _(GEOMETRY_LABELS.get(geometry, geometry))


def no_solution_sentence(instance: PegInstance) -> str:
    """"No: from this start, no single peg can end on d4." (or the sentence for the goal kind)."""
    if instance.goal_kind == "hole":
        return _("No: from this start, no single peg can end on {hole}.").format(hole=_goal_hole(instance))
    if instance.goal_kind == "any":
        return _("No: from this start, no sequence of jumps leaves a single peg.")
    return _("No: from this start, no sequence of jumps reaches the goal pattern.")


def no_solution_clause(instance: PegInstance) -> str:
    """The same fact as :func:`no_solution_sentence` as a clause without "No:" and the full
    stop, for the note "This cannot be solved: ... (position classes rule it out)."."""
    if instance.goal_kind == "hole":
        return _("from this start, no single peg can end on {hole}").format(hole=_goal_hole(instance))
    if instance.goal_kind == "any":
        return _("from this start, no sequence of jumps leaves a single peg")
    return _("from this start, no sequence of jumps reaches the goal pattern")


def _goal_hole(instance: PegInstance) -> str:
    cell = instance.goal.bit_length() - 1
    return instance.board.names[instance.board.index[cell]]


def count_pegs(n: int) -> str:
    """"1 peg", "32 pegs" (the number in the reader's locale, the noun agreeing by CLDR)."""
    return ngettext("{count} peg", "{count} pegs", n).format(count=format_number(n))


def count_positions(n: int) -> str:
    """"1 position", "12,000 positions"."""
    return ngettext("{count} position", "{count} positions", n).format(count=format_number(n))


_PAGODA_NAME = re.compile(r"^(distance|region) pagoda around ([a-z][0-9]+)$")


def pagoda_label(name: str) -> str:
    """The name of a pagoda function (:attr:`.pagoda.Pagoda.name`, kept in English in tables on
    disk) in the reader's language: "distance pagoda around d4"."""
    m = _PAGODA_NAME.match(name)
    if m is None:
        return _(name)
    if m.group(1) == "distance":
        return _("distance pagoda around {hole}").format(hole=m.group(2))
    return _("region pagoda around {hole}").format(hole=m.group(2))


def count_holes(n: int) -> str:
    """"1 hole", "33 holes"."""
    return ngettext("{count} hole", "{count} holes", n).format(count=format_number(n))


def count_jumps(n: int) -> str:
    """"1 jump", "31 jumps"."""
    return ngettext("{count} jump", "{count} jumps", n).format(count=format_number(n))
