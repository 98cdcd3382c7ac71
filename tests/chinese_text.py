"""Checks that a text is Chinese prose, for the plugins' translation tests (the browser walk's
counterpart is e2e/zh_text.py). A *word* is a run of three or more ASCII letters, so notation
(``d2``, ``L1``, ``r0``), numbers and single letters never count."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z]{3,}")
_CJK = re.compile(r"[\u4e00-\u9fff]")
#: Names of formats, which a Chinese sentence writes as they are.
FORMAT_NAMES = frozenset({"SVG", "PNG", "JPEG", "WebP", "GIF", "JSON"})


def english_words(text: str, allowed: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The English words of ``text``, less format names and ``allowed``."""
    return [w for w in _WORD.findall(text) if w not in FORMAT_NAMES and w not in allowed]


def assert_chinese(text: str | None, what: str = "the text",
                   allowed: frozenset[str] | set[str] = frozenset()) -> str:
    """``text`` itself, after checking it holds Chinese and no English word."""
    assert text, f"{what} is empty"
    assert _CJK.search(text), f"{what} holds no Chinese: {text!r}"
    left = english_words(text, allowed)
    assert not left, f"{what} holds English {left}: {text!r}"
    return text
