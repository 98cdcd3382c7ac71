"""Small compact pattern-database partitions for the sliding tests: a 3 x 3 and a 4 x 4 one
that build in seconds (the ``small_tables`` fixture in conftest.py builds them)."""

SMALL_3X3 = ((1, 2, 3), (4, 5, 6, 7, 8))
SMALL_4X4 = ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15))
