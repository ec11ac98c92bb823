"""Browsers subscribed to Web Push: which endpoint a browser may give (an https URL at a public
address, judged as webhooks' are: webhooks/public_ip.py), its keys, the cap per owner, and who
hears a game's pushes.

A subscription belongs to a seat (its own token subscribed it) or to a player (every seat the
player holds, now and later). Notify knows no players: the players feature registers with
`holders` the table that says which player holds which seat, and the SQL here joins it.
"""
from __future__ import annotations

import base64
import binascii
from datetime import datetime
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from flask import has_app_context
from sqlalchemy import delete, exists, func, or_, select, union_all

from ...core.errors import Problem
from ...core.extensions import db
from ...core.hooks import Registry
from ..config import setting
from ..models import Contact, PushSubscription
from ..webhooks.calls import port_of
from ..webhooks.public_ip import NotPublic, Unresolved, public_addresses
from . import keys

MAX_ENDPOINT = 1000

# Tables of seats other features' owners hold: each a function () -> (game_id, seat, owner id)
# columns; a subscription's player_id is that owner id (players register player_seats).
holders = Registry("() -> (game_id, seat, player_id) columns: the seats a player holds")


def private_allowed() -> bool:
    return has_app_context() and bool(setting("PUSH_ALLOW_PRIVATE"))


def check_endpoint(endpoint: str) -> str:
    """An endpoint a browser may give: https (http too with PUSH_ALLOW_PRIVATE) with a host, plain
    ASCII, no user name, at a public address unless PUSH_ALLOW_PRIVATE. ValueError says why."""
    if len(endpoint) > MAX_ENDPOINT:
        raise ValueError(f"endpoint is longer than {MAX_ENDPOINT} characters")
    if not endpoint.isascii() or any(ch <= " " or ch == "\x7f" for ch in endpoint):
        raise ValueError("endpoint must be ASCII without spaces or control characters")
    parts = urlsplit(endpoint)
    schemes = ("https", "http") if private_allowed() else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise ValueError("endpoint must be an https:// URL with a host (a push service's)")
    if parts.username or parts.password:
        raise ValueError("endpoint must not carry a user name or password")
    port_of(parts)
    if not private_allowed():
        try:
            public_addresses(parts.hostname)
        except NotPublic as exc:
            raise ValueError(f"endpoint's host {exc}; a push service is at a public address") from None
        except Unresolved:
            pass  # judged again at each delivery
    return endpoint


def _key(text: str, name: str, size: int) -> bytes:
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size or base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != text.rstrip("="):
        raise ValueError(f"keys.{name} must be {size} bytes in base64url")
    return raw


def check_keys(p256dh: str, auth: str) -> tuple[str, str]:
    """The browser's public key (an uncompressed P-256 point) and its auth secret (16 bytes)."""
    point = _key(p256dh, "p256dh", 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ValueError("keys.p256dh is not a point of the P-256 curve") from None
    _key(auth, "auth", 16)
    return p256dh.rstrip("="), auth.rstrip("=")


def _owned(game_id: str | None, seat: int | None, player_id: int | None):
    if player_id is not None:
        return (PushSubscription.player_id == player_id,)
    return (PushSubscription.game_id == game_id, PushSubscription.seat == seat)


def subscribe(fields: dict, moment: datetime, *, game_id: str | None = None, seat: int | None = None,
              player_id: int | None = None) -> tuple[PushSubscription, bool]:
    """Keep the browser's subscription for the owner (a seat, or a player): (it, whether it is
    new). The same endpoint again takes its new keys. Raises a problem: 422 validation-error for
    an endpoint or keys refused, 409 too-many-push-subscriptions past the cap. Run it in a
    transaction holding the owner's lock."""
    try:
        endpoint = check_endpoint(fields["endpoint"])
        p256dh, auth = check_keys(fields["keys"]["p256dh"], fields["keys"]["auth"])
    except ValueError as exc:
        raise Problem("validation-error", str(exc), errors={"json": {"endpoint": [str(exc)]}}) from None
    owned = _owned(game_id, seat, player_id)
    known = db.session.scalar(select(PushSubscription).where(*owned, PushSubscription.endpoint == endpoint))
    vapid_key = keys.public_key()
    if known is not None:
        known.p256dh, known.auth, known.vapid_key = p256dh, auth, vapid_key
        return known, False
    cap = setting("PUSH_SUBSCRIPTIONS_PER_OWNER")
    if db.session.scalar(select(func.count()).select_from(PushSubscription).where(*owned)) >= cap:
        raise Problem("too-many-push-subscriptions", f"{cap} browsers are subscribed already; remove one first "
                                                     "(DELETE with its endpoint)")
    row = PushSubscription(game_id=game_id, seat=seat, player_id=player_id, endpoint=endpoint, p256dh=p256dh,
                           auth=auth, vapid_key=vapid_key, created_at=moment)
    db.session.add(row)
    return row, True


def unsubscribe(endpoint: str, *, game_id: str | None = None, seat: int | None = None,
                player_id: int | None = None) -> bool:
    """Forget the owner's subscription of that endpoint; whether there was one."""
    done = db.session.execute(delete(PushSubscription).where(*_owned(game_id, seat, player_id),
                                                             PushSubscription.endpoint == endpoint))
    return done.rowcount > 0


def of_owner(*, game_id: str | None = None, seat: int | None = None, player_id: int | None = None) -> list:
    return db.session.scalars(select(PushSubscription).where(*_owned(game_id, seat, player_id))
                              .order_by(PushSubscription.id)).all()


def forget_endpoint(endpoint: str) -> int:
    """The push service said the endpoint is gone (404, 410): every owner's subscription of it."""
    return db.session.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint)).rowcount


def forget_other_keys(vapid_key: str, endpoint: str | None = None) -> int:
    """Subscriptions made with another VAPID key than `vapid_key` (of `endpoint` only, if given):
    deleted, as no push to them can be signed any more."""
    stale = (PushSubscription.vapid_key != vapid_key,) + ((PushSubscription.endpoint == endpoint,) if endpoint else ())
    return db.session.execute(delete(PushSubscription).where(*stale)).rowcount


def count(vapid_key: str | None = None) -> int:
    """Subscriptions kept (made with another key than `vapid_key`, if given)."""
    query = select(func.count()).select_from(PushSubscription)
    if vapid_key is not None:
        query = query.where(PushSubscription.vapid_key != vapid_key)
    return db.session.scalar(query)


def forget_player(player_id: int) -> int:
    return db.session.execute(delete(PushSubscription).where(PushSubscription.player_id == player_id)).rowcount


def public(row: PushSubscription) -> dict:
    return {"endpoint": row.endpoint, "created_at": row.created_at.isoformat()}


# -- who hears a game's pushes ---------------------------------------------------------------------

def _muted(game_id_column, seat_column):
    """The seat turned push off (its contact's push_mode)."""
    return exists().where(Contact.game_id == game_id_column, Contact.seat == seat_column, Contact.push_mode == "off")


def anyone_subscribed(game_id_column):
    """SQL truth value for the move path's one read (dispatch.anyone_to_tell): a seat of the game
    that did not turn push off has a subscription, its own or its player's."""
    # (each _muted names the enclosing EXISTS's own columns: SQL correlates it one level out only)
    own = exists().where(PushSubscription.game_id == game_id_column,
                         ~_muted(PushSubscription.game_id, PushSubscription.seat))
    held = [exists().where(game == game_id_column, PushSubscription.player_id == player, ~_muted(game, seat))
            for game, seat, player in (columns() for columns in holders())]
    return or_(own, *held)


def endpoints_of(game_id: str, seats=None) -> dict[int, list[str]]:
    """Each seat's endpoints (its own subscriptions' and its player's, each once), oldest first;
    a seat that turned push off has none."""
    parts = [select(PushSubscription.seat.label("seat"), PushSubscription.endpoint, PushSubscription.id)
             .where(PushSubscription.game_id == game_id)]
    for game, seat, player in (columns() for columns in holders()):
        parts.append(select(seat.label("seat"), PushSubscription.endpoint, PushSubscription.id)
                     .join(PushSubscription, PushSubscription.player_id == player).where(game == game_id))
    found = union_all(*parts).subquery()
    query = select(found.c.seat, found.c.endpoint).where(~_muted(game_id, found.c.seat))
    if seats is not None:
        query = query.where(found.c.seat.in_(list(seats)))
    out: dict[int, list[str]] = {}
    for seat, endpoint in db.session.execute(query.order_by(found.c.id)):
        if endpoint not in out.setdefault(seat, []):
            out[seat].append(endpoint)
    return out


def keys_of(endpoint: str) -> tuple[str, str, str] | None:
    """The newest keys given for the endpoint (a browser has one subscription, which several
    owners share) and the VAPID key it was made with, or None when no owner keeps it any more."""
    row = db.session.execute(select(PushSubscription.p256dh, PushSubscription.auth, PushSubscription.vapid_key)
                             .where(PushSubscription.endpoint == endpoint)
                             .order_by(PushSubscription.id.desc()).limit(1)).first()
    return tuple(row) if row else None


