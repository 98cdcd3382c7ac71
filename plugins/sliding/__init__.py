"""Sliding-tile puzzles (8-, 15-, 24-puzzle and any m x n board up to 32 x 32).

Modules: ``board`` (the Board type, text/JSON forms, solvability), ``puzzle`` (the engine.Puzzle),
``heuristics`` (Manhattan + linear conflict), ``fast`` (the non-optimal solver for any size),
``optimal`` (IDA* with pattern databases), ``render`` (SVG), ``hooks`` (registration).
"""
