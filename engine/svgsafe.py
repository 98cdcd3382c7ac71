"""Sanitising renderer SVG with an allowlist: defence in depth behind the page's CSP.

Renderers are plugin code and their SVG is inserted into the editor page, so the engine does not
trust it: :func:`sanitize_svg` parses it with lxml (no DTDs, no entities, no network) and keeps
only SVG drawing elements and presentation attributes. It removes, and reports:

* any element not on :data:`ALLOWED_ELEMENTS` (``script``, ``foreignObject``, ``iframe``,
  ``a``, elements in other namespaces, ...), with its content;
* every ``on*`` event attribute and any attribute not on the allowlist (``data-*`` and
  ``aria-*`` are allowed);
* references that leave the document: ``href``/``xlink:href`` other than ``#fragment`` (or a
  ``data:`` raster image), ``url(...)`` other than ``url(#id)`` in attributes and styles,
  ``javascript:`` anywhere, CSS ``@import`` and ``expression(``;
* ``animate``/``set`` that would change an ``href`` or an event attribute;
* comments and processing instructions.

The built-in renderers pass through unchanged (a conformance law checks it), so the allowlist
costs them nothing; :func:`sanitize_svg_report` says what was removed, for tests and logs.
"""

from __future__ import annotations

import re

from lxml import etree

from .errors import PluginError

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"
#: Largest SVG accepted from a renderer, in characters (a 32 x 32 sliding board is ~250 kB).
MAX_SVG_CHARS = 20_000_000

ALLOWED_ELEMENTS = frozenset("""
svg g defs title desc style symbol use switch
rect circle ellipse line polyline polygon path text tspan textPath
marker linearGradient radialGradient stop pattern clipPath mask image
filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting
feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR
feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight
feSpecularLighting feSpotLight feTile feTurbulence
animate animateTransform animateMotion mpath set
""".split())

#: Attributes on top of ``data-*``, ``aria-*`` and the namespace declarations.
ALLOWED_ATTRIBUTES = frozenset("""
id class style role tabindex lang xml:lang xml:space focusable
x y x1 y1 x2 y2 cx cy r rx ry width height d points transform viewBox preserveAspectRatio
version baseProfile
dx dy rotate textLength lengthAdjust startOffset method spacing side
fill fill-opacity fill-rule stroke stroke-width stroke-opacity stroke-linecap stroke-linejoin
stroke-dasharray stroke-dashoffset stroke-miterlimit opacity color display visibility overflow
clip-path clip-rule mask filter vector-effect paint-order shape-rendering text-rendering
font-family font-size font-weight font-style font-variant letter-spacing word-spacing
text-anchor dominant-baseline alignment-baseline baseline-shift text-decoration writing-mode
marker-start marker-mid marker-end markerWidth markerHeight markerUnits refX refY orient
offset stop-color stop-opacity gradientUnits gradientTransform spreadMethod fx fy fr
patternUnits patternContentUnits patternTransform clipPathUnits maskUnits maskContentUnits
filterUnits primitiveUnits in in2 result stdDeviation mode operator k1 k2 k3 k4 values type
tableValues slope intercept amplitude exponent kernelMatrix order divisor bias targetX targetY
edgeMode kernelUnitLength preserveAlpha surfaceScale diffuseConstant specularConstant
specularExponent lighting-color flood-color flood-opacity azimuth elevation pointsAtX pointsAtY
pointsAtZ limitingConeAngle scale xChannelSelector yChannelSelector radius baseFrequency
numOctaves seed stitchTiles color-interpolation-filters
attributeName attributeType begin dur end min max restart repeatCount repeatDur fill calcMode
keyTimes keySplines keyPoints from to by additive accumulate path
href xlink:href media
""".split())

_REF_ATTRIBUTES = {"href", "xlink:href"}
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)
_SAFE_DATA_IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*\Z")
_JS = re.compile(r"(java|vb)script\s*:|expression\s*\(|@import|behavior\s*:|-moz-binding",
                 re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x20]+")  # browsers ignore these inside "java\nscript:"


class UnsafeSVG(PluginError):
    """A renderer's output is not an SVG document the engine can sanitise (not XML, not
    ``<svg>`` at the root, too large)."""


def _name(qname: str) -> str:
    """``{ns}local`` as ``local`` (SVG), ``xlink:local``, ``xml:local`` or ``{ns}local``."""
    if not qname.startswith("{"):
        return qname
    ns, local = qname[1:].split("}", 1)
    if ns == SVG_NS:
        return local
    if ns == XLINK_NS:
        return f"xlink:{local}"
    if ns == XML_NS:
        return f"xml:{local}"
    return qname


def _unsafe_value(value: str) -> bool:
    if ":" not in value and "(" not in value and "@" not in value:
        return False  # every pattern below needs one of these (most values are plain numbers)
    if _JS.search(_CONTROL.sub("", value)):
        return True
    return any(not target.strip().startswith("#") for _, target in _URL.findall(value))


def _safe_reference(value: str) -> bool:
    value = value.strip()
    return value.startswith("#") or bool(_SAFE_DATA_IMAGE.match(value))


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, remove_comments=True, remove_pis=True,
                           strip_cdata=False, huge_tree=False)


def sanitize_svg_report(svg: str) -> tuple[str, list[str]]:
    """(the sanitised SVG, what was removed: one short description per removal).

    Raises :class:`UnsafeSVG` if ``svg`` is not well-formed XML with an ``<svg>`` root.
    """
    if not isinstance(svg, str):
        raise UnsafeSVG(f"a renderer returned {type(svg).__name__}, not SVG text")
    if len(svg) > MAX_SVG_CHARS:
        raise UnsafeSVG(f"a renderer returned {len(svg):,} characters of SVG; the limit is "
                        f"{MAX_SVG_CHARS:,}")
    try:
        root = etree.fromstring(svg.encode("utf-8"), _parser())
    except etree.XMLSyntaxError as exc:
        raise UnsafeSVG(f"a renderer returned SVG that is not well-formed XML: {exc}") from None
    if root.tag != f"{{{SVG_NS}}}svg":
        raise UnsafeSVG(f"a renderer returned <{_name(str(root.tag))}> where <svg> (in the SVG "
                        f"namespace) was expected")
    removed: list[str] = []
    if root.getroottree().docinfo.internalDTD is not None or root.getroottree().docinfo.doctype:
        removed.append("DOCTYPE")
    _clean(root, removed)
    out = etree.tostring(root, encoding="unicode")
    return out, removed


def sanitize_svg(svg: str) -> str:
    """``svg`` with everything outside the allowlist removed (see the module docstring)."""
    return sanitize_svg_report(svg)[0]


def _clean(element: etree._Element, removed: list[str]) -> None:
    for child in list(element):
        if not isinstance(child.tag, str):  # comments, PIs, entities left by the parser
            _drop(child)
            continue
        name = _name(child.tag)
        if name not in ALLOWED_ELEMENTS:
            removed.append(f"<{name}>")
            _drop(child)
            continue
        if name in _ANIMATIONS and not _safe_animation_target(child.get("attributeName", "")):
            removed.append(f"<{name} attributeName={child.get('attributeName')!r}>")
            _drop(child)
            continue
        _clean_attributes(child, name, removed)
        if name == "style" and child.text and _JS.search(_CONTROL.sub("", child.text)) is None:
            targets = [t for _, t in _URL.findall(child.text) if not t.strip().startswith("#")]
            if targets:
                removed.append("<style> with an external url()")
                child.text = ""
        elif name == "style" and child.text:
            removed.append("<style> with script or @import")
            child.text = ""
        _clean(child, removed)
    if element.getparent() is None:
        _clean_attributes(element, "svg", removed)


def _drop(element: etree._Element) -> None:
    """Remove ``element`` but keep the text that followed it (its tail)."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


_ANIMATIONS = frozenset({"animate", "set", "animateTransform", "animateMotion"})


def _safe_animation_target(target: str) -> bool:
    """Animations may not rewrite links, event handlers or styles (a classic filter bypass)."""
    target = target.strip().lower()
    return not (target.startswith("on") or target.endswith("href") or target == "style")


def _clean_attributes(element: etree._Element, name: str, removed: list[str]) -> None:
    # No on* name is on the allowlist, nor starts with data-/aria-: event handlers always go.
    doomed = []
    for qname, value in element.attrib.items():
        attr = _name(qname) if qname[0] == "{" else qname
        if attr in _REF_ATTRIBUTES:
            ok = _safe_reference(value)
        elif attr in ALLOWED_ATTRIBUTES or attr[:5].lower() in ("data-", "aria-"):
            ok = not _unsafe_value(value)
        else:
            ok = False
        if not ok:
            doomed.append((qname, attr))
    for qname, attr in doomed:
        removed.append(f"<{name} {attr}>")
        del element.attrib[qname]
