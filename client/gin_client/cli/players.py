"""gin's commands for a player account, one token for all the player's games: register, me, ratings
(a player's, and the leaderboard), games, challenges (made, listed, answered, waited for), rematch,
watch links, series."""
from __future__ import annotations

import re
import sys
import time
from datetime import datetime, timezone

from ..api import Api, NetworkError, ServiceError, player_events
from .cards import UsageError
from .common import EXIT_OK, UNSET, api_for, print_json, rules_of, server_for
from .display import format_deadline, render_view
from .store import Store

CHALLENGE_ID_LENGTH = 22  # ids are 16 random bytes, base64url


def player_api(args, store: Store, required: bool = True) -> tuple[Api, dict | None]:
    """The player's Api and account (not `required`: an Api without a token when there is no account,
    for what is public, like the leaderboard)."""
    server = server_for(args)
    account = store.player(server)
    if account is None and required:
        raise UsageError(f"no player account for {server} in {store.path}: make one with `gin register NAME`")
    return Api(server, account["token"] if account else None, retries=args.retries), account


def keep_seat(store: Store, server: str, game_id: str, seat: int, account: dict, view: dict | None) -> dict:
    """Remember a seat your player holds: no token of its own, the player token opens it."""
    entry = store.games.get(game_id) or {"server": server, "seat": seat, "player": account["name"],
                                         "name": account["name"],
                                         "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    if view and "version" in view:
        entry["version"] = view["version"]
    store.games[game_id] = entry
    store.save()
    return entry


def cmd_register(args, store: Store) -> int:
    server = server_for(args)
    held = store.player(server)
    if held is not None:
        raise UsageError(f"this token file holds the player {held['name']!r} for {server} already")
    made = Api(server, retries=args.retries).register(args.player_name, args.email, args.bot)
    store.set_player(server, {"name": made["player"]["name"], "token": made["token"], "id": made["player"]["id"]})
    store.save()
    if args.json:
        print_json(made if args.show_token else {k: v for k, v in made.items() if k != "token"})
        return EXIT_OK
    print(f"Registered {made['player']['name']} on {server}; the player token is kept in {store.path}.")
    if args.show_token:
        print(f"Your player token: {made['token']}")
    return EXIT_OK


def cmd_me(args, store: Store) -> int:
    api, account = player_api(args, store)
    me = api.me()
    if args.json:
        print_json({**me, "token": account["token"]} if args.show_token else me)
        return EXIT_OK
    print(f"{me['name']}{' (a bot)' if me['bot'] else ''} on {api.server}"
          + (f", email {me['email']}" if me.get("email") else "") + f", since {me['created_at'][:10]}.")
    if args.show_token:
        print(f"Your player token: {account['token']}")
    return EXIT_OK


# -- ratings: a player's (Glicko-2 from two-seat matches, OpenSkill from tables of 3 to 8) and the
# leaderboard (GET /players?sort=rating, paged)

def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def describe_ratings(shown: dict) -> str:
    """'Ann: 1662 (deviation 290, provisional), 1 rated match; table rating 2.43 (mu 26.96, sigma 8.18), 1 rated table.'"""
    rating, table = shown["rating"], shown.get("table_rating")
    line = (f"{shown['name']}{' (a bot)' if shown['bot'] else ''}: {rating['value']:.0f} "
            f"(deviation {rating['deviation']:.0f}{', provisional' if rating['provisional'] else ''}), "
            f"{_plural(rating['games'], 'rated match', 'rated matches')}")
    if table is not None:
        line += (f"; table rating {table['ordinal']:.2f} (mu {table['mu']:.2f}, sigma {table['sigma']:.2f}), "
                 f"{_plural(table['games'], 'rated table', 'rated tables')}")
    return line + "."


def describe_level(rated: dict) -> str:
    """One of the house bot's levels, rated as an identity of its own: 'House (level 4), 1710'."""
    return f"{rated['label']}, {rated['rating']['value']:.0f}"


def describe_levels(levels: list[dict]) -> list[str]:
    """'  House (level 4), 1710 (deviation 84), 40 rated matches' for each level."""
    return [f"  {describe_level(rated)} (deviation {rated['rating']['deviation']:.0f}"
            f"{', provisional' if rated['rating']['provisional'] else ''}), "
            f"{_plural(rated['rating']['games'], 'rated match', 'rated matches')}" for rated in levels]


def _house_levels(api: Api, shown: dict) -> list[dict] | None:
    """The levels (GET /house-bot) when `shown` is the house bot; else None."""
    if not shown["bot"]:
        return None
    try:
        house = api.house_bot()
    except ServiceError:  # no house bot on this server
        return None
    same = house.get("name", "").casefold() == shown["name"].casefold()
    return house.get("levels") if same else None


def cmd_rating(args, store: Store) -> int:
    """Your ratings, or another player's (by name): the value, its deviation, rated matches; the table rating.
    The house bot's: each of its levels' too, each rated as an identity of its own."""
    api, _ = player_api(args, store)
    shown = api.player(args.player_name) if args.player_name else api.me()
    levels = _house_levels(api, shown) if args.player_name else None
    if args.json:
        print_json({"name": shown["name"], "bot": shown["bot"], "rating": shown["rating"],
                    "table_rating": shown.get("table_rating"), **({"levels": levels} if levels else {})})
        return EXIT_OK
    print(describe_ratings(shown))
    standing = (shown if "leaderboard" in shown else api.player(shown["name"])).get("leaderboard")
    if standing:
        print(describe_standing(standing))
    if levels:
        print("Its levels, each rated as a player of its own (gin new --vs-bot --level N):")
        print("\n".join(describe_levels(levels)))
    return EXIT_OK


def describe_standing(standing: dict) -> str:
    """Where a player stands against the leaderboard's rules (GET /players/{name} `leaderboard`)."""
    if standing["on_board"]:
        return "On the leaderboard."
    missing = []
    if standing["rated_games_needed"]:
        missing.append(f"about {_plural(standing['rated_games_needed'], 'more rated match', 'more rated matches')} "
                       "to settle the rating")
    if standing["eligible_from"]:
        missing.append(f"the account is old enough from {standing['eligible_from'][:10]}")
    return "Not on the leaderboard" + (" yet: " + ", and ".join(missing) if missing else "") + "."


def board_rules_text(rules: dict) -> str:
    return (f"it lists players whose rating is settled (a deviation of {rules['max_deviation']:.0f} or less: about "
            f"{rules['typical_rated_games']} rated matches from a new account, {rules['min_rated_games']} at the "
            f"least) and whose account is {rules['min_account_age_days']} days old")


def cmd_leaderboard(args, store: Store) -> int:
    """The leaderboard, a page at a time: rank, name, rating, deviation, rated matches."""
    api, _ = player_api(args, store, required=False)
    page = api.leaderboard(args.limit, args.offset)
    if args.json:
        print_json(page)
        return EXIT_OK
    if not page["players"]:
        print(f"Nobody on this page of the leaderboard: {board_rules_text(page['rules'])}."
              if args.offset == 0 else "No players past this point.")
        return EXIT_OK
    width = max(len(p["name"]) + (6 if p["bot"] else 0) for p in page["players"])
    for p in page["players"]:
        name = p["name"] + (" (bot)" if p["bot"] else "")
        rating = p["rating"]
        print(f"{p['rank']:>4}. {name:<{width}}  {rating['value']:>6.0f}  (deviation {rating['deviation']:.0f}, "
              f"{_plural(rating['games'], 'rated match', 'rated matches')})")
    if page["next_offset"] is not None:
        print(f"More: gin leaderboard --offset {page['next_offset']}" +
              (f" --limit {args.limit}" if args.limit != 50 else ""))
    return EXIT_OK


# -- games and challenges

def _game_row(game: dict) -> str:
    opponent = game.get("opponent") or {}
    who = opponent.get("player") or opponent.get("name") or "(nobody yet)"
    who += " (bot)" if opponent.get("bot") else ""
    if game["status"] == "finished":
        state = "over"
    elif game["status"] != "active":
        state = "waiting to join"
    else:
        state = "YOUR TURN" if game["your_turn"] else "their turn"
    score = f"{game['score']['you']}-{game['score']['opponent']}"
    deadline = format_deadline(game.get("deadline")) if game["status"] == "active" else ""
    return f"{game['game_id'][:8]:10} {who[:24]:24} {score:>9}  {state:16} {deadline}"


def cmd_games(args, store: Store) -> int:
    api, account = player_api(args, store)
    page = api.my_games(args.limit, args.offset)
    for game in page["games"]:  # so that `gin show -g ID` and the rest work on them here
        if game["game_id"] not in store.games:
            keep_seat(store, api.server, game["game_id"], game["seat"], account, None)
    if args.json:
        print_json(page)
        return EXIT_OK
    if not page["games"]:
        print("No games yet: `gin new --vs-bot` plays the computer, `gin challenge NAME` a person.")
        return EXIT_OK
    print(f"{'GAME':10} {'OPPONENT':24} {'SCORE':>9}  {'STATUS':16} DEADLINE")
    for game in page["games"]:
        print(_game_row(game))
    if page.get("next_offset") is not None:
        print(f"(more: gin games --offset {page['next_offset']})")
    return EXIT_OK


def _challenge_line(challenge: dict) -> str:
    rules = challenge.get("rules") or {}
    hours = challenge.get("move_time_hours")
    to = challenge.get("to") or "anyone" + ("" if challenge.get("opponent") == "any" else f" ({challenge['opponent']}s)")
    if challenge.get("seats"):  # a rematch at a table: every seat asked, with its answer so far
        to = ", ".join(f"{s['player']} ({s['answer']})" for s in challenge["seats"] if s["answer"] != "offered")
    return (f"{challenge['challenge_id']}  {challenge['from']} -> {to}: {rules.get('preset', '?')} to "
            f"{rules.get('target', '?')}, {'no deadline' if hours is None else f'{hours} h a move'}"
            + (f", rematch of {challenge['rematch_of'][:8]}" if challenge.get("rematch_of") else "")
            + f"; expires {format_deadline(challenge.get('expires_at'))}")


def _challenge_id(api: Api, ref: str) -> str:
    """A challenge's id from the id or a unique prefix of one that `gin challenges` lists."""
    ref = ref.strip()
    if not ref or not re.fullmatch(r"[A-Za-z0-9_-]+", ref):
        raise UsageError(f"not a challenge id: {ref!r}")
    if len(ref) == CHALLENGE_ID_LENGTH:
        return ref
    listed = api.challenges()
    found = {c["challenge_id"] for part in ("to_me", "open", "mine") for c in listed.get(part, [])
             if c["challenge_id"].startswith(ref)}
    if len(found) != 1:
        raise UsageError(f"no pending challenge starts with {ref!r} (see `gin challenges`)" if not found
                         else f"{ref!r} matches {len(found)} challenges; give more of the id")
    return found.pop()


def wait_for_answer(api: Api, body: dict, timeout: float) -> tuple[dict, dict | None]:
    """Challenge (`body`) and wait on the player's stream for the answer: (challenge, the
    challenge_accepted or _declined event), or (challenge, None) after `timeout` seconds. The stream
    is open before the challenge is made, so a quick answer is never missed."""
    made: dict = {}

    def offer():
        made.update(api.challenge(body))

    for event in player_events(api, until=time.monotonic() + timeout, on_open=offer):
        if event.get("challenge_id") == made.get("challenge_id") and event.get("type") in (
                "challenge_accepted", "challenge_declined"):
            return made, event
    if not made:
        raise NetworkError(f"cannot reach the player stream of {api.server}")
    return made, None


def _settle_unanswered(api: Api, challenge: dict) -> str | None:
    """After waiting in vain: withdraw the challenge. If it was answered meanwhile (closed), the game
    it made, if any, is the newest one against that player."""
    try:
        api.cancel(challenge["challenge_id"])
        return None
    except ServiceError as exc:
        if exc.code != "challenge-closed":
            raise
    for game in api.my_games(limit=20)["games"]:
        if (game.get("opponent") or {}).get("player") == challenge.get("to"):
            return game["game_id"]
    return None


def _take_seat(args, store: Store, api: Api, account: dict, game_id: str, opening: str) -> int:
    view, _ = api.view(game_id)
    seat = view.get("seat", 0)
    keep_seat(store, api.server, game_id, seat, account, view)
    if args.json:
        print_json({"game_id": game_id, "seat": seat, "game": view})
        return EXIT_OK
    print(f"{opening} Game {game_id}, you are seat {seat}; `gin play -g {game_id[:8]}` sits you at it.")
    print(render_view(view, seat, args.style, game_id))
    return EXIT_OK


def _challenge_body(args, to: str | None, opponent: str) -> dict:
    body: dict = {"to": to, "rules": rules_of(args), "opponent": opponent}
    if args.move_hours is not UNSET:
        body["move_time_hours"] = args.move_hours
    if getattr(args, "expires_hours", None) is not None:
        body["expires_in_hours"] = args.expires_hours
    if getattr(args, "unrated", False):
        body["rated"] = False
    return body


def _answered(args, store: Store, api: Api, account: dict, challenge: dict, answer: dict | None,
              timeout: float) -> int:
    who = challenge.get("to") or "nobody"
    if answer is None:
        game_id = _settle_unanswered(api, challenge)
        if game_id is None:
            raise ServiceError(408, "challenge-unanswered", f"{who} did not answer within {timeout:g} s; "
                                                            "the challenge is withdrawn")
        return _take_seat(args, store, api, account, game_id, f"{who} accepted.")
    if answer["type"] == "challenge_declined":
        raise ServiceError(409, "challenge-declined", f"{answer.get('by') or who} declined the challenge "
                                                      f"(reason: {answer.get('reason')})")
    return _take_seat(args, store, api, account, answer["game_id"], f"{answer.get('by') or who} accepted.")


def new_vs_bot(args, store: Store) -> int:
    """gin new --vs-bot: challenge the house bot as your player, and take the seat once it accepts."""
    api, account = player_api(args, store)
    if args.timeout <= 0:
        raise UsageError("--timeout takes a number of seconds above 0")
    house = api.house_bot()
    bot_name, level = house["name"], getattr(args, "level", None)
    body = _challenge_body(args, bot_name, "bot")
    if level is not None:
        body["level"] = level
    if not args.json:
        # Each level is rated as an identity of its own: 'House (level 4), 1710' (an older server: no levels).
        rated = next((row for row in house.get("levels") or () if row.get("level") == level), None)
        who = (f"the computer, {describe_level(rated)}" if rated else
               f"{bot_name}, the computer" + (f" at level {level}" if level is not None else ""))
        print(f"Challenging {who}; waiting for it to accept...", file=sys.stderr, flush=True)
    challenge, answer = wait_for_answer(api, body, args.timeout)
    return _answered(args, store, api, account, challenge, answer, args.timeout)


def cmd_challenge(args, store: Store) -> int:
    if bool(args.to) == bool(args.open):
        raise UsageError("name the player to challenge, or give --open for anyone (not both)")
    if args.wait is not None and args.wait <= 0:
        raise UsageError("--wait takes a number of seconds above 0")
    api, account = player_api(args, store)
    body = _challenge_body(args, args.to, args.opponent)
    if args.wait is not None:
        challenge, answer = wait_for_answer(api, body, args.wait)
        return _answered(args, store, api, account, challenge, answer, args.wait)
    challenge = api.challenge(body)
    if args.json:
        print_json(challenge)
    elif challenge.get("status") == "declined":  # a player may decline at once (one who blocked you does)
        print(f"{challenge.get('to')} declined the challenge ({challenge.get('reason') or 'no reason given'}).")
    else:
        print(f"Challenge made: {_challenge_line(challenge)}")
        print(f"They accept with: gin accept {challenge['challenge_id']}"
              + ("" if args.to else " (anyone)") + f"; you withdraw it with: gin cancel {challenge['challenge_id']}")
    return EXIT_OK


def cmd_challenges(args, store: Store) -> int:
    api, _ = player_api(args, store)
    listed = api.challenges()
    if args.json:
        print_json(listed)
        return EXIT_OK
    for part, title in (("to_me", "To you (gin accept ID / gin decline ID)"),
                        ("open", "Open, yours to take (gin accept ID)"),
                        ("mine", "Yours, waiting (gin cancel ID)")):
        rows = listed.get(part) or []
        print(f"{title}: {'none' if not rows else ''}")
        for challenge in rows:
            print("  " + _challenge_line(challenge))
    return EXIT_OK


def cmd_accept(args, store: Store) -> int:
    api, account = player_api(args, store)
    accepted = api.accept(_challenge_id(api, args.challenge_id))
    if accepted.get("game_id") is None:  # a rematch at a table: made when its last seat accepts (202)
        if args.json:
            print_json(accepted)
        else:
            waiting = [s["player"] for s in accepted.get("seats") or [] if s["answer"] == "pending"]
            print(f"Accepted; the rematch starts when {', '.join(waiting)} accept too (gin games lists it then).")
        return EXIT_OK
    return _take_seat(args, store, api, account, accepted["game_id"], "Accepted.")


def cmd_decline(args, store: Store) -> int:
    api, _ = player_api(args, store)
    declined = api.decline(_challenge_id(api, args.challenge_id), args.reason)
    if args.json:
        print_json(declined)
    else:
        print(f"Declined {declined['from']}'s challenge ({args.reason}).")
    return EXIT_OK


def cmd_cancel(args, store: Store) -> int:
    api, _ = player_api(args, store)
    cancelled = api.cancel(_challenge_id(api, args.challenge_id))
    if args.json:
        print_json(cancelled)
    else:
        print(f"Withdrew the challenge {cancelled['challenge_id']}.")
    return EXIT_OK


def cmd_rematch(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = api_for(args, entry)
    offered = api.rematch(game_id).get("rematch")
    if offered is None:
        offered = api.offer_rematch(game_id)
        verb = "Offered a rematch"
    else:
        verb = "A rematch was offered already"
    if args.json:
        print_json(offered)
        return EXIT_OK
    print(f"{verb}: {_challenge_line(offered)} [{offered['status']}]")
    if offered["status"] == "pending":
        asked = offered["to"] or " and ".join(s["player"] for s in offered["seats"] if s["answer"] == "pending")
        print(f"{asked} {'accept' if offered.get('seats') else 'accepts'} with: gin accept {offered['challenge_id']}")
    elif offered.get("game_id"):
        print(f"The rematch is game {offered['game_id']} (gin games lists it).")
    return EXIT_OK


def cmd_watch_link(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = api_for(args, entry)
    if args.revoke:
        if not args.revoke.isdigit():
            raise UsageError(f"a watch link's id is a number (gin watch-link --list), not {args.revoke!r}")
        api.revoke_watch_link(game_id, args.revoke)
        if args.json:
            print_json({"revoked": args.revoke})
        else:
            print(f"Revoked watch link {args.revoke}: its key shows nothing from now on.")
        return EXIT_OK
    if args.list:
        links = api.watch_links(game_id)
        if args.json:
            print_json({"links": links})
        else:
            for link in links:
                print(f"{link['id']:>4}  made by seat {link['created_by_seat']} at {link['created_at']}")
            if not links:
                print("No watch links for this game.")
        return EXIT_OK
    made = api.create_watch_link(game_id)
    page = f"{api.server}/watch/{game_id}#key={made['key']}"  # the key in the fragment: never sent to a server
    if args.json:
        print_json({**made, "page": page})
        return EXIT_OK
    print(f"Share this read-only link (it shows the table, never a hand in play):\n  {page}")
    print(f"Revoke it with: gin watch-link -g {game_id[:8]} --revoke {made['id']}")
    return EXIT_OK


def format_series(series: dict) -> str:
    """A series: its format, the standings table, and its games in order with their results."""
    fmt = (f"best of {series['matches']}" if series["kind"] == "best_of" else f"first to {series['target']} points")
    target = (series.get("rules") or {}).get("target")
    standings = series["standings"]
    lines = [f"Series {series['series_id']}: {' v '.join(series['players'])}, {fmt}"
             + (f", each game to {target}" if target else "") + f" [{series['status']}]"]
    for row in standings["rows"]:
        lines.append(f"  {row['player'][:20]:20} won {row['won']}  lost {row['lost']}  drawn {row['drawn']}  "
                     f"points {row['points']:>5}  net {row['net']:+}")
    if standings["winner"]:
        lines.append(f"{standings['winner']} won the series"
                     + (" (exactly 50 ahead loses)" if standings.get("exactly_50_rule") else "") + ".")
    elif series["status"] == "playing":
        lines.append(f"{standings['leader']} leads." if standings["leader"] else "Level.")
    for game in series["games"]:
        result = game["result"]
        said = (f"{result['winner'] or 'nobody'} won {'-'.join(map(str, result['totals']))} ({result['reason']})"
                if result else f"in play: gin show -g {game['game_id']}")
        lines.append(f"  {game['number']}. {' v '.join(game['seating'])}  {said}")
    return "\n".join(lines)


def cmd_series(args, store: Store) -> int:
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", args.series_id or ""):
        raise UsageError(f"not a series id: {args.series_id!r}")
    api, _ = player_api(args, store)
    series = api.series(args.series_id)
    if args.json:
        print_json(series)
    else:
        print(format_series(series))
    return EXIT_OK
