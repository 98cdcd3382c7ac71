"""Small helpers for messages users read."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and the noun that agrees with it: ``plural(1, "move")`` is "1 move",
    ``plural(12000, "node")`` is "12,000 nodes", ``plural(2, "vertex", "vertices")`` is "2 vertices".

    ``nouns`` is the plural form when adding "s" is wrong.
    """
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
