"""The local job runner and SQLite store when things go wrong: stable stored ids, a store locked
by another process, a server killed mid-job, shutdown without leaks, cancel that really cancels
(and kills a solver that ignores it), the store keyed by solver, the check of a long answer,
and a custom runner chosen by configuration.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from job_polling import wait_done, wait_status
from jobs_toy import JOBS_FACTORY, jobs_registry
from pairs_toy import TOY_FACTORY, flip, toy_registry

from engine.jobs import JobRequest, JobRunner, JobService, ResultStore
from web import create_app

TESTS = Path(__file__).parent


def make_app(data_dir, **config):
    return create_app({"REGISTRY": jobs_registry(), "REGISTRY_FACTORY": JOBS_FACTORY,
                       "DATA_DIR": str(data_dir), "KILL_GRACE": 0.5, **config})




def report(instance="0110", solver="sweep", moves=("1",), status="solved"):
    return {"puzzle": "pairs", "solver": solver, "instance": instance, "status": status,
            "moves": list(moves), "stats": {}}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("reliable"), JOB_WORKERS=2)
    app.extensions["puzzle_jobs"].runner.start()
    yield app
    app.extensions["puzzle_jobs"].close()


@pytest.fixture()
def client(app):
    return app.test_client()


# -- stored ids --------------------------------------------------------------------------------


def test_storing_the_same_answer_again_keeps_its_number(tmp_path):
    store = ResultStore(tmp_path / "r.sqlite3")
    first = store.put(report())
    other = store.put(report(instance="1001", moves=("0", "1", "2")))
    assert store.put(report()) == first  # stored twice (two identical jobs in flight)
    assert store.put(report(moves=("1", "1", "1"))) == first  # and it keeps the first answer
    assert store.get_by_id(first)[1]["moves"] == ["1"]
    assert other != first and store.get_by_id(other)[1]["instance"] == "1001"
    store.close()
    again = ResultStore(tmp_path / "r.sqlite3")  # a restart
    assert again.get_by_id(first)[1]["moves"] == ["1"]
    assert again.get("pairs", "sweep", "0110")[0] == first
    again.close()


def test_two_identical_jobs_in_flight_share_one_lasting_link(tmp_path):
    app = make_app(tmp_path, JOB_WORKERS=2)
    client = app.test_client()
    try:
        body = {"instance": "110011", "solver": "sweep"}
        first = client.post("/api/pairs/jobs", json=body).get_json()
        second = client.post("/api/pairs/jobs", json=body).get_json()
        assert not first["from_store"] and not second["from_store"]  # both really ran
        first, second = wait_done(client, first), wait_done(client, second)
        links = {first["stored_id"], second["stored_id"]}
        for link in links:
            assert client.get(f"/api/jobs/{link}").get_json()["result"]["moves"] == ["0", "4"]
    finally:
        app.extensions["puzzle_jobs"].close()
    restarted = make_app(tmp_path)
    try:
        for link in links:
            got = restarted.test_client().get(f"/api/jobs/{link}")
            assert got.status_code == 200 and got.get_json()["result"]["moves"] == ["0", "4"]
    finally:
        restarted.extensions["puzzle_jobs"].close()


# -- a store locked by another process (SQLite's BEGIN IMMEDIATE) -----------------------------

LOCKER = textwrap.dedent("""
    import sqlite3, sys, time
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    print("locked", flush=True)
    sys.stdin.readline()  # hold the lock until told
    db.execute("ROLLBACK")
    print("released", flush=True)
""")


@pytest.mark.slow  # a second process
def test_a_locked_store_delays_only_the_write_and_loses_nothing(tmp_path, caplog):
    app = make_app(tmp_path, JOB_WORKERS=1)
    client = app.test_client()
    service = app.extensions["puzzle_jobs"]
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(tmp_path / "results.sqlite3")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert locker.stdout.readline().strip() == "locked"
        with caplog.at_level(logging.INFO, logger="engine.jobs"):
            job = wait_done(client, client.post("/api/pairs/jobs",
                                                json={"instance": "011110"}).get_json())
            # The job ended and answered while the other process still holds the lock ...
            assert locker.poll() is None
            assert job["status"] == "solved" and job["stored_id"] is None
            assert flip(flip("011110", job["result"]["moves"][0]), job["result"]["moves"][1]) == "000000"
            assert service.store.count() == 0
            # ... and the log says what is waiting to be stored.
            assert any("answer of pairs / sweep / '011110'" in r.getMessage() for r in caplog.records)
            assert any("busy" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)
        assert any("answer" in what for what in service.later.pending())
        locker.stdin.write("\n")
        locker.stdin.flush()
        assert locker.stdout.readline().strip() == "released"
        # Once the lock is gone the kept writes land, in order: the answer, then the job's
        # record with its link to it (waiting for the answer alone raced that last write).
        deadline = time.monotonic() + 20
        while service.store.count() == 0 or service.later.pending():
            assert time.monotonic() < deadline, f"kept writes never done: {service.later.pending()}"
            time.sleep(0.1)
        polled = client.get(f"/api/jobs/{job['id']}").get_json()
        assert polled["stored_id"] is not None
        assert client.get(f"/api/jobs/{polled['stored_id']}").get_json()["result"]["moves"] == \
            job["result"]["moves"]
    finally:
        locker.kill()
        locker.wait()
        service.close()


# -- a server killed mid-job -------------------------------------------------------------------

CRASHER = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {tests!r})
    from pairs_toy import TOY_FACTORY, toy_registry
    from web import create_app
    app = create_app({{"REGISTRY": toy_registry(), "REGISTRY_FACTORY": TOY_FACTORY,
                      "DATA_DIR": sys.argv[1], "JOB_WORKERS": 1}})
    client = app.test_client()
    body = {{"instance": "0110", "solver": "patient", "time_limit": 3}}
    running = client.post("/api/pairs/jobs", json=body).get_json()
    queued = client.post("/api/pairs/jobs", json=body).get_json()
    while client.get("/api/jobs/" + running["id"]).get_json()["status"] != "running":
        time.sleep(0.05)
    time.sleep(0.3)  # the records are written in the background
    print(running["id"], queued["id"], flush=True)
    time.sleep(60)  # until killed
""")


@pytest.mark.slow  # a second process
def test_a_job_cut_off_by_a_server_kill_answers_with_a_final_error(tmp_path):
    crasher = subprocess.Popen([sys.executable, "-c", CRASHER.format(tests=str(TESTS)), str(tmp_path)],
                               stdout=subprocess.PIPE, text=True)
    try:
        running_id, queued_id = crasher.stdout.readline().split()
    finally:
        crasher.send_signal(signal.SIGKILL)
        crasher.wait()
    app = create_app({"REGISTRY": toy_registry(), "REGISTRY_FACTORY": TOY_FACTORY,
                      "DATA_DIR": str(tmp_path)})
    client = app.test_client()
    try:
        for job_id in (running_id, queued_id):
            answer = client.get(f"/api/jobs/{job_id}")
            assert answer.status_code == 200
            job = answer.get_json()
            assert job["status"] == "error" and job["done"]
            assert job["message"] == "interrupted by a server restart"
            assert job["instance"] == "0110" and job["solver"] == "patient"
        assert client.post(f"/api/jobs/{running_id}/cancel").get_json()["status"] == "error"
        assert client.get("/api/jobs/0123456789abcdef").status_code == 404  # never existed
    finally:
        app.extensions["puzzle_jobs"].close()


# -- shutdown ----------------------------------------------------------------------------------

SHUTDOWN = textwrap.dedent("""
    import os, signal, sys, time
    sys.path.insert(0, {tests!r})
    from pairs_toy import TOY_FACTORY, toy_registry
    from web import create_app
    app = create_app({{"REGISTRY": toy_registry(), "REGISTRY_FACTORY": TOY_FACTORY,
                      "DATA_DIR": sys.argv[1], "JOB_WORKERS": 2}})
    client = app.test_client()
    job = client.post("/api/pairs/jobs", json={{"instance": "0110"}}).get_json()
    while not client.get("/api/jobs/" + job["id"]).get_json()["done"]:
        time.sleep(0.05)
    print("solved", flush=True)
    if sys.argv[2] == "sigterm":
        os.kill(os.getpid(), signal.SIGTERM)  # no atexit, no close: the harshest ordinary end
        time.sleep(5)
    app.extensions["puzzle_jobs"].close()
""")


@pytest.mark.slow  # a fresh interpreter per case
@pytest.mark.parametrize("how", ["close", "sigterm"])
def test_shutdown_leaks_no_semaphores(tmp_path, how):
    done = subprocess.run([sys.executable, "-c", SHUTDOWN.format(tests=str(TESTS)), str(tmp_path), how],
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "solved", done.stderr
    time.sleep(0.5)  # the resource tracker reports after its last user is gone
    assert "leaked" not in done.stderr, done.stderr


# -- cancel ------------------------------------------------------------------------------------


def test_cancel_reaches_the_solver_itself(client):
    """The polite solver stops on the cancel flag and reports; no kill was needed."""
    job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                               "time_limit": 60}).get_json()
    wait_status(client, job["id"], "running")
    time.sleep(0.2)
    client.post(f"/api/jobs/{job['id']}/cancel")
    job = wait_done(client, job, timeout=10)
    assert job["status"] == "cancelled"
    assert job["result"] is not None and job["result"]["reason"] == "cancelled"  # its own answer
    assert job["result"]["stats"]["nodes"] > 0 and job["message"] is None
    time.sleep(0.3)  # a final job's elapsed time is frozen
    assert client.get(f"/api/jobs/{job['id']}").get_json()["elapsed"] == job["elapsed"]


def test_a_solver_that_ignores_cancel_is_killed_after_the_grace(client):
    job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "stubborn",
                                               "time_limit": 60}).get_json()
    wait_status(client, job["id"], "running")
    client.post(f"/api/jobs/{job['id']}/cancel")
    job = wait_done(client, job, timeout=15)  # far less than its 60 s deadline
    assert job["status"] == "cancelled" and job["result"] is None
    assert "did not stop by itself" in job["message"]
    after = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "100001"}).get_json())
    assert after["status"] == "solved"  # the worker was replaced


def test_a_cancelled_queued_job_never_runs(tmp_path):
    app = make_app(tmp_path, JOB_WORKERS=1)
    client = app.test_client()
    try:
        busy = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                                    "time_limit": 30}).get_json()
        wait_status(client, busy["id"], "running")
        queued = client.post("/api/pairs/jobs", json={"instance": "1100"}).get_json()
        assert queued["status"] == "queued"
        assert client.post(f"/api/jobs/{queued['id']}/cancel").get_json()["status"] == "cancelled"
        client.post(f"/api/jobs/{busy['id']}/cancel")
        # A job queued after it runs and ends: the queue has been drained past the cancelled one.
        later = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "0011"}).get_json())
        assert later["status"] == "solved"
        again = client.get(f"/api/jobs/{queued['id']}").get_json()
        assert again["status"] == "cancelled" and again["result"] is None and again["elapsed"] == 0
    finally:
        app.extensions["puzzle_jobs"].close()


# -- the store is keyed by solver too ----------------------------------------------------------


class RecordingRunner(JobRunner):
    """A runner that runs nothing: it records what it was asked (also loaded by dotted path)."""

    def __init__(self, tag: str = ""):
        self.tag = tag
        self.requests: list[JobRequest] = []

    def submit(self, request):
        from engine.jobs import Job
        self.requests.append(request)
        return Job(id=f"{self.tag}{len(self.requests)}", request=request)

    def get(self, job_id):
        from engine.jobs import JobNotFound
        raise JobNotFound(f"no job {job_id}")

    def cancel(self, job_id):
        return self.get(job_id)

    def close(self):
        pass


def test_a_stored_answer_of_one_solver_is_not_the_answer_of_another(tmp_path):
    store = ResultStore(tmp_path / "r.sqlite3")
    runner = RecordingRunner()
    service = JobService(toy_registry(), runner, store)
    try:
        store.put(report(instance="0110", solver="sweep"))
        assert service.submit("pairs", "0110", "sweep").from_store
        job = service.submit("pairs", "0110", "patient")
        assert not job.from_store and job.request.solver == "patient"
        assert [r.solver for r in runner.requests] == ["patient"]
    finally:
        service.close()


def test_the_job_runner_setting_chooses_a_runner_with_its_options(tmp_path):
    app = create_app({"REGISTRY": toy_registry(), "DATA_DIR": str(tmp_path),
                      "JOB_RUNNER": "test_jobs_reliability:RecordingRunner",
                      "JOB_RUNNER_OPTIONS": {"tag": "custom-"}})
    try:
        answer = app.test_client().post("/api/pairs/jobs", json={"instance": "0110"})
        assert answer.status_code == 202 and answer.get_json()["id"] == "custom-1"
        runner = app.extensions["puzzle_jobs"].runner
        assert type(runner).__name__ == "RecordingRunner"
        assert runner.requests == [JobRequest("pairs", "sweep", "0110", 10.0)]
    finally:
        app.extensions["puzzle_jobs"].close()


# -- the check of an answer has its own time ---------------------------------------------------


def test_a_slow_check_does_not_throw_away_a_found_answer(tmp_path):
    """hasty answers after 0.3 s of a 0.5 s limit; checking its 12 moves takes 1.2 s, past the
    limit plus the 0.5 s grace. The answer is checked and kept, not killed as an overrun."""
    app = make_app(tmp_path, JOB_WORKERS=1)
    client = app.test_client()
    try:
        instance = "1" * 24
        job = client.post("/api/slowpairs/jobs", json={"instance": instance, "solver": "hasty",
                                                       "time_limit": 0.5}).get_json()
        job = wait_done(client, job, timeout=30)
        assert job["status"] == "solved", job
        assert len(job["result"]["moves"]) == 12
        bits = instance
        for move in job["result"]["moves"]:
            bits = flip(bits, move)
        assert bits == "0" * 24
    finally:
        app.extensions["puzzle_jobs"].close()


# -- the distributed mode's options ------------------------------------------------------------


@pytest.mark.parametrize("command", ["worker", "serve"])
def test_a_bad_redis_url_is_a_usage_error_naming_the_form(command):
    from click.testing import CliRunner

    from engine.cli import cli
    from engine.plugins import get_registry

    get_registry().add_commands(cli)  # `serve` comes from the web app's command hook
    result = CliRunner().invoke(cli, [command, "--redis", "localhost:6379"])
    assert result.exit_code == 2
    assert "not a Redis URL" in result.output and "redis://localhost:6379/0" in result.output
