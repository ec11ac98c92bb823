"""What anyone reads of a tournament (no token needed: tournaments are public events): the listing,
one tournament with its entrants, rounds, pairings (each round's with the standings it was paired
from), standings and crosstable (and a knockout's whole bracket), and a player's tournaments (for
the profile).

Every game of a tournament can be watched and, once over, replayed by anyone: its watch key is
derived from the tournament's secret (HMAC, as a player's public games' keys are: players.watching),
so none is stored and the crosstable links each one.
"""
from __future__ import annotations

from sqlalchemy import bindparam, func, select

from ..core.extensions import db
from ..games.deadlines import as_utc
from ..games.models import Game
from ..players import watching
from ..players.models import Player
from ..series.models import SeriesGame
from . import bracket, rounds, standings
from .formats import KNOCKOUT, ROUND_ROBIN
from .models import Entrant, Invitation, Pairing, PairingGame, Round, Tournament


def _iso(moment) -> str | None:
    return as_utc(moment).isoformat() if moment is not None else None


def _names(ids) -> dict[int, str]:
    ids = [i for i in set(ids) if i is not None]
    return dict(db.session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all()) if ids else {}


def summary(t: Tournament, entrants: int | None = None, organizer: str | None = None) -> dict:
    if entrants is None:
        entrants = db.session.scalar(select(func.count()).select_from(Entrant).where(Entrant.tournament_id == t.id))
    return {"tournament_id": t.id, "name": t.name, "format": t.format, "cycles": t.cycles, "best_of": t.best_of,
            "pace": t.pace, "status": t.status,
            "organizer": organizer if organizer is not None else _names([t.organizer_id]).get(t.organizer_id),
            "rules": t.rules, "rated": t.rated, "move_time_hours": t.move_time_hours, "round_hours": t.round_hours,
            "rounds": t.rounds, "current_round": t.current_round, "entry": t.entry, "house_bot": t.house_bot,
            "min_entrants": t.min_entrants, "max_entrants": t.max_entrants, "entrants_count": entrants,
            "tie_breaks": list(t.tie_breaks), "entry_closes_at": _iso(t.entry_closes_at),
            "round_deadline_at": _iso(t.round_deadline_at), "created_at": _iso(t.created_at),
            "started_at": _iso(t.started_at), "finished_at": _iso(t.finished_at)}


def listing(status: str | None, form: str | None, entry: str | None, limit: int, offset: int) -> dict:
    counts = (select(Entrant.tournament_id, func.count().label("n")).group_by(Entrant.tournament_id).subquery())
    query = (select(Tournament, Player.name, func.coalesce(counts.c.n, 0))
             .join(Player, Player.id == Tournament.organizer_id)
             .outerjoin(counts, counts.c.tournament_id == Tournament.id))
    for column, value in ((Tournament.status, status), (Tournament.format, form), (Tournament.entry, entry)):
        if value is not None:
            query = query.where(column == value)
    rows = db.session.execute(query.order_by(Tournament.created_at.desc(), Tournament.id)
                              .limit(limit + 1).offset(offset)).all()
    return {"tournaments": [summary(t, n, name) for t, name, n in rows[:limit]],
            "next_offset": offset + limit if len(rows) > limit else None}


def watch_key(t: Tournament, game_id: str) -> str:
    return watching.public_key(t.watch_secret, game_id)


_SECRET = (select(Tournament.watch_secret).join(Pairing, Pairing.tournament_id == Tournament.id)
           .join(PairingGame, PairingGame.pairing_id == Pairing.id).where(PairingGame.game_id == bindparam("game"))
           .union_all(select(Tournament.watch_secret).join(Pairing, Pairing.tournament_id == Tournament.id)
                      .join(SeriesGame, SeriesGame.series_id == Pairing.series_id)
                      .where(SeriesGame.game_id == bindparam("game"))))


def secrets_of_game(game_id: str) -> list[str]:
    """The watching.public_secrets hook: the secret of the tournament the game is played in."""
    return list(db.session.execute(_SECRET, {"game": game_id}).scalars())


def refuse_hints(game_id: str) -> tuple[str, str] | None:
    """The coach's hint_refusers hook: a tournament's game gets no hints."""
    if secrets_of_game(game_id):
        return ("hints-not-in-tournaments", "no hints in a tournament's games")
    return None


def _games(t: Tournament) -> dict[int, list[dict]]:
    """Each pairing's games in order: id, status, watch key and the pages that show it."""
    direct = select(PairingGame.pairing_id, PairingGame.game_id, Game.status, Game.created_at).join(
        Game, Game.id == PairingGame.game_id).join(Pairing, Pairing.id == PairingGame.pairing_id).where(
        Pairing.tournament_id == t.id)
    series = select(Pairing.id, SeriesGame.game_id, Game.status, Game.created_at).join(
        SeriesGame, SeriesGame.series_id == Pairing.series_id).join(Game, Game.id == SeriesGame.game_id).where(
        Pairing.tournament_id == t.id)
    games: dict[int, list[dict]] = {}
    for pairing_id, game_id, status, _ in sorted(db.session.execute(direct.union_all(series)).all(),
                                                       key=lambda r: (r[0], r[3], r[1])):
        key = watch_key(t, game_id)
        games.setdefault(pairing_id, []).append({
            "game_id": game_id, "status": status, "watch_key": key,
            "watch_page": f"/watch/{game_id}#key={key}",
            "replay_page": f"/replay/{game_id}#key={key}" if status == "finished" else None})
    return games


def _pairing(p: Pairing, names: dict, games: dict) -> dict:
    result = None
    if p.decided_at is not None:
        result = {"first": p.score_first, "second": p.score_second, "played": bool(p.played),
                  "points": [p.points_first, p.points_second] if p.second_id is not None else None}
    return {"board": p.board, "first": names.get(p.first_id), "second": names.get(p.second_id),
            "series_id": p.series_id, "games": games.get(p.id, []), "result": result}


def _paired_from(rows: list | None, names: dict) -> list | None:
    if rows is None:
        return None
    return [{"player": names.get(r["id"]), "score": r["score"] / 2, "rating": r["rating"],
             "opponents": sorted(names.get(o) for o in r["opponents"]), "byes": r["byes"],
             "first_deals": r["first_deals"], "second_deals": r["second_deals"]} for r in rows]


OUTCOMES = ("won", "lost", "drawn", "bye", "forfeit_won", "forfeit_lost", "double_loss", "absent")


def _outcome(entry: standings.Entry, lost_both: bool) -> str:
    if entry.kind == standings.ABSENT:
        return "absent"
    if entry.kind == standings.BYE:
        return "bye"
    word = {1: "won", 0.5: "drawn", 0: "lost"}[entry.score]
    if entry.kind == standings.FORFEIT:
        return "double_loss" if lost_both else f"forfeit_{word}"
    return word


def crosstable(t: Tournament, entrants: list[Entrant], pairings: list[Pairing], names: dict, games: dict) -> list:
    """Each entrant's rounds: opponent, outcome, match points, gin points for and against, games."""
    played = max([p.round for p in pairings if p.decided_at is not None], default=0)
    by_player = standings.records([e.player_id for e in entrants], rounds.results_of(t), played, t.format)
    ids = {}
    both_lost = set()
    for p in pairings:
        for me in (p.first_id, p.second_id):
            ids[(me, p.round)] = [g["game_id"] for g in games.get(p.id, [])]
        if p.decided_at is not None and p.second_id is not None and p.score_first == p.score_second == 0:
            both_lost.add(p.id)
    lost_both = {(me, p.round) for p in pairings if p.id in both_lost for me in (p.first_id, p.second_id)}
    return [{"player": names.get(e.player_id), "rounds": [
        {"round": x.round, "opponent": names.get(x.opponent), "outcome": _outcome(x, (e.player_id, x.round) in lost_both),
         "score": x.score, "points_for": x.points_for, "points_against": x.points_against,
         "games": ids.get((e.player_id, x.round), [])} for x in by_player[e.player_id]]} for e in entrants]


def knockout_bracket(t: Tournament, entrants: list[Entrant], pairings: list[Pairing], names: dict) -> dict | None:
    """A started knockout's whole bracket (bracket.layout) with names and seeds; None otherwise."""
    if t.format != KNOCKOUT or not t.rounds:
        return None
    played = {(p.round, p.board): (p.first_id, p.second_id, rounds.winner(p) if p.decided_at else None,
                                   p.decided_at is not None) for p in pairings}
    seeds = {e.player_id: e.seed for e in entrants}
    return {"size": bracket.size(len(entrants)), "rounds": [
        {"round": number, "name": bracket.round_name(number, t.rounds), "slots": [
            {**slot, "first": names.get(slot["first"]), "second": names.get(slot["second"]),
             "first_seed": seeds.get(slot["first"]), "second_seed": seeds.get(slot["second"]),
             "winner": names.get(slot["winner"])} for slot in slots]}
        for number, slots in enumerate(bracket.layout(t.rounds, played), start=1)]}


def describe(t: Tournament) -> dict:
    entrants = rounds.entrants_of(t)
    pairings = rounds.pairings_of(t)
    names = _names([e.player_id for e in entrants] + [t.organizer_id] +
                   [i for p in pairings for i in (p.first_id, p.second_id)])
    games = _games(t)
    round_rows = db.session.scalars(select(Round).where(Round.tournament_id == t.id).order_by(Round.number))
    by_round: dict[int, list] = {}
    for p in pairings:
        if not (p.second_id is None and t.format == ROUND_ROBIN):  # a round robin's rest is no pairing
            by_round.setdefault(p.round, []).append(_pairing(p, names, games))
    rests = {p.round: names.get(p.first_id) for p in pairings if p.second_id is None and t.format == ROUND_ROBIN}
    invited = sorted(_names(db.session.scalars(select(Invitation.player_id).where(
        Invitation.tournament_id == t.id))).values()) if t.entry == "invitation" else []
    table = rounds.table(t, entrants) if t.status in (rounds.RUNNING, rounds.FINISHED) else []
    players = {p.id: p for p in db.session.scalars(select(Player).where(
        Player.id.in_([e.player_id for e in entrants])))} if entrants else {}
    return {**summary(t, len(entrants), names.get(t.organizer_id)), "invited": invited,
            "entrants": [{"name": names.get(e.player_id), "bot": players[e.player_id].bot, "level": e.level,
                          "seed": e.seed, "rating": round(e.rating, 2) if e.rating is not None else None,
                          "withdrawn_round": e.withdrawn_round, "place": e.place} for e in entrants],
            "rounds_played": [{"number": r.number, "started_at": _iso(r.started_at), "deadline_at": _iso(r.deadline_at),
                               "finished_at": _iso(r.finished_at), "rest": rests.get(r.number),
                               "paired_from": _paired_from(r.paired_from, names),
                               "pairings": by_round.get(r.number, [])} for r in round_rows],
            "standings": [{"place": row["place"], "player": names.get(row["id"]), "score": row["score"],
                           "tie_breaks": row["tie_breaks"], **{k: row[k] for k in ("played", "won", "drawn", "lost",
                                                                                   "byes")}} for row in table],
            "crosstable": crosstable(t, entrants, pairings, names, games) if table else [],
            "bracket": knockout_bracket(t, entrants, pairings, names)}


def of_player(player: Player) -> list[dict]:
    """The player's tournaments, newest first: place once over (the profile's list)."""
    rows = db.session.execute(select(Tournament, Entrant).join(Entrant, Entrant.tournament_id == Tournament.id)
                              .where(Entrant.player_id == player.id)
                              .order_by(Tournament.created_at.desc(), Tournament.id)).all()
    counts = dict(db.session.execute(select(Entrant.tournament_id, func.count()).where(
        Entrant.tournament_id.in_([t.id for t, _ in rows])).group_by(Entrant.tournament_id)).all()) if rows else {}
    return [{"tournament_id": t.id, "name": t.name, "format": t.format, "status": t.status, "place": e.place,
             "entrants": counts.get(t.id, 0), "withdrawn": e.withdrawn_round is not None,
             "finished_at": _iso(t.finished_at)} for t, e in rows]
