"""The editor's requests are served by a child process, with a CPU budget per client and a time
bound per request (web.editor_process; issue: a flood of editor requests slowed every cheap
request of the web process behind the interpreter lock).

The child is real (a spawned process serving the app on a Unix socket); the parent is the app
driven by Flask's test client, as `puzzle serve` drives it through waitress.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from web import create_app
from web.clients import Busy
from web.editor_process import CpuShares, EditorProcess, install

PEGS = "english"


def test_a_client_past_its_cpu_budget_waits_and_others_do_not():
    shares = CpuShares(budget=1.0, window=0.3)
    shares.add("a", 0.6)
    shares.check("a")  # under budget
    shares.add("a", 0.6)
    with pytest.raises(Busy) as refused:
        shares.check("a")
    assert refused.value.retry_after >= 1 and "CPU-seconds" in refused.value.message
    shares.check("b")  # another client is not held back
    time.sleep(0.35)   # the spending leaves the window
    shares.check("a")
    assert shares.used("a") == 0


@pytest.fixture
def served(tmp_path):
    """A parent app forwarding to a real editor process; yields (app, editor) and a factory
    for the process options."""
    made = []

    def make(**options):
        config = {"DATA_DIR": str(tmp_path / "data"), "JOB_WORKERS": 1}
        app = create_app(config)
        editor = EditorProcess(config, threads=2, **options)
        editor.start()
        assert editor.wait_ready(90), "the editor process did not start"
        install(app, editor)
        made.append((app, editor))
        return app, editor

    yield make
    for app, editor in made:
        editor.close()
        app.extensions["puzzle_jobs"].close()


def _validate(client, remote="127.0.0.1"):
    return client.post("/api/pegs/validate", json={"instance": PEGS},
                       environ_base={"REMOTE_ADDR": remote})


def test_editor_requests_run_in_the_child_and_are_counted_for_their_client(served):
    app, editor = served()
    client = app.test_client()
    answer = _validate(client)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.get_json()["instance"]  # the same editor state the in-process app gives
    assert "X-Puzzle-CPU" not in answer.headers  # the child's report stays between the two
    # The CPU was measured in the child and booked to this client, and only to it.
    assert editor.shares.used("127.0.0.1") > 0
    assert editor.shares.used("127.0.0.2") == 0
    # Answers match the app serving the request itself.
    alone = create_app({"DATA_DIR": app.config["DATA_DIR"], "JOB_WORKERS": 1})
    try:
        assert _validate(alone.test_client()).get_json() == answer.get_json()
    finally:
        alone.extensions["puzzle_jobs"].close()


def test_a_client_over_its_cpu_budget_gets_429_while_another_is_served(served):
    app, editor = served(cpu_per_client=1e-9)
    client = app.test_client()
    assert _validate(client).status_code == 200  # the first request spends the budget
    refused = _validate(client)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    assert "CPU-seconds" in refused.get_json()["error"]
    assert _validate(client, remote="127.0.0.2").status_code == 200


def test_a_request_past_its_time_bound_is_stopped_in_words_and_the_child_replaced(served):
    app, editor = served(request_seconds=0.001)
    first = editor.pid
    answer = _validate(app.test_client())
    assert answer.status_code == 503
    assert "took longer than" in answer.get_json()["error"]
    assert editor.pid != first and editor.wait_ready(90)


def test_a_dead_child_is_replaced_and_no_request_is_lost(served):
    app, editor = served()
    client = app.test_client()
    first = editor.pid
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while editor.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    answer = _validate(client)  # served by this process while a new child starts
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert editor.pid != first
    assert editor.wait_ready(90)
    used = editor.shares.used("127.0.0.1")
    assert _validate(client).status_code == 200
    assert editor.shares.used("127.0.0.1") > used  # the new child serves again
