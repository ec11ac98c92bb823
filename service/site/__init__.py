"""The pages a person plays on: server-rendered shells (Jinja) and small ES modules that call the
public JSON API like any other client. No secret is ever rendered into a page: tokens, invite
codes and link keys travel only in URL fragments (which browsers never send) and request bodies
or Authorization headers."""
from __future__ import annotations

import mimetypes

from flask import Blueprint, abort, render_template, send_from_directory

from ..games.store import could_be_game_id
from . import doc_sections, profile_pages

mimetypes.add_type("application/manifest+json", ".webmanifest")  # not in every system's table

site = Blueprint("site", __name__, template_folder="templates", static_folder="static",
                 static_url_path="/assets")

# Scripts and styles only from this origin, no inline script; nothing may frame the pages.
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
               "frame-ancestors 'none'")
API_POLICY = "default-src 'none'; frame-ancestors 'none'"  # JSON is never a document to run
# The service worker fetches pages and files, and shows notifications with the site's icon.
WORKER_POLICY = "default-src 'none'; connect-src 'self'; img-src 'self'"


@site.route("/", methods=["GET"])
def landing():
    return render_template("landing.html")


@site.route("/my-games", methods=["GET"])
def my_games():
    return render_template("my_games.html")


@site.route("/player", methods=["GET"])
def player():
    """Sign in with a player token (kept in the browser), my games, challenges, the computer."""
    return render_template("player.html")


@site.route("/watch/<game_id>", methods=["GET"])
def watch(game_id):
    """A watch link's page: /watch/<game>#key=<watch key>; the table, never a hand in play."""
    return render_template("watch.html", game_id=_game_id(game_id))


@site.route("/join/<game_id>", methods=["GET"])
def join(game_id):
    return render_template("join.html", game_id=_game_id(game_id))


@site.route("/replay/<game_id>", methods=["GET"])
def replay(game_id):
    """A finished match move by move: /replay/<game>#token=<seat token> or #key=<watch key>."""
    return render_template("replay.html", game_id=_game_id(game_id))


@site.route("/play/<game_id>", methods=["GET"])
def play(game_id):
    return render_template("play.html", game_id=_game_id(game_id))


@site.route("/sw.js", methods=["GET"])
def service_worker():
    """The service worker, from the root so that its scope is every page (static/js/sw.js)."""
    response = send_from_directory(site.static_folder, "js/sw.js", mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = "no-cache"  # a new version is picked up on the next visit
    response.headers["Content-Security-Policy"] = WORKER_POLICY  # its own fetches, of this origin only
    return response


@site.route("/docs/walkthrough", methods=["GET"])
def walkthrough():
    """docs/api.md's "A turn with curl", as a page: where /docs sends people to start."""
    blocks = doc_sections.section("A turn with curl")
    if not blocks:
        abort(404)
    return render_template("walkthrough.html", blocks=blocks)


def _game_id(game_id: str) -> str:
    if not could_be_game_id(game_id):
        abort(404)
    return game_id


def security_headers(response):
    """On every answer, pages and API alike."""
    headers = response.headers
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    headers["X-Frame-Options"] = "DENY"
    headers["Cross-Origin-Opener-Policy"] = "same-origin"
    if "Content-Security-Policy" not in headers:
        headers["Content-Security-Policy"] = PAGE_POLICY if response.mimetype == "text/html" else API_POLICY
    return response


def init_app(app) -> None:
    app.register_blueprint(site)
    profile_pages.init_app(app)
    app.after_request(security_headers)
