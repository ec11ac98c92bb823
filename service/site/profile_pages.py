"""The leaderboard and a player's profile, rendered on the server from the same functions as their
API routes (GET /players?sort=rating, GET /players/{name} and its rating-history, record and games),
with the rating history drawn as SVG (chart.py): no script, so nothing to load and nothing inline.

A profile shares its address with GET /players/{name}: a browser, which asks for HTML first, gets
the page; any client asking for JSON (or for anything, `*/*`) gets the JSON as before."""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from ..players import accounts, profiles, ratings
from .chart import rating_chart

profile_pages = Blueprint("profile_pages", __name__, template_folder="templates")
BOARD_PAGE = 50
CHART_MATCHES = 200  # the chart's newest rated matches
LISTED = 20  # the newest rows of each table on a profile
PROFILE_ENDPOINT = "ratings.get_player"  # the API route whose address a profile shares


def _offset() -> int:
    text = request.args.get("offset", "0")
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        abort(400)
    return int(text)


@profile_pages.route("/leaderboard", methods=["GET"])
def leaderboard():
    """The ranked players, a page of 50 at a time (?offset=)."""
    offset = _offset()
    page = profiles.board(BOARD_PAGE, offset)
    return render_template("leaderboard.html", page=page, offset=offset, size=BOARD_PAGE, rules=page["rules"])


def _point_text(number: int, match: dict) -> str:
    """A chart point's tooltip: "Match 3: 1662 (won against Bob)"."""
    return f"Match {number}: {match['after']:.0f} ({match['result']} against {match['opponent']['label']})"


def profile_page(name: str):
    player = accounts.by_name(name) if len(name) <= 40 else None
    if player is None:
        return render_template("player_not_found.html", name=name), 404
    history = profiles.history(player, CHART_MATCHES, 0)["matches"]
    # The chart draws the account's own rating: the house bot's matches at a level moved the level's.
    own = [m for m in history if m["level"] is None]
    first = player.rated_games - len(own)  # matches older than the chart's (0: it shows them all)
    chart = rating_chart([(m["after"], _point_text(first + i + 1, m)) for i, m in enumerate(reversed(own))],
                         title="Rating after each rated match" if first <= 0 else
                         f"Rating after each of the last {len(own)} rated matches")
    return render_template(
        "profile.html", player=player, rating=ratings.describe(player), standing=ratings.board_standing(player),
        chart=chart, history=history[:LISTED],
        record=profiles.record(player, LISTED, 0)["opponents"],
        current=profiles.games(player, "active", LISTED, 0)["games"],
        finished=profiles.games(player, "finished", LISTED, 0)["games"],
        public=player.public_games_secret is not None, provisional_above=ratings.PROVISIONAL_ABOVE,
        **{"tournaments": None, "review_average": None,
           **{k: v for hook in profiles.page_parts() for k, v in hook(player).items()}})


def _wants_html() -> bool:
    return request.accept_mimetypes.best_match(("application/json", "text/html")) == "text/html"


def page_for_browsers():
    """Before the API's GET /players/{name}: a browser gets the profile page instead."""
    if request.endpoint == PROFILE_ENDPOINT and request.method == "GET" and _wants_html():
        return profile_page(request.view_args["name"])
    return None


def vary_on_accept(response):
    """The profile's address answers HTML or JSON by the Accept header: caches must keep both apart."""
    if request.endpoint == PROFILE_ENDPOINT:
        response.vary.add("Accept")
    return response


def init_app(app) -> None:
    app.register_blueprint(profile_pages)
    app.before_request(page_for_browsers)
    app.after_request(vary_on_accept)
