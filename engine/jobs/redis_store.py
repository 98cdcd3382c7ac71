"""The answer store for many machines: answers in Redis, shared by every web process and worker.

Same contract as the SQLite store (:class:`~engine.jobs.store.AnswerStore`): keyed by puzzle,
solver, canonical instance text and the answer's locale, each answer with a permanent key
(:func:`~engine.jobs.model.answer_key`, a hash of that question) that ``stored-<key>`` links
name. Redis keeps it in memory: only Redis persistence (``appendonly yes``, see docs/deploy.md)
keeps answers across a Redis restart. Without it, old links answer 404 after a restart (a key is
never given to another question, unlike a counter that would start again at 1).

Keys: ``puzzle:answers:a:<key>`` holds an answer's report and ``puzzle:answers:count`` how many
there are, in every locale (the locale is hashed into the key; English keys are the ones earlier
versions gave). Answers stored by earlier versions keep their numbers: ``puzzle:answers:<n>``
(the report), ``puzzle:answers:key:<sha256>`` (its number) and ``puzzle:answers:next``; they are
read, never written, and they are English (earlier versions wrote only English).
"""

from __future__ import annotations

import collections
import hashlib
import json
import threading
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from ..i18n import DEFAULT_LOCALE
from .freshness import merged
from .model import STORED_STATUSES, JobRequest, JobsUnavailable, answer_key, job_locale, stored_key_kind
from .store import AnswerStore, StoreBusy, question_of, request_of

if TYPE_CHECKING:
    import redis

    from .rq_runner import RQRunner

#: A stored answer as the answer store gives it, or None.
_Found = TypeVar("_Found", bound="tuple[Any, dict] | None")

#: Every key this store writes starts with this.
PREFIX = "puzzle:answers:"

# Atomic "insert unless present, then return the key": the same answer stored twice (two
# identical jobs in flight, on two machines) keeps its first report, and an answer stored under
# a number by an earlier version keeps that number (only English answers can have one: ARGV[4]
# is "1" for them, and only then is the number looked up).
_PUT = """
local n = ARGV[4] == '1' and redis.call('GET', KEYS[2])
if n and redis.call('EXISTS', ARGV[2] .. n) == 1 then return n end
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then redis.call('INCR', KEYS[3]) end
return ARGV[3]
"""


def _legacy_key(puzzle: str, solver: str, instance: str) -> str:
    """Where an earlier version kept the number of this question's answer."""
    digest = hashlib.sha256("\0".join((puzzle, solver, instance)).encode()).hexdigest()
    return f"{PREFIX}key:{digest}"


def _report(raw: bytes | str | None) -> tuple[JobRequest, dict] | None:
    if raw is None:
        return None
    report = json.loads(raw)
    return request_of(report), report


class RedisAnswerStore(AnswerStore):
    """Solved and unsolvable answers in Redis. ``connection`` is a ``redis.Redis`` client."""

    def __init__(self, connection: redis.Redis) -> None:
        self.redis = connection
        self._put = connection.register_script(_PUT)

    def get(self, puzzle: str, solver: str, instance: str,
            locale: str = DEFAULT_LOCALE) -> tuple[str, dict] | None:
        locale = job_locale(locale)
        key = answer_key(puzzle, solver, instance, locale)
        found = _report(self.redis.get(f"{PREFIX}a:{key}"))
        if found is not None:
            return key, found[1]
        if locale != DEFAULT_LOCALE:  # numbered answers are all English
            return None
        number = self.redis.get(_legacy_key(puzzle, solver, instance))
        if number is None:
            return None
        legacy = number.decode() if isinstance(number, bytes) else str(number)
        found = self.get_by_id(legacy)
        return (legacy, found[1]) if found else None

    def get_by_id(self, key: str) -> tuple[JobRequest, dict] | None:
        kind = stored_key_kind(key)
        if kind is None:
            return None
        return _report(self.redis.get(f"{PREFIX}a:{key}" if kind == "key" else f"{PREFIX}{key}"))

    def put(self, report: dict) -> str | None:
        if report.get("status") not in STORED_STATUSES:
            return None
        import redis

        puzzle, solver, instance, locale = question_of(report)
        key = answer_key(puzzle, solver, instance, locale)
        try:
            old = _report(self.redis.get(f"{PREFIX}a:{key}"))
            better = merged(old[1], report) if old is not None else None
            if better is not None:
                # In place, under the same key (two racing writers both hold a valid answer).
                self.redis.set(f"{PREFIX}a:{key}", json.dumps(better), xx=True)
                return key
            given = self._put(keys=[f"{PREFIX}a:{key}", _legacy_key(puzzle, solver, instance),
                                    f"{PREFIX}count"],
                              args=[json.dumps(report), PREFIX, key,
                                    "1" if locale == DEFAULT_LOCALE else "0"])
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise StoreBusy(f"Redis: {exc}") from None
        return given.decode() if isinstance(given, bytes) else str(given)

    def count(self) -> int:
        new, legacy = self.redis.mget(f"{PREFIX}count", f"{PREFIX}next")
        return int(new or 0) + int(legacy or 0)


class GuardedRedisStore(RedisAnswerStore):
    """The Redis answer store for web processes: an unreachable Redis is a clear 503.

    Stored answers are permanent, so each web process keeps the last ones it read (up to
    :data:`CACHED_ANSWERS`, none longer than :data:`CACHED_MOVES` moves) in memory: a
    ``stored-...`` link (its page, its API answer, its SVG) or a repeated request it served
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

    def get(self, puzzle: str, solver: str, instance: str,
            locale: str = DEFAULT_LOCALE) -> tuple[str, dict] | None:
        locale = job_locale(locale)
        return self._cached(("key", puzzle, solver, instance, locale), super().get,
                            puzzle, solver, instance, locale)

    def get_by_id(self, key: str) -> tuple[JobRequest, dict] | None:
        if stored_key_kind(key) is None:
            return None
        found = self._cached(("id", key), super().get_by_id, key)
        if found is not None:  # the same answer, by what it answers
            request, report = found
            self._remember(("key", request.puzzle, request.solver, request.instance, request.locale),
                           (key, report))
        return found

    def count(self) -> int:
        return self._runner._call(super().count)


#: How many stored answers a web process keeps in memory for when Redis is down.
CACHED_ANSWERS = 256
#: Longer answers are not kept (a 32 x 32 answer can hold 83,000 moves, ~5 MB).
CACHED_MOVES = 20_000
