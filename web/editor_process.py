"""The editor's requests in a process of their own, so they never hold the web process's lock.

Every editor request (validate, edit, random, replay, describe, tasks: see
:data:`web.clients.HEAVY_ENDPOINTS`) computes a board state and its verdict in Python, which
takes milliseconds of CPU under the interpreter lock. In one process, a flood of them from a
few clients slowed every cheap request behind them: ``/api/puzzles`` went from a p50 of 2.6 ms
to more than 100 ms, even with the number of editor requests in flight bounded. So
``puzzle serve`` runs a second copy of the app in a child process (:class:`EditorProcess`),
serving a Unix socket that only this process knows, and forwards the editor's requests to it;
a forwarding thread waits on a socket, which holds no lock, and cheap requests keep their speed.

The child also bounds what one client can take:

* **Per request:** a request that runs longer than ``request_seconds`` is stopped by killing
  the child (a new one starts at once) and answers 503 in words.
* **Per client:** the child reports the CPU time of each request (``X-Puzzle-CPU``). A client
  that has used ``cpu_per_client`` CPU-seconds within the last ``window`` seconds answers 429
  with ``Retry-After`` until its older requests leave the window; other clients go on.

If the child cannot be started or dies, requests are served in this process as before: slower
under load, never refused for it.
"""

from __future__ import annotations

import http.client
import logging
import multiprocessing
import os
import shutil
import socket
import tempfile
import threading
import time
from collections import defaultdict, deque
from pathlib import Path

from flask import Flask, Response, g, request
from flask_babel import format_decimal, gettext

from .clients import HEAVY_ENDPOINTS, Busy, client_of

log = logging.getLogger(__name__)

#: The header that carries the client's name to the child (set here, trusted there: only this
#: process can reach the child's socket).
CLIENT_HEADER = "X-Puzzle-Client"
#: The header that carries a request's CPU seconds back from the child (removed here).
CPU_HEADER = "X-Puzzle-CPU"
#: A request that takes longer than this is stopped (editor requests take milliseconds; a
#: verdict that needs a table builds it in the background and answers "being built").
REQUEST_SECONDS = 20.0
#: The window of the per-client CPU budget (``puzzle serve --editor-cpu`` gives the budget).
WINDOW_SECONDS = 60.0
#: How long the parent waits for a new child to answer before serving in-process.
START_SECONDS = 60.0
#: Endpoints kept in this process although heavy: they read the job store, which may be this
#: process's memory.
IN_PROCESS = frozenset({"api.describe_job_moves"})
FORWARDED = HEAVY_ENDPOINTS - IN_PROCESS
#: Request headers passed to the child (the rest concern the connection, not the request).
PASSED_REQUEST_HEADERS = ("Content-Type", "Accept", "Accept-Language")
#: Response headers not passed back (the WSGI server sets its own).
DROPPED_RESPONSE_HEADERS = frozenset({"connection", "content-length", "transfer-encoding",
                                      "server", "date", CPU_HEADER.lower()})


class CpuShares:
    """CPU-seconds each client used in a sliding window (thread-safe)."""

    def __init__(self, budget: float, window: float) -> None:
        self.budget = float(budget)
        self.window = float(window)
        self._lock = threading.Lock()
        self._spent: dict[str, deque[tuple[float, float]]] = defaultdict(deque)

    def _trim(self, key: str, now: float) -> deque[tuple[float, float]]:
        spent = self._spent[key]
        while spent and spent[0][0] <= now - self.window:
            spent.popleft()
        return spent

    def check(self, client: str | None) -> None:
        """Raise :class:`Busy` (a 429) when the client has used its budget in the window."""
        key, now = client or "", time.monotonic()
        with self._lock:
            spent = self._trim(key, now)
            total = sum(cpu for _, cpu in spent)
            if total < self.budget:
                if not spent:
                    del self._spent[key]  # keep no entry for clients that went away
                return
            # Free enough for the next request once the oldest entries leave the window.
            freed, wait = total, self.window
            for at, cpu in spent:
                freed -= cpu
                wait = at + self.window - now
                if freed < self.budget:
                    break
        raise Busy(gettext("your editor requests used %(cpu)s CPU-seconds in the last %(window)s s, the most "
                           "one visitor may; try again in %(wait)s s", cpu=format_decimal(round(total)),
                           window=format_decimal(round(self.window)), wait=format_decimal(max(1, round(wait)))),
                   retry_after=max(1, round(wait)), lasting=True)

    def add(self, client: str | None, cpu: float) -> None:
        if cpu > 0:
            with self._lock:
                self._spent[client or ""].append((time.monotonic(), cpu))

    def used(self, client: str | None) -> float:
        """CPU-seconds the client used in the window (for tests and the soak report)."""
        with self._lock:
            return sum(cpu for _, cpu in self._trim(client or "", time.monotonic()))


class _UnixConnection(http.client.HTTPConnection):
    """HTTP over the child's Unix socket."""

    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("editor", timeout=timeout)
        self._path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(self._path)
        except OSError:
            sock.close()
            raise
        self.sock = sock


class RequestTooLong(Exception):
    """The child took longer than the request's bound and was stopped."""


def _name_process(name: bytes) -> None:
    """Name this process in ``ps``/``top`` (Linux's ``comm``), so operators and the soak
    bench can tell the editor process from the solver workers."""
    try:
        import ctypes
        ctypes.CDLL(None).prctl(15, name, 0, 0, 0)  # 15: PR_SET_NAME
    except (OSError, AttributeError):
        pass


def _watch_parent(parent: int) -> None:
    """End this process when its parent is gone (killed without a chance to stop it): an
    orphaned child would hold the server's output open and serve a socket nobody reads."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _child_main(socket_path: str, config: dict, threads: int) -> None:
    """The child: the same app, serving the editor's requests on a Unix socket."""
    import waitress

    threading.Thread(target=_watch_parent, args=(os.getppid(),), name="parent-watch",
                     daemon=True).start()

    from . import create_app

    os.environ.pop("PUZZLE_ENGINE_REDIS", None)  # it runs no jobs; never open the shared store
    _name_process(b"puzzle-editor")
    app = create_app(config)
    waitress.serve(app, unix_socket=socket_path, unix_socket_perms="600", threads=threads,
                   ident="puzzle-engine-editor", _quiet=True)


class EditorProcess:
    """The child process that serves the editor's requests, and the forwarding to it."""

    def __init__(self, config: dict, *, threads: int = 2, request_seconds: float = REQUEST_SECONDS,
                 cpu_per_client: float = float("inf"), window: float = WINDOW_SECONDS) -> None:
        # The child builds its own registry and keeps no answers: a store in a folder of its own.
        self.config = {key: value for key, value in config.items()
                       if key not in ("REGISTRY", "REDIS_URL", "DATA_DIR")}
        self.threads = threads
        self.request_seconds = request_seconds
        self.shares = CpuShares(cpu_per_client, window)
        # A Unix socket's path may have at most 107 bytes: under /tmp, not a long $TMPDIR.
        short = "/tmp" if os.path.isdir("/tmp") and os.access("/tmp", os.W_OK) else None
        self._folder = Path(tempfile.mkdtemp(prefix="puzzle-editor-", dir=short))
        self.socket_path = str(self._folder / "editor.sock")
        self.config.update(CLIENT_HEADER=CLIENT_HEADER, EDITOR_CHILD=True, JOB_WORKERS=1,
                           PREPARE_SOLVERS=False,
                           PREPARE_IN_BACKGROUND=False, DATA_DIR=str(self._folder / "data"))
        self._process: multiprocessing.process.BaseProcess | None = None
        self._lock = threading.Lock()
        self._closed = False

    # -- the child's life ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the child (it loads the plugins in the background; until it answers, requests
        are served in this process)."""
        with self._lock:
            self._spawn()

    def _spawn(self) -> None:
        if self._closed:
            return
        try:
            os.unlink(self.socket_path)
        except FileNotFoundError:
            pass
        # spawn, not fork: this process has threads, and a forked copy of a lock held by one of
        # them would never be released in the child.
        context = multiprocessing.get_context("spawn")
        self._process = context.Process(target=_child_main, name="puzzle-editor", daemon=True,
                                        args=(self.socket_path, self.config, self.threads))
        self._process.start()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def wait_ready(self, seconds: float = START_SECONDS) -> bool:
        """Wait until the child answers on its socket; False after ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.alive() and os.path.exists(self.socket_path):
                try:
                    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                        probe.connect(self.socket_path)
                    return True
                except OSError:
                    pass
            time.sleep(0.05)
        return False

    def restart(self, seen_pid: int | None) -> None:
        """Replace the child (unless another thread already replaced the one it saw)."""
        with self._lock:
            if self._process is not None and self._process.pid != seen_pid:
                return
            self._kill()
            self._spawn()

    def _kill(self) -> None:
        if self._process is not None and self._process.is_alive():
            self._process.kill()
            self._process.join(5)
        self._process = None

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._kill()
        shutil.rmtree(self._folder, ignore_errors=True)

    # -- forwarding -----------------------------------------------------------------------------

    def forward(self, client: str | None) -> Response | None:
        """Send the current request to the child and give its answer; None when the child is
        not there (the caller then serves the request itself)."""
        if not self.alive():
            if self._process is not None:  # it died (killed, out of memory): start a new one
                self.restart(self.pid)
            return None
        if not os.path.exists(self.socket_path):  # still starting
            return None
        self.shares.check(client)  # Busy: a 429
        pid = self.pid
        headers = {name: request.headers[name] for name in PASSED_REQUEST_HEADERS
                   if name in request.headers}
        headers[CLIENT_HEADER] = client or ""
        connection = _UnixConnection(self.socket_path, timeout=self.request_seconds)
        try:
            connection.request(request.method, request.full_path if request.query_string
                               else request.path, body=request.get_data(), headers=headers)
            answer = connection.getresponse()
            body = answer.read()
        except TimeoutError:
            log.warning("an editor request from %s took longer than %.0f s; restarting the "
                        "editor process", client, self.request_seconds)
            self.restart(pid)
            seconds = format_decimal(round(self.request_seconds))
            raise RequestTooLong(gettext("this request took longer than %(seconds)s s and was stopped; try a "
                                         "smaller board", seconds=seconds)) from None
        except (ConnectionError, FileNotFoundError, http.client.HTTPException, OSError):
            if not self.alive():  # it died (killed, out of memory): a new one for next time
                self.restart(pid)
            return None
        finally:
            connection.close()
        try:
            self.shares.add(client, float(answer.getheader(CPU_HEADER) or 0))
        except ValueError:
            pass
        response = Response(body, status=answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in DROPPED_RESPONSE_HEADERS:
                response.headers[name] = value
        return response


def install(app: Flask, editor: EditorProcess) -> None:
    """Forward the app's editor requests to ``editor`` (after the heavy-request gate)."""
    app.extensions["puzzle_editor_process"] = editor

    @app.before_request
    def _forward_editor_request():
        if request.endpoint in FORWARDED:
            return editor.forward(g.heavy_client[0] if "heavy_client" in g else client_of())
        return None


def install_child(app: Flask) -> None:
    """In the child: report each request's CPU time to the parent."""

    @app.before_request
    def _start_cpu_clock() -> None:
        g.cpu_started = time.thread_time()

    @app.after_request
    def _report_cpu(response: Response) -> Response:
        started = g.pop("cpu_started", None)
        if started is not None:
            response.headers[CPU_HEADER] = f"{time.thread_time() - started:.6f}"
        return response
