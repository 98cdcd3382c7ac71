"""The exact solver: every preset solved (checked by the independent cover check), the 13 convex
figures of Wang and Hsiung found among all 20 convex candidates, impossibility proved with a
reason, the same verdicts under the 8 symmetries, and the deadline honoured."""

import time

import pytest

from engine import GaveUp, SolveContext, Solved, Unsolvable
from plugins.tangram.assembly import random_assembly, union_silhouette
from plugins.tangram.cover_check import is_exact_cover
from plugins.tangram.figures import COMPOSITIONS, CONVEX, IMPOSSIBLE_CONVEX, PRESETS, convex_candidates, convex_text
from plugins.tangram.numbers import R2
from plugins.tangram.pieces import parse_placement
from plugins.tangram.silhouette import parse_silhouette, symmetric_image
from plugins.tangram.solver import ExactSolver

SOLVER = ExactSolver()


def solve(sil, seconds=20):
    return SOLVER.solve(sil, SolveContext.with_timeout(seconds))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_solved_and_the_cover_checks(name):
    sil = parse_silhouette(PRESETS[name])
    out = solve(sil)
    assert isinstance(out, Solved), out
    assert len(out.moves) == 7
    assert is_exact_cover(sil, [parse_placement(m) for m in out.moves])


@pytest.mark.parametrize("name", sorted(COMPOSITIONS))
def test_composed_presets_are_the_union_of_a_known_cover(name):
    pieces = [parse_placement(m) for m in COMPOSITIONS[name]]
    sil = parse_silhouette(PRESETS[name])
    assert union_silhouette(pieces) == sil
    assert is_exact_cover(sil, pieces)


def test_wang_hsiung_exactly_13_of_the_convex_candidates_can_be_made():
    candidates = convex_candidates()
    # Wang and Hsiung (Amer. Math. Monthly 49, 1942): 20 convex polygons can be made of 16
    # congruent isosceles right triangles (OEIS A245676, a(16) = 20); 13 of them are tangrams.
    assert len(candidates) == 20
    verdicts = {c: solve(parse_silhouette(convex_text(c))) for c in candidates}
    solved = [c for c, out in verdicts.items() if isinstance(out, Solved)]
    assert len(solved) == 13                           # the theorem (1942)
    assert all(isinstance(o, (Solved, Unsolvable)) for o in verdicts.values())
    # the 13 presets are exactly those, up to congruence (compare canonical convex texts)
    preset_shapes = {_shape_key(parse_silhouette(t)) for t in CONVEX.values()}
    assert preset_shapes == {_shape_key(parse_silhouette(convex_text(c))) for c in solved}
    # ... and the other 7 are exactly the listed impossible ones
    impossible_shapes = {_shape_key(parse_silhouette(t)) for t in IMPOSSIBLE_CONVEX.values()}
    unsolved = [c for c in candidates if c not in solved]
    assert impossible_shapes == {_shape_key(parse_silhouette(convex_text(c))) for c in unsolved}


def test_the_flat_trapezoid_a_nine_step_edge_is_among_the_candidates():
    """The candidate a too-tight range bound once lost: bottom 9, top 7, height 1."""
    assert (0, 0, 9, 0, 0, 1, 7, 1) in convex_candidates()


def _shape_key(sil):
    """Sorted edge-length multiset plus vertex count: enough to tell the 20 convex figures apart."""
    ring = sil.components[0].outer
    n = len(ring)
    lengths = []
    for i in range(n):
        (ax, ay), (bx, by) = ring[i], ring[(i + 1) % n]
        dx, dy = abs(bx - ax), abs(by - ay)
        lengths.append(str(max(dx, dy) * (R2 if dx and dy else 1)))
    return (n, tuple(sorted(lengths)))


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE_CONVEX))
def test_impossible_convex_figures_are_proved_unsolvable_with_a_reason(name):
    out = solve(parse_silhouette(IMPOSSIBLE_CONVEX[name]))
    assert isinstance(out, Unsolvable)
    assert "no cover exists" in out.reason


def test_an_edge_no_piece_combination_makes_is_the_reason():
    out = solve(parse_silhouette("outer 0,0 1,0 1,16 0,16"))
    assert isinstance(out, Unsolvable) and "length 1" in out.reason


@pytest.mark.parametrize("text", [CONVEX["convex-pentagon"], PRESETS["assembly-hole-slid"],
                                  PRESETS["bowtie"], IMPOSSIBLE_CONVEX["convex-wide-rectangle"]])
def test_same_verdict_under_all_8_symmetries(text):
    base = parse_silhouette(text)
    verdicts = set()
    for k in range(4):
        for mirror in (0, 1):
            sil = symmetric_image(base, k, mirror)
            out = solve(sil)
            verdicts.add(out.status)
            if isinstance(out, Solved):
                assert is_exact_cover(sil, [parse_placement(m) for m in out.moves])
    assert len(verdicts) == 1


@pytest.mark.parametrize("seed", range(12))
def test_seeded_random_figures_are_solved(seed):
    sil, assembly = random_assembly(seed)
    assert is_exact_cover(sil, assembly)          # solvable by construction
    out = solve(sil)
    assert isinstance(out, Solved)
    assert is_exact_cover(sil, [parse_placement(m) for m in out.moves])


def test_random_options_reach_holes_slides_and_touches():
    many = [random_assembly(s, {"hole": "1", "slide": "0.6", "touch": "0.3"})[0] for s in range(4)]
    assert all(any(c.holes for c in s.components) for s in many)  # hole=1 always gives one
    assert any(c.holes for s in many for c in s.components)
    assert any(x.a.denominator > 1 or x.b.denominator > 1 for s in many for r in s.rings() for p in r for x in p)


def test_deadline_and_cancellation_are_honoured():
    sil = parse_silhouette(IMPOSSIBLE_CONVEX["convex-slanted-parallelogram"])
    out = SOLVER.solve(sil, SolveContext(deadline=time.monotonic() - 1))
    assert isinstance(out, GaveUp) and out.reason == "deadline" and out.stats["nodes"] > 0

    class Flag:
        def is_set(self):
            return True
    out = SOLVER.solve(sil, SolveContext(cancel=Flag()))
    assert isinstance(out, GaveUp) and out.reason == "cancelled"


def test_progress_is_reported():
    seen = []
    ctx = SolveContext(on_progress=seen.append, progress_interval=0)
    SOLVER.solve(parse_silhouette(IMPOSSIBLE_CONVEX["convex-slanted-parallelogram"]), ctx)
    assert seen and all("nodes" in s for s in seen)
