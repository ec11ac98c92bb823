"""`gin plan`: a whole turn in one command (POST /games/{id}/plans: the draw and what to do with
the card drawn, settled by the service); `gin orders`: your standing orders, shown, set or
cancelled (GET, PUT, DELETE /games/{id}/orders). docs/plans.md has the words."""
from __future__ import annotations

from .cards import UsageError
from .common import EXIT_OK, api_for, print_json
from .store import Store


def _game_and_text(args, store: Store, required: bool) -> tuple[str, dict, str | None]:
    """`[GAME] TEXT`: a first word that names a game you keep is the game, the rest the text."""
    words = list(args.words or [])
    game = args.game
    if game is None and words and " " not in words[0] and _names_a_game(store, words[0]):
        game = words.pop(0)
    text = " ".join(words).strip() or None
    if required and not text:
        raise UsageError("say the plan, like: gin plan \"draw stock, discard drawn unless it melds, else worst\"")
    game_id, entry = store.find(game)
    return game_id, entry, text


def _names_a_game(store: Store, word: str) -> bool:
    try:
        store.find(word)
    except UsageError:
        return False
    return True


def cmd_plan(args, store: Store) -> int:
    game_id, entry, text = _game_and_text(args, store, required=True)
    answer = api_for(args, entry).request("POST", f"/games/{game_id}/plans", json_body={"plan": text},
                                          replayable=False).json()
    if args.json:
        print_json(answer)
    else:
        print(answer["settlement"]["answer"])
    return EXIT_OK


def cmd_orders(args, store: Store) -> int:
    game_id, entry, text = _game_and_text(args, store, required=False)
    api = api_for(args, entry)
    path = f"/games/{game_id}/orders"
    if args.cancel:
        answer = api.request("DELETE", path).json()
    elif text:
        answer = api.request("PUT", path, json_body={"orders": text}).json()
    else:
        answer = api.request("GET", path).json()
    if args.json:
        print_json(answer)
        return EXIT_OK
    print(f"Your standing orders: {answer['text']}")
    for made in answer.get("played") or []:
        print(f"Played now by '{made['order']}': {made['why']}")
    return EXIT_OK
