"""Webhooks out: Standard Webhooks calls to a seat's URL, and the seat's log of them.

    signatures.py      the seat's secret, each call's signature, and what a receiver checks (`verify`)
    calls.py           which URL a seat may set, and one call: to a checked address, within its total time
    public_ip.py       which addresses a call may reach: public unicast ones, IPv4 inside IPv6 judged too
    breaker.py         a circuit breaker per destination (host and port), in the worker's memory
    channel.py         the webhook channel (notify/channels.py): kinds, order per seat, retries, the courier
    deliveries.py      a seat's deliveries log and redelivery; delivery_routes.py its routes,
                       schemas.py their shapes

It reads a seat's contact row and notify's outbox, never mail/, consent/ or inbound/
(pyproject.toml's contracts).
"""
