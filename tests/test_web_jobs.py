"""Solving as jobs through the API: real worker processes, the SQLite store, deadlines,
cancellation, killing a solver that never stops, and 503 when the queue is full.

The toy "pairs" puzzle (tests/pairs_toy.py) has well-behaved and misbehaving solvers; the
worker processes load it by dotted path.
"""

from __future__ import annotations

import time

import pytest
from job_polling import wait_done
from pairs_toy import TOY_FACTORY, flip, toy_registry

from web import create_app


def make_app(data_dir, **config):
    return create_app({"REGISTRY": toy_registry(), "REGISTRY_FACTORY": TOY_FACTORY,
                       "DATA_DIR": str(data_dir), "KILL_GRACE": 0.5, **config})


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("jobs-data")


@pytest.fixture(scope="module")
def app(data_dir):
    app = make_app(data_dir, JOB_WORKERS=2)
    app.extensions["puzzle_jobs"].runner.start()
    yield app
    app.extensions["puzzle_jobs"].close()


@pytest.fixture()
def client(app):
    return app.test_client()



def flip_all(bits: str, moves) -> str:
    for move in moves:
        bits = flip(bits, move)
    return bits


def test_solve_then_answer_from_store_also_after_restart(client, data_dir):
    submitted = client.post("/api/pairs/jobs", json={"instance": " 011011 ", "solver": "sweep"})
    assert submitted.status_code == 202
    assert submitted.headers["Location"] == f"/api/jobs/{submitted.get_json()['id']}"
    job = wait_done(client, submitted.get_json())
    assert job["status"] == "solved" and not job["from_store"]
    moves = job["result"]["moves"]
    assert flip_all("011011", moves) == "000000"  # checked with the rules written again
    assert job["result"]["details"] == {"flips": len(moves)}

    again = client.post("/api/pairs/jobs", json={"instance": "011011", "solver": "sweep"})
    assert again.status_code == 200  # finished at once
    stored = again.get_json()
    assert stored["from_store"] and stored["done"] and stored["result"]["moves"] == moves
    assert client.get(f"/api/jobs/{stored['id']}").get_json()["result"]["moves"] == moves

    # A new app on the same data directory (a restart) answers from the store without workers.
    fresh = make_app(data_dir)
    try:
        body = fresh.test_client().post("/api/pairs/jobs", json={"instance": "011011"}).get_json()
        assert body["from_store"] and body["status"] == "solved" and body["result"]["moves"] == moves
        assert fresh.extensions["puzzle_jobs"].runner._thread is None  # no worker was needed
    finally:
        fresh.extensions["puzzle_jobs"].close()


def test_unsolvable_with_reason_is_stored(app, client):
    job = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "1000"}).get_json())
    assert job["status"] == "unsolvable"
    assert "odd number of ones" in job["result"]["reason"]
    assert client.post("/api/pairs/jobs", json={"instance": "1000"}).get_json()["from_store"]


def test_deadline_gives_up_with_progress_and_is_not_stored(app, client):
    store = app.extensions["puzzle_jobs"].store
    before = store.count()
    job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                               "time_limit": 1}).get_json()
    time.sleep(0.6)
    running = client.get(f"/api/jobs/{job['id']}").get_json()
    assert running["status"] == "running" and running["progress"].get("nodes", 0) > 0
    job = wait_done(client, job)
    assert job["status"] == "gave_up" and job["result"]["reason"] == "deadline"
    assert store.count() == before
    again = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                                 "time_limit": 0.2}).get_json()
    assert not again["from_store"]
    wait_done(client, again)


def test_cancel_stops_a_running_solve(client):
    job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                               "time_limit": 60}).get_json()
    while client.get(f"/api/jobs/{job['id']}").get_json()["status"] != "running":
        time.sleep(0.05)
    started = time.monotonic()
    client.post(f"/api/jobs/{job['id']}/cancel")
    job = wait_done(client, job, timeout=5)
    assert job["status"] == "cancelled"
    assert time.monotonic() - started < 3


def test_a_solver_that_never_stops_is_killed_and_the_pool_recovers(client):
    job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "stubborn",
                                               "time_limit": 0.5}).get_json()
    job = wait_done(client, job, timeout=15)
    assert job["status"] == "gave_up"
    assert "killed" in job["message"] and "0.5 s time limit" in job["message"]
    # The killed worker was replaced: new jobs still run.
    after = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "110110"}).get_json(),
                      timeout=30)
    assert after["status"] == "solved"


def test_a_lying_solver_is_an_error_not_a_solution(client):
    job = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "0011", "solver": "liar"}).get_json())
    assert job["status"] == "error" and "1 move that does not reach the goal" in job["message"]
    assert job["result"] is None


def test_full_queue_is_503_with_retry_after(tmp_path):
    app = make_app(tmp_path, JOB_WORKERS=1, MAX_QUEUED=1)
    client = app.test_client()
    try:
        body = {"instance": "0110", "solver": "patient", "time_limit": 30}
        first = client.post("/api/pairs/jobs", json=body).get_json()
        while client.get(f"/api/jobs/{first['id']}").get_json()["status"] != "running":
            time.sleep(0.05)
        second = client.post("/api/pairs/jobs", json=body).get_json()
        assert second["status"] == "queued"
        third = client.post("/api/pairs/jobs", json=body)
        assert third.status_code == 503
        assert int(third.headers["Retry-After"]) >= 1 and "waiting" in third.get_json()["error"]
        cancelled = client.post(f"/api/jobs/{second['id']}/cancel").get_json()
        assert cancelled["status"] == "cancelled"  # a queued job stops at once
        client.delete(f"/api/jobs/{first['id']}")
    finally:
        app.extensions["puzzle_jobs"].close()


def test_workers_that_cannot_load_plugins_fail_jobs_with_the_reason(tmp_path):
    app = create_app({"REGISTRY": toy_registry(), "REGISTRY_FACTORY": "pairs_toy:no_such_factory",
                      "DATA_DIR": str(tmp_path), "JOB_WORKERS": 1})
    client = app.test_client()
    try:
        job = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "0110"}).get_json())
        assert job["status"] == "error"
        assert "cannot load the plugins" in job["message"] and "no_such_factory" in job["message"]
    finally:
        app.extensions["puzzle_jobs"].close()


def test_a_finished_job_names_its_permanent_stored_id(client):
    job = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "001111", "solver": "sweep"}).get_json())
    assert job["status"] == "solved" and job["stored_id"].startswith("stored-")
    stored = client.get(f"/api/jobs/{job['stored_id']}").get_json()
    assert stored["result"]["moves"] == job["result"]["moves"] and stored["from_store"]
    assert client.get(f"/api/jobs/{job['stored_id']}/render.svg?step=0").status_code == 200


def test_finished_jobs_are_forgotten_by_the_size_of_their_solutions():
    from engine.jobs import Job, JobRequest, LocalProcessRunner

    runner = LocalProcessRunner(keep_finished=10, keep_finished_moves=100)
    request = JobRequest("pairs", "sweep", "0110", 1.0)
    for i in range(5):
        job = Job(id=f"j{i}", request=request, status="solved", result={"moves": ["1"] * 40})
        runner._jobs[job.id] = job
    runner._forget_old()
    assert list(runner._jobs) == ["j3", "j4"]  # 80 moves kept; 120 would be over the 100


@pytest.mark.parametrize("prepare", [True, False])
def test_workers_prepare_their_solvers_only_when_asked(tmp_path, prepare):
    """`puzzle serve` asks workers to prepare (load tables, compiled code) before their first job."""
    app = make_app(tmp_path, JOB_WORKERS=1, PREPARE_SOLVERS=prepare)
    try:
        client = app.test_client()
        job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "sweep"}).get_json()
        job = wait_done(client, job)
        assert job["status"] == "solved", job
        assert job["result"]["stats"]["prepared"] is prepare
    finally:
        app.extensions["puzzle_jobs"].close()
