"""Decoding a picture of a tangram figure into a grey "figure-ness" map, within fixed limits.

The picture comes from a user (an upload, a file on the command line), so it is decoded by
Pillow with every limit checked before the pixels are: the byte size, the format (PNG, JPEG,
WebP, GIF only), the pixel count (decompression bombs are refused from the header), and a
truncated file is refused rather than half drawn. Nothing is stored.

The map is "how unlike the ground is this pixel", so the figure's polarity (dark on light or
light on dark), its colours (pieces in different colours) and uneven light do not matter:

- the ground's colour is modelled as a quadratic surface per channel, fitted to the pixels a
  first pass called ground (a shadow or a lamp's fall-off is smooth; a figure is not);
- each pixel's distance from that surface, smoothed a little against noise and JPEG blocks,
  is the map, and Otsu's threshold on it separates figure from ground;
- a picture with transparency uses its alpha channel: an opaque figure on a clear ground.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter, UnidentifiedImageError

from engine import InputError

from .i18n import _, count
from .line_drawing import line_drawing

#: What a picture may be: the formats Pillow is asked to try, and the limits checked first.
FORMATS = ("PNG", "JPEG", "WEBP", "GIF")
MAX_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 25_000_000
#: The longest side the picture is worked at (small pictures are enlarged to the shortest).
WORK_MAX = 1024
WORK_MIN = 512


class PictureError(InputError):
    """A picture that cannot be read: too large, not a supported format, truncated, or with no
    figure in it. An InputError, so the web app answers 400 and the CLI exits 2, in words."""


@dataclass(frozen=True)
class Figure:
    """The figure-ness map of a picture at its working size, and how it maps back."""

    level: np.ndarray  # float32, high on the figure; the outline is at ``threshold``
    threshold: float
    zoom: float  # working pixels per picture pixel
    width: int  # the picture's own size
    height: int
    format: str
    #: the picture's colours at the working size (RGB in 0..1, smoothed like the map), where
    #: they tell pieces apart: None for a figure drawn by its transparency
    colour: np.ndarray | None = None
    #: how far (picture pixels) the figure's true outline lies inside the map's: half the pen's
    #: width for a figure drawn as lines (:func:`line_drawing`), else 0
    inset: float = 0.0
    #: the map read another way, to try when the first reads as no figure: a line drawing's
    #: places all filled or alternating (:func:`line_drawing`)
    others: tuple[np.ndarray, ...] = ()
    #: a line drawing's enclosed places, labelled 1 to their count (else None): a drawn
    #: solution's pieces
    places: np.ndarray | None = None
    #: how many of its lines each place lies in from the outside (index 0: the outside)
    place_depths: np.ndarray | None = None


#: A part of the picture smaller than this share of all it shows is no part of a tangram figure
#: (its smallest piece is a sixteenth of it, 6%)...
MARK_SHARE = 0.03
#: ... when it also lies this share of the picture's size away from every larger part: a
#: caption or a figure's number under a figure in a book, a page number, a stray mark.
MARK_GAP = 0.02
#: Working pixels around a mark taken for ground with it (its glow from the blur).
MARK_GLOW = 4
#: A mark rises above the threshold by at least this share of the figure's own rise: the letters
#: of a caption at 128 px by 0.19 to 0.75 of it, the fragments of a pale piece by 0.03 to 0.12
#: (bench/tangram_pictures.py --captions, the mixed set and the set 7000).
MARK_INK = 0.15
#: Parts under this share of the ink are specks of noise, left to the tracing as before (painting
#: them over changed the ground's noise, and a coloured picture at 128 px read otherwise).
MARK_LEAST = 0.0005


def small_marks(level: np.ndarray, threshold: float) -> np.ndarray | None:
    """Where the picture shows small marks standing apart from the figure (None: nowhere): a
    book's figure comes with its number or name printed under it, and each letter of it was an
    outline of its own (a scan with a caption read one figure in twelve). A part near a larger
    one (a dim piece's fragments, a speck on the figure's edge) is no mark; the tracing judges it."""
    from scipy import ndimage

    inside = level > threshold
    labels, count = ndimage.label(inside, structure=np.ones((3, 3)))
    if count < 2:
        return None
    sizes = np.bincount(labels.ravel())[1:]
    big = sizes >= MARK_SHARE * sizes.sum()
    if big.all() or not big.any():
        return None
    in_big = np.isin(labels, np.flatnonzero(big) + 1)
    away = ndimage.distance_transform_edt(~in_big)
    nearest = ndimage.minimum(away, labels, index=np.arange(1, count + 1))
    sized = sizes >= MARK_LEAST * sizes.sum()  # a letter, not a speck of noise (the tracing drops those)
    # printed in ink, not the few pixels of a pale piece that rise above the threshold (a light
    # piece on a light ground, broken up by the noise)
    figure = float(np.median(level[in_big]))
    bold = threshold + MARK_INK * (figure - threshold)
    peaks = np.asarray(ndimage.maximum(level, labels, index=np.arange(1, count + 1)))
    marks = np.flatnonzero(~big & sized & (peaks >= bold) & (np.asarray(nearest) > MARK_GAP * max(level.shape))) + 1
    if not len(marks):
        return None
    # with the glow the blur left around them, which would otherwise count as the ground's noise
    return ndimage.binary_dilation(np.isin(labels, marks), iterations=MARK_GLOW) & (away > MARK_GLOW)


def decode(data: bytes) -> Image.Image:
    """The picture's first frame, decoded within the limits; PictureError in words otherwise."""
    if not isinstance(data, (bytes, bytearray)):
        raise PictureError(_("the picture must be the file's bytes"))
    if not data:
        raise PictureError(_("the picture is empty (0 bytes)"))
    if len(data) > MAX_BYTES:
        raise PictureError(_("the picture is {size} MB; the limit is {limit} MB").format(
            size=f"{len(data) / 2**20:.1f}", limit=MAX_BYTES // 2**20))
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=FORMATS)
        except UnidentifiedImageError:
            raise PictureError(_("this is not a PNG, JPEG, WebP or GIF picture (or it is damaged)")) from None
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise PictureError(_("the picture claims more than {limit} pixels (a decompression bomb?)").format(
                limit=count(MAX_PIXELS))) \
                from None
        except (OSError, ValueError, SyntaxError) as exc:  # Pillow's words for a broken header
            raise PictureError(_("the picture's header cannot be read: {error}").format(error=exc)) from None
        width, height = image.size
        if width < 8 or height < 8:
            raise PictureError(_("the picture is {width} x {height} pixels; at least 8 x 8 are needed").format(
                width=width, height=height))
        if width * height > MAX_PIXELS:
            raise PictureError(_("the picture is {width} x {height} = {pixels} pixels; the limit is {limit}").format(
                width=width, height=height, pixels=count(width * height), limit=count(MAX_PIXELS)))
        if image.format == "JPEG":  # decode a large JPEG at a reduced size straight away
            image.draft("RGB", (WORK_MAX, WORK_MAX))
        try:
            image.load()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise PictureError(_("the picture decodes to more pixels than it claims (a decompression bomb?)")) from None
        except (OSError, ValueError, SyntaxError, EOFError) as exc:
            raise PictureError(_("the picture is truncated or damaged and cannot be decoded ({error})").format(
                error=exc)) from None
    return image


def _working(image: Image.Image) -> tuple[Image.Image, float]:
    """The picture as RGBA at a size where a figure's edges are a few hundred pixels long."""
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if "transparency" in image.info or image.mode in ("LA", "PA") else "RGB")
    w, h = image.size
    longest = max(w, h)
    zoom = min(1.0, WORK_MAX / longest) if longest > WORK_MAX else max(1.0, WORK_MIN / longest)
    if zoom != 1.0:
        image = image.resize((max(1, round(w * zoom)), max(1, round(h * zoom))),
                             Image.Resampling.BILINEAR if zoom > 1 else Image.Resampling.BOX)
    return image, zoom


def otsu(values: np.ndarray) -> float:
    """Otsu's threshold of a float array (256 bins between its extremes)."""
    lo, hi = float(values.min()), float(values.max())
    if hi - lo < 1e-6:
        return hi
    hist, edges = np.histogram(values, bins=256, range=(lo, hi))
    hist = hist.astype(np.float64)
    centres = (edges[:-1] + edges[1:]) / 2
    w0 = np.cumsum(hist)
    w1 = w0[-1] - w0
    m0 = np.cumsum(hist * centres)
    mean0 = m0 / np.maximum(w0, 1e-9)
    mean1 = (m0[-1] - m0) / np.maximum(w1, 1e-9)
    between = w0 * w1 * (mean0 - mean1) ** 2
    return float(edges[int(np.argmax(between[:-1])) + 1])


def _quadratic_ground(channels: np.ndarray, ground: np.ndarray) -> np.ndarray:
    """Per channel, the quadratic surface a*x^2 + ... + f fitted to the ground pixels."""
    h, w, c = channels.shape
    step = max(1, round(max(h, w) / 128))  # a sparse grid is plenty for a smooth surface
    ys, xs = np.mgrid[0:h:step, 0:w:step]
    pick = ground[::step, ::step]
    x, y = xs[pick] / w - 0.5, ys[pick] / h - 0.5
    if x.size < 12:
        return np.broadcast_to(np.median(channels.reshape(-1, c), axis=0), channels.shape)
    basis = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=1)
    coef, *_ = np.linalg.lstsq(basis, channels[::step, ::step][pick], rcond=None)
    gy, gx = np.mgrid[0:h, 0:w]
    fx, fy = gx / w - 0.5, gy / h - 0.5
    full = np.stack([np.ones_like(fx), fx, fy, fx * fx, fx * fy, fy * fy], axis=-1)
    return full @ coef


def figure_map(image: Image.Image) -> Figure:
    """The figure-ness map of a decoded picture and its threshold (see the module docstring)."""
    width, height = image.size
    fmt = image.format or "?"
    work, zoom = _working(image)
    blur = ImageFilter.GaussianBlur(radius=max(0.7, 0.7 * zoom))
    rgba = np.asarray(work.convert("RGBA").filter(blur), dtype=np.float32)
    alpha = rgba[..., 3]
    colour = None
    if alpha.min() < 128 and alpha.max() > 128 and (alpha < 128).mean() > 0.02:
        level = alpha / 255.0  # transparency draws the figure exactly
    else:
        rgb = colour = rgba[..., :3] / 255.0
        # first pass: the ground is the colour of the border (the figure should not touch it)
        border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]])
        dist = np.linalg.norm(rgb - np.median(border, axis=0), axis=-1)
        ground = dist < otsu(dist)
        for _round in range(2):  # then model the ground's light and measure against that model
            dist = np.linalg.norm(rgb - _quadratic_ground(rgb, ground), axis=-1)
            ground = dist < otsu(dist)
        level = dist
    threshold = otsu(level)
    marks = small_marks(level, threshold)
    if marks is not None:  # taken for ground, in the map and in the colours the pieces are told by
        ground = ~marks & (level <= threshold)  # the ground as it was, to paint the marks over with
        level = np.where(marks, np.median(level[ground]), level).astype(level.dtype)
        if colour is not None:
            colour = np.where(marks[..., None], np.median(colour[ground], axis=0), colour).astype(colour.dtype)
        threshold = otsu(level)
    drawn_as_lines = line_drawing(level, threshold)
    inset = 0.0
    others: tuple[np.ndarray, ...] = ()
    places = depths = None
    if drawn_as_lines is not None:
        level, *more = drawn_as_lines.readings
        others = tuple(m.astype(np.float32) for m in more)
        inset = drawn_as_lines.half_pen / zoom
        places, depths = drawn_as_lines.places, drawn_as_lines.depths
    inside = level > threshold
    share = float(inside.mean())
    if share < 0.002 or float(level.max() - level.min()) < 0.08:
        raise PictureError(_("no figure stands out from the ground in this picture"))
    edge = np.concatenate([inside[0], inside[-1], inside[:, 0], inside[:, -1]])
    if edge.mean() > 0.5:
        raise PictureError(_("the figure covers most of the picture's border; leave a margin of ground around it"))
    return Figure(level.astype(np.float32), threshold, zoom, width, height, fmt, colour, inset, others, places, depths)
