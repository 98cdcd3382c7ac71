"""The optimal Lights Out solver: linear algebra over GF(2), then the fewest presses.

See :mod:`puzzle_lights_out.gf2` for the algebra. The solver

1. looks up the reduced system for the board's size (built once per size, a few milliseconds);
2. if the board breaks an invariant, answers Unsolvable naming the invariant light set;
3. otherwise takes one solution and walks all ``2**k`` solutions (``k`` = null-space dimension,
   at most 8 on boards up to 10 x 10) in Gray-code order, keeping the one with fewest presses.

Because presses commute and a cell pressed twice is unpressed, every move sequence that solves a
board presses (an odd number of times) exactly the cells of one of those solutions, so the
smallest one is optimal.
"""

from __future__ import annotations

from engine import N_, SolveContext, Solved, Solver, Unsolvable

from .board import Board, cell_name
from .gf2 import reduce_system
from .i18n import CATALOGUE, _, ngettext

#: How many candidate solutions to try between two checks of ``ctx.should_stop()``.
CHECK_EVERY = 64


def describe_cells(cells: int, cols: int) -> str:
    """``"a1, c1 and b2"`` for a bit set of cells."""
    names = [cell_name(i, cols) for i in range(cells.bit_length()) if cells >> i & 1]
    if len(names) == 1:
        return names[0]
    return _("{cells} and {last}").format(cells=_(", ").join(names[:-1]), last=names[-1])


#: The one plain sentence for an unsolvable board; :func:`unsolvable_reason` gives the proof.
NO_SOLUTION = N_("No: this board cannot be solved, whatever you press.")


def unsolvable_reason(board: Board, invariant: int) -> str:
    """Why ``board`` cannot be solved, in words, from a broken invariant light set (the proof
    behind :data:`NO_SOLUTION`; a clause starting in lower case, without a full stop)."""
    lit = (invariant & board.lights).bit_count()
    return ngettext("every press toggles an even number of the {total} lights {cells}, so the number of "
                    "those that are on stays odd or stays even; {count} of them is on now, an odd number, "
                    "so they can never all be off",
                    "every press toggles an even number of the {total} lights {cells}, so the number of "
                    "those that are on stays odd or stays even; {count} of them are on now, an odd number, "
                    "so they can never all be off", lit).format(
        total=invariant.bit_count(), cells=describe_cells(invariant, board.cols), count=lit)


class GF2Solver(Solver):
    """Gaussian elimination over GF(2) plus a null-space search for the fewest presses."""

    puzzle_id = "lights_out"
    name = "gf2"
    optimal = True
    catalogue = CATALOGUE
    description = N_("Linear algebra modulo 2: proves unsolvable boards at once and returns the "
                     "fewest presses (instant up to 10 x 10).")

    def solve(self, instance: Board, ctx: SolveContext):
        if ctx.should_stop():
            return ctx.gave_up(nodes=0)
        reduction = reduce_system(instance.rows, instance.cols)
        invariant = reduction.broken_invariant(instance.lights)
        if invariant is not None:
            proof = unsolvable_reason(instance, invariant)
            return Unsolvable(NO_SOLUTION, stats={"nodes": 0},
                              detail=proof[0].upper() + proof[1:] + ".")

        presses = best = reduction.particular_solution(instance.lights)
        candidates = 1 << len(reduction.null_basis)
        for step in range(1, candidates):
            # Gray code: consecutive candidates differ by one null vector (the lowest set bit).
            presses ^= reduction.null_basis[(step & -step).bit_length() - 1]
            if presses.bit_count() < best.bit_count():
                best = presses
            if step % CHECK_EVERY == 0:
                if ctx.should_stop():
                    return ctx.gave_up(nodes=step)
                ctx.progress(nodes=step, total=candidates)
        ctx.progress(force=True, nodes=candidates, total=candidates)
        moves = [cell_name(i, instance.cols) for i in range(instance.size) if best >> i & 1]
        return Solved(moves, optimal=True, stats={"nodes": candidates})
