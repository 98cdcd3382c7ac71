"""Each client's fair share of the job queue: one client flooding Solve gets 429 with
Retry-After past its share, and another client still gets its jobs queued.

Clients are told apart by remote address (127.0.0.1 and 127.0.0.2 are both this machine's
loopback), or by a configured proxy header. The real server test runs the web app on waitress
and connects from both addresses; the Redis test shows the share is one across web processes.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import textwrap
import time

import pytest
from pairs_toy import TOY_FACTORY, toy_registry
from redis_helpers import TESTS, free_port, worker_env

from web import create_app

#: The slow toy solver: it runs until its time limit, so jobs stay queued or running.
PATIENT = {"instance": "0110", "solver": "patient", "time_limit": 5}


def make_app(data_dir, **config):
    return create_app({"REGISTRY": toy_registry(), "REGISTRY_FACTORY": TOY_FACTORY,
                       "DATA_DIR": str(data_dir), "KILL_GRACE": 0.5, "JOB_WORKERS": 1,
                       "JOBS_PER_CLIENT": 3, **config})


def post(client, address: str, body: dict = PATIENT, headers: dict | None = None):
    return client.post("/api/pairs/jobs", json=body, headers=headers or {},
                       environ_base={"REMOTE_ADDR": address})


def test_a_flooding_client_gets_429_and_another_still_gets_its_jobs_queued(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    try:
        mine = [post(client, "127.0.0.1") for _ in range(3)]
        assert [r.status_code for r in mine] == [202, 202, 202]
        refused = post(client, "127.0.0.1")
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert "at most 3 at once" in refused.get_json()["error"]
        theirs = post(client, "127.0.0.2")
        assert theirs.status_code == 202 and theirs.get_json()["status"] == "queued"
        # A stored answer costs no share: it is answered at once, without a job.
        app.extensions["puzzle_jobs"].store.put({"puzzle": "pairs", "solver": "sweep",
                                                 "instance": "0110", "status": "solved",
                                                 "moves": ["1"], "stats": {}})
        quick = post(client, "127.0.0.1", {"instance": "0110", "solver": "sweep"})
        assert quick.status_code == 200 and quick.get_json()["from_store"]
        # Once one of its jobs ends, the flooding client has room again.
        client.post(f"/api/jobs/{mine[0].get_json()['id']}/cancel")
        assert post(client, "127.0.0.1").status_code == 202
    finally:
        app.extensions["puzzle_jobs"].close()


def test_a_configured_proxy_header_names_the_client_by_its_last_entry(tmp_path):
    app = make_app(tmp_path, CLIENT_HEADER="X-Forwarded-For", JOBS_PER_CLIENT=1)
    client = app.test_client()
    try:
        # Both come through the proxy at 10.0.0.1; the proxy appended the real address last.
        one = {"X-Forwarded-For": "203.0.113.9"}
        assert post(client, "10.0.0.1", headers=one).status_code == 202
        # A forged first entry does not make a new client.
        forged = {"X-Forwarded-For": "198.51.100.1, 203.0.113.9"}
        assert post(client, "10.0.0.1", headers=forged).status_code == 429
        other = {"X-Forwarded-For": "198.51.100.7"}
        assert post(client, "10.0.0.1", headers=other).status_code == 202
    finally:
        app.extensions["puzzle_jobs"].close()


def test_no_limit_when_the_share_is_off(tmp_path):
    app = make_app(tmp_path, JOBS_PER_CLIENT=0, MAX_QUEUED=50)
    client = app.test_client()
    try:
        assert all(post(client, "127.0.0.1").status_code == 202 for _ in range(6))
    finally:
        app.extensions["puzzle_jobs"].close()


# -- the real server, two loopback addresses ---------------------------------------------------

SERVER = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    import waitress
    from pairs_toy import TOY_FACTORY, toy_registry
    from web import create_app
    app = create_app({{"REGISTRY": toy_registry(), "REGISTRY_FACTORY": TOY_FACTORY,
                      "DATA_DIR": sys.argv[1], "KILL_GRACE": 0.5, "JOB_WORKERS": 1}})
    app.extensions["puzzle_jobs"].runner.start()
    waitress.serve(app, host="127.0.0.1", port=int(sys.argv[2]), threads=4, _quiet=True)
""")


def call(port: int, source: str, method: str, path: str, body: dict | None = None):
    """One request from the loopback address ``source`` (its own TCP connection)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json"})
        answer = conn.getresponse()
        return answer.status, dict(answer.getheaders()), json.loads(answer.read())
    finally:
        conn.close()


def test_two_loopback_addresses_against_the_real_server(tmp_path):
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVER.format(tests=str(TESTS)),
                               str(tmp_path / "data"), str(port)], env=worker_env())
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                call(port, "127.0.0.1", "GET", "/api/puzzles")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "server did not start"
                time.sleep(0.1)
        # 127.0.0.1 floods: its share (the default) fills, then every further submit is a 429.
        codes = [call(port, "127.0.0.1", "POST", "/api/pairs/jobs", PATIENT)[0] for _ in range(10)]
        assert 202 in codes and codes.count(429) >= 5 and set(codes) == {202, 429}, codes
        assert codes.index(429) == codes.count(202)  # accepted first, then refused: a share
        status, headers, body = call(port, "127.0.0.1", "POST", "/api/pairs/jobs", PATIENT)
        assert status == 429 and int(headers["Retry-After"]) >= 1 and "at once" in body["error"]
        # 127.0.0.2 still gets its jobs queued, beside the flood.
        for _ in range(2):
            status, _, job = call(port, "127.0.0.2", "POST", "/api/pairs/jobs", PATIENT)
            assert status == 202 and job["status"] in ("queued", "running"), job
    finally:
        server.terminate()
        server.wait(20)


# -- many web processes: one share in Redis ----------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/usr/bin/redis-server"),
                    reason="needs Debian's redis-server (scripts/setup.sh installs it)")
def test_the_share_is_counted_across_web_processes_in_redis(redis_server, queue):
    from jobs_toy import jobs_registry

    def web():
        return create_app({"REGISTRY": jobs_registry(), "REDIS_URL": redis_server.url,
                           "REDIS_QUEUE": queue, "JOBS_PER_CLIENT": 2, "MAX_QUEUED": 50}).test_client()

    first, second = web(), web()  # no worker: the jobs stay queued
    body = {"instance": "0110", "solver": "patient", "time_limit": 2}
    assert post(first, "192.0.2.1", body).status_code == 202
    assert post(second, "192.0.2.1", body).status_code == 202
    assert post(first, "192.0.2.1", body).status_code == 429
    assert post(second, "192.0.2.1", body).status_code == 429
    assert post(second, "192.0.2.2", body).status_code == 202


# -- the editor's heavy requests ----------------------------------------------------------------


def test_heavy_editor_requests_have_a_bounded_share_and_cheap_ones_are_never_refused(tmp_path):
    app = make_app(tmp_path, THREADS=8, HEAVY_PER_CLIENT=2)
    client = app.test_client()
    gate = app.extensions["puzzle_heavy_gate"]
    assert gate.total == 4  # half the threads: the other half is always free for cheap requests
    validate = {"instance": "0110"}
    try:
        gate.enter("127.0.0.1")
        gate.enter("127.0.0.1")  # this client's two editor requests are in progress
        mine = client.post("/api/pairs/validate", json=validate, environ_base={"REMOTE_ADDR": "127.0.0.1"})
        assert mine.status_code == 429 and mine.headers["Retry-After"] == "1"
        assert "2 editor requests in progress" in mine.get_json()["error"]
        theirs = client.post("/api/pairs/validate", json=validate, environ_base={"REMOTE_ADDR": "127.0.0.2"})
        assert theirs.status_code == 200
        gate.enter("127.0.0.3")
        gate.enter("127.0.0.4")  # now all four places are taken
        full = client.post("/api/pairs/validate", json=validate, environ_base={"REMOTE_ADDR": "127.0.0.5"})
        assert full.status_code == 429 and "busy" in full.get_json()["error"]
        assert client.get("/api/puzzles").status_code == 200  # cheap: never gated
        assert client.get("/api/pairs/render.svg?instance=0110").status_code == 200
        for holder in ("127.0.0.1", "127.0.0.1", "127.0.0.3", "127.0.0.4"):
            gate.leave(holder)
        # Every answered request gave its place back, a 400 included.
        assert client.post("/api/pairs/validate", json={"instance": "2"}).status_code == 400
        for _ in range(5):
            assert client.post("/api/pairs/validate", json=validate).status_code == 200
        assert gate._in_flight == 0 and not gate._by_client
    finally:
        app.extensions["puzzle_jobs"].close()
