"""The numpy beam of the outline reader's meet-in-the-middle search (closing._half_beam)
keeps exactly the states the plain loop over states keeps (tests/tangram_closing_reference.py):
same exact ends and areas, same costs, same paths, same order, on noisy outlines of random
figures, for both halves of each ring and with and without the area asked."""

from __future__ import annotations

import random

import pytest

from bench.tangram_inputs import exact_figures, roughen
from plugins.tangram import closing
from plugins.tangram.reading import read_noisy
from tests.tangram_closing_reference import half_beam_loop


@pytest.mark.parametrize("noise", [0.05, 0.2])
def test_the_numpy_beam_keeps_what_the_loop_over_states_keeps(noise, monkeypatch):
    calls = []
    beam = closing._half_beam

    def compared(*args, **kwargs):
        got = beam(*args, **kwargs)
        want = half_beam_loop(*args, **kwargs)
        calls.append((list(got.items()) == list(want.items()), len(want), args[4]))
        return got
    monkeypatch.setattr(closing, "_half_beam", compared)
    rng = random.Random(3)
    for _name, sil in exact_figures(8, seed=4000)[-6:]:
        rings, _scale = roughen(sil, noise, rng)
        try:
            read_noisy(rings, pieces=False)
        except Exception:  # a refusal still ran the beams
            pass
    assert len(calls) >= 12
    assert all(same for same, _size, _width in calls), calls
    # the beams were full (trimmed to their width), where the order of ties matters
    assert any(size == width for _same, size, width in calls)
