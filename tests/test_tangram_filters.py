"""The tangram check's float filters never change an exact answer.

QS2 comparisons and the overlap test decide clear cases in floating point and near-ties exactly;
these tests compare them with the plain exact definitions on cases built to be near-ties
(convergents of sqrt 2, pieces sharing edges and corners).
"""

from __future__ import annotations

import random
from fractions import Fraction

from plugins.tangram.geometry import forms, interiors_overlap
from plugins.tangram.numbers import QS2, sign_of
from plugins.tangram.pieces import PIECE_NAMES, Placement


def exact_compare(x: QS2, y: QS2) -> int:
    return sign_of(x.a - y.a, x.b - y.b)


def test_compare_agrees_with_exact_arithmetic_on_near_ties():
    # p/q convergents of sqrt 2: p - q*sqrt2 is tiny, then scaled far apart and close together.
    p, q = 1, 1
    cases = []
    for _ in range(25):
        p, q = p + 2 * q, p + q
        cases.append((QS2(p, 0), QS2(0, q)))
        cases.append((QS2(Fraction(p, 10**6), 0), QS2(0, Fraction(q, 10**6))))
        cases.append((QS2(p, -q), QS2(0)))
    rng = random.Random(1)
    for _ in range(500):
        a = QS2(Fraction(rng.randrange(-50, 50), rng.randrange(1, 9)), Fraction(rng.randrange(-9, 9), 2))
        cases.append((a, a + QS2(0, Fraction(rng.choice([0, 1, -1]), 10**9))))
    for x, y in cases:
        want = exact_compare(x, y)
        assert x.compare(y) == want
        assert (x < y, x <= y, x > y, x >= y) == (want < 0, want <= 0, want > 0, want >= 0)


def exact_overlap(a, b) -> bool:
    for k in range(4):
        av, bv = [forms(p)[k] for p in a], [forms(p)[k] for p in b]
        if max(av) <= min(bv) or max(bv) <= min(av):
            return False
    return True


def test_the_filtered_overlap_test_agrees_with_the_exact_one():
    rng = random.Random(7)
    steps = [QS2(Fraction(n, 2)) for n in range(-4, 5)] + [QS2(0, Fraction(n, 2)) for n in range(-4, 5)]
    checked = touching = 0
    for _ in range(3000):
        a = Placement(rng.choice(PIECE_NAMES), rng.randrange(8), rng.randrange(2), QS2(0), QS2(0))
        b = Placement(rng.choice(PIECE_NAMES), rng.randrange(8), rng.randrange(2),
                      rng.choice(steps) + rng.choice(steps), rng.choice(steps))
        va, vb = a.vertices(), b.vertices()
        want = exact_overlap(va, vb)
        assert interiors_overlap(va, vb) == want
        edge = va[:2]
        assert interiors_overlap(edge, vb) == exact_overlap(edge, vb)
        checked += 1
        touching += (not want) and any(p in vb for p in va)
    assert checked == 3000 and touching > 20  # many pairs touch: the near-tie path is exercised
