"""The embed player on another site: a host page on a second origin (another local server)
frames /embed/<puzzle>; the keys, the live line, the height message and /embed.js, bg=dark,
the editor link, the page without JavaScript, axe, and that only embed routes may be framed."""

from __future__ import annotations

import http.server
import threading
import urllib.parse

import pytest
from test_e2e_game import axe_violations

#: 1 2 3 / 4 5 6 / _ 7 8: tile 7 then tile 8 slide left, and the board is solved.
INSTANCE = "1 2 3/4 5 6/0 7 8"
MOVES = "7,8"


def embed_path(puzzle="sliding", **extra) -> str:
    query = {"instance": INSTANCE, "moves": MOVES, **extra} if puzzle == "sliding" else extra
    return f"/embed/{puzzle}?" + urllib.parse.urlencode(query)


@pytest.fixture(scope="module")
def host():
    """A second origin: a tiny server that answers every path with the page set in .html."""
    class Handler(http.server.BaseHTTPRequestHandler):
        html = ""

        def do_GET(self):  # noqa: N802 - the http.server API
            body = Handler.html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    httpd.page = lambda html: setattr(Handler, "html", html)
    httpd.url = f"http://127.0.0.1:{httpd.server_address[1]}/host.html"
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def host_page(server: str, src: str, script: bool = True) -> str:
    return ("<!doctype html><html lang=en><title>Host</title><body><h1>A blog</h1>"
            "<script>window.heights = []; addEventListener('message', (e) => {"
            " if (e.data && e.data.type === 'puzzle-embed-height') heights.push(e.data); });</script>"
            f'<iframe id="frame" src="{server}{src}" title="Puzzle" width="600" height="300" '
            'style="border:0;width:100%"></iframe>'
            + (f'<script src="{server}/embed.js"></script>' if script else "") + "</body></html>")


def open_host(page, host, server, src, script=True):
    host.page(host_page(server, src, script))
    page.goto(host.url)
    frame = page.frame_locator("#frame")
    frame.locator("#board svg").wait_for()
    return frame


def test_the_player_works_inside_another_sites_page(page, server, host):
    page.set_viewport_size({"width": 700, "height": 900})
    frame = open_host(page, host, server, embed_path(id="one"))
    frame.locator("#play").wait_for()  # the script has taken over the step links
    first_board = frame.locator("#board").inner_html()
    frame.locator("#player").focus()
    page.keyboard.press("ArrowRight")
    board = frame.locator("#board")
    page.wait_for_function("() => document.querySelector('#frame').contentDocument === null")  # cross-origin
    frame.locator("#board[data-step='1']").wait_for()
    assert board.inner_html() != first_board
    status = frame.locator("#step-status")
    assert status.get_attribute("aria-live") == "polite"
    frame.locator("#step-status:has-text('Move 1 of 2')").wait_for()
    assert "tile 7" in status.inner_text().lower()
    # The editor link opens the same step, in a new tab, and says so.
    link = frame.locator("#editor-link")
    href = link.get_attribute("href")
    assert href.startswith("/sliding?") and href.endswith("#step=1") and "moves=7%2C8" in href
    assert link.get_attribute("target") == "_blank"
    assert "new tab" in link.inner_text()
    # The height message reached the host, and /embed.js set the iframe's height from it.
    page.wait_for_function("() => window.heights.length > 0")
    message = page.evaluate("() => window.heights[window.heights.length - 1]")
    assert message["id"] == "one" and message["height"] > 300
    page.wait_for_function("(h) => document.querySelector('#frame').style.height === h + 'px'",
                           arg=round(message["height"]))
    # End goes to the last step: the board is solved.
    page.keyboard.press("End")
    frame.locator("#board[data-step='2'][data-solved='true']").wait_for()


def test_without_the_host_script_the_frame_keeps_its_height(page, server, host):
    open_host(page, host, server, embed_path(), script=False)
    page.wait_for_function("() => window.heights.length > 0")
    assert page.locator("#frame").evaluate("(f) => f.getBoundingClientRect().height") == 300


def test_bg_dark_gives_a_dark_background(page, server, host):
    frame = open_host(page, host, server, embed_path(bg="dark"))
    colour = frame.locator("html").evaluate("(n) => getComputedStyle(n).backgroundColor")
    channels = [int(c) for c in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3]]
    assert max(channels) < 60, colour


def test_step_in_the_hash_and_the_query(page, server):
    page.goto(server + embed_path(step="1"))
    page.locator("#board[data-step='1']").wait_for()
    page.goto(server + embed_path(bg="light") + "#step=2")
    page.locator("#board[data-step='2']").wait_for()
    assert "bg=light" in page.locator("#prev-step").get_attribute("href")


def test_without_javascript_the_next_link_advances(browser, server):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server + embed_path(list="1"))
        assert page.locator("#board").get_attribute("data-step") == "0"
        assert page.locator("#play").is_hidden()
        page.locator("#next-step").click()
        page.wait_for_url("**step=1**")
        assert page.locator("#board").get_attribute("data-step") == "1"
        assert "Move 1 of 2" in page.locator("#step-status").inner_text()
        assert page.locator("#move-list li").count() == 2
    finally:
        context.close()


def test_show_solution_runs_the_default_solver_for_the_example_plugin(page, server, installed):
    if "lights_out" not in installed:
        pytest.skip("the example plugin is not installed")
    page.goto(server + "/embed/lights_out")
    page.locator("#show-solution").click()
    page.locator("#board[data-step='0']").wait_for()
    page.locator("#play").wait_for()
    page.keyboard.press("End")
    page.locator("#board[data-solved='true']").wait_for()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [320, 600])
def test_axe_finds_nothing_on_the_embed(browser, server, width, scheme):
    context = browser.new_context(viewport={"width": width, "height": 700}, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(server + embed_path(list="1"))
        page.locator("#play").wait_for()
        page.keyboard.press("Tab")
        page.keyboard.press("ArrowRight")
        page.locator("#board[data-step='1']").wait_for()
        count, report = axe_violations(page)
        assert count == 0, report
    finally:
        context.close()


def test_only_embed_routes_may_be_framed_by_another_site(page, server, host):
    host.page(host_page(server, "/sliding", script=False))
    page.goto(host.url)
    page.wait_for_timeout(500)  # give the refused frame time to settle
    frame = page.locator("#frame").element_handle().content_frame()
    assert frame is None or frame.query_selector("#board") is None
    host.page(host_page(server, embed_path(), script=False))
    page.goto(host.url)
    page.frame_locator("#frame").locator("#board svg").wait_for()


def test_the_share_dialog(page, server):
    page.goto(server + "/sliding?" + urllib.parse.urlencode({"instance": INSTANCE, "moves": MOVES}) + "#step=1")
    page.locator("#playback-board[data-step='1'] svg").wait_for()
    opener = page.locator("#share-open")
    opener.click()
    dialog = page.locator("#share-dialog")
    dialog.wait_for()
    snippet = dialog.get_by_role("textbox", name="Embed code")
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('#share-dialog')")
    html = snippet.input_value()
    assert "<iframe" in html and "/embed/sliding?" in html and 'loading="lazy"' in html and "#step=1" in html
    assert "<a href=" in html  # the fallback link for sites that strip iframes
    assert dialog.get_by_role("textbox", name="Link to this step").input_value().endswith("#step=1")
    assert "render.png?" in dialog.get_by_role("textbox", name="PNG image").input_value()
    for name in ("GIF", "WebP", "SVG"):
        assert dialog.get_by_role("link", name=name, exact=True).get_attribute("download")
    count, report = axe_violations(page)
    assert count == 0, report
    # Focus stays in the dialog: Tab from its last control comes back to its first.
    for _ in range(30):
        page.keyboard.press("Tab")
        assert page.evaluate("() => !!document.activeElement.closest('#share-dialog')")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.evaluate("() => document.activeElement.id") == "share-open"


def solution_of(server: str, puzzle: str, instance: str) -> list[str]:
    """The default solver's moves for ``instance`` (through the job API, as a site would)."""
    import json
    import time
    import urllib.request

    def call(method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(server + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)

    job = call("POST", f"/api/{puzzle}/jobs", {"instance": instance, "time_limit": 60})
    deadline = time.monotonic() + 60
    while not job["done"] and time.monotonic() < deadline:
        time.sleep(0.2)
        job = call("GET", f"/api/jobs/{job['id']}")
    assert job["status"] == "solved", job
    return job["result"]["moves"]


@pytest.mark.parametrize("puzzle", ["pegs", "tangram"])
def test_pegs_and_tangram_embeds_step_with_the_keys_and_pass_axe(browser, server, installed, puzzle):
    details = installed[puzzle]
    instance = next(iter(details["presets"].values()))
    moves = solution_of(server, puzzle, instance)
    import json
    query = {"instance": instance, "list": "1",
             "moves": json.dumps(moves) if any("," in m for m in moves) else ",".join(moves)}
    context = browser.new_context(viewport={"width": 600, "height": 800})
    try:
        page = context.new_page()
        page.goto(server + f"/embed/{puzzle}?" + urllib.parse.urlencode(query))
        page.locator("#play").wait_for()
        first_board = page.locator("#board").inner_html()
        page.locator("#player").focus()
        page.keyboard.press("ArrowRight")
        page.locator("#board[data-step='1']").wait_for()
        assert page.locator("#board").inner_html() != first_board
        page.locator(f"#step-status:has-text('Move 1 of {len(moves)}')").wait_for()
        count, report = axe_violations(page)
        assert count == 0, report
    finally:
        context.close()


def test_a_page_with_several_embeds_gets_every_players_words(page, server, host):
    """Each player asks for its moves in words as it loads; the editor requests' per-client
    share must not leave some of the frames of one page without them."""
    frames = 8
    body = "".join(f'<iframe id="f{i}" src="{server}{embed_path(id=str(i), list="1")}" '
                   f'title="Puzzle {i}" width="400" height="500"></iframe>' for i in range(frames))
    host.page(f"<!doctype html><html lang=en><title>Host</title><body>{body}</body></html>")
    page.goto(host.url)
    for i in range(frames):
        frame = page.frame_locator(f"#f{i}")
        frame.locator("#play").wait_for()
        # Both moves of the list carry their words ("tile 7 …"), not only the raw move codes.
        frame.locator("#move-list li:nth-child(2) .words").wait_for(timeout=10_000)
        assert frame.locator("#move-list .words").count() == 2


def test_a_player_told_to_wait_asks_again_for_its_words(page, server):
    """When the visitor's share of editor requests is taken (a 429 with Retry-After, as when
    many embeds load at once), the player waits and asks again rather than going without."""
    refused = []

    def busy_once(route):
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=429, headers={"Retry-After": "1", "Content-Type": "application/json"},
                          body='{"error": "you already have 3 editor requests in progress"}')
        else:
            route.continue_()

    page.route("**/api/sliding/describe?**", busy_once)
    page.goto(server + embed_path(list="1"))
    page.locator("#move-list li:nth-child(2) .words").wait_for(timeout=10_000)
    assert refused and page.locator("#move-list .words").count() == 2
