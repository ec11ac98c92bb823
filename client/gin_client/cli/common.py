"""What gin's commands share: the exit statuses, the server and token a command talks with, how a
command shows a game (the table, or --json), and the rules a new game or a challenge asks for."""
from __future__ import annotations

import json
import os

from ..api import Api, ServiceError
from .cards import UsageError
from .display import render_view
from .store import Store

DEFAULT_SERVER = "http://127.0.0.1:8000"  # where `make run` serves

# Exit statuses, so a script can tell the kinds of failure apart.
EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_RULES, EXIT_AUTH, EXIT_NETWORK, EXIT_NOT_FOUND = 0, 1, 2, 3, 4, 5, 6
EXIT_STATUSES = """exit status: 0 done, 1 other error, 2 usage (bad arguments, unknown game, bad card text),
3 rejected by the rules or the game's state, 4 bad or missing token, 5 network failure, 6 no such game"""


def exit_status_of(exc: ServiceError) -> int:
    """The exit status for the service's refusal (gin's, and the bots' and the demo's)."""
    if exc.status in (401, 403):
        return EXIT_AUTH
    if exc.status == 404:
        return EXIT_NOT_FOUND
    if exc.status in (409, 412, 422):
        return EXIT_RULES
    if exc.status == 400:
        return EXIT_USAGE
    return EXIT_ERROR


def print_json(data) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))


def server_for(args, entry: dict | None = None) -> str:
    # An explicit --server wins; then the server the game was made on; then $GIN_SERVER.
    return args.server or (entry or {}).get("server") or os.environ.get("GIN_SERVER") or DEFAULT_SERVER


def api_for(args, entry: dict) -> Api:
    """A seat's own token, or for a seat held by your player (a challenge's game) the player token."""
    server = server_for(args, entry)
    token = entry.get("token")
    if token is None:
        account = args.store.player(server) if getattr(args, "store", None) else None
        if account is None:
            raise UsageError(f"this game is your player's, and no player account for {server} is in "
                             "the token file (gin register NAME)")
        token = account["token"]
    return Api(server, token, retries=args.retries)


def remember(args, store: Store, game_id: str, view: dict | None) -> None:
    if view and "version" in view:
        entry = store.games[game_id]
        entry["version"] = view["version"]
        entry["status"] = view.get("status")
        store.save()


def show(args, game_id: str, entry: dict, view: dict) -> None:
    if args.json:
        print_json(view)
    else:
        print(render_view(view, entry.get("seat", view.get("seat", 0)), args.style, game_id,
                          entry.get("invite_code") if view.get("status") == "waiting_for_opponent" else None))


UNSET = object()


def parse_option(text: str) -> tuple[str, object]:
    if "=" not in text:
        raise UsageError(f"--option takes key=value, not {text!r}")
    key, raw = text.split("=", 1)
    value: object = raw
    if raw.lower() in ("true", "yes", "on"):
        value = True
    elif raw.lower() in ("false", "no", "off"):
        value = False
    elif raw.lower() in ("null", "none"):
        value = None
    else:
        try:
            value = int(raw)
        except ValueError:
            pass
    return key.strip(), value


def rules_of(args) -> dict:
    rules: dict = {"preset": args.preset}
    for option in args.option or []:
        key, value = parse_option(option)
        rules[key] = value
    return rules
