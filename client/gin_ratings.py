"""gin's commands for ratings: a player's ratings (Glicko-2 from two-seat matches, OpenSkill from
tables of 3 to 8) and the leaderboard (GET /players?sort=rating, paged)."""
from __future__ import annotations

if __package__:  # part of the `client` package (or `gin_client`, installed alone)
    from . import api as http, gin_common, gin_store
else:  # run from a folder of copied client files, which gin.py has put on sys.path
    import api as http
    import gin_common
    import gin_store

Api, Store, UsageError = http.Api, gin_store.Store, gin_common.UsageError
EXIT_OK, _print_json, _server_for = gin_common.EXIT_OK, gin_common._print_json, gin_common._server_for


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
    except http.ServiceError:  # no house bot on this server
        return None
    same = house.get("name", "").casefold() == shown["name"].casefold()
    return house.get("levels") if same else None


def cmd_rating(args, store: Store) -> int:
    """Your ratings, or another player's (by name): the value, its deviation, rated matches; the table rating.
    The house bot's: each of its levels' too, each rated as an identity of its own."""
    api = _api(args, store)
    shown = api.player(args.player_name) if args.player_name else api.me()
    levels = _house_levels(api, shown) if args.player_name else None
    if args.json:
        _print_json({"name": shown["name"], "bot": shown["bot"], "rating": shown["rating"],
                     "table_rating": shown.get("table_rating"), **({"levels": levels} if levels else {})})
        return EXIT_OK
    print(describe_ratings(shown))
    if levels:
        print("Its levels, each rated as a player of its own (gin new --vs-bot --level N):")
        print("\n".join(describe_levels(levels)))
    return EXIT_OK


def cmd_leaderboard(args, store: Store) -> int:
    """The leaderboard, a page at a time: rank, name, rating, deviation, rated matches."""
    api = _api(args, store, need_player=False)
    page = api.leaderboard(args.limit, args.offset)
    if args.json:
        _print_json(page)
        return EXIT_OK
    if not page["players"]:
        print("Nobody on this page of the leaderboard: it lists players with at least 5 rated matches "
              "whose rating is no longer provisional." if args.offset == 0 else "No players past this point.")
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


def _api(args, store: Store, need_player: bool = True) -> Api:
    """The player's Api (the leaderboard is public: no account needed for it)."""
    server = _server_for(args)
    account = store.player(server)
    if account is None and need_player:
        raise UsageError(f"no player account for {server} in {store.path}: make one with `gin register NAME`")
    return Api(server, account["token"] if account else None, retries=args.retries)
