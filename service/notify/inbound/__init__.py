"""Mail in: replies played as moves, and games started and joined by mail.

    smtpd.py       the SMTP listener (aiosmtpd): `flask notify smtpd`, the Procfile's `mail:`
    mime_shape.py  a message's MIME depth and parts, and its read headers' sizes, judged before any parse
    replies.py     one message in, by its reply address: a reply's commands played and answered, confirm,
                   stop and unsubscribe replies, mail to an unknown address
    commands.py    a reply's text cut down to what the player wrote, read as commands
    senders.py     who sent a reply: only the seat's confirmed address may play for it
    invitations.py invitations by mail: sent at a game's creation, joined by reply; games started by mail to new@

It plays moves through the games' move path and has their answers written by notify's dispatch
(the change hook), so a move by mail tells every channel as a move over HTTP does; it never
imports webhooks/ itself (pyproject.toml's contracts).
"""
