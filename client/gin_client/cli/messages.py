"""`gin say`: a message to the other seats of a game (POST /games/{id}/messages; the others' show
up as "Bob wrote: ..." in `gin show`, `gin play` and after each move); `gin block`, `gin unblock`,
`gin blocks`: the players your player blocked (their challenges to you are refused, you never meet
in open challenges, and you see none of their messages)."""
from __future__ import annotations

from .common import EXIT_OK, api_for, print_json
from .players import player_api
from .store import Store


def cmd_say(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = api_for(args, entry)
    message = api.say(game_id, " ".join(args.words))
    if args.json:
        print_json(message)
    else:
        print(f"Sent to the other players of {game_id[:8]}: {message['text']}")
    return EXIT_OK


def cmd_block(args, store: Store) -> int:
    api, _ = player_api(args, store)
    block = api.block(args.player_name)
    if args.json:
        print_json(block)
    else:
        print(f"Blocked {block['name']}: their challenges to you are refused and you see none of their messages.")
    return EXIT_OK


def cmd_unblock(args, store: Store) -> int:
    api, _ = player_api(args, store)
    api.unblock(args.player_name)
    if not args.json:
        print(f"{args.player_name} is not blocked (any more).")
    return EXIT_OK


def cmd_blocks(args, store: Store) -> int:
    api, _ = player_api(args, store)
    blocks = api.blocks()
    if args.json:
        print_json({"blocks": blocks})
    elif not blocks:
        print("You block nobody.")
    else:
        for block in blocks:
            print(f"{block['name']}  (since {block['blocked_at'][:10]})")
    return EXIT_OK
