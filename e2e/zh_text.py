"""Find English prose left on a page shown in Simplified Chinese (docs/i18n.md).

``english_prose(page)`` walks every visible text node of the page, and the accessible texts a
screen reader speaks (``aria-label``, ``title``, ``placeholder``, ``alt``), and returns the ones
that still hold an English word. A *word* is a run of three or more ASCII letters, so move
notation (``d2``, ``L1``, ``r0``), numbers, seeds and single letters never count; the few
words that are not English prose (format names, the picker's "English") are listed in
:data:`ALLOWED_WORDS`, and each plugin test may add its own with a reason.

Left out on purpose, because they are not prose for a reader of Chinese:

- ``<code>``, ``<kbd>``, ``<samp>``, ``<pre>`` and form fields' values: instance text and
  notation typed by the user or shown as syntax;
- anything inside an element with ``lang="en"`` (the picker names English in its own script);
- anything marked ``data-untranslated`` (ids and file names the page quotes on purpose).
"""

from __future__ import annotations

import re

#: Words that are not English prose in a Chinese page: names of formats, programs and units.
ALLOWED_WORDS = frozenset({
    "SVG", "PNG", "JPEG", "WebP", "GIF", "JSON", "URL", "API", "CLI", "HTTP", "CSV", "PDF",
    "Redis", "pip", "Python", "GitHub", "RQ", "IDA", "PDB", "BFS", "DFS",
    # key names, printed as on the keyboard
    "Ctrl", "Shift", "Alt", "Esc", "Enter", "Tab", "Space", "Home", "End", "PageUp", "PageDown",
})

_WORD = re.compile(r"[A-Za-z]{3,}")

# Runs in the page: (text, where) for every visible text node and spoken attribute, minus the
# exempt elements described in the module docstring.
_COLLECT = r"""
() => {
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "CODE", "KBD", "SAMP", "PRE", "TEXTAREA",
                        "INPUT", "SELECT", "TEMPLATE"]);
  const exempt = (el) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      if (SKIP.has(e.tagName.toUpperCase())) return true;
      if (e.hasAttribute("data-untranslated")) return true;
      const lang = e.getAttribute("lang");
      if (lang && lang.toLowerCase().startsWith("en")) return true;
      if (lang) return false;
    }
    return false;
  };
  const visible = (el) => {
    if (!el.getClientRects().length) return false;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.visibility === "hidden" || s.display === "none") return false;
    }
    return true;
  };
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && parts.length < 4; e = e.parentElement) {
      parts.unshift(e.tagName.toLowerCase() + (e.id ? "#" + e.id : ""));
    }
    return parts.join(" > ");
  };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.trim();
    const el = node.parentElement;
    if (!text || !el || exempt(el) || !visible(el)) continue;
    found.push([text, where(el)]);
  }
  for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    if (exempt(el) && !["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName)) continue;
    if (!visible(el)) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = (el.getAttribute(name) || "").trim();
      if (value) found.push([value, where(el) + "@" + name]);
    }
  }
  found.push([document.title, "title"]);
  return found;
}
"""


def english_words(text: str, allowed: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The English words in ``text`` (three or more ASCII letters, not allowed)."""
    return [w for w in _WORD.findall(text) if w not in ALLOWED_WORDS and w not in allowed]


def english_prose(page, allowed: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """Every visible text on ``page`` that holds an English word, as ``"text  (where)"``."""
    left = []
    for text, where in page.evaluate(_COLLECT):
        if english_words(text, allowed):
            left.append(f"{text[:120]!r}  ({where})")
    return left


def assert_no_english(page, moment: str, allowed: frozenset[str] | set[str] = frozenset()) -> None:
    """Fail with the list of English texts on the page, naming the moment (``"after Solve"``)."""
    left = english_prose(page, allowed)
    assert not left, f"English prose on the Chinese page {moment}:\n  " + "\n  ".join(left)
