"""gin's commands on one seat of a game: new, join, list, show, the moves (take, pass, draw, discard,
knock, gin, resign, claim), vacation, history, score, token, forget. The commands that wait for the
opponent (watch, play) are in gin_play.py, a player account's in gin_players.py."""
from __future__ import annotations

import uuid
from datetime import datetime, timezone

if __package__:  # part of the `client` package (or `gin_client`, installed alone)
    from . import api as http, gin_cards, gin_common, gin_display, gin_history, gin_players, gin_store
else:  # run from a folder of copied client files, which gin.py has put on sys.path
    import api as http
    import gin_cards
    import gin_common
    import gin_display
    import gin_history
    import gin_players
    import gin_store

Api, ServiceError, NetworkError, etag_of = http.Api, http.ServiceError, http.NetworkError, http.etag_of
UsageError, normalize_card, deadwood, deadwood_after_discard = (
    gin_cards.UsageError, gin_cards.normalize_card, gin_cards.deadwood, gin_cards.deadwood_after_discard)
Store = gin_store.Store
_seat_names, _score_text, describe_action, format_deadline, render_view = (
    gin_display._seat_names, gin_display._score_text, gin_display.describe_action, gin_display.format_deadline,
    gin_display.render_view)
_print_news, describe_event, news, score_sheet = (
    gin_history._print_news, gin_history.describe_event, gin_history.news, gin_history.score_sheet)
DEFAULT_SERVER, EXIT_OK, _UNSET = gin_common.DEFAULT_SERVER, gin_common.EXIT_OK, gin_common._UNSET
_api_for, _print_json, _remember, _rules, _server_for, _show = (
    gin_common._api_for, gin_common._print_json, gin_common._remember, gin_common._rules, gin_common._server_for,
    gin_common._show)
new_vs_bot = gin_players.new_vs_bot


def cmd_new(args, store: Store) -> int:
    if args.vs_bot:
        return new_vs_bot(args, store)
    if getattr(args, "level", None) is not None:
        raise UsageError("--level is for a game against the computer: gin new --vs-bot --level N")
    rules = _rules(args)
    body: dict = {"name": args.name, "rules": rules}
    if args.move_hours is not _UNSET:
        body["move_time_hours"] = args.move_hours
    if args.email:
        body["email"] = args.email
    if args.seats != 2:
        body["seats"] = args.seats
    server = _server_for(args)
    created = Api(server, retries=args.retries).create_game(body)
    game_id = created["game_id"]
    store.games[game_id] = {"server": server, "token": created["token"], "seat": created.get("seat", 0),
                            "name": args.name, "invite_code": created.get("invite_code"),
                            "version": (created.get("game") or {}).get("version"),
                            "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    store.save()
    if args.json:
        _print_json(created if args.show_token else {k: v for k, v in created.items() if k != "token"})
        return EXIT_OK
    print(f"Created game {game_id} on {server}.")
    where = f" --server {server}" if server != DEFAULT_SERVER else ""
    if created.get("invites"):  # a table: each seat has its own code (seats 0+2 play 1+3 at four)
        print("Each player joins the seat their code opens:")
        for invite in created["invites"]:
            print(f"  seat {invite['seat']}: gin join {game_id} {invite['invite_code']}{where}")
    else:
        print(f"Your opponent joins with:\n  gin join {game_id} {created.get('invite_code')}{where}")
    if args.show_token:
        print(f"Your token: {created['token']}")
    return EXIT_OK


def cmd_join(args, store: Store) -> int:
    game_id, code = args.game_id, args.invite_code
    if code is None:
        if ":" not in game_id:
            raise UsageError("join takes GAME_ID INVITE_CODE (or GAME_ID:INVITE_CODE)")
        game_id, code = game_id.split(":", 1)
    body: dict = {"invite_code": code, "name": args.name}
    if args.email:
        body["email"] = args.email
    server = _server_for(args)
    joined = Api(server, retries=args.retries).join_game(game_id, body)
    game_id = joined.get("game_id", game_id)
    view = joined.get("game") or {}
    store.games[game_id] = {"server": server, "token": joined["token"], "seat": joined.get("seat", 1),
                            "name": args.name, "version": view.get("version"),
                            "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    store.save()
    if args.json:
        _print_json(joined if args.show_token else {k: v for k, v in joined.items() if k != "token"})
        return EXIT_OK
    print(f"Joined game {game_id} as seat {joined.get('seat', 1)}.")
    if args.show_token:
        print(f"Your token: {joined['token']}")
    if view:
        print(render_view(view, joined.get("seat", 1), args.style, game_id))
    return EXIT_OK


def cmd_list(args, store: Store) -> int:
    rows, out = [], []
    for game_id, entry in sorted(store.games.items(), key=lambda kv: kv[1].get("created", "")):
        try:
            view, _ = _api_for(args, entry).view(game_id)
            error = None
            _remember(args, store, game_id, view)
        except (ServiceError, NetworkError) as exc:
            view, error = None, str(exc)
        out.append({"game_id": game_id, "seat": entry.get("seat"), "server": _server_for(args, entry),
                    "view": view, "error": error})
        rows.append(_list_row(game_id, entry, view, error))
    if args.json:
        _print_json(out)
    elif not rows:
        print("No games yet: `gin new` creates one, `gin join GAME_ID INVITE` joins one.")
    else:
        print(f"{'GAME':10} {'PLAYERS':24} {'HAND':>4} {'SCORE':>9}  {'TURN':16} DEADLINE")
        print("\n".join(rows))
    return EXIT_OK


def _list_row(game_id: str, entry: dict, view: dict | None, error: str | None) -> str:
    if view is None:
        return f"{game_id[:8]:10} {entry.get('name', ''):24} {'':>4} {'':>9}  unreachable: {error}"
    seat = entry.get("seat", view.get("seat", 0))
    names = _seat_names(view)
    if view.get("status") == "waiting_for_opponent":
        turn = "waiting to join"
    elif view.get("status") == "finished" or view.get("phase") == "match_over":
        winner = (view.get("result") or {}).get("winner")
        turn = "over: " + ("you won" if winner == seat else "you lost" if winner is not None else "-")
    else:
        turn = "YOUR TURN" if view.get("to_move") == seat else f"{names[1 - seat]}'s turn"
    players = f"{names[seat]} v {names[1 - seat]}"
    return (f"{game_id[:8]:10} {players[:24]:24} {view.get('hand_number', '-'):>4} "
            f"{_score_text(view, seat):>9}  {turn:16} {format_deadline(view.get('deadline'))}")


def cmd_show(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    view, _ = api.view(game_id)
    _remember(args, store, game_id, view)
    _print_news(args, api, store, game_id, entry, view)
    _show(args, game_id, entry, view)
    return EXIT_OK


def _act(args, store: Store, action: dict) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    version = current_version(api, game_id, entry)
    view = api.act(game_id, action, version=version, key=uuid.uuid4().hex)
    _remember(args, store, game_id, view)
    tell_own_move(args, api, store, game_id, entry, view, action)
    _show(args, game_id, entry, view)
    return EXIT_OK


def tell_own_move(args, api: Api, store: Store, game_id: str, entry: dict, view: dict, action: dict) -> None:
    """What the seat's own move did (the card drawn, the hand's end...), told as its result, never
    as news "since you looked": the events it made are marked seen."""
    if not args.json:
        lines = news(api, store, game_id, entry, view, args.style)
        print("\n".join(lines) if lines else f"Done: {describe_action(action, args.style)}.")


def current_version(api: Api, game_id: str, entry: dict):
    """The version a move is made against: the game as it is now (a conditional GET, so usually a
    bodiless 304). If-Match with it makes the move fail rather than land on a game changed since."""
    known = entry.get("version")
    view, _ = api.view(game_id, etag=etag_of(known) if known is not None else None)
    return known if view is None else view.get("version")


def cmd_take(args, store):
    return _act(args, store, {"type": "take_upcard"})


def cmd_pass(args, store):
    return _act(args, store, {"type": "pass"})


def cmd_draw(args, store):
    return _act(args, store, {"type": "draw", "from": args.source})


def cmd_discard(args, store):
    return _act(args, store, {"type": "discard", "card": normalize_card(args.card)})


def cmd_knock(args, store):
    return _act(args, store, {"type": "knock", "discard": normalize_card(args.card)})


def gin_action(view: dict) -> dict | None:
    """The action that goes gin now: Big Gin with 11 melded cards, or the knock whose discard
    leaves 0 deadwood; None when there is none."""
    legal = view.get("legal_actions") or []
    if any(a.get("type") == "big_gin" for a in legal):
        return {"type": "big_gin"}
    hand = view.get("hand") or []
    for action in legal:
        if action.get("type") == "knock" and deadwood_after_discard(hand, action["discard"]) == 0:
            return {"type": "knock", "discard": action["discard"]}
    return None


def cmd_gin(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    view, _ = api.view(game_id)
    action = gin_action(view)
    if action is None:
        hand = view.get("hand") or []
        if view.get("to_move") != view.get("seat", entry.get("seat")):
            raise ServiceError(409, "not-your-turn", "it is not your turn")
        left = min((deadwood_after_discard(hand, c) for c in hand), default=deadwood(hand)) \
            if len(hand) == 11 else deadwood(hand)
        raise ServiceError(422, "no-gin", f"no gin in this hand now: the best you can leave is {left} deadwood")
    entry["version"] = view.get("version")
    return _act(args, store, action)


def cmd_resign(args, store: Store) -> int:
    if not args.yes:
        raise UsageError("resigning ends the match (your opponent wins); add --yes to confirm")
    return _act(args, store, {"type": "resign"})


def cmd_claim(args, store: Store) -> int:
    return _act(args, store, {"type": "claim_timeout"})


def cmd_vacation(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    # Not resent after a lost answer: the server would count the days twice.
    body = api.request("POST", f"/games/{game_id}/vacation", json_body={"days": args.days},
                       replayable=False).json()
    if args.json:
        _print_json(body)
    else:
        print(f"Your clock is paused until {body.get('on_vacation_until')}; "
              f"{body.get('days_left')} vacation day(s) left in this game.")
        if body.get("deadline"):
            print(f"Deadline of the player to move: {body['deadline']}.")
    return EXIT_OK


def cmd_history(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    events = api.events(game_id)
    if args.json:
        _print_json({"events": events})
        return EXIT_OK
    view, _ = api.view(game_id)
    names = _seat_names(view)
    seat = entry.get("seat", 0)
    for event in events:
        print(f"{event.get('seq', ''):>4}  {describe_event(event, seat, names, args.style)}")
    return EXIT_OK


def cmd_score(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    view, _ = _api_for(args, entry).view(game_id)
    if args.json:
        _print_json({"scores": view.get("scores"), "result": view.get("result")})
    else:
        print(score_sheet(view, entry.get("seat")))
    return EXIT_OK


def cmd_token(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    if "token" not in entry:
        raise UsageError("this seat is opened by your player token (gin me --show-token prints it)")
    if args.json:
        _print_json({"game_id": game_id, "seat": entry.get("seat"), "token": entry["token"],
                     "server": _server_for(args, entry)})
    else:
        print(entry["token"])
    return EXIT_OK


def cmd_forget(args, store: Store) -> int:
    game_id, _ = store.find(args.game)
    del store.games[game_id]
    store.save()
    if args.json:
        _print_json({"forgotten": game_id})
    else:
        print(f"Forgot game {game_id} (its token is gone from {store.path}).")
    return EXIT_OK
