"""The pieces of a coloured picture told apart by their colours, where no dividing line shows.

A picture of coloured pieces at 128 px blurs the thin lines between its pieces away: one region
of the figure-ness map holds several pieces, and the regions between lines
(:func:`.trace.line_labels`) are not the seven pieces. Their colours still differ. Each piece is
flat in colour inside and changes colour only at its edges, so:

- the flat places are where the colour's gradient (Sobel, over the three channels) is small
  against the figure's strong edges;
- each connected flat place large enough to be a piece is one piece's seed (two pieces of one
  colour that touch make one seed; the picture is then read by its outline as before);
- every other point of the figure goes to the nearest seed.

Nothing here assumes a palette or a number of colours.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage
from skimage.segmentation import expand_labels

#: A point is flat when its colour gradient is under a share of the figure's strong gradients
#: (their 90th percentile): edges against the ground and between pieces. Pieces in near
#: colours (yellow beside orange) need a low share; noise cuts the flat places into specks
#: under a low one; so a few are tried, likeliest first.
FLAT_SHARES = (0.2, 0.15, 0.3)
#: A flat place smaller than this share of the figure is a speck (noise, a blurred corner).
MIN_SEED_SHARE = 0.005
#: The most seeds a picture of seven pieces can sensibly have.
MAX_SEEDS = 30


def colour_gradient(colour: np.ndarray) -> np.ndarray:
    """The magnitude of the colour's gradient at each point: Sobel over the three channels."""
    squared = np.zeros(colour.shape[:2], np.float32)
    for channel in range(colour.shape[2]):
        plane = colour[..., channel]
        squared += ndimage.sobel(plane, 0) ** 2 + ndimage.sobel(plane, 1) ** 2
    return np.sqrt(squared)


def colour_labels(colour: np.ndarray, figure: np.ndarray, flat_share: float = FLAT_SHARES[0],
                  gradient: np.ndarray | None = None) -> tuple[np.ndarray, int] | None:
    """The figure's points (``figure``, a mask on the working map) labelled 1 to count by the
    piece whose colour they show (see the module doc), flat below ``flat_share`` of the strong
    gradients (``gradient``, :func:`colour_gradient` of ``colour`` if not given); None when
    the figure has fewer than two or more than :data:`MAX_SEEDS` flat places."""
    if not figure.any():
        return None
    if gradient is None:
        gradient = colour_gradient(colour)
    flat = figure & (gradient < flat_share * float(np.percentile(gradient[figure], 90)))
    places, count = ndimage.label(flat)
    if count == 0:
        return None
    sizes = ndimage.sum(flat, places, index=range(1, count + 1))
    big = np.zeros(count + 1, bool)
    big[1:] = sizes >= MIN_SEED_SHARE * float(figure.sum())
    seeds = int(big.sum())
    if not 2 <= seeds <= MAX_SEEDS:
        return None
    renumbered = np.cumsum(big) * big  # 1..seeds for the big places, 0 for the specks
    labels = renumbered[places]
    # every other point of the figure to the nearest seed: the band between two pieces splits
    # down its middle
    reach = max(figure.shape)
    return np.where(figure, expand_labels(labels, distance=reach), 0).astype(np.int32), seeds
