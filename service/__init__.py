"""The correspondence Gin Rummy service: a stateless Flask REST API over the rules engine.

The layers, each importing only those below it (docs/architecture.md; `lint-imports` holds it):

    service.app                      the app factory: the one module that knows every feature
    service.site, service.series     the pages; tournaments and series
    service.players                  accounts, challenges, rematches, watch links, /me/stream
    service.notify                   play by email, notifications, webhooks
    service.access                   mail links and a seat's tokens
    service.games                    games of 2 to 8 seats: moves, views, deals, clocks, streams
    service.core                     config, database, errors, tokens, JSON, wake-ups, limits, server
    service.rules                    the pure engine: imports nothing of the service

`service.rules` is the pure engine; importing it must not pull in Flask, so this package imports
nothing at all: the factory is imported when it is called.
"""
from __future__ import annotations


def create_app(config_overrides: dict | None = None):
    """The app factory (service/app): gunicorn runs "service:create_app()", the flask CLI finds it by name."""
    from .app import create_app as create
    return create(config_overrides)
