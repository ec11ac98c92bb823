"""The tournaments' pages: /tournaments and /tournaments/<id> share their addresses with the API, as a
profile does (site/profile_pages.py): a browser, which asks for HTML first, gets the page (a shell
of site's, whose ES module reads the same JSON); any client asking for JSON gets the JSON."""
from __future__ import annotations

from flask import render_template, request

from ..games.store import could_be_game_id
from . import describe

LISTED = 20  # the newest tournaments a profile lists
PAGES = {"tournaments.list_tournaments": "tournaments.html", "tournaments.get_tournament": "tournament.html"}


def _wants_html() -> bool:
    return request.accept_mimetypes.best_match(("application/json", "text/html")) == "text/html"


def page_for_browsers():
    """Before the API's GET /tournaments and GET /tournaments/{id}: a browser gets the page instead."""
    template = PAGES.get(request.endpoint)
    if template is None or request.method != "GET" or not _wants_html():
        return None
    tournament_id = (request.view_args or {}).get("tournament_id", "")
    if tournament_id and not could_be_game_id(tournament_id):
        return None  # the API's own 404
    return render_template(template, tournament_id=tournament_id)


def profile_part(player) -> dict:
    """The profile page's tournaments (players.profiles.page_parts)."""
    return {"tournaments": describe.of_player(player)[:LISTED]}


def vary_on_accept(response):
    if request.endpoint in PAGES:
        response.vary.add("Accept")
    return response
