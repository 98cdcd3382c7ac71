"""The bounded cache of rebuildable table files that every plugin shares.

Plugins keep tables on disk (pattern databases, peg tables) so that the next process does not
build them again. Left alone, that folder only grows: a web server that builds a table for each
new custom board an anonymous visitor sends would fill the disk. :class:`TableCache` bounds it:

* **A size budget** for the whole folder (:func:`cache_budget`: ``$PUZZLE_ENGINE_CACHE_BUDGET``,
  or ``puzzle --cache-budget``, default :data:`DEFAULT_BUDGET`). After each write the least
  recently used files go until the folder fits again. A file that alone exceeds the budget is
  not written (the table stays in memory). Files built on purpose (``puzzle prepare``,
  ``puzzle pegs table``: written inside :func:`pinned_tables`) are evicted only after every
  other file, since they take minutes to build.
* **Least recently used** is the file's modification time: :meth:`TableCache.used` sets it when
  a table is loaded, :meth:`TableCache.write` when it is written.
* **Eviction never breaks a reader.** Files are written to a temporary name and renamed into
  place, so a reader sees a whole file or none. Eviction unlinks: a process that has the file
  open or memory-mapped keeps reading its data, and one that opens it afterwards finds nothing
  and rebuilds (every loader already treats a missing file that way).
* **Admission.** Work done for anonymous web requests runs inside :func:`keep_tables_after`:
  a table is then written to disk only the ``n``-th time it is needed (a board worth keeping);
  before that it is kept in a bounded memory store (:data:`MEMORY_BUDGET`) for this process.
  The command line writes on first use (``n`` = 1, or ``$PUZZLE_ENGINE_KEEP_TABLES_AFTER``).
* **Files that appear later.** :meth:`TableCache.appeared` tells, at most once every few
  seconds per file, whether a file has been written since it was last looked at, so a
  long-running server picks up a table that another process built after it started.
* **One build per table.** :meth:`TableCache.building` holds a lock file beside a table
  (``.NAME.lock``, an ``flock`` like the budget's own ``.budget.lock``, removed after) while it
  is built, so the solver workers, the background preparer and ``puzzle prepare`` in another
  process never build one table twice: whoever finds it taken waits, then loads what the
  holder wrote.
* **Which tables exist.** :meth:`TableCache.fingerprint` names the set of files built on purpose
  (pinned), so an answer found without a table can be told from one found with it (the job
  service re-solves a stored answer not proved shortest once the fingerprint has changed).

The whole folder of :func:`engine.cache_dir` counts, whichever plugin wrote a file; hidden files
(the locks, the pin marks), temporary files and sub-folders do not.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import logging
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .i18n import _
from .paths import cache_dir

#: The cache folder's budget when none is configured: room for every built-in table prepared
#: on purpose (sliding's three pattern-database sets, about 0.5 GB; peg solitaire's large
#: tables, about 0.3 GB per board) with plenty to spare, and still a bound.
DEFAULT_BUDGET = 4 * 2**30
BUDGET_ENV = "PUZZLE_ENGINE_CACHE_BUDGET"
KEEP_AFTER_ENV = "PUZZLE_ENGINE_KEEP_TABLES_AFTER"
#: Bytes of tables kept in memory (per process) instead of on disk (see :func:`keep_tables_after`).
MEMORY_BUDGET = 64 * 2**20
#: Seconds between two looks at the same missing or older file (:meth:`TableCache.appeared`).
RECHECK_SECONDS = 10.0
#: Tables whose requests are counted, files watched (the oldest are forgotten past it).
MAX_COUNTED = 4096
#: Seconds between two tries of a build lock another process holds (:meth:`TableCache.building`).
LOCK_POLL_SECONDS = 0.1
#: A temporary file untouched this long was left by a writer that died: it is removed.
STALE_TMP_SECONDS = 3600

log = logging.getLogger("puzzle_engine.cache")

_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?", re.IGNORECASE | re.ASCII)
_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}

_keep_after: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "puzzle_engine_keep_tables_after", default=None)
_pinned: contextvars.ContextVar[bool] = contextvars.ContextVar("puzzle_engine_pinned_tables",
                                                               default=False)
_fresh: contextvars.ContextVar[bool] = contextvars.ContextVar("puzzle_engine_fresh_tables",
                                                              default=False)


def parse_size(text: str) -> int:
    """Bytes from ``"4G"``, ``"512M"``, ``"100k"``, ``"1.5GiB"`` or a plain number (powers of
    1024); ValueError with a sentence for anything else."""
    match = _SIZE.fullmatch(text.strip())
    if not match:
        raise ValueError(_("{text} is not a size: write a number of bytes, optionally followed by k, M, "
                           "G or T (for example 4G or 500M)").format(text=repr(text)))
    return int(float(match[1]) * _UNITS[match[2].lower()])


def cache_budget() -> int:
    """The cache folder's budget in bytes: ``$PUZZLE_ENGINE_CACHE_BUDGET`` (a size such as
    ``2G``) or :data:`DEFAULT_BUDGET`. A value that is not a size is reported once in the log
    and the default applies."""
    text = os.environ.get(BUDGET_ENV, "").strip()
    if not text:
        return DEFAULT_BUDGET
    try:
        return parse_size(text)
    except ValueError as exc:
        _warn_once(f"${BUDGET_ENV}: {exc}; using {DEFAULT_BUDGET // 2**30} GiB")
        return DEFAULT_BUDGET


def _env_keep_after() -> int:
    text = os.environ.get(KEEP_AFTER_ENV, "").strip()
    if text.isascii() and text.isdigit() and int(text) >= 1:
        return int(text)
    if text:
        _warn_once(f"${KEEP_AFTER_ENV} must be a whole number from 1 up; using 1")
    return 1


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        log.warning(message)


@contextlib.contextmanager
def keep_tables_after(times: int) -> Iterator[None]:
    """Within: a table is written to disk only when it is needed for the ``times``-th time in
    this process (1: at once); until then it stays in memory. The web app wraps the work it
    does for a request in this, so one-off boards never reach the disk. A thread started inside
    inherits it only through :func:`contextvars.copy_context`."""
    token = _keep_after.set(max(1, int(times)))
    try:
        yield
    finally:
        _keep_after.reset(token)


@contextlib.contextmanager
def pinned_tables() -> Iterator[None]:
    """Within: tables are written at once and marked as built on purpose, so the budget
    evicts them only after every other file (``puzzle prepare``, ``puzzle pegs table``)."""
    token = _pinned.set(True)
    try:
        with keep_tables_after(1):
            yield
    finally:
        _pinned.reset(token)


@contextlib.contextmanager
def fresh_tables() -> Iterator[None]:
    """Within: :meth:`TableCache.read` finds nothing, so tables are built from scratch (and the
    new files replace the old): to check a table a final answer rests on."""
    token = _fresh.set(True)
    try:
        yield
    finally:
        _fresh.reset(token)


@dataclass(frozen=True)
class Entry:
    """One file of the cache folder as the budget sees it."""

    path: Path
    size: int
    last_used: float
    pinned: bool


class TableCache:
    """The budgeted cache folder (see the module's description). ``directory`` and ``budget``
    default to :func:`engine.cache_dir` and :func:`cache_budget`, read at each use so that a
    changed environment applies at once. Thread-safe; several processes may share a folder."""

    def __init__(self, directory: Path | None = None, budget: int | None = None):
        self._directory = directory
        self._budget = budget
        self._lock = threading.Lock()
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        self._memory_bytes = 0
        self._asked: OrderedDict[str, int] = OrderedDict()
        self._seen: OrderedDict[Path, tuple[float, tuple | None]] = OrderedDict()

    @property
    def directory(self) -> Path:
        return self._directory if self._directory is not None else cache_dir()

    @property
    def budget(self) -> int:
        return self._budget if self._budget is not None else cache_budget()

    def path(self, name: str) -> Path:
        """Where the table file ``name`` lives."""
        return self.directory / name

    # -- reading and writing whole tables ------------------------------------------------------

    def read(self, path: Path) -> BinaryIO | None:
        """The table file at ``path`` opened for reading (from the memory store, else from disk),
        or None when there is none: build it then, and :meth:`write` it. Each call counts as one
        request for the table (see :func:`keep_tables_after`); a table kept in memory that is now
        worth keeping is written to disk here."""
        if _fresh.get():
            return None
        asked = self._ask(path)
        with self._lock:
            blob = self._memory.get(str(path))
            if blob is not None:
                self._memory.move_to_end(str(path))
        if blob is not None:
            if asked >= self._threshold():
                self._to_disk(path, blob)
            return io.BytesIO(blob)
        try:
            f = open(path, "rb")  # noqa: SIM115 - the caller closes it
        except OSError:
            return None
        self.used(path)
        return f

    def write(self, path: Path, writer: Callable[[BinaryIO], None]) -> str:
        """Store a table: ``writer(f)`` writes its bytes. Where it went: ``"disk"`` (written
        atomically, then the folder evicted down to its budget), ``"memory"`` (not worth a file
        yet, or the disk refused it) or ``"nowhere"`` (over the memory store's bound too)."""
        buffer = io.BytesIO()
        writer(buffer)
        blob = buffer.getvalue()
        threshold = self._threshold()
        if (threshold <= 1 or self._asked_count(path) >= threshold) and self._to_disk(path, blob):
            return "disk"
        return "memory" if self._remember(path, blob) else "nowhere"

    def _to_disk(self, path: Path, blob: bytes) -> bool:
        if len(blob) > self.budget:
            return False
        tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as out:
                out.write(blob)
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)
            return False
        with self._lock:
            old = self._memory.pop(str(path), None)
            self._memory_bytes -= len(old) if old is not None else 0
        self.stored(path)
        return True

    def stored(self, path: Path) -> None:
        """Tell the cache that a plugin has just written ``path`` (atomically, by its own means):
        it is marked used (and pinned inside :func:`pinned_tables`), and the folder is evicted
        down to the budget, ``path`` last of all."""
        self.used(path)
        mark = _pin_mark(path)
        if _pinned.get():
            with contextlib.suppress(OSError):
                mark.touch()
        self.evict(keep=path)

    def used(self, path: Path) -> None:
        """Mark ``path`` as just used (call it when a table file is loaded): the least recently
        used files are evicted first."""
        # An explicit time in nanoseconds: the kernel's own clock for file times ticks only every
        # few milliseconds, which would make files used one after the other look equally old.
        global _last_ns
        with _clock:
            _last_ns = max(time.time_ns(), _last_ns + 1)
            now = _last_ns
        with contextlib.suppress(OSError):
            os.utime(path, ns=(now, now))

    # -- the budget ----------------------------------------------------------------------------

    def entries(self) -> list[Entry]:
        """Every file that counts toward the budget, least recently used first (pinned files
        after all others)."""
        out = []
        now = time.time()
        try:
            listing = list(os.scandir(self.directory))
        except OSError:
            return []
        names = {d.name for d in listing}
        for d in listing:
            try:
                if d.name.startswith(".") or not d.is_file(follow_symlinks=False):
                    continue
                st = d.stat(follow_symlinks=False)
            except OSError:
                continue  # evicted meanwhile
            if ".tmp" in d.name:
                if now - st.st_mtime > STALE_TMP_SECONDS:  # its writer died
                    Path(d.path).unlink(missing_ok=True)
                continue
            out.append(Entry(Path(d.path), st.st_size, st.st_mtime, f".{d.name}.pinned" in names))
        out.sort(key=lambda e: (e.pinned, e.last_used))
        return out

    def usage(self) -> int:
        """Bytes the cache folder holds (as :meth:`entries` counts them)."""
        return sum(e.size for e in self.entries())

    def evict(self, keep: Path | None = None) -> list[Path]:
        """Remove the least recently used files until the folder fits its budget; never
        ``keep``. The files removed. One process evicts at a time (a lock file); another that
        finds it busy leaves the work to it."""
        directory = self.directory
        try:
            lock = open(directory / ".budget.lock", "a")  # noqa: SIM115 - closed below
        except OSError:
            return []
        with lock:
            # Without locks (no fcntl) two evictions at once only remove a file twice.
            _flock(lock, wait=True)
            entries = self.entries()
            total = sum(e.size for e in entries)
            budget = self.budget
            removed = []
            for e in entries:
                if total <= budget:
                    break
                if keep is not None and e.path == keep:
                    continue
                try:
                    e.path.unlink()
                except FileNotFoundError:
                    pass
                except OSError:
                    continue
                _pin_mark(e.path).unlink(missing_ok=True)
                total -= e.size
                removed.append(e.path)
        if removed:
            log.info("cache budget %d bytes: evicted %d least recently used files", budget,
                     len(removed))
        return removed

    # -- one build per table -------------------------------------------------------------------

    @contextlib.contextmanager
    def building(self, path: Path, should_stop: Callable[[], bool] | None = None,
                 on_wait: Callable[[], None] | None = None,
                 poll: float = LOCK_POLL_SECONDS) -> Iterator[bool]:
        """Hold the build lock of the table at ``path`` while the block builds it.

        Yields True once the lock is held: look for the file again first (another process may
        have finished it while this one waited), and build it only if it is still missing.
        Yields False when ``should_stop()`` turned true while waiting (the caller gives up, as
        when a build is cancelled). ``on_wait()`` is called once if the lock is taken, before
        waiting (say so: "waiting for the table another process is building"). Where no lock
        can be made (a read-only folder, no ``fcntl``) it yields True at once: the build then
        runs unguarded, as before there were locks, and its atomic write keeps readers safe.

        The lock is an ``flock`` on ``.NAME.lock`` in the table's folder: the kernel lets it go
        when its holder exits, however it dies, so a crashed build never blocks the next one.
        The holder removes the file when it is done (a table kept in memory only must not
        leave a file behind); a waiter that then gets the lock of the removed file sees that
        the name no longer leads to it and takes the lock afresh, so two builders never hold
        it at once."""
        lock_path = path.with_name(f".{path.name}.lock")
        said = False
        while True:
            try:
                lock_path.parent.mkdir(parents=True, exist_ok=True)
                lock = open(lock_path, "a")  # noqa: SIM115 - closed below
            except OSError:
                yield True
                return
            with lock:
                held = _flock(lock, wait=False)
                while held is False:
                    if not said and on_wait is not None:
                        on_wait()
                    said = True
                    if should_stop is not None and should_stop():
                        yield False
                        return
                    time.sleep(poll)
                    held = _flock(lock, wait=False)
                if held and not _same_file(lock, lock_path):
                    continue  # its holder removed it after building: lock the new one
                try:
                    yield True
                finally:
                    with contextlib.suppress(OSError):
                        lock_path.unlink()  # still held: no one else is inside
                    _funlock(lock)
                return

    # -- files that appear later ---------------------------------------------------------------

    def appeared(self, path: Path, every: float | None = None) -> bool:
        """True when ``path`` exists and was written since this cache last looked at it (the
        first look compares with "missing"). Looks at most once every ``every`` seconds
        (default :data:`RECHECK_SECONDS`) per path; False in between."""
        every = RECHECK_SECONDS if every is None else every
        now = time.monotonic()
        with self._lock:
            last, seen = self._seen.get(path, (-float("inf"), None))
            if now - last < every:
                return False
        try:
            st = path.stat()
            state: tuple | None = (st.st_ino, st.st_size, st.st_mtime_ns)
        except OSError:
            state = None
        with self._lock:
            self._seen.pop(path, None)
            self._seen[path] = (now, state)
            while len(self._seen) > MAX_COUNTED:
                self._seen.popitem(last=False)
        # The mtime changes on every use too (:meth:`used`): only a new file (inode) counts.
        return state is not None and (seen is None or seen[:2] != state[:2])

    def fingerprint(self) -> str:
        """A short name for the set of tables built on purpose (pinned files: ``puzzle prepare``,
        the background preparer, ``puzzle pegs table``) now in the folder: their names and sizes,
        hashed. It changes when such a table is added, rebuilt to another size or evicted, and
        not when a file is merely used. ``""`` when there is none."""
        pinned = sorted(f"{e.path.name}:{e.size}" for e in self.entries() if e.pinned)
        if not pinned:
            return ""
        import hashlib
        return hashlib.sha1("\n".join(pinned).encode()).hexdigest()[:16]

    # -- the memory store and the requests counted ---------------------------------------------

    def _threshold(self) -> int:
        keep_after = _keep_after.get()
        return keep_after if keep_after is not None else _env_keep_after()

    def _ask(self, path: Path) -> int:
        key = str(path)
        with self._lock:
            n = self._asked.pop(key, 0) + 1
            self._asked[key] = n
            while len(self._asked) > MAX_COUNTED:
                self._asked.popitem(last=False)
        return n

    def _asked_count(self, path: Path) -> int:
        with self._lock:
            return self._asked.get(str(path), 0)

    def _remember(self, path: Path, blob: bytes) -> bool:
        if len(blob) > MEMORY_BUDGET:
            return False
        key = str(path)
        with self._lock:
            old = self._memory.pop(key, None)
            self._memory_bytes += len(blob) - (len(old) if old is not None else 0)
            self._memory[key] = blob
            while self._memory_bytes > MEMORY_BUDGET:
                _, dropped = self._memory.popitem(last=False)
                self._memory_bytes -= len(dropped)
        return True

    def memory_bytes(self) -> int:
        """Bytes of tables this process keeps in memory instead of on disk."""
        with self._lock:
            return self._memory_bytes


_clock = threading.Lock()
_last_ns = 0


def _flock(lock: BinaryIO | io.TextIOWrapper, wait: bool) -> bool | None:
    """Take the exclusive ``flock`` of an open lock file: True when held, False when another
    holder has it (only without ``wait``), None when this system has no such locks."""
    try:
        import fcntl
    except ImportError:
        return None
    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    except OSError:
        return None  # a file system without locks: go on unguarded
    return True


def _same_file(lock: BinaryIO | io.TextIOWrapper, path: Path) -> bool:
    """Whether ``path`` still names the open file ``lock`` (not removed or replaced)."""
    try:
        a, b = os.fstat(lock.fileno()), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _funlock(lock: BinaryIO | io.TextIOWrapper) -> None:
    with contextlib.suppress(ImportError, OSError):
        import fcntl
        fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def _pin_mark(path: Path) -> Path:
    return path.with_name(f".{path.name}.pinned")


_cache = TableCache()


def table_cache() -> TableCache:
    """The process's table cache (folder :func:`engine.cache_dir`, budget :func:`cache_budget`)."""
    return _cache
