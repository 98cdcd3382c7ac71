"""Plugin tasks (engine.Task): the registry, running and checking them, the web API's validation,
and task jobs on the local worker processes, including peg solitaire's "Count solutions"
against an independent brute force.
"""

from __future__ import annotations

import re
import time

import pytest
from job_polling import wait_done, wait_status
from pairs_toy import PairsPlugin
from tasks_toy import ONES_LIMIT, TASKS_FACTORY, Ones, Spin, tasks_registry
from test_pegs_count import brute_count

from engine import GaveUp, InputError, SolveContext, Task, TaskResult, hookimpl
from engine.errors import PluginError
from engine.plugins import Registry
from engine.tasks import run_task
from plugins.pegs.parse import parse_instance
from web import create_app

# -- the registry ----------------------------------------------------------------------------


def test_registry_lists_a_puzzles_tasks_in_registration_order():
    registry = tasks_registry()
    assert [t.name for t in registry.tasks("pairs")] == ["ones", "spin", "deaf", "liar"]
    assert isinstance(registry.task("pairs", "ones"), Ones)
    assert "task pairs/spin" in registry.provided_by("tasks-plugin")
    assert "register_tasks" in registry.plugins["tasks-plugin"].hooks
    assert registry.tasks("nothing-such") == []


def test_unknown_task_names_the_puzzles_tasks():
    registry = tasks_registry()
    with pytest.raises(InputError, match=r"no task 'count' \(its tasks: ones, spin, deaf, liar\)"):
        registry.task("pairs", "count")
    with pytest.raises(InputError, match="name the task"):
        registry.task("pairs", 7)
    bare = Registry()
    bare.add_plugin("pairs-plugin", PairsPlugin())
    bare.collect()
    with pytest.raises(InputError, match="it has none"):
        bare.task("pairs", "ones")


class _Unnamed(Task):
    puzzle_id = "pairs"
    name = "two words"
    label = "Two words"

    def run(self, instance, ctx):
        return TaskResult("x")


class _Unlabelled(Ones):
    name = "unlabelled"
    label = "  "


def _with(*objects) -> Registry:
    class Plugin:
        @hookimpl
        def register_tasks(self, register):
            for obj in objects:
                register(obj)

    registry = Registry()
    registry.add_plugin("pairs-plugin", PairsPlugin())
    registry.add_plugin("bad-tasks", Plugin())
    registry.collect()
    return registry


@pytest.mark.parametrize("objects, error", [
    ((object(),), "not an engine.Task"),
    ((_Unnamed(),), "not a URL-safe word"),
    ((_Unlabelled(),), "has no label"),
    ((Ones(), Ones()), "registered twice"),
])
def test_a_bad_task_registration_is_a_load_failure_of_that_plugin_only(objects, error):
    registry = _with(*objects)
    assert error in registry.plugins["bad-tasks"].error
    assert registry.tasks("pairs") == []  # nothing half-registered is served
    assert registry.puzzle("pairs").id == "pairs"  # the others still work


# -- running a task --------------------------------------------------------------------------


def test_run_task_reports_the_summary_and_the_data():
    registry = tasks_registry()
    puzzle = registry.puzzle("pairs")
    report = run_task(puzzle, Ones(), puzzle.parse("0110"))
    assert report["status"] == "finished" and report["summary"] == "2 ones."
    assert report["data"] == {"ones": 2, "bits": 4} and report["instance"] == "0110"


def test_run_task_refuses_what_the_task_refuses_and_stops_when_told():
    registry = tasks_registry()
    puzzle = registry.puzzle("pairs")
    with pytest.raises(InputError, match=f"more than {ONES_LIMIT} bits"):
        run_task(puzzle, Ones(), puzzle.parse("1" * (ONES_LIMIT + 2)))

    class Stopped:
        def is_set(self):
            return True

    report = run_task(puzzle, Spin(), puzzle.parse("01"), SolveContext(cancel=Stopped()))
    assert report["status"] == "gave_up" and report["reason"] == "cancelled"
    assert report["stats"] == {"rounds": 0}


def test_a_task_breaking_the_contract_is_a_plugin_error():
    registry = tasks_registry()
    puzzle = registry.puzzle("pairs")
    with pytest.raises(PluginError, match="not a TaskResult or GaveUp"):
        run_task(puzzle, registry.task("pairs", "liar"), puzzle.parse("01"))

    class Unencodable(Ones):
        def run(self, instance, ctx):
            return TaskResult("fine", {"seen": object()})

    with pytest.raises(PluginError, match="JSON cannot encode"):
        run_task(puzzle, Unencodable(), puzzle.parse("01"))

    class Mute(Ones):
        def run(self, instance, ctx):
            return TaskResult("  ")

    with pytest.raises(PluginError, match="without a summary"):
        run_task(puzzle, Mute(), puzzle.parse("01"))


def test_count_task_stops_between_chunks_and_gives_the_levels_it_built():
    from plugins.pegs.presets import PRESETS
    from plugins.pegs.tasks import CountSolutionsTask

    calls = []

    def stop_after_three():
        calls.append(1)
        return len(calls) > 3

    ctx = SolveContext()
    ctx.should_stop = stop_after_three  # type: ignore[method-assign]
    stopped = CountSolutionsTask().run(parse_instance(PRESETS["english"]), ctx)
    assert isinstance(stopped, GaveUp) and stopped.reason == "deadline"
    assert stopped.stats["levels"] >= 2 and len(calls) == 4


@pytest.mark.parametrize("preset, allowed", [
    ("triangle-5", True), ("triangle-6", True), ("diamond", True), ("english", True),
    ("european-c1", False), ("wiegleb", False),
])
def test_count_is_offered_where_its_estimate_fits_a_gigabyte(preset, allowed):
    from plugins.pegs.presets import PRESETS
    from plugins.pegs.tasks import CountSolutionsTask

    reason = CountSolutionsTask().refusal(parse_instance(PRESETS[preset]))
    assert (reason is None) == allowed, reason
    if not allowed:
        assert "GB of memory" in reason and "1.0 GB a count may use" in reason


def test_count_estimate_is_exact_when_every_level_is_small():
    from plugins.pegs.count import count_solutions, estimate_count

    inst = parse_instance(TOP_VACANCY)
    estimate = estimate_count(inst)
    assert estimate.measured
    result = count_solutions(inst)
    assert estimate.largest_level == max(level.positions for level in result.levels)
    assert estimate.positions == result.positions   # what the progress bar divides by


#: The 15-hole triangle with its top hole empty, one peg to be left anywhere.
TOP_VACANCY = "geometry: triangular; goal: any; board: ./oo/ooo/oooo/ooooo"


# -- the web API validates before anything runs -----------------------------------------------


@pytest.fixture()
def toy_client(tmp_path):
    app = create_app({"REGISTRY": tasks_registry(), "REGISTRY_FACTORY": TASKS_FACTORY,
                      "DATA_DIR": str(tmp_path), "TESTING": True})
    yield app.test_client()
    app.extensions["puzzle_jobs"].close()


def test_tasks_are_listed_with_their_refusal_for_an_instance(toy_client):
    listed = toy_client.get("/api/pairs/tasks").get_json()["tasks"]
    assert [t["name"] for t in listed] == ["ones", "spin", "deaf", "liar"]
    assert listed[0] == {"name": "ones", "label": "Count ones", "description": "Counts the 1 bits."}
    long_row = "1" * (ONES_LIMIT + 2)
    judged = toy_client.get(f"/api/pairs/tasks?instance={long_row}").get_json()["tasks"]
    assert "too long for this toy" in judged[0]["refusal"] and judged[1]["refusal"] is None
    # The editor's view of an instance carries them too (its buttons), and the puzzle's details.
    state = toy_client.post("/api/pairs/validate", json={"instance": "0110"}).get_json()
    assert state["tasks"][0]["refusal"] is None
    assert [t["name"] for t in toy_client.get("/api/puzzles/pairs").get_json()["tasks"]][:1] == ["ones"]


@pytest.mark.parametrize("url, body, status, words", [
    ("/api/pairs/tasks/count", {"instance": "0110"}, 400, "Pairs <&> test has no task 'count'"),
    ("/api/pairs/tasks/ones", {}, 400, "give the instance text"),
    ("/api/pairs/tasks/ones", {"instance": "01x"}, 400, "'x' is not a bit"),
    ("/api/pairs/tasks/ones", {"instance": "1" * (ONES_LIMIT + 2)}, 400,
     "Count ones cannot run on this instance: rows of more than"),
    ("/api/pairs/tasks/ones", {"instance": "01", "time_limit": True}, 400, "not true"),
    ("/api/pairs/tasks/ones", {"instance": "01", "time_limit": -1}, 400, "positive number"),
    ("/api/pairs/tasks/ones", {"instance": "01", "time_limit": 10_000}, 400, "at most 120"),
    ("/api/pairs/tasks/ones", {"instance": ["01"]}, 400, "must be text"),
    ("/api/nothing/tasks/ones", {"instance": "01"}, 404, "unknown puzzle 'nothing'"),
])
def test_bad_task_requests_are_refused_in_words(toy_client, url, body, status, words):
    response = toy_client.post(url, json=body)
    assert response.status_code == status
    assert words in response.get_json()["error"]


def test_a_task_of_another_puzzle_is_refused(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True})  # every installed plugin
    client = app.test_client()
    response = client.post("/api/sliding/tasks/count", json={"instance": "8-puzzle"})
    assert response.status_code == 400
    assert "Sliding tiles has no task 'count'" in response.get_json()["error"]
    response = client.post("/api/pegs/tasks/count", json={"instance": "european-c1"})
    assert response.status_code == 400 and "GB of memory" in response.get_json()["error"]
    app.extensions["puzzle_jobs"].close()


def test_a_task_refusal_is_one_sentence_in_the_readers_language(tmp_path):
    # The host's sentence around the plugin's reason, and the task's label, both in Chinese.
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True})
    client = app.test_client()
    try:
        said = {}
        for language in ("en", "zh-CN"):
            response = client.post("/api/pegs/tasks/count", json={"instance": "european-c1"},
                                   headers={"Accept-Language": language})
            assert response.status_code == 400
            said[language] = response.get_json()
    finally:
        app.extensions["puzzle_jobs"].close()
    assert said["en"]["error"].startswith("Count solutions cannot run on this instance: counting it would need")
    chinese = said["zh-CN"]["error"]
    assert chinese.startswith("“统计解法数”不能用于这道题：统计这道题大约需要"), chinese
    assert not re.search(r"[A-Za-z]{3,}", chinese.replace("puzzle pegs count", "")), chinese  # the command stays
    assert said["en"]["where"] == said["zh-CN"]["where"] == "task"
    assert said["zh-CN"]["where_text"] == "任务"


# -- task jobs on local worker processes --------------------------------------------------------


@pytest.fixture(scope="module")
def jobs_app(tmp_path_factory):
    app = create_app({"REGISTRY": tasks_registry(), "REGISTRY_FACTORY": TASKS_FACTORY,
                      "DATA_DIR": str(tmp_path_factory.mktemp("task-jobs")), "JOB_WORKERS": 2,
                      "KILL_GRACE": 0.5})
    yield app
    app.extensions["puzzle_jobs"].close()


def test_a_task_job_finishes_with_its_summary(jobs_app):
    client = jobs_app.test_client()
    submitted = client.post("/api/pairs/tasks/ones", json={"instance": " 0111 "})
    assert submitted.status_code == 202
    assert submitted.headers["Location"] == f"/api/jobs/{submitted.get_json()['id']}"
    job = wait_done(client, submitted.get_json())
    assert job["status"] == "finished" and job["kind"] == "task" and job["task"] == "ones"
    assert job["solver"] is None and job["instance"] == "0111"
    assert job["result"]["summary"] == "3 ones." and job["result"]["data"] == {"ones": 3, "bits": 4}
    assert job["time_limit"] == 120  # a task given no limit gets the largest allowed
    # It has no solution: the solution endpoints say so instead of failing.
    assert client.get(f"/api/jobs/{job['id']}/render.svg").status_code == 400


def test_a_task_job_shows_progress_and_can_be_cancelled(jobs_app):
    client = jobs_app.test_client()
    job = client.post("/api/pairs/tasks/spin", json={"instance": "01"}).get_json()
    running = wait_status(client, job["id"], "running")
    for _ in range(200):
        if "message" in running["progress"]:
            break
        time.sleep(0.05)
        running = client.get(f"/api/jobs/{job['id']}").get_json()
    assert running["progress"]["message"].startswith("round ") and running["progress"]["total"] == 10
    client.post(f"/api/jobs/{job['id']}/cancel")
    ended = wait_done(client, running)
    assert ended["status"] == "cancelled" and ended["result"]["reason"] == "cancelled"
    assert ended["result"]["stats"]["rounds"] > 0


def test_a_task_job_stops_at_its_time_limit(jobs_app):
    client = jobs_app.test_client()
    job = client.post("/api/pairs/tasks/spin", json={"instance": "01", "time_limit": 0.5}).get_json()
    ended = wait_done(client, job)
    assert ended["status"] == "gave_up" and ended["result"]["reason"] == "deadline"


def test_a_task_that_ignores_cancel_loses_its_worker(jobs_app):
    client = jobs_app.test_client()
    job = client.post("/api/pairs/tasks/deaf", json={"instance": "01"}).get_json()
    wait_status(client, job["id"], "running")
    client.post(f"/api/jobs/{job['id']}/cancel")
    ended = wait_done(client, job)
    assert ended["status"] == "cancelled"
    assert "the task did not stop by itself" in ended["message"]


def test_a_task_breaking_the_contract_ends_as_an_error(jobs_app):
    client = jobs_app.test_client()
    job = client.post("/api/pairs/tasks/liar", json={"instance": "01"}).get_json()
    ended = wait_done(client, job)
    assert ended["status"] == "error" and "not a TaskResult or GaveUp" in ended["message"]


def test_a_finished_task_job_answers_after_a_restart(tmp_path):
    config = {"REGISTRY": tasks_registry(), "REGISTRY_FACTORY": TASKS_FACTORY,
              "DATA_DIR": str(tmp_path), "JOB_WORKERS": 1}
    app = create_app(config)
    client = app.test_client()
    job = wait_done(client, client.post("/api/pairs/tasks/ones", json={"instance": "11"}).get_json())
    app.extensions["puzzle_jobs"].close()
    again = create_app(config)
    try:
        deadline = time.monotonic() + 10
        while True:  # the record is written in the background
            answer = again.test_client().get(f"/api/jobs/{job['id']}")
            if answer.status_code == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        body = answer.get_json()
        assert body["status"] == "finished" and body["kind"] == "task" and body["task"] == "ones"
        assert body["result"]["summary"] == "2 ones."
    finally:
        again.extensions["puzzle_jobs"].close()


def test_count_solutions_job_agrees_with_a_brute_force(tmp_path):
    """The 15-hole triangle, top hole empty: the count run as a job on the real plugins equals
    an independent memoised brute force over jump sequences (tests/test_pegs_count.py)."""
    app = create_app({"DATA_DIR": str(tmp_path), "JOB_WORKERS": 1})
    client = app.test_client()
    try:
        submitted = client.post("/api/pegs/tasks/count", json={"instance": TOP_VACANCY})
        assert submitted.status_code == 202, submitted.get_json()
        job = wait_done(client, submitted.get_json(), timeout=60)
        assert job["status"] == "finished", job
        expected = brute_count(parse_instance(TOP_VACANCY))
        assert job["result"]["data"]["solutions"] == str(expected)
        assert f"{expected:,} solutions" in job["result"]["summary"]
        assert job["progress"]["done"] == job["progress"]["total"]
        # every level was reported: the positions counted by progress are the count's own
        assert job["progress"]["positions"] == job["result"]["data"]["positions"]
    finally:
        app.extensions["puzzle_jobs"].close()


# -- the conformance law for tasks -------------------------------------------------------------


def test_tasks_law_passes_for_pegs_and_the_well_behaved_toys():
    from engine.conformance import check_law

    assert check_law("pegs", "tasks").status == "pass"
    registry = Registry()
    registry.add_plugin("pairs-plugin", PairsPlugin())

    class Good:
        @hookimpl
        def register_tasks(self, register):
            register(Ones())
            register(Spin())

    registry.add_plugin("good", Good())
    registry.collect()
    result = check_law("pairs", "tasks", registry=registry)
    assert result.status == "pass" and "2 tasks" in result.message


class _Numbered(Ones):
    name = "numbered"

    def refusal(self, instance):
        return 42


class _Sluggish(Ones):
    name = "sluggish"

    def run(self, instance, ctx):
        time.sleep(0.3)  # never looks at ctx.should_stop()
        return TaskResult("done late")


class _Pondering(Ones):
    name = "pondering"

    def refusal(self, instance):
        until = time.thread_time() + 0.15     # works the processor on every call
        while time.thread_time() < until:
            pass
        return None


@pytest.mark.parametrize("task, words", [
    (_Numbered(), "gave 42 as its refusal"),
    (_Sluggish(), "cancelled before it started, ran"),
    (_Pondering(), "to judge an instance"),
])
def test_tasks_law_catches_bad_refusals_and_tasks_that_do_not_stop(monkeypatch, task, words):
    from engine.conformance import check_law, laws

    monkeypatch.setattr(laws, "TASK_STOP_SECONDS", 0.1)
    monkeypatch.setattr(laws, "REFUSAL_SECONDS", 0.1)
    registry = _with(task)
    result = check_law("pairs", "tasks", registry=registry)
    assert result.status == "fail" and words in result.message, result.message
