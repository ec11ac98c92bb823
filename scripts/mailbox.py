#!/usr/bin/env python3
"""A local mailbox for playing by email on one machine: catch the service's mail, read it, reply.

    python scripts/mailbox.py catch [--port 1025] [--dir mailbox]   # an SMTP server keeping every mail
    python scripts/mailbox.py show ann@example.org                   # the latest mail to Ann
    python scripts/mailbox.py reply ann@example.org "draw stock"     # reply to it, as a mail client would

`catch` stores each message as an .eml file (and prints its recipient and subject); `reply` quotes
the latest mail to that address and sends the reply, with the commands at the top, to the
service's mail listener (`flask notify smtpd`, 127.0.0.1:2525 by default). Loopback only.
Needs aiosmtpd for `catch` (installed with the service).
"""
from __future__ import annotations

import argparse
import email
import email.policy
import email.utils
import smtplib
import sys
import time
from email.message import EmailMessage
from pathlib import Path


def catch(args) -> None:
    from aiosmtpd.controller import Controller

    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)

    class Keep:
        async def handle_DATA(self, server, session, envelope):
            raw = envelope.original_content or envelope.content
            message = email.message_from_bytes(raw, policy=email.policy.default)
            for rcpt in envelope.rcpt_tos:
                name = f"{time.time_ns()}-{rcpt}.eml"
                (folder / name).write_bytes(raw)
            print(f"{', '.join(envelope.rcpt_tos)}: {message['Subject']}", flush=True)
            return "250 OK"

    controller = Controller(Keep(), hostname="127.0.0.1", port=args.port)
    controller.start()
    print(f"catching mail on 127.0.0.1:{args.port} into {folder}/ (Ctrl-C to stop)", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        controller.stop()


def latest(folder: Path, address: str) -> EmailMessage:
    files = sorted(folder.glob(f"*-{address}.eml"))
    if not files:
        sys.exit(f"no mail for {address} in {folder}/")
    return email.message_from_bytes(files[-1].read_bytes(), policy=email.policy.default)


def body_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


def show(args) -> None:
    message = latest(Path(args.dir), args.address)
    print(f"Subject: {message['Subject']}\nReply-To: {message['Reply-To']}\n")
    print(body_of(message))


def reply(args) -> None:
    original = latest(Path(args.dir), args.address)
    answer = EmailMessage()
    answer["From"] = args.address
    answer["To"] = original["Reply-To"] or original["From"]
    answer["Subject"] = "Re: " + (original["Subject"] or "")
    answer["Message-ID"] = email.utils.make_msgid(domain="mailbox.localhost")
    answer["In-Reply-To"] = original["Message-ID"]
    answer["References"] = " ".join(filter(None, [original["References"], original["Message-ID"]]))
    quoted = "\n".join("> " + line for line in body_of(original).splitlines())
    commands = "\n".join(args.commands)
    answer.set_content(f"{commands}\n\nOn {original['Date']}, {original['From']} wrote:\n{quoted}\n")
    with smtplib.SMTP(args.host, args.smtp_port, timeout=30) as smtp:
        smtp.send_message(answer)
    print(f"sent to {answer['To']}: {' / '.join(args.commands)}")


def send(args) -> None:
    """A new mail (not a reply), e.g. to new@MAIL_DOMAIN to start a game."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = args.address, args.to, args.subject
    message["Message-ID"] = email.utils.make_msgid(domain="mailbox.localhost")
    message.set_content("\n".join(args.lines) + "\n")
    with smtplib.SMTP(args.host, args.smtp_port, timeout=30) as smtp:
        smtp.send_message(message)
    print(f"sent to {args.to}: {' / '.join(args.lines)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default="mailbox", help="where caught mail is kept (default ./mailbox)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("catch", help="run an SMTP server that keeps every message")
    p.add_argument("--port", type=int, default=1025)
    p.set_defaults(run=catch)
    p = sub.add_parser("show", help="print the latest mail to an address")
    p.add_argument("address")
    p.set_defaults(run=show)
    p = sub.add_parser("reply", help="reply to the latest mail to an address with commands")
    p.add_argument("address")
    p.add_argument("commands", nargs="+", help='one per line of the reply, e.g. "take" "discard 7H"')
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--smtp-port", type=int, default=2525, help="the service's mail listener")
    p.set_defaults(run=reply)
    p = sub.add_parser("send", help="send a new mail from an address, e.g. to new@MAIL_DOMAIN")
    p.add_argument("address")
    p.add_argument("to")
    p.add_argument("lines", nargs="+", help='the lines of the body, e.g. "bob@example.org" "name Ann"')
    p.add_argument("--subject", default="a game of Gin Rummy")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--smtp-port", type=int, default=2525, help="the service's mail listener")
    p.set_defaults(run=send)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
