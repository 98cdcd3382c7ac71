"""``puzzle serve``: the web app on waitress, contributed to the CLI through a hook.

The engine's CLI calls ``register_commands(cli=...)`` on every plugin, so the engine never
imports the web app (datasette's ``register_commands`` pattern).
"""

from __future__ import annotations

import click

from engine import hookimpl


def prepare_first() -> None:
    """Build the solvers' tables here, once, before the workers start and load them.

    Without this each worker would build missing tables itself (the sliding pattern databases
    take about ten seconds), twice over and inside users' first solves.
    """
    from engine.plugins import get_registry
    from engine.solving import prepare_solvers

    for done in prepare_solvers(get_registry()):
        if done.error or not done.ready:
            click.echo(f"warning: {done.puzzle_id} solver {done.solver!r} is not prepared: "
                       f"{done.error or 'stopped'}; it will prepare when it first solves", err=True)
        elif done.seconds >= 1:
            click.echo(f"prepared {done.puzzle_id} solver {done.solver!r} in {done.seconds:.1f} s")


def serve_app(host: str = "127.0.0.1", port: int = 8000, threads: int = 8, data_dir: str | None = None,
              workers: int = 2, prepare: bool = True) -> None:
    """Build the app, start its solver workers, and serve it with waitress until stopped."""
    import waitress

    from . import create_app

    from engine.plugins import get_registry, startup_warnings

    for line in startup_warnings(get_registry()):  # a broken or slow plugin is said at start
        click.echo(f"warning: {line}", err=True)
    if prepare:
        prepare_first()
    config = {"JOB_WORKERS": workers, "PREPARE_SOLVERS": prepare}
    if data_dir:
        config["DATA_DIR"] = data_dir
    app = create_app(config)
    jobs = app.extensions["puzzle_jobs"]
    jobs.runner.start()  # spawn the workers now, so the first Solve does not wait for them
    click.echo(f"Serving the puzzle engine on http://{host}:{port}/ (Ctrl+C to stop)")
    try:
        waitress.serve(app, host=host, port=port, threads=threads, ident="puzzle-engine")
    finally:
        jobs.close()


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="TCP port.")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 64),
              help="Request threads of the WSGI server.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 32),
              help="Solver worker processes.")
@click.option("--data-dir", default=None, type=click.Path(file_okay=False),
              help="Where solved results are stored (default: $PUZZLE_ENGINE_DATA or the user data dir).")
@click.option("--prepare/--no-prepare", default=True, show_default=True,
              help="Build and load the solvers' tables before serving, so first solves are fast.")
def serve(host, port, threads, workers, data_dir, prepare):
    """Run the web app (gallery, editor, solver jobs, playback) on a production WSGI server."""
    serve_app(host=host, port=port, threads=threads, data_dir=data_dir, workers=workers,
              prepare=prepare)


@hookimpl
def register_commands(cli):
    cli.add_command(serve)


if __name__ == "__main__":  # python -m web.commands --port 8000
    serve()
