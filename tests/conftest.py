"""Shared test set-up: the toy puzzle's folder on sys.path, and the toy web app fixtures."""

import sys
from pathlib import Path

import pytest

# The engine tests' toy puzzles live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The web app over the toy "pairs" puzzle only (workers load it by dotted path)."""
    from test_web_toy import TOY_FACTORY, toy_registry

    from web import create_app

    app = create_app({"REGISTRY": toy_registry(), "REGISTRY_FACTORY": TOY_FACTORY,
                      "DATA_DIR": str(tmp_path_factory.mktemp("data")), "TESTING": True})
    yield app
    app.extensions["puzzle_jobs"].close()


@pytest.fixture()
def client(app):
    return app.test_client()
