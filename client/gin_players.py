"""gin's commands for a player account, one token for all the player's games: register, me, games,
challenges (made, listed, answered, waited for), rematch, watch links, series."""
from __future__ import annotations

import re
import sys
import time
from datetime import datetime, timezone

if __package__:  # part of the `client` package (or `gin_client`, installed alone)
    from . import api as http, gin_cards, gin_common, gin_display, gin_ratings, gin_store
else:  # run from a folder of copied client files, which gin.py has put on sys.path
    import api as http
    import gin_cards
    import gin_common
    import gin_display
    import gin_ratings
    import gin_store

Api, ServiceError, NetworkError = http.Api, http.ServiceError, http.NetworkError
UsageError, Store = gin_cards.UsageError, gin_store.Store
format_deadline, render_view = gin_display.format_deadline, gin_display.render_view
EXIT_OK, _UNSET = gin_common.EXIT_OK, gin_common._UNSET
_api_for, _print_json, _rules, _server_for = (
    gin_common._api_for, gin_common._print_json, gin_common._rules, gin_common._server_for)


CHALLENGE_ID_LENGTH = 22  # ids are 16 random bytes, base64url


def _player_api(args, store: Store) -> tuple[Api, dict]:
    server = _server_for(args)
    account = store.player(server)
    if account is None:
        raise UsageError(f"no player account for {server} in {store.path}: make one with `gin register NAME`")
    return Api(server, account["token"], retries=args.retries), account


def _keep_seat(store: Store, server: str, game_id: str, seat: int, account: dict, view: dict | None) -> dict:
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
    server = _server_for(args)
    held = store.player(server)
    if held is not None:
        raise UsageError(f"this token file holds the player {held['name']!r} for {server} already")
    made = Api(server, retries=args.retries).register(args.player_name, args.email, args.bot)
    store.set_player(server, {"name": made["player"]["name"], "token": made["token"], "id": made["player"]["id"]})
    store.save()
    if args.json:
        _print_json(made if args.show_token else {k: v for k, v in made.items() if k != "token"})
        return EXIT_OK
    print(f"Registered {made['player']['name']} on {server}; the player token is kept in {store.path}.")
    if args.show_token:
        print(f"Your player token: {made['token']}")
    return EXIT_OK


def cmd_me(args, store: Store) -> int:
    api, account = _player_api(args, store)
    me = api.me()
    if args.json:
        _print_json({**me, "token": account["token"]} if args.show_token else me)
        return EXIT_OK
    print(f"{me['name']}{' (a bot)' if me['bot'] else ''} on {api.server}"
          + (f", email {me['email']}" if me.get("email") else "") + f", since {me['created_at'][:10]}.")
    if args.show_token:
        print(f"Your player token: {account['token']}")
    return EXIT_OK


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
    api, account = _player_api(args, store)
    page = api.my_games(args.limit, args.offset)
    for game in page["games"]:  # so that `gin show -g ID` and the rest work on them here
        if game["game_id"] not in store.games:
            _keep_seat(store, api.server, game["game_id"], game["seat"], account, None)
    if args.json:
        _print_json(page)
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

    for event in http.player_events(api, until=time.monotonic() + timeout, on_open=offer):
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
    _keep_seat(store, api.server, game_id, seat, account, view)
    if args.json:
        _print_json({"game_id": game_id, "seat": seat, "game": view})
        return EXIT_OK
    print(f"{opening} Game {game_id}, you are seat {seat}; `gin play -g {game_id[:8]}` sits you at it.")
    print(render_view(view, seat, args.style, game_id))
    return EXIT_OK


def _challenge_body(args, to: str | None, opponent: str) -> dict:
    body: dict = {"to": to, "rules": _rules(args), "opponent": opponent}
    if args.move_hours is not _UNSET:
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
    api, account = _player_api(args, store)
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
        who = (f"the computer, {gin_ratings.describe_level(rated)}" if rated else
               f"{bot_name}, the computer" + (f" at level {level}" if level is not None else ""))
        print(f"Challenging {who}; waiting for it to accept...", file=sys.stderr, flush=True)
    challenge, answer = wait_for_answer(api, body, args.timeout)
    return _answered(args, store, api, account, challenge, answer, args.timeout)


def cmd_challenge(args, store: Store) -> int:
    if bool(args.to) == bool(args.open):
        raise UsageError("name the player to challenge, or give --open for anyone (not both)")
    if args.wait is not None and args.wait <= 0:
        raise UsageError("--wait takes a number of seconds above 0")
    api, account = _player_api(args, store)
    body = _challenge_body(args, args.to, args.opponent)
    if args.wait is not None:
        challenge, answer = wait_for_answer(api, body, args.wait)
        return _answered(args, store, api, account, challenge, answer, args.wait)
    challenge = api.challenge(body)
    if args.json:
        _print_json(challenge)
    else:
        print(f"Challenge made: {_challenge_line(challenge)}")
        print(f"They accept with: gin accept {challenge['challenge_id']}"
              + ("" if args.to else " (anyone)") + f"; you withdraw it with: gin cancel {challenge['challenge_id']}")
    return EXIT_OK


def cmd_challenges(args, store: Store) -> int:
    api, _ = _player_api(args, store)
    listed = api.challenges()
    if args.json:
        _print_json(listed)
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
    api, account = _player_api(args, store)
    accepted = api.accept(_challenge_id(api, args.challenge_id))
    if accepted.get("game_id") is None:  # a rematch at a table: made when its last seat accepts (202)
        if args.json:
            _print_json(accepted)
        else:
            waiting = [s["player"] for s in accepted.get("seats") or [] if s["answer"] == "pending"]
            print(f"Accepted; the rematch starts when {', '.join(waiting)} accept too (gin games lists it then).")
        return EXIT_OK
    return _take_seat(args, store, api, account, accepted["game_id"], "Accepted.")


def cmd_decline(args, store: Store) -> int:
    api, _ = _player_api(args, store)
    declined = api.decline(_challenge_id(api, args.challenge_id), args.reason)
    if args.json:
        _print_json(declined)
    else:
        print(f"Declined {declined['from']}'s challenge ({args.reason}).")
    return EXIT_OK


def cmd_cancel(args, store: Store) -> int:
    api, _ = _player_api(args, store)
    cancelled = api.cancel(_challenge_id(api, args.challenge_id))
    if args.json:
        _print_json(cancelled)
    else:
        print(f"Withdrew the challenge {cancelled['challenge_id']}.")
    return EXIT_OK


def cmd_rematch(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    offered = api.rematch(game_id).get("rematch")
    if offered is None:
        offered = api.offer_rematch(game_id)
        verb = "Offered a rematch"
    else:
        verb = "A rematch was offered already"
    if args.json:
        _print_json(offered)
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
    api = _api_for(args, entry)
    if args.revoke:
        if not args.revoke.isdigit():
            raise UsageError(f"a watch link's id is a number (gin watch-link --list), not {args.revoke!r}")
        api.revoke_watch_link(game_id, args.revoke)
        if args.json:
            _print_json({"revoked": args.revoke})
        else:
            print(f"Revoked watch link {args.revoke}: its key shows nothing from now on.")
        return EXIT_OK
    if args.list:
        links = api.watch_links(game_id)
        if args.json:
            _print_json({"links": links})
        else:
            for link in links:
                print(f"{link['id']:>4}  made by seat {link['created_by_seat']} at {link['created_at']}")
            if not links:
                print("No watch links for this game.")
        return EXIT_OK
    made = api.create_watch_link(game_id)
    page = f"{api.server}/watch/{game_id}#key={made['key']}"  # the key in the fragment: never sent to a server
    if args.json:
        _print_json({**made, "page": page})
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
    api, _ = _player_api(args, store)
    series = api.series(args.series_id)
    if args.json:
        _print_json(series)
    else:
        print(format_series(series))
    return EXIT_OK
