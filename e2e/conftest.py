"""Fixtures for the browser tests: the real server on a free port, Debian's Chromium, and
screenshots at 375 px and 1280 px of any page whose test failed (in e2e/artifacts/).
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest
from e2e_helpers import serving

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).parent / "artifacts"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """Base URL of a real `puzzle serve` (waitress + worker processes) with a temp data dir."""
    with serving(tmp_path_factory.mktemp("e2e-data")) as base:
        yield base


@pytest.fixture(scope="session")
def installed(server) -> dict:
    """The puzzles the server offers, as the API describes them (id -> details)."""
    with urllib.request.urlopen(server + "/api/puzzles") as response:
        return {p["id"]: p for p in json.load(response)["puzzles"]}


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (scripts/setup.sh --browser)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture()
def context(browser, request):
    """A fresh browser context; on failure, every page it opened is photographed."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    errors: list[str] = []
    context.on("page", lambda page: page.on("pageerror", lambda exc: errors.append(str(exc))))
    context.js_errors = errors
    yield context
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    if failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = "".join(c if c.isalnum() or c in "-_" else "_" for c in request.node.name)
        for index, page in enumerate(context.pages):
            for width in (375, 1280):
                try:
                    page.set_viewport_size({"width": width, "height": 900})
                    page.screenshot(path=str(ARTIFACTS / f"{name}-page{index}-{width}.png"), full_page=True)
                except Exception:  # a crashed page still must not hide the real failure
                    pass
    context.close()


@pytest.fixture()
def zh_page(browser):
    """A page in a browser whose language is zh-CN (docs/i18n.md), failing the test on any
    JavaScript error it raised."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    context.set_default_timeout(15_000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture()
def page(context):
    page = context.new_page()
    yield page
    assert not context.js_errors, f"JavaScript errors on the page: {context.js_errors}"
