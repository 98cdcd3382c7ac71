"""Plugin values that must become JSON: stats, solution details.

Plugins return ``stats`` and ``describe_solution`` mappings that the engine stores, sends to the
browser and prints with ``--json``. A value JSON cannot encode (a set, a numpy integer, an
object) used to surface far away, as a 500 on every poll of a stored job or a traceback in the
CLI. :func:`json_safe` converts what has one obvious JSON form and rejects the rest at the
engine boundary, naming the key, so the plugin's fault is reported where it happens.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

#: Deepest nesting accepted in a plugin's stats or details.
MAX_DEPTH = 20


class NotJSONable(ValueError):
    """``path`` (e.g. ``stats['seen']``) holds a value of a type JSON has no form for."""

    def __init__(self, path: str, value: Any):
        super().__init__(f"{path} is a {type(value).__name__}, which JSON cannot encode")
        self.path = path


def json_safe(value: Any, path: str = "value", _depth: int = 0) -> Any:
    """``value`` as plain JSON data (dict with str keys, list, str, int, float, bool, None).

    Converts: tuples, sets and frozensets to lists (sets sorted when their items sort, so the
    output is stable); mappings with str keys to dicts; numpy-style scalars (anything with an
    ``item()`` that gives a plain number) to numbers; NaN and infinities to the strings "nan",
    "inf", "-inf" (JSON has no form for them and browsers reject Python's). Raises NotJSONable
    for anything else, naming where it was.
    """
    if _depth > MAX_DEPTH:
        raise NotJSONable(path, value)
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotJSONable(f"{path} key {key!r}", key)
            out[key] = json_safe(item, f"{path}[{key!r}]", _depth + 1)
        return out
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        if isinstance(value, (set, frozenset)):
            try:
                items.sort()
            except TypeError:
                pass  # mixed types: any order is an honest JSON form of a set
        return [json_safe(item, f"{path}[{i}]", _depth + 1) for i, item in enumerate(items)]
    item = getattr(value, "item", None)
    if callable(item):  # numpy scalars: np.int64(3).item() == 3
        try:
            plain = item()
        except Exception:
            plain = value
        if plain is not value and isinstance(plain, (bool, int, float, str)):
            return json_safe(plain, path, _depth + 1)
    raise NotJSONable(path, value)
