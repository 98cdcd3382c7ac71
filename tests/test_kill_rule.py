"""The one kill rule (engine.deadlines), and the same two cases against all three supervisors.

The supervisors are the CLI's child process (engine.isolation), the local worker pool
(engine.jobs.local) and an RQ worker on a real redis-server (engine.jobs.worker). Each must
(1) keep a long answer found just before the deadline, although checking it takes longer than
the grace (jobs_toy's "hasty" solver on "slowpairs": 0.3 s of search, then 24 moves of 0.1 s
each to check), and (2) kill a solver that ignores its deadline, no sooner than
``time_limit + grace``.
"""

from __future__ import annotations

import os
import time

import pytest
from job_polling import wait_done
from jobs_toy import JOBS_FACTORY, SLOW_MOVE_SECONDS, jobs_registry
from redis_helpers import start_worker

from engine.deadlines import KillClock, kill_time
from engine.jobs import JobRequest
from engine.solving import check_time_bound

TIME_LIMIT = 0.5
GRACE = 0.5
LONG = "1" * 24  # the hasty sweep answers with 23 moves: 2.3 s of checking, far past the grace


# -- the rule itself ------------------------------------------------------------------------------


def test_the_rule_searching_then_checking():
    assert kill_time(100.0, 10.0, 2.0) == 112.0
    assert kill_time(100.0, None, 2.0) is None  # no time limit: never killed
    # A check that starts at the deadline gets grace + its own bound from that moment.
    assert kill_time(100.0, 10.0, 2.0, checking=(110.0, 5000)) == 110.0 + 2.0 + check_time_bound(5000)
    # An early check never shortens the search's allowance.
    assert kill_time(100.0, 10.0, 2.0, checking=(100.5, 0)) == 112.0


def test_the_clock_takes_the_first_checking_report():
    clock = KillClock(0.0, 1.0, 0.5)
    clock.observe({"nodes": 10}, now=0.2)
    assert clock.at == 1.5 and not clock.passed(1.4) and clock.passed(1.6)
    clock.observe({"phase": "checking", "moves": 100}, now=1.2)
    clock.observe({"phase": "checking", "moves": 100}, now=1.4)  # a repeat changes nothing
    assert clock.at == pytest.approx(1.2 + 0.5 + check_time_bound(100))


def test_a_request_travels_whole_as_json():
    task = JobRequest("pairs", "", "0110", 3.0, kind="task", task="count")
    solve = JobRequest("pairs", "sweep", "0110", 2.5)
    assert JobRequest.from_json(task.to_json()) == task
    assert JobRequest.from_json(solve.to_json()) == solve


# -- the same cases on every supervisor ---------------------------------------------------------


def _cli(puzzle: str, instance: str, solver: str) -> tuple[str, list | None]:
    from engine.isolation import Stopped, solve_isolated

    out = solve_isolated(puzzle, instance, solver, TIME_LIMIT, grace=GRACE,
                         registry_factory=jobs_registry)
    if isinstance(out, Stopped):
        return "gave_up" if out.reason == "deadline" else out.reason, None
    return out["status"], out.get("moves")


def _pool(puzzle: str, instance: str, solver: str) -> tuple[str, list | None]:
    from engine.jobs import LocalProcessRunner

    runner = LocalProcessRunner(workers=1, grace=GRACE, registry_factory=JOBS_FACTORY)
    try:
        job = runner.submit(JobRequest(puzzle, solver, instance, TIME_LIMIT))
        give_up = time.monotonic() + 60
        while not job.done and time.monotonic() < give_up:
            time.sleep(0.05)
        assert job.done
        return job.status, (job.result or {}).get("moves")
    finally:
        runner.close()


def _rq(puzzle: str, instance: str, solver: str, redis_server, queue, workers) -> tuple[str, list | None]:
    from web import create_app

    workers.append(start_worker(redis_server.url, queue))
    app = create_app({"REGISTRY": jobs_registry(), "REDIS_URL": redis_server.url,
                      "REDIS_QUEUE": queue, "KILL_GRACE": GRACE})
    client = app.test_client()
    job = client.post(f"/api/{puzzle}/jobs", json={"instance": instance, "solver": solver,
                                                   "time_limit": TIME_LIMIT}).get_json()
    job = wait_done(client, job, timeout=60)
    return job["status"], (job.get("result") or {}).get("moves")


SUPERVISORS = ["cli", "pool",
               pytest.param("rq", marks=[pytest.mark.slow, pytest.mark.skipif(
                   not os.path.exists("/usr/bin/redis-server"), reason="needs redis-server")])]


def _run(which: str, request, puzzle: str, instance: str, solver: str):
    if which == "cli":
        return _cli(puzzle, instance, solver)
    if which == "pool":
        return _pool(puzzle, instance, solver)
    return _rq(puzzle, instance, solver, request.getfixturevalue("redis_server"),
               request.getfixturevalue("queue"), request.getfixturevalue("workers"))


@pytest.mark.parametrize("which", SUPERVISORS)
def test_a_long_answer_just_before_the_deadline_is_checked_and_kept(which, request):
    status, moves = _run(which, request, "slowpairs", LONG, "hasty")
    assert status == "solved"
    assert len(moves) * SLOW_MOVE_SECONDS > GRACE + TIME_LIMIT  # the check did outlast both
    bits = [int(b) for b in LONG]
    for move in moves:  # an independent replay of the pairs rule: flip k and k + 1
        k = int(move)
        bits[k] ^= 1
        bits[k + 1] ^= 1
    assert not any(bits)


@pytest.mark.parametrize("which", SUPERVISORS)
def test_a_solver_that_ignores_its_deadline_is_killed_after_limit_and_grace(which, request):
    started = time.monotonic()
    status, moves = _run(which, request, "pairs", "0110", "stubborn")
    assert status == "gave_up" and moves is None
    assert time.monotonic() - started >= TIME_LIMIT + GRACE


def test_pool_workers_yield_the_cores_to_the_web_process():
    """Solves run a few nice steps below the process that serves the pages (engine.jobs.local),
    so a page or an editor request is not kept waiting behind two busy solvers on two cores."""
    from engine.jobs import LocalProcessRunner
    from engine.jobs.local import SOLVER_NICE

    runner = LocalProcessRunner(workers=1, grace=GRACE, registry_factory=JOBS_FACTORY)
    try:
        job = runner.submit(JobRequest("slowpairs", "priority", "11", TIME_LIMIT))
        give_up = time.monotonic() + 60
        while not job.done and time.monotonic() < give_up:
            time.sleep(0.05)
        assert job.status == "solved"
        assert job.result["stats"]["nice"] == min(19, os.nice(0) + SOLVER_NICE)
    finally:
        runner.close()
