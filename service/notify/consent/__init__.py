"""Whether an address may be mailed: what its owner said, and the keys that let them say it.

    addresses.py      the addresses the service accepts, and the one key (`normalised`) each is filed under
    confirm.py        confirmation mails, capped; `confirm` and `stop` replies; who may be mailed (`mailable`)
    unsubscribing.py  what a one-click unsubscribe key does when pressed (mail/one_click.py writes the keys)

It builds its confirmation mail with mail/ and imports neither inbound/ nor webhooks/
(pyproject.toml's contracts).
"""
