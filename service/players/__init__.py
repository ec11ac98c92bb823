"""Players (accounts beside anonymous seats), challenges, rematches, watch links, and one stream
of events per player.

    models.py      players, player_seats, player_events, challenges, watch_links
    accounts.py    a player, its token, binding seats, my games
    names.py       names normalised; look-alike, invisible and mixed-script names refused
    ratings.py     Glicko-2 ratings of two-seat matches (a games.changes hook), the leaderboard
    table_ratings.py  OpenSkill ratings of tables of 3 to 8 seats, partners as a team (a games.changes hook)
    profiles.py    a profile's rating history, record per opponent, games; public games' watch links
    feed.py        the player's events, and what a change to a game adds (a games.changes hook)
    stream.py      GET /me/stream (Server-Sent Events)
    challenges.py  offer, accept (makes the game), decline, cancel, expiry, rematch
    challenge_list.py  GET /challenges: filtered in SQL, newest first, paged by cursor
    limits.py      the caps on pending offers a player sends and receives
    house_quota.py the house bot's token's rate limit (RATELIMIT_PER_HOUSE_BOT)
    blocks.py      blocks between players (challenges, open challenges, messages); reports.py reports
    watching.py    watch links and the public view
    routes.py, challenge_routes.py, seat_routes.py, rating_routes.py, profile_routes.py, block_routes.py,
    push_routes.py (a player's Web Push subscriptions, and the seats notify's push finds through it),
                   schemas.py   the HTTP side

A feature above games and notify: it hears of games' changes through games.changes.
"""
from __future__ import annotations


def init_app(app) -> None:
    """Register the routes; the change hook that feeds players' streams (registered after notify's:
    a `your_turn` is written after the mails); a player's token as an opener of its bound seats;
    a seat rematch's offer on the finished game's stream;
    the stream's old events to the sweep of old rows; the wake-up's read of players' streams."""
    from ..core import limits as core_limits
    from ..core import wakeup
    from ..core.extensions import api
    from ..games import changes
    from ..notify import sweeps
    from ..notify.push import subscriptions as push_subscriptions
    from . import accounts, blocks, feed, house_quota, ratings, seat_rematch, table_ratings
    from .block_routes import moderation
    from .challenge_routes import challenge_routes
    from .profile_routes import profile_routes
    from .push_routes import held_seats, player_push
    from .rating_routes import rating_routes
    from .routes import players
    from .seat_routes import seat_routes
    for blueprint in (players, challenge_routes, seat_routes, rating_routes, profile_routes, moderation, player_push):
        api.register_blueprint(blueprint)
    changes.on_change(ratings.after_change, reads=feed.has_bound_seats)  # before the feed's: game_over tells it
    changes.on_change(table_ratings.after_change, reads=feed.has_bound_seats)
    changes.on_change(feed.after_change, reads=feed.bound_seats_read)
    changes.seat_openers.register(feed.bound_seat)
    changes.after_the_end.register(seat_rematch.after_the_end)
    changes.message_hiders.register(blocks.hidden_seats)  # a blocked player's messages, not to the blocker
    changes.message_posted.register(blocks.tell_players)  # a `message` event on the players' streams
    changes.seat_names.register(accounts.check_seat_name)  # no anonymous seat passes for a player
    core_limits.token_quotas.register(house_quota.quota)  # the house bot's token: a limit of its own
    sweeps.old_rows.register(feed.forget_before)
    push_subscriptions.holders.register(held_seats)  # a player's push subscriptions hear its seats
    wakeup.watch_versions("player:", feed.NEWEST_EVENTS, int)
