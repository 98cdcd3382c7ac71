"""Counting peg solitaire solutions: against a brute force and against published tables.

The brute force counts jump sequences by a memoised recursion over positions, with jumps
recomputed from the drawing's coordinates (``brute_jumps``), so neither the plugin's jump tables
nor its symmetry reduction nor its meeting in the middle is trusted.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from click.testing import CliRunner
from test_pegs_solver import brute_jumps

from plugins.pegs.commands import pegs_group
from plugins.pegs.count import CountRefused, count_solutions, forward_level_sizes
from plugins.pegs.parse import parse_instance
from plugins.pegs.presets import PRESETS

TRIANGLE_5 = "./oo/ooo/oooo/ooooo"


def brute_count(inst) -> int:
    jumps = brute_jumps(inst)

    @cache
    def ways(pos: int) -> int:
        if (inst.goal and pos == inst.goal) or (not inst.goal and pos.bit_count() == 1):
            return 1
        total = 0
        for a, b, c in jumps:
            if pos >> a & 1 and pos >> b & 1 and not pos >> c & 1:
                total += ways(pos & ~(1 << a) & ~(1 << b) | (1 << c))
        return total

    return ways(inst.pegs)


def with_vacancy(text: str, hole: str):
    inst = parse_instance(text)
    board = inst.board
    cell = board.cells[board.names.index(hole)]
    return replace(inst, pegs=inst.holes & ~(1 << cell))


SMALL = [
    f"geometry: triangular; goal: any; board: {TRIANGLE_5}",
    f"geometry: triangular; goal: a1; board: {TRIANGLE_5}",
    f"geometry: triangular; goal: d4; board: {TRIANGLE_5}",
    PRESETS["triangle-corners"],                      # a two-peg goal pattern
    "geometry: triangular; goal: any; board: oo/ooo/o.oo/ooooo",
    "geometry: diagonal; goal: c2; board: ooooo/oo.oo/ooooo",  # diagonal jumps
    "geometry: diagonal; goal: any; board: oooo/o.oo/oooo",
    "geometry: square; goal: c3; board: _ooo_/ooooo/oo.oo/ooooo/_ooo_",
    "geometry: square; goal: any; board: _ooo_/ooooo/oo.oo/ooooo/_ooo_",
    "geometry: square; goal: a1; board: ooooo/oo.oo/ooooo",
]


@pytest.mark.parametrize("text", SMALL)
def test_counts_agree_with_brute_force(text):
    inst = parse_instance(text)
    result = count_solutions(inst)
    assert result.solutions == brute_count(inst)


@pytest.mark.parametrize("vacancy", ["a1", "a4", "c5", "b3", "b2", "e5"])
def test_every_single_vacancy_of_the_triangle(vacancy):
    for goal in ("any", "a1", "c5", "d4"):
        inst = with_vacancy(f"geometry: triangular; goal: {goal}; board: {TRIANGLE_5}", vacancy)
        assert count_solutions(inst).solutions == brute_count(inst), goal


def test_triangle_corner_vacancy():
    # Brute force figures (independent of the plugin): 29,760 jump sequences leave one peg from
    # the corner vacancy, 6,816 of them on the corner itself. Class-impossible goals give 0.
    inst = parse_instance(PRESETS["triangle-5"])
    assert count_solutions(inst).solutions == 29_760
    assert count_solutions(replace(inst, goal=1)).solutions == 6_816  # a1 is grid cell 0
    b3 = with_vacancy(f"geometry: triangular; goal: a1; board: {TRIANGLE_5}", "b3")
    assert count_solutions(b3).solutions == 0


# Jaap Scherphuis, "Triangular Peg Solitaire" (jaapsch.net/puzzles/trisolit.htm): positions
# reachable after each number of jumps from each starting hole of the 15-hole triangle (the same
# hole names: rows 1-5 from the top, columns from the left edge).
JAAP = {
    "a1": [1, 2, 8, 35, 122, 293, 530, 679, 623, 414, 212, 75, 18, 4],
    "a4": [1, 2, 6, 24, 79, 193, 375, 525, 519, 366, 196, 70, 17, 4],
    "c5": [1, 4, 16, 59, 186, 446, 760, 931, 840, 583, 285, 98, 23, 5],
    "b3": [1, 2, 6, 21, 58, 139, 260, 350, 351, 261, 142, 49, 10, 1],
}


@pytest.mark.parametrize("vacancy", sorted(JAAP))
def test_reachable_positions_match_the_published_table(vacancy):
    inst = with_vacancy(f"geometry: triangular; goal: any; board: {TRIANGLE_5}", vacancy)
    sizes = forward_level_sizes(inst)
    assert [full for _, _, full in sizes] == JAAP[vacancy]
    assert sum(full for _, _, full in sizes) == sum(JAAP[vacancy])


def test_a_count_that_does_not_fit_is_refused_with_an_estimate():
    inst = parse_instance(PRESETS["english"])
    with pytest.raises(CountRefused, match="GB"):
        count_solutions(inst, memory=200_000)


def test_count_command():
    runner = CliRunner()
    out = runner.invoke(pegs_group, ["count", "triangle-5", "--json"])
    assert out.exit_code == 0, out.output
    assert '"solutions": 29760' in out.stdout
    text = runner.invoke(pegs_group, ["count", "triangle-5"])
    assert "29,760 solutions" in text.stdout
    assert "level" in text.stderr  # progress per level
    bad = runner.invoke(pegs_group, ["count", "geometry: hexagonal"])
    assert bad.exit_code == 2 and "error:" in bad.stderr
    refused = runner.invoke(pegs_group, ["count", "english", "--memory", "0.01"])
    # The English board's count needs far more than 10 MB: refused with the reason, not run.
    assert refused.exit_code == 2, refused.output
    assert "error: refused:" in refused.stderr and "the budget is" in refused.stderr
    assert "solutions" not in refused.stdout


def test_the_python_integer_sum_used_past_64_bits_agrees(monkeypatch):
    from plugins.pegs import count as count_module

    real = count_module.lv.meet_total

    def overflowing(*args):
        total, common = real(*args)
        args[-1][0] = 1  # as if the 64-bit sum had overflowed: the Python integers take over
        return total, common

    monkeypatch.setattr(count_module.lv, "meet_total", overflowing)
    assert count_solutions(parse_instance(PRESETS["triangle-5"])).solutions == 29_760
