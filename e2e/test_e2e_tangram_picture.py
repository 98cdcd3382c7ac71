"""A tangram figure from a picture, in a real Chromium: a PNG of a preset (drawn here with
Pillow) chosen with "From a picture" or dropped on the page gives a preview of the exact outline
read over the picture; Accept puts the figure in the instance box and Solve covers it. axe finds
nothing with the preview open."""

from __future__ import annotations

import base64
import io
import math
import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_e2e_game import axe_violations

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from tangram_pictures import same_figure  # noqa: E402  (equal up to moves, turns, mirroring)

PRESET = "cat"


@pytest.fixture(autouse=True)
def _need_tangram(installed):
    if "tangram" not in installed:
        pytest.skip("the tangram plugin is not installed")


def preset_png(name: str, size: int = 320, angle: float = 20.0) -> bytes:
    """A dark picture of the preset on a light ground, turned by ``angle`` degrees, anti-aliased
    by drawing at four times the size and shrinking."""
    from PIL import Image, ImageDraw

    from plugins.tangram.figures import PRESETS
    from plugins.tangram.silhouette import parse_silhouette

    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    rings = [[(c * float(x) - s * float(y), s * float(x) + c * float(y)) for x, y in ring]
             for ring in parse_silhouette(PRESETS[name]).rings()]
    xs = [x for r in rings for x, _ in r]
    ys = [y for r in rings for _, y in r]
    big = size * 4
    k = big * 0.76 / max(max(xs) - min(xs), max(ys) - min(ys))
    ox, oy = big / 2 - k * (max(xs) + min(xs)) / 2, big / 2 + k * (max(ys) + min(ys)) / 2
    img = Image.new("L", (big, big), 240)
    draw = ImageDraw.Draw(img)
    for ring in rings:  # the presets used here have no holes
        draw.polygon([(ox + k * x, oy - k * y) for x, y in ring], fill=30)
    out = io.BytesIO()
    img.resize((size, size), Image.LANCZOS).save(out, "PNG")
    return out.getvalue()


def open_editor(page, server) -> None:
    page.goto(f"{server}/tangram")
    page.wait_for_load_state("load")
    expect(page.get_by_role("button", name="From a picture…")).to_be_visible()


def drop_picture(page, data: bytes, name: str = "figure.png", mime: str = "image/png") -> None:
    """Drop a file on the board as a person dragging it from their desktop would."""
    handle = page.evaluate_handle(
        """([b64, name, mime]) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const dt = new DataTransfer();
            dt.items.add(new File([bytes], name, { type: mime }));
            return dt;
        }""", [base64.b64encode(data).decode(), name, mime])
    board = page.locator("#board")
    board.dispatch_event("dragenter", {"dataTransfer": handle})
    board.dispatch_event("dragover", {"dataTransfer": handle})
    board.dispatch_event("drop", {"dataTransfer": handle})


def expect_preview(page) -> None:
    preview = page.locator("#picture-preview")
    expect(preview).to_be_visible(timeout=30_000)
    expect(preview.locator("figcaption")).to_contain_text(re.compile(r"vertices moved at most 0\.\d\d units"))
    outline = preview.locator("svg path.outline")
    expect(outline).to_have_attribute("d", re.compile(r"^M[-\d.]+,[-\d.]+(L[-\d.]+,[-\d.]+){9,}Z"))
    # the outline is drawn over the picture, inside it
    box, picture = outline.bounding_box(), preview.locator("svg image").bounding_box()
    assert box and picture and box["width"] > 0.5 * picture["width"]
    assert picture["x"] <= box["x"] and box["x"] + box["width"] <= picture["x"] + picture["width"] + 1
    expect(page.get_by_role("button", name="Accept")).to_be_focused()


def test_a_chosen_picture_is_previewed_accepted_and_solved(page, server):
    open_editor(page, server)
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="From a picture…").click()
    chooser.value.set_files({"name": "cat.png", "mimeType": "image/png", "buffer": preset_png(PRESET)})
    expect_preview(page)
    before = page.locator("#instance-text").input_value()
    page.get_by_role("button", name="Accept").click()
    expect(page.locator("#picture-preview")).to_be_hidden()
    text = page.locator("#instance-text")
    expect(text).not_to_have_value(before)
    expect(text).to_have_value(re.compile(r"^outer "))
    expect(page.locator("#picture-status")).to_contain_text("press Solve")
    from plugins.tangram.figures import PRESETS
    from plugins.tangram.silhouette import parse_silhouette
    assert same_figure(parse_silhouette(text.input_value()), parse_silhouette(PRESETS[PRESET]))
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.locator("#solve-status")).to_contain_text("covered", timeout=60_000)
    expect(page.locator("#solve-status")).to_have_attribute("data-kind", "success")
    expect(page.locator("#picture-status")).to_be_empty()  # the "press Solve" hint is gone


def test_a_dropped_picture_gives_a_preview_and_discard_hides_it(page, server):
    open_editor(page, server)
    before = page.locator("#instance-text").input_value()
    drop_picture(page, preset_png(PRESET, angle=-35))
    expect_preview(page)
    page.get_by_role("button", name="Discard").click()
    expect(page.locator("#picture-preview")).to_be_hidden()
    expect(page.locator("#instance-text")).to_have_value(before)
    expect(page.get_by_role("button", name="From a picture…")).to_be_focused()


def test_a_pasted_picture_gives_a_preview_and_pasted_text_still_goes_in_the_box(page, server):
    open_editor(page, server)
    page.evaluate(
        """(b64) => {
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const dt = new DataTransfer();
            dt.items.add(new File([bytes], "image.png", { type: "image/png" }));
            document.body.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true }));
        }""", base64.b64encode(preset_png(PRESET, angle=60)).decode())
    expect_preview(page)
    # a text paste is not taken for a picture: it is left to the text box
    handled = page.evaluate(
        """() => {
            const dt = new DataTransfer();
            dt.setData("text/plain", "outer 0,0 4,0 4,4 0,4");
            const evt = new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true });
            document.querySelector("#instance-text").dispatchEvent(evt);
            return evt.defaultPrevented;
        }""")
    assert handled is False


def test_a_picture_of_nothing_is_refused_in_words(page, server):
    from PIL import Image

    open_editor(page, server)
    out = io.BytesIO()
    Image.new("L", (64, 64), 255).save(out, "PNG")
    drop_picture(page, out.getvalue(), "blank.png")
    expect(page.locator("#picture-status")).to_contain_text("The picture cannot be read: ")
    expect(page.locator("#picture-preview")).to_be_hidden()


def rectangle_png() -> bytes:
    """A 5 x 3 rectangle: area 15 in the pieces' units, so no tangram figure."""
    from PIL import Image, ImageDraw

    img = Image.new("L", (300, 200), 240)
    ImageDraw.Draw(img).rectangle((50, 50, 250, 170), fill=30)
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def test_a_refused_picture_shows_the_closest_partial_cover(page, server):
    open_editor(page, server)
    drop_picture(page, rectangle_png(), "rectangle.png")
    expect(page.locator("#picture-status")).to_contain_text("The picture cannot be read: ", timeout=30_000)
    expect(page.locator("#picture-status")).to_contain_text("the closest fit found places")
    preview = page.locator("#picture-preview")
    expect(preview).to_be_visible()
    expect(preview.locator("figcaption")).to_contain_text(re.compile(r"The closest fit found \(in blue\) covers \d+%"))
    pieces = preview.locator("svg polygon.partial")
    assert 1 <= pieces.count() <= 7
    expect(page.get_by_role("button", name="Accept")).to_be_hidden()
    # the pieces lie on the picture
    picture = preview.locator("svg image").bounding_box()
    for i in range(pieces.count()):
        box = pieces.nth(i).bounding_box()
        assert picture["x"] <= box["x"] and box["x"] + box["width"] <= picture["x"] + picture["width"] + 1
    # a picture that reads brings Accept back
    drop_picture(page, preset_png(PRESET))
    expect_preview(page)


@pytest.mark.parametrize("width", [1280, 375])
def test_axe_finds_nothing_with_the_preview_open(page, server, width):
    page.set_viewport_size({"width": width, "height": 900})
    open_editor(page, server)
    drop_picture(page, preset_png(PRESET))
    expect_preview(page)
    count, report = axe_violations(page)
    assert count == 0, report


def test_a_dropped_svg_drawing_goes_in_the_instance_box_and_is_solved(page, server):
    # a drawing program's file: the cat's seven pieces, each turned by its own transform
    from plugins.tangram.figures import PRESETS
    from plugins.tangram.silhouette import parse_silhouette
    from tests.test_tangram_svg_documents import SVG, _pieces, _points, _turned

    body = "".join(f'<polygon transform="rotate({20 * k} {p[0][0]} {p[0][1]})" '
                   f'points="{_points(_turned(p, 20 * k, p[0][0], p[0][1]))}"/>'
                   for k, p in enumerate(_pieces(PRESET)))
    open_editor(page, server)
    drop_picture(page, SVG.format(body).encode(), "cat.svg", "image/svg+xml")
    expect(page.locator("#picture-status")).to_contain_text("press Solve", timeout=30_000)
    expect(page.locator("#picture-preview")).to_be_hidden()  # text, not a picture: no preview
    text = page.locator("#instance-text")
    expect(text).to_have_value(re.compile(r"^outer "))  # the figure read, in the box's own words
    assert same_figure(parse_silhouette(text.input_value()), parse_silhouette(PRESETS[PRESET]))
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.locator("#solve-status")).to_contain_text("covered", timeout=60_000)
    expect(page.locator("#solve-status")).to_have_attribute("data-kind", "success")


def test_a_dropped_svg_that_cannot_be_read_says_why_under_the_box(page, server):
    open_editor(page, server)
    drop_picture(page, b'<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>', "dot.svg", "image/svg+xml")
    expect(page.locator("#picture-status")).to_contain_text("cannot be read", timeout=30_000)
    expect(page.locator("#instance-error")).to_contain_text("no polygon, polyline, rectangle or path")
