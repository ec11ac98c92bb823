"""A series between two players: offered by one (naming the other), accepted or declined by the
other; accepting makes game 1, and every game's end records its result in the series and makes the
next game, in the same transaction (`after_change`, a games.changes hook), until the engine's
Series says the series is decided. Seats come from Series.next_seating (the players change seats
each game); every game's seats are bound to the two players, so their player tokens open them.
"""
from __future__ import annotations

from datetime import UTC

from sqlalchemy import bindparam, exists, func, select

from ..core.errors import Problem
from ..core.extensions import db
from ..core.tokens import new_game_id
from ..games import seating, store, views
from ..games.models import Game, utcnow
from ..players import accounts, blocks, feed, limits
from ..players.models import Player
from ..rules import Rules, Series, SeriesError
from .models import SeriesGame, SeriesRecord

OFFERED, PLAYING, DECIDED, DECLINED = "offered", "playing", "decided", "declined"
STATUSES = (OFFERED, PLAYING, DECIDED, DECLINED)
KINDS = ("best_of", "points")
DEFAULT_PRESET = "wikipedia_tournament"  # 000's tournament: each game to 250


def build(players: list[str], kind: str, matches: int | None, target: int | None, exactly_50_loses: bool,
          rules: Rules) -> Series:
    """The engine's Series for a request, every field checked (problem invalid-series naming it)."""
    if kind == "best_of" and target is not None:
        raise Problem("invalid-series", "a best_of series counts games won: it takes `matches`, not `target`",
                      field="target")
    if kind == "points" and matches is not None:
        raise Problem("invalid-series", "a points series plays until a total reaches `target`: it takes no "
                                        "`matches`", field="matches")
    if kind == "best_of" and exactly_50_loses:
        raise Problem("invalid-series", "exactly_50_loses settles a points series' totals; for each game of a "
                                        "best_of series set the rules option exactly_50_loses", field="exactly_50_loses")
    try:
        return Series(players, kind, 5 if matches is None else matches, 500 if target is None else target,
                      rules, exactly_50_loses)
    except SeriesError as error:
        field = "matches" if kind == "best_of" else "target"
        raise Problem("invalid-series", error.message, field=field) from None


def offer(offerer: Player, to: str, kind: str, matches: int | None, target: int | None, exactly_50_loses: bool,
          rules: Rules, move_time_hours: int | None) -> SeriesRecord:
    opponent = accounts.by_name(to)
    if opponent is None:
        raise Problem("unknown-player", f"no player is called {to!r}")
    if opponent.id == offerer.id:
        raise Problem("challenge-to-self", "a series is between two different players")
    series = build([offerer.name, opponent.name], kind, matches, target, exactly_50_loses, rules)
    limits.check(offerer.id, opponent.id, utcnow())
    now = utcnow()
    row = SeriesRecord(id=new_game_id(), status=OFFERED, offered_by=offerer.id, opponent_id=opponent.id,
                       record=series.to_dict(), move_time_hours=move_time_hours, created_at=now, updated_at=now)
    db.session.add(row)
    db.session.flush()
    if blocks.blocks(opponent.id, offerer.id):
        # As a challenge to a blocker is (players.challenges): declined at once, never shown to them;
        # the offerer is told a decline, which is true, not a block.
        row.status = DECLINED
        feed.add(offerer.id, "series_declined", series_id=row.id, by=opponent.name)
    else:
        feed.add(opponent.id, "series_offered", series_id=row.id, by=offerer.name)
    return row


def pending_offers(sender_id: int, target_id: int | None) -> tuple[int, int]:
    """The sender's series offers not yet answered, for the caps on pending offers (players.limits)."""
    offered = (SeriesRecord.offered_by == sender_id, SeriesRecord.status == OFFERED)
    sent = db.session.execute(select(func.count()).select_from(SeriesRecord).where(*offered)).scalar()
    to_target = db.session.execute(select(func.count()).select_from(SeriesRecord).where(
        *offered, SeriesRecord.opponent_id == target_id)).scalar() if target_id is not None else 0
    return sent, to_target


def begin(first: Player, second: Player, matches: int, rules: Rules, move_time_hours: int | None,
          levels: dict[int, int] | None = None) -> SeriesRecord:
    """A best-of series another feature arranged (a tournament's knockout pairing): no offer to
    answer, playing at once, game 1 made with `first` at seat 0; `levels`: {player id: the level}
    the house bot plays every game at."""
    series = build([first.name, second.name], "best_of", matches, None, False, rules)
    now = utcnow()
    row = SeriesRecord(id=new_game_id(), status=PLAYING, offered_by=first.id, opponent_id=second.id,
                       record=series.to_dict(), move_time_hours=move_time_hours,
                       levels={str(pid): level for pid, level in levels.items()} if levels else None,
                       created_at=now, updated_at=now)
    db.session.add(row)
    db.session.flush()
    _next_game(row, series)
    return row


def close(row: SeriesRecord) -> None:
    """Stop a series before the engine decides it (a tournament's round deadline): no game is made
    after the one being played, whose end is not recorded in it."""
    row.status, row.updated_at = DECIDED, utcnow()


def _locked(series_id: str) -> SeriesRecord | None:
    if not store.could_be_game_id(series_id):
        return None
    return db.session.execute(select(SeriesRecord).where(SeriesRecord.id == series_id).with_for_update()).scalar()


def visible(row: SeriesRecord | None, player: Player) -> SeriesRecord:
    """A series the player is in; anything else is not found (no hint that it exists)."""
    if row is None or player.id not in (row.offered_by, row.opponent_id):
        raise Problem("series-not-found", "no such series for this player")
    return row


def find(series_id: str, player: Player) -> SeriesRecord:
    row = db.session.get(SeriesRecord, series_id) if store.could_be_game_id(series_id) else None
    return visible(row, player)


def accept(series_id: str, player: Player) -> SeriesRecord:
    row = visible(_locked(series_id), player)
    if row.status != OFFERED:
        raise Problem("series-closed", f"the series is {row.status} already")
    if row.opponent_id != player.id:
        raise Problem("challenge-to-self", "the player the series was offered to accepts it, not its offerer")
    if db.session.scalar(select(blocks.either_blocks(row.offered_by, row.opponent_id))):
        # Blocked since it was offered: it cannot start (and is not told apart from a closed one).
        raise Problem("series-closed", "the series can no longer be accepted")
    feed.lock_players([row.offered_by, row.opponent_id])  # in id order, before any event is added
    row.status, row.updated_at = PLAYING, utcnow()
    _next_game(row, Series.from_dict(row.record))
    return row


def decline(series_id: str, player: Player) -> SeriesRecord:
    """The player offered the series declines it, or its offerer withdraws it, before it starts."""
    row = visible(_locked(series_id), player)
    if row.status != OFFERED:
        raise Problem("series-closed", f"the series is {row.status} already")
    row.status, row.updated_at = DECLINED, utcnow()
    other = row.offered_by if player.id == row.opponent_id else row.opponent_id
    feed.add(other, "series_declined", series_id=row.id, by=player.name)
    return row


def _next_game(row: SeriesRecord, series: Series) -> Game:
    """Game number len(results) + 1, seated by next_seating, both seats bound, the first hand dealt."""
    ids = {series.players[0]: row.offered_by, series.players[1]: row.opponent_id}
    seated = [db.session.get(Player, ids[name]) for name in series.next_seating()]
    game, _, invite = seating.create_game(series.rules, seated[0].name, row.move_time_hours)
    for seat, player in enumerate(seated):
        game.seats[seat].bot_level = (row.levels or {}).get(str(player.id))
        accounts.bind(game.id, seat, player)
    db.session.add(SeriesGame(game_id=game.id, series_id=row.id, number=len(series.results) + 1))
    db.session.flush()  # linked before the join's change hooks run
    game, match, _ = seating.join_game(game.id, invite, seated[1].name)
    views.publish_views(game, match)
    return game


# -- a game's end -----------------------------------------------------------------------------

_LINK = select(SeriesGame.series_id, SeriesGame.number).where(SeriesGame.game_id == bindparam("game"))


def in_a_series(game_id):
    """The SQL truth value under which after_change has work (the move path reads it: moves.py)."""
    return exists().where(SeriesGame.game_id == game_id)


def after_change(change, in_series) -> None:
    """The change hook (games.changes): when a game of a series ends, record its result and make the next game,
    or mark the series decided, in the same transaction as the game's end (`in_series`: read with the move)."""
    match = change.match
    if not match.is_over or not in_series:
        return
    link = db.session.execute(_LINK, {"game": change.game_id}).first()
    if link is None:
        return
    row = _locked(link.series_id)
    series = Series.from_dict(row.record)
    if len(series.results) >= link.number or row.status != PLAYING:
        return  # recorded already: a game's result counts once
    feed.lock_players([row.offered_by, row.opponent_id])
    standings = series.record(series.next_seating(), match.result)
    row.record, row.updated_at = series.to_dict(), utcnow()
    if standings["over"]:
        row.status = DECIDED
        for player in (row.offered_by, row.opponent_id):
            feed.add(player, "series_over", series_id=row.id, winner=standings["winner"])
    else:
        _next_game(row, series)


# -- what a player reads ----------------------------------------------------------------------

_GAMES = (select(SeriesGame.number, SeriesGame.game_id, Game.status)
          .join(Game, Game.id == SeriesGame.game_id).where(SeriesGame.series_id == bindparam("series"))
          .order_by(SeriesGame.number))


def series_of_game(game_id: str) -> SeriesRecord:
    link = db.session.execute(_LINK, {"game": game_id}).first()
    if link is None:
        raise Problem("not-in-series", "this game is not a game of any series")
    return db.session.get(SeriesRecord, link.series_id)


def describe(row: SeriesRecord, links) -> dict:
    """The series, its games in order (with links, seating and result) and the standings.
    `links(game_id)` gives a game's links."""
    series = Series.from_dict(row.record)
    standings = series.standings()
    games = []
    for number, game_id, status in db.session.execute(_GAMES, {"series": row.id}).all():
        recorded = series.results[number - 1] if number <= len(series.results) else None
        seating = recorded["seating"] if recorded else series.next_seating()
        games.append({"number": number, "game_id": game_id, "status": status, "seating": list(seating),
                      "result": _result(recorded["result"], seating) if recorded else None,
                      "links": links(game_id)})
    current = next((g["game_id"] for g in games if g["result"] is None), None)
    return {
        "series_id": row.id, "status": row.status, "players": list(series.players), "kind": series.kind,
        "matches": series.matches if series.kind == "best_of" else None,
        "target": series.target if series.kind == "points" else None,
        "exactly_50_loses": series.exactly_50_loses, "rules": series.rules.to_dict(),
        "move_time_hours": row.move_time_hours, "created_at": _aware(row.created_at).isoformat(),
        "current_game": current if row.status == PLAYING else None, "games": games,
        "standings": {**{k: standings[k] for k in ("rows", "matches_played", "over", "winner", "exactly_50_rule")},
                      "leader": _leader(series.kind, standings["rows"])},
    }


def _result(result: dict, seating: list[str]) -> dict:
    winner = result.get("winner")
    return {"winner": seating[winner] if winner is not None else None, "reason": result.get("reason"),
            "totals": list(result["totals"])}


def _leader(kind: str, rows: list[dict]) -> str | None:
    """Who is ahead: most games won, then most points (a points series: most points); null if level."""
    key = (lambda r: r["points"]) if kind == "points" else (lambda r: (r["won"], r["points"]))
    return rows[0]["player"] if key(rows[0]) != key(rows[1]) else None


def _aware(moment):
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
