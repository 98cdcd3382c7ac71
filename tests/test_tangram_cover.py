"""The independent exact cover check, on hand-made right and wrong placements."""

from fractions import Fraction

from plugins.tangram.cover_check import cover_problems, is_exact_cover, piece_inside, pieces_overlap
from plugins.tangram.numbers import QS2
from plugins.tangram.pieces import Placement, parse_placement
from plugins.tangram.silhouette import parse_silhouette

SQUARE = parse_silhouette("outer 0,0 4,0 4,4 0,4")

# The classic 4 x 4 square, laid out by hand (vertices written next to each move):
CLASSIC = [
    "L1 r5 f0 @ 2,2",   # (2,2) (0,0) (4,0)       bottom quarter
    "L2 r3 f0 @ 2,2",   # (2,2) (0,4) (0,0)       left quarter
    "M r4 f0 @ 4,4",    # (4,4) (2,4) (4,2)       top-right corner
    "Q r1 f0 @ 3,1",    # diamond (3,1) (4,2) (3,3) (2,2)
    "S1 r7 f0 @ 3,1",   # (3,1) (4,0) (4,2)
    "S2 r1 f0 @ 2,2",   # (2,2) (3,3) (1,3)
    "P r0 f1 @ 3,3",    # (3,3) (2,4) (0,4) (1,3)
]


def pieces(moves):
    return [parse_placement(m) for m in moves]


def test_hand_made_classic_square_is_an_exact_cover():
    ps = pieces(CLASSIC)
    assert [tuple(map(str, v)) for v in ps[0].vertices()] == [("2", "2"), ("0", "0"), ("4", "0")]
    assert cover_problems(SQUARE, ps) == []


def test_a_piece_moved_by_one_trillionth_is_caught():
    ps = pieces(CLASSIC)
    eps = QS2(Fraction(1, 10 ** 12))
    ps[3] = ps[3].moved(eps, QS2(0))     # the square slides right by 1e-12
    problems = cover_problems(SQUARE, ps)
    assert any("overlap" in p for p in problems), problems


def test_sqrt2_written_as_a_decimal_is_not_sqrt2():
    # The same square built with 1.41421356237 instead of r2: a float tolerance of 1e-9 accepts it.
    square = parse_placement("Q r0 f0 @ 0,0")
    approx = Placement("Q", 0, 0, QS2(Fraction(141421356237, 10 ** 11)), QS2(0))
    exact = Placement("Q", 0, 0, QS2(0, 1), QS2(0))
    assert abs(float(approx.x) - float(exact.x)) < 1e-9
    assert not pieces_overlap(square, exact)          # exactly edge to edge
    assert pieces_overlap(square, approx)             # overlaps by 6e-13: caught


def test_touching_edges_and_corners_are_not_overlaps():
    a = parse_placement("Q r0 f0 @ 0,0")
    assert not pieces_overlap(a, parse_placement("Q r0 f0 @ r2,r2"))   # corner to corner
    assert not pieces_overlap(a, parse_placement("Q r0 f0 @ r2,0"))    # edge to edge
    assert pieces_overlap(a, parse_placement("Q r1 f0 @ 1/2r2,0"))    # diamond pokes in


def test_wrong_placements_are_reported():
    ps = pieces(CLASSIC)
    outside = ps[:6] + [parse_placement("P r0 f1 @ 3,4")]   # shifted up by 1: leaves the square
    assert any("outside" in p or "crosses" in p for p in cover_problems(SQUARE, outside))
    assert not is_exact_cover(SQUARE, ps[:6])                   # one piece missing: area 14
    swapped = ps[:2] + [parse_placement("M r4 f0 @ 4,4"), parse_placement("Q r1 f0 @ 3,1"),
                        parse_placement("S1 r7 f0 @ 3,1"), parse_placement("S2 r1 f0 @ 2,2"),
                        parse_placement("P r0 f0 @ 1,3")]       # parallelogram not flipped
    assert not is_exact_cover(SQUARE, swapped)


def test_piece_inside_a_figure_with_a_hole():
    ring = parse_silhouette("outer 0,0 5,0 5,5 0,5\nhole 1,1 4,1 4,4 1,4")
    assert piece_inside(parse_placement("Q r0 f0 @ 0,0"), ring) is not None        # crosses into the hole
    # the hypotenuse x+y=r2 stays below the hole's corner (1,1)
    assert piece_inside(parse_placement("S1 r0 f0 @ 0,0"), ring) is None
