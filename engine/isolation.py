"""Solving in a child process, so a plugin solver cannot hang or take down its caller.

The CLI solves through :func:`solve_isolated`, under the same rules as the web app's job
workers: the solver gets a cooperative deadline (its time limit); a child that is still running
``grace`` seconds past it is killed, and so is one that does not stop within ``grace`` seconds of
a cancel. Checking a found answer is not charged to the time limit: when the child reports that
it is checking ``n`` moves, the kill deadline moves out as :mod:`engine.deadlines` says (the
rule every supervisor shares). A child that dies on its own (a crash, ``os._exit``) is reported, never mistaken for
an answer.

The child is forked where the platform allows (the loaded plugins are inherited, so a solve
starts at once) and spawned elsewhere (it then loads the plugins itself).
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .deadlines import DEFAULT_GRACE, KillClock
from .errors import EnvironmentProblem, InputError, PluginError, SolverError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import ForkContext, SpawnContext
    from multiprocessing.process import BaseProcess

    from .context import CancelFlag

#: How often the parent looks at the child, in seconds.
POLL_SECONDS = 0.05


class ChildFailed(PluginError):
    """The solving child ended without an answer: it exited or died (``exitcode`` as
    multiprocessing gives it: negative for a signal)."""

    def __init__(self, message: str, exitcode: int | None, plugin: str | None = None):
        super().__init__(message, plugin=plugin)
        self.exitcode = exitcode


@dataclass(frozen=True)
class Stopped:
    """The child was killed: ``reason`` is ``"deadline"`` (it ignored its time limit) or
    ``"cancelled"`` (it did not stop within the grace period of a cancel)."""

    reason: str
    message: str


_ERRORS = {"input": InputError, "solver": SolverError, "plugin": PluginError,
           "environment": EnvironmentProblem}


def _child_main(conn: Connection, cancel: CancelFlag, registry_factory: Callable[[], Any] | None,
                args: tuple) -> None:
    """The child: solve once, send ("done", report JSON) or ("error", kind, message, plugin)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    from .plugins import get_registry
    from .solving import solve

    puzzle_id, text, solver_name, timeout = args

    def on_progress(stats: Mapping[str, Any]) -> None:
        conn.send(("progress", dict(stats)))

    try:
        registry = registry_factory() if registry_factory else get_registry()
        report = solve(registry, puzzle_id, text, solver_name, timeout=timeout,
                       on_progress=on_progress, cancel=cancel)
        conn.send(("done", report.to_json()))
    except InputError as exc:
        conn.send(("error", "input", str(exc), None))
    except SolverError as exc:
        conn.send(("error", "solver", exc.message, None))
    except EnvironmentProblem as exc:
        conn.send(("error", "environment", exc.message, exc.plugin))
    except PluginError as exc:
        conn.send(("error", "plugin", exc.message, exc.plugin))
    except Exception as exc:  # whatever is left is a plugin's doing
        conn.send(("error", "plugin", f"the solve failed: {type(exc).__name__}: {exc}", None))
    finally:
        conn.close()


def _context() -> ForkContext | SpawnContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork") if "fork" in methods else multiprocessing.get_context("spawn")


def solve_isolated(puzzle_id: str, instance_text: str, solver_name: str | None = None,
                   timeout: float | None = None, *, grace: float = DEFAULT_GRACE,
                   on_progress: Callable[[Mapping[str, Any]], None] | None = None,
                   registry_factory: Callable[[], Any] | None = None,
                   solver_label: str = "the solver") -> dict | Stopped:
    """Solve in a child process; the report's JSON (as ``SolveReport.to_json()``) or Stopped.

    Raises what the solve raised in the child (InputError, SolverError, PluginError,
    EnvironmentProblem, with the child's message), or :class:`ChildFailed` if the child died
    without an answer. KeyboardInterrupt in the parent cancels the child politely and waits up
    to ``grace`` seconds for its answer (a second Ctrl+C, or the grace running out, kills it).
    ``solver_label`` names the solver in messages ("solver 'fast' of plugin 'sliding'").
    """
    ctx = _context()
    parent_conn, child_conn = ctx.Pipe(duplex=False)
    cancel = ctx.Event()
    child = ctx.Process(target=_child_main, daemon=True,
                        args=(child_conn, cancel, registry_factory,
                              (puzzle_id, instance_text, solver_name, timeout)))
    child.start()
    child_conn.close()
    started = time.monotonic()
    clock = KillClock(started, timeout, grace)
    cancelled_at = None
    try:
        while True:
            try:
                message = _receive(parent_conn, child)
                if message is None:  # the child ended without a word
                    child.join()
                    code = child.exitcode
                    how = (f"was killed by signal {-code}" if code is not None and code < 0
                           else f"exited with code {code}")
                    raise ChildFailed(f"{solver_label} ended its process without an answer "
                                      f"(it {how})", code)
                if message == "idle":
                    now = time.monotonic()
                    if cancelled_at is not None and now > cancelled_at + grace:
                        _kill(child)
                        return Stopped("cancelled", f"{solver_label} did not stop within "
                                                    f"{grace:g} s of being cancelled, so it "
                                                    f"was killed")
                    if clock.passed(now):
                        _kill(child)
                        if cancelled_at is not None:
                            return Stopped("cancelled", f"{solver_label} did not stop within "
                                                        f"{grace:g} s of being cancelled, so it "
                                                        f"was killed")
                        return Stopped("deadline", f"{solver_label} ignored its {timeout:g} s "
                                                   f"time limit, so it was killed after "
                                                   f"{now - started:.1f} s")
                    continue
                kind = message[0]
                if kind == "progress":
                    stats = message[1]
                    clock.observe(stats, time.monotonic())
                    if on_progress is not None:
                        on_progress(stats)
                elif kind == "done":
                    return message[1]
                elif kind == "error":
                    _, what, text, plugin = message
                    error = _ERRORS[what]
                    if error is InputError:
                        raise InputError(text)
                    if error is SolverError:
                        raise SolverError(text)
                    raise error(text, plugin=plugin)
            except KeyboardInterrupt:
                if cancelled_at is not None:  # a second Ctrl+C: stop now
                    _kill(child)
                    return Stopped("cancelled", "cancelled")
                cancelled_at = time.monotonic()
                cancel.set()
    finally:
        if child.is_alive():
            _kill(child)
        parent_conn.close()
        child.join(timeout=5)
        if hasattr(child, "close") and child.exitcode is not None:
            child.close()


def _receive(conn: Connection, child: BaseProcess) -> Any:
    """The child's next message, ``"idle"`` if none came within POLL_SECONDS, None if it ended."""
    try:
        if conn.poll(POLL_SECONDS):
            return conn.recv()
    except (EOFError, OSError):
        return None
    if not child.is_alive():
        # It may have sent its last message just before ending.
        try:
            return conn.recv() if conn.poll(0) else None
        except (EOFError, OSError):
            return None
    return "idle"


def _kill(child: BaseProcess) -> None:
    child.kill()
    child.join(timeout=5)
