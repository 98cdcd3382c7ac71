"""The answer store for many machines: answers in Redis, shared by every web process and worker.

Same contract as the SQLite store (:class:`~engine.jobs.store.AnswerStore`): keyed by puzzle,
solver and canonical instance text, each answer with a permanent number that ``stored-N`` links
name. Redis keeps it in memory: only Redis persistence (``appendonly yes``, see docs/deploy.md)
keeps answers across a Redis restart.
"""

from __future__ import annotations

import collections
import hashlib
import json
import threading
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from .model import STORED_STATUSES, JobRequest, JobsUnavailable
from .store import AnswerStore, StoreBusy

if TYPE_CHECKING:
    import redis

    from .rq_runner import RQRunner

#: A stored answer as the answer store gives it, or None.
_Found = TypeVar("_Found", bound="tuple[Any, dict] | None")

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


class GuardedRedisStore(RedisAnswerStore):
    """The Redis answer store for web processes: an unreachable Redis is a clear 503.

    Stored answers are permanent, so each web process keeps the last ones it read (up to
    :data:`CACHED_ANSWERS`, none longer than :data:`CACHED_MOVES` moves) in memory: a
    ``stored-N`` link (its page, its API answer, its SVG) or a repeated request it served
    before keeps working while Redis is down. Anything else answers 503 until Redis is back.
    """

    def __init__(self, runner: RQRunner):
        super().__init__(runner.redis)
        self._runner = runner
        self._cache: collections.OrderedDict = collections.OrderedDict()
        self._lock = threading.Lock()

    def _remember(self, key: tuple, value: _Found) -> _Found:
        if value is None or len((value[1] or {}).get("moves") or ()) > CACHED_MOVES:
            return value
        with self._lock:
            self._cache[key] = value
            self._cache.move_to_end(key)
            while len(self._cache) > CACHED_ANSWERS:
                self._cache.popitem(last=False)
        return value

    def _cached(self, key: tuple, fetch: Callable[..., _Found], *args: Any) -> _Found:
        try:
            return self._remember(key, self._runner._call(fetch, *args))
        except JobsUnavailable:
            with self._lock:
                if key in self._cache:
                    return self._cache[key]
            raise

    def get(self, puzzle: str, solver: str, instance: str) -> tuple[int, dict] | None:
        return self._cached(("key", puzzle, solver, instance), super().get, puzzle, solver, instance)

    def get_by_id(self, number: int) -> tuple[JobRequest, dict] | None:
        found = self._cached(("id", int(number)), super().get_by_id, number)
        if found is not None:  # the same answer, by what it answers
            request, report = found
            self._remember(("key", request.puzzle, request.solver, request.instance),
                           (int(number), report))
        return found

    def count(self) -> int:
        return self._runner._call(super().count)


#: How many stored answers a web process keeps in memory for when Redis is down.
CACHED_ANSWERS = 256
#: Longer answers are not kept (a 32 x 32 answer can hold 83,000 moves, ~5 MB).
CACHED_MOVES = 20_000
