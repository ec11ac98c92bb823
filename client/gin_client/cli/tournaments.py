"""gin's tournament commands: `gin tournaments` (the listing: open, running, finished; filtered by
format and who may enter) and `gin tournament ACTION ID` (show: the standings and your game this
round, kept in the store so that `gin show -g` opens it; join, leave, withdraw: with your player)."""
from __future__ import annotations

import re

from ..api import Api
from .cards import UsageError
from .common import EXIT_OK, print_json, server_for
from .players import keep_seat, player_api
from .store import Store

FORMATS = {"swiss": "Swiss", "round_robin": "round robin", "knockout": "knockout"}
ACTIONS = ("show", "join", "leave", "withdraw")


def format_listing(page: dict) -> str:
    if not page["tournaments"]:
        return "No tournament."
    lines = []
    for t in page["tournaments"]:
        rounds = f", {t['rounds']} rounds" if t["rounds"] else ""
        lines.append(f"{t['tournament_id']}  {t['name'][:30]:30}  {FORMATS[t['format']]}{rounds}  [{t['status']}]  "
                     f"{t['entrants_count']}/{t['max_entrants']} entrants, {t['entry']}")
    if page["next_offset"] is not None:
        lines.append(f"more: gin tournaments --offset {page['next_offset']}")
    return "\n".join(lines)


def your_game(t: dict, name: str | None) -> dict | None:
    """Your pairing being played now, if any: {"game_id", "opponent", "round"}."""
    for r in t["rounds_played"]:
        for p in r["pairings"]:
            if name in (p["first"], p["second"]) and p["result"] is None:
                game = next((g for g in p["games"] if g["status"] != "finished"), None)
                if game:
                    return {"game_id": game["game_id"], "round": r["number"],
                            "opponent": p["second"] if p["first"] == name else p["first"]}
    return None


def format_tournament(t: dict, name: str | None) -> str:
    rounds = f", round {t['current_round']} of {t['rounds']}" if t["rounds"] and t["current_round"] else ""
    lines = [f"{t['name']} ({t['tournament_id']}): {FORMATS[t['format']]}, {t['status']}{rounds}, "
             f"{t['entrants_count']} entrants, organized by {t['organizer']}"]
    for row in t["standings"]:
        breaks = "  ".join(f"{key} {value:g}" for key, value in row["tie_breaks"].items() if value is not None)
        lines.append(f"  {row['place']:>3}. {row['player'][:20]:20} {row['score']:g}  {breaks}")
    mine = your_game(t, name)
    if mine:
        lines.append(f"Your game in round {mine['round']}: against {mine['opponent']}: gin show -g {mine['game_id']}")
    return "\n".join(lines)


def cmd_tournaments(args, store: Store) -> int:
    page = Api(server_for(args), retries=args.retries).tournaments(args.status, args.format, args.entry,
                                                                   args.limit, args.offset)
    if args.json:
        print_json(page)
    else:
        print(format_listing(page))
    return EXIT_OK


def cmd_tournament(args, store: Store) -> int:
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", args.tournament_id or ""):
        raise UsageError(f"not a tournament id: {args.tournament_id!r}")
    server = server_for(args)
    account = store.player(server)
    if args.action == "show":
        t = Api(server, retries=args.retries).tournament(args.tournament_id)
    else:
        api, account = player_api(args, store)
        t = api.tournament_action(args.tournament_id, args.action)
    name = account["name"] if account else None
    mine = your_game(t, name)
    if mine and account:  # kept here: `gin show -g ID` and `gin play` open it with the player token
        view = Api(server, account["token"], retries=args.retries).request("GET", f"/games/{mine['game_id']}").json()
        keep_seat(store, server, mine["game_id"], view["seat"], account, view)
    if args.json:
        print_json(t)
    else:
        print(format_tournament(t, name))
    return EXIT_OK
