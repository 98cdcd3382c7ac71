"""Named boards and problems (the first one is the default shown to users)."""

from __future__ import annotations

import functools

from engine import N_

from .i18n import _
from .parse import parse_instance

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
    # The English central game first: the default problem, solved in a fraction of a second.
    "english": f"geometry: square; goal: d4; board: {ENGLISH}",
    # The French central game: impossible, and the position classes say why at once.
    "european": f"geometry: square; goal: d4; board: {EUROPEAN}",
    "european-c1": ("geometry: square; goal: e1; "
                    "board: __.oo__/_ooooo_/ooooooo/ooooooo/ooooooo/_ooooo_/__ooo__"),
    "wiegleb": f"geometry: square; goal: e5; board: {WIEGLEB}",
    "triangle-5": f"geometry: triangular; goal: any; board: {TRIANGLE_5}",
    "triangle-6": f"geometry: triangular; goal: any; board: {TRIANGLE_6}",
    # Small custom problems: diagonal jumps, a plain rectangle, a target pattern.
    "diamond": "geometry: diagonal; goal: c3; board: _ooo_/ooooo/oo.oo/ooooo/_ooo_",
    "square-6": "geometry: square; goal: any; board: oooooo/oooooo/oo.ooo/oooooo/oooooo/oooooo",
    "triangle-corners": f"geometry: triangular; goal: ./../.../..../o...o; board: {TRIANGLE_5}",
}


#: The presets' names as people read them (the ids stay in links and the API). In English
#: the id is the name; the catalogue gives each a name in words.
PRESET_LABELS = {
    "english": N_("english"), "european": N_("european"), "european-c1": N_("european-c1"),
    "wiegleb": N_("wiegleb"), "triangle-5": N_("triangle-5"), "triangle-6": N_("triangle-6"),
    "diamond": N_("diamond"), "square-6": N_("square-6"), "triangle-corners": N_("triangle-corners"),
}
#: The boards of the "Load board" tool and the "board" option, by id (the same names).
BOARD_LABELS = {name: PRESET_LABELS[name] for name in BOARDS}


def label(name: str) -> str:
    """A preset's or board's name as people read it, in the current locale (the id in English)."""
    return _(PRESET_LABELS.get(name, name))


@functools.cache
def _preset_boards() -> frozenset[tuple]:
    return frozenset((i.geometry, i.rows, i.cols, i.holes, i.goal)
                     for i in map(parse_instance, PRESETS.values()))


def is_preset_board(state) -> bool:
    """Whether ``state`` (a PegInstance) is played on a preset's board towards its goal, whatever
    pegs are left: its tables are worth keeping on disk even when a web request asks first."""
    return (state.geometry, state.rows, state.cols, state.holes, state.goal) in _preset_boards()
