"""`flask coach worker`: the process that reviews finished matches (worker.py; a Procfile line)."""
from __future__ import annotations

import signal
import threading

import click
from flask.cli import AppGroup

from .worker import Worker

coach_cli = AppGroup("coach", help="Review finished matches decision by decision.")


@coach_cli.command("worker")
@click.option("--once", is_flag=True, help="Review what is queued now, then exit.")
@click.option("--interval", default=5.0, show_default=True, help="Seconds between looks at an empty queue.")
def worker_command(once: bool, interval: float) -> None:
    worker = Worker()
    if once:
        while worker.once():
            pass
        return
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    click.echo(f"coach worker {worker.name} running", err=True)
    worker.loop(interval, stop)
