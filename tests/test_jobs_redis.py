"""Jobs on RQ and a real redis-server: many web processes and workers, cancel, deadlines, a lost
worker, Redis going away and coming back, answers surviving a Redis restart (AOF), and a worker
without the plugin a job needs.

Every test starts what it needs: redis-server on a free port in a temp dir (AOF on), `puzzle
worker` processes with the toy plugins of tests/jobs_toy.py, and each test its own queue.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request

import pytest
from job_polling import wait_done, wait_status
from jobs_toy import jobs_registry
from pairs_toy import flip
from redis_helpers import TESTS, free_port, start_worker, stop, worker_env

from web import create_app

pytestmark = [pytest.mark.slow,  # subprocesses and a Redis server: seconds per test
              pytest.mark.skipif(not os.path.exists("/usr/bin/redis-server"),
                                 reason="needs Debian's redis-server (scripts/setup.sh installs it)")]

def make_app(redis_server, queue, **config):
    return create_app({"REGISTRY": jobs_registry(), "REDIS_URL": redis_server.url,
                       "REDIS_QUEUE": queue, "KILL_GRACE": 0.5, **config})




def replayed(bits: str, moves) -> str:
    for move in moves:
        bits = flip(bits, move)
    return bits


# -- two web processes, two workers ------------------------------------------------------------

WEB = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    import waitress
    from jobs_toy import jobs_registry
    from web import create_app
    app = create_app({{"REGISTRY": jobs_registry(), "REDIS_URL": sys.argv[1], "REDIS_QUEUE": sys.argv[2],
                      "KILL_GRACE": 0.5, "MAX_QUEUED": 200, "JOBS_PER_CLIENT": 0}})
    waitress.serve(app, host="127.0.0.1", port=int(sys.argv[3]), threads=4, _quiet=True)
""")


def http(base: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="POST" if body is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def start_web(url: str, queue: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", WEB.format(tests=str(TESTS)), url, queue, str(port)],
                               env=worker_env())
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/api/puzzles", timeout=2).read()
            return process, base
        except OSError:
            assert process.poll() is None and time.monotonic() < deadline, "web process did not start"
            time.sleep(0.1)


def mixed_jobs(n: int, seed: int = 5) -> list[dict]:
    rng = random.Random(seed)
    jobs = []
    for i in range(n):
        bits = "".join(rng.choice("01") for _ in range(rng.randint(4, 16)))
        kind = i % 10
        if kind < 6:  # solvable (an even number of ones)
            if bits.count("1") % 2:
                bits = ("0" if bits[0] == "1" else "1") + bits[1:]
            jobs.append({"instance": bits, "solver": "sweep"})
        elif kind < 8:  # unsolvable
            if bits.count("1") % 2 == 0:
                bits = ("0" if bits[0] == "1" else "1") + bits[1:]
            jobs.append({"instance": bits, "solver": "sweep"})
        elif kind == 8:
            jobs.append({"instance": bits, "solver": "patient", "time_limit": 0.3})
        else:
            jobs.append({"instance": "0011", "solver": "liar"})
    return jobs


def test_two_web_processes_and_two_workers_share_every_job(redis_server, queue, workers):
    workers += [start_worker(redis_server.url, queue), start_worker(redis_server.url, queue)]
    (web_a, a), (web_b, b) = start_web(redis_server.url, queue), start_web(redis_server.url, queue)
    try:
        submitted = []
        for i, body in enumerate(mixed_jobs(50)):
            code, job = http(a if i % 2 else b, "/api/pairs/jobs", body)
            assert code in (200, 202), job
            submitted.append((body, job, b if i % 2 else a))  # read back from the other one
        deadline = time.monotonic() + 120
        for body, job, other in submitted:
            while not job["done"]:
                assert time.monotonic() < deadline, f"job {job['id']} still {job['status']}"
                time.sleep(0.1)
                code, job = http(other, f"/api/jobs/{job['id']}")
                assert code == 200
            bits = body["instance"]
            if body["solver"] == "liar":
                assert job["status"] == "error" and "1 move that does not reach the goal" in job["message"]
            elif body["solver"] == "patient":
                assert job["status"] == "gave_up" and job["result"]["reason"] == "deadline"
            elif bits.count("1") % 2:
                assert job["status"] == "unsolvable" and "odd" in job["result"]["reason"]
            else:
                assert job["status"] == "solved"
                assert replayed(bits, job["result"]["moves"]) == "0" * len(bits)
            if job["status"] in ("solved", "unsolvable"):
                for base in (a, b):  # the lasting link works from every web process
                    code, stored = http(base, f"/api/jobs/{job['stored_id']}")
                    assert code == 200 and stored["result"]["moves"] == job["result"]["moves"]
        # The same request again is answered from the shared store, on either process.
        body = next(body for body, job, _ in submitted if body["solver"] == "sweep")
        assert http(a, "/api/pairs/jobs", body)[1]["from_store"]
        assert http(b, "/api/pairs/jobs", body)[1]["from_store"]
    finally:
        for process in (web_a, web_b):
            process.terminate()
            process.wait(10)


def test_a_job_outlives_the_web_process_that_took_it(redis_server, queue, workers):
    first = make_app(redis_server, queue)
    job = first.test_client().post("/api/pairs/jobs", json={"instance": "100100"}).get_json()
    first.extensions["puzzle_jobs"].close()  # that web process is gone
    workers.append(start_worker(redis_server.url, queue))
    second = make_app(redis_server, queue)
    done = wait_done(second.test_client(), job)
    assert done["status"] == "solved" and replayed("100100", done["result"]["moves"]) == "000000"


def test_progress_is_visible_while_running(redis_server, queue, workers):
    workers.append(start_worker(redis_server.url, queue))
    client = make_app(redis_server, queue).test_client()
    job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                               "time_limit": 3}).get_json()
    wait_status(client, job["id"], "running")
    time.sleep(0.6)
    running = client.get(f"/api/jobs/{job['id']}").get_json()
    assert running["status"] == "running" and running["progress"].get("nodes", 0) > 0
    assert wait_done(client, running)["status"] == "gave_up"


# -- cancel, deadline, queue bound -------------------------------------------------------------


def test_cancel_queued_and_running(redis_server, queue, workers):
    client = make_app(redis_server, queue).test_client()
    # No worker yet: the job waits, and a cancel ends it at once.
    queued = client.post("/api/pairs/jobs", json={"instance": "1100"}).get_json()
    assert queued["status"] == "queued" and queued["queue_position"] == 1
    cancelled = client.post(f"/api/jobs/{queued['id']}/cancel").get_json()
    assert cancelled["status"] == "cancelled" and cancelled["done"]
    workers.append(start_worker(redis_server.url, queue))
    running = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                                   "time_limit": 60}).get_json()
    wait_status(client, running["id"], "running")
    client.delete(f"/api/jobs/{running['id']}")
    running = wait_done(client, running, timeout=15)  # far less than its 60 s
    assert running["status"] == "cancelled" and running["result"] is None
    # The cancelled queued job never ran: a later job is done and it is still as it was.
    later = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "0101"}).get_json())
    assert later["status"] == "solved"
    again = client.get(f"/api/jobs/{queued['id']}").get_json()
    assert again["status"] == "cancelled" and again["result"] is None


def test_a_solver_past_its_deadline_is_killed(redis_server, queue, workers):
    workers.append(start_worker(redis_server.url, queue))
    client = make_app(redis_server, queue).test_client()
    job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "stubborn",
                                               "time_limit": 0.5}).get_json()
    job = wait_done(client, job, timeout=20)
    assert job["status"] == "gave_up" and "killed" in job["message"]
    assert "0.5 s time limit" in job["message"]
    after = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "0011"}).get_json())
    assert after["status"] == "solved"  # the worker took the next job


def test_a_slow_check_is_allowed_its_own_time(redis_server, queue, workers):
    workers.append(start_worker(redis_server.url, queue))
    client = make_app(redis_server, queue).test_client()
    job = client.post("/api/slowpairs/jobs", json={"instance": "1" * 24, "solver": "hasty",
                                                   "time_limit": 0.5}).get_json()
    job = wait_done(client, job)
    assert job["status"] == "solved" and replayed("1" * 24, job["result"]["moves"]) == "0" * 24


def test_a_full_queue_is_503_with_retry_after(redis_server, queue):
    client = make_app(redis_server, queue, MAX_QUEUED=1).test_client()
    # (instances no other test solves: a stored answer would not be queued)
    assert client.post("/api/pairs/jobs", json={"instance": "1111000000"}).status_code == 202
    full = client.post("/api/pairs/jobs", json={"instance": "0000001111"})
    assert full.status_code == 503 and int(full.headers["Retry-After"]) >= 1
    assert "waiting" in full.get_json()["error"]


# -- failures ----------------------------------------------------------------------------------


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def test_a_worker_killed_mid_job_ends_the_job_as_lost(redis_server, queue, workers):
    doomed = start_worker(redis_server.url, queue)
    workers.append(doomed)
    client = make_app(redis_server, queue).test_client()
    job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                               "time_limit": 100}).get_json()
    wait_status(client, job["id"], "running")
    for pid in children(doomed.pid) + [doomed.pid]:  # the worker and its work horse: machine lost
        os.kill(pid, signal.SIGKILL)
    doomed.wait()
    workers.append(start_worker(redis_server.url, queue))
    lost = wait_done(client, job, timeout=60)
    assert lost["status"] == "error" and lost["message"] == "the worker running it was lost"
    other = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "011110"}).get_json())
    assert other["status"] == "solved"


def test_redis_down_is_503_then_recovers(redis_server, queue, workers):
    workers.append(start_worker(redis_server.url, queue))
    app = make_app(redis_server, queue)
    client = app.test_client()
    assert wait_done(client, client.post("/api/pairs/jobs", json={"instance": "1001"}).get_json())["done"]
    redis_server.stop()
    try:
        down = client.post("/api/pairs/jobs", json={"instance": "0110"})  # (its answer is stored)
        assert down.status_code == 503 and "Retry-After" in down.headers
        assert "unreachable" in down.get_json()["error"] and "Traceback" not in down.get_data(True)
        assert client.get("/api/jobs/0123456789abcdef0123456789abcdef").status_code == 503
        assert client.get("/").status_code == 200  # pages that need no jobs still work
        assert client.get("/api/puzzles").status_code == 200
    finally:
        redis_server.start()
    # No restart of anything else: the web app and the worker reconnect by themselves.
    job = client.post("/api/pairs/jobs", json={"instance": "011000000110"})
    assert job.status_code == 202
    assert wait_done(client, job.get_json(), timeout=60)["status"] == "solved"


def test_answers_survive_a_redis_restart_with_aof(redis_server, queue, workers):
    workers.append(start_worker(redis_server.url, queue))
    client = make_app(redis_server, queue).test_client()
    job = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "110000110"}).get_json())
    # Four ones pair up: solvable, and the answer clears the board.
    assert job["status"] == "solved" and replayed("110000110", job["result"]["moves"]) == "0" * 9
    link = job["stored_id"]
    redis_server.stop()
    redis_server.start()  # same data directory: the append-only file is replayed
    fresh = make_app(redis_server, queue).test_client()
    stored = fresh.get(f"/api/jobs/{link}").get_json()
    assert stored["result"] == job["result"] and stored["from_store"]
    again = fresh.post("/api/pairs/jobs", json={"instance": "110000110"}).get_json()
    assert again["from_store"] and again["stored_id"] == link


def test_a_worker_without_the_solver_says_so(redis_server, queue, workers):
    # This worker has only the "pairs" plugin; the web app also knows "slowpairs".
    workers.append(start_worker(redis_server.url, queue, factory="pairs_toy:toy_registry"))
    client = make_app(redis_server, queue).test_client()
    job = wait_done(client, client.post("/api/slowpairs/jobs", json={"instance": "0110"}).get_json())
    assert job["status"] == "error"
    assert "has no solver 'hasty' for 'slowpairs'" in job["message"]
    assert "install the same plugins on every worker" in job["message"]


def exit_status_or_stacks(worker: subprocess.Popen, log_path, seconds: float) -> int | str:
    """The worker's exit status within ``seconds``; if it is still running then, its log with
    every thread's stack (``kill -USR1``), so a failure shows what the worker was waiting for."""
    try:
        return worker.wait(seconds)
    except subprocess.TimeoutExpired:
        worker.send_signal(signal.SIGUSR1)
        time.sleep(2)
        return f"still running after {seconds:g} s:\n" + log_path.read_text()[-6000:]


def test_sigterm_lets_the_worker_finish_its_job_then_exit(redis_server, queue, tmp_path):
    log_path = tmp_path / "worker.log"
    with open(log_path, "w") as log_file:
        worker = start_worker(redis_server.url, queue, stderr=log_file)
    try:
        client = make_app(redis_server, queue).test_client()
        job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                                   "time_limit": 2}).get_json()
        wait_status(client, job["id"], "running")
        worker.send_signal(signal.SIGTERM)  # warm shutdown: the running job is finished first
        # The job has 2 s left at most; the rest is slack for a machine busy with other tests.
        assert exit_status_or_stacks(worker, log_path, 60) == 0
        done = client.get(f"/api/jobs/{job['id']}").get_json()
        assert done["status"] == "gave_up" and done["result"]["reason"] == "deadline"
    finally:
        stop(worker)


def test_a_stop_request_is_kept_when_an_alarm_raises_in_the_middle_of_rqs_handler(redis_server, queue):
    # While a horse runs, RQ's monitor raises from a SIGALRM every second, into whatever runs
    # then, RQ's SIGTERM handler included. Such a raise, after which the handler's stop flag
    # was never set, is what an alarm landing there does: the worker must still stop.
    import redis
    from rq.timeouts import HorseMonitorTimeoutException
    from rq.worker import WorkerStatus

    from engine.jobs.rq_runner import use_registry
    from engine.jobs.worker import make_worker

    use_registry(jobs_registry(), "jobs_toy:jobs_registry")
    worker = make_worker(redis.Redis.from_url(redis_server.url), queue)
    worker.set_state(WorkerStatus.BUSY)

    def alarm_meanwhile() -> None:
        raise HorseMonitorTimeoutException("the monitor's alarm")

    worker.handle_warm_shutdown_request = alarm_meanwhile
    previous = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(HorseMonitorTimeoutException):
            worker.request_stop(signal.SIGTERM, None)
        assert worker._stop_requested  # the loop ends after the running job
        assert not signal.pthread_sigmask(signal.SIG_BLOCK, set()) & {signal.SIGALRM}  # unblocked again
    finally:
        signal.signal(signal.SIGTERM, previous[0])
        signal.signal(signal.SIGINT, previous[1])


def test_a_stop_does_not_wait_a_minute_for_the_command_listener(redis_server, queue):
    # The race a busy machine hits often: RQ's command thread sees the unsubscribe before it is
    # told to stop, then sleeps its wake-up time; redis-py 8's stop waits for it. Put the thread
    # in that sleep on purpose and time the worker's own unsubscribe.
    import threading

    import redis

    from engine.jobs.rq_runner import use_registry
    from engine.jobs.worker import make_worker

    use_registry(jobs_registry(), "jobs_toy:jobs_registry")
    worker = make_worker(redis.Redis.from_url(redis_server.url), queue)
    worker.subscribe()
    worker.pubsub.unsubscribe()
    deadline = time.monotonic() + 10
    while worker.pubsub.subscribed:  # the thread has read the confirmation
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.3)  # and is asleep now
    done = threading.Event()
    started = time.monotonic()
    threading.Thread(target=lambda: (worker.unsubscribe(), done.set()), daemon=True).start()
    assert done.wait(20), "the worker's stop waited more than 20 s for its command thread"
    assert time.monotonic() - started < 5


def test_sigusr1_prints_where_the_worker_waits_and_it_goes_on(redis_server, queue, tmp_path):
    log_path = tmp_path / "worker.log"
    with open(log_path, "w") as log_file:
        worker = start_worker(redis_server.url, queue, stderr=log_file)
    try:
        deadline = time.monotonic() + 60
        while "taking jobs" not in log_path.read_text():
            assert worker.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.1)
        worker.send_signal(signal.SIGUSR1)
        while "Current thread" not in log_path.read_text():
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.1)
        assert "run_worker" in log_path.read_text()  # the main thread's stack, in the worker's code
        client = make_app(redis_server, queue).test_client()
        job = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "0110"}).get_json())
        assert job["status"] == "solved" and replayed("0110", job["result"]["moves"]) == "0000"
    finally:
        stop(worker)


# -- Redis restarting under a running job --------------------------------------------------------


def test_a_running_job_survives_a_redis_restart(redis_server, queue, tmp_path):
    log_path = tmp_path / "worker.log"
    with open(log_path, "w") as log_file:
        worker = start_worker(redis_server.url, queue, name=f"{queue}-w", stderr=log_file)
    try:
        client = make_app(redis_server, queue).test_client()
        job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                                   "time_limit": 6}).get_json()
        wait_status(client, job["id"], "running")
        redis_server.stop()
        time.sleep(3)
        assert worker.poll() is None  # the worker waits for Redis, its job goes on
        redis_server.start()
        done = wait_done(client, job, timeout=40)
        # The horse's own answer, reported once Redis was back: not "lost".
        assert done["status"] == "gave_up" and done["result"]["reason"] == "deadline", done
        assert worker.poll() is None  # no name clash on reconnect
        after = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "0101101"}).get_json())
        assert after["status"] == "solved"  # and it takes jobs again
        log = log_path.read_text()
        assert "Traceback" not in log and "already" not in log
        assert log.count("lost Redis") == 1 and log.count("answers again") == 1, log
        assert log.index("lost Redis") < log.index("answers again")
    finally:
        stop(worker)


def test_a_worker_name_in_use_is_a_clear_error_and_a_dead_ones_is_taken_over(redis_server, queue):
    name = f"{queue}-named"
    first = start_worker(redis_server.url, queue, name=name)
    client = make_app(redis_server, queue).test_client()
    try:
        assert wait_done(client, client.post("/api/pairs/jobs", json={"instance": "1000000001"})
                         .get_json())["status"] == "solved"  # it registered and works
        clash = start_worker(redis_server.url, queue, name=name)
        assert clash.wait(30) == 2  # a bad --name, not "a plugin broke its contract" (4)
        message = clash.stderr.read()
        assert f"a live worker named {name!r}" in message and "Traceback" not in message
        first.kill()  # no chance to unregister: its entry stays in Redis
        first.wait()
        again = start_worker(redis_server.url, queue, name=name)
        try:
            job = client.post("/api/pairs/jobs", json={"instance": "0100000010"}).get_json()
            assert wait_done(client, job)["status"] == "solved"  # took over the dead one's name
            assert again.poll() is None
        finally:
            stop(again)
    finally:
        stop(first)


def test_a_final_status_never_changes_and_its_elapsed_time_is_frozen(redis_server, queue, workers,
                                                                     monkeypatch):
    import redis as redis_client

    from engine.jobs import rq_runner

    workers.append(start_worker(redis_server.url, queue))
    client = make_app(redis_server, queue).test_client()
    # A job declared lost (its "alive" key expired, as when its worker was cut off from Redis)
    # stays lost, though its work horse could still answer: the worker stops that horse.
    job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                               "time_limit": 2}).get_json()
    wait_status(client, job["id"], "running")
    time.sleep(0.6)
    monkeypatch.setattr(rq_runner, "ALIVE_SECONDS", 0.5)  # in this web process only
    redis_client.Redis.from_url(redis_server.url).delete(f"puzzle:job:{job['id']}:alive")
    lost = client.get(f"/api/jobs/{job['id']}").get_json()
    assert lost["status"] == "error" and lost["message"] == "the worker running it was lost"
    seen = set()
    for _ in range(30):  # past its 2 s time limit, when the horse would have answered gave_up
        now = client.get(f"/api/jobs/{job['id']}").get_json()
        seen.add((now["status"], now["message"], now["elapsed"]))
        time.sleep(0.15)
    assert seen == {(now["status"], now["message"], now["elapsed"])}, seen
    assert now["status"] == "error" and now["message"] == "the worker running it was lost"
    # A cancelled job's elapsed time stops when it is cancelled.
    running = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                                   "time_limit": 60}).get_json()
    wait_status(client, running["id"], "running")
    client.delete(f"/api/jobs/{running['id']}")
    first = wait_done(client, running, timeout=15)
    time.sleep(1.2)
    later = client.get(f"/api/jobs/{running['id']}").get_json()
    assert first["status"] == later["status"] == "cancelled"
    assert later["elapsed"] == first["elapsed"] < 30


def test_stored_answers_this_process_served_keep_working_while_redis_is_down(redis_server, queue,
                                                                             workers):
    workers.append(start_worker(redis_server.url, queue))
    client = make_app(redis_server, queue).test_client()
    job = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "10000001"}).get_json())
    other = wait_done(client, client.post("/api/pairs/jobs", json={"instance": "01000010"}).get_json())
    link, unread = job["stored_id"], other["stored_id"]
    assert job["status"] == "solved" and link and unread
    pages = [f"/api/jobs/{link}", f"/api/jobs/{link}/render.svg?step=1", f"/pairs?job={link}"]
    before = [client.get(page) for page in pages]
    assert [answer.status_code for answer in before] == [200, 200, 200]
    redis_server.stop()
    try:
        during = [client.get(page) for page in pages]
        assert [answer.status_code for answer in during] == [200, 200, 200]
        assert [a.get_data() for a in during[:2]] == [b.get_data() for b in before[:2]]
        again = client.post("/api/pairs/jobs", json={"instance": "10000001"}).get_json()
        assert again["stored_id"] == link and again["from_store"]  # a repeat, from memory
        # A stored answer this process never read is in Redis only: 503 until it is back.
        assert client.get(f"/api/jobs/{unread}").status_code == 503
    finally:
        redis_server.start()
    assert client.get(f"/api/jobs/{unread}").get_json()["stored_id"] == unread


def test_a_work_horse_never_outlives_its_worker(redis_server, queue, workers):
    doomed = start_worker(redis_server.url, queue)
    workers.append(doomed)
    client = make_app(redis_server, queue).test_client()
    job = client.post("/api/pairs/jobs", json={"instance": "0110", "solver": "patient",
                                               "time_limit": 60}).get_json()
    wait_status(client, job["id"], "running")
    (horse,) = children(doomed.pid)
    os.kill(doomed.pid, signal.SIGKILL)  # the worker only: its horse is left on its own
    doomed.wait()

    def alive(pid):
        try:
            return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False
    deadline = time.monotonic() + 30  # far less than the job's 60 s time limit
    while alive(horse):
        assert time.monotonic() < deadline, "the orphaned work horse kept solving"
        time.sleep(0.1)
