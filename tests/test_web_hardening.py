"""Regression tests for what an adversarial review of the web app found: requests that were a
500, or that could hog a request thread or the server's memory.

Mostly against the toy "pairs" puzzle (tests/pairs_toy.py); the work bounds are also checked
on the real 32 x 32 sliding board when that plugin is installed.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from pairs_toy import flip, toy_registry

from engine.plugins import get_registry
from web import create_app, rendering
from web.rendering import CHECKPOINT_EVERY, Replay, SizedLRU

# -- inputs that used to be a 500 ----------------------------------------------------------------

@pytest.mark.parametrize("method,suffix", [("GET", ""), ("POST", "/cancel"), ("DELETE", "")])
def test_stored_job_id_too_large_for_sqlite_is_404(client, method, suffix):
    # int("9" * 30) overflowed SQLite's 64-bit rowid: an OverflowError, answered as a 500.
    r = client.open(f"/api/jobs/stored-{'9' * 30}{suffix}", method=method)
    assert r.status_code == 404 and "no job" in r.get_json()["error"]


@pytest.mark.parametrize("seed", ["²", "١٢", "-1", "1.5", str(2**63), "9" * 5000])
def test_editor_page_with_a_strange_seed_shows_an_error_not_a_500(client, seed):
    # "²".isdigit() is True but int("²") raises: /pairs?seed=² was a 500.
    r = client.get("/pairs", query_string={"seed": seed})
    assert r.status_code == 200
    assert "seed must be a whole number" in r.get_data(as_text=True)


@pytest.mark.parametrize("seed", ["²", "١٢", " 1x", str(2**63)])
def test_random_api_takes_only_plain_ascii_seeds(client, seed):
    # "١٢" (Arabic-Indic digits) used to be read as seed 12.
    r = client.get("/api/pairs/random", query_string={"seed": seed})
    assert r.status_code == 400 and r.get_json()["where"] == "seed"


def test_random_api_still_takes_the_largest_seed(client):
    r = client.get("/api/pairs/random", query_string={"seed": str(2**63 - 1)})
    assert r.status_code == 200 and r.get_json()["seed"] == 2**63 - 1


@pytest.mark.parametrize("limit", [True, False])
def test_boolean_time_limit_is_refused(client, limit):
    # JSON true was silently taken as a 1 s time limit.
    r = client.post("/api/pairs/jobs", json={"instance": "0110", "time_limit": limit})
    assert r.status_code == 400 and r.get_json()["where"] == "time_limit"
    # Said in the spelling the client sent (JSON), not Python's True/False.
    assert r.get_json()["error"].endswith(f"not {'true' if limit else 'false'}")


@pytest.mark.parametrize("url, body, where, said", [
    ("/api/pairs/describe", {"instance": "1111", "moves": ["0"], "from": True}, "from", "not true"),
    ("/api/pairs/describe", {"instance": "1111", "moves": ["0"], "count": [2]}, "count", "not [2]"),
    ("/api/pairs/edit", {"instance": "1111", "action": "x", "mode": None, "selection": 3}, None, None),
    ("/api/pairs/edit", {"instance": "1111", "action": True}, "action", "must be text, not true"),
    ("/api/pairs/jobs", {"instance": "0110", "solver": None, "time_limit": {"s": 1}}, "time_limit",
     'not {"s": 1}'),
])
def test_json_values_are_named_in_json_spelling(client, url, body, where, said):
    r = client.post(url, json=body)
    if where is None:  # null is "not given" and a stray field is ignored: no Python None in sight
        assert "None" not in r.get_data(as_text=True)
        return
    assert r.status_code == 400 and r.get_json()["where"] == where, r.get_json()
    assert said in r.get_json()["error"] and "True" not in r.get_json()["error"]


def test_api_root_answers_json_404(client):
    r = client.get("/api")
    assert r.status_code == 404 and r.is_json and r.get_json()["error"]


# -- bounded work and memory -------------------------------------------------------------------

def test_replay_keeps_checkpoints_and_recomputes_every_step_exactly():
    registry = toy_registry()
    puzzle = registry.puzzle("pairs")
    moves = tuple(str(i % 5) for i in range(3 * CHECKPOINT_EVERY + 7))
    replayed = Replay(puzzle, puzzle.parse("000000"), moves)
    assert len(replayed.checkpoints) == 4  # not one state per move
    expected = "000000"
    for step in range(len(moves) + 1):
        assert puzzle.format(replayed.state(step)) == expected, step
        if step < len(moves):
            expected = flip(expected, moves[step])


def test_move_list_too_long_for_the_board_is_refused_quickly(client, monkeypatch):
    monkeypatch.setattr(rendering, "MAX_REPLAY_WORK", 6 * 1000)  # 1,000 moves on 6 bits
    ok = ",".join(["0"] * 1000)
    too_many = ",".join(["0"] * 1001)
    assert client.get(f"/api/pairs/render.svg?instance=000000&moves={ok}&step=3").status_code == 200
    for r in (client.get(f"/api/pairs/render.svg?instance=000000&moves={too_many}&step=3"),
              client.post("/api/pairs/replay", json={"instance": "000000", "moves": too_many}),
              client.get(f"/api/pairs/animation.svg?instance=000000&moves={too_many}")):
        assert r.status_code == 400, r.get_data(as_text=True)
        assert r.get_json()["where"] == "moves" and "too many" in r.get_json()["error"]


def test_animation_larger_than_the_limit_is_refused(client, monkeypatch):
    first = client.get("/api/pairs/render.svg?instance=0000&step=0").get_data(as_text=True)
    monkeypatch.setattr(rendering, "MAX_ANIMATION_BYTES", len(first) * 10)
    assert client.get("/api/pairs/animation.svg?instance=0000&moves=" + ",".join(["0"] * 8)).status_code == 200
    r = client.get("/api/pairs/animation.svg?instance=0000&moves=" + ",".join(["0"] * 12))
    assert r.status_code == 400 and "at most 9 moves" in r.get_json()["error"]


def test_sized_cache_evicts_by_size_not_count():
    calls = []
    cache = SizedLRU(lambda key: calls.append(key) or "x" * key, max_size=100,
                     weigh=lambda args, value: len(value))
    cache(60)
    cache(30)
    assert cache(60) == "x" * 60 and calls == [60, 30]  # a hit
    cache(50)  # 60 + 30 + 50 > 100: the least recently used (30) goes, then 60 as well
    info = cache.cache_info()
    assert info.size <= 100 and info.entries == 1
    cache(500)  # larger than the whole cache: computed, never stored
    assert cache.cache_info().size <= 100


def test_sliding_32x32_long_move_lists_are_bounded_when_installed(tmp_path):
    registry = get_registry()
    if "sliding" not in registry.puzzles:
        pytest.skip("the sliding plugin is not installed")
    puzzle = registry.puzzle("sliding")
    text = puzzle.format(puzzle.random(1, {"size": "32x32"}))
    rows = [r.split() for r in text.split(";")[0].split("/")]
    (r, c), = [(i, row.index("0")) for i, row in enumerate(rows) if "0" in row]
    tile = rows[r][c + 1] if c + 1 < len(rows[r]) else rows[r][c - 1]
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path)})
    client = app.test_client()
    try:
        r = client.post("/api/sliding/replay", json={"instance": text, "moves": [tile] * 100_000})
        assert r.status_code == 400 and "too many" in r.get_json()["error"]
        r = client.get(f"/api/sliding/animation.svg?instance={quote(text, safe='')}&moves="
                       + ",".join([tile] * 2000))
        assert r.status_code == 400 and "MB" in r.get_json()["error"]
        # an even number of back-and-forth slides comes back to the start
        r = client.post("/api/sliding/replay", json={"instance": text, "moves": [tile] * 1000})
        assert r.status_code == 200 and r.get_json()["steps"] == 1000
    finally:
        app.extensions["puzzle_jobs"].close()


# -- defence in depth on the pages ---------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/pairs", "/-/plugins", "/no-such-puzzle"])
def test_pages_forbid_inline_and_foreign_scripts(client, path):
    # The board SVG goes into the page with innerHTML; if a renderer ever let user text through
    # unescaped, an onload= attribute must still not run.
    r = client.get(path)
    assert r.mimetype == "text/html"
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_svg_answers_keep_their_own_stricter_policy(client):
    r = client.get("/api/pairs/render.svg?instance=0110")
    assert r.headers["Content-Security-Policy"].startswith("default-src 'none'")


# -- long solutions play back by job id ------------------------------------------------------------

def stored_solution(app, instance: str, moves: list[str]) -> str:
    """Put a solved report in the result store (as a finished job would); its job id."""
    jobs = app.extensions["puzzle_jobs"]
    jobs.store.put({"puzzle": "pairs", "solver": "sweep", "instance": instance, "status": "solved",
                    "moves": moves, "length": len(moves), "optimal": False, "seconds": 0.0,
                    "stats": {}, "reason": None, "details": {"flips": len(moves)}})
    job = jobs.submit("pairs", instance, "sweep")
    assert job.from_store
    return job.id


def test_job_steps_are_drawn_by_job_id_beyond_the_url_move_limit(app, client, monkeypatch):
    # 1,002 moves on 6 bits: "0" 1,000 times (back to the start), then 1 and 4 solve 011011.
    moves = ["0"] * 1000 + ["1", "4"]
    job_id = stored_solution(app, "011011", moves)
    monkeypatch.setattr(rendering, "MAX_REPLAY_WORK", 6 * 500)  # links may carry only 500 moves
    by_moves = client.get("/api/pairs/render.svg?instance=011011&moves=" + ",".join(moves) + "&step=1")
    assert by_moves.status_code == 400
    expected = {0: "011011", 1: "101011", 1001: "000011", 1002: "000000"}
    for step, bits in expected.items():
        r = client.get(f"/api/jobs/{job_id}/render.svg?step={step}")
        assert r.status_code == 200 and r.mimetype == "image/svg+xml"
        assert r.headers["X-Puzzle-Solved"] == ("true" if bits == "000000" else "false")
        # the toy draws bit k as a rect of class "bit on" (1) or "bit" (0)
        drawn = "".join("1" if part.startswith("bit on") else "0"
                        for part in r.get_data(as_text=True).split('class="')[1:])
        assert drawn == bits, step
    r = client.get(f"/api/jobs/{job_id}/render.svg?step=1003")
    assert r.status_code == 400 and r.get_json()["where"] == "step"
    assert client.get("/api/jobs/nope/render.svg?step=0").status_code == 404


def test_editor_link_with_a_job_shows_its_solution(app, client):
    job_id = stored_solution(app, "110000", ["0"])
    page = client.get(f"/pairs?job={job_id}").get_data(as_text=True)
    assert '"job": "' + job_id + '"' in page and '"moves": ["0"]' in page
    bad = client.get("/pairs?job=nope")
    assert bad.status_code == 200 and "the job in the link cannot be shown" in bad.get_data(as_text=True)


def test_deeply_nested_json_is_a_400_not_a_500(client):
    # json gives up with RecursionError (not ValueError) on "[[[[...]]]]" 100,000 deep.
    deep = "[" * 100_000 + "]" * 100_000
    r = client.post("/api/pairs/validate", data=deep, content_type="application/json")
    assert r.status_code == 400 and "nested too deeply" in r.get_json()["error"]
    r = client.post("/api/pairs/validate", data='{"instance": ' + '{"a": ' * 50_000 + "1" + "}" * 50_001,
                    content_type="application/json")
    assert r.status_code == 400
    r = client.get("/api/pairs/render.svg", query_string={"instance": "0110", "moves": "[" * 20_000 + "]" * 20_000})
    assert r.status_code == 400 and r.get_json()["where"] == "moves"


def test_jobs_take_the_json_form_of_an_instance_like_the_other_endpoints(app, client):
    # docs/api.md: instance values may be the puzzle's JSON form; jobs said "must be text".
    job_id = stored_solution(app, "100100", ["0", "1", "2"])  # 100100 -> 010100 -> 001100 -> 0
    r = client.post("/api/pairs/jobs", json={"instance": {"text": "100100"}, "solver": "sweep"})
    assert r.status_code == 200 and r.get_json()["id"] == job_id
    r = client.post("/api/pairs/jobs", json={"instance": {"nope": 1}})
    assert r.status_code == 400 and '"text"' in r.get_json()["error"]


# -- issue 27, small ones: redirects stay on the site, numbers are plain ASCII -------------------

def test_a_slash_redirect_stays_on_this_site_whatever_the_host_header(client):
    # Werkzeug's merge-slashes redirect was built from Host: it sent clients to evil.example.
    r = client.get("/api//puzzles", headers={"Host": "evil.example"})
    assert r.status_code in (301, 302, 307, 308)
    assert r.headers["Location"] == "/api/puzzles"


@pytest.mark.parametrize("limit", ["٥", "1_0", "+5", " 5", "1e1", "nan", "5s", "５"])
def test_time_limit_is_plain_ascii_digits(client, limit):
    for url in ("/api/pairs/jobs", "/api/pairs/tasks/sweep"):
        r = client.post(url, json={"instance": "0110", "time_limit": limit})
        assert r.status_code == 400, (url, limit)
        assert r.get_json()["where"] == "time_limit"
        assert "digits 0-9" in r.get_json()["error"]


def test_time_limit_still_takes_decimal_text_and_json_numbers(client):
    for limit in ("2", "2.5", 3, 1.5):
        r = client.post("/api/pairs/jobs", json={"instance": "0110", "time_limit": limit})
        assert r.status_code in (200, 202) and r.get_json()["time_limit"] == float(limit)


@pytest.mark.parametrize("step", ["١", "１", "+1", "1_0", " 1", "1.0", "0x1"])
def test_step_is_plain_ascii_digits(client, step):
    r = client.get("/api/pairs/render.svg", query_string={"instance": "110011", "moves": "0,4",
                                                          "step": step})
    assert r.status_code == 400 and r.get_json()["where"] == "step"
    assert "the step must be a whole number written with the digits 0-9" in r.get_json()["error"]


@pytest.mark.parametrize("seed", ["+5", " 5", "5_0", "５"])
def test_seed_is_plain_ascii_digits(client, seed):
    # "?seed=+5" in a URL is " 5": int() read both as 5.
    r = client.get("/api/pairs/random", query_string={"seed": seed})
    assert r.status_code == 400 and r.get_json()["where"] == "seed"
    assert "seed must be a whole number" in r.get_json()["error"]


@pytest.mark.parametrize("field", ["from", "count"])
def test_describe_window_is_plain_ascii_digits(client, field):
    r = client.post("/api/pairs/describe", json={"instance": "1111", "moves": ["0"], field: "+1"})
    assert r.status_code == 400 and r.get_json()["where"] == field


def test_animation_delay_is_plain_ascii_digits(client):
    for delay in ("٠.٥", "1_0", "+1", "inf"):
        r = client.get("/api/pairs/animation.svg", query_string={"instance": "1111", "moves": "0",
                                                                 "delay": delay})
        assert r.status_code == 400 and r.get_json()["where"] == "delay"
    assert client.get("/api/pairs/animation.svg", query_string={
        "instance": "1111", "moves": "0", "delay": "0.5"}).status_code == 200


def test_a_puzzle_without_a_client_script_answers_404(app, client, monkeypatch):
    monkeypatch.setattr(app.extensions["puzzle_registry"].puzzle("pairs"), "client_script", None)
    r = client.get("/-/client/pairs.js")
    assert r.status_code == 404 and "has no client script" in r.get_json()["error"]


def test_a_full_disk_is_not_called_busy(caplog):
    import logging

    from engine.jobs.later import LaterWrites
    from engine.jobs.store import StoreBusy

    def full():
        raise StoreBusy("SQLite: database or disk is full")

    writes = LaterWrites()
    try:
        with caplog.at_level(logging.WARNING, logger="engine.jobs"):
            assert writes.write("an answer", full) is False
    finally:
        writes.close()
    said = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert said and "disk is full" in said[0] and "busy" not in said[0].split("(")[0]
