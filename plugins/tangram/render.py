"""SVG drawing of a tangram state (svgwrite), styled by an embedded stylesheet.

The silhouette is one ``<path class="silhouette">`` (even-odd fill, so holes show). Each placed
piece is a ``<polygon class="piece piece-L1 shape-L">`` with ``data-piece``; the piece of
``last_move`` also has class ``newest``, and ``next_move`` is drawn as a dashed ``preview``.
When nothing is placed yet, the editor's draft composition is drawn as ``draft`` pieces with
``data-action="select:NAME"`` (click to select; the selection gets class ``selected``).
Coordinates are in the puzzle's units with y pointing up, flipped into SVG's y-down viewBox.
"""

from __future__ import annotations

import svgwrite

from engine import InputError, Renderer

from .pieces import TITLES, Placement, parse_placement

STYLE = """
.tangram-board .silhouette { fill: #5b6470; fill-opacity: 0.35; stroke: #3a4048; stroke-width: 0.04; }
.tangram-board .piece { stroke: #222; stroke-width: 0.04; stroke-linejoin: round; fill-opacity: 0.92; }
.tangram-board .shape-L { fill: #e4572e; }
.tangram-board .piece-L2 { fill: #f3a712; }
.tangram-board .shape-M { fill: #29335c; }
.tangram-board .shape-S { fill: #669bbc; }
.tangram-board .piece-S2 { fill: #2a9d8f; }
.tangram-board .shape-Q { fill: #a8c686; }
.tangram-board .shape-P { fill: #9b5de5; }
.tangram-board .newest { stroke: #ffd500; stroke-width: 0.12; }
.tangram-board .preview { fill-opacity: 0.25; stroke-dasharray: 0.15 0.1; }
.tangram-board .draft { fill-opacity: 0.6; stroke-dasharray: 0.1 0.06; }
.tangram-board .selected { stroke: #ffd500; stroke-width: 0.14; fill-opacity: 0.9; }
.tangram-board [data-action] { cursor: pointer; }
"""

MARGIN = 0.5


def _f(v) -> float:
    return round(float(v), 4)


def _maybe(move: str | None) -> Placement | None:
    if not move:
        return None
    try:
        return parse_placement(move)
    except InputError:
        return None


class DefaultRenderer(Renderer):
    puzzle_id = "tangram"
    name = "default"

    def render(self, state, *, last_move=None, next_move=None, selection=None) -> str:
        sil = state.silhouette
        placed = list(state.placed)
        draft = list(sil.draft) if not placed else []
        preview = _maybe(next_move)
        newest = _maybe(last_move)
        shapes = [p.vertices() for p in placed + draft + ([preview] if preview else [])]
        pts = [(float(x), float(y)) for r in sil.rings() for x, y in r]
        pts += [(float(x), float(y)) for vs in shapes for x, y in vs]
        minx = min(p[0] for p in pts) - MARGIN
        maxx = max(p[0] for p in pts) + MARGIN
        miny = min(p[1] for p in pts) - MARGIN
        maxy = max(p[1] for p in pts) + MARGIN
        w, h = maxx - minx, maxy - miny
        dwg = svgwrite.Drawing(size=("100%", "100%"), profile="full", debug=False)
        dwg.viewbox(_f(minx), _f(-maxy), _f(w), _f(h))
        dwg.attribs["class"] = "tangram-board"
        dwg.attribs["preserveAspectRatio"] = "xMidYMid meet"
        dwg.defs.add(dwg.style(STYLE))
        d = []
        for ring in sil.rings():
            d.append("M " + " L ".join(f"{_f(x)} {_f(-y)}" for x, y in ring) + " Z")
        dwg.add(dwg.path(d=" ".join(d), class_="silhouette", fill_rule="evenodd"))
        for p in placed:
            cls = f"piece piece-{p.name} shape-{p.shape}"
            if newest is not None and newest.name == p.name:
                cls += " newest"
            dwg.add(self._poly(dwg, p, cls))
        for p in draft:
            cls = f"piece draft piece-{p.name} shape-{p.shape}"
            if selection == p.name:
                cls += " selected"
            el = self._poly(dwg, p, cls)
            el.attribs["data-action"] = f"select:{p.name}"
            dwg.add(el)
        if preview is not None and preview.name not in {p.name for p in placed}:
            dwg.add(self._poly(dwg, preview, f"piece preview piece-{preview.name} shape-{preview.shape}"))
        return dwg.tostring()

    @staticmethod
    def _poly(dwg, p: Placement, cls: str):
        el = dwg.polygon([(_f(x), _f(-y)) for x, y in p.vertices()], class_=cls)
        el.attribs["data-piece"] = p.name
        el.set_desc(title=f"{p.name}: {TITLES[p.shape]} ({p.notation()})")
        return el
