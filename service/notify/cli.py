"""`flask notify ...`: the worker, the SMTP listener, one message from standard input."""
from __future__ import annotations

import signal
import sys
import threading

import click
from flask import current_app
from flask.cli import AppGroup

notify_cli = AppGroup("notify", help="Deliver notifications and take moves by email.")

EX_OK, EX_DATAERR, EX_TEMPFAIL = 0, 65, 75  # sysexits.h: 75 makes an MTA keep the message and retry


def _stop_on_signals() -> threading.Event:
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    return stop


@notify_cli.command("worker")
@click.option("--once", is_flag=True, help="Deliver what is due now, then exit.")
@click.option("--interval", default=10.0, show_default=True,
              help="Most seconds to sleep when nothing is due; a queued mail or webhook wakes the worker at once.")
def worker_command(once: bool, interval: float) -> None:
    """Deliver the outbox (mail, webhooks) with retries; send reminders and digests."""
    from .worker import Worker
    worker = Worker()
    click.echo(f"notify worker {worker.name} running", err=True)
    worker.run(stop=None if once else _stop_on_signals(), interval=interval, until_idle=once)


@notify_cli.command("smtpd")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=2525, show_default=True, type=int)
def smtpd_command(host: str, port: int) -> None:
    """Listen for replies by SMTP (moves by email) until stopped."""
    import logging

    from .inbound.smtpd import controller
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command at INFO
    listener = controller(current_app._get_current_object(), host, port)
    listener.start()
    click.echo(f"listening for mail on {host}:{port}", err=True)
    try:
        _stop_on_signals().wait()
    finally:
        listener.stop()


@notify_cli.command("inbound")
@click.option("--recipient", multiple=True, help="The envelope recipient, if the MTA passes it.")
@click.option("--sender", default=None, help="The envelope sender (MAIL FROM), if the MTA passes it "
              "(Postfix: ${sender}); checked against the seat's address like From.")
def inbound_command(recipient: tuple[str, ...], sender: str | None) -> None:
    """Handle one message read from standard input (for an MTA pipe)."""
    from .inbound.mime_shape import Refused
    from .inbound.replies import receive
    try:
        outcome = receive(sys.stdin.buffer.read(), list(recipient), sender)
    except Refused as exc:  # no retry would read it: the MTA bounces it instead
        click.echo(f"refused: {exc}", err=True)
        sys.exit(EX_DATAERR)
    except Exception as exc:  # noqa: BLE001 - the MTA keeps the message and retries on 75
        click.echo(f"temporary failure: {type(exc).__name__}: {exc}", err=True)
        sys.exit(EX_TEMPFAIL)
    click.echo(f"{outcome.status}: {outcome.detail}")
    # The sender was answered by mail; a non-zero status would make the MTA bounce it as well.
    sys.exit(EX_OK)


@notify_cli.command("sweep")
def sweep_command() -> None:
    """Write due reminders, time-up notices and digests now (the worker does this every 30 s)."""
    from . import sweeps
    click.echo(f"clock notices: {sweeps.sweep_clocks()}, digests: {sweeps.sweep_digests()}")
