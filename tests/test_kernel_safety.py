"""The compiled (numba) kernels of the sliding and peg plugins never index outside their
buffers.

The kernels run without bounds checks and, most of them, without the GIL: a write past a buffer
corrupts the heap ("malloc(): invalid size", signal 6) instead of raising. Each kernel's
buffer bounds are documented and checked by its caller (``kernel_checks.py`` in each plugin);
here:

* the 24-puzzle case that used to corrupt the heap at a 1 s limit is run 12 times in fresh
  processes, and none may crash;
* the kernel tests of both plugins (sliding searches, table builds and ranking; peg counting,
  chain breadth-first search, the compiled exact search and probes, all on small boards) and
  the fuzz of every kernel's wrapper (``test_kernel_fuzz.py``) run once more in one subprocess
  with ``NUMBA_BOUNDSCHECK=1``, where any out-of-bounds index raises ``IndexError`` and fails
  them. Numba recompiles every kernel under bounds checks, into a private cache folder so the
  unchecked machine code cached for normal runs is never replaced (one subprocess for both
  plugins: one interpreter and pytest start-up, and the engine's shared code compiled once).
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOARD_24 = ("14 5 9 2 18/8 23 19 12 17/15 0 10 20 4/6 11 21 1 7/24 3 16 22 13;"
            " goal: blank-first")
CRASH_SIGNS = ("malloc()", "free()", "corrupted", "Segmentation", "Traceback")


def _solve_24_once(_: int) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", "solve", "sliding", BOARD_24,
                           "--timeout", "1"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_the_24_puzzle_at_one_second_never_crashes():
    _solve_24_once(0)       # the first run may compile kernels; it is checked like the rest
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(_solve_24_once, range(12)))
    for run in runs:
        # A heap corruption aborts the solver child: signal 6, reported as exit 4.
        assert run.returncode not in (4, -6, -11), run.stderr[-2000:]
        assert not any(sign in run.stderr for sign in CRASH_SIGNS), run.stderr[-2000:]


# The kernel tests to repeat under bounds checks, on small instances. Sliding: ranking, table
# builds and the search over compact tables (test_sliding_compact), the IDA* kernels on the
# 8-puzzle, the thin boards' several-partition search (ida_multi), and the fast reduction's
# kernels on two board sizes. Pegs: counting (levels.expand, meet_total, orbit_sizes), the
# chain breadth-first search (chainbfs.expand), also once on the
# English board with a 0.3 s limit, and the exact search's lanes (fastdfs.run). Both: the fuzz
# of every kernel's wrapper. Most of the cost is numba recompiling every kernel with checks.
CHECKED = ["tests/test_kernel_fuzz.py",
           "tests/test_sliding_compact.py",
           "tests/test_sliding_small_boards.py::test_three_partitions_sharing_a_pattern_give_breadth_first_lengths",
           "tests/test_sliding_fast.py::"
           "test_both_searches_with_weight_1_find_shortest_paths_on_the_8_puzzle",
           "tests/test_sliding_fast.py::test_random_boards_are_solved_and_replay[4x4-1]",
           "tests/test_sliding_fast.py::test_random_boards_are_solved_and_replay[5x5-0]",
           "tests/test_pegs_count.py::test_counts_agree_with_brute_force",
           "tests/test_pegs_fewest.py::test_agrees_with_a_plain_bfs_over_moves",
           "tests/test_pegs_fewest.py::test_gives_up_without_claiming_optimality",
           "tests/test_pegs_verdict.py::"
           "test_each_lane_of_the_exact_search_alone_and_both_together_are_exact",
           "tests/test_pegs_solver.py::test_random_small_problems_agree_with_brute_force"
           "[True-numba]"]


def test_the_kernels_stay_in_bounds_when_numba_checks_every_index(tmp_path):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "numba"),
               PUZZLE_ENGINE_CACHE=str(tmp_path / "tables"))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                          *CHECKED], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout
