"""Named boards and problems (the first one is the default shown to users)."""

from __future__ import annotations

ENGLISH = "__ooo__/__ooo__/ooooooo/ooo.ooo/ooooooo/__ooo__/__ooo__"
EUROPEAN = "__ooo__/_ooooo_/ooooooo/ooo.ooo/ooooooo/_ooooo_/__ooo__"
WIEGLEB = ("___ooo___/___ooo___/___ooo___/ooooooooo/oooo.oooo/ooooooooo/"
           "___ooo___/___ooo___/___ooo___")
TRIANGLE_5 = "./oo/ooo/oooo/ooooo"
TRIANGLE_6 = "./oo/ooo/oooo/ooooo/oooooo"

#: Empty boards by name, for the "board" option of random instances and the geometry tools.
BOARDS = {
    "english": ("square", ENGLISH),
    "european": ("square", EUROPEAN),
    "wiegleb": ("square", WIEGLEB),
    "triangle-5": ("triangular", TRIANGLE_5),
    "triangle-6": ("triangular", TRIANGLE_6),
    "diamond": ("diagonal", "_ooo_/ooooo/oo.oo/ooooo/_ooo_"),
    "square-6": ("square", "oooooo/oooooo/oo.ooo/oooooo/oooooo/oooooo"),
}

PRESETS = {
    "english": f"geometry: square; goal: d4; board: {ENGLISH}",
    "european": f"geometry: square; goal: d4; board: {EUROPEAN}",
    "wiegleb": f"geometry: square; goal: e5; board: {WIEGLEB}",
    "triangle-5": f"geometry: triangular; goal: any; board: {TRIANGLE_5}",
    "triangle-6": f"geometry: triangular; goal: any; board: {TRIANGLE_6}",
    "diamond": "geometry: diagonal; goal: c3; board: _ooo_/ooooo/oo.oo/ooooo/_ooo_",
    "european-c1": f"geometry: square; goal: c1; board: __.oo__/_ooooo_/ooooooo/ooooooo/ooooooo/_ooooo_/__ooo__",
    "corner-3": "geometry: square; goal: any; board: ooo/oo./ooo",
}
