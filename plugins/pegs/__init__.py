"""Peg solitaire on square, square-with-diagonals and triangular boards.

Modules: ``board`` (geometry, hole names, jump tables as bitmasks), ``parse`` (instance text),
``rules`` (jumps), ``presets``, ``puzzle`` (the engine.Puzzle), ``classes`` (Conway's position
classes), ``pagoda`` (pagoda functions), ``symmetry`` (goal-preserving board symmetries),
``solver`` and ``fastdfs`` (the search and its compiled loop), ``kernel_checks`` (the
compiled kernels' buffer bounds, checked before each call), ``render`` (SVG), ``hooks``.
"""
