"""The answer store for many machines: answers in Redis, shared by every web process and worker.

Same contract as the SQLite store (:class:`~engine.jobs.store.AnswerStore`): keyed by puzzle,
solver and canonical instance text, each answer with a permanent number that ``stored-N`` links
name. Redis keeps it in memory: only Redis persistence (``appendonly yes``, see docs/deploy.md)
keeps answers across a Redis restart.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from .model import STORED_STATUSES, JobRequest
from .store import AnswerStore, StoreBusy

if TYPE_CHECKING:
    import redis

#: Every key this store writes starts with this.
PREFIX = "puzzle:answers:"

# Atomic "insert unless present, then return the number": the same answer stored twice (two
# identical jobs in flight, on two machines) keeps its first number.
_PUT = """
local n = redis.call('GET', KEYS[1])
if n then return tonumber(n) end
n = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], n)
redis.call('SET', ARGV[2] .. n, ARGV[1])
return n
"""


def _key(puzzle: str, solver: str, instance: str) -> str:
    digest = hashlib.sha256("\0".join((puzzle, solver, instance)).encode()).hexdigest()
    return f"{PREFIX}key:{digest}"


class RedisAnswerStore(AnswerStore):
    """Solved and unsolvable answers in Redis. ``connection`` is a ``redis.Redis`` client."""

    def __init__(self, connection: redis.Redis) -> None:
        self.redis = connection
        self._put = connection.register_script(_PUT)

    def get(self, puzzle: str, solver: str, instance: str) -> tuple[int, dict] | None:
        number = self.redis.get(_key(puzzle, solver, instance))
        if number is None:
            return None
        found = self.get_by_id(int(number))
        return (int(number), found[1]) if found else None

    def get_by_id(self, number: int) -> tuple[JobRequest, dict] | None:
        raw = self.redis.get(f"{PREFIX}{int(number)}")
        if raw is None:
            return None
        report = json.loads(raw)
        return JobRequest(report["puzzle"], report["solver"], report["instance"], 0.0), report

    def put(self, report: dict) -> int | None:
        if report.get("status") not in STORED_STATUSES:
            return None
        import redis

        try:
            return int(self._put(keys=[_key(report["puzzle"], report["solver"], report["instance"]),
                                       f"{PREFIX}next"],
                                 args=[json.dumps(report), PREFIX]))
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise StoreBusy(f"Redis: {exc}") from None

    def count(self) -> int:
        return int(self.redis.get(f"{PREFIX}next") or 0)
