"""Linear algebra over GF(2) (arithmetic modulo 2) for Lights Out.

Pressing a cell twice undoes it and presses commute, so a solution is just a *set* of cells to
press: unknowns ``x_i`` in {0, 1}, one per cell, and one equation per light ``j``::

    sum of x_i over the cells i whose press toggles light j  ==  lit_j   (mod 2)

Gauss-Jordan elimination on that system (rows and vectors are Python ints used as bit sets)
gives, once per board size:

* for each pivot, which original equations were added together to make its row (so the
  right-hand side for any board is one parity of ``combination & lights``);
* a basis of the *null space*: press sets that change nothing. Every solution is one particular
  solution plus any combination of them, so enumerating the ``2**k`` combinations finds the
  solution with the fewest presses (``k`` is 0 for most sizes, 2 for 5 x 5, at most 8 here);
* a basis of the *left null space*: sets of lights that every press toggles an even number of.
  If a board has an odd number of lights lit inside one of them, no press sequence can turn
  them all off. That is the reason given for an unsolvable board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .board import press_masks


def parity(bits: int) -> int:
    """1 if ``bits`` has an odd number of set bits, else 0."""
    return bits.bit_count() & 1


@dataclass(frozen=True)
class Reduction:
    """The reduced Lights Out system of one board size (independent of which lights are lit)."""

    size: int
    #: (pivot cell, the set of original equations summed into that pivot's row).
    pivots: tuple[tuple[int, int], ...]
    #: Press sets that change no light.
    null_basis: tuple[int, ...]
    #: Light sets toggled an even number of times by every press (invariants).
    invariants: tuple[int, ...]

    def broken_invariant(self, lights: int) -> int | None:
        """The smallest invariant light set with an odd number of ``lights`` lit, or None.

        None means the board can be solved. Any combination of the basis invariants is an
        invariant too; the smallest broken one makes the shortest explanation for a user.
        """
        for invariant in _all_invariants(self.invariants):
            if parity(invariant & lights):
                return invariant
        return None

    def particular_solution(self, lights: int) -> int:
        """A press set turning ``lights`` off (free cells unpressed); the board must be solvable."""
        presses = 0
        for cell, combination in self.pivots:
            if parity(combination & lights):
                presses |= 1 << cell
        return presses


@lru_cache(maxsize=None)
def _all_invariants(basis: tuple[int, ...]) -> tuple[int, ...]:
    """Every non-empty combination of the basis invariants, fewest cells first."""
    combos = []
    for choice in range(1, 1 << len(basis)):
        combo = 0
        for i, invariant in enumerate(basis):
            if choice >> i & 1:
                combo ^= invariant
        combos.append(combo)
    return tuple(sorted(combos, key=lambda bits: (bits.bit_count(), bits)))


@lru_cache(maxsize=None)
def reduce_system(rows: int, cols: int) -> Reduction:
    """Gauss-Jordan elimination of the ``rows x cols`` Lights Out system (cached per size)."""
    masks = press_masks(rows, cols)
    n = rows * cols
    # Equation j: its coefficients are the cells whose press toggles light j. (The press rule is
    # symmetric, so this equals masks[j], but transposing keeps the algebra honest.)
    coefficients = [sum(1 << i for i in range(n) if masks[i] >> j & 1) for j in range(n)]
    # Each row carries the set of original equations it is the sum of.
    work = [[coefficients[j], 1 << j] for j in range(n)]
    pivot_rows: list[tuple[int, list[int]]] = []
    remaining = work
    for cell in range(n):
        pick = next((row for row in remaining if row[0] >> cell & 1), None)
        if pick is None:
            continue  # a free variable: pressing this cell is not forced either way
        remaining = [row for row in remaining if row is not pick]
        for row in remaining:
            if row[0] >> cell & 1:
                row[0] ^= pick[0]
                row[1] ^= pick[1]
        for _, earlier in pivot_rows:
            if earlier[0] >> cell & 1:
                earlier[0] ^= pick[0]
                earlier[1] ^= pick[1]
        pivot_rows.append((cell, pick))
    pivot_cells = {cell for cell, _ in pivot_rows}
    free_cells = [cell for cell in range(n) if cell not in pivot_cells]
    # A null vector per free cell: press it, and every pivot whose row mentions it.
    null_basis = []
    for free in free_cells:
        vector = 1 << free
        for cell, row in pivot_rows:
            if row[0] >> free & 1:
                vector |= 1 << cell
        null_basis.append(vector)
    pivots = tuple((cell, row[1]) for cell, row in pivot_rows)
    # Rows eliminated to all-zero coefficients: their equation sets are the invariants.
    invariants = tuple(row[1] for row in remaining)
    return Reduction(size=n, pivots=pivots, null_basis=tuple(null_basis), invariants=invariants)
