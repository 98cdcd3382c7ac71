"""Position classes: the parity invariant that decides many problems before any search.

A jump empties two holes ``a``, ``b`` and fills a third ``c`` on one line. For any function
``f`` from holes to {0, 1} with ``f(a) + f(b) + f(c)`` even on every line of three holes, the
parity of the number of pegs on ``{h : f(h) = 1}`` therefore never changes. These functions form
a vector space over GF(2); the parities on a basis of it are the position's *class*. Two positions
in different classes can never be reached from one another.

On a square grid this space contains Conway's "rule of three" functions (holes coloured by
``(row + col) mod 3`` and ``(row - col) mod 3``; 16 classes on the unbounded board); the edges
of a finite board can only add more. The same computation, run on the lines of the board at
hand, gives the analogous invariant for the diagonal and triangular geometries, so one method
serves every board. The class is only a necessary condition: a problem that passes it may still
be unsolvable (the search decides those).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .board import Board, board_for
from .i18n import _, join_names
from .i18n import sentences as join_sentences


def nullspace_gf2(rows: list[int], n: int) -> list[int]:
    """A basis (bitmasks over ``n`` columns) of ``{f : popcount(row & f) even for every row}``."""
    pivots: dict[int, int] = {}  # pivot column -> reduced row
    for row in rows:
        for col, prow in pivots.items():
            if row >> col & 1:
                row ^= prow
        if not row:
            continue
        col = (row & -row).bit_length() - 1
        for other_col, other in list(pivots.items()):  # keep the rows fully reduced
            if other >> col & 1:
                pivots[other_col] = other ^ row
        pivots[col] = row
    basis = []
    for free in range(n):
        if free in pivots:
            continue
        f = 1 << free
        for col, prow in pivots.items():
            if prow >> free & 1:
                f |= 1 << col
        basis.append(f)
    return basis


@dataclass(frozen=True)
class ClassInvariant:
    """The class invariant of one board: ``basis`` bitmasks over compact hole indices."""

    basis: tuple[int, ...]

    def of(self, compact_pegs: int) -> int:
        """The class of a position, packed into an int (bit k = parity on ``basis[k]``)."""
        out = 0
        for k, f in enumerate(self.basis):
            out |= ((compact_pegs & f).bit_count() & 1) << k
        return out

    def hole_classes(self, n: int) -> tuple[int, ...]:
        """The class of each single-peg position; classes add by XOR (the map is linear)."""
        return tuple(self.of(1 << k) for k in range(n))


@lru_cache(maxsize=256)
def invariant_for(geometry: str, rows: int, cols: int, holes: int) -> ClassInvariant:
    board = board_for(geometry, rows, cols, holes)
    line_masks = [(1 << a) | (1 << b) | (1 << c) for a, b, c in board.lines]
    return ClassInvariant(tuple(nullspace_gf2(line_masks, board.n)))


@lru_cache(maxsize=256)
def _hole_classes(geometry: str, rows: int, cols: int, holes: int) -> tuple[int, ...]:
    inv = invariant_for(geometry, rows, cols, holes)
    return inv.hole_classes(board_for(geometry, rows, cols, holes).n)


@dataclass(frozen=True)
class ClassVerdict:
    """Whether start and goal share a class, and which single holes would."""

    feasible: bool
    reason: str  # empty when feasible
    holes_by_class: tuple[str, ...]  # single-peg finishes in the start's class


def class_verdict(board: Board, start: int, goal: int) -> ClassVerdict:
    """Compare the classes of ``start`` and ``goal`` (compact bitboards; goal 0 = one peg
    anywhere) and explain a mismatch in words."""
    inv = invariant_for(board.geometry, board.rows, board.cols, board.holes)
    single = _hole_classes(board.geometry, board.rows, board.cols, board.holes)
    start_class = inv.of(start)
    good_holes = tuple(board.names[k] for k in range(board.n) if single[k] == start_class)
    if goal == 0:
        if good_holes:
            return ClassVerdict(True, "", good_holes)
        return ClassVerdict(False, _("Position classes (Conway's invariant): no single hole of this "
                                     "board is in the start position's class, so no sequence of jumps "
                                     "can leave exactly one peg."), good_holes)
    goal_class = inv.of(goal)
    if goal_class == start_class:
        return ClassVerdict(True, "", good_holes)
    # Name one concrete parity that differs (the one on the fewest holes): that is the proof.
    candidates = list(inv.basis) + [f ^ g for i, f in enumerate(inv.basis) for g in inv.basis[i + 1:]]
    witness = min((f for f in candidates if ((start & f).bit_count() ^ (goal & f).bit_count()) & 1),
                  key=lambda f: (f.bit_count(), f))
    names = board.compact_names(witness)
    shown = join_names(names[:16]) + (_(", ...") if len(names) > 16 else "")
    start_odd = bool((start & witness).bit_count() & 1)
    single_vacancy = (board.full ^ start).bit_count() == 1
    # The proof is a few whole sentences, each translated whole, put one after the other.
    sentences = [_parity_sentence(start_odd, goal, board).format(
        holes=shown, hole=board.compact_names(goal)[0] if goal.bit_count() == 1 else "")]
    if good_holes:
        sentences.append(_("From this start a single last peg could only be at: {holes}.").format(
            holes=join_names(good_holes)))
    else:
        sentences.append(_("From this start no single-peg finish is in the right class."))
        if single_vacancy:
            examples = []
            full_class = inv.of(board.full)
            for k in range(board.n):
                cls = full_class ^ single[k]
                ends = [board.names[h] for h in range(board.n) if single[h] == cls]
                if ends:
                    examples.append(_("vacancy {hole} -> {ends}").format(
                        hole=board.names[k], ends=_(" or ").join(ends)))
            if examples:
                sentences.append(_("Single-vacancy starts that pass the class test include: "
                                   "{examples}.").format(examples=_("; ").join(examples[:4])))
    if goal.bit_count() == 1 and single_vacancy:
        target = board.compact_names(goal)[0]
        full_class = inv.of(board.full)
        starts = [board.names[k] for k in range(board.n) if full_class ^ single[k] == goal_class]
        if starts:
            sentences.append(_("To finish at {hole}, start with the vacancy at one of: {holes}.").format(
                hole=target, holes=join_names(starts)))
        else:
            sentences.append(_("No single-vacancy start on this board can finish at {hole}.").format(
                hole=target))
    return ClassVerdict(False, join_sentences(sentences), good_holes)


def _parity_sentence(start_odd: bool, goal: int, board: Board) -> str:
    """The parity that differs, as one whole sentence per case (odd or even at the start; the
    goal one hole or a pattern): ``{holes}`` the holes counted, ``{hole}`` the goal hole."""
    if goal.bit_count() == 1:
        if start_odd:
            return _("Position classes (Conway's invariant) rule this out: every jump keeps the "
                     "parity of the number of pegs on the holes {holes}; it is odd at the start but "
                     "even in the goal (one peg at {hole}), so the start and the goal are in "
                     "different position classes.")
        return _("Position classes (Conway's invariant) rule this out: every jump keeps the parity "
                 "of the number of pegs on the holes {holes}; it is even at the start but odd in the "
                 "goal (one peg at {hole}), so the start and the goal are in different position "
                 "classes.")
    if start_odd:
        return _("Position classes (Conway's invariant) rule this out: every jump keeps the parity "
                 "of the number of pegs on the holes {holes}; it is odd at the start but even in the "
                 "goal pattern, so the start and the goal are in different position classes.")
    return _("Position classes (Conway's invariant) rule this out: every jump keeps the parity of "
             "the number of pegs on the holes {holes}; it is even at the start but odd in the goal "
             "pattern, so the start and the goal are in different position classes.")
