"""Stored answers not proved shortest give way to better ones once the tables change
(engine/jobs/freshness.py): the rule, each answer store, and the service's idea of "now"."""

from __future__ import annotations

import pytest

from engine.jobs import MemoryAnswerStore, ResultStore
from engine.jobs.freshness import TABLES_FIELD, TablesNow, merged, provisional, stamp


def answer(moves, optimal=False, tables="", status="solved"):
    report = {"puzzle": "pairs", "solver": "tabled", "instance": "0110", "status": status,
              "moves": list(moves), "length": len(moves) if status == "solved" else None,
              "optimal": optimal, "stats": {}}
    return stamp(report, tables)


def test_only_solutions_not_proved_shortest_are_provisional():
    assert provisional(answer(["0", "0", "1"]))
    assert not provisional(answer(["1"], optimal=True))
    assert not provisional(answer([], status="unsolvable"))
    assert TABLES_FIELD not in answer(["1"], optimal=True, tables="abc")  # final: no stamp


def test_the_better_answer_wins_and_a_final_one_stays():
    old = answer(["0", "0", "1"], tables="")
    assert merged(old, answer(["0", "0", "1"], tables="")) is None  # same tables: no news
    assert merged(old, answer(["1"], optimal=True, tables="t")) == answer(["1"], optimal=True)
    shorter = answer(["1"], tables="t")
    assert merged(old, shorter) == shorter
    longer = answer(["0", "0", "0", "0", "1"], tables="t")
    renewed = merged(old, longer)  # kept, but marked as found with the new tables
    assert renewed["moves"] == old["moves"] and renewed[TABLES_FIELD] == "t"
    final = answer(["1"], optimal=True)
    assert merged(final, answer(["0", "0", "1"], tables="t")) is None


@pytest.mark.parametrize("kind", ["sqlite", "memory", "redis"])
def test_each_store_replaces_a_provisional_answer_under_the_same_key(tmp_path, kind, request):
    if kind == "redis":
        # A real redis-server of this module's own (tests/redis_helpers.py), emptied first.
        import redis

        from engine.jobs.redis_store import RedisAnswerStore
        connection = redis.Redis.from_url(request.getfixturevalue("redis_server").url)
        connection.flushdb()
        store = RedisAnswerStore(connection)
        request.addfinalizer(connection.close)
    else:
        store = ResultStore(tmp_path / "answers.db") if kind == "sqlite" else MemoryAnswerStore()
    try:
        key = store.put(answer(["0", "0", "1"], tables=""))
        assert store.put(answer(["0", "0", "0", "0", "1"], tables="")) == key  # first kept
        assert store.get("pairs", "tabled", "0110")[1]["length"] == 3
        assert store.put(answer(["1"], optimal=True, tables="t")) == key
        found_key, found = store.get("pairs", "tabled", "0110")
        assert found_key == key and found["length"] == 1 and found["optimal"] is True
        assert store.get_by_id(key)[1]["moves"] == ["1"]
        assert store.put(answer(["0", "0", "1"], tables="u")) == key  # a final answer stays
        assert store.get("pairs", "tabled", "0110")[1]["moves"] == ["1"]
        assert store.count() == 1
    finally:
        store.close()


def test_the_service_follows_the_tables_that_changed_last():
    folder = [""]
    now = TablesNow(look=lambda: folder[0], every=0)
    old = answer(["0", "0", "1"], tables="")
    assert not now.stale(old)
    folder[0] = "t"  # a table finished on this machine
    assert now.stale(old)
    assert not now.stale(answer(["1"], tables="t"))
    assert not now.stale(answer(["1"], optimal=True))  # final answers are never stale
    # A worker elsewhere reports other tables later: they win, until this folder changes again.
    now.observe(answer(["1"], tables="w"))
    assert now.current() == "w" and now.stale(answer(["1"], tables="t"))
    folder[0] = "t2"
    assert now.current() == "t2"
