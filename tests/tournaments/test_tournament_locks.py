"""What a move of a tournament game reads and locks (results.py): the move's one read finds the
game's pairing and tournament (through its series for a knockout best-of), and nothing for a game of
no tournament; at a game's end the tournament's row and its entrants' rows are locked before any
other hook locks a player, so that two tournaments' rounds ending at once take players in one order."""
from __future__ import annotations

import re

from sqlalchemy import select

from ..api.helpers import auth, choose, mover
from ..api.test_move_statements import counting, on_postgresql
from ..players.support import accepted_game, new_player
from .support import current_games, game_of, make, post

TOURNAMENT_LOCK = re.compile(r"FROM tournaments\b.*WHERE tournaments\.id", re.S)
PLAYERS_LOCKED = re.compile(r"^\s*(SELECT\b.*\bFROM players\b.*ORDER BY players\.id|UPDATE players\b)", re.S)


def entered(client, names, **fields) -> tuple[dict, list[dict]]:
    entrants = [new_player(client, name) for name in names]
    t = make(client, entrants[0], min_entrants=len(names), **fields)
    for player in entrants:
        post(client, t["tournament_id"], "join", player)
    return post(client, t["tournament_id"], "start", entrants[0]), entrants


def reads_of(app, game_id: str) -> tuple:
    from service.core.extensions import db
    from service.games.models import Game
    from service.tournaments import results
    with app.app_context():
        return db.session.execute(select(results.pairing_read(Game.id), results.tournament_read(Game.id))
                                  .where(Game.id == game_id)).one()


def pairing_of(app, game_id: str, series_id: str | None) -> int:
    """The pairing's id as stored: its series' for a knockout best-of, else its game's link."""
    from service.core.extensions import db
    from service.tournaments.models import Pairing, PairingGame
    with app.app_context():
        if series_id is not None:
            return db.session.scalar(select(Pairing.id).where(Pairing.series_id == series_id))
        return db.session.scalar(select(PairingGame.pairing_id).where(PairingGame.game_id == game_id))


def test_the_moves_read_finds_a_tournament_games_pairing_and_tournament_and_nothing_for_any_other_game(
        app, client):
    robin, _ = entered(client, ["Ann", "Bob", "Cid"], format="round_robin")
    knockout, _ = entered(client, ["Dee", "Eve", "Fay", "Gus"], format="knockout", best_of=3)
    outside = accepted_game(client, new_player(client, "Hal"), new_player(client, "Ida"))
    assert reads_of(app, outside["id"]) == (None, None)
    for t in (robin, knockout):
        for p in t["rounds_played"][0]["pairings"]:
            for game in p["games"]:
                pairing = pairing_of(app, game["game_id"], p["series_id"])
                assert pairing is not None
                assert tuple(reads_of(app, game["game_id"])) == (pairing, t["tournament_id"])


def test_a_tournament_games_end_locks_the_tournament_and_its_entrants_before_any_player_is_locked(app, client):
    t, entrants = entered(client, ["Ann", "Bob", "Cid", "Dee"], format="swiss", rounds=2)
    tokens = {p["name"]: p["token"] for p in entrants}
    game = game_of(client, current_games(t)[0], tokens)
    for _ in range(3000):
        seat, mine = mover(client, game)
        with counting(app) as statements:
            answer = client.post(f"/games/{game['id']}/actions", json=choose(mine), headers=auth(game["tokens"][seat]))
        assert answer.status_code == 200, answer.get_json()
        if answer.get_json()["status"] == "finished":
            break
    else:
        raise AssertionError("the match did not end")
    tournament = next(n for n, text in enumerate(statements) if TOURNAMENT_LOCK.search(text))
    players = next(n for n, text in enumerate(statements) if PLAYERS_LOCKED.search(text))
    assert tournament < players, statements[:players + 1]
    if on_postgresql(app):
        assert "FOR UPDATE" in statements[tournament] and "FOR UPDATE" in statements[players]
