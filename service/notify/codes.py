"""Problem codes of contact settings and invitations: (HTTP status, when it happens). Data only:
the app factory adds them to the catalogue (core.errors.register_codes)."""

MAIL_CODES = {
    "too-many-confirmations": (429, "setting this email would send one confirmation mail too many (per game, "
                                    "per address or per client a day); nothing was changed"),
    "too-many-invitations": (429, "invite_email would send one invitation too many today (per inviting address "
                                  "or client, INVITES_PER_SENDER_PER_DAY, or to one invited address, "
                                  "INVITES_PER_RECIPIENT_PER_DAY); nothing was changed"),
    "invitation-refused": (422, "invite_email names an address that asked for no mail from this service, or "
                                "the inviter's own; nothing was changed"),
    "unknown-unsubscribe-key": (404, "the one-click unsubscribe URL holds a key no mail of this service carries "
                                     "(or one older than the keys are kept); nothing was changed"),
}

# A seat's webhook deliveries log (webhooks/deliveries.py), and push subscriptions (push/subscriptions.py).
WEBHOOK_CODES = {
    "delivery-not-found": (404, "the seat has no webhook delivery with this webhook-id"),
    "delivery-not-sendable": (409, "the delivery cannot be sent again: it was never composed, or the seat has "
                                   "no webhook_url now"),
    "delivery-in-flight": (409, "a worker is delivering this call right now; ask again shortly"),
    "too-many-push-subscriptions": (409, "the seat (or player) has PUSH_SUBSCRIPTIONS_PER_OWNER browsers subscribed "
                                         "already; remove one first; nothing was changed"),
}
