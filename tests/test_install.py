"""The real wheel, installed into a fresh virtual environment outside the checkout.

Built once per run (this module is one file, so ``--dist loadfile`` gives it one worker): the
host's and Lights Out's sdists, and their wheels built from those sdists, so a file missing from
either breaks here as it would break every real install. pip's own cache is reused; the host's
dependencies are the only downloads, and every plugin wheel is installed from a local file.

Then, in that environment: ``puzzle check`` on the built-in puzzles, ``puzzle serve`` answering
the gallery, an editor page with its scripts and styles and a board SVG, and ``puzzle install``
/ ``uninstall`` / ``plugins --requirements`` against real pip with toy plugin wheels; and in a
second environment made without pip (as ``uv tool`` makes them), the same commands through
``uv pip``.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from plugin_packages import scaffold_wheel, wheel

from engine.compat import contract_range

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
HOST_PACKAGES = {"engine", "plugins", "web"}
#: The built-in puzzles `puzzle check` runs on, and the laws it runs there: those that read
#: the package's files (presets, rendering, the editor's markup), with few generated inputs.
BUILT_IN = ("sliding", "pegs", "tangram")


def _run(*args, env=None, cwd, check=True, timeout=600, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, **kw)
    if check and done.returncode != 0:
        raise AssertionError(f"{args} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment of a user's shell: nothing pointing into the checkout or at its venv."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PUZZLE_ENGINE_PLUGINS") and not k.startswith("PIP_")}
    return {**env, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **extra}


def _build(project: Path, out: Path, tools: Path, work: Path) -> tuple[Path, Path]:
    """sdist of a copy of ``project``, then the wheel built from that sdist (as `python -m build`)."""
    source = work / f"src-{project.name}"
    shutil.copytree(project, source, ignore=shutil.ignore_patterns(
        ".venv", ".git", "__pycache__", "*.egg-info", "build", "dist", "artifacts", ".pytest_cache",
        ".mypy_cache", ".ruff_cache", ".hypothesis", "examples"))
    env = _clean_env(PYTHONPATH=str(tools))
    hook = "import sys, setuptools.build_meta as b; print(getattr(b, sys.argv[1])(sys.argv[2]))"
    sdist = out / _run(sys.executable, "-c", hook, "build_sdist", out, cwd=source, env=env).stdout.split()[-1]
    with tarfile.open(sdist) as archive:
        archive.extractall(work / f"sdist-{project.name}", filter="data")
    unpacked = next((work / f"sdist-{project.name}").iterdir())
    built = _run(sys.executable, "-c", hook, "build_wheel", out, cwd=unpacked, env=env).stdout.split()[-1]
    return sdist, out / built


class _Assets(HTMLParser):
    """The scripts, styles and images a page loads."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and a.get("src"):
            self.urls.append(a["src"])
        if tag == "link" and "stylesheet" in (a.get("rel") or "") and a.get("href"):
            self.urls.append(a["href"])
        if tag == "img" and a.get("src"):
            self.urls.append(a["src"])


def _get(url: str) -> tuple[int, str, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read().decode()


class Env:
    """A fresh virtual environment with the built host installed, and its `puzzle` command.

    With ``uv`` (the path of a uv binary) the environment is one without pip, as `uv tool`
    makes them: `puzzle` finds that uv on PATH and installs through `uv pip`.
    """

    def __init__(self, root: Path, wheels: Path, uv: Path | None = None):
        self.root, self.wheels, self.uv = root, wheels, uv
        self.python = root / "venv" / "bin" / "python"
        self.home = root / "home"  # cwd of every command: outside the checkout
        self.home.mkdir()

    def env(self, **extra: str) -> dict[str, str]:
        if self.uv is not None:  # uv on PATH, as it is where a user made the environment with it
            extra = {"PATH": f"{self.uv.parent}{os.pathsep}{os.environ.get('PATH', '')}", **extra}
        return _clean_env(PUZZLE_ENGINE_CACHE=str(self.root / "cache"),
                          PUZZLE_ENGINE_DATA=str(self.root / "data"), **extra)

    def puzzle(self, *args, check=True, offline=True, timeout=600) -> subprocess.CompletedProcess:
        # Plugin wheels are local files: the installer must not look at an index for them (or
        # the host). uv reads its own settings, not pip's.
        extra = {}
        if offline:
            extra = ({"UV_NO_INDEX": "1", "UV_FIND_LINKS": str(self.wheels)} if self.uv is not None
                     else {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(self.wheels)})
        return _run(self.root / "venv" / "bin" / "puzzle", *args, cwd=self.home, env=self.env(**extra),
                    check=check, timeout=timeout)

    def pip(self, *args) -> subprocess.CompletedProcess:
        return _run(self.python, "-m", "pip", *args, cwd=self.home, env=self.env())

    def host_state(self) -> str:
        """The installed host's version and where its engine package is: must never change."""
        return _run(self.python, "-c", "import engine, importlib.metadata as m; "
                    "print(m.version('puzzle-engine'), engine.__file__)", cwd=self.home, env=self.env()).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("build")
    tools = work / "tools"  # the build backend of both pyprojects (setuptools >= 77), pip-cached
    _run(sys.executable, "-m", "pip", "install", "-q", "--target", tools, "setuptools>=77", cwd=work,
         env=_clean_env())
    out = work / "dist"
    out.mkdir()
    host_sdist, host_wheel = _build(ROOT, out, tools, work)
    lights_sdist, lights_wheel = _build(ROOT / "examples" / "lights-out", out, tools, work)
    return {"host_sdist": host_sdist, "host": host_wheel, "lights_sdist": lights_sdist,
            "lights_out": lights_wheel, "dir": out}


@pytest.fixture(scope="module")
def venv(built, tmp_path_factory) -> Env:
    root = tmp_path_factory.mktemp("fresh")
    assert ROOT not in root.parents, "the fresh environment must be outside the checkout"
    _run(sys.executable, "-m", "venv", root / "venv", cwd=root, env=_clean_env())
    wheels = root / "wheels"
    wheels.mkdir()
    env = Env(root, wheels)
    # The host's dependencies come from the index (through pip's cache); the host from its wheel.
    _run(env.python, "-m", "pip", "install", "-q", built["host"], cwd=env.home, env=env.env())
    return env


def _top_levels(path: Path) -> set[str]:
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
    tops = {n.split("/")[0] for n in names}
    return {t.removesuffix(".py") for t in tops if not t.endswith((".dist-info", ".data"))}


def test_the_host_wheel_holds_only_engine_plugins_and_web(built):
    assert _top_levels(built["host"]) == HOST_PACKAGES
    assert _top_levels(built["lights_out"]) == {"puzzle_lights_out"}


def test_the_wheel_carries_every_template_script_and_style(built):
    # The same files as the checkout's web/ folders, none left behind by the package data rules.
    with zipfile.ZipFile(built["host"]) as archive:
        packed = {n for n in archive.namelist() if n.startswith("web/")}
    for folder in ("templates", "static"):
        for path in (ROOT / "web" / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                assert path.relative_to(ROOT).as_posix() in packed, f"{path} is not in the wheel"


def test_the_installed_host_runs_outside_the_checkout(venv):
    version, where = venv.host_state().split()
    assert Path(where).is_relative_to(venv.root / "venv"), where
    assert version == _run(sys.executable, "-c", "import engine.compat as c; print(c.host_version())",
                           cwd=ROOT).stdout.strip()
    plugins = venv.puzzle("plugins").stdout
    for name in BUILT_IN:
        assert re.search(rf"^{name} {re.escape(version)} from puzzle-engine", plugins, re.M), plugins
    assert "FAILED" not in plugins and "NOT LOADED" not in plugins, plugins


@pytest.mark.parametrize("puzzle", BUILT_IN)
def test_puzzle_check_passes_on_each_built_in_puzzle_from_the_wheel(venv, puzzle):
    done = venv.puzzle("check", puzzle, "--examples", "3")
    assert f"{puzzle} conforms" in done.stdout, done.stdout[-2000:]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_puzzle_install_adds_lights_out_to_the_list_and_the_served_gallery(venv, built):
    done = venv.puzzle("install", built["lights_out"])
    assert "installed puzzle-engine-lights-out 0.1.0" in done.stdout, done.stdout + done.stderr
    assert re.search(r"plugin lights_out registers: puzzle lights_out, solver lights_out/\w+", done.stdout)
    assert "lights_out: Lights Out" in venv.puzzle("list").stdout
    port = _free_port()
    log = (venv.root / "serve.log").open("w")
    server = subprocess.Popen([venv.root / "venv" / "bin" / "puzzle", "serve", "--port", str(port),
                               "--workers", "1", "--no-prepare"], cwd=venv.home, env=venv.env(PYTHONUNBUFFERED="1"),
                              stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status, _, gallery = _get(base + "/")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, (venv.root / "serve.log").read_text()
                time.sleep(0.3)
        assert status == 200
        for pid in (*BUILT_IN, "lights_out"):
            assert f'data-puzzle="{pid}"' in gallery, pid
        assets = _Assets()
        assets.feed(gallery)
        boards = [u for u in assets.urls if "render.svg" in u]
        assert boards, "the gallery shows no board pictures"
        status, kind, svg = _get(base + boards[0])
        assert status == 200 and kind.startswith("image/svg+xml") and "<svg" in svg
        status, _, page = _get(base + "/sliding")
        assert status == 200 and "Sliding" in page
        assets = _Assets()
        assets.feed(page)
        scripts = [u for u in assets.urls if u.split("?")[0].endswith(".js")]
        styles = [u for u in assets.urls if u.split("?")[0].endswith(".css")]
        assert scripts and styles, assets.urls
        for url in scripts + styles:
            status, kind, body = _get(base + url if url.startswith("/") else url)
            assert status == 200 and body.strip(), url
            assert ("javascript" in kind) if url.split("?")[0].endswith(".js") else ("css" in kind), (url, kind)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    venv.puzzle("uninstall", "-y", "puzzle-engine-lights-out")


def test_a_plugin_outside_its_engine_range_is_refused_then_loaded_once_it_fits(venv):
    old = scaffold_wheel(venv.wheels, "oldtoy", "0.1.0", ("puzzle-engine<0.0.1",))
    # Such a plugin gets in only past the pin, as one installed for an older host would be.
    venv.pip("install", "-q", "--no-deps", "--no-index", old)
    version = venv.host_state().split()[0]
    sentence = f"needs puzzle-engine<0.0.1, this is {version}"
    assert f"NOT LOADED: it {sentence}" in venv.puzzle("plugins").stdout
    listing = venv.puzzle("list").stdout
    assert f"plugin oldtoy is not loaded, its puzzles are missing: it {sentence}" in listing
    assert "oldtoy: Oldtoy" not in listing
    fitting = scaffold_wheel(venv.wheels, "oldtoy", "0.2.0", (contract_range(),))
    done = venv.puzzle("install", fitting)
    assert "installed puzzle-engine-oldtoy 0.2.0" in done.stdout, done.stdout + done.stderr
    assert "plugin oldtoy registers: puzzle oldtoy, solver oldtoy/" in done.stdout
    assert "oldtoy: Oldtoy" in venv.puzzle("list").stdout
    venv.puzzle("uninstall", "-y", "puzzle-engine-oldtoy")


def test_puzzle_uninstall_works_while_other_plugins_break_on_import(venv):
    raises = wheel(venv.wheels, "raw-raises", "0.1.0", {"raw_raises/__init__.py": "",
                   "raw_raises/hooks.py": "raise RuntimeError('broken on purpose')\n"},
                   entry_points={"raises": "raw_raises.hooks"})
    kills = wheel(venv.wheels, "raw-kills", "0.1.0", {"raw_kills/__init__.py": "",
                  "raw_kills/hooks.py": "import os\nos._exit(7)  # ends any process that imports it\n"},
                  entry_points={"kills": "raw_kills.hooks"})
    done = venv.puzzle("install", raises)
    assert "plugin raises FAILED to load: failed to import: RuntimeError: broken on purpose" in done.stdout
    done = venv.puzzle("install", kills)
    assert "installed raw-kills 0.1.0" in done.stdout
    assert "installed, but loading the plugins failed (exit code 7)" in done.stderr  # the install stands
    assert venv.puzzle("list", check=False).returncode == 7  # every command that loads plugins dies
    reqs = venv.puzzle("plugins", "--requirements").stdout
    assert "raw-kills==0.1.0" in reqs and "raw-raises==0.1.0" in reqs
    done = venv.puzzle("uninstall", "-y", "raw-kills", "raw-raises")
    assert "uninstalled raw-kills 0.1.0" in done.stdout and "uninstalled raw-raises 0.1.0" in done.stdout
    assert "raises" not in venv.puzzle("plugins").stdout


@pytest.mark.parametrize("name, wants", [("greedy", "==99"), ("backward", "<0.1")],
                         ids=["upgrade", "downgrade"])
def test_a_plugin_that_needs_another_engine_cannot_change_the_host(venv, name, wants):
    before = venv.host_state()
    greedy = scaffold_wheel(venv.wheels, name, "0.1.0", (f"puzzle-engine{wants}",))
    done = venv.puzzle("install", greedy, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"error: puzzle-engine-{name}") and f"needs puzzle-engine{wants}, but this is " \
        f"puzzle-engine {before.split()[0]} and a plugin may not change the host" in last, last
    assert venv.host_state() == before
    assert name not in venv.puzzle("plugins", "--requirements").stdout
    done = venv.puzzle("install", "puzzle-engine", check=False)
    assert done.returncode == 2 and "manages plugins, not puzzle-engine itself" in done.stderr


def test_requirements_then_install_r_restores_the_plugin_set(venv, built):
    shutil.copy(built["lights_out"], venv.wheels)
    toy = scaffold_wheel(venv.wheels, "keeper", "0.3.0", (contract_range(),))
    venv.puzzle("install", built["lights_out"], toy)
    saved = venv.puzzle("plugins", "--requirements").stdout
    pinned = sorted(line.split("#")[0].strip() for line in saved.splitlines())
    assert pinned == ["puzzle-engine-keeper==0.3.0", "puzzle-engine-lights-out==0.1.0"], saved
    (venv.home / "plugins.txt").write_text(saved)
    venv.puzzle("uninstall", "-y", "puzzle-engine-keeper", "puzzle-engine-lights-out")
    assert venv.puzzle("plugins", "--requirements").stdout == ""
    done = venv.puzzle("install", "-r", "plugins.txt")
    assert "plugin keeper registers: puzzle keeper" in done.stdout, done.stdout + done.stderr
    assert "plugin lights_out registers: puzzle lights_out" in done.stdout
    restored = venv.puzzle("plugins", "--requirements").stdout
    assert sorted(line.split("#")[0].strip() for line in restored.splitlines()) == pinned
    listing = venv.puzzle("list").stdout
    assert "keeper: Keeper" in listing and "lights_out: Lights Out" in listing


def test_a_distribution_without_an_entry_point_is_installed_with_a_warning(venv):
    plain = wheel(venv.wheels, "plain-helper", "1.0.0", {"plain_helper/__init__.py": "VALUE = 1\n"})
    done = venv.puzzle("install", plain)
    assert "installed plain-helper 1.0.0" in done.stdout, done.stdout + done.stderr
    assert "warning: plain-helper 1.0.0 has no puzzle_engine entry point" in done.stderr, done.stderr
    assert "plain-helper" not in venv.puzzle("plugins", "--requirements").stdout  # not a plugin
    venv.puzzle("uninstall", "-y", "plain-helper")


@pytest.mark.parametrize("where", ["venv", "uv_venv"], ids=["pip", "uv"])
def test_upgrade_and_pre_release_options_reach_the_installer(request, where):
    env: Env = request.getfixturevalue(where)
    for version in ("0.3.0", "0.4.0", "0.5.0rc1"):
        scaffold_wheel(env.wheels, "climber", version, (contract_range(),))
    before = env.host_state()
    assert "installed puzzle-engine-climber 0.4.0" in env.puzzle("install", "puzzle-engine-climber").stdout
    done = env.puzzle("install", "--pre", "-U", "puzzle-engine-climber")
    assert "installed puzzle-engine-climber 0.5.0rc1" in done.stdout, done.stdout + done.stderr
    assert env.host_state() == before  # -U upgrades what is named, never the host
    env.puzzle("uninstall", "-y", "puzzle-engine-climber")


def test_an_editable_install_of_a_new_plugin_as_the_scaffold_says(venv):
    # `puzzle new-plugin` ends by telling its author: puzzle install -e PATH, then puzzle check.
    source = venv.root / "tidy-src"
    done = venv.puzzle("new-plugin", "tidy", "--dir", source)
    assert f"puzzle install -e {source}" in done.stdout, done.stdout
    # The build backend (setuptools) comes from the index through pip's cache.
    done = venv.puzzle("install", "-e", source, offline=False)
    assert "plugin tidy registers: puzzle tidy" in done.stdout, done.stdout + done.stderr
    assert f"-e {source}" in venv.puzzle("plugins", "--requirements").stdout
    # Editable: a change to the source is what runs, without reinstalling.
    hooks = source / "puzzle_tidy" / "puzzle.py"
    # (the title is marked for translation: N_ returns it as written, in English)
    assert 'title = N_("Tidy")' in hooks.read_text(), "the scaffold changed"
    hooks.write_text(hooks.read_text().replace('title = N_("Tidy")', 'title = N_("Tidy, edited")'))
    assert "tidy: Tidy, edited" in venv.puzzle("list").stdout
    venv.puzzle("uninstall", "-y", "puzzle-engine-tidy")


# -- an environment without pip (`uv tool`, llm#833): `puzzle install` goes through `uv pip` ----


@pytest.fixture(scope="module")
def uv_venv(built, tmp_path_factory) -> Env:
    from uv import find_uv_bin  # the `uv` package of the test extras ships the binary

    root = tmp_path_factory.mktemp("fresh-uv")
    # uv alone in a folder for PATH: the folder it ships in holds the checkout's python too.
    uv = root / "uv-bin" / "uv"
    uv.parent.mkdir()
    uv.symlink_to(find_uv_bin())
    _run(sys.executable, "-m", "venv", "--without-pip", root / "venv", cwd=root, env=_clean_env())
    wheels = root / "wheels"
    wheels.mkdir()
    env = Env(root, wheels, uv=uv)
    # The host's dependencies through uv's own cache (kept between runs like pip's); no pip comes in.
    _run(uv, "pip", "install", "--quiet", "--python", env.python, built["host"], cwd=env.home, env=env.env())
    return env


def test_without_pip_puzzle_install_and_uninstall_go_through_uv(uv_venv, built):
    no_pip = _run(uv_venv.python, "-c", "import pip", cwd=uv_venv.home, env=uv_venv.env(), check=False)
    assert no_pip.returncode != 0 and "No module named 'pip'" in no_pip.stderr, no_pip.stderr
    done = uv_venv.puzzle("install", built["lights_out"])
    assert "installed puzzle-engine-lights-out 0.1.0" in done.stdout, done.stdout + done.stderr
    assert re.search(r"plugin lights_out registers: puzzle lights_out, solver lights_out/\w+", done.stdout)
    # uv's own report (pip says "Successfully installed"): the install went through `uv pip`.
    assert re.search(r"^ \+ puzzle-engine-lights-out==0\.1\.0\b", done.stderr, re.M), done.stderr
    assert "lights_out: Lights Out" in uv_venv.puzzle("list").stdout
    assert uv_venv.puzzle("plugins", "--requirements").stdout.startswith("puzzle-engine-lights-out==0.1.0")
    done = uv_venv.puzzle("uninstall", "-y", "puzzle-engine-lights-out")
    assert "uninstalled puzzle-engine-lights-out 0.1.0" in done.stdout, done.stdout + done.stderr
    assert "lights_out" not in uv_venv.puzzle("list").stdout


def test_without_pip_a_plugin_that_needs_another_engine_is_refused_in_uv_s_words(uv_venv):
    before = uv_venv.host_state()
    greedy = scaffold_wheel(uv_venv.wheels, "greedy", "0.1.0", ("puzzle-engine==99",))
    done = uv_venv.puzzle("install", greedy, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: puzzle-engine-greedy") and "needs puzzle-engine==99, but this is " \
        f"puzzle-engine {before.split()[0]} and a plugin may not change the host" in last, done.stderr
    assert uv_venv.host_state() == before


def compiled_catalogues() -> dict[str, list[str]]:
    """Every compiled catalogue `make translations` writes (scripts/translations.py, one per
    domain and locale), by the wheel that must carry it: the host's (the engine, the web app
    and the built-in plugins) or the Lights Out example's, as paths inside the wheel."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("translations_script", ROOT / "scripts" / "translations.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    lights_out = "examples/lights-out/"
    found: dict[str, list[str]] = {"host": [], "lights_out": []}
    for domain, (_sources, _left_out, folder, _keywords) in script.DOMAINS.items():
        for locale in script.LOCALES:
            path = f"{folder}/{locale}/LC_MESSAGES/{domain}.mo"
            if path.startswith(lights_out):
                found["lights_out"].append(path.removeprefix(lights_out))
            else:
                found["host"].append(path)
    return found


def test_the_wheels_carry_the_compiled_catalogues(built):
    # The .mo files are committed (docs/i18n.md): a wheel built from the sdist must hold them,
    # or an installed host and plugin would show English whatever the reader asks. Every
    # domain counts: the host's own, each built-in plugin's (sliding, pegs, tangram) and the
    # example's.
    wanted = compiled_catalogues()
    assert "plugins/tangram/locale/zh_Hans/LC_MESSAGES/puzzle_tangram.mo" in wanted["host"]
    assert len(wanted["host"]) == 6 and len(wanted["lights_out"]) == 1, wanted
    for wheel_name, paths in wanted.items():
        inside = set(zipfile.ZipFile(built[wheel_name]).namelist())
        missing = [path for path in paths if path not in inside]
        assert not missing, f"the {wheel_name} wheel lacks {missing}"
