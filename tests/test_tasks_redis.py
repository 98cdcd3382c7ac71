"""Task jobs on RQ and a real redis-server: the job's kind and task name pass through the queue
to `puzzle worker`, progress comes back, Cancel stops it, a worker without the task says so.

Like tests/test_jobs_redis.py: redis-server on a free port in a temp dir, workers with the toy
tasks of tests/tasks_toy.py, a queue per test.
"""

from __future__ import annotations

import os

import pytest
from job_polling import wait_done, wait_status
from redis_helpers import start_worker
from tasks_toy import tasks_registry

from web import create_app

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.path.exists("/usr/bin/redis-server"),
                                 reason="needs Debian's redis-server (scripts/setup.sh installs it)")]

def make_client(redis_server, queue):
    app = create_app({"REGISTRY": tasks_registry(), "REDIS_URL": redis_server.url,
                      "REDIS_QUEUE": queue, "KILL_GRACE": 0.5})
    return app.test_client()


def test_a_task_job_runs_on_an_rq_worker(redis_server, queue, workers):
    workers.append(start_worker(redis_server.url, queue, factory="tasks_toy:tasks_registry"))
    client = make_client(redis_server, queue)
    submitted = client.post("/api/pairs/tasks/ones", json={"instance": "10101"})
    assert submitted.status_code == 202
    job = wait_done(client, submitted.get_json())
    assert job["status"] == "finished" and job["kind"] == "task" and job["task"] == "ones"
    assert job["result"]["summary"] == "3 ones." and job["solver"] is None

    # Progress through the job's meta, then Cancel through RQ's stop-job command.
    spin = client.post("/api/pairs/tasks/spin", json={"instance": "01"}).get_json()
    running = wait_status(client, spin["id"], "running")
    for _ in range(100):
        if running["progress"].get("message", "").startswith("round "):
            break
        running = wait_status(client, spin["id"], "running")
    assert running["progress"]["message"].startswith("round ")
    assert running["kind"] == "task" and running["task"] == "spin"
    client.post(f"/api/jobs/{spin['id']}/cancel")
    assert wait_done(client, running)["status"] == "cancelled"


def test_a_worker_without_the_task_says_so(redis_server, queue, workers):
    # This worker has the puzzle but none of the tasks (the solve jobs' toy registry).
    workers.append(start_worker(redis_server.url, queue, factory="jobs_toy:jobs_registry"))
    client = make_client(redis_server, queue)
    job = wait_done(client, client.post("/api/pairs/tasks/ones", json={"instance": "11"}).get_json())
    assert job["status"] == "error"
    assert "has no task 'ones' for 'pairs'" in job["message"]
