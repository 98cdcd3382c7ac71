"""Boards as raster images: PNG stills (render.png) and animated GIF / WebP solutions.

The SVG each renderer draws is rasterised by resvg (the ``resvg-py`` wheel), chosen over
CairoSVG by ``bench/raster_choice.py``: it matches Chromium's rendering of the boards as well
or better, and installs as one self-contained wheel (CairoSVG needs the system's libcairo).
Fonts are DejaVu when it is installed (the renderers ask for it first), else the system's.
"""

from __future__ import annotations

import io
import os
from typing import Sequence

from flask_babel import format_decimal, gettext, ngettext
from lxml import etree

from engine import InputError

#: PNG widths accepted (pixels).
MIN_SIZE, MAX_SIZE = 64, 1600
#: Animated images: at most this many frames, and this many pixels over all frames (a 600 px
#: board of 300 frames is about 100 M; encoding it takes seconds of a request thread).
MAX_FRAMES = 501
MAX_ANIMATION_PIXELS = 60_000_000
#: The background of GIF and WebP frames (GIF has no partial transparency).
FRAME_BACKGROUND = "#ffffff"

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
_FONT_DIR = "/usr/share/fonts/truetype/dejavu"


def read_size(raw, default: int) -> int:
    """A width in pixels, MIN_SIZE..MAX_SIZE; InputError in words otherwise."""
    if raw is None or raw == "":
        return default
    text = str(raw).strip()
    if not text.isdigit() or not MIN_SIZE <= int(text) <= MAX_SIZE:
        raise InputError(gettext("the size must be a whole number of pixels from %(least)s to %(most)s, not "
                                 "%(value)s", least=MIN_SIZE, most=MAX_SIZE, value=repr(text[:20])), where="size")
    return int(text)


def aspect(svg: str) -> float:
    """Height / width of a board from its viewBox (1.0 when it has none)."""
    try:
        root = etree.fromstring(svg.encode("utf-8"), _PARSER)
        box = [float(v) for v in (root.get("viewBox") or "").replace(",", " ").split()]
        if len(box) == 4 and box[2] > 0 and box[3] > 0:
            return box[3] / box[2]
        return float(str(root.get("height")).rstrip("px")) / float(str(root.get("width")).rstrip("px"))
    except (ValueError, TypeError, etree.XMLSyntaxError):
        return 1.0


def sized(svg: str, width: int) -> tuple[str, int, int]:
    """The SVG with an explicit pixel width and height (renderers may say ``100%``, which
    rasterisers resolve differently), and that size."""
    root = etree.fromstring(svg.encode("utf-8"), _PARSER)
    height = max(1, round(width * aspect(svg)))
    root.set("width", str(width))
    root.set("height", str(height))
    return etree.tostring(root, encoding="unicode"), width, height


def _font_options() -> dict:
    if os.path.isdir(_FONT_DIR):  # loading every system font costs ~20 ms a picture
        files = [os.path.join(_FONT_DIR, f) for f in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")]
        files = [f for f in files if os.path.exists(f)]
        if files:
            return {"skip_system_fonts": True, "font_files": files}
    return {}


_FONTS: dict | None = None


def png(svg: str, width: int, background: str | None = None) -> bytes:
    """The board as a PNG ``width`` pixels wide (transparent where the SVG draws nothing)."""
    global _FONTS
    import resvg_py

    if _FONTS is None:
        _FONTS = _font_options()
    text, w, h = sized(svg, width)
    options = dict(_FONTS)
    if background:
        options["background"] = background
    return bytes(resvg_py.svg_to_bytes(svg_string=text, width=w, height=h, **options))


def check_animation(frames: int, width: int, height: int) -> None:
    """InputError when an animation of this many frames at this size is too large."""
    if frames > MAX_FRAMES:
        given = ngettext("%(count)s move", "%(count)s moves", frames - 1, count=format_decimal(frames - 1))
        raise InputError(ngettext("an animated image can show at most %(count)s move, not %(given)s (use the embed "
                                  "player instead)",
                                  "an animated image can show at most %(count)s moves, not %(given)s (use the embed "
                                  "player instead)", MAX_FRAMES - 1,
                                  count=format_decimal(MAX_FRAMES - 1), given=given), where="moves")
    if frames * width * height > MAX_ANIMATION_PIXELS:
        most = max(1, MAX_ANIMATION_PIXELS // max(1, width * height) - 1)
        given = ngettext("%(count)s move", "%(count)s moves", frames - 1, count=format_decimal(frames - 1))
        raise InputError(ngettext("%(given)s at %(width)s px are too many for one animated image; at this size it "
                                  "can show %(count)s move (ask for a smaller size)",
                                  "%(given)s at %(width)s px are too many for one animated image; at this size it "
                                  "can show %(count)s moves (ask for a smaller size)", most,
                                  count=format_decimal(most), given=given,
                                  width=width), where="moves")


def animation(frames: Sequence[bytes], delay_ms: int, last_ms: int, kind: str) -> bytes:
    """Animated GIF or WebP (``kind``) of PNG frames: ``delay_ms`` each, the last ``last_ms``,
    looping forever."""
    from PIL import Image

    images = [Image.open(io.BytesIO(frame)).convert("RGB") for frame in frames]
    durations = [delay_ms] * (len(images) - 1) + [last_ms]
    out = io.BytesIO()
    if kind == "gif":
        # One adaptive palette per frame; no frame is dropped as a duplicate of the one before
        # (steps always differ: the last-move cue moves) and none is partly transparent.
        paletted = [im.quantize(colors=255, method=Image.Quantize.MEDIANCUT) for im in images]
        paletted[0].save(out, "GIF", save_all=True, append_images=paletted[1:], duration=durations,
                         loop=0, disposal=1, optimize=False)
    else:
        images[0].save(out, "WEBP", save_all=True, append_images=images[1:], duration=durations,
                       loop=0, quality=80, method=2, minimize_size=False, allow_mixed=False)
    return out.getvalue()
