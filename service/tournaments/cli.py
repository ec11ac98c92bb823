"""`flask tournaments sweep`: start tournaments whose entry closed and settle rounds past their
deadline now (the notify worker does this with every sweep, every 30 s)."""
from __future__ import annotations

import click
from flask.cli import AppGroup

tournaments_cli = AppGroup("tournaments", help="Tournaments' entry windows and round deadlines.")


@tournaments_cli.command("sweep")
def sweep_command() -> None:
    """Close due entry windows and settle rounds past their deadline."""
    from .settling import sweep
    click.echo(f"tournaments swept: {sweep()}")
