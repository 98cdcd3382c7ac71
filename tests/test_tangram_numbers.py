"""Exact arithmetic in Q(sqrt 2): parsing, formatting, signs decided without rounding."""

import math
from fractions import Fraction

import pytest

from engine import InputError
from plugins.tangram.numbers import QS2, R2, format_number, parse_coordinate, parse_number, snap_decimal, sqrt_in_field


@pytest.mark.parametrize("text, a, b", [
    ("3", 3, 0), ("-1/2", Fraction(-1, 2), 0), ("2r2", 0, 2), ("r2", 0, 1), ("-r2", 0, -1),
    ("1+r2", 1, 1), ("3/2-1/4r2", Fraction(3, 2), Fraction(-1, 4)), ("√2", 0, 1),
    ("r2-1", -1, 1), ("1/3 + 2/3r2", Fraction(1, 3), Fraction(2, 3)),
])
def test_parse_and_canonical_round_trip(text, a, b):
    x = parse_number(text)
    assert (x.a, x.b) == (Fraction(a), Fraction(b))
    assert parse_number(format_number(x)) == x


@pytest.mark.parametrize("bad", ["", "r3", "1+2+3", "r2r2", "1/0", "abc", "2 r2 r2", "1" * 13, "--1"])
def test_bad_numbers_are_named(bad):
    with pytest.raises(InputError):
        parse_number(bad)


def test_field_arithmetic():
    x, y = QS2(1, 1), QS2(3, -2)
    assert x * y == QS2(3 - 4, -2 + 3)
    assert (x / y) * y == x
    assert R2 * R2 == QS2(2)
    assert x - x == QS2(0) and not (x - x)


def test_sign_is_exact_where_floats_cannot_tell():
    # Pell numbers: p - q*sqrt2 gets as close to 0 as you like, with a known sign.
    p, q = 1, 1
    for _ in range(30):
        p, q = p + 2 * q, p + q
        diff = QS2(p, -q)
        assert diff.sign() == (1 if p * p - 2 * q * q > 0 else -1)
    assert QS2(p, -q) != 0
    # a float tolerance calls p and q*sqrt2 equal; exact comparison orders them
    assert math.isclose(p, q * math.sqrt(2), rel_tol=1e-12)
    assert (QS2(p) > QS2(0, q)) == (p * p > 2 * q * q)


def test_square_roots_in_the_field():
    assert sqrt_in_field(QS2(3, 2)) == QS2(1, 1)          # (1 + r2)^2 = 3 + 2r2
    assert sqrt_in_field(QS2(Fraction(9, 8))) == QS2(0, Fraction(3, 4))
    assert sqrt_in_field(QS2(2)) == R2
    assert sqrt_in_field(QS2(3)) is None
    assert sqrt_in_field(QS2(-4)) is None


def test_decimals_snap_to_simple_exact_numbers_and_say_how_far():
    x, moved = snap_decimal("1.4142")
    assert x == R2 and 0 < moved < 1e-4
    x, moved = snap_decimal("2.5")
    assert x == QS2(Fraction(5, 2)) and moved == 0
    assert parse_coordinate("0.7071")[0] == QS2(0, Fraction(1, 2))
    assert parse_coordinate("3")[1] is None
    with pytest.raises(InputError):
        snap_decimal("1e400")


@pytest.mark.parametrize("text", ["١٢", "５", "𝟓", "1/٣", "٢r2"])
def test_digits_of_other_scripts_are_refused_not_read_as_0_to_9(text):
    # Python's regex \d matches every script's digits and int() reads them, so "١٢" once
    # parsed as 12.
    with pytest.raises(InputError):
        parse_number(text)


@pytest.mark.parametrize("text", ["١.5", "５.25", "0.٥"])
def test_decimals_in_other_scripts_are_refused(text):
    with pytest.raises(InputError):
        snap_decimal(text)
