"""Web Push out (RFC 8030, 8291, 8292): a browser told of a seat's turn with its page closed.

    keys.py            the service's VAPID key pair: made once (the instance folder) or set, and a push's signature
    encryption.py      a push's body encrypted for one browser (aes128gcm)
    subscriptions.py   browsers subscribed for a seat or a player: endpoints checked, capped, who hears a game
    notice.py          what a push says (never a card or a token), its TTL, Urgency and Topic
    channel.py         the push channel (notify/channels.py) and its courier: 404/410 deletes the subscription
    routes.py          the public key, a seat's subscriptions, its push deliveries log; schemas.py their shapes

It sends through webhooks/' call to a checked public address and its circuit breaker, and reads
nothing of mail/, consent/ or inbound/, nor dispatch or contacts (pyproject.toml's contracts).
"""
