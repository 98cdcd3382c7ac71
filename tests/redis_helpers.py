"""A real redis-server and `puzzle worker` processes for the distributed job tests.

:class:`RedisServer` starts Debian's ``redis-server`` on a free port in a temp dir, with AOF on,
and can stop and restart it on the same port and data. :func:`start_worker` starts
``puzzle worker`` with the job tests' toy plugins.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

TESTS = Path(__file__).parent
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, directory: Path):
        self.dir = Path(directory)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
             "--appendonly", "yes", "--save", "",
             # No fsync at all: Redis still writes the AOF after every command, so a killed
             # server leaves it whole in the page cache, and a stop (SIGTERM) syncs it. On a disk
             # that other tests fill, each fsync also waits for their writes (ext4 orders the
             # journal), which stalled every Redis client by seconds.
             "--appendfsync", "no",
             "--daemonize", "no", "--logfile", str(self.dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start: {(self.dir / 'redis.log').read_text()}")
            time.sleep(0.05)

    def restart_empty(self) -> None:
        """A restart without persistence: stop, lose every key (the AOF is gone), start again on
        the same port."""
        self.stop()
        for path in self.dir.iterdir():
            if path.name != "redis.log":
                shutil.rmtree(path) if path.is_dir() else path.unlink()
        self.start()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: redis flushes the AOF and exits
            self.process.wait(10)
        self.process = None


def worker_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    env.pop("PUZZLE_ENGINE_REDIS", None)
    return env


def start_worker(url: str, queue: str, factory: str = "jobs_toy:jobs_registry",
                 burst: bool = False, prepare: bool = False, name: str | None = None,
                 stderr=subprocess.PIPE) -> subprocess.Popen:
    args = [sys.executable, "-m", "engine.cli", "worker", "--redis", url, "--queue", queue,
            "--prepare" if prepare else "--no-prepare", "--registry-factory", factory]
    if burst:
        args.append("--burst")
    if name:
        args += ["--name", name]
    return subprocess.Popen(args, env=worker_env(), stdout=subprocess.DEVNULL,
                            stderr=stderr, text=True)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
