"""Choose the SVG rasteriser for render.png: resvg (resvg-py) against CairoSVG.

For one board of every installed puzzle (and the example plugin when installed) it prints, per
rasteriser: the median time to draw the board 600 px wide, and how far its pixels are from
Chromium's own rendering of the same SVG (mean absolute difference per channel, 0..255, and the
share of pixels that differ by more than 32 in some channel). Run:

    .venv/bin/pip install cairosvg   # the candidate not used by the app
    .venv/bin/python -P bench/raster_choice.py

Both are given the SVG with an explicit pixel size (web.raster.sized), as render.png does.
"""

from __future__ import annotations

import io
import statistics
import time
from urllib.parse import quote

import numpy as np
from PIL import Image

from engine.plugins import get_registry
from web import create_app
from web.pages import first_instance_text
from web.raster import png, sized

WIDTH = 600
ROUNDS = 15


def boards() -> dict[str, str]:
    registry = get_registry()
    app = create_app({"REGISTRY": registry, "TESTING": True})
    client = app.test_client()
    found = {}
    for puzzle in registry.puzzles.values():
        text = first_instance_text(puzzle)
        answer = client.get(f"/api/{puzzle.id}/render.svg?instance={quote(text, safe='')}")
        found[puzzle.id] = answer.get_data(as_text=True)
    app.extensions["puzzle_jobs"].close()
    return found


def with_resvg(svg: str) -> bytes:
    return png(svg, WIDTH)


def with_cairosvg(svg: str) -> bytes:
    import cairosvg
    text, width, height = sized(svg, WIDTH)
    return cairosvg.svg2png(bytestring=text.encode(), output_width=width, output_height=height)


def chromium_pngs(svgs: dict[str, str]) -> dict[str, Image.Image]:
    from playwright.sync_api import sync_playwright
    shots = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        page = browser.new_page(viewport={"width": WIDTH, "height": 1600})
        for name, svg in svgs.items():
            page.set_content("<style>html,body{margin:0;background:transparent}svg{display:block;"
                             f"width:{WIDTH}px;height:auto}}</style>" + svg)
            shots[name] = Image.open(io.BytesIO(page.locator("svg").first.screenshot(omit_background=True)))
        browser.close()
    return shots


def flatten(image: Image.Image, size: tuple[int, int]) -> np.ndarray:
    image = image.convert("RGBA").resize(size)
    white = Image.new("RGBA", size, "white")
    return np.asarray(Image.alpha_composite(white, image).convert("RGB"), dtype=np.int16)


def main() -> None:
    svgs = boards()
    reference = chromium_pngs(svgs)
    print(f"{'puzzle':10} {'rasteriser':9} {'p50 ms':>7} {'mean diff':>9} {'>32 px %':>8}")
    for name, svg in svgs.items():
        for label, draw in (("resvg", with_resvg), ("cairosvg", with_cairosvg)):
            times = []
            for _ in range(ROUNDS):
                started = time.perf_counter()
                png = draw(svg)
                times.append((time.perf_counter() - started) * 1000)
            ours = Image.open(io.BytesIO(png))
            ref = reference[name]
            a, b = flatten(ours, ref.size), flatten(ref, ref.size)
            diff = np.abs(a - b)
            far = (diff.max(axis=2) > 32).mean() * 100
            print(f"{name:10} {label:9} {statistics.median(times):7.1f} {diff.mean():9.2f} {far:8.2f}")


if __name__ == "__main__":
    main()
