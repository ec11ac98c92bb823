"""The game's messages in a seat's mails: each turn mail (and reminder, and answer to a reply)
says "Bob wrote: ..." for every message the other seats wrote since the seat's last such mail,
never a message of a player the seat's player blocked (games.messages.hidden_from). How far the
mails got is kept per seat (MailedMessages), moved on by the mail that told them.

A message's addresses are defanged (`hxxps://evil[.]example/x`): mail programs make links of what
looks like one in a text part, and the seat page shows a message as text, never as a link; so a
phishing line above "Your turn" is no link to click in a mail either."""
from __future__ import annotations

import re

from ...core.extensions import db
from ...games import messages
from ..models import MailedMessages

MOST = 20  # a mail tells at most the newest 20; the seat page has them all
_SCHEME = re.compile(r"(?i)\b(h)(tt)(ps?)(:)//|\b(ftp|file|mailto|javascript|data)(:)")
# A host-like word: two or more labels, the last of two letters or more (evil.example, www.x.io).
_HOST = re.compile(r"(?i)\b(?:[a-z0-9\u00a1-\uffff-]+\.)+[a-z\u00a1-\uffff]{2,}\b")


def defang(text: str) -> str:
    """`text` with its addresses made unclickable: a scheme's `http` as `hxxp`, a host's dots as `[.]`."""
    text = _SCHEME.sub(lambda m: f"{m[1]}xx{m[3]}[:]//" if m[1] else f"{m[5]}[:]", text)
    return _HOST.sub(lambda m: m[0].replace(".", "[.]"), text)


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
    return [f"{m['name'] or 'seat ' + str(m['seat'])} wrote: {defang(m['text'])}" for m in others[-MOST:]]

