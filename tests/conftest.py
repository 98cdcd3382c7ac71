"""Shared test set-up: the toy puzzle's folder on sys.path, the toy web app fixtures, and a real
Redis server with queue names and workers for the tests that use one."""

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

# The engine tests' toy puzzles live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The web app over the toy "pairs" puzzle only (workers load it by dotted path)."""
    from pairs_toy import TOY_FACTORY, toy_registry

    from web import create_app

    app = create_app({"REGISTRY": toy_registry(), "REGISTRY_FACTORY": TOY_FACTORY,
                      "DATA_DIR": str(tmp_path_factory.mktemp("data")), "TESTING": True})
    yield app
    app.extensions["puzzle_jobs"].close()


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def tangram_client(tmp_path_factory):
    """A test client of the web app over the installed puzzles (the tangram's picture routes)."""
    from engine.plugins import load_registry
    from web import create_app

    app = create_app({"REGISTRY": load_registry(), "DATA_DIR": str(tmp_path_factory.mktemp("data")),
                      "TESTING": True})
    yield app.test_client()
    app.extensions["puzzle_jobs"].close()


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """A real ``redis-server`` on a free port in a temporary folder, for one test module."""
    from redis_helpers import RedisServer

    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


_queues = itertools.count()


@pytest.fixture()
def queue():
    """A queue name no other test uses."""
    return f"test-{os.getpid()}-{next(_queues)}"


@pytest.fixture()
def workers():
    """Worker processes a test starts (append them); stopped after the test."""
    from redis_helpers import stop

    started: list[subprocess.Popen] = []
    yield started
    for process in started:
        stop(process)



@pytest.fixture(scope="module")
def small_tables(tmp_path_factory):
    """Compact tables for the small sliding partitions (tests/sliding_tables.py), built in a
    cache of the module's own, by board side."""
    from sliding_tables import SMALL_3X3, SMALL_4X4

    from plugins.sliding import pdb_compact as pc

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PUZZLE_ENGINE_CACHE", str(tmp_path_factory.mktemp("cpdb")))
        pc.forget_loaded()
        yield {3: pc.get_tables(3, 3, SMALL_3X3), 4: pc.get_tables(4, 4, SMALL_4X4)}
    pc.forget_loaded()


@pytest.fixture()
def without_outline_readers(monkeypatch):
    """The picture reader with its outline readers taken away (each raises if called), for
    tests of what is read from the pieces themselves: coloured pieces, a drawn solution."""
    from plugins.tangram import trace

    def no_outline(*_args, **_kwargs):
        raise AssertionError("the outline was read")
    monkeypatch.setattr(trace, "read_noisy", no_outline)
    monkeypatch.setattr(trace, "read_by_pieces", no_outline)
