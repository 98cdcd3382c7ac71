"""Board symmetries that may be used to merge positions in the search.

A symmetry of the hole layout maps jumps to jumps, so a position and its image have the same
future. They have the same *answer* only if the symmetry also maps the goal to itself: with the
goal one peg at an off-centre hole, a reflection that moves that hole would merge a position
that can reach the goal with one that cannot. So only goal-preserving symmetries are kept
(every symmetry when the goal is "one peg anywhere").

:class:`Canonicaliser` maps a compact bitboard to the smallest of its images, using per-byte
lookup tables so that it costs a few dozen table reads rather than a loop over every hole.
"""

from __future__ import annotations

from .board import Board, permute


def goal_symmetries(board: Board, goal: int) -> list[tuple[int, ...]]:
    """The board's symmetries (compact permutations) that map ``goal`` (compact) to itself."""
    return [perm for perm in board.symmetries() if goal == 0 or permute(goal, perm) == goal]


class Canonicaliser:
    """``canon(pos)``: the least image of ``pos`` under a group of permutations."""

    def __init__(self, perms: list[tuple[int, ...]], n: int):
        self.perms = perms
        self.n = n
        self.identity_only = len(perms) <= 1
        chunks = (n + 7) // 8
        # tables[s][j][byte] = image under perm s of the byte value placed at chunk j.
        self.tables = []
        for perm in perms[1:]:  # the identity needs no table
            per_chunk = []
            for j in range(chunks):
                table = []
                for byte in range(256):
                    bits = 0
                    for i in range(8):
                        k = 8 * j + i
                        if byte >> i & 1 and k < n:
                            bits |= 1 << perm[k]
                    table.append(bits)
                per_chunk.append(tuple(table))
            self.tables.append(tuple(per_chunk))
        self.chunks = chunks

    def image(self, pos: int, which: int) -> int:
        """The image of ``pos`` under ``perms[which + 1]``."""
        out = 0
        for table in self.tables[which]:
            out |= table[pos & 255]
            pos >>= 8
        return out

    def canon(self, pos: int) -> int:
        if self.identity_only:
            return pos
        best = pos
        for per_chunk in self.tables:
            p = pos
            out = 0
            for table in per_chunk:
                out |= table[p & 255]
                p >>= 8
            if out < best:
                best = out
        return best

    def images(self, pos: int) -> list[int]:
        """``pos`` and its image under every permutation but the identity."""
        out = [pos]
        for per_chunk in self.tables:
            p = pos
            image = 0
            for table in per_chunk:
                image |= table[p & 255]
                p >>= 8
            out.append(image)
        return out
