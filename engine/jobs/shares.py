"""A fair share of the job queue per client: at most N queued or running jobs each.

The queue is shared (16 waiting jobs by default): without a share, one client that keeps
submitting holds it full, and every other visitor's Solve and Hint answer "queue full". With a
share, that client gets :class:`TooManyJobs` (the web app's ``429`` with ``Retry-After``) past
its N jobs, while the others still get theirs queued.

Who a client is, the front end says (the web app: the remote address, or a configured proxy
header). The ids of each client's jobs are kept in a :class:`ShareBook`: in memory for one
process (:class:`MemoryShareBook`), or in Redis when many web processes share one queue
(:class:`RedisShareBook`), so a client's share is the same whichever process it reaches. A
job counts until the runner says it is final (or no longer knows it); each submit checks the
client's at most N jobs, so the cost is bounded by the share, not by the queue.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from typing import TYPE_CHECKING, Callable

from ..errors import PuzzleError
from ..i18n import format_number, ngettext
from .model import QUEUED, Job, JobNotFound, JobRequest, JobRunner

if TYPE_CHECKING:
    import redis

#: Queued and running jobs one client may have at once (0: no limit).
DEFAULT_JOBS_PER_CLIENT = 4
#: Most clients a memory book remembers (the least recently seen are dropped first).
MAX_CLIENTS = 10_000


class TooManyJobs(PuzzleError):
    """This client already has its share of queued and running jobs; retry after
    ``retry_after`` seconds (when the first of them should be done)."""

    def __init__(self, message: str, retry_after: int = 5):
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class ShareBook(ABC):
    """The ids of each client's jobs that may still be queued or running."""

    @abstractmethod
    def ids(self, client: str) -> list[str]:
        """The client's job ids, oldest first."""

    @abstractmethod
    def add(self, client: str, job_id: str) -> None:
        """Count a new job of the client."""

    @abstractmethod
    def drop(self, client: str, job_ids: list[str]) -> None:
        """Stop counting these jobs (they ended)."""


class MemoryShareBook(ShareBook):
    """Job ids per client in memory: one process's share (the local runner, or tests)."""

    def __init__(self) -> None:
        self._clients: OrderedDict[str, list[str]] = OrderedDict()

    def ids(self, client: str) -> list[str]:
        return list(self._clients.get(client, ()))

    def add(self, client: str, job_id: str) -> None:
        self._clients.setdefault(client, []).append(job_id)
        self._clients.move_to_end(client)
        while len(self._clients) > MAX_CLIENTS:
            self._clients.popitem(last=False)

    def drop(self, client: str, job_ids: list[str]) -> None:
        kept = [i for i in self._clients.get(client, ()) if i not in job_ids]
        if kept:
            self._clients[client] = kept
        else:
            self._clients.pop(client, None)


class RedisShareBook(ShareBook):
    """Job ids per client in Redis (a sorted set per client, scored by submit time), shared by
    every web process of one queue. A set expires a day after its last job was added."""

    PREFIX = "puzzle:client:"
    KEEP_SECONDS = 24 * 3600

    def __init__(self, connection: redis.Redis, queue: str) -> None:
        self.redis = connection
        self.queue = queue

    def _key(self, client: str) -> str:
        # Hashed: a client's address (or proxy header) is not a Redis key name of its choosing.
        digest = hashlib.sha256(client.encode("utf-8", "replace")).hexdigest()[:32]
        return f"{self.PREFIX}{self.queue}:{digest}"

    def ids(self, client: str) -> list[str]:
        return [i.decode() if isinstance(i, bytes) else str(i)
                for i in self.redis.zrange(self._key(client), 0, -1)]

    def add(self, client: str, job_id: str) -> None:
        key = self._key(client)
        with self.redis.pipeline() as pipe:
            pipe.zadd(key, {job_id: time.time()})
            pipe.expire(key, self.KEEP_SECONDS)
            pipe.execute()

    def drop(self, client: str, job_ids: list[str]) -> None:
        if job_ids:
            self.redis.zrem(self._key(client), *job_ids)


class ClientShares:
    """Admit a client's new job only while it has fewer than ``per_client`` unfinished ones.

    Two submits of one client in the same process are counted one after the other (a lock);
    across web processes two simultaneous submits may both pass, so a client can exceed its
    share by at most one job per web process for a moment.
    """

    def __init__(self, runner: JobRunner, book: ShareBook | None = None,
                 per_client: int = DEFAULT_JOBS_PER_CLIENT) -> None:
        self.runner = runner
        self.book = book if book is not None else MemoryShareBook()
        self.per_client = max(0, int(per_client))
        self._lock = threading.Lock()

    def submit(self, client: str | None, request: JobRequest,
               start: Callable[[JobRequest], Job]) -> Job:
        """``start(request)`` if the client has room, counting the job; else :class:`TooManyJobs`.
        No client (``None``) or no limit (0) admits every job."""
        if not client or not self.per_client:
            return start(request)
        with self._lock:
            active = self._active(client)
            if len(active) >= self.per_client:
                raise TooManyJobs(
                    ngettext("you already have {count} job queued or running (at most {most} at once); wait "
                             "for one to finish, or cancel one",
                             "you already have {count} jobs queued or running (at most {most} at once); wait "
                             "for one to finish, or cancel one", len(active)).format(
                        count=format_number(len(active)), most=format_number(self.per_client)),
                    retry_after=_retry_after(active))
            job = start(request)
            if not job.done:
                self.book.add(client, job.id)
            return job

    def _active(self, client: str) -> list[Job]:
        """The client's jobs that are not final yet; the others stop being counted."""
        active, ended = [], []
        for job_id in self.book.ids(client):
            try:
                job = self.runner.get(job_id)
            except JobNotFound:
                job = None
            if job is None or job.done:
                ended.append(job_id)
            else:
                active.append(job)
        if ended:
            self.book.drop(client, ended)
        return active


def _retry_after(active: list[Job]) -> int:
    """Seconds until the first of these jobs should be done: the shortest time left of the
    running ones (a queued one may take its whole time limit), within 1..60."""
    now = time.time()
    waits = []
    for job in active:
        limit = job.request.time_limit or 5.0
        if job.status == QUEUED or not job.started_at:
            waits.append(limit)
        else:
            waits.append(job.started_at + limit - now)
    return max(1, min(60, math.ceil(min(waits)) if waits else 5))
