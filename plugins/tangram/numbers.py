"""Exact numbers of the field Q(sqrt 2): ``a + b*sqrt(2)`` with rational ``a`` and ``b``.

Every vertex of every tangram piece, in every orientation that is a multiple of 45 degrees, has
coordinates of this form (with the 4 x 4 square as unit the coefficients are even integers, and
pieces slid along an edge by a rational amount give rational ones). Sums, differences and products
stay in the field, and the sign of ``a + b*sqrt(2)`` is decided with rational arithmetic only:
when ``a`` and ``b`` have opposite signs, compare ``a**2`` with ``2*b**2``. Nothing here ever
rounds, so no tolerance can accept a wrong placement or reject a right one.

Text syntax (parse/format round-trip): ``3``, ``-1/2``, ``2r2``, ``r2``, ``1+r2``,
``3/2-1/4r2``; ``√2`` is accepted for ``r2`` and ``sqrt2`` too. Decimals (``2.828``) are accepted by
:func:`snap_decimal`, which finds the simplest exact number within a tolerance.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import total_ordering

from engine import InputError

from .i18n import _

SQRT2_FLOAT = math.sqrt(2.0)
#: Digits allowed in one numerator or denominator; keeps every input's work bounded.
MAX_DIGITS = 12


def sign_of(a: Fraction, b: Fraction) -> int:
    """The sign (-1, 0 or 1) of a + b*sqrt(2), decided exactly from the rational parts.

    A function of its own so hot geometry code can use it without building a QS2.
    """
    sa = (a > 0) - (a < 0)
    sb = (b > 0) - (b < 0)
    if sa == 0:
        return sb
    if sb == 0 or sa == sb:
        return sa
    # opposite signs: |a| vs |b|*sqrt2, i.e. a^2 vs 2 b^2
    return sa if a * a > 2 * b * b else sb


def _same(x: Fraction, y: Fraction) -> bool:
    """x == y for two Fractions (always in lowest terms), without Fraction.__eq__'s generic
    number-tower checks, which made equality the cost of checking a tangram cover."""
    return x.numerator == y.numerator and x.denominator == y.denominator


@total_ordering
class QS2:
    """An exact number ``a + b*sqrt(2)`` (``a``, ``b`` are Fractions). Immutable and hashable."""

    __slots__ = ("a", "b", "_hash", "_float", "_error")

    def __init__(self, a=0, b=0):
        # Fraction(x) of a Fraction is a needless copy, and QS2s are made by the million.
        object.__setattr__(self, "a", a if type(a) is Fraction else Fraction(a))
        object.__setattr__(self, "b", b if type(b) is Fraction else Fraction(b))

    def __setattr__(self, name, value):  # immutability: instances are shared and hashed
        raise AttributeError("QS2 is immutable")

    # -- arithmetic ---------------------------------------------------------------------------
    @staticmethod
    def _coerce(other) -> "QS2":
        if isinstance(other, QS2):
            return other
        if isinstance(other, (int, Fraction)):
            return QS2(other, 0)
        return NotImplemented

    def __add__(self, other):
        o = self._coerce(other)
        if o is NotImplemented:
            return o
        return QS2(self.a + o.a, self.b + o.b)

    __radd__ = __add__

    def __sub__(self, other):
        o = self._coerce(other)
        if o is NotImplemented:
            return o
        return QS2(self.a - o.a, self.b - o.b)

    def __rsub__(self, other):
        o = self._coerce(other)
        if o is NotImplemented:
            return o
        return o - self

    def __neg__(self):
        return QS2(-self.a, -self.b)

    def __mul__(self, other):
        o = self._coerce(other)
        if o is NotImplemented:
            return o
        return QS2(self.a * o.a + 2 * self.b * o.b, self.a * o.b + self.b * o.a)

    __rmul__ = __mul__

    def conjugate(self) -> "QS2":
        """``a - b*sqrt(2)``."""
        return QS2(self.a, -self.b)

    def norm(self) -> Fraction:
        """``a**2 - 2*b**2`` (zero only for zero)."""
        return self.a * self.a - 2 * self.b * self.b

    def __truediv__(self, other):
        o = self._coerce(other)
        if o is NotImplemented:
            return o
        n = o.norm()
        if n == 0:
            raise ZeroDivisionError("division by zero in Q(sqrt 2)")
        p = self * o.conjugate()
        return QS2(p.a / n, p.b / n)

    def __rtruediv__(self, other):
        o = self._coerce(other)
        if o is NotImplemented:
            return o
        return o / self

    # -- order --------------------------------------------------------------------------------
    def sign(self) -> int:
        """-1, 0 or 1, decided exactly."""
        return sign_of(self.a, self.b)

    def __eq__(self, other):
        o = self._coerce(other)
        if o is NotImplemented:
            return NotImplemented
        return _same(self.a, o.a) and _same(self.b, o.b)

    def _approx(self) -> tuple[float, float]:
        """(float value, a bound on its error), cached. float(Fraction) is correctly rounded,
        so each part is off by at most half an ulp; 1e-12 of the magnitude is far above that."""
        try:
            return self._float, self._error
        except AttributeError:
            try:
                fa, fb = float(self.a), float(self.b) * SQRT2_FLOAT
            except OverflowError:
                fa, fb = math.inf, math.inf
            value, error = fa + fb, 1e-12 * (abs(fa) + abs(fb)) + 1e-300
            object.__setattr__(self, "_float", value)
            object.__setattr__(self, "_error", error)
            return value, error

    def compare(self, other) -> int:
        """-1, 0 or 1 as self is below, equal to or above ``other``, decided exactly.

        Floats answer when the two values are clearly apart (the usual case: geometry compares
        vertices that differ by whole units); only near-ties fall back to rational arithmetic.
        """
        o = self._coerce(other)
        if o is self or (_same(self.a, o.a) and _same(self.b, o.b)):
            return 0  # ties are common (vertices sharing a coordinate) and floats cannot see them
        (x, ex), (y, ey) = self._approx(), o._approx()
        d = x - y
        if d > ex + ey and math.isfinite(d):
            return 1
        if -d > ex + ey and math.isfinite(d):
            return -1
        return sign_of(self.a - o.a, self.b - o.b)

    def __lt__(self, other):
        if self._coerce(other) is NotImplemented:
            return NotImplemented
        return self.compare(other) < 0

    def __le__(self, other):
        if self._coerce(other) is NotImplemented:
            return NotImplemented
        return self.compare(other) <= 0

    def __gt__(self, other):
        if self._coerce(other) is NotImplemented:
            return NotImplemented
        return self.compare(other) > 0

    def __ge__(self, other):
        if self._coerce(other) is NotImplemented:
            return NotImplemented
        return self.compare(other) >= 0

    def __hash__(self):
        # cached: points are hashed over and over (sets of vertices and edges), and hashing
        # two Fractions is slow; the value is immutable, so the hash never changes
        try:
            return self._hash
        except AttributeError:
            h = hash((self.a, self.b))
            object.__setattr__(self, "_hash", h)
            return h

    def __abs__(self):
        return -self if self.sign() < 0 else self

    def __float__(self):
        return self._approx()[0]

    def __bool__(self):
        return self.a != 0 or self.b != 0

    # -- text ---------------------------------------------------------------------------------
    def __str__(self):
        return format_number(self)

    def __repr__(self):
        return f"QS2({format_number(self)!r})"

    def __reduce__(self):  # pickling (worker processes) without the immutability guard
        return (QS2, (self.a, self.b))


ZERO = QS2(0)
ONE = QS2(1)
R2 = QS2(0, 1)


def _frac_text(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def format_number(x: QS2) -> str:
    """Canonical text: ``3``, ``-1/2``, ``r2``, ``-r2``, ``2r2``, ``1+r2``, ``3/2-1/4r2``."""
    a, b = x.a, x.b
    if b == 0:
        return _frac_text(a)
    if b == 1:
        bt = "r2"
    elif b == -1:
        bt = "-r2"
    else:
        bt = _frac_text(b) + "r2"
    if a == 0:
        return bt
    return _frac_text(a) + ("" if bt.startswith("-") else "+") + bt


_RATIONAL = r"[0-9]+(?:/[0-9]+)?"
_TERM = re.compile(rf"([+-]?)({_RATIONAL})?(r2)?")


def _rational(text: str, whole: str) -> Fraction:
    num, _slash, den = text.partition("/")
    if len(num) > MAX_DIGITS or len(den) > MAX_DIGITS:
        raise InputError(_("number {number} has more than {limit} digits in a part; "
                           "use a simpler coordinate").format(number=repr(whole), limit=MAX_DIGITS))
    if den and int(den) == 0:
        raise InputError(_("number {number} divides by zero").format(number=repr(whole)))
    return Fraction(int(num), int(den) if den else 1)


def parse_number(text: str) -> QS2:
    """Parse exact number text (``3``, ``1/2``, ``2r2``, ``1+r2``, ``3/2-1/4r2``, ``√2``).

    At most one rational term and one ``r2`` term. Raises InputError naming the text.
    """
    raw = text
    s = text.strip().replace("√2", "r2").replace("sqrt2", "r2").replace("*r2", "r2")
    s = s.replace(" ", "")
    if not s:
        raise InputError(_("empty number"))
    pos = 0
    a = Fraction(0)
    b = Fraction(0)
    seen_a = seen_b = False
    while pos < len(s):
        m = _TERM.match(s, pos)
        if not m or m.end() == pos or (m.group(2) is None and m.group(3) is None):
            raise InputError(_("cannot read the number {number}: write it like 3, 1/2, 2r2, "
                               "1+r2 or 3/2-1/4r2 (r2 is the square root of 2)").format(number=repr(raw)))
        sign = -1 if m.group(1) == "-" else 1
        if pos > 0 and not m.group(1):
            raise InputError(_("cannot read the number {number}: terms must be joined by + or -").format(
                number=repr(raw)))
        coeff = _rational(m.group(2), raw) if m.group(2) else Fraction(1)
        if m.group(3):
            if seen_b:
                raise InputError(_("number {number} has two r2 terms").format(number=repr(raw)))
            b, seen_b = sign * coeff, True
        else:
            if seen_a:
                raise InputError(_("number {number} has two rational terms").format(number=repr(raw)))
            a, seen_a = sign * coeff, True
        pos = m.end()
    return QS2(a, b)


_DECIMAL = re.compile(r"^[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?$")
#: Decimals are snapped to an exact number no farther than this.
SNAP_TOLERANCE = 0.002


def is_decimal(text: str) -> bool:
    """True for plain decimal text that is not an exact rational (``2.828``, ``1e-3``)."""
    t = text.strip()
    return bool(_DECIMAL.match(t)) and ("." in t or "e" in t.lower())


def snap_decimal(text: str, tolerance: float = SNAP_TOLERANCE) -> tuple[QS2, float]:
    """The simplest exact ``a + b*sqrt2`` within ``tolerance`` of a decimal, and how far it moved.

    "Simplest": smallest denominator (1, 2, 4, 8, 3, 6, 12, 5, 10), then smallest ``|b|``. This is
    how figures measured on paper or exported by drawing programs (``1.4142``) become exact.
    """
    if len(text.strip()) > 40:
        raise InputError(_("decimal {number}... is too long").format(number=repr(text[:40])))
    try:
        # float() also reads other scripts' digits ("١.5"); only ASCII 0-9 are digits here.
        if not text.isascii():
            raise ValueError
        x = float(text)
    except ValueError:
        raise InputError(_("cannot read the number {number}").format(number=repr(text))) from None
    if not math.isfinite(x) or abs(x) > 1e6:
        raise InputError(_("number {number} is out of range").format(number=repr(text)))
    for den in (1, 2, 4, 8, 3, 6, 12, 5, 10, 16):
        limit = int(abs(x) / SQRT2_FLOAT * den) + 2 * den
        # b = bn/den in the order 0, -1, 1, -2, 2, ... (smallest |b| first), in floats only:
        # bn/den and an/den are the floats of the Fractions, so err is float(QS2(a, b)) - x
        # exactly as before, without building a Fraction per candidate
        s2 = SQRT2_FLOAT
        for size in range(limit + 1):
            for bn in (-size, size) if size else (0,):
                fb = bn / den
                an = round((x - fb * s2) * den)
                err = abs(an / den + fb * s2 - x)
                if err <= tolerance:
                    return QS2(Fraction(an, den), Fraction(bn, den)), err
    raise InputError(_("the decimal {number} is not within {tolerance} of a simple number "
                       "a + b*r2; give it exactly (for example 3/2+1/4r2)").format(number=repr(text),
                                                                                   tolerance=tolerance))


def parse_coordinate(text: str) -> tuple[QS2, float | None]:
    """A coordinate given exactly or as a decimal; returns the number and the snap distance.

    The distance is None for exact input.
    """
    if is_decimal(text):
        return snap_decimal(text)
    return parse_number(text), None


def sqrt_in_field(x: QS2) -> QS2 | None:
    """The non-negative square root of ``x`` if it lies in Q(sqrt 2), else None.

    If ``(c + d r2)^2 = a + b r2`` then ``c^2 + 2d^2 = a`` and ``2cd = b``; the norm
    ``a^2 - 2b^2`` must be a rational square ``n^2`` and ``c^2 = (a +- n)/2``.
    """
    if x.sign() < 0:
        return None
    if not x:
        return ZERO
    n = _rational_sqrt(x.norm())
    if n is None:
        return None
    for c2 in ((x.a + n) / 2, (x.a - n) / 2):
        c = _rational_sqrt(c2)
        if c is None:
            continue
        if c == 0:
            d = _rational_sqrt(x.a / 2)
            if d is None or x.b != 0:
                continue
            root = QS2(0, d)
        else:
            root = QS2(c, x.b / (2 * c))
        if root * root == x:
            return abs(root)
    return None


def _rational_sqrt(f: Fraction) -> Fraction | None:
    if f < 0:
        return None
    p, q = f.numerator, f.denominator
    rp, rq = math.isqrt(p), math.isqrt(q)
    if rp * rp == p and rq * rq == q:
        return Fraction(rp, rq)
    return None
