"""SVG import: an SVG's polygons, polylines and simple paths as silhouette rings.

Exact coordinates (or decimals within 0.002 of simple exact numbers) are read exactly; any other
decimals go to the noisy reader (decimals.py), like decimal text.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from engine import N_, InputError

from . import decimals
from .i18n import Note, _
from .numbers import format_number, parse_coordinate
from .silhouette import Silhouette, build_silhouette

_PATH_TOKEN = re.compile(r"[MmLlHhVvZz]|[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


def silhouette_from_svg(text: str) -> Silhouette:
    """Rings from an SVG's polygons, polylines and simple paths (y flipped), then validated."""
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise InputError(_("SVG with DOCTYPE or ENTITY declarations is not accepted"))
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InputError(_("cannot read the SVG: {error}").format(error=exc)) from None
    raw_rings: list[list[tuple[str, str]]] = []
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1]
        if tag in ("polygon", "polyline"):
            nums = re.findall(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?", el.get("points", ""))
            if len(nums) % 2 or len(nums) < 6:
                raise InputError(_("an SVG {tag} has an odd or too small number of coordinates").format(tag=tag))
            raw_rings.append([(nums[i], nums[i + 1]) for i in range(0, len(nums), 2)])
        elif tag == "path":
            raw_rings.extend(_path_rings(el.get("d", "")))
    if not raw_rings:
        raise InputError(_("the SVG has no polygon, polyline or path"))
    try:
        return _svg_exact(raw_rings)
    except InputError as exc:
        try:
            floats = [[(float(x), -float(y)) for x, y in rr] for rr in raw_rings]
        except ValueError:
            raise exc from None
        return decimals.read_noisy_rings(floats, exc)


def _svg_exact(raw_rings: list[list[tuple[str, str]]]) -> Silhouette:
    snaps: list[str] = []
    rings = []
    for rr in raw_rings:
        pts = []
        for xs, ys in rr:
            x, mx = parse_coordinate(xs)
            y, my = parse_coordinate(ys)
            for raw, v, m in ((xs, x, mx), (ys, y, my)):
                if m:
                    snaps.append(Note(N_("{number} snapped to {exact} (moved {moved})"),
                                      number=raw, exact=format_number(v), moved=f"{m:.2g}"))
            pts.append((x, -y))
        rings.append((pts, "ring"))
    if len(snaps) > 20:
        snaps = snaps[:20] + [Note(N_("... and {count} more snapped coordinates"), count=len(snaps) - 20)]
    return build_silhouette(rings, (), snaps)


def _path_rings(d: str) -> list[list[tuple[str, str]]]:
    tokens = _PATH_TOKEN.findall(d)
    rings, cur = [], []
    x = y = "0"
    cmd = None
    i = 0

    def add(a: str, b: str) -> str:
        return repr(float(a) + float(b))

    while i < len(tokens):
        t = tokens[i]
        if t.isalpha():
            cmd = t
            i += 1
            if cmd in "Zz":
                if cur:
                    rings.append(cur)
                cur = []
            continue
        if cmd is None:
            raise InputError(_("an SVG path must start with a command such as M"))
        try:
            if cmd in "MLml":
                nx, ny = tokens[i], tokens[i + 1]
                i += 2
                if cmd in "ml" and (cur or cmd == "l"):
                    nx, ny = add(x, nx), add(y, ny)
                if cmd in "Mm" and cur:
                    rings.append(cur)
                    cur = []
                x, y = nx, ny
                cur.append((x, y))
                cmd = {"M": "L", "m": "l"}.get(cmd, cmd)
            elif cmd in "Hh":
                x = tokens[i] if cmd == "H" else add(x, tokens[i])
                i += 1
                cur.append((x, y))
            elif cmd in "Vv":
                y = tokens[i] if cmd == "V" else add(y, tokens[i])
                i += 1
                cur.append((x, y))
            else:
                raise InputError(_("SVG path command {command} is not supported (only M, L, H, V, Z)").format(
                    command=repr(cmd)))
        except IndexError:
            raise InputError(_("an SVG path ends in the middle of a command")) from None
        if tokens[i - 1].isalpha():
            break
    if len(cur) >= 3:
        rings.append(cur)
    return rings
