"""Jobs in the reader's language: the worker runs each job in the locale of its request, and
answers are stored per language (docs/i18n.md, "Solving in the reader's language").

The toy solver "polyglot" (tests/jobs_toy.py) writes ``engine.i18n.current_locale()`` into its
progress, stats, reason and proof, so what the worker process ran under shows in the report.
Lights Out (examples/lights-out) checks the same with a real Simplified Chinese catalogue.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time

import pytest
from job_polling import wait_done
from jobs_toy import LOCALE_FACTORY, locale_registry

from engine.i18n import use_locale
from engine.jobs import JobRequest, JobService, LocalProcessRunner, MemoryAnswerStore, ResultStore
from engine.jobs.model import ANSWER_KEY_DIGITS, answer_key, stored_key_kind
from web import create_app

ZH = "zh_Hans"
#: Lights Out 5 x 5 with only a1 lit: unsolvable (the solver proves it with an invariant set).
DARK_BUT_ONE = "10000/00000/00000/00000/00000"
#: The start of the zh_Hans translation of the Lights Out proof, as its catalogue has it
#: (examples/lights-out/puzzle_lights_out/locale/zh_Hans/LC_MESSAGES/puzzle_lights_out.po).
LIGHTS_OUT_PROOF_ZH = "每按一次，都会切换"


def old_key(puzzle: str, solver: str, instance: str) -> str:
    """An answer's key as every earlier version computed it (docs and the answer_key docstring):
    the first 24 hex digits of sha256("answer-v1" NUL puzzle NUL solver NUL instance)."""
    text = "\0".join(("answer-v1", puzzle, solver, instance))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def report(instance="1000", locale=None, reason="cannot be solved", status="unsolvable", moves=()):
    found = {"puzzle": "pairs", "solver": "polyglot", "instance": instance, "status": status,
             "moves": list(moves), "reason": reason, "stats": {}}
    if locale is not None:
        found["locale"] = locale
    return found


# -- keys --------------------------------------------------------------------------------------


def test_english_keys_are_the_old_ones_and_other_locales_get_their_own():
    for question in (("pairs", "sweep", "0110"), ("sliding", "bounded", "1 2 3/4 5 6/7 8 0"),
                     ("lights_out", "gf2", DARK_BUT_ONE)):
        english = answer_key(*question)
        assert english == old_key(*question) == answer_key(*question, "en")
        chinese = answer_key(*question, ZH)
        assert chinese != english and len(chinese) == ANSWER_KEY_DIGITS
        assert stored_key_kind(chinese) == "key"
    # A locale the host has no catalogue for is English (it is run and stored as English).
    assert answer_key("pairs", "sweep", "0110", "fr") == old_key("pairs", "sweep", "0110")


def test_requests_carry_their_locale_and_old_records_read_as_english():
    request = JobRequest("pairs", "polyglot", "1000", 2.0, locale=ZH)
    assert JobRequest.from_json(request.to_json()) == request
    record = {"puzzle": "pairs", "solver": "polyglot", "instance": "1000", "time_limit": 2.0}
    assert JobRequest.from_json(record).locale == "en"  # written before jobs had a locale
    assert JobRequest.from_json({**record, "locale": "xx"}).locale == "en"


def test_the_service_takes_the_locale_of_the_request():
    service = JobService(locale_registry(), LocalProcessRunner(workers=1, registry_factory=LOCALE_FACTORY),
                         MemoryAnswerStore())
    try:
        assert service.request("pairs", "1000", "polyglot").locale == "en"
        assert service.task_request("pairs", "say", "0110").locale == "en"
        with use_locale(ZH):
            assert service.request("pairs", "1000", "polyglot").locale == ZH
            assert service.task_request("pairs", "say", "0110").locale == ZH
    finally:
        service.close()


# -- the worker processes ----------------------------------------------------------------------


def wait_job(runner, job_id, timeout=30.0):
    deadline = time.monotonic() + timeout
    while True:
        job = runner.get(job_id)
        if job.done:
            return job
        assert time.monotonic() < deadline, f"job still {job.status}"
        time.sleep(0.05)


def test_a_job_runs_in_its_locale_in_the_worker_processes():
    runner = LocalProcessRunner(workers=1, registry_factory=LOCALE_FACTORY)
    try:
        # One worker process, three jobs one after another in two languages: the locale is set
        # per job, and nothing of one job's language stays for the next.
        for locale in (ZH, "en", ZH):
            job = wait_job(runner, runner.submit(JobRequest("pairs", "polyglot", "1000", 5.0,
                                                            locale=locale)).id)
            assert job.status == "unsolvable", job.message
            assert job.result["locale"] == locale
            assert job.result["reason"] == f"cannot be solved (written in {locale})"
            assert job.result["reason_detail"] == f"the proof, written in {locale}"
            assert job.progress["said"] == f"thinking in {locale}"  # sent from the worker
            assert job.to_json()["locale"] == locale
        solved = wait_job(runner, runner.submit(JobRequest("pairs", "polyglot", "0110", 5.0,
                                                           locale=ZH)).id)
        assert solved.status == "solved" and solved.result["stats"]["locale"] == ZH
        task = wait_job(runner, runner.submit(JobRequest("pairs", "", "0110", 5.0, kind="task",
                                                         task="say", locale=ZH)).id)
        assert task.status == "finished", task.message
        assert (task.result["summary"], task.result["locale"]) == (f"Run in {ZH}.", ZH)
    finally:
        runner.close()


# -- the stores --------------------------------------------------------------------------------


def both_languages(store) -> None:
    """An English and a Chinese answer to one question are two answers, each in its language."""
    english = store.put(report(locale="en", reason="in English"))
    chinese = store.put(report(locale=ZH, reason="用中文"))
    assert english == old_key("pairs", "polyglot", "1000")
    assert chinese == answer_key("pairs", "polyglot", "1000", ZH) != english
    assert store.get("pairs", "polyglot", "1000") == (english, report(locale="en", reason="in English"))
    assert store.get("pairs", "polyglot", "1000", ZH)[1]["reason"] == "用中文"
    assert store.get("pairs", "polyglot", "1000", "en")[1]["reason"] == "in English"
    request, found = store.get_by_id(chinese)
    assert (request.locale, request.instance, found["reason"]) == (ZH, "1000", "用中文")
    request, found = store.get_by_id(english)
    assert (request.locale, found["reason"]) == ("en", "in English")
    # The first answer in each language is kept.
    assert store.put(report(locale=ZH, reason="另一个")) == chinese
    assert store.get_by_id(chinese)[1]["reason"] == "用中文"
    assert store.get("pairs", "polyglot", "0000", ZH) is None
    assert store.count() == 2


def test_memory_and_sqlite_stores_keep_one_answer_per_language(tmp_path):
    sqlite_store = ResultStore(tmp_path / "results.sqlite3")
    try:
        for store in (MemoryAnswerStore(), sqlite_store):
            both_languages(store)
    finally:
        sqlite_store.close()


OLD_SCHEMA = ("CREATE TABLE results (puzzle TEXT NOT NULL, solver TEXT NOT NULL,"
              " instance TEXT NOT NULL, status TEXT NOT NULL, report TEXT NOT NULL,"
              " created REAL NOT NULL, PRIMARY KEY (puzzle, solver, instance))")


def test_a_file_of_the_old_schema_answers_its_rows_and_takes_both_languages(tmp_path):
    path = tmp_path / "results.sqlite3"
    with sqlite3.connect(path) as db:  # as the earliest versions wrote it: no key, no locale
        db.execute(OLD_SCHEMA)
        for instance in ("1000", "0110"):
            db.execute("INSERT INTO results VALUES ('pairs', 'polyglot', ?, 'unsolvable', ?, 0)",
                       (instance, json.dumps(report(instance=instance, reason="old"))))
    db.close()
    # Two processes open the file at once (each its own connections, as web processes do).
    first, second = ResultStore(path), ResultStore(path)
    try:
        request, found = first.get_by_id("1")  # a stored-1 link keeps its answer, in English
        assert (request.instance, request.locale, found["reason"]) == ("1000", "en", "old")
        assert first.get("pairs", "polyglot", "1000") == ("1", report(reason="old"))
        assert first.put(report(locale="en", reason="new")) == "1"  # keeps its number and text
        assert first.get("pairs", "polyglot", "1000", ZH) is None  # never the English one
        chinese = second.put(report(locale=ZH, reason="用中文"))
        assert chinese == answer_key("pairs", "polyglot", "1000", ZH)
        assert first.get("pairs", "polyglot", "1000", ZH) == (chinese, report(locale=ZH, reason="用中文"))
        assert second.get_by_id(chinese)[0].locale == ZH
        fresh = first.put(report(instance="1110", locale="en", reason="odd"))
        assert fresh == old_key("pairs", "polyglot", "1110")
        assert second.get_by_id(fresh)[1]["reason"] == "odd"
        assert first.count() == second.count() == 4
    finally:
        first.close()
        second.close()
    # The English rows are where earlier versions look for them: still in ``results``, by question.
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT instance, key FROM results ORDER BY rowid").fetchall()
    db.close()
    assert rows == [("1000", None), ("0110", None), ("1110", old_key("pairs", "polyglot", "1110"))]
    reopened = ResultStore(path)
    try:
        assert reopened.get("pairs", "polyglot", "1000", ZH)[0] == chinese
        assert reopened.get_by_id("2")[0].instance == "0110"
    finally:
        reopened.close()


def provisional(length, tables, locale):
    found = report(instance="0110", locale=locale, status="solved", moves=["1"] * length, reason=None)
    return {**found, "length": length, "optimal": False, "tables": tables}


def test_a_better_answer_replaces_a_provisional_one_in_its_own_language(tmp_path):
    sqlite_store = ResultStore(tmp_path / "results.sqlite3")
    try:
        for store in (MemoryAnswerStore(), sqlite_store):
            english = store.put(provisional(5, "old", "en"))
            chinese = store.put(provisional(5, "old", ZH))
            assert store.put(provisional(3, "new", ZH)) == chinese  # same key, better answer
            assert store.get_by_id(chinese)[1]["length"] == 3
            assert store.get_by_id(english)[1]["length"] == 5  # the English one is its own
            assert store.put(provisional(2, "new", "en")) == english
            assert store.get("pairs", "polyglot", "0110")[1]["length"] == 2
            assert store.get("pairs", "polyglot", "0110", ZH)[1]["length"] == 3
    finally:
        sqlite_store.close()


# -- through the web API -----------------------------------------------------------------------


@pytest.fixture()
def app(tmp_path):
    app = create_app({"REGISTRY": locale_registry(), "REGISTRY_FACTORY": LOCALE_FACTORY,
                      "DATA_DIR": str(tmp_path / "data"), "KILL_GRACE": 0.5, "JOB_WORKERS": 1})
    yield app
    app.extensions["puzzle_jobs"].close()


def ask(client, puzzle, instance, solver, language):
    job = client.post(f"/api/{puzzle}/jobs", json={"instance": instance, "solver": solver},
                      headers={"Accept-Language": language})
    assert job.status_code in (200, 202), job.get_json()
    return wait_done(client, job.get_json())


def test_an_english_and_a_chinese_reader_get_separate_answers_each_in_their_language(app):
    client = app.test_client()
    chinese = ask(client, "pairs", "1000", "polyglot", "zh-CN")
    english = ask(client, "pairs", "1000", "polyglot", "en-US,en;q=0.9")
    assert chinese["locale"] == ZH and chinese["result"]["reason"].endswith(f"written in {ZH})")
    assert english["locale"] == "en" and english["result"]["reason"].endswith("written in en)")
    assert chinese["stored_id"] != english["stored_id"]
    assert english["stored_id"] == "stored-" + old_key("pairs", "polyglot", "1000")
    # Asked again, each reader gets the stored answer in their own language.
    again = client.post("/api/pairs/jobs", json={"instance": "1000", "solver": "polyglot"},
                        headers={"Accept-Language": "zh-Hans"}).get_json()
    assert again["from_store"] and again["stored_id"] == chinese["stored_id"]
    assert again["result"]["reason"] == chinese["result"]["reason"]
    # A stored-<key> link names one answer: it shows it in the language it was found in,
    # whoever follows it.
    linked = client.get(f"/api/jobs/{chinese['stored_id']}", headers={"Accept-Language": "en"}).get_json()
    assert linked["locale"] == ZH and linked["result"]["reason"] == chinese["result"]["reason"]


def test_accept_language_zh_cn_gets_the_lights_out_proof_from_its_chinese_catalogue(app):
    client = app.test_client()
    chinese = ask(client, "lights_out", DARK_BUT_ONE, "gf2", "zh-CN")
    english = ask(client, "lights_out", DARK_BUT_ONE, "gf2", "en")
    assert chinese["status"] == english["status"] == "unsolvable"
    assert chinese["result"]["reason_detail"].startswith(LIGHTS_OUT_PROOF_ZH)
    assert english["result"]["reason_detail"].startswith("Every press toggles an even number")
    assert chinese["stored_id"] != english["stored_id"]


def test_a_finished_job_asked_for_after_a_restart_answers_in_its_own_language(tmp_path):
    config = {"REGISTRY": locale_registry(), "REGISTRY_FACTORY": LOCALE_FACTORY,
              "DATA_DIR": str(tmp_path / "data"), "KILL_GRACE": 0.5, "JOB_WORKERS": 1}
    first = create_app(config)
    try:
        client = first.test_client()
        chinese = ask(client, "pairs", "0001", "polyglot", "zh-CN")
        english = ask(client, "pairs", "0001", "polyglot", "en")
    finally:
        first.extensions["puzzle_jobs"].close()  # writes what is left of the records
    restarted = create_app(config)
    try:
        client = restarted.test_client()
        for job in (chinese, english):
            # The record keeps no answer, only the question: the answer comes from the store,
            # in the job's own language.
            again = client.get(f"/api/jobs/{job['id']}").get_json()
            assert (again["locale"], again["stored_id"]) == (job["locale"], job["stored_id"])
            assert again["result"]["reason"] == job["result"]["reason"]
        assert chinese["result"]["reason"] != english["result"]["reason"]
    finally:
        restarted.extensions["puzzle_jobs"].close()
