"""Mail out: what a seat's mails say, the RFC 5322 message around it, and sending it by SMTP.

    scene.py       one seat's picture of a game at one version (`Scene`), which every mail is written from
    mail_text.py   a game's mail, whatever its size: subject and body, a refusal, the daily digest
    compose.py     a two-seat game's text, and the mails about no game (a wrong sender, an unknown address)
    mail_pieces.py the two-seat text's pieces: events, hand, score sheet, deadline, the commands a reply may use
    table_mail.py  a table's text (3 to 8 seats); table_seats.py a seat's place at the table, in words
    html_part.py   the optional HTML alternative: cards in colour, the moves as mailto buttons
    chat_lines.py  the game's messages as "Bob wrote: ..." lines, each told once per seat
    wording.py     the rules in words, for invitations
    layout.py      lines of at most 78 characters, wrapped only between words
    rfc5322.py     the message: headers (threading, replies, Auto-Submitted), ids, the service's addresses
    one_click.py   the one-click unsubscribe key and headers every mail carries (RFC 8058)
    smtp.py        sending through an SMTP server (the mail channel's courier)
    channel.py     the mail channel (notify/channels.py): its name and courier

Nothing here decides who may be mailed (consent/) or reads mail in (inbound/); composing reads
only what a seat may see. It imports notify's tables, settings and outbox, never the other
sub-packages (pyproject.toml's contracts).
"""
