"""The game's messages in a seat's mails: each turn mail (and reminder, and answer to a reply)
says "Bob wrote: ..." for every message the other seats wrote since the seat's last such mail,
never a message of a player the seat's player blocked (games.messages.hidden_from). How far the
mails got is kept per seat (MailedMessages), moved on by the mail that told them."""
from __future__ import annotations

from ..core.extensions import db
from ..games import messages
from .models import MailedMessages

MOST = 20  # a mail tells at most the newest 20; the seat page has them all


def take_unmailed(game_id: str, seat: int) -> list[str]:
    """The lines telling the messages written since the seat's last mail told any, oldest first;
    marks them told (in the caller's transaction: a mail that is not written tells nothing)."""
    mark = db.session.get(MailedMessages, (game_id, seat))
    through = mark.through if mark else 0
    newest = messages.newest_id(game_id)
    if newest <= through:
        return []
    found = messages.page(game_id, seat, through, 500)["messages"]  # (one seat writes 10 a minute at most)
    if mark is None:
        db.session.add(MailedMessages(game_id=game_id, seat=seat, through=newest))
    else:
        mark.through = newest
    others = [m for m in found if m["seat"] != seat]
    return [f"{m['name'] or 'seat ' + str(m['seat'])} wrote: {m['text']}" for m in others[-MOST:]]

