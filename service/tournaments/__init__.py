"""Tournaments by correspondence (issue 40): round robins (single or double), Swiss and knockouts of
3 to 128 players and bots, with pairings anyone can check and standings recomputed from the games.

The pure core (no Flask, no database; an import-linter contract holds it so):
    formats.py    what a tournament may be: formats, entrants, rounds, tie-breaks
    pairing.py    Swiss pairings as a maximum weight matching (networkx)
    schedule.py   round robins: FIDE's Berger tables
    bracket.py    knockout brackets: seeds, byes to the top seeds, walkovers
    standings.py  match points, the FIDE tie-breaks, each player's rounds

The feature (above series and players, which it uses):
    models.py     tournaments, entrants, invitations, rounds, pairings and their games
    entry.py      make one, join, leave, the house bot at a level, withdraw, start early, cancel; caps
    rounds.py     the start (seeds), each round's pairings and games, the next round, the end
    results.py    a pairing decided by its games (a games.changes hook), and the locks a game's end
                  takes first (a hook registered before every other)
    settling.py   entry windows and round deadlines (the worker's sweep), games ended from outside
    describe.py   what anyone reads: listing, one tournament, standings, crosstable, a player's
    pages.py      /tournaments and /tournaments/<id> for browsers (site's shells and ES modules)
    routes.py, schemas.py, examples.py, codes.py, stream_schemas.py, cli.py   the HTTP side and
                  `flask tournaments sweep`

It hears of games' ends through games.changes (after series' hook: a knockout series records its
game first; its locks taken by a hook before every other), opens its games to watchers through
players.watching.public_secrets, and has its deadlines swept by the notify worker
(notify.sweeps.periodic).
"""
from __future__ import annotations


def init_app(app) -> None:
    """Register the routes and the command; the change hook that decides pairings (registered after
    series': a series game's end is recorded in its series first) and the one that takes a game's
    end's locks before every other hook (results.py); the watch keys of tournament games; the sweep
    of entry windows and round deadlines."""
    from ..coach import hints
    from ..core.extensions import api
    from ..games import changes
    from ..notify import sweeps
    from ..players import profiles, watching
    from . import describe, pages, results, settling
    from .cli import tournaments_cli
    from .routes import tournament_routes
    api.register_blueprint(tournament_routes)
    app.cli.add_command(tournaments_cli)
    changes.on_change(results.lock_first, reads=results.tournament_read, first=True)
    changes.on_change(results.after_change, reads=results.pairing_read)
    watching.public_secrets.register(describe.secrets_of_game)
    hints.hint_refusers.register(describe.refuse_hints)  # no hints in a tournament's games
    sweeps.periodic.register(settling.sweep)
    profiles.page_parts.register(pages.profile_part)  # a profile lists the tournaments and places
    app.before_request(pages.page_for_browsers)  # a browser gets the page at the API's address
    app.after_request(pages.vary_on_accept)
