"""Lights Out for puzzle-engine: an example of a third-party plugin package.

Modules, one job each: ``board`` (the grid, its text form, the press rule), ``gf2`` (linear
algebra modulo 2), ``solver`` (the optimal solver), ``puzzle`` (the engine.Puzzle: presets,
random boards, notes, editing), ``renderer`` (SVG), ``hooks`` (registration with the engine).
"""

__version__ = "0.1.0"
