"""Tournament mail: each entrant whose account has an address the service may mail (confirmed, not
stopped: notify's consent) gets a mail when a round starts (the game, the opponent, who deals first,
the deadline, the standings so far) and one with the final standings and their place. Every mail of
a tournament has one subject, "[Gin] Tournament: NAME", and refers to one thread root, so a mail
reader keeps them together. Written to the outbox in the transaction that started the round or ended
the tournament, delivered by the notify worker like any mail."""
from __future__ import annotations

from sqlalchemy import select

from ..core.extensions import db
from ..core.settings import setting
from ..notify import outbox
from ..notify.consent import confirm
from ..notify.mail import one_click, rfc5322
from ..notify.mail.channel import MAIL
from ..players.models import Player
from .models import Tournament

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def subject(t: Tournament) -> str:
    return f"[Gin] Tournament: {t.name}"


def _thread(t: Tournament) -> str:
    return f"<gin.tournament.{t.id}@{rfc5322.domain()}>"


def _place(place: int) -> str:
    return ORDINALS.get(place if place % 100 not in (11, 12, 13) else 0, f"{place}th")


def standings_lines(rows: list[dict], names: dict[int, str]) -> list[str]:
    lines = []
    for row in rows:
        breaks = ", ".join(f"{name.replace('_', ' ')} {value:g}" for name, value in row["tie_breaks"].items()
                           if value is not None)
        lines.append(f"  {row['place']:>3}. {names.get(row['id'], '?')}: {row['score']:g}"
                     + (f" ({breaks})" if breaks else ""))
    return lines


def round_text(t: Tournament, number: int, games: list[dict], deadline, rows: list[dict],
               names: dict[int, str]) -> str:
    """A round's start (all at once: every round's): each game (`games`: round, opponent, game_id
    (None: a bye or a rest), first: whether the player deals first)."""
    base = setting("BASE_URL").rstrip("/")
    heading = f"Round {number} of {t.rounds} of {t.name} has started." if len(games) == 1 else \
        f"{t.name} has started: all {t.rounds} rounds at once."
    lines = [heading, ""]
    for game in games:
        prefix = f"Round {game['round']}: " if len(games) > 1 else ""
        if game["game_id"] is None:
            lines.append(prefix + ("You have a bye: it counts as a won match." if t.format != "round_robin"
                                   else "You rest."))
            continue
        dealer = "you deal" if game["first"] else f"{game['opponent']} deals"
        lines += [f"{prefix}Your game: against {game['opponent']}; {dealer} the first hand.",
                  f"  Play it: {base}/play/{game['game_id']} (signed in with your player on {base}/player),",
                  f"  or from the command line: gin show -g {game['game_id']}"]
    if deadline is not None:
        lines.append(f"The round ends {deadline.isoformat()}: then an unfinished game is settled on time.")
    if rows and number > 1:
        lines += ["", f"Standings after round {number - 1}:", *standings_lines(rows, names)]
    lines += ["", f"The tournament: {base}/tournaments/{t.id}"]
    return "\n".join(lines) + "\n"


def games_started(t: Tournament, number: int, games: dict[int, list[dict]], deadline, rows: list[dict],
                  names: dict[int, str], moment) -> int:
    """A round's mail to each player told of it (games: {player id: its games}); returns how many."""
    players = {p.id: p for p in db.session.scalars(select(Player).where(Player.id.in_(list(games))))} if games else {}
    return sum(send(t, players[pid], "round", round_text(t, number, mine, deadline, rows, names), moment)
               for pid, mine in games.items())


def final_standings(t: Tournament, places: dict[int, int], rows: list[dict], names: dict[int, str], moment) -> int:
    players = {p.id: p for p in db.session.scalars(select(Player).where(Player.id.in_(list(places))))}
    return sum(send(t, players[pid], "over", final_text(t, place, len(places), rows, names), moment)
               for pid, place in places.items())


def final_text(t: Tournament, place: int, count: int, rows: list[dict], names: dict[int, str]) -> str:
    base = setting("BASE_URL").rstrip("/")
    return "\n".join([f"{t.name} is over: you finished {_place(place)} of {count}.", "", "Final standings:",
                      *standings_lines(rows, names), "",
                      f"The crosstable, and every game's replay: {base}/tournaments/{t.id}"]) + "\n"


def send(t: Tournament, player: Player, kind: str, text: str, moment) -> bool:
    """Queue one tournament mail to the player's address, if the service may mail it."""
    if not player.email or not confirm.may_mail(player.email):
        return False
    message_id = rfc5322.new_message_id(None, None, f"tournament.{kind}")
    key = one_click.new_key(player.email, moment)
    mail = rfc5322.build(to=player.email, subject=subject(t), text=text + f"\n-- \nTo stop mail from Gin Rummy, "
                                                                      f"send a mail to {one_click.mailto_address(key)}.\n",
                         message_id=message_id, moment=moment, in_reply_to=_thread(t), unsubscribe=key)
    outbox.enqueue(MAIL, f"tournament_{kind}", player.email, rfc5322.serialise(mail), message_id, moment=moment)
    return True
