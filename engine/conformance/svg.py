"""The SVG rules every renderer obeys: well-formed, a viewBox, and nothing that can run."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from .results import LawFailure

#: Elements that can run code or pull in a foreign document.
_FORBIDDEN = {"script", "foreignObject", "iframe", "object", "embed"}


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def check_svg(svg: object, who: str, example: str) -> ET.Element:
    """Parse ``svg`` and check it; LawFailure naming ``who`` and the ``example`` otherwise."""
    if not isinstance(svg, str):
        raise LawFailure(f"{who} returned {type(svg).__name__}, not SVG text", example)
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as exc:
        raise LawFailure(f"{who} gave SVG that is not well-formed XML ({exc}): user text is "
                         f"probably not escaped", example) from None
    if _local(root.tag) != "svg":
        raise LawFailure(f"{who} gave a <{_local(root.tag)}> root, not <svg>", example)
    if not root.get("viewBox"):
        raise LawFailure(f"{who} gave an <svg> without a viewBox", example)
    for el in root.iter():
        tag = _local(el.tag)
        if tag in _FORBIDDEN:
            raise LawFailure(f"{who} emitted a <{tag}> element: a board must not carry anything "
                             f"that runs (escape user text)", example)
        for name, value in el.attrib.items():
            attr = _local(name).lower()
            if attr.startswith("on"):
                raise LawFailure(f"{who} emitted an event handler attribute {attr}= on <{tag}>", example)
            if attr == "href" and value.strip().lower().startswith("javascript:"):
                raise LawFailure(f"{who} emitted a javascript: link on <{tag}>", example)
    return root
