"""Redis restarted without persistence (every key lost) under web processes and workers.

* ``stored-…`` links never name another answer afterwards: a link answers 404 until its own
  question is solved again (ids are hashes of the question, not a counter that restarts at 1);
  numbers stored by earlier versions keep working while Redis holds them.
* A job's final status never changes: a job the web process saw finished keeps its answer, a job
  it saw running ends as an error in words (never RQ's exception text), and stays so when its
  work horse finishes later. Workers log no traceback.
* A worker killed with kill -9 after the restart leaves a registration its name can be taken
  from at once (deploy.md promises the take-over).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import time

import pytest
import redis
from job_polling import wait_done, wait_status
from jobs_toy import jobs_registry
from redis_helpers import start_worker, stop

from engine.jobs.rq_runner import FORGOTTEN
from web import create_app

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.path.exists("/usr/bin/redis-server"),
                                 reason="needs Debian's redis-server (scripts/setup.sh installs it)")]


def make_app(redis_server, queue):
    return create_app({"REGISTRY": jobs_registry(), "REDIS_URL": redis_server.url,
                       "REDIS_QUEUE": queue, "KILL_GRACE": 0.5})


def solve(client, instance: str) -> dict:
    return wait_done(client, client.post("/api/pairs/jobs", json={"instance": instance,
                                                                  "solver": "sweep"}).get_json())


def test_stored_links_never_name_another_answer_after_a_restart_without_persistence(
        redis_server, queue, workers):
    workers.append(start_worker(redis_server.url, queue))
    first = solve(make_app(redis_server, queue).test_client(), "1100110000")
    assert first["status"] == "solved"
    link = first["stored_id"]
    redis_server.restart_empty()
    client = make_app(redis_server, queue).test_client()  # a web process that never saw it
    assert client.get(f"/api/jobs/{link}").status_code == 404
    other = solve(client, "0110")  # the first answer after the restart
    assert other["status"] == "solved" and other["stored_id"] != link
    assert client.get(f"/api/jobs/{link}").status_code == 404  # still not someone else's
    again = solve(client, "1100110000")
    assert again["stored_id"] == link and again["result"]["moves"] == first["result"]["moves"]


def legacy_answer(connection, number: int, report: dict) -> None:
    """An answer as earlier versions stored it in Redis: numbered, with a counter."""
    digest = hashlib.sha256("\0".join((report["puzzle"], report["solver"],
                                       report["instance"])).encode()).hexdigest()
    connection.set(f"puzzle:answers:key:{digest}", number)
    connection.set(f"puzzle:answers:{number}", json.dumps(report))
    connection.set("puzzle:answers:next", number)


def test_numbers_from_earlier_versions_work_until_redis_forgets_them(redis_server, queue, workers):
    connection = redis.Redis.from_url(redis_server.url)
    report = {"puzzle": "pairs", "solver": "sweep", "instance": "000110", "status": "solved",
              "moves": ["3"], "stats": {}}
    legacy_answer(connection, 1, report)
    client = make_app(redis_server, queue).test_client()
    assert client.get("/api/jobs/stored-1").get_json()["result"]["moves"] == ["3"]
    asked = client.post("/api/pairs/jobs", json={"instance": "000110", "solver": "sweep"}).get_json()
    assert asked["from_store"] and asked["stored_id"] == "stored-1"
    redis_server.restart_empty()
    workers.append(start_worker(redis_server.url, queue))
    fresh = make_app(redis_server, queue).test_client()
    new = solve(fresh, "0011")
    assert new["stored_id"] != "stored-1" and fresh.get("/api/jobs/stored-1").status_code == 404
    connection.close()


def test_a_final_status_stays_final_across_a_restart_without_persistence(
        redis_server, queue, tmp_path):
    log_path = tmp_path / "worker.log"
    with open(log_path, "w") as log_file:
        worker = start_worker(redis_server.url, queue, stderr=log_file)
    try:
        client = make_app(redis_server, queue).test_client()
        done = solve(client, "0110")
        running = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                                       "time_limit": 2}).get_json()
        wait_status(client, running["id"], "running")
        redis_server.restart_empty()
        # The finished job keeps its answer; the running one ends, in words, at once.
        assert client.get(f"/api/jobs/{done['id']}").get_json() == done
        lost = client.get(f"/api/jobs/{running['id']}").get_json()
        assert lost["status"] == "error" and lost["done"] and lost["message"] == FORGOTTEN
        time.sleep(4)  # its work horse ends meanwhile (time limit 2 s, grace 0.5 s)
        for _ in range(3):
            later = client.get(f"/api/jobs/{running['id']}").get_json()
            assert (later["status"], later["message"]) == ("error", FORGOTTEN), later
            assert "rq." not in json.dumps(later)
            assert client.post(f"/api/jobs/{running['id']}/cancel").get_json()["status"] == "error"
        after = solve(client, "0101101")  # and the worker takes jobs again
        assert after["status"] == "solved"
        log = log_path.read_text()
        assert "Traceback" not in log and "InvalidJobOperation" not in log, log
        assert "no longer knows it" in log
    finally:
        stop(worker)


def test_a_worker_name_is_free_at_once_after_kill_9_following_a_restart(redis_server, queue):
    name = f"{queue}-named"
    connection = redis.Redis.from_url(redis_server.url)
    first = start_worker(redis_server.url, queue, name=name)
    client = make_app(redis_server, queue).test_client()
    try:
        assert solve(client, "1000000001")["status"] == "solved"  # it registered and works
        redis_server.restart_empty()
        assert solve(client, "0100000010")["status"] == "solved"  # back at work after the restart
        deadline = time.monotonic() + 20
        while not connection.exists(f"rq:worker:{name}"):  # its heartbeat reached Redis again
            assert time.monotonic() < deadline, "the worker never heartbeat after the restart"
            time.sleep(0.2)
        first.send_signal(signal.SIGKILL)  # no chance to unregister
        first.wait()
        again = start_worker(redis_server.url, queue, name=name)
        try:
            job = client.post("/api/pairs/jobs", json={"instance": "0010000100"}).get_json()
            assert wait_done(client, job, timeout=20)["status"] == "solved"  # took the name over
            assert again.poll() is None, again.stderr.read()
        finally:
            stop(again)
    finally:
        stop(first)
        connection.close()
