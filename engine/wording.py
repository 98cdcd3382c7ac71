"""Small helpers for messages users read."""

from __future__ import annotations

import warnings


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """Deprecated: English only. ``plural(1, "move")`` is "1 move", ``plural(2, "vertex",
    "vertices")`` is "2 vertices".

    A message people read is said in their language, whose plural rule may not be English's
    (Chinese has one form, Russian three): write the whole sentence in both forms with your
    catalogue's ``ngettext("{count} move", "{count} moves", n)`` instead (docs/plugins.md,
    section 13). Kept, with a DeprecationWarning, until the next plugin contract.
    """
    warnings.warn("engine.plural is deprecated: it only knows English plurals; use your catalogue's "
                  "ngettext (docs/plugins.md, section 13)", DeprecationWarning, stacklevel=2)
    return f"{count:,} {noun if count == 1 else (nouns or noun + 's')}"


def shown(value: object, limit: int = 40) -> str:
    """``value`` as the user wrote it in JSON (``true``, ``null``, ``"abc"``, ``[1, 2]``), not as
    Python prints it (``True``, ``None``): for messages about values from a JSON request."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not from JSON after all
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
