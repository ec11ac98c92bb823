"""gin watch and gin play: waiting for the seat's turn (by the game's stream, else by long-poll,
riding out a dropped connection or a server restart), and sitting at one game, typing moves."""
from __future__ import annotations

import difflib
import sys
import time
import uuid

if __package__:  # part of the `client` package (or `gin_client`, installed alone)
    from . import api as http, gin_cards, gin_common, gin_display, gin_history, gin_seats, gin_store
else:  # run from a folder of copied client files, which gin.py has put on sys.path
    import api as http
    import gin_cards
    import gin_common
    import gin_display
    import gin_history
    import gin_seats
    import gin_store

Api, ServiceError = http.Api, http.ServiceError
UsageError, normalize_card, Store = gin_cards.UsageError, gin_cards.normalize_card, gin_store.Store
_seat_names, seat_view = gin_display._seat_names, gin_display.seat_view
_print_news, describe_event, score_sheet = gin_history._print_news, gin_history.describe_event, gin_history.score_sheet
EXIT_OK, _api_for, _remember, _show = gin_common.EXIT_OK, gin_common._api_for, gin_common._remember, gin_common._show
gin_action = gin_seats.gin_action


def cmd_watch(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    seat = entry.get("seat", 0)
    view = wait_for_turn(args, api, game_id, seat)
    _remember(args, store, game_id, view)
    _print_news(args, api, store, game_id, entry, view)
    _show(args, game_id, entry, view)
    return EXIT_OK


def wait_for_turn(args, api: Api, game_id: str, seat: int) -> dict:
    """The view once it is this seat's turn (or the match is over): by the game's stream where the
    server has one, else by long-poll; a dropped connection or a server restart is waited out."""
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    view, _ = api.view(game_id)
    if _worth_waking(view, seat):
        return view
    if not args.json:
        waiting = _seat_names(view)[1 - seat] if view.get("status") != "waiting_for_opponent" else "an opponent to join"
        print(f"Waiting for {waiting}...", file=sys.stderr, flush=True)

    def retrying(exc: Exception, pause: float) -> None:
        print(f"gin: {exc}; still watching, next try in {pause:.0f} s", file=sys.stderr, flush=True)

    for changed in http.views(api, game_id, view.get("version"), wait=args.wait,
                              use_stream=args.wait != 0,
                              deadline=deadline, on_retry=retrying):
        view = changed
        if _worth_waking(view, seat):
            return view
    if _worth_waking(view, seat):
        return view
    raise ServiceError(408, "watch-timeout", f"still not your turn after {args.timeout:g} s")


PLAY_HELP = ("moves: take, pass, draw stock|discard, discard CARD, knock CARD, gin, resign; "
             "in Mahjong gin also take 3, meld 3H 4H 5H, add 6H to 2; and: say TEXT, show, history, score, help, quit")
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
        return gin_seats._act(args, store, {"type": "take_upcard"})
    words = [args.command, *getattr(args, "words", [])] + ([str(args.count)] if args.command == "take" else [])
    game_id, entry = store.find(args.game)
    view, _ = _api_for(args, entry).view(game_id)
    return gin_seats._act(args, store, action_from_words(words, view))


def _cards_or(words: list[str], needs: str) -> list[str]:
    try:
        return [normalize_card(w) for w in words]
    except UsageError:
        raise UsageError(needs) from None


def cmd_play(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = _api_for(args, entry)
    seat = entry.get("seat", 0)
    print(f"Playing game {game_id[:8]}. Type a move when it is your turn ({PLAY_HELP}).")
    view, _ = api.view(game_id)
    fresh = True
    while True:
        if fresh:
            _remember(args, store, game_id, view)
            if fresh != "moved":  # after our own move, its result was told already: no news of it
                _print_news(args, api, store, game_id, entry, view)
            _show(args, game_id, entry, view)
            fresh = False
        if view.get("status") == "finished" or view.get("phase") == "match_over":
            print(score_sheet(view, seat))
            return EXIT_OK
        if not _worth_waking(view, seat):
            view, fresh = wait_for_turn(args, api, game_id, seat), True
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
                names = _seat_names(view)
                for event in api.events(game_id):
                    print(f"{event.get('seq', ''):>4}  {describe_event(event, seat, names, args.style)}")
            else:
                fresh = True
            continue
        if verb == "say":  # a message to the other players; the game waits on
            try:
                print(f"Sent: {api.say(game_id, ' '.join(words[1:]))['text']}")
            except ServiceError as exc:
                print(f"gin: {exc.detail} [{exc.code}]")
            continue
        try:
            if verb == "resign":
                if input("Resign the match (your opponent wins)? [y/N] ").strip().lower() not in ("y", "yes"):
                    continue
                action = {"type": "resign"}
            else:
                action = action_from_words(words, view)
            view = api.act(game_id, action, version=view.get("version"), key=uuid.uuid4().hex)
            _remember(args, store, game_id, view)
            gin_seats.tell_own_move(args, api, store, game_id, entry, view, action)
            fresh = "moved"
        except UsageError as exc:
            print(f"gin: {args.style.text(str(exc))}")
        except ServiceError as exc:
            print(f"gin: {args.style.text(exc.detail)} [{exc.code}]")
            view, _ = api.view(game_id)
        except EOFError:
            return EXIT_OK


def _worth_waking(view: dict, seat: int) -> bool:
    to_move = view.get("to_move")
    return (to_move == seat or (isinstance(to_move, list) and seat in to_move) or view.get("status") == "finished"
            or view.get("phase") == "match_over")
