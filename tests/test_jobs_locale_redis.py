"""Jobs in the reader's language on RQ and a real redis-server: the work horse runs the job in
the locale of its request, and Redis keeps one answer per language (tests/test_jobs_locale.py
has the same for the local workers, memory and SQLite).
"""

from __future__ import annotations

import hashlib
import json
import os

import pytest
import redis
from job_polling import wait_done
from jobs_toy import LOCALE_FACTORY, locale_registry
from redis_helpers import start_worker
from test_jobs_locale import LIGHTS_OUT_PROOF_ZH, ZH, both_languages, old_key, report

from engine.jobs.model import answer_key
from engine.jobs.redis_store import GuardedRedisStore, RedisAnswerStore
from engine.jobs.rq_runner import RQRunner
from web import create_app

pytestmark = [pytest.mark.slow,  # subprocesses and a Redis server: seconds per test
              pytest.mark.skipif(not os.path.exists("/usr/bin/redis-server"),
                                 reason="needs Debian's redis-server (scripts/setup.sh installs it)")]


@pytest.fixture()
def connection(redis_server):
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()  # each test starts from an empty store
    yield client
    client.close()


def test_redis_keeps_one_answer_per_language(connection):
    both_languages(RedisAnswerStore(connection))


def test_a_numbered_english_answer_is_never_given_to_a_chinese_reader(connection):
    # As earlier versions stored it: a number, found through a hash of the question.
    digest = hashlib.sha256("\0".join(("pairs", "polyglot", "1000")).encode()).hexdigest()
    connection.set(f"puzzle:answers:key:{digest}", 7)
    connection.set("puzzle:answers:7", json.dumps(report(reason="old")))
    connection.set("puzzle:answers:next", 7)
    store = RedisAnswerStore(connection)
    assert store.get("pairs", "polyglot", "1000") == ("7", report(reason="old"))
    assert store.get_by_id("7")[0].locale == "en"
    assert store.get("pairs", "polyglot", "1000", ZH) is None
    chinese = store.put(report(locale=ZH, reason="用中文"))
    assert chinese == answer_key("pairs", "polyglot", "1000", ZH)
    assert store.put(report(locale="en", reason="new")) == "7"  # the English one keeps its number
    assert store.get("pairs", "polyglot", "1000", ZH)[1]["reason"] == "用中文"


def test_a_web_process_remembers_each_language_apart_while_redis_is_down(redis_server, connection):
    store = RedisAnswerStore(connection)
    english = store.put(report(locale="en", reason="in English"))
    chinese = store.put(report(locale=ZH, reason="用中文"))
    guarded = GuardedRedisStore(RQRunner(redis_server.url))
    assert guarded.get("pairs", "polyglot", "1000", ZH)[0] == chinese
    assert guarded.get("pairs", "polyglot", "1000")[0] == english
    assert guarded.get_by_id(chinese)[0].locale == ZH
    redis_server.stop()
    try:
        assert guarded.get("pairs", "polyglot", "1000", ZH) == (chinese, report(locale=ZH, reason="用中文"))
        assert guarded.get("pairs", "polyglot", "1000", "en")[1]["reason"] == "in English"
        assert guarded.get_by_id(chinese)[0].locale == ZH
    finally:
        redis_server.start()  # same port and data (AOF)


def test_rq_work_horses_solve_in_the_readers_language(redis_server, connection, queue, workers):
    workers.append(start_worker(redis_server.url, queue, factory=LOCALE_FACTORY))
    app = create_app({"REGISTRY": locale_registry(), "REDIS_URL": redis_server.url,
                      "REDIS_QUEUE": queue, "KILL_GRACE": 0.5})
    client = app.test_client()

    def ask(puzzle, instance, solver, language):
        job = client.post(f"/api/{puzzle}/jobs", json={"instance": instance, "solver": solver},
                          headers={"Accept-Language": language}).get_json()
        return wait_done(client, job)

    chinese = ask("pairs", "1000", "polyglot", "zh-CN")
    english = ask("pairs", "1000", "polyglot", "en")
    assert chinese["locale"] == ZH and chinese["result"]["reason"].endswith(f"written in {ZH})")
    assert english["result"]["reason"].endswith("written in en)")
    assert english["stored_id"] == "stored-" + old_key("pairs", "polyglot", "1000")
    assert chinese["stored_id"] == "stored-" + answer_key("pairs", "polyglot", "1000", ZH)
    lights = ask("lights_out", "10000/00000/00000/00000/00000", "gf2", "zh-CN")
    assert lights["status"] == "unsolvable"
    assert lights["result"]["reason_detail"].startswith(LIGHTS_OUT_PROOF_ZH)
    again = client.post("/api/pairs/jobs", json={"instance": "1000", "solver": "polyglot"},
                        headers={"Accept-Language": "zh-CN"}).get_json()
    assert again["from_store"] and again["result"]["reason"] == chinese["result"]["reason"]
