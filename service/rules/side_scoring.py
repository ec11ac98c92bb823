"""Scoring for tables of more than two players: the same games, bonuses and Hollywood columns
as scoring.py, over any number of scoring sides (a player, or a partnership)."""
from __future__ import annotations

from .options import Rules


def new_side_games(rules: Rules, sides: int) -> list[dict]:
    count = 3 if rules.scoring == "hollywood" else 1
    return [{"totals": [0] * sides, "hands_won": [0] * sides, "closed": False, "final": None}
            for _ in range(count)]


def credit_win(rules: Rules, games: list[dict], wins_so_far: int, side: int, points: int) -> list[int]:
    """A hand won by `side` (its `wins_so_far`-th win before this one): one game, or Hollywood's
    1st win in game 1, 2nd in games 1-2, later in all three still open. Returns the games credited."""
    credited = []
    for index in range(min(wins_so_far + 1, len(games))):
        game = games[index]
        if game["closed"]:
            continue
        game["totals"][side] += points
        game["hands_won"][side] += 1
        credited.append(index)
    return credited


def credit_points(games: list[dict], side: int, points: int, indexes: list[int]) -> None:
    """Points that are no hand won (a team bonus), into the games named."""
    for index in indexes:
        if not games[index]["closed"]:
            games[index]["totals"][side] += points


def close_reached(rules: Rules, games: list[dict]) -> None:
    """Close every open game in which a side has reached the target (the highest total wins it;
    on equal totals the lower side number, a fixed order)."""
    for game in games:
        if game["closed"]:
            continue
        reached = [s for s, total in enumerate(game["totals"]) if total >= rules.target]
        if reached:
            close_side_game(rules, game, max(reached, key=lambda s: (game["totals"][s], -s)))


def close_side_game(rules: Rules, game: dict, winner: int) -> None:
    """Game bonus to the winner, the boxes (box_per hand: to every side per hand won; game: to the
    winner, 001's "box (bonus for each game won)"), and the shutout: 000's doubles the winner's hand
    points before the boxes and 004's adds 100 when no other side won a hand; 001's doubles the
    winner's entire score when no other side scored at all ("if the loser failed to score during
    the whole game, the winner's entire score is doubled")."""
    sides = len(game["totals"])
    others = [s for s in range(sides) if s != winner]
    hand_points = list(game["totals"])
    game_bonus = [rules.game_bonus if s == winner else 0 for s in range(sides)]
    if rules.box_per == "game":
        box = [rules.box_bonus if s == winner else 0 for s in range(sides)]
    else:
        box = [rules.box_bonus * game["hands_won"][s] for s in range(sides)]
    shutout = [0] * sides
    if rules.shutout == "double_total":
        if all(hand_points[s] <= 0 and box[s] == 0 for s in others):
            shutout[winner] = hand_points[winner] + game_bonus[winner] + box[winner]
    elif all(game["hands_won"][s] == 0 for s in others):
        shutout[winner] = {"double": hand_points[winner], "plus_100": 100, "none": 0}[rules.shutout]
    totals = [hand_points[s] + shutout[s] + game_bonus[s] + box[s] for s in range(sides)]
    game["closed"] = True
    game["final"] = {"winner": winner, "hand_points": hand_points, "shutout_bonus": shutout,
                     "game_bonus": game_bonus, "box_bonus": box, "totals": totals,
                     "margin": totals[winner] - max(t for s, t in enumerate(totals) if s != winner)}


def settlement(totals: list[int]) -> list[dict]:
    """Who pays whom: every pair of sides settles the difference of their totals (001: the lower
    pays the higher), listed pair by pair."""
    payments = []
    for a in range(len(totals)):
        for b in range(a + 1, len(totals)):
            if totals[a] != totals[b]:
                payer, payee = (a, b) if totals[a] < totals[b] else (b, a)
                payments.append({"payer": payer, "payee": payee, "points": abs(totals[a] - totals[b])})
    return payments
