"""The ``scorpion serve`` command: the game in a browser, served by uvicorn on this machine."""

from __future__ import annotations

import ipaddress
import signal
import socket
import sqlite3
import threading
import webbrowser
from pathlib import Path

import click

from .common import UserError, notify_loading, user_errors

WILDCARDS = ("0.0.0.0", "::", "")  # every address of the machine: not a name a browser sends


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check_port(host: str, port: int) -> None:
    """Refuse a port already taken with one line, before uvicorn would log a traceback-like error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


@click.command("serve")
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback: only this machine)."
)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port (0: any free one).")
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default=None,
    help="The games database (SQLite) [default: scorpion-solver/games.sqlite3 in XDG_DATA_HOME or ~/.local/share].",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Another name this server answers to (repeatable), e.g. the machine's name when --host is not loopback; "
    "requests naming any other host are refused (DNS rebinding).",
)
@click.option(
    "--pool",
    type=click.IntRange(0, 10_000),
    default=50,
    show_default=True,
    metavar="N",
    help="Graded deals kept ready per grade and mode: secret shuffles the server grades in the background "
    "(one worker process at the lowest priority; progress in the log); 0 grades none.",
)
@user_errors
def serve_command(
    host: str, port: int, db: str | None, open_browser: bool, allow_hosts: tuple[str, ...], pool: int
) -> None:
    """Play Scorpion in a browser: deals, undo and redo, fair hints, peeking, statistics.

    The server holds the cards; the page gets only what a player sees. Random
    and graded deals are secret shuffles that no deal number names; the
    graded ones come from a private pool the server grades itself (--pool).
    Every
    move is saved before it is answered, so a game survives a closed browser or
    a restarted server. Ctrl-C (or SIGTERM) stops it. See docs/serve.md.
    """
    import uvicorn

    from ..serve import Config, create_app
    from ..serve.guard import LOOPBACK_NAMES
    from ..serve.store import default_path

    path = Path(db) if db else default_path()
    if not is_loopback(host):
        click.echo(
            f"warning: listening on {host}: anyone who can reach this machine can open the games (no login)", err=True
        )
    _check_port(host, port)
    try:
        names = (*LOOPBACK_NAMES, *([] if host in WILDCARDS else [host]), *allow_hosts)
        # the graded pool is stocked in the background from the start (serve.pool)
        app = create_app(Config(db=path, allowed_hosts=names, pool_target=pool))
    except sqlite3.Error as exc:
        raise UserError(f"{path}: cannot use the database: {exc}") from None
    shown_host = f"[{host}]" if ":" in host else host
    if port == 0:
        with socket.socket() as probe:  # uvicorn would pick its own; pick one here to print it
            probe.bind((host, 0))
            port = probe.getsockname()[1]
    url = f"http://{shown_host}:{port}/"
    click.echo(f"Scorpion: {url}  (games in {path}; Ctrl-C stops)")
    from ..solver.compiling import COMMAND_JOBS
    from ..solver.search import load_solver

    # load (or, on a first run, compile) the solver now, beside the server, so the first hint does not wait for it
    threading.Thread(target=load_solver, args=(notify_loading, None, COMMAND_JOBS["serve"]), daemon=True).start()
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False))
    stopped_by = []
    # uvicorn stops gracefully on SIGINT and SIGTERM (open requests finish), then raises the signal again
    # for the handler that was there before it: this one, so the command ends with a line and status 0
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda number, frame: stopped_by.append(number))
    server.run()
    click.echo(f"stopped ({signal.Signals(stopped_by[0]).name})" if stopped_by else "stopped")
