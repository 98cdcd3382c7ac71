"""``stored-…`` ids never name another answer: they are hashes of the question, not counters.

A server restarted with a read-only data directory keeps its answers in memory, from empty;
with numbers counted from 1, the old ``stored-1`` named whatever was solved first after the
restart. Here the old link answers 404 until its own question is solved again. Answers stored
by earlier versions (numbered ``stored-1``...) keep working in the SQLite file that holds them,
and a recreated file never answers an old number. The Redis side is in test_jobs_redis_faults.py.
"""

from __future__ import annotations

import json
import sqlite3

from job_polling import wait_done
from jobs_toy import JOBS_FACTORY, jobs_registry

from engine.jobs import MemoryAnswerStore, ResultStore
from engine.jobs.model import answer_key
from web import create_app


def make_app(data_dir, **config):
    return create_app({"REGISTRY": jobs_registry(), "REGISTRY_FACTORY": JOBS_FACTORY,
                       "DATA_DIR": str(data_dir), "KILL_GRACE": 0.5, "JOB_WORKERS": 1, **config})


def report(instance="0110", solver="sweep", moves=("1",), status="solved"):
    return {"puzzle": "pairs", "solver": solver, "instance": instance, "status": status,
            "moves": list(moves), "stats": {}}


def solve(client, instance: str) -> dict:
    job = client.post("/api/pairs/jobs", json={"instance": instance, "solver": "sweep"}).get_json()
    return wait_done(client, job)


def test_a_link_from_before_a_read_only_restart_never_shows_another_answer(tmp_path):
    disk = make_app(tmp_path / "data")
    try:
        client = disk.test_client()
        first = solve(client, "110000")
        assert first["status"] == "solved" and first["stored_id"].startswith("stored-")
    finally:
        disk.extensions["puzzle_jobs"].close()
    # The same server restarted where its data directory cannot be written: memory, from empty.
    blocked = tmp_path / "file"
    blocked.write_text("")
    memory = make_app(blocked / "data")
    try:
        assert memory.extensions["puzzle_store_in_memory"] is True
        client = memory.test_client()
        other = solve(client, "011110")  # the first answer after the restart
        assert other["status"] == "solved" and other["stored_id"] != first["stored_id"]
        old = client.get(f"/api/jobs/{first['stored_id']}")
        assert old.status_code == 404, old.get_json()
        assert "no stored answer" in old.get_json()["error"]
        assert client.get(f"/api/jobs/{first['stored_id']}/render.svg").status_code == 404
        page = client.get(f"/pairs?job={first['stored_id']}").get_data(as_text=True)
        assert "the job in the link cannot be shown" in page and "no stored answer" in page
        # Solved again, the same question gets the same link back, with its own answer.
        again = solve(client, "110000")
        assert again["stored_id"] == first["stored_id"]
        shown = client.get(f"/api/jobs/{first['stored_id']}").get_json()
        assert shown["instance"] == "110000" and shown["result"]["moves"] == first["result"]["moves"]
    finally:
        memory.extensions["puzzle_jobs"].close()


def test_ids_are_the_questions_key_in_every_store(tmp_path):
    sqlite_store, memory = ResultStore(tmp_path / "r.sqlite3"), MemoryAnswerStore()
    try:
        for store in (sqlite_store, memory):
            key = store.put(report())
            assert key == answer_key("pairs", "sweep", "0110")
            assert store.put(report(moves=("2", "2", "2"))) == key  # the first answer is kept
            assert store.get_by_id(key)[1]["moves"] == ["1"]
            assert store.get("pairs", "sweep", "0110")[0] == key
            other = store.put(report(solver="patient"))  # another solver: another question
            assert other != key and store.get_by_id(other)[0].solver == "patient"
            assert store.put(report(status="gave_up")) is None
            for bad in ("1", "0", "-1", key.upper(), key[:-1], key + "0", "x" * 24, "", "٣"):
                assert store.get_by_id(bad) is None, bad
    finally:
        sqlite_store.close()


def old_version_file(path) -> None:
    """A results file as earlier versions wrote it: no key column, rows named by row number."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE results (puzzle TEXT NOT NULL, solver TEXT NOT NULL,"
                   " instance TEXT NOT NULL, status TEXT NOT NULL, report TEXT NOT NULL,"
                   " created REAL NOT NULL, PRIMARY KEY (puzzle, solver, instance))")
        for instance in ("0110", "1001"):
            db.execute("INSERT INTO results VALUES ('pairs', 'sweep', ?, 'solved', ?, 0)",
                       (instance, json.dumps(report(instance=instance))))
    db.close()


def test_numbers_from_earlier_versions_keep_working_and_are_never_given_again(tmp_path):
    path = tmp_path / "results.sqlite3"
    old_version_file(path)
    store = ResultStore(path)
    try:
        assert store.get_by_id("1")[0].instance == "0110"
        assert store.get_by_id("2")[0].instance == "1001"
        assert store.get("pairs", "sweep", "1001")[0] == "2"  # it keeps the id it was given
        assert store.put(report(instance="1001")) == "2"
        new = store.put(report(instance="0000"))  # row 3, but named by its key
        assert new == answer_key("pairs", "sweep", "0000")
        assert store.get_by_id("3") is None
    finally:
        store.close()
    # The file is lost and made again: row numbers start at 1, but no number is answered.
    path.unlink()
    fresh = ResultStore(path)
    try:
        fresh.put(report(instance="1111"))
        assert fresh.get_by_id("1") is None
    finally:
        fresh.close()


def test_a_legacy_link_works_through_the_web_app(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    old_version_file(data / "results.sqlite3")
    app = make_app(data)
    try:
        client = app.test_client()
        old = client.get("/api/jobs/stored-2").get_json()
        assert old["id"] == "stored-2" and old["instance"] == "1001" and old["from_store"]
        assert client.get("/api/jobs/stored-3").status_code == 404
        assert client.get("/api/jobs/stored-02").status_code == 404
    finally:
        app.extensions["puzzle_jobs"].close()
