"""gin's commands on one seat of a game: new, join, list, show, the moves (take, pass, draw, discard,
knock, gin, resign, claim, and Mahjong gin's meld and add), vacation, history, score, token, forget;
and the two that wait for the opponent: watch (for the seat's turn, by the game's stream, else by
long-poll, riding out a dropped connection or a server restart) and play (sitting at one game,
typing moves). A player account's commands are in players.py."""
from __future__ import annotations

import difflib
import os
import queue
import re
import select
import sys
import threading
import time
import uuid
from datetime import datetime, timezone

from ..api import Api, NetworkError, ServiceError, etag_of, views
from .cards import UsageError, deadwood, deadwood_after_discard, normalize_card
from .common import DEFAULT_SERVER, EXIT_OK, UNSET, api_for, print_json, remember, rules_of, server_for, show
from .display import describe_action, format_deadline, render_view, score_text, seat_names, seat_view
from .history import describe_event, news, print_news, score_sheet
from .players import new_vs_bot
from .store import Store


def cmd_new(args, store: Store) -> int:
    if args.vs_bot:
        return new_vs_bot(args, store)
    if getattr(args, "level", None) is not None:
        raise UsageError("--level is for a game against the computer: gin new --vs-bot --level N")
    rules = rules_of(args)
    body: dict = {"name": args.name, "rules": rules}
    if args.move_hours is not UNSET:
        body["move_time_hours"] = args.move_hours
    if args.email:
        body["email"] = args.email
    if args.seats != 2:
        body["seats"] = args.seats
    server = server_for(args)
    created = Api(server, retries=args.retries).create_game(body)
    game_id = created["game_id"]
    store.games[game_id] = {"server": server, "token": created["token"], "seat": created.get("seat", 0),
                            "name": args.name, "invite_code": created.get("invite_code"),
                            "version": (created.get("game") or {}).get("version"),
                            "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    store.save()
    if args.json:
        print_json(created if args.show_token else {k: v for k, v in created.items() if k != "token"})
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
    server = server_for(args)
    joined = Api(server, retries=args.retries).join_game(game_id, body)
    game_id = joined.get("game_id", game_id)
    view = joined.get("game") or {}
    store.games[game_id] = {"server": server, "token": joined["token"], "seat": joined.get("seat", 1),
                            "name": args.name, "version": view.get("version"),
                            "created": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    store.save()
    if args.json:
        print_json(joined if args.show_token else {k: v for k, v in joined.items() if k != "token"})
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
            view, _ = api_for(args, entry).view(game_id)
            error = None
            remember(args, store, game_id, view)
        except (ServiceError, NetworkError) as exc:
            view, error = None, str(exc)
        out.append({"game_id": game_id, "seat": entry.get("seat"), "server": server_for(args, entry),
                    "view": view, "error": error})
        rows.append(_list_row(game_id, entry, view, error))
    if args.json:
        print_json(out)
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
    names = seat_names(view)
    if view.get("status") == "waiting_for_opponent":
        turn = "waiting to join"
    elif view.get("status") == "finished" or view.get("phase") == "match_over":
        winner = (view.get("result") or {}).get("winner")
        turn = "over: " + ("you won" if winner == seat else "you lost" if winner is not None else "-")
    else:
        turn = "YOUR TURN" if view.get("to_move") == seat else f"{names[1 - seat]}'s turn"
    players = f"{names[seat]} v {names[1 - seat]}"
    return (f"{game_id[:8]:10} {players[:24]:24} {view.get('hand_number', '-'):>4} "
            f"{score_text(view, seat):>9}  {turn:16} {format_deadline(view.get('deadline'))}")


def cmd_show(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = api_for(args, entry)
    view, _ = api.view(game_id)
    remember(args, store, game_id, view)
    print_news(args, api, store, game_id, entry, view)
    show(args, game_id, entry, view)
    return EXIT_OK


def _act(args, store: Store, action: dict) -> int:
    game_id, entry = store.find(args.game)
    api = api_for(args, entry)
    version = current_version(api, game_id, entry)
    view = api.act(game_id, action, version=version, key=uuid.uuid4().hex)
    remember(args, store, game_id, view)
    tell_own_move(args, api, store, game_id, entry, view, action)
    show(args, game_id, entry, view)
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
    api = api_for(args, entry)
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
    api = api_for(args, entry)
    # Not resent after a lost answer: the server would count the days twice.
    body = api.request("POST", f"/games/{game_id}/vacation", json_body={"days": args.days},
                       replayable=False).json()
    if args.json:
        print_json(body)
    else:
        print(f"Your clock is paused until {body.get('on_vacation_until')}; "
              f"{body.get('days_left')} vacation day(s) left in this game.")
        if body.get("deadline"):
            print(f"Deadline of the player to move: {body['deadline']}.")
    return EXIT_OK


def cmd_history(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = api_for(args, entry)
    events = api.events(game_id)
    if args.json:
        print_json({"events": events})
        return EXIT_OK
    view, _ = api.view(game_id)
    names = seat_names(view)
    seat = entry.get("seat", 0)
    for event in events:
        print(f"{event.get('seq', ''):>4}  {describe_event(event, seat, names, args.style)}")
    return EXIT_OK


def cmd_score(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    view, _ = api_for(args, entry).view(game_id)
    if args.json:
        print_json({"scores": view.get("scores"), "result": view.get("result")})
    else:
        print(score_sheet(view, entry.get("seat")))
    return EXIT_OK


def cmd_token(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    if "token" not in entry:
        raise UsageError("this seat is opened by your player token (gin me --show-token prints it)")
    if args.json:
        print_json({"game_id": game_id, "seat": entry.get("seat"), "token": entry["token"],
                    "server": server_for(args, entry)})
    else:
        print(entry["token"])
    return EXIT_OK


def cmd_forget(args, store: Store) -> int:
    game_id, _ = store.find(args.game)
    del store.games[game_id]
    store.save()
    if args.json:
        print_json({"forgotten": game_id})
    else:
        print(f"Forgot game {game_id} (its token is gone from {store.path}).")
    return EXIT_OK


# -- waiting for the turn (watch), and sitting at the game (play)

def cmd_watch(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = api_for(args, entry)
    seat = entry.get("seat", 0)
    view = wait_for_turn(args, api, game_id, seat)
    remember(args, store, game_id, view)
    print_news(args, api, store, game_id, entry, view)
    show(args, game_id, entry, view)
    return EXIT_OK


def wait_for_turn(args, api: Api, game_id: str, seat: int) -> dict:
    """The view once it is this seat's turn (or the match is over): by the game's stream where the
    server has one, else by long-poll; a dropped connection or a server restart is waited out."""
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    view, _ = api.view(game_id)
    if _worth_waking(view, seat):
        return view
    if not args.json:
        waiting = seat_names(view)[1 - seat] if view.get("status") != "waiting_for_opponent" else "an opponent to join"
        print(f"Waiting for {waiting}...", file=sys.stderr, flush=True)

    def retrying(exc: Exception, pause: float) -> None:
        print(f"gin: {exc}; still watching, next try in {pause:.0f} s", file=sys.stderr, flush=True)

    for changed in views(api, game_id, view.get("version"), wait=args.wait,
                         use_stream=args.wait != 0,
                         deadline=deadline, on_retry=retrying):
        view = changed
        if _worth_waking(view, seat):
            return view
    if _worth_waking(view, seat):
        return view
    raise ServiceError(408, "watch-timeout", f"still not your turn after {args.timeout:g} s")


PLAY_HELP = ("moves: take, pass, draw stock|discard, discard CARD, knock CARD, gin, resign; "
             "in Mahjong gin also take 3, meld 3H 4H 5H, add 6H to 2; a whole turn as a plan, like "
             "draw stock, discard drawn unless it melds, else worst; and: say TEXT, show, history, score, help, quit")
# A typed line holding these (or a comma) is a plan (docs/plans.md), sent whole to POST /games/{id}/plans.
PLAN_WORDS = re.compile(r"\b(worst|drawn|unless|else|otherwise|if possible|if deadwood)\b", re.IGNORECASE)
MELD_EXAMPLE = "like meld 3H 4H 5H"
ADD_EXAMPLE = "a card and a meld number, like add 6H to 2"


def action_from_words(words: list[str], view: dict) -> dict:
    """A move typed at `gin play` (the same words as the commands and the mail replies)."""
    view = seat_view(view)  # at a table: the seat's own board
    verb, rest = words[0].lower(), [w.lower() for w in words[1:]]
    if verb in ("meld", "lay", "add") or (verb == "take" and rest and rest[0].isdigit()):
        return mahjong_action(verb, rest, view)
    if verb == "take":
        phases_with_upcard = ("upcard_offer", "last_discard_offer")
        return {"type": "take_upcard"} if view.get("phase") in phases_with_upcard else {"type": "draw", "from": "discard"}
    if verb == "pass":
        return {"type": "pass"}
    if verb == "draw":
        if len(rest) != 1 or rest[0].lower() not in ("stock", "discard"):
            raise UsageError("draw stock, or draw discard")
        return {"type": "draw", "from": rest[0].lower()}
    if verb in ("discard", "knock"):
        if len(rest) != 1:
            raise UsageError(f"{verb} takes one card, like {verb} 7H")
        card = normalize_card(rest[0])
        return {"type": "discard", "card": card} if verb == "discard" else {"type": "knock", "discard": card}
    if verb == "gin":
        action = gin_action(view)
        if action is None:
            raise UsageError("no gin in this hand now")
        return action
    close = difflib.get_close_matches(verb, ["take", "pass", "draw", "discard", "knock", "gin", "resign", "show",
                                             "meld", "add",
                                             "history", "score", "help", "quit"], n=1, cutoff=0.5)
    raise UsageError(f"unknown move {verb!r}" + (f"; did you mean `{close[0]}`?" if close else f" ({PLAY_HELP})"))


def mahjong_action(verb: str, rest: list[str], view: dict) -> dict:
    """Mahjong gin's moves, in the words of the mail replies: take 3 (the top three of the pile),
    meld 3H 4H 5H, add 6H to 2 (the table's meld number as shown, from 1)."""
    if verb == "take":
        count = int(rest[0])
        if rest[1:] not in ([], ["cards"], ["from", "the", "pile"], ["from", "pile"]) or not 1 <= count <= 52:
            raise UsageError("take a number of cards from the top of the pile, like take 3")
        pile = view.get("discard_pile") or []
        if count == 1:  # as `take`: the upcard while it is offered, else the pile's top
            return action_from_words(["take"], view)
        if "table" not in view:
            raise UsageError("only Mahjong gin takes several discards; write take for the top card")
        if count > len(pile):
            raise UsageError(f"the discard pile holds {len(pile)} card{'s' * (len(pile) != 1)}")
        return {"type": "draw", "from": "discard", "count": count}
    if verb in ("meld", "lay"):
        cards = _cards_or(rest, f"{verb} needs three or more cards, {MELD_EXAMPLE}")
        if len(cards) < 3 or len(set(cards)) != len(cards):
            raise UsageError(f"{verb} needs three or more cards, {MELD_EXAMPLE}")
        return {"type": "meld", "cards": cards}
    words = [w for w in rest if w not in ("to", "meld", "onto", "on")]
    number = words[1].lstrip("#") if len(words) == 2 else ""
    if not number.isdigit() or int(number) < 1:
        raise UsageError(f"add needs {ADD_EXAMPLE}")
    [card] = _cards_or(words[:1], f"add needs {ADD_EXAMPLE}")
    melds = len(view.get("table") or [])
    if int(number) > melds:
        shown = f"melds 1 to {melds}" if melds > 1 else "meld 1" if melds else "no meld"
        raise UsageError(f"there is no meld {number} on the table (it holds {shown})")
    return {"type": "add_on", "card": card, "meld": int(number) - 1}


def cmd_words(args, store: Store) -> int:
    """A move in the words of `gin play` as a command of its own (`gin meld 3H 4H 5H`, `gin add
    6H to 2`, `gin take --count 3`): read against the seat's view, then made as any command's."""
    if args.command == "take" and args.count is None:  # the first turn's offer, as before
        return _act(args, store, {"type": "take_upcard"})
    words = [args.command, *getattr(args, "words", [])] + ([str(args.count)] if args.command == "take" else [])
    game_id, entry = store.find(args.game)
    view, _ = api_for(args, entry).view(game_id)
    return _act(args, store, action_from_words(words, view))


def _cards_or(words: list[str], needs: str) -> list[str]:
    try:
        return [normalize_card(w) for w in words]
    except UsageError:
        raise UsageError(needs) from None


def cmd_play(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = api_for(args, entry)
    seat = entry.get("seat", 0)
    print(f"Playing game {game_id[:8]}. Type a move when it is your turn ({PLAY_HELP}).")
    view, _ = api.view(game_id)
    fresh = True
    while True:
        if fresh:
            remember(args, store, game_id, view)
            if fresh != "moved":  # after our own move, its result was told already: no news of it
                print_news(args, api, store, game_id, entry, view)
            show(args, game_id, entry, view)
            fresh = False
        if view.get("status") == "finished" or view.get("phase") == "match_over":
            print(score_sheet(view, seat))
            return EXIT_OK
        if not _worth_waking(view, seat):
            view, fresh = wait_reading_lines(args, api, game_id, seat), True
            if view is None:  # `quit` typed while waiting
                return EXIT_OK
            continue
        try:
            words = input("gin> ").split()
        except EOFError:
            print()
            return EXIT_OK
        if not words:
            continue
        verb = words[0].lower()
        if verb in ("quit", "exit", "q"):
            return EXIT_OK
        if verb in ("help", "?"):
            print(PLAY_HELP)
            continue
        if verb in ("show", "score", "history"):
            view, _ = api.view(game_id)
            if verb == "score":
                print(score_sheet(view, seat))
            elif verb == "history":
                names = seat_names(view)
                for event in api.events(game_id):
                    print(f"{event.get('seq', ''):>4}  {describe_event(event, seat, names, args.style)}")
            else:
                fresh = True
            continue
        if verb == "say":  # a message to the other players; the game waits on
            _say(api, game_id, words)
            continue
        line = " ".join(words)
        if "," in line or PLAN_WORDS.search(line):  # a whole turn at once (docs/plans.md)
            try:
                answer = api.request("POST", f"/games/{game_id}/plans", json_body={"plan": line},
                                     replayable=False).json()
                print(answer["settlement"]["answer"])
                view = answer["game"]
                remember(args, store, game_id, view)
                fresh = "moved"
            except ServiceError as exc:
                print(f"gin: {args.style.text(exc.detail)} [{exc.code}] (nothing was played)")
            continue
        try:
            if verb == "resign":
                if input("Resign the match (your opponent wins)? [y/N] ").strip().lower() not in ("y", "yes"):
                    continue
                action = {"type": "resign"}
            else:
                action = action_from_words(words, view)
            view = api.act(game_id, action, version=view.get("version"), key=uuid.uuid4().hex)
            remember(args, store, game_id, view)
            tell_own_move(args, api, store, game_id, entry, view, action)
            fresh = "moved"
        except UsageError as exc:
            print(f"gin: {args.style.text(str(exc))}")
        except ServiceError as exc:
            print(f"gin: {args.style.text(exc.detail)} [{exc.code}]")
            view, _ = api.view(game_id)
        except EOFError:
            return EXIT_OK


def _say(api: Api, game_id: str, words: list[str]) -> None:
    try:
        print(f"Sent: {api.say(game_id, ' '.join(words[1:]))['text']}")
    except ServiceError as exc:
        print(f"gin: {exc.detail} [{exc.code}]")


def wait_reading_lines(args, api: Api, game_id: str, seat: int) -> dict | None:
    """wait_for_turn, while what is typed is read: `say TEXT` is sent at once, `help` answered,
    `quit` ends the wait (None); a move waits for the turn. Where standard input cannot be watched
    beside the wait (Windows), the wait is as before."""
    if os.name == "nt" or not hasattr(sys.stdin, "fileno"):
        return wait_for_turn(args, api, game_id, seat)
    try:
        stdin = sys.stdin.fileno()
    except (OSError, ValueError):
        return wait_for_turn(args, api, game_id, seat)
    answers: queue.Queue = queue.Queue()

    def wait() -> None:
        try:
            answers.put((wait_for_turn(args, api, game_id, seat), None))
        except Exception as exc:  # noqa: BLE001 -- told in the main thread, as if raised there
            answers.put((None, exc))

    threading.Thread(target=wait, daemon=True).start()
    reading = True
    while True:
        try:
            view, failure = answers.get(timeout=0.2)
        except queue.Empty:
            pass
        else:
            if failure is not None:
                raise failure
            return view
        if not reading or not select.select([stdin], [], [], 0)[0]:
            continue
        line = sys.stdin.readline()
        if not line:  # end of input: the wait goes on; the prompt after it hears the end
            reading = False
            continue
        words = line.split()
        verb = words[0].lower() if words else ""
        if verb in ("quit", "exit", "q"):
            return None
        if verb == "say":
            _say(api, game_id, words)
        elif verb in ("help", "?"):
            print(PLAY_HELP)
        elif verb:
            print("It is not your turn yet: type a move once it is (or say TEXT, help, quit).", flush=True)


def _worth_waking(view: dict, seat: int) -> bool:
    to_move = view.get("to_move")
    return (to_move == seat or (isinstance(to_move, list) and seat in to_move) or view.get("status") == "finished"
            or view.get("phase") == "match_over")
