"""The peg tables on disk: the backward level sets, the filter of the level above them and the
pagoda libraries, each built once per board and goal and kept in the cache folder.

A table (:func:`load_or_build`) holds every canonical position with at most ``top`` pegs that
can reach the goal, level by level, grown by reverse jumps (:func:`build_levels`) while the
total stays within a budget of positions: :data:`LIVE_POSITIONS` for the table a judge builds
by itself, :data:`LARGE_POSITIONS` for the one ``puzzle pegs table`` builds. Every file carries
a digest of its contents and parameters (:mod:`.tablefile`); one that does not match is
rebuilt, and what a damaged file could turn into a wrong proof (the filter, the pagodas) is
checked again on load.
"""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from engine import cache_dir, table_cache

from . import levels as lv
from .classes import class_verdict, invariant_for
from .lp import LP_NAME, pagoda_library, table_library
from .pagoda import Pagoda, is_pagoda
from .tablefile import load_arrays, save_arrays

#: Positions (up to symmetry) in the table a judge builds by itself, on first use, in the
#: background: every position with at most ``top`` pegs that can reach the goal (about a
#: second of work; kept on disk).
LIVE_POSITIONS = 300_000
#: Positions in the large table that :func:`prepare_table` builds (``puzzle pegs table``);
#: used whenever it is on disk. The English board with the goal at d4: every position, 23.5
#: million up to symmetry, 190 MB, one to two minutes.
LARGE_POSITIONS = 24_000_000
#: The board's pagoda library: pseudo-random sets of holes tried, weightings kept.
LIBRARY_SAMPLES, LIBRARY_SIZE = 1000, 16
#: Sets of holes tried for the library aimed at the table's bound (large tables only).
TABLE_LIBRARY_SAMPLES, TABLE_LIBRARY_SIZE = 1000, 48
#: Version of the on-disk backward sets (change it when their format changes).
FORMAT_VERSION = 2


def table_params(p, positions: int) -> str:
    """What a table is built for (board, goal, size, format): named in its file and digest."""
    b = p.board
    # For "one peg anywhere" the finishing holes depend on the position class of the start.
    cls = 0 if p.goal else invariant_for(b.geometry, b.rows, b.cols, b.holes).of(p.start)
    return f"pegs-v{FORMAT_VERSION}-{b.geometry}-{b.rows}x{b.cols}-{b.holes:x}-{p.goal:x}-{cls}-{positions}"


def cache_path(p, positions: int) -> Path:
    digest = hashlib.sha1(table_params(p, positions).encode()).hexdigest()[:16]
    return cache_dir() / f"pegs-live-v{FORMAT_VERSION}-{digest}.npz"


def load_or_build(p, tables, need, to, flip, positions, progress=None,
                   load_only=False, should_stop=None) -> dict[int, np.ndarray]:
    """The backward level sets, from the disk cache when present (rebuilt if unreadable).
    ``should_stop()`` true during a build: :class:`.levels.GrowStopped`, nothing written."""
    path, params = cache_path(p, positions), table_params(p, positions)

    def load():
        # Only a file whose digest matches is trusted (.tablefile): any damage means a rebuild.
        data = load_arrays(path, params)
        if data and all(name[:1] == "k" and name[1:].isdigit() for name in data):
            return {int(name[1:]): v for name, v in data.items()}
        return None

    levels = load()
    if levels is not None:
        return levels
    if load_only:
        raise FileNotFoundError(path)
    # Once across processes (solver workers, the background preparer, `puzzle prepare`): the
    # holder of the table's lock builds it, the others wait and load it.
    with table_cache().building(path, should_stop) as held:
        if not held:
            raise lv.GrowStopped
        # Finished by another process while this one waited? (Only a file on disk is looked
        # at again: each read counts as a request for the table, see engine.keep_tables_after.)
        levels = load() if path.exists() else None
        if levels is None:
            levels = build_levels(p, tables, need, to, flip, positions, progress, should_stop)
            save_arrays(path, params, {f"k{k}": v for k, v in levels.items()})
    return levels


def load_or_build_above(p, positions: int, top_keys: np.ndarray, need, to, flip, tables,
                        load_only: bool = False) -> tuple[np.ndarray, int] | None:
    """The filter of the level above the table (:func:`.levels.parents_bloom` of its top level
    ``top_keys``) and its size in bits, from disk or built (about 13 s on two cores for the
    37-hole board's large table); ``load_only``: None rather than build a missing one."""
    # About 16 bits per position of the level above (some 3 times the top level's), at
    # most 128 MB: a wrong "maybe" about 3% of the time.
    bits = max(10, min(30, (48 * len(top_keys)).bit_length()))
    path = cache_path(p, positions)
    path = path.with_name(f"{path.stem}-above-{bits}.npz")
    params = f"{table_params(p, positions)}-above-{bits}"
    above = (load_arrays(path, params) or {}).get("above")
    # Its digest checked, then a spot check against the parents of a spread of top-level
    # positions: a filter missing a live position would turn into a wrong "cannot".
    sample = top_keys[::max(1, len(top_keys) // 4096)]
    if above is not None and above.shape == (1 << (bits - 6),) and \
            above.dtype == np.uint64 and \
            lv.add_parents(sample, need, to, flip, tables, above, bits) == 0:
        return above, bits
    if load_only:
        return None
    above = parents_bloom(top_keys, need, to, flip, tables, bits)
    save_arrays(path, params, {"above": above})
    return above, bits


def parents_bloom(top_keys: np.ndarray, need, to, flip, tables, bits: int) -> np.ndarray:
    """:func:`.levels.parents_bloom` of ``top_keys``, its pieces on separate cores (the
    kernel releases the GIL), or-ed together."""
    pieces = max(1, min(4, os.cpu_count() or 1, len(top_keys) // 100_000))
    bounds = np.linspace(0, len(top_keys), pieces + 1).astype(np.int64)

    def piece(i: int) -> np.ndarray:
        return lv.parents_bloom(top_keys[bounds[i]:bounds[i + 1]], need, to, flip, tables, bits)

    if pieces == 1:
        return piece(0)
    with ThreadPoolExecutor(pieces, thread_name_prefix="pegs-above") as pool:
        parts = list(pool.map(piece, range(pieces)))
    out = parts[0]
    for part in parts[1:]:
        out |= part
    return out


def load_or_build_library(p, top_keys=None, positions: int = 0, progress=None,
                           load_only: bool = False) -> list[Pagoda]:
    """The board's pagoda library (:func:`.lp.pagoda_library`; a couple of seconds to build)
    or, given the table's top level, the one aimed at the table's bound
    (:func:`.lp.table_library`; about a minute on the 37-hole board), kept on disk.
    ``load_only``: a missing table library is not built (an empty one is returned)."""
    key = f"{cache_path(p, positions).stem}-{LIBRARY_SAMPLES}-{LIBRARY_SIZE}"
    if top_keys is not None:
        key += f"-table-{TABLE_LIBRARY_SAMPLES}-{TABLE_LIBRARY_SIZE}"
    path = cache_dir() / f"pegs-pagodas-v{FORMAT_VERSION}-{hashlib.sha1(key.encode()).hexdigest()[:16]}.npz"
    rows = (load_arrays(path, key) or {}).get("weights")
    if rows is not None and rows.ndim == 2 and rows.shape[1] == p.board.n:
        # Checked again on load: a damaged file must not become a wrong proof.
        found = [tuple(int(w) for w in row) for row in rows]
        if all(is_pagoda(p.board, w) for w in found):
            return [Pagoda(LP_NAME, w) for w in found]
    if load_only and top_keys is not None:
        return []
    if top_keys is None:
        library = pagoda_library(p.board, p.goal, samples=LIBRARY_SAMPLES, size=LIBRARY_SIZE)
    else:
        library = table_library(p.board, top_keys, samples=TABLE_LIBRARY_SAMPLES,
                                size=TABLE_LIBRARY_SIZE, progress=progress)
    save_arrays(path, key, {"weights": np.array([pg.weights for pg in library],
                                                dtype=np.int64).reshape(len(library), p.board.n)})
    return library


def build_levels(p, tables, need, to, flip, positions, progress=None,
                 should_stop=None) -> dict[int, np.ndarray]:
    """Every position that can reach the goal, by reverse jumps, level by level while the total
    stays within ``positions`` (no pruning: each one can reach the goal). ``should_stop()``
    is asked between chunks of a level: :class:`.levels.GrowStopped` when it says stop."""
    board = p.board
    if p.goal:
        seeds = [p.goal]
    else:
        allowed = set(class_verdict(board, p.start, 0).holes_by_class)
        seeds = [1 << k for k in range(board.n) if board.names[k] in allowed]
    keys = np.unique(np.array([lv.canon(np.uint64(s), tables) for s in seeds], np.uint64))
    pegs = p.goal_pegs
    empty = np.zeros((0, board.n), np.int64), np.zeros((0, len(need)), np.int64)
    side = lv.Side("backward", keys, np.ones(len(keys), np.uint64), pegs, True, empty[0],
                 empty[1], np.zeros(0, np.int64), 0)
    levels = {pegs: keys}
    total = len(keys)
    while side.pegs + 1 < board.n and len(side.keys):
        guess = int(len(side.keys) * side.growth) + 16
        if total + guess > positions:
            break
        keys, _ = lv.grow(side, need, to, flip, tables, guess, should_stop)
        side.growth = max(1.0, len(keys) / max(1, len(side.keys)))
        side.keys, side.counts = keys, np.ones(len(keys), np.uint64)  # counts unused here
        side.pegs += 1
        levels[side.pegs] = keys
        total += len(keys)
        if progress:
            progress(side.pegs, len(keys))
    return levels
