"""One strict reader for the numbers a request carries (query string or JSON body).

Python's ``int()`` and ``float()`` read far more than the docs promise: other scripts' digits
("٥", "１"), a sign ("+5"), digit separators ("1_0"), "nan" and "1e9". A number sent to this API
is written in ASCII: digits 0-9 and, where a fraction makes sense, one decimal point. JSON
numbers are taken as they are (but JSON ``true`` is not 1).
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext as _

from engine import InputError
from engine.wording import shown

_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?|\.[0-9]+")
#: Longest number text read (a longer one is refused before int() spends time on it).
MAX_DIGITS = 40


def read_whole(raw: Any, where: str, what: str) -> int:
    """A whole number >= 0 from a JSON integer or ASCII digits; InputError("<what> must be a
    whole number, not ...") otherwise. ``what`` names the value in the message."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    # No strip(): "?seed=+5" arrives as " 5" (a query's "+" is a space), and is refused too.
    if isinstance(raw, str) and len(raw) <= MAX_DIGITS and _WHOLE.fullmatch(raw):
        return int(raw)
    raise InputError(_("%(what)s must be a whole number written with the digits 0-9, not %(value)s",
                       what=_(what), value=shown(raw)), where=where)


def read_decimal(raw: Any, where: str, what: str) -> float:
    """A number >= 0 from a JSON number or ASCII digits with at most one decimal point."""
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return float(raw)
    if isinstance(raw, str) and len(raw) <= MAX_DIGITS and _DECIMAL.fullmatch(raw):
        return float(raw)
    raise InputError(_("%(what)s must be a number written with the digits 0-9 (and a decimal point), not %(value)s",
                       what=_(what), value=shown(raw)), where=where)
