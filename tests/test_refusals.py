"""A client refused for its spent CPU budget is answered again before Flask; others are not."""

import logging

from flask import Flask

from web import errors, refusals
from web.clients import Busy
from web.quiet_logs import OncePerInterval


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_app(clock: Clock):
    app = Flask(__name__)
    calls = {"spent": 0, "busy": 0, "ok": 0}

    @app.post("/api/<puzzle>/validate")
    def validate(puzzle):
        calls["spent"] += 1
        raise Busy("your editor requests used 20 CPU-seconds; try again in 7 s", retry_after=7,
                   lasting=True)

    @app.post("/api/<puzzle>/edit")
    def edit(puzzle):
        calls["busy"] += 1
        raise Busy("the server is busy with other editor requests; try again in a second")

    @app.get("/api/puzzles")
    def puzzles():
        calls["ok"] += 1
        return {"puzzles": []}

    errors.install(app)
    memory = refusals.install(app)
    memory.clock = clock
    return app, calls


def post(client, path, addr):
    return client.post(path, json={}, environ_base={"REMOTE_ADDR": addr})


def test_a_spent_budget_is_repeated_without_the_app_and_counted_down():
    clock = Clock()
    app, calls = make_app(clock)
    client = app.test_client()
    first = post(client, "/api/sliding/validate", "10.0.0.1")
    assert first.status_code == 429 and first.headers["Retry-After"] == "7"
    assert refusals.MARK_HEADER not in first.headers  # internal: never reaches the client
    clock.now += 1.2
    again = post(client, "/api/sliding/validate", "10.0.0.1")
    assert calls["spent"] == 1  # answered by the middleware
    assert again.status_code == 429 and again.get_json() == first.get_json()
    assert again.headers["Retry-After"] == "6"  # 7 s from the first refusal, counted down
    assert again.headers["Content-Type"] == first.headers["Content-Type"]
    # Another client, and the same client on another endpoint, reach the app.
    post(client, "/api/sliding/validate", "10.0.0.2")
    assert calls["spent"] == 2
    assert client.get("/api/puzzles", environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 200
    # After the hold (2 s at most) the app answers again, in fresh words.
    clock.now += refusals.HOLD_SECONDS
    post(client, "/api/sliding/validate", "10.0.0.1")
    assert calls["spent"] == 3


def test_refusals_that_may_end_at_once_are_not_kept():
    clock = Clock()
    app, calls = make_app(clock)
    client = app.test_client()
    for _ in range(3):
        assert post(client, "/api/sliding/edit", "10.0.0.1").status_code == 429
    assert calls["busy"] == 3
    assert app.extensions["puzzle_refusal_memory"].kept_clients() == 0


def test_a_configured_client_header_names_the_client():
    clock = Clock()
    app, calls = make_app(clock)
    app.config["CLIENT_HEADER"] = "X-Forwarded-For"
    client = app.test_client()

    def via_proxy(chain):
        return client.post("/api/pegs/validate", json={}, headers={"X-Forwarded-For": chain},
                           environ_base={"REMOTE_ADDR": "10.9.9.9"})

    via_proxy("1.1.1.1, 203.0.113.5")
    via_proxy("2.2.2.2, 203.0.113.5")  # same last entry (the proxy's): the same client
    assert calls["spent"] == 1
    via_proxy("203.0.113.6")
    assert calls["spent"] == 2


def test_repeated_log_lines_pass_once_per_interval_with_a_count():
    clock = Clock()
    seen = []
    log = logging.getLogger("test.quiet")
    log.propagate = False
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    log.addHandler(handler)
    log.addFilter(OncePerInterval(interval=60, clock=clock))
    for depth in range(1, 501):
        log.warning("Task queue depth is %d", depth)
    clock.now += 61
    log.warning("Task queue depth is %d", 7)
    log.warning("another line")
    assert seen == ["Task queue depth is 1",
                    "Task queue depth is 7 (499 more like this in the last 60 s)", "another line"]
