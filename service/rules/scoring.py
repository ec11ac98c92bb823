"""Match scoring: hand points into one game (standard) or three at once (Hollywood), and the
bonuses when a game closes."""
from __future__ import annotations

from .options import Rules
from .plain import plain_copy
from .side_scoring import close_side_game


def new_games(rules: Rules) -> list[dict]:
    count = 3 if rules.scoring == "hollywood" else 1
    return [{"totals": [0, 0], "hands_won": [0, 0], "closed": False, "final": None} for _ in range(count)]


def record_hand_win(rules: Rules, games: list[dict], wins_so_far: int, seat: int, points: int) -> list[int]:
    """Credit a hand won by `seat` (its `wins_so_far`-th win before this one). Standard: the one game.
    Hollywood: the 1st win counts in game 1, the 2nd in games 1-2, later ones in all three still
    open. Returns the indexes of the games credited."""
    reach = min(wins_so_far + 1, len(games))
    credited = []
    for index in range(reach):
        game = games[index]
        if game["closed"]:
            continue
        game["totals"][seat] += points
        game["hands_won"][seat] += 1
        credited.append(index)
        if game["totals"][seat] >= rules.target:
            close_game(rules, game, seat)
    return credited


def close_game(rules: Rules, game: dict, winner: int) -> None:
    """Add the bonuses: game bonus to the winner, the boxes and the shutout (two sides of
    side_scoring's, which any number of sides share)."""
    close_side_game(rules, game, winner)


def all_closed(games: list[dict]) -> bool:
    return all(g["closed"] for g in games)


def net_margin(games: list[dict]) -> int:
    """Seat 0's net over the closed games (positive: seat 0 ahead)."""
    net = 0
    for game in games:
        if game["final"]:
            margin = game["final"]["margin"]
            net += margin if game["final"]["winner"] == 0 else -margin
    return net


def match_result(rules: Rules, games: list[dict], wins: list[int], reason: str, winner: int | None) -> dict:
    """The match result. `winner` is given for a resignation or timeout. RULES.md "Result":
    both who reached the target and the net result (the lower total pays the difference)."""
    net = net_margin(games)  # seat 0's lead over the closed games
    reached = games[0]["final"]["winner"] if len(games) == 1 and games[0]["final"] else None
    exactly_50 = False
    if winner is None and len(games) == 1:
        # Single scoring: whoever reached the target wins, even if the boxes leave the
        # other player with the higher final total (the margin is then negative).
        winner = reached
    elif winner is None:
        winner = 0 if net > 0 else 1 if net < 0 else None
    if reason == "target" and rules.exactly_50_loses and abs(net) == 50:
        # 000's variation: a player exactly 50 ahead at the end loses.
        winner, exactly_50 = (1 if net > 0 else 0), True
    leader = 0 if net > 0 else 1 if net < 0 else None
    result = {
        "winner": winner, "reason": reason, "margin": net if winner != 1 else -net,
        "totals": [sum((g["final"] or g)["totals"][s] for g in games) for s in (0, 1)],
        "games": plain_copy(games), "hands_won": list(wins),
        "target_reached_by": reached,
        "net": {"leader": leader, "points": abs(net),
                "payer": None if leader is None else 1 - leader, "payee": leader},
    }
    if exactly_50:
        result["exactly_50_rule"] = True
    return result
