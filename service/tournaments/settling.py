"""What happens to a tournament on the clock (the worker's sweep, `flask tournaments sweep`), and games
ended from outside them:

  - an entry window that closed: the tournament starts with the entrants it has, or is cancelled
    when they are fewer than its minimum;
  - a round deadline that passed: every unfinished game of the round is settled by the clock rules,
    as a claim on time against the seat to move (a series is stopped first: it makes no further
    game); a game in which neither side had moved is a double loss;
  - a withdrawal: the player resigns the tournament's games they are playing.

Each game is ended in a transaction of its own, through the move path (games.moves.record: the
hooks, the views, the streams), as a move by mail is; its pairing is then decided by the change
hook (results.py), the last one starting the next round.
"""
from __future__ import annotations

from sqlalchemy import select

from ..core.extensions import db
from ..games import deadlines, move_reads, move_transaction, moves, store
from ..games.models import Event, Game
from ..players.models import PlayerSeat
from ..series import play as series_play
from ..series.models import SeriesGame, SeriesRecord
from . import rounds
from .models import Pairing, PairingGame, Tournament
from .results import double_losses

BATCH = 50


def unfinished_games(row: Pairing) -> list[str]:
    """The pairing's games not over yet (at most one: a series makes its next game when one ends)."""
    if row.series_id is not None:
        query = select(SeriesGame.game_id).join(Game, Game.id == SeriesGame.game_id).where(
            SeriesGame.series_id == row.series_id)
    else:
        query = select(PairingGame.game_id).join(Game, Game.id == PairingGame.game_id).where(
            PairingGame.pairing_id == row.id)
    return list(db.session.scalars(query.where(Game.status != store.FINISHED)))


def end_game(game_id: str, loser: int | None, reason: str, moment, series_id: str | None = None,
             unmoved_loses_both: bool = False) -> bool:
    """End an unfinished two-seat game through the move path, in the caller's transaction: `loser`
    resigns ("resign"), or the seat to move (loser None) loses on time as if the other claimed it
    ("timeout"). Under the game's lock, first: its series (if any) is stopped, and with
    `unmoved_loses_both` a game neither side moved in is marked a double loss for the hook. False
    when the game was over already. The game's lock comes before any other (as a move's)."""
    connection = move_transaction.driver()
    state = db.session.execute(select(Game.state).where(Game.id == game_id)).scalar()
    match = store.match_from_state(state) if state is not None else None
    if match is None or match.is_over:
        return False
    late = match.to_move if loser is None else loser
    actor = late if reason == "resign" else 1 - late
    row = move_reads.lock_seat(connection, game_id, actor)  # the game's lock, then what the move path reads
    match = store.match_from_state(row.state)
    if match.is_over or (loser is None and match.to_move != late):
        return False
    if series_id is not None:
        series_play.close(db.session.get(SeriesRecord, series_id))
    unmoved = unmoved_loses_both and _nobody_moved(game_id)
    token = double_losses.set(frozenset({game_id}) if unmoved else frozenset())
    try:
        events = match.forfeit(late, reason)
        moves.record(connection, row, match, actor, {"type": "claim_timeout" if reason == "timeout" else "resign"},
                     events, moment)
    finally:
        double_losses.reset(token)
    return True


def _nobody_moved(game_id: str) -> bool:
    """No event of the game records a seat's action (read here, not in SQL: a JSON null is stored
    as SQL NULL by one path and as JSON 'null' by another)."""
    return all(action is None for action in db.session.scalars(select(Event.action).where(Event.game_id == game_id)))


def settle_round(tournament_id: str, moment) -> int:
    """Settle what is left of the tournament's round whose deadline passed; returns the games ended.
    Each game in a transaction of its own; the tournament's lock is taken only by the hook, after
    the game's (as every move takes them)."""
    ended = 0
    t = db.session.get(Tournament, tournament_id)
    number = t.current_round
    pending = [(p.id, p.series_id) for p in rounds.pairings_of(t) if p.decided_at is None and
               (t.pace == "all_at_once" or p.round == number)]
    db.session.rollback()
    for pairing_id, series_id in pending:
        with store.transaction():
            for game_id in unfinished_games(db.session.get(Pairing, pairing_id)):
                ended += end_game(game_id, None, "timeout", moment, series_id, unmoved_loses_both=True)
    with store.transaction():  # the round's deadline is spent; a round still undecided (none should be) goes on
        t = rounds.locked(tournament_id)
        if t.status == rounds.RUNNING and t.current_round == number and t.round_deadline_at is not None \
                and deadlines.as_utc(t.round_deadline_at) <= moment:
            t.round_deadline_at = None
            rounds.advance(t, moment)
    return ended


def close_entry(tournament_id: str, moment) -> str | None:
    """An entry window that closed: start the tournament, or cancel it short of its minimum."""
    with store.transaction():
        t = rounds.locked(tournament_id)
        if t.status != rounds.OPEN or deadlines.as_utc(t.entry_closes_at) > moment:
            return None
        count = len(rounds.entrants_of(t))
        if count >= t.min_entrants:
            rounds.start(t, moment)
            return rounds.RUNNING
        rounds.cancel(t, moment, f"the entry closed with {count} entrants, fewer than its minimum {t.min_entrants}")
        return rounds.CANCELLED


def sweep(moment=None) -> int:
    """Entry windows closed and round deadlines passed, up to BATCH of each; returns what was done."""
    moment = moment or deadlines.now()
    closing = list(db.session.scalars(select(Tournament.id).where(
        Tournament.status == rounds.OPEN, Tournament.entry_closes_at <= moment).limit(BATCH)))
    late = list(db.session.scalars(select(Tournament.id).where(
        Tournament.status == rounds.RUNNING, Tournament.round_deadline_at <= moment).limit(BATCH)))
    db.session.rollback()  # end the read: each tournament in transactions of its own
    done = sum(close_entry(tournament_id, moment) is not None for tournament_id in closing)
    for tournament_id in late:
        settle_round(tournament_id, moment)
        done += 1
    return done


def _undecided_of(tournament_id: str, player_id: int) -> list[Pairing]:
    return list(db.session.scalars(select(Pairing).where(
        Pairing.tournament_id == tournament_id, Pairing.decided_at.is_(None),
        (Pairing.first_id == player_id) | (Pairing.second_id == player_id))))


def lock_games_of(tournament_id: str, player_id: int) -> None:
    """Lock the games of the tournament the player is playing, in id order: a withdrawal takes them
    before the tournament's lock, as a move takes its game's before its hooks take the tournament's."""
    games = sorted(game_id for row in _undecided_of(tournament_id, player_id) for game_id in unfinished_games(row))
    if games:
        db.session.execute(select(Game.id).where(Game.id.in_(games)).order_by(Game.id).with_for_update())


def resign_games(t: Tournament, player_id: int, moment) -> None:
    """A withdrawing player resigns every game of the tournament they are playing (in the caller's
    transaction, after their entry was marked withdrawn: the pairings go to their opponents)."""
    for row in _undecided_of(t.id, player_id):
        for game_id in unfinished_games(row):
            seat = db.session.execute(select(PlayerSeat.seat).where(PlayerSeat.game_id == game_id,
                                                                    PlayerSeat.player_id == player_id)).scalar()
            end_game(game_id, seat, "resign", moment, row.series_id)
