"""Building the big solver tables in the background of a running server or worker.

``puzzle serve`` and ``puzzle worker`` start serving at once, then :class:`BackgroundPreparer`
prepares every solver in one process of its own, in two passes. First the quick tables
(``prepare(ctx)``, seconds: the 15-puzzle's 6-6-3 tables, the peg presets' small tables), at
the server's own priority, as they were built before the server listened until it listened
first (a solve may be waiting for one, and the solver workers run at ``nice`` 5); then the
big ones
(``prepare(ctx, big_builds=True)``, :meth:`engine.Solver.prepare`) at the lowest priority
(``nice`` 19 and, on Linux, the idle scheduling class), on one core, so solves and pages always
come first. Every pass builds on one thread. A table is built once across processes: a solver
worker whose job needs a table this process is building waits for its lock
(:meth:`engine.TableCache.building`) and loads it. Solvers check their own memory
and disk needs and leave a build out when they do not fit; this module also skips everything
while the machine is short of either (:func:`room`).

The process reports into a status the web pages show in words (:meth:`TableStatus.words`):
"Faster tables for the 24-puzzle: building, 43%". A solver tells what it builds through its
progress reports: ``tables`` (what the tables are for, "the 24-puzzle"), ``done`` and ``total``
(or ``percent``), and ``skipped`` (why a build was left out, "not enough memory ...").

Finished tables are files in the cache folder; the solvers in the worker processes find them
there at their next solve (each looks at the disk for a table it has not loaded), so no restart
is needed. :meth:`BackgroundPreparer.close` stops the process: first by its cancel flag, then by
SIGTERM (a table being written is removed by its writer), then by SIGKILL. Table files are only
ever renamed into place whole, so a reader never sees a half-built one.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from dataclasses import asdict, dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Mapping, Sequence

from .i18n import N_, _, format_number
from .paths import cache_dir
from .resources import available_memory, free_disk

log = logging.getLogger("puzzle_engine.background")

#: Below this much available memory nothing is built (each solver checks its own needs too).
MIN_MEMORY = 512 * 2**20
#: Below this much free disk in the cache folder nothing is built.
MIN_DISK = 256 * 2**20
#: Seconds :meth:`BackgroundPreparer.close` waits at each step (cancel flag, SIGTERM).
STOP_GRACE = 3.0

WAITING, BUILDING, READY, SKIPPED, FAILED, STOPPED = (
    "waiting", "building", "ready", "skipped", "failed", "stopped")


@dataclass(frozen=True)
class TableStatus:
    """How preparing one solver in the background goes."""

    puzzle: str
    solver: str
    #: What its tables are for, as the solver names them ("the 24-puzzle"), else the puzzle's title.
    tables: str
    state: str = WAITING
    percent: float | None = None
    #: Why it was skipped or failed.
    reason: str | None = None
    #: Whether the solver reported building anything (a solver with nothing to build stays quiet).
    built: bool = False

    def words(self) -> str:
        """The status as a sentence in the current locale: "Faster tables for the 24-puzzle:
        building, 43%". One whole sentence for each state, so a translator can order it."""
        tables = self.tables
        if self.state == BUILDING and self.percent is not None:
            return _("Faster tables for {tables}: building, {percent}%").format(
                tables=tables, percent=format_number(int(self.percent)))
        if self.state in (SKIPPED, FAILED) and self.reason:
            said = _(self.reason)  # the fixed reasons are marked with N_; others stay as written
            if self.state == SKIPPED:
                return _("Faster tables for {tables}: skipped: {reason}").format(tables=tables, reason=said)
            return _("Faster tables for {tables}: failed: {reason}").format(tables=tables, reason=said)
        sentences = {
            WAITING: N_("Faster tables for {tables}: waiting"),
            BUILDING: N_("Faster tables for {tables}: building"),
            READY: N_("Faster tables for {tables}: ready"),
            SKIPPED: N_("Faster tables for {tables}: skipped"),
            FAILED: N_("Faster tables for {tables}: failed"),
            STOPPED: N_("Faster tables for {tables}: stopped"),
        }
        if self.state in sentences:
            return _(sentences[self.state]).format(tables=tables)
        return _("Faster tables for {tables}: {state}").format(tables=tables, state=self.state)

    @property
    def worth_saying(self) -> bool:
        """Whether a page should show it: it builds or built something, or could not."""
        return self.built or self.state in (SKIPPED, FAILED)

    def to_json(self) -> dict:
        return {**asdict(self), "text": self.words()}


def room(directory: Path | None = None) -> str | None:
    """Why nothing should be built now (memory or disk short), or None when there is room."""
    memory = available_memory()
    if memory is not None and memory < MIN_MEMORY:
        return f"not enough memory ({_gb(memory)} free, needs at least {_gb(MIN_MEMORY)})"
    folder = directory or cache_dir()
    disk = free_disk(folder)
    if disk is None:
        return None
    if disk < MIN_DISK:
        return f"not enough disk in {folder} ({_gb(disk)} free, needs at least {_gb(MIN_DISK)})"
    return None


def _gb(n: int) -> str:
    return f"{n / 1e9:.1f} GB"


def percent_of(stats: Mapping[str, Any]) -> float | None:
    """A progress report's percentage: ``percent``, else ``done`` of ``total``; None if neither."""
    value = stats.get("percent")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return max(0.0, min(100.0, float(value)))
    done, total = stats.get("done"), stats.get("total")
    if isinstance(done, (int, float)) and isinstance(total, (int, float)) and total \
            and not isinstance(done, bool) and not isinstance(total, bool):
        return max(0.0, min(100.0, 100.0 * done / total))
    return None



class BackgroundPreparer:
    """Runs ``prepare(big_builds=True)`` of every solver in one low-priority process.

    ``registry_factory`` is the dotted path the process loads the plugins with (as the job
    workers do); ``puzzle_ids`` limits it to those puzzles. :meth:`start` returns at once;
    :meth:`statuses` and :meth:`to_json` tell how it goes; :meth:`close` stops it. With
    ``log_changes`` each change of state is written to the log (``puzzle worker`` has no page).
    """

    def __init__(self, registry_factory: str, puzzle_ids: Sequence[str] = (), *,
                 log_changes: bool = False, start_method: str = "spawn") -> None:
        self.registry_factory = registry_factory
        self.puzzle_ids = tuple(puzzle_ids)
        self.log_changes = log_changes
        self._mp = multiprocessing.get_context(start_method)
        self._lock = threading.Lock()
        self._statuses: dict[tuple[str, str], TableStatus] = {}
        self._state = "not started"
        self._note: str | None = None
        self._process: Any = None
        self._reader: threading.Thread | None = None
        self._cancel = self._mp.Event()
        self._finished = threading.Event()

    # -- what the pages read ------------------------------------------------------------------

    @property
    def state(self) -> str:
        """"not started", "running", "finished", "stopped" or "failed"."""
        with self._lock:
            return self._state

    def statuses(self) -> list[TableStatus]:
        with self._lock:
            return list(self._statuses.values())

    def builds_done(self) -> int:
        """How many solvers have finished building something (grows as tables are added)."""
        with self._lock:
            return sum(1 for s in self._statuses.values() if s.state == READY and s.built)

    def to_json(self) -> dict:
        """``{"state": ..., "note": ..., "tables": [TableStatus JSON worth saying]}``."""
        with self._lock:
            return {"state": self._state, "note": self._note,
                    "tables": [s.to_json() for s in self._statuses.values() if s.worth_saying]}

    # -- running ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the process (once); returns at once."""
        with self._lock:
            if self._process is not None:
                return
            parent, child = self._mp.Pipe(duplex=False)
            self._process = self._mp.Process(  # type: ignore[attr-defined]
                target=_main, args=(child, self._cancel, self.registry_factory, self.puzzle_ids),
                name="puzzle-prepare", daemon=True)
            self._state = "running"
        self._process.start()
        child.close()
        self._reader = threading.Thread(target=self._read, args=(parent,), daemon=True,
                                        name="puzzle-prepare-status")
        self._reader.start()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the process has ended; whether it has."""
        return self._finished.wait(timeout)

    def close(self, grace: float = STOP_GRACE) -> None:
        """Stop the process: cancel flag, then SIGTERM, then SIGKILL, ``grace`` s apart."""
        process = self._process
        if process is None:
            return
        self._cancel.set()
        process.join(grace)
        if process.is_alive():
            process.terminate()  # SIGTERM: SystemExit in the child, whose writers clean up
            process.join(grace)
        if process.is_alive():
            process.kill()
            process.join(grace)
        if self._reader is not None:
            self._reader.join(grace)
        with self._lock:
            if self._state == "running":
                self._state = "stopped"
            self._statuses = {k: replace(s, state=STOPPED) if s.state in (WAITING, BUILDING) else s
                              for k, s in self._statuses.items()}

    def _read(self, conn: Connection) -> None:
        try:
            while True:
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    break
                self._apply(message)
        finally:
            conn.close()
            process = self._process
            if process is not None:
                process.join(STOP_GRACE)
            with self._lock:
                if self._state == "running" and self._cancel.is_set():
                    self._state = "stopped"  # told to (close), by the flag or by SIGTERM
                elif self._state == "running":
                    code = process.exitcode if process is not None else None
                    self._state = "failed"
                    self._note = f"the preparing process ended early (exit code {code})"
            self._finished.set()

    def _apply(self, message: tuple) -> None:
        kind = message[0]
        with self._lock:
            if kind == "plan":
                for puzzle, title, solver in message[1]:
                    self._statuses[(puzzle, solver)] = TableStatus(puzzle, solver, title)
                return
            if kind in ("finished", "stopped", "skipped all"):
                self._state = "stopped" if kind == "stopped" else "finished"
                if kind == "skipped all":
                    self._note = message[1]
                    # (Quick tables the first pass built stay "ready".)
                    self._statuses = {k: s if s.state == READY and s.built
                                      else replace(s, state=SKIPPED, reason=message[1])
                                      for k, s in self._statuses.items()}
                return
            key = (message[1], message[2])
            old = self._statuses.get(key) or TableStatus(message[1], message[2], message[1])
            if kind == "progress":
                stats = message[3]
                new = replace(old, state=BUILDING if old.state != SKIPPED else SKIPPED,
                              tables=stats.get("tables") or old.tables,
                              percent=percent_of(stats), built=old.built or _builds(stats))
                if stats.get("skipped"):
                    new = replace(new, state=SKIPPED, reason=str(stats["skipped"]), percent=None)
            elif kind == "start":
                new = replace(old, state=BUILDING)
            else:  # ("done", puzzle, solver, ready, error)
                ready, error = message[3], message[4]
                if error:
                    new = replace(old, state=FAILED, reason=error, percent=None)
                elif old.state == SKIPPED:
                    new = old
                else:
                    new = replace(old, state=READY if ready else STOPPED, percent=None)
            self._statuses[key] = new
        if self.log_changes and new.state != old.state and new.worth_saying:
            log.info("%s", new.words())


def _builds(stats: Mapping[str, Any]) -> bool:
    return percent_of(stats) is not None or bool(stats.get("tables"))


def _main(conn: Connection, cancel: Any, registry_factory: str, puzzle_ids: Sequence[str]) -> None:
    """The preparing process: lower its priority, then prepare solver after solver."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's business

    def stop(_signum: int, _frame: Any) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    _one_build_thread()
    from .context import SolveContext
    from .jobs.model import load_object
    from .solving import prepare_one

    registry = load_object(registry_factory)()
    puzzles = [registry.puzzle(p) for p in puzzle_ids] or list(registry.puzzles.values())
    plan = [(p, s) for p in puzzles for s in registry.solvers(p.id)]
    conn.send(("plan", [(p.id, p.title, s.name) for p, s in plan]))

    def one(puzzle: Any, solver: Any, big_builds: bool) -> None:
        conn.send(("start", puzzle.id, solver.name))

        def report(stats: Mapping[str, Any], _p: str = puzzle.id, _s: str = solver.name) -> None:
            with contextlib.suppress(TypeError, ValueError):
                conn.send(("progress", _p, _s, {k: v for k, v in stats.items()
                                                 if k in ("tables", "done", "total", "percent",
                                                          "skipped")}))

        ctx = SolveContext(cancel=cancel, on_progress=report, progress_interval=1.0)
        done = prepare_one(puzzle.id, solver, ctx, big_builds=big_builds)
        conn.send(("done", puzzle.id, solver.name, done.ready, done.error))

    # The quick tables first, whatever the room: a solve would build them anyway (and waits
    # for this build rather than making its own, see engine.TableCache.building). The
    # quickest first, so the most solvers are ready soonest (the 15-puzzle's 6-6-3 tables,
    # about 10 s, before the peg presets' small tables, about 25 s in all).
    for puzzle, solver in sorted(plan, key=lambda ps: _quick_seconds(ps[1])):
        if cancel.is_set():
            conn.send(("stopped",))
            return
        one(puzzle, solver, big_builds=False)
    short = room()
    if short is not None:
        conn.send(("skipped all", short))
        return
    _lower_priority()
    for puzzle, solver in plan:
        if cancel.is_set():
            conn.send(("stopped",))
            return
        one(puzzle, solver, big_builds=True)
    conn.send(("stopped",) if cancel.is_set() else ("finished",))


def _quick_seconds(solver: Any) -> float:
    """About how long ``solver.prepare()`` would build (0 when it would build nothing)."""
    try:
        return float(solver.prepare_cost(big_builds=False).seconds)
    except Exception:  # noqa: BLE001 - an estimate is not worth failing over
        return 0.0


def _one_build_thread() -> None:
    """One build thread (set before the plugins load, so numba and the builds see it)."""
    for name in ("PUZZLE_ENGINE_BUILD_THREADS", "NUMBA_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ[name] = "1"


def _lower_priority() -> None:
    """Lowest priority, one core: the server's own work always comes first (the big pass)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    with contextlib.suppress(OSError, AttributeError):
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[-1]})
