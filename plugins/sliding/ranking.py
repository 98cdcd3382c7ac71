"""Ranking partial permutations: where a placement of k tiles stands among all of them.

A placement of k distinct tiles on n cells (``pos[j]`` = slot j's cell) has a lexicographic
rank below ``n! / (n-k)!``, which indexes the compact tables of :mod:`.pdb_compact`: slot j
weighs ``fac[j] = (n-1-j)! / (n-k)!`` (:func:`rank_factors`) and contributes its cell counted
among the cells earlier slots left free.

The build (:mod:`.pdb_build`) unranks every entry of every frontier and the searches
(:mod:`.ida_compact`) rank a placement at every move, so these are compiled and tuned: bits are
counted with the processor's popcount instruction, the d-th free cell is found with PDEP where
that instruction is quick, consecutive ranks are unranked from the previous one
(:func:`unrank_next`), and a one-tile move re-ranks by the digits it changes
(:func:`moved_rank`). Sets of occupied cells are ranked too (:func:`subset_index`), for the
tables of blank regions.

Bounds: every function here takes ``k <= n <= 62`` (cell sets are int64 masks), distinct cells
below ``n`` and ranks below ``n! / (n-k)!``; ``pos``, ``digits`` and ``before`` have ``k``
entries. Their callers (:mod:`.pdb_build`, :mod:`.ida_compact`) get those from tables whose
sizes are checked when built or loaded.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def _ctpop(typingctx, x):
    """The processor's population count instruction (LLVM's ctpop) on an integer."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, inline="always")
def popcount32(x):
    """Set bits of a non-negative int below 2**32 (one instruction: the build and the search
    count bits for every move)."""
    return _ctpop(np.int64(x))


def rank_factors(n: int, k: int) -> np.ndarray:
    """``F[j] = (n-1-j)! / (n-k)!``: the weight of slot j in the rank of a k-tile placement."""
    f = np.ones(k, dtype=np.int64)
    for j in range(k):
        v = 1
        for i in range(j + 1, k):
            v *= n - i
        f[j] = v
    return f


@njit(cache=True)
def rank(pos, k, fac):
    """Lexicographic rank of the placement ``pos[0..k)`` (distinct cells)."""
    r = 0
    before = 0
    for j in range(k):
        p = pos[j]
        r += (p - popcount32(before & ((1 << p) - 1))) * fac[j]
        before |= 1 << p
    return r


def _select_table() -> np.ndarray:
    """``SEL[b, d]``: the position of the d-th set bit of byte b (8 when there is none)."""
    sel = np.full((256, 8), 8, dtype=np.int64)
    for b in range(256):
        bits = [i for i in range(8) if b >> i & 1]
        sel[b, :len(bits)] = bits
    return sel


SEL = _select_table()


def _fast_pdep() -> bool:
    """True on x86 processors with BMI2 whose PDEP instruction is quick: Intel's, and AMD's from
    Zen 3 (family 25) on; earlier AMD processors run it as slow microcode."""
    import platform

    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    fields = dict(line.split(":", 1) for line in info.split("\n\n")[0].splitlines()
                  if ":" in line)
    fields = {key.strip(): value.strip() for key, value in fields.items()}
    if "bmi2" not in fields.get("flags", "").split():
        return False
    if fields.get("vendor_id") == "AuthenticAMD":
        return fields.get("cpu family", "0").isdigit() and int(fields["cpu family"]) >= 25
    return fields.get("vendor_id") == "GenuineIntel"


#: Whether :func:`_nth_free` uses the PDEP instruction (decided once, for this processor).
FAST_PDEP = _fast_pdep()


@intrinsic
def _pdep(typingctx, source, mask):
    """x86 BMI2 PDEP: deposit the low bits of ``source`` at the set bits of ``mask``."""
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=fnty)
        return builder.call(fn, args)

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    """Trailing zero bits of a non-zero int64 (one instruction)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@njit(cache=True, inline="always")
def _nth_free_pdep(free, d):
    """The cell of the d-th set bit of ``free`` (from 0), with PDEP."""
    return _cttz(_pdep(np.int64(1) << d, free))


@njit(cache=True, inline="always")
def _nth_free_bytes(free, d):
    """The cell of the d-th set bit of ``free`` (from 0), a byte at a time."""
    base = 0
    while True:
        byte = (free >> base) & 0xFF
        cnt = popcount32(byte)
        if d < cnt:
            return base + SEL[byte, d]
        d -= cnt
        base += 8


#: The kernels are compiled against this one (unranking runs for every entry of every frontier
#: and PDEP halves its cost where it is quick).
_nth_free = _nth_free_pdep if FAST_PDEP else _nth_free_bytes


@njit(cache=True)
def unrank(r, k, n, fac, pos):
    """Fill ``pos`` with the placement of rank r; return its occupancy mask."""
    scratch = np.zeros(k, dtype=np.int64)
    return unrank_digits(r, k, n, fac, 1.0 / fac, pos, scratch, scratch.copy())


@njit(cache=True, inline="always")
def unrank_digits(r, k, n, fac, inv, pos, digits, before):
    """:func:`unrank`, also filling ``digits`` (slot j's cell counted among the cells not taken
    by slots before it) and ``before`` (the cells of the slots before slot j).

    ``inv`` holds ``1 / fac``: a multiplication and a correction cost far less than an integer
    division, and this runs for every entry of every frontier.
    """
    return _unrank_from(r, 0, np.int64(0), k, n, fac, inv, pos, digits, before)


@njit(cache=True, inline="always")
def _unrank_from(low, j, used, k, n, fac, inv, pos, digits, before):
    """Fill slots j..k-1 from ``low`` (the part of the rank they hold), the cells of the slots
    before them being ``used``; return the occupancy mask."""
    free_all = (np.int64(1) << n) - 1
    for i in range(j, k):
        d = np.int64(low * inv[i])
        if d * fac[i] > low:
            d -= 1
        elif (d + 1) * fac[i] <= low:
            d += 1
        low -= d * fac[i]
        digits[i] = d
        before[i] = used
        c = _nth_free(free_all & ~used, d)
        pos[i] = c
        used |= np.int64(1) << c
    return used


@njit(cache=True, inline="always")
def unrank_next(r, prev, k, n, fac, inv, pos, digits, before):
    """:func:`unrank_digits` for rank r, given that ``pos``, ``digits`` and ``before`` hold the
    placement of rank ``prev`` (< r; -1 for none). Ranks are visited in increasing order, and
    neighbours share all but their last slot or two: only the slots that change are redone.
    """
    if prev < 0:
        return unrank_digits(r, k, n, fac, inv, pos, digits, before)
    low = r - prev
    j = k - 1
    while True:
        low += digits[j] * fac[j]
        if j == 0 or low < fac[j - 1]:
            break
        j -= 1
    return _unrank_from(low, j, before[j], k, n, fac, inv, pos, digits, before)


@njit(cache=True, inline="always")
def moved_rank(r, j, p, q, k, fac, pos, digits, before):
    """The rank of the placement of rank r (cells ``pos``, from :func:`unrank_digits`) after
    slot j's tile moves from p to q, without ranking it afresh: slot j's digit changes, and so
    does the digit of each later slot whose cell lies between p and q (by one: the cells before
    it that are lower changed by one)."""
    r += (q - popcount32(before[j] & ((np.int64(1) << q) - 1)) - digits[j]) * fac[j]
    lo, hi = (p, q) if p < q else (q, p)
    if hi - lo > 1:
        step = 1 if p < q else -1
        for i in range(j + 1, k):
            x = pos[i]
            if lo < x < hi:
                r += step * fac[i]
    return r


@njit(cache=True)
def subset_index(occ, n, binom):
    """Where the occupancy ``occ`` stands in :func:`region_tables`: the mask itself on boards of
    at most 16 cells, else its rank among the sets of as many cells (colex order)."""
    if n <= 16:
        return occ
    r = 0
    i = 1
    while occ != 0:
        low = occ & -occ
        r += binom[popcount32(low - 1), i]
        i += 1
        occ ^= low
    return r


def binomials(n: int) -> np.ndarray:
    """``B[a, b]`` = a choose b for a, b <= n."""
    b = np.zeros((n + 1, n + 1), dtype=np.int64)
    for a in range(n + 1):
        b[a, 0] = 1
        for c in range(1, a + 1):
            b[a, c] = b[a - 1, c - 1] + b[a - 1, c]
    return b
