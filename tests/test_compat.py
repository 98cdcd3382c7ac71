"""Compatibility the host checks: a plugin's puzzle-engine range, read from its own metadata
before it is imported; deprecations naming the plugin; host packages another distribution
shadows; and the requirement lines `puzzle plugins --requirements` prints."""

from __future__ import annotations

import importlib
import json
import sys
import tomllib
import warnings
from importlib import metadata
from pathlib import Path

import pluggy
import pytest
from click.testing import CliRunner
from packaging.requirements import Requirement
from packaging.version import Version
from plugin_packages import make_plugin

from engine import compat
from engine.compat import CONTRACT_VERSION, contract_range, host_version, incompatibility
from engine.hookspecs import PROJECT
from engine.installing import needs_no_plugins, requirement_lines
from engine.plugins import ENV_RESTRICT, Registry, _shadow_hint, load_registry, shadowing_warnings

ROOT = Path(__file__).resolve().parent.parent


def _declare(site: Path, dist: str, *requires: str) -> None:
    """Rewrite the METADATA of the dist-info in ``site`` with these Requires-Dist lines."""
    info = next(site.glob("*.dist-info"))
    lines = [f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1.0\n"] + [f"Requires-Dist: {r}\n" for r in requires]
    (info / "METADATA").write_text("".join(lines))


@pytest.fixture()
def on_path(monkeypatch):
    def put(site: Path) -> None:
        monkeypatch.syspath_prepend(str(site))
        importlib.invalidate_caches()
    return put


def test_the_contract_version_is_the_host_version_s_major_and_minor():
    version = Version(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])
    assert CONTRACT_VERSION == f"{version.major}.{version.minor}"
    assert version in Requirement(contract_range()).specifier
    assert Version(f"{version.major}.{version.minor + 1}") not in Requirement(contract_range()).specifier


def test_a_plugin_outside_its_range_is_not_imported_and_loads_once_the_range_fits(tmp_path, monkeypatch, on_path):
    site = make_plugin(tmp_path, "ranged")
    _declare(site, "puzzle-engine-ranged", "puzzle-engine<0.0.1", "svgwrite>=1.4")
    on_path(site)
    monkeypatch.setenv(ENV_RESTRICT, "ranged")
    monkeypatch.delitem(sys.modules, "puzzle_ranged.hooks", raising=False)
    registry = load_registry()
    info = registry.plugins["ranged"]
    assert info.needs == f"needs puzzle-engine<0.0.1, this is {host_version()}"
    assert info.notice() == f"plugin ranged is not loaded: it needs puzzle-engine<0.0.1, this is {host_version()}"
    assert "ranged" not in registry.puzzles and registry.incompatible() == [info]
    assert "puzzle_ranged.hooks" not in sys.modules  # its code never ran
    _declare(site, "puzzle-engine-ranged", contract_range(), "svgwrite>=1.4")
    registry = load_registry()
    assert registry.plugins["ranged"].ok and "ranged" in registry.puzzles


def test_ranges_that_do_not_apply_here_are_ignored_and_a_pre_release_host_fits(tmp_path, on_path):
    site = make_plugin(tmp_path, "marked")
    _declare(site, "puzzle-engine-marked", 'puzzle-engine<0.0.1; extra == "old"', "numpy")
    on_path(site)
    dist = metadata.distribution("puzzle-engine-marked")
    assert incompatibility(dist) is None
    _declare(site, "puzzle-engine-marked", "puzzle-engine>=0.1,<0.2")
    # Lower bound first, as the range is written (packaging itself would print "<0.2,>=0.1").
    assert incompatibility(dist, running="0.2.0rc1") == "needs puzzle-engine>=0.1,<0.2, this is 0.2.0rc1"
    assert incompatibility(dist, running="0.1.1rc1") is None
    assert incompatibility(metadata.distribution("puzzle-engine")) is None  # the built-ins


def test_the_scaffold_and_the_example_declare_the_contract_range(tmp_path):
    from engine.scaffold import write_plugin

    write_plugin("ranger", tmp_path / "ranger")
    written = tomllib.loads((tmp_path / "ranger" / "pyproject.toml").read_text())["project"]["dependencies"]
    assert contract_range() in written
    example = tomllib.loads((ROOT / "examples/lights-out/pyproject.toml").read_text())["project"]["dependencies"]
    host = [Requirement(r) for r in example if Requirement(r).name == "puzzle-engine"]
    assert host and Version(host_version()) in host[0].specifier


def test_puzzle_plugins_and_list_say_in_one_line_what_it_needs(monkeypatch):
    from engine import cli

    registry = Registry()
    needs = "needs puzzle-engine<0.0.1, this is 0.1.0"
    registry.record_failure("old", "old.hooks", f"not loaded: it {needs}", needs=needs, distribution="old-dist")
    registry.collect()
    monkeypatch.setattr(cli, "get_registry", lambda: registry)
    plugins = CliRunner().invoke(cli.cli, ["plugins"]).output
    assert f"    NOT LOADED: it {needs}\n" in plugins
    listing = CliRunner().invoke(cli.cli, ["list"]).output
    assert f"plugin old is not loaded, its puzzles are missing: it {needs}\n" in listing
    as_json = json.loads(CliRunner().invoke(cli.cli, ["plugins", "--json"]).output)
    assert as_json[0]["needs"] == needs


def test_the_gallery_and_plugins_page_say_what_it_needs(tmp_path):
    from toy import ToyPlugin

    from web import create_app

    registry = Registry()
    registry.add_plugin("toy", ToyPlugin())
    needs = "needs puzzle-engine<0.0.1, this is 0.1.0"
    registry.record_failure("old", "old.hooks", f"not loaded: it {needs}", needs=needs)
    registry.collect()
    app = create_app({"REGISTRY": registry, "DATA_DIR": str(tmp_path), "TESTING": True})
    try:
        client = app.test_client()
        gallery = client.get("/").get_data(as_text=True)
        # The requirement is one unbreakable piece: a phone would break it at puzzle-/engine.
        whole = '<span class="requirement">puzzle-engine&lt;0.0.1</span>'
        assert f"Plugin <strong>old</strong> is not loaded: it needs {whole}, this is 0.1.0." in gallery, gallery
        assert "failed to load" not in gallery  # it did not fail: it was left out on purpose
        page = client.get("/-/plugins").get_data(as_text=True)
        assert f"Not loaded:</span> it needs {whole}, this is 0.1.0" in page
        assert f"not loaded: it needs {whole}, this is 0.1.0" in page  # the list above the table
    finally:
        app.extensions["puzzle_jobs"].close()


class _DeprecatedSpecs:
    @pluggy.HookspecMarker(PROJECT)(warn_on_impl=DeprecationWarning(
        "register_boards is deprecated: use register_puzzles"))
    def register_boards(self, register):
        """An old hook, kept working for one contract version."""


class _OldPlugin:
    @pluggy.HookimplMarker(PROJECT)
    def register_boards(self, register):
        pass


def test_a_deprecated_hook_warns_with_the_plugin_s_name():
    registry = Registry()
    registry.pm.add_hookspecs(_DeprecatedSpecs)
    with pytest.warns(DeprecationWarning, match=r"^plugin oldie: register_boards is deprecated: use register_puzzles$"):
        info = registry.add_plugin("oldie", _OldPlugin())
    assert info.ok and info.warnings == ["plugin oldie: register_boards is deprecated: use register_puzzles"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert registry.add_plugin("fresh", object()).warnings == []


def _fake_dist(site: Path, dist: str, tops: list[str], direct_url: dict | None = None,
               entry_point: str | None = None) -> None:
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "top_level.txt").write_text("".join(f"{t}\n" for t in tops))
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))
    if entry_point:
        (info / "entry_points.txt").write_text(f"[puzzle_engine]\n{entry_point}\n")


@pytest.mark.parametrize("top", ["engine", "plugins", "web"])
def test_another_distribution_installing_a_host_package_is_named(tmp_path, on_path, top):
    assert not [line for line in shadowing_warnings() if f"{top!r}" in line]
    _fake_dist(tmp_path / "site", f"not-ours-{top}", [top])
    on_path(tmp_path / "site")
    lines = [line for line in shadowing_warnings() if f"{top!r}" in line]
    assert len(lines) == 1 and f"also installed by not-ours-{top}" in lines[0]
    # A plugin failing on the shadowed package's missing module is told which one shadows it.
    missing = ModuleNotFoundError(f"No module named '{top}.contract'", name=f"{top}.contract")
    assert f"installed by not-ours-{top}" in _shadow_hint("some_plugin.hooks", missing)


def test_requirement_lines_pin_plugins_and_keep_editable_paths(tmp_path, on_path):
    site = tmp_path / "site"
    _fake_dist(site, "pinned-plugin", ["pinned"], entry_point="pinned = pinned.hooks")
    _fake_dist(site, "edited-plugin", ["edited"], entry_point="edited = edited.hooks",
               direct_url={"url": "file:///src/edited", "dir_info": {"editable": True}})
    _fake_dist(site, "plain-library", ["plain"])
    on_path(site)
    lines = requirement_lines()
    assert "pinned-plugin==1.0" in lines and "-e /src/edited" in lines
    assert not [line for line in lines if "plain-library" in line or "puzzle-engine==" in line]


@pytest.mark.parametrize("args, free", [
    (["install", "x"], True), (["uninstall", "-y", "x"], True), (["plugins", "--requirements"], True),
    (["plugins"], False), (["list"], False), ([], False), (["solve", "install", "x"], False)])
def test_only_plugin_management_skips_loading_plugins(args, free):
    assert needs_no_plugins(args) is free


def test_refusal_sentences_come_from_the_installer_s_own_words():
    pip = ("ERROR: Cannot install puzzle-engine-greedy==0.1.0 because these package versions have conflicting "
           "dependencies.\n\nThe conflict is caused by:\n    The user requested (constraint) puzzle-engine==0.1.0\n"
           "    puzzle-engine-greedy 0.1.0 depends on puzzle-engine==99\n")
    uv = ("  x No solution found when resolving dependencies:\n  `-> Because puzzle-engine-greedy==0.1.0 depends "
          "on puzzle-engine==99 and you require puzzle-engine-greedy, we can conclude ...\n")
    for output in (pip, uv):
        sentence = compat_sentence(output)
        assert sentence.startswith("puzzle-engine-greedy") and "needs puzzle-engine==99, but this is " \
            "puzzle-engine 0.1.0 and a plugin may not change the host" in sentence, sentence
    assert compat_sentence("ERROR: No matching distribution found for nosuchthing") is None


def compat_sentence(output: str) -> str | None:
    from engine.installing import _refusal
    return _refusal(output, "0.1.0")


def test_host_version_falls_back_when_run_from_an_uninstalled_tree(monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(compat.metadata, "version", missing)
    assert Version(host_version()) in Requirement(contract_range()).specifier


def test_the_pages_keep_the_whole_range_together_and_escape_the_rest():
    from web.pages import needs_markup

    assert needs_markup("needs puzzle-engine>=0.1,<0.2, this is 0.2.0") == (
        'needs <span class="requirement">puzzle-engine&gt;=0.1,&lt;0.2</span>, this is 0.2.0')
    assert needs_markup("needs puzzle-engine<0.1, this is <b>") == (
        'needs <span class="requirement">puzzle-engine&lt;0.1</span>, this is &lt;b&gt;')
