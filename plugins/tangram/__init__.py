"""Tangram: cover a silhouette exactly with the seven pieces, in exact arithmetic over Q(sqrt 2).

Modules: ``numbers`` (exact a + b*sqrt2), ``geometry`` (exact points and polygons), ``pieces``
(the seven pieces and their orientations), ``silhouette`` (the instance: parsing, validation,
scaling), ``lattice`` (integer coordinates for the search), ``solver`` (the complete
lowest-leftmost-vertex search), ``cover_check`` (independent verification of a cover),
``assembly`` (unions of placed pieces, random figures), ``figures`` (presets), ``puzzle``,
``render`` (SVG), ``hooks``.
"""
