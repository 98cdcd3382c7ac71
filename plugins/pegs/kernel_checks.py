"""The buffer bounds of the compiled peg kernels, checked in Python before each kernel runs.

The kernels (:mod:`.fastdfs`, :mod:`.levels`, :mod:`.chainbfs`) index their arrays without
bounds checks and, most of them, without the GIL: an index past the end of a buffer does not
raise, it corrupts memory. Each kernel's docstring says how big its buffers must be and why
that suffices; the functions here check those sizes against the actual arguments, and raise
:class:`KernelInputError` (a bug in the caller, never the user's input) instead of letting a
kernel run on buffers too small for it. They cost microseconds per call: the kernels are
called per chunk of thousands of positions.

``tests/test_kernel_safety.py`` runs the kernels' tests once more under
``NUMBA_BOUNDSCHECK=1``, where every index is checked by numba itself.
"""

from __future__ import annotations

import numpy as np

#: Bitboards are ``uint64``: a board has at most this many holes.
MAX_HOLES = 64


class KernelInputError(ValueError):
    """The arguments of a compiled kernel break its documented buffer bounds."""


def require(ok: bool, kernel: str, what: str) -> None:
    """Raise :class:`KernelInputError` naming ``kernel`` unless ``ok``."""
    if not ok:
        raise KernelInputError(f"{kernel}: {what}")


def _board(kernel: str, n: int, *rows: tuple[str, np.ndarray]) -> None:
    """Boards of at most 64 holes; each per-hole array (name, array) has a column per hole."""
    require(0 < n <= MAX_HOLES, kernel, f"a board of {n} holes (1 to {MAX_HOLES} fit a uint64)")
    for name, arr in rows:
        require(arr.shape[-1] >= n, kernel, f"{name} has {arr.shape[-1]} columns for {n} holes")


def _jumps(kernel: str, need, to, flip) -> int:
    """The jump arrays have one entry each per jump."""
    require(len(need) == len(to) == len(flip), kernel,
            f"jump arrays of {len(need)}, {len(to)} and {len(flip)} entries")
    return len(need)


def _table(kernel: str, name: str, table: np.ndarray) -> None:
    """An open-addressing table: a power of two of slots (its index is ``hash & (size - 1)``)."""
    size = table.shape[0]
    require(size > 0 and size & (size - 1) == 0, kernel,
            f"{name} has {size} slots, not a power of two")


def bloom(kernel: str, filt: np.ndarray, bits: int) -> None:
    """A filter of ``2**bits`` bits is ``2**(bits - 6)`` words: a slot (below ``2**bits``)
    shifted right by 6 indexes it."""
    require(6 <= bits <= 40, kernel, f"a filter of 2**{bits} bits (2**6 to 2**40 are allowed)")
    require(filt.shape == (1 << (bits - 6),), kernel,
            f"a filter of 2**{bits} bits needs {1 << (bits - 6)} words, not {filt.shape}")


def pagodas(kernel: str, loss_t: np.ndarray, need_vals: np.ndarray, jumps: int) -> int:
    """``loss_t[j, k]`` has a row per jump; ``need_vals`` an entry per pagoda (column)."""
    require(loss_t.ndim == 2 and loss_t.shape[0] == jumps, kernel,
            f"pagoda losses of shape {loss_t.shape} for {jumps} jumps")
    npag = loss_t.shape[1]
    require(need_vals.shape[0] >= npag, kernel,
            f"{need_vals.shape[0]} pagoda bounds for {npag} pagodas")
    return npag


def search_down(top, need, to, flip, loss_t, need_vals, tables, perms, n, dead, stack_pos,
                stack_next, stack_vals, state, bloom_bits, bloom_arr, above, above_bits) -> None:
    """:func:`.fastdfs._search_down`. Each push removes a peg and none is pushed at ``top + 1``
    pegs, so from a start with ``s > top`` pegs the stack reaches depth ``s - top - 1``: the
    stack arrays need ``s - top`` rows (the search from ``s <= top`` pegs would not stop at the
    table and is refused), and a row of ``stack_vals`` per pagoda."""
    k = "fastdfs.run"
    jumps = _jumps(k, need, to, flip)
    npag = pagodas(k, loss_t, need_vals, jumps)
    _board(k, n, ("perms", perms))
    require(tables.ndim == 3 and tables.shape[2] == 256 and tables.shape[1] * 8 >= n, k,
            f"symmetry tables of shape {tables.shape} for {n} holes")
    _table(k, "the dead table", dead)
    bloom(k, bloom_arr, bloom_bits)
    bloom(k, above, above_bits)
    require(state.shape[0] >= 4, k, "the state array needs 4 entries")
    depth = int(state[0])
    start_pegs = int(stack_pos[0]).bit_count()
    require(start_pegs > top, k, f"a search from {start_pegs} pegs down to {top}")
    rows = min(stack_pos.shape[0], stack_next.shape[0], stack_vals.shape[0])
    require(rows >= start_pegs - top, k,
            f"stacks of {rows} rows; {start_pegs} pegs down to {top} need {start_pegs - top}")
    require(0 <= depth < rows, k, f"a resumed depth of {depth} in stacks of {rows} rows")
    require(stack_vals.ndim == 2 and stack_vals.shape[1] >= npag, k,
            f"stack values of shape {stack_vals.shape} for {npag} pagodas")


def beam(start, top, need, to, flip, tables, pag_weights, loss_t, need_vals, dead, hard, nbr,
         width, bloom_arr, bloom_bits) -> None:
    """:func:`.fastdfs.beam`: its own buffers hold ``width`` positions and ``width`` times the
    jumps' children, so ``width`` must be at least 1 (a kept count never reaches a width below
    it); the per-hole arrays cover every hole of ``start``."""
    k = "fastdfs.beam"
    jumps = _jumps(k, need, to, flip)
    npag = pagodas(k, loss_t, need_vals, jumps)
    require(width >= 1, k, f"a width of {width}")
    n = max(int(start).bit_length(), 1)
    _board(k, n, ("pag_weights", pag_weights), ("hard", hard), ("nbr", nbr))
    require(pag_weights.shape[0] >= npag, k, f"{pag_weights.shape[0]} pagoda weightings for {npag}")
    require(tables.ndim == 3 and tables.shape[2] == 256, k, f"tables of shape {tables.shape}")
    _table(k, "the dead table", dead)
    bloom(k, bloom_arr, bloom_bits)


def expand_level(keys, counts, need, to, flip, weights, delta, bound, hkeys, hcounts,
                 flags) -> None:
    """:func:`.levels.expand`: the hash table is a power of two of slots and the kernel stops
    (``flags[0]``) once it is three quarters full, so a free slot always ends a probe."""
    k = "levels.expand"
    jumps = _jumps(k, need, to, flip)
    require(counts.shape[0] >= keys.shape[0], k, f"{counts.shape[0]} counts for {keys.shape[0]} keys")
    _table(k, "the level's hash table", hkeys)
    require(hcounts.shape == hkeys.shape, k, "hash keys and counts of different sizes")
    require(flags.shape[0] >= 3, k, "the flags array needs 3 entries")
    npag = weights.shape[0]
    require(delta.shape == (npag, jumps) and bound.shape[0] >= npag, k,
            f"pagoda arrays {weights.shape}, {delta.shape}, {bound.shape} for {jumps} jumps")
    if keys.shape[0] and npag:  # no pagodas: a placeholder array the kernel never reads
        n = max(int(keys.max()).bit_length(), 1)
        _board(k, n, ("weights", weights))


def chain_expand(frontier, jstart, jover, jto, n, alive, top, pag_weights, need_vals, hkeys,
                 hpar, shift, limit, out) -> None:
    """:func:`.chainbfs.expand`: a chain by one peg is at most ``n - 1`` jumps, so its stacks
    of ``n + 1`` rows hold it; the visited table has ``2**(64 - shift)`` slots (the hash
    shifted by ``shift`` indexes it) and stops at ``limit`` positions, fewer than its slots,
    so a probe always ends at a free slot; ``out`` is checked before each write."""
    k = "chainbfs.expand"
    _board(k, n, ("pag_weights", pag_weights))
    require(jstart.shape[0] == n + 1 and jover.shape == jto.shape
            and int(jstart[-1]) == jover.shape[0], k, "a jump table that does not fit the board")
    if jover.shape[0]:
        require(0 <= int(min(jover.min(), jto.min())) and int(max(jover.max(), jto.max())) < n,
                k, "jumps over or into holes off the board")
    require(len(alive) == top + 1, k, f"{len(alive)} levels of live positions for {top} pegs")
    require(pag_weights.shape[0] <= need_vals.shape[0], k, "fewer pagoda bounds than pagodas")
    _table(k, "the visited table", hkeys)
    require(hpar.shape == hkeys.shape, k, "visited keys and parents of different sizes")
    require(hkeys.shape[0] == 1 << (64 - shift), k,
            f"a shift of {shift} for a table of {hkeys.shape[0]} slots")
    require(0 <= limit < hkeys.shape[0], k, f"a limit of {limit} in {hkeys.shape[0]} slots")
    require(out.shape[0] >= 1, k, "an empty output level")
    require(frontier.dtype == np.uint64, k, "a frontier that is not uint64 bitboards")
