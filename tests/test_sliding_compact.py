"""Compact (ranked, 4-bit) pattern databases, checked against brute force on reduced boards and
patterns; their search against breadth-first distances and Korf's optima. The full 7-8 and
6-6-6-6 tables are never built here (minutes and gigabytes): see bench/sliding.py."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from sliding_reference import bfs_distances, brute_force_pattern

from plugins.sliding import pdb_build as pb
from plugins.sliding import pdb_compact as pc
from plugins.sliding import ranking as rk
from plugins.sliding.pdb import BuildCancelled


def manhattan(cells, pattern, cols):
    return sum(abs(c // cols - (t - 1) // cols) + abs(c % cols - (t - 1) % cols)
               for c, t in zip(cells, pattern))


def test_rank_is_a_bijection_onto_the_placements():
    n, k = 6, 3
    fac = rk.rank_factors(n, k)
    ranks = set()
    pos = np.zeros(k, dtype=np.int64)
    for cells in itertools.permutations(range(n), k):
        r = rk.rank(np.array(cells, dtype=np.int64), k, fac)
        ranks.add(r)
        occ = rk.unrank(r, k, n, fac, pos)
        assert tuple(pos) == cells and occ == sum(1 << c for c in cells)
    assert ranks == set(range(pc.placements(n, k)))


@pytest.mark.parametrize("rows,cols,pattern", [(3, 3, (1, 2, 3, 4)), (3, 3, (5, 6, 7, 8)),
                                               (4, 4, (2, 3, 4)), (4, 4, (1, 5, 9)),
                                               (3, 3, (1, 2, 4, 5, 7)),
                                               # over 16 cells: regions indexed by colex rank
                                               (5, 4, (2, 7, 13)), (5, 5, (1, 24))])
def test_compact_table_equals_brute_force(rows, cols, pattern):
    """Every entry is (true pattern distance - Manhattan) / 2, the distance found by an
    independent 0-1 breadth-first search over (pattern cells, blank cell)."""
    packed, clamped = pb.build_compact(rows, cols, pattern, chunk=64)
    expected = brute_force_pattern(rows, cols, pattern)
    n, k = rows * cols, len(pattern)
    fac = rk.rank_factors(n, k)
    assert len(expected) == pc.placements(n, k)
    for cells, d in expected.items():
        md = manhattan(cells, pattern, cols)
        assert (d - md) % 2 == 0
        want = min((d - md) // 2, pb.CLAMP)
        assert pc.nibble(packed, rk.rank(np.array(cells, dtype=np.int64), k, fac)) == want
    assert clamped == sum(1 for cells, d in expected.items()
                          if (d - manhattan(cells, pattern, cols)) // 2 > pb.CLAMP)


def test_progress_and_cancellation():
    seen = []
    pb.build_compact(3, 3, (1, 2, 3, 4), lambda d, t: seen.append((d, t)), chunk=64)
    assert seen[-1] == (3024, 3024) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    with pytest.raises(BuildCancelled):
        pb.build_compact(3, 3, (1, 2, 3, 4), should_stop=lambda: True)


def test_a_threaded_build_is_the_single_threaded_build_byte_for_byte():
    """Threads expand separate pieces of each level into next levels of their own; with many
    small pieces (so both threads really interleave) nothing may be lost or added."""
    one, c1 = pb.build_compact(4, 4, (1, 2, 5, 6), chunk=256, threads=1)
    for threads in (2, 3):
        many, c2 = pb.build_compact(4, 4, (1, 2, 5, 6), chunk=256, threads=threads)
        assert np.array_equal(one, many) and c1 == c2


def flood_regions(free, rows, cols):
    """Connected regions of the free cells, ordered by their lowest cell (plain Python)."""
    left, regions = set(free), []
    for start in sorted(free):
        if start not in left:
            continue
        region, todo = {start}, [start]
        while todo:
            c = todo.pop()
            r, k = divmod(c, cols)
            for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
                x = rr * cols + kk
                if 0 <= rr < rows and 0 <= kk < cols and x in left and x not in region:
                    region.add(x)
                    todo.append(x)
        left -= region
        regions.append(region)
    return regions


@pytest.mark.parametrize("rows,cols,k", [(3, 3, 4), (4, 4, 8), (5, 4, 3), (5, 5, 5)])
def test_region_tables_name_each_free_cells_region(rows, cols, k):
    n = rows * cols
    table, masks = pb.region_tables(rows, cols, k)
    binom = rk.binomials(n)
    rng = random.Random(n * 31 + k)
    for _ in range(300):
        occupied = rng.sample(range(n), k)
        occ = sum(1 << c for c in occupied)
        index = rk.subset_index(np.int64(occ), n, binom)
        row = table[index]
        free = [c for c in range(n) if c not in occupied]
        for o, region in enumerate(flood_regions(free, rows, cols)):
            for c in region:
                assert row[c] == min(o, 8)
            if o < 8:
                assert masks[index, o] == sum(1 << c for c in region)
        assert all(row[c] == 8 for c in occupied)


def test_moved_rank_equals_ranking_the_moved_placement():
    n, k, cols = 16, 8, 4
    fac = rk.rank_factors(n, k)
    inv = 1.0 / fac
    rng = random.Random(5)
    pos = np.zeros(k, dtype=np.int64)
    digits, before = np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64)
    for _ in range(2000):
        r = rng.randrange(pc.placements(n, k))
        occ = rk.unrank_digits(np.int64(r), k, n, fac, inv, pos, digits, before)
        assert rk.rank(pos.copy(), k, fac) == r
        j = rng.randrange(k)
        p = int(pos[j])
        for q in (p - 1, p + 1, p - cols, p + cols):
            if 0 <= q < n and not occ >> q & 1 and (abs(q - p) == cols or q // cols == p // cols):
                moved = pos.copy()
                moved[j] = q
                assert rk.moved_rank(np.int64(r), j, p, q, k, fac, pos, digits, before) \
                    == rk.rank(moved, k, fac)


@pytest.mark.parametrize("n,k", [(16, 8), (16, 7), (25, 6), (9, 1)])
def test_unranking_the_next_rank_equals_unranking_afresh(n, k):
    """The build walks ranks upwards and redoes only the slots that change: after steps of one,
    steps that cross one or several slot boundaries, and long jumps, the cells, digits and
    earlier cells equal those of a fresh unrank."""
    fac = rk.rank_factors(n, k)
    inv = 1.0 / fac
    total = pc.placements(n, k)
    rng = random.Random(n * 100 + k)
    walk = [np.zeros(k, dtype=np.int64) for _ in range(3)]
    fresh = [np.zeros(k, dtype=np.int64) for _ in range(3)]
    r, prev = rng.randrange(min(total, 1000)), -1
    while r < total:
        occ = rk.unrank_next(np.int64(r), np.int64(prev), k, n, fac, inv, *walk)
        assert occ == rk.unrank_digits(np.int64(r), k, n, fac, inv, *fresh)
        for got, want in zip(walk, fresh):
            assert list(got) == list(want), r
        step = rng.choice([1, 1, 2, 7, 9, 10, 90, 91, 1000, rng.randrange(1, total // 50 + 2)])
        r, prev = r + step, r


@pytest.mark.parametrize("way", ["bytes", "pdep"])
def test_nth_free_cell_both_ways(way):
    """The d-th free cell, found a byte at a time or by PDEP (where the processor has a quick
    one), is the d-th set bit counted in plain Python."""
    if way == "pdep" and not rk.FAST_PDEP:
        pytest.skip("this processor has no quick PDEP; the build uses the byte-wise way")
    nth = rk._nth_free_pdep if way == "pdep" else rk._nth_free_bytes
    rng = random.Random(11)
    for _ in range(3000):
        free = rng.getrandbits(30) | 1
        cells = [c for c in range(30) if free >> c & 1]
        d = rng.randrange(len(cells))
        assert nth(np.int64(free), np.int64(d)) == cells[d]


def test_build_threads_setting(monkeypatch):
    monkeypatch.setenv("PUZZLE_ENGINE_BUILD_THREADS", "3")
    assert pb.build_threads() == 3
    monkeypatch.setenv("PUZZLE_ENGINE_BUILD_THREADS", "lots")
    with pytest.raises(ValueError, match="whole number"):
        pb.build_threads()
    monkeypatch.delenv("PUZZLE_ENGINE_BUILD_THREADS")
    assert 1 <= pb.build_threads() <= 4


def test_short_memory_means_fewer_threads_not_swapping(monkeypatch):
    """Each thread past the first needs one more byte per placement: with only enough memory
    for one thread, the build runs one (and still gives the same table)."""
    used = []
    real = pb._breadth_first
    monkeypatch.setattr(pb, "_breadth_first",
                        lambda *a: used.append(a[4]) or real(*a))
    need = pb.build_bytes(3, 3, (1, 2, 3, 4), 1)
    monkeypatch.setattr(pb, "available_memory", lambda: need + 100)
    small, _ = pb.build_compact(3, 3, (1, 2, 3, 4), threads=4)
    monkeypatch.setattr(pb, "available_memory", lambda: 1 << 40)
    big, _ = pb.build_compact(3, 3, (1, 2, 3, 4), threads=4)
    assert used == [1, 4] and np.array_equal(small, big)


def test_mirror_sharing_on_the_5x5_partition():
    """Three tables serve the four 6-tile patterns of the 5x5 (one is another's mirror)."""
    pats = pc.table_patterns(5, 5, pc.PARTITION_5X5)
    assert len(pats) == 3
    assert sorted(t for p in pc.PARTITION_5X5 for t in p) == list(range(1, 25))


# -- the search over compact tables -----------------------------------------------------------

from sliding_tables import SMALL_4X4  # noqa: E402

from plugins.sliding.ida_compact import CompactSearch  # noqa: E402


def apply_moves(tiles, moves, cols):
    board = list(tiles)
    for t in moves:
        b, q = board.index(0), board.index(t)
        assert abs(b - q) in (1, cols) and (abs(b - q) == cols or b // cols == q // cols)
        board[b], board[q] = t, 0
    return board


def test_exact_search_is_optimal_on_the_8_puzzle(small_tables):
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    dist = bfs_distances(3, 3, goal)
    rng = random.Random(4)
    boards = rng.sample(sorted(dist), 150)
    for board in boards:
        search = CompactSearch(board, small_tables[3])
        assert search.h0 <= dist[board]                          # admissible at the root
        path = search.run()
        assert apply_moves(board, path, 3) == list(goal)
        assert len(path) == dist[board]
        assert search.proven_lower_bound() == dist[board]


def test_heuristic_is_admissible_on_8_puzzle_boards(small_tables):
    dist = bfs_distances(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    for board, d in random.Random(2).sample(sorted(dist.items()), 5000):
        assert CompactSearch(board, small_tables[3]).h0 <= d


# Korf's instances converted to the usual goal (rotate 180 degrees, x -> 16 - x), quick ones.
KORF_QUICK = {12: ("14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15", 45),
              16: ("1 3 2 5 10 9 15 6 8 14 13 11 12 4 7 0", 42)}


def usual_goal(text):
    std = [0] * 16
    for i, t in enumerate(int(x) for x in text.split()):
        std[15 - i] = 16 - t if t else 0
    return std


@pytest.mark.parametrize("number", sorted(KORF_QUICK))
def test_exact_search_finds_korf_optimum(small_tables, number):
    text, optimum = KORF_QUICK[number]
    board = usual_goal(text)
    search = CompactSearch(board, small_tables[4])
    path = search.run()
    assert apply_moves(board, path, 4) == list(range(1, 16)) + [0]
    assert len(path) == optimum


def test_weighted_search_stays_within_its_weight_and_ub_proves_optimality(small_tables):
    dist = bfs_distances(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    rng = random.Random(9)
    for board in rng.sample(sorted(dist), 100):
        search = CompactSearch(board, small_tables[3], weight=(3, 2))
        path = search.run()
        assert apply_moves(board, path, 3) == [1, 2, 3, 4, 5, 6, 7, 8, 0]
        assert dist[board] <= len(path) <= 1.5 * dist[board]
        # Looking for anything shorter than the shortest finds nothing, and says so.
        exact = CompactSearch(board, small_tables[3], ub=dist[board])
        assert exact.run() is None and exact.exhausted
        assert exact.proven_lower_bound() == dist[board]


# -- prepare: who builds the big tables, and the fallback when memory is short ---------------

import logging  # noqa: E402

from engine import SolveContext  # noqa: E402
from plugins.sliding import pdb, small_boards  # noqa: E402
from plugins.sliding.board import make_board  # noqa: E402
from plugins.sliding.optimal import OptimalSolver  # noqa: E402

SMALL_DENSE = ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15))


@pytest.fixture
def small_solver(tmp_path, monkeypatch):
    """An optimal solver whose '7-8' and '6-6-3' partitions are small stand-ins (quick builds),
    and whose `puzzle prepare` builds the thin boards' tables of one shape only (2x5, the
    quickest; all six take about 12 s, and tests/test_sliding_small_boards.py checks them)."""
    monkeypatch.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path))
    monkeypatch.setattr(small_boards, "PREPARED_SHAPES", ((2, 5),))
    pc.forget_loaded()
    pdb.forget_loaded()
    solver = OptimalSolver()
    solver.partition78 = SMALL_4X4
    solver.partition = SMALL_DENSE
    yield solver, tmp_path
    pc.forget_loaded()
    pdb.forget_loaded()


def korf12():
    return make_board(4, 4, usual_goal(KORF_QUICK[12][0]))


def test_prepare_with_big_builds_builds_the_big_tables_and_solve_uses_them(small_solver):
    solver, path = small_solver
    events = []
    assert solver.prepare(SolveContext(on_progress=events.append, progress_interval=0),
                          big_builds=True)                       # `puzzle prepare`
    assert pc.cached_on_disk(4, 4, SMALL_4X4)
    assert small_boards.available(2, 5)                          # and the thin boards' tables
    assert any(e.get("phase") == "building pattern database" for e in events)
    pc.forget_loaded()
    outcome = solver.solve(korf12(), SolveContext())
    assert len(outcome.moves) == KORF_QUICK[12][1]
    assert outcome.stats["heuristic"] == "pattern databases 4-4-4-3 + mirror"
    assert "note" not in outcome.stats


def test_prepare_without_big_builds_never_builds_the_big_tables(small_solver):
    solver, path = small_solver
    # A server preparing its workers; showing progress is no permission to build for minutes.
    assert solver.prepare(SolveContext(on_progress=lambda s: None))
    assert not pc.cached_on_disk(4, 4, SMALL_4X4)
    assert pdb.cached_on_disk(4, 4, SMALL_DENSE)   # the small tables are ready instead
    outcome = solver.solve(korf12(), SolveContext())
    assert len(outcome.moves) == KORF_QUICK[12][1]
    assert "not prepared" in outcome.stats["note"]


def test_prepare_falls_back_when_memory_is_short(small_solver, monkeypatch, caplog):
    solver, path = small_solver
    monkeypatch.setattr(pc, "available_memory", lambda: 1 << 20)
    with caplog.at_level(logging.WARNING, logger="puzzle_engine.sliding"):
        assert solver.prepare(SolveContext(), big_builds=True)
    assert not pc.cached_on_disk(4, 4, SMALL_4X4)
    assert pdb.cached_on_disk(4, 4, SMALL_DENSE)
    assert any("memory" in r.getMessage() for r in caplog.records)


def test_every_kernel_call_has_room_for_its_threshold(small_tables, monkeypatch):
    """A weighted threshold starts at wnum * h0, so the search may go about wnum times deeper
    than h0: the stack must be sized from the threshold before each call of the kernel (which
    runs unchecked and without the GIL; past the end it corrupted the heap)."""
    from plugins.sliding import ida_compact
    from plugins.sliding.ida import R_BOUND, deepest_index

    real = ida_compact.run_compact
    calls = []

    def checked(*args):
        regs, bpos, wden, ub = args[5], args[6], args[25], args[26]
        deepest = deepest_index(int(regs[R_BOUND]), wden, ub)
        calls.append((deepest, bpos.shape[0]))
        return real(*args)

    monkeypatch.setattr(ida_compact, "run_compact", checked)
    board = usual_goal(KORF_QUICK[12][0])
    search = CompactSearch(board, small_tables[4], weight=(3, 1))
    assert search.h0 > 16       # so 3 * h0 exceeds the old stack of 2 * (h0 + 8)
    path = search.run()
    assert apply_moves(board, path, 4) == list(range(1, 16)) + [0]
    assert calls and all(deepest < cap - 1 for deepest, cap in calls)
