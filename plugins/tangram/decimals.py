"""Decimal input that is not exact: the rings handed to the noisy reader (reading.py).

The exact reader snaps a decimal only to a simple exact number within 0.002; a tracing's
decimals are further off, so when exact reading refuses them, the outline is read as the
nearest exact tangram figure the solver can cover instead.
"""

from __future__ import annotations

import math

from engine import N_, InputError, SolveContext, Unsolvable

from .i18n import Note
from .numbers import is_decimal, parse_number
from .reading import read_noisy
from .silhouette import Silhouette, parse_exact_text


def decimal_rings(text: str) -> list[list[tuple[float, float]]] | None:
    """The rings of the text as floats, if any coordinate is a decimal (else None: exact input
    keeps its exact refusal). Draft lines are ignored: a tracing has none."""
    rings, decimal = [], False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        word, _, rest = line.partition(" ")
        if word.lower() not in ("outer", "hole", "ring"):
            continue
        ring = []
        for tok in rest.split():
            parts = tok.strip("()").split(",")
            if len(parts) != 2:
                return None
            try:
                xy = []
                for part in parts:
                    decimal = decimal or is_decimal(part)
                    xy.append(float(part) if is_decimal(part) else float(parse_number(part)))
            except (InputError, ValueError):
                return None
            ring.append((xy[0], xy[1]))
        rings.append(ring)
    return rings if decimal and rings else None


def read_noisy_rings(rings: list[list[tuple[float, float]]], exact_error: InputError) -> Silhouette:
    """The nearest exact figure to a noisy outline (see reading.py), or a refusal in words."""
    try:
        reading = read_noisy(rings, accept=coverable)
    except InputError as exc:
        # the exact refusal ("edge 3 runs at 150.0 degrees") would only confuse: the decimals
        # were never meant exactly, so the reader's words are the answer
        raise InputError(exc.message, details=exc.details) from None  # noqa: B904 (exact_error is not the cause)
    sil = parse_exact_text(reading.text)
    note = Note(N_("read as an exact figure; vertices moved at most {moved} units (the outline was turned by "
                   "{angle} degrees and scaled by {scale})"),
                moved=f"{reading.moved:.2f}", angle=f"{math.degrees(reading.normalised.angle):.1f}",
                scale=f"{1 / reading.normalised.scale:.4g}")
    return Silhouette(sil.components, sil.draft, (note,))


#: Seconds the solver may spend on one candidate reading before it is kept unproven.
CANDIDATE_BUDGET = 0.25


def coverable(text: str) -> bool:
    """False when the solver proves a candidate reading cannot be covered (then the next
    nearest is tried); a cover found, or no proof within the budget, keeps it."""
    from .solver import ExactSolver  # the solver imports the silhouette module

    return not isinstance(ExactSolver().solve(parse_exact_text(text), SolveContext.with_timeout(CANDIDATE_BUDGET)),
                          Unsolvable)

#: The old name, kept for the benches that import it.
_coverable = coverable
