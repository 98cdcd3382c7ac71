"""The low-noise path (lownoise.py): a nearly exact outline, turned and scaled at random with
its decimals rounded, is read back as the very figure it was made from; noisier outlines are
left to the general reader."""

from __future__ import annotations

import math
import random
import time

import pytest

from bench.tangram_pictures import same_figure
from plugins.tangram import lownoise
from plugins.tangram.figures import PRESETS
from plugins.tangram.reading import normalise
from plugins.tangram.silhouette import parse_silhouette
from plugins.tangram.svg import silhouette_from_svg


@pytest.fixture(autouse=True)
def budgets_that_do_not_depend_on_load(monkeypatch):
    """Wall-clock budgets ten times longer, as in test_tangram_picture.py."""
    from plugins.tangram import decimals, reading
    monkeypatch.setattr(reading, "BUDGET", reading.BUDGET * 10)
    monkeypatch.setattr(reading, "READ_BUDGET", reading.READ_BUDGET * 10)
    monkeypatch.setattr(decimals, "CANDIDATE_BUDGET", decimals.CANDIDATE_BUDGET * 10)


def _turned(name: str, seed: int, jitter: float = 0.0) -> list[list[tuple[float, float]]]:
    rng = random.Random(seed)
    angle, scale = rng.uniform(0, 2 * math.pi), rng.uniform(10, 60)
    c, s = math.cos(angle), math.sin(angle)
    rings = []
    for r in parse_silhouette(PRESETS[name]).rings():
        ring = []
        for x, y in r:
            fx, fy = float(x) + rng.uniform(-jitter, jitter), float(y) + rng.uniform(-jitter, jitter)
            ring.append((scale * (c * fx - s * fy) + 100, scale * (s * fx + c * fy) + 50))
        rings.append(ring)
    return rings


@pytest.mark.parametrize("name", ["cat", "slid-halves", "slid-root2", "assembly-hole-slid", "assembly-slid"])
def test_a_turned_scaled_decimal_export_reads_exactly(name):
    rings = _turned(name, 7)
    body = "".join('<polygon points="' + " ".join(f"{x:.3f},{-y:.3f}" for x, y in r) + '"/>' for r in rings)
    sil = silhouette_from_svg(f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>')
    assert same_figure(sil, parse_silhouette(PRESETS[name]))
    moved = float(sil.messages[0].split("at most ")[1].split(" units")[0])
    assert moved < 0.01  # three decimals at any scale: the vertices barely move


def test_the_path_reads_the_figure_itself_and_leaves_noisy_outlines_alone():
    later = time.monotonic() + 30  # its own budget, generous: what is read, not how fast
    exact = lownoise.read_low_noise(normalise(_turned("house", 3)).rings, deadline=later)
    assert exact is not None and same_figure(parse_silhouette(exact.text), parse_silhouette(PRESETS["house"]))
    # vertices shaken by up to 0.1 units: too noisy for this path (the general reader's turn)
    assert lownoise.read_low_noise(normalise(_turned("house", 3, jitter=0.1)).rings, deadline=later) is None


#: Three outlines in a chain, corner to corner: a square of area 8, a small triangle touching its
#: corner, and a bar of area 7 touching only the triangle's other corner (far from the square).
#: Sorted by area the bar comes before the triangle that joins it to the figure.
CHAIN = ("outer 0,0 2r2,0 2r2,2r2 0,2r2\n"
         "outer 2r2,2r2 3r2,2r2 2r2,3r2\n"
         "outer 2r2,3r2 11/2r2,3r2 11/2r2,4r2 2r2,4r2\n")


def test_outlines_in_a_chain_corner_to_corner_are_one_figure_whatever_their_order():
    chain = parse_silhouette(CHAIN)
    rng = random.Random(5)
    rings = [[(float(x) + rng.uniform(-0.002, 0.002), float(y) + rng.uniform(-0.002, 0.002)) for x, y in r]
             for r in chain.rings()]
    rings.sort(key=lambda r: -abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(r, r[1:] + r[:1]))))
    read = lownoise.read_low_noise(rings, deadline=time.monotonic() + 30)
    assert read is not None, "the bar was taken for an island apart from the figure"
    assert same_figure(parse_silhouette(read.text), chain)
    # a bar really apart from the rest is still an island, left to the general reader
    apart = [r if i < 2 else [(x + 0.5, y + 0.5) for x, y in r] for i, r in enumerate(rings)]
    assert lownoise.read_low_noise(apart, deadline=time.monotonic() + 30) is None
