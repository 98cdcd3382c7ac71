"""The API the game-like editor uses: moves in plain words for a window of a solution, the live
verdict with every editor state, and a hinted next move drawn on the board.

Uses the toy "Pairs" puzzle (tests/pairs_toy.py) with plain words and a parity verdict: a row
with an odd number of ones can never be solved (each move flips two bits), one with an even
number always can (sweep left to right), an independent fact the verdict is checked against.
"""

from __future__ import annotations

import pytest
from pairs_toy import Bits, Pairs, Sweep

from engine import Assessment, hookimpl
from engine.plugins import Registry


class WordyPairs(Pairs):
    def describe_move(self, state, move):
        k = int(move)
        return f"flip bits {k} and {k + 1}"

    def assess(self, state, *, budget=0.05):
        if not any(state):
            return Assessment("solved", "Solved.")
        if sum(state) % 2:
            return Assessment("cannot", "An odd number of ones can never all be flipped off.",
                              "Every move flips two bits, so the number of ones keeps its parity.")
        return Assessment("can", "This row can still be solved.")


class BrokenPairs(Pairs):
    def describe_move(self, state, move):
        raise RuntimeError("plugin bug")

    def assess(self, state, *, budget=0.05):
        raise RuntimeError("plugin bug")


def client_for(puzzle, tmp_path):
    from web import create_app

    class Plugin:
        @hookimpl
        def register_puzzles(self, register):
            register(puzzle)

        @hookimpl
        def register_solvers(self, register):
            register(Sweep())

        @hookimpl
        def register_renderers(self, register):
            register(Bits())

    registry = Registry()
    registry.add_plugin("pairs-plugin", Plugin(), version="1")
    registry.collect()
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path), "TESTING": True,
                      "REGISTRY_FACTORY": "pairs_toy:toy_registry"})
    return app


@pytest.fixture()
def client(tmp_path):
    app = client_for(WordyPairs(), tmp_path)
    yield app.test_client()
    app.extensions["puzzle_jobs"].close()


def test_describe_a_window_of_moves(client):
    moves = ["0", "2", "1", "0"]
    answer = client.post("/api/pairs/describe", json={"instance": "1111", "moves": moves})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["from"] == 0 and body["total"] == 4
    assert [m["move"] for m in body["moves"]] == moves
    assert body["moves"][1]["words"] == "flip bits 2 and 3"
    window = client.post("/api/pairs/describe?from=2&count=1",
                         json={"instance": "1111", "moves": moves}).get_json()
    assert window["from"] == 2 and [m["move"] for m in window["moves"]] == ["1"]


def test_describe_is_bounded_and_checks_its_input(client):
    from web.api import MAX_DESCRIBE

    moves = ["0"] * (MAX_DESCRIBE + 50)
    body = client.post("/api/pairs/describe", json={"instance": "0000", "moves": moves}).get_json()
    assert len(body["moves"]) == MAX_DESCRIBE
    bad = client.post("/api/pairs/describe?from=-1", json={"instance": "0000", "moves": ["0"]})
    assert bad.status_code == 400 and "from" in bad.get_json()["error"]
    illegal = client.post("/api/pairs/describe", json={"instance": "0000", "moves": ["9"]})
    assert illegal.status_code == 400


def test_every_editor_state_carries_the_live_verdict(client):
    for text, verdict in (("1000", "cannot"), ("1100", "can"), ("0000", "solved")):
        body = client.post("/api/pairs/validate", json={"instance": text}).get_json()
        ones = text.count("1")
        expected = "solved" if ones == 0 else ("cannot" if ones % 2 else "can")
        assert body["assessment"]["verdict"] == expected == verdict
    odd = client.post("/api/pairs/validate", json={"instance": "1000"}).get_json()["assessment"]
    assert odd["detail"].startswith("Every move flips two bits")
    edited = client.post("/api/pairs/edit", json={"instance": "0000", "action": "flip:1"}).get_json()
    assert edited["instance"] == "0100" and edited["assessment"]["verdict"] == "cannot"


def test_a_hint_is_checked_and_said_in_words(client):
    body = client.post("/api/pairs/validate", json={"instance": "0110", "next_move": "1"}).get_json()
    assert body["hint"] == {"move": "1", "words": "flip bits 1 and 2"}
    assert body["instance"] == "0110"  # a hint changes nothing
    illegal = client.post("/api/pairs/validate", json={"instance": "0110", "next_move": "7"})
    assert illegal.status_code == 400


def test_a_failing_plugin_gives_unknown_and_the_notation(tmp_path):
    app = client_for(BrokenPairs(), tmp_path)
    try:
        client = app.test_client()
        body = client.post("/api/pairs/validate", json={"instance": "0110"}).get_json()
        assert body["assessment"]["verdict"] == "unknown"
        words = client.post("/api/pairs/describe", json={"instance": "0110", "moves": ["1"]}).get_json()
        assert words["moves"] == [{"move": "1", "words": "1"}]
    finally:
        app.extensions["puzzle_jobs"].close()


def test_the_editor_page_carries_the_board_once(client):
    html = client.get("/pairs?instance=0110").get_data(as_text=True)
    assert html.count('data-action="flip:0"') == 1
    assert "Skip to Solve" in html
