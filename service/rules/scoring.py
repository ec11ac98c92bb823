"""Match scoring: hand points into one game (standard) or three at once (Hollywood), and the
bonuses when a game closes."""
from __future__ import annotations

from .options import Rules


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
    """Add the bonuses: game bonus to the winner, a box per hand won to each, and the shutout."""
    loser = 1 - winner
    hand_points = list(game["totals"])
    shutout_bonus = [0, 0]
    if game["hands_won"][loser] == 0:
        if rules.shutout == "double":
            shutout_bonus[winner] = hand_points[winner]  # hand points doubled before the boxes
        elif rules.shutout == "plus_100":
            shutout_bonus[winner] = 100
    game_bonus = [0, 0]
    game_bonus[winner] = rules.game_bonus
    box_bonus = [rules.box_bonus * game["hands_won"][s] for s in (0, 1)]
    totals = [hand_points[s] + shutout_bonus[s] + game_bonus[s] + box_bonus[s] for s in (0, 1)]
    game["closed"] = True
    game["final"] = {
        "winner": winner,
        "hand_points": hand_points,
        "shutout_bonus": shutout_bonus,
        "game_bonus": game_bonus,
        "box_bonus": box_bonus,
        "totals": totals,
        "margin": totals[winner] - totals[loser],
    }


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
