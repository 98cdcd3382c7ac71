"""``puzzle serve``: the web app on waitress, contributed to the CLI through a hook.

The engine's CLI calls ``register_commands(cli=...)`` on every plugin, so the engine never
imports the web app (datasette's ``register_commands`` pattern).
"""

from __future__ import annotations

import os

import click

from engine import N_, TranslatedCommand, format_number, hookimpl
from engine.jobs.model import DEFAULT_QUEUE
from engine.jobs.shares import DEFAULT_JOBS_PER_CLIENT
from engine.tablecache import KEEP_AFTER_ENV

from . import preparing
from .editor_view import KEEP_TABLES_AFTER
from .i18n import MESSAGES
from .i18n import cli_gettext as gettext
from .quiet_logs import quiet_waitress_queue


def prepare_first(registry=None) -> None:
    """Build the solvers' quick tables here, once, before the workers start and load them
    (``--no-background-prepare``; with background preparation they are built after the server
    listens, by the background preparer).

    Without this each worker would build missing tables inside users' first solves (the
    sliding pattern databases take about ten seconds; each table's lock makes the second
    worker wait for the first one's build rather than repeat it).
    """
    from engine.plugins import get_registry
    from engine.solving import prepare_solvers

    for done in prepare_solvers(registry or get_registry()):
        if done.error or not done.ready:
            click.echo(gettext("warning: %(puzzle)s solver %(solver)s is not prepared: %(error)s; it will "
                               "prepare when it first solves", puzzle=done.puzzle_id, solver=repr(done.solver),
                               error=done.error or gettext("stopped")), err=True)
        elif done.seconds >= 1:
            click.echo(gettext("prepared %(puzzle)s solver %(solver)s in %(seconds)s s", puzzle=done.puzzle_id,
                               solver=repr(done.solver), seconds=format_number(done.seconds, 1)))


#: waitress's own connection limit is 100: about 100 idle or slow sockets (one header line a
#: second) made every new visitor wait. Open sockets cost little (no thread is held until a
#: request is complete), so allow many; the file-descriptor limit must allow them too.
CONNECTION_LIMIT = 1000
#: CPU-seconds one client's editor requests may use per minute (web.editor_process): a third of
#: a core, far more than a person editing needs (tens of milliseconds per edit), and little
#: enough that two flooding clients leave most of the editor process's core to everyone else.
EDITOR_CPU_PER_CLIENT = 20.0
#: Seconds a connection may stay silent before it is closed (waitress's default is 120).
CHANNEL_TIMEOUT = 30


def waitress_options(threads: int = 8, connection_limit: int = CONNECTION_LIMIT,
                     channel_timeout: float = CHANNEL_TIMEOUT) -> dict:
    """The waitress settings ``puzzle serve`` uses. poll() rather than select(): select() cannot
    watch sockets numbered past 1024, so a high connection limit needs it."""
    return {"threads": threads, "connection_limit": connection_limit,
            "channel_timeout": channel_timeout, "asyncore_use_poll": True,
            # Idle channels are looked at this often (waitress: every 30 s), so a silent one is
            # closed soon after its timeout.
            "cleanup_interval": max(1, min(30, int(channel_timeout // 2) or 1))}


def serve_app(host: str = "127.0.0.1", port: int = 8000, threads: int = 8, data_dir: str | None = None,
              workers: int = 2, prepare: bool = True, redis: str | None = None,
              queue: str = DEFAULT_QUEUE, connection_limit: int = CONNECTION_LIMIT,
              channel_timeout: float = CHANNEL_TIMEOUT, fairness: dict | None = None,
              background: bool = True, editor_process: bool = True,
              editor_cpu: float = EDITOR_CPU_PER_CLIENT, registry_factory: str | None = None) -> None:
    """Build the app, start its solver workers (and the editor's process, see
    :mod:`web.editor_process`), and serve it with waitress until stopped.

    ``prepare`` with ``background`` (the default): listen first, then build the quick tables
    and after them the big ones in a background process (:mod:`engine.background`); the
    workers meanwhile prepare only the solvers with nothing to build, and a job that needs a
    table being built waits for it (each table's lock, :meth:`engine.TableCache.building`).
    ``prepare`` without ``background``: build the quick tables before listening, nothing big.
    Without ``prepare`` nothing is built ahead of time. ``registry_factory``: the dotted path
    of the plugins' registry (tests give a toy one; default: every installed plugin)."""
    import logging

    import waitress

    from engine.jobs.local import NO_BUILDS
    from engine.jobs.model import load_object
    from engine.plugins import get_registry, startup_warnings

    from . import create_app

    registry = load_object(registry_factory)() if registry_factory else get_registry()
    for line in startup_warnings(registry):  # a broken or slow plugin is said at start
        click.echo(gettext("warning: %(warning)s", warning=line), err=True)
    # Solve jobs for visitors' boards write a table to the cache folder only the second time it
    # is needed (the workers inherit this; `puzzle worker` reads the same variable).
    os.environ.setdefault(KEEP_AFTER_ENV, str(KEEP_TABLES_AFTER))
    in_background = prepare and background
    if prepare and not in_background and not redis:  # with Redis, `puzzle worker` prepares
        prepare_first(registry)
    config = {"JOB_WORKERS": workers,
              # With background preparation the workers take jobs at once: what they would
              # build is the background preparer's first pass, right after the server listens.
              "PREPARE_SOLVERS": (NO_BUILDS if in_background else True) if prepare else False,
              "PREPARE_IN_BACKGROUND": in_background, "THREADS": threads, **(fairness or {})}
    if registry_factory:
        config.update(REGISTRY=registry, REGISTRY_FACTORY=registry_factory)
    if data_dir:
        config["DATA_DIR"] = data_dir
    if redis:
        config["REDIS_URL"] = redis
        config["REDIS_QUEUE"] = queue
    app = create_app(config)
    jobs = app.extensions["puzzle_jobs"]
    jobs.runner.start()  # spawn the workers now, so the first Solve does not wait for them
    editor = None
    if editor_process:
        from .editor_process import EditorProcess, install
        gate = app.extensions["puzzle_heavy_gate"]
        # The parent's gate bounds what is in flight; the child serves all of it at once.
        editor = EditorProcess({**config, "HEAVY_REQUESTS": gate.total, "HEAVY_PER_CLIENT": gate.total},
                               threads=gate.total, cpu_per_client=editor_cpu or float("inf"))
        editor.start()  # until it answers (a second or two), editor requests are served here
        install(app, editor)
    if redis:
        click.echo("Jobs run on the RQ queue in Redis: start `puzzle worker --redis URL` to solve them")
    logging.basicConfig()  # waitress's own log lines, as waitress.serve would
    quiet_waitress_queue()
    server = waitress.create_server(app, host=host, port=port, ident="puzzle-engine",
                                    **waitress_options(threads, connection_limit, channel_timeout))
    # Listening now: the tables are built after this, in the background (the quick ones
    # first), so the first page never waits for them; solvers pick each one up when finished.
    if preparing.start(app):
        click.echo(gettext("Building the solver tables in the background, the quick ones first "
                           "(--no-background-prepare: off); the gallery shows how far"))
    address = f"http://{host}:{port}/"
    click.echo(gettext("Serving the puzzle engine on %(address)s (Ctrl+C to stop)", address=address))
    import signal
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        # A SIGTERM (systemd, docker stop) stops the server the way Ctrl+C does: through the
        # `finally` below, which stops the editor process, the background builds and the workers.
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
    try:
        server.run()
    finally:
        if editor is not None:
            editor.close()
        preparing.stop(app)
        jobs.close()


def _exit_on_sigterm(signum, frame):
    raise SystemExit(0)


@click.command("serve", cls=TranslatedCommand, catalogue=MESSAGES, help=N_(
    "Run the web app (gallery, editor, solver jobs, playback) on a production WSGI server."))
@click.option("--host", default="127.0.0.1", show_default=True, help=N_("Interface to listen on."))
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help=N_("TCP port."))
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 64),
              help=N_("Request threads of the WSGI server."))
@click.option("--connection-limit", default=CONNECTION_LIMIT, show_default=True,
              type=click.IntRange(10, 100_000),
              help=N_("Open connections served at once (idle ones included); past it new ones wait."))
@click.option("--channel-timeout", default=CHANNEL_TIMEOUT, show_default=True,
              type=click.FloatRange(1, 3600),
              help=N_("Seconds a connection may send nothing before it is closed."))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 32),
              help=N_("Solver worker processes."))
@click.option("--data-dir", default=None, type=click.Path(file_okay=False),
              help=N_("Where solved results are stored (default: $PUZZLE_ENGINE_DATA or the user data dir)."))
@click.option("--prepare/--no-prepare", default=True, show_default=True, envvar="PUZZLE_ENGINE_PREPARE",
              help=N_("Build the solvers' tables after the server listens, in the background: the "
                      "quick ones first, then the big ones; --no-prepare (or "
                      "$PUZZLE_ENGINE_PREPARE=0) builds nothing ahead of time."))
@click.option("--background-prepare/--no-background-prepare", "background", default=True,
              show_default=True, envvar="PUZZLE_ENGINE_BACKGROUND_PREPARE",
              help=N_("After the server listens, build the tables in one background process: the "
                      "quick ones (seconds), then the big ones (minutes, up to 2.4 GB) at low "
                      "priority on one core, when memory and disk allow; solvers use each table once "
                      "it is finished (--no-background-prepare or "
                      "$PUZZLE_ENGINE_BACKGROUND_PREPARE=0: the quick ones before listening, "
                      "nothing big)."))
@click.option("--redis", default=None, envvar="PUZZLE_ENGINE_REDIS",
              help=N_("Run jobs on RQ workers through this Redis (redis://host:6379/0) and keep "
                      "answers there (default: $PUZZLE_ENGINE_REDIS; unset: local workers, SQLite)."))
@click.option("--queue", default=DEFAULT_QUEUE, show_default=True,
              help=N_("With --redis: the RQ queue jobs go to (workers take them with the same --queue)."))
@click.option("--jobs-per-client", default=DEFAULT_JOBS_PER_CLIENT, show_default=True,
              type=click.IntRange(0, 1000),
              help=N_("Queued and running jobs one client may have at once; past it a submit answers "
                      "429 with Retry-After (0: no limit)."))
@click.option("--client-header", default=None, metavar="HEADER",
              help=N_("Name clients by this request header (its last entry, e.g. X-Forwarded-For) "
                      "instead of the remote address; only behind a proxy that always sets it."))
@click.option("--heavy-requests", default=None, type=click.IntRange(1, 64),
              help=N_("Editor requests (validate, edit, ...) served at once; past it they answer 429 "
                      "(default: half of --threads)."))
@click.option("--editor-process/--no-editor-process", default=True, show_default=True,
              help=N_("Serve editor requests in a process of their own, so a flood of them never "
                      "slows the other pages."))
@click.option("--editor-cpu", default=EDITOR_CPU_PER_CLIENT, show_default=True,
              type=click.FloatRange(0, 3600),
              help=N_("CPU-seconds one client's editor requests may use per minute; past it they "
                      "answer 429 with Retry-After (0: no limit; needs --editor-process)."))
def serve(host, port, threads, connection_limit, channel_timeout, workers, data_dir, prepare,
          background, redis, queue, jobs_per_client, client_header, heavy_requests, editor_process,
          editor_cpu):
    """``serve``: its help (above) is what people read."""
    if redis:
        from engine.jobs.rq_runner import check_url
        try:
            check_url(redis)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--redis") from None
    serve_app(host=host, port=port, threads=threads, data_dir=data_dir, workers=workers,
              prepare=prepare, redis=redis, queue=queue, connection_limit=connection_limit,
              channel_timeout=channel_timeout, background=background,
              fairness={"JOBS_PER_CLIENT": jobs_per_client, "CLIENT_HEADER": client_header,
                        "HEAVY_REQUESTS": heavy_requests},
              editor_process=editor_process, editor_cpu=editor_cpu)


@hookimpl
def register_commands(cli):
    cli.add_command(serve)


if __name__ == "__main__":  # python -m web.commands --port 8000
    serve()
