"""Polling a job through the web API until it ends or reaches a status (shared by the job tests)."""

from __future__ import annotations

import time


def wait_done(client, job: dict, timeout: float = 30.0) -> dict:
    """Poll ``job`` until it is done; fail the test if it is not done within ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not job["done"]:
        assert time.monotonic() < deadline, f"job still {job['status']} after {timeout} s"
        time.sleep(0.05)
        job = client.get(f"/api/jobs/{job['id']}").get_json()
    return job


def wait_status(client, job_id: str, status: str, timeout: float = 30.0) -> dict:
    """Poll the job until it has ``status``; fail the test if it has not within ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        job = client.get(f"/api/jobs/{job_id}").get_json()
        if job["status"] == status:
            return job
        assert time.monotonic() < deadline, f"job still {job['status']} after {timeout} s"
        time.sleep(0.05)
