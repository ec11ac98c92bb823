"""gin: a command-line client for the correspondence Gin Rummy service.

The `gin` command (`gin_client.cli.main:main`; `python -m gin_client.cli` runs it too), put on
the PATH by `pip install ./client` (which needs only Python 3.11+ and `requests`) or by the
project's own `make install`. Seat tokens are kept per game in a JSON file readable only by you
(~/.config/gin-rummy/games.json, or $GIN_CONFIG).

    gin new --name Ann                 # create a game; prints the invite for your opponent
    gin join GAME_ID INVITE --name Bob # take the second seat
    gin show                           # your hand, the discard pile, what you may do now
    gin draw stock ; gin discard 7H    # play
    gin watch                          # wait (politely) until it is your turn again
    gin play                           # sit at one game: the table, then type moves as they come

With a player account (one token for all your games, kept in the same file):

    gin register Ann                   # once per server
    gin new --vs-bot [--level 1-5]     # play the computer (the server's house bot), 5 the strongest
    gin challenge Bob ; gin challenges ; gin accept ID   # challenge people, answer challenges
    gin games                          # your games on the server, your turn first
    gin rematch ; gin watch-link       # at the end of a match; a read-only link to share
    gin webhooks                       # your seat's webhook calls; --redeliver ID sends one again
    gin say Good luck!                 # a message to the other players (theirs: "Bob wrote: ...")
    gin plan "draw stock, discard worst"   # a whole turn in one command; gin orders sets standing orders
    gin block Bob ; gin unblock Bob    # no challenges or messages from Bob; gin blocks lists them
    gin tournaments --status open ; gin tournament join ID   # find a tournament, enter it

This module holds the arguments and main; the commands are in the modules beside it, each
importing only those before it: cards.py (cards, melds, UsageError), store.py (the token file),
display.py (a game as shown), history.py (events, news, the score sheet), common.py (what commands
share: exit statuses, server and token, output), players.py (a player account's commands: register,
ratings, challenges, series), seats.py (a seat's commands, watch and play), webhooks.py (a seat's
webhook deliveries), messages.py (say, block, unblock, blocks), plans.py (plan, orders), tournaments.py (the listing, one
tournament's standings, join, leave, withdraw), coach.py (review, hint). The HTTP part is ../api.py.
"""
from __future__ import annotations

import argparse
import difflib
import os
import re
import sys

from ..api import NetworkError, ServiceError
from . import coach, messages, players, plans, seats, tournaments, webhooks
from .cards import UsageError
from .common import DEFAULT_SERVER, EXIT_NETWORK, EXIT_OK, EXIT_STATUSES, EXIT_USAGE, UNSET, exit_status_of
from .display import Style, symbols_supported
from .store import Store, config_path

# ---------------------------------------------------------------------------------------------
# Arguments

def _move_hours(text: str) -> int | None:
    if text.strip().lower() in ("none", "null", "off"):
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of hours or 'none', not {text!r}") from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number from 1, not {text!r}")
    return value


def _not_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"a whole number from 0, not {text!r}")
    return value


class Parser(argparse.ArgumentParser):
    def error(self, message: str):
        # One line, like every other error; the full usage is one --help away.
        wrong = re.search(r"invalid choice: '([^']*)'", message)
        if wrong:
            close = difflib.get_close_matches(wrong.group(1), [c[0] for c in COMMANDS], n=1, cutoff=0.5)
            if close:
                message = f"unknown command {wrong.group(1)!r}; did you mean `gin {close[0]}`?"
        if "unrecognized arguments: -" in message or "expected one argument" in message:
            # Ids issued before ids avoided a leading '-' look like options to argparse.
            message += "; an id or code that begins with '-' goes after `--`: gin join -- -Xy9... CODE"
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _common(parser: argparse.ArgumentParser, top: bool) -> None:
    # Accepted before or after the command; SUPPRESS keeps a subcommand from overwriting a value
    # given before it.
    default = None if top else argparse.SUPPRESS
    group = parser.add_argument_group("common options")
    group.add_argument("--server", default=default, help="service URL (env GIN_SERVER; default: the game's own, "
                       f"else {DEFAULT_SERVER})")
    group.add_argument("--config", default=default, help="token file (env GIN_CONFIG; default "
                       "$XDG_CONFIG_HOME/gin-rummy/games.json)")
    group.add_argument("--json", action="store_true", default=False if top else argparse.SUPPRESS,
                       help="print the server's JSON (for scripts)")
    group.add_argument("--plain", action="store_true", default=False if top else argparse.SUPPRESS,
                       help="letters (C D H S) instead of suit symbols")
    group.add_argument("--show-token", action="store_true", default=False if top else argparse.SUPPRESS,
                       help="print the seat token where a command has one (new, join)")
    group.add_argument("--retries", type=int, default=4 if top else argparse.SUPPRESS,
                       help="network retries before giving up (default 4)")
    group.add_argument("-g", "--game", dest="game_opt", metavar="GAME", default=default,
                       help="game id or prefix (default: your only game)")


COMMANDS = [
    # name, handler, help, example, arguments
    ("new", seats.cmd_new, "create a game and take the first seat",
     "gin new --name Ann --preset standard --option target=150 --move-hours 72", "new"),
    ("join", seats.cmd_join, "take the second seat of a game with its invite code",
     "gin join 3Yx9kQ... 8Fj2... --name Bob", "join"),
    ("list", seats.cmd_list, "the games you know: whose turn, scores, deadline", "gin list", ""),
    ("show", seats.cmd_show, "your hand in melds and deadwood, the discard pile, what you may do",
     "gin show 3Yx9", "game"),
    ("take", seats.cmd_words, "take the upcard (the first turn's offer); in Mahjong gin --count N takes the "
     "top N cards of the discard pile", "gin take --count 3", "take"),
    ("pass", seats.cmd_pass, "pass on the upcard", "gin pass", "game"),
    ("draw", seats.cmd_draw, "draw from the stock or the discard pile", "gin draw stock", "draw"),
    ("discard", seats.cmd_discard, "discard a card and end your turn", "gin discard 7H", "card"),
    ("knock", seats.cmd_knock, "knock, discarding CARD (deadwood at most the knock limit)", "gin knock KS", "card"),
    ("gin", seats.cmd_gin, "go gin: knock with the card that leaves 0 deadwood, or declare Big Gin", "gin gin",
     "game"),
    ("meld", seats.cmd_words, "Mahjong gin: lay three or more cards of your hand on the table as a meld",
     "gin meld 3H 4H 5H", "meld"),
    ("add", seats.cmd_words, "Mahjong gin: add a card of your hand to a meld on the table (numbered from 1, "
     "as gin show lists them)", "gin add 6H to 2", "meld"),
    ("plan", plans.cmd_plan, "a whole turn in one command: the draw and what to do with the card drawn "
     "(docs/plans.md); the answer says what you drew and what each rule decided",
     "gin plan 3Yx9 \"draw stock, discard drawn unless it melds, else worst\"", "plan"),
    ("orders", plans.cmd_orders, "your standing orders: show them, set them (they play the upcard, the draw, "
     "a gin for you) or --cancel them", "gin orders 3Yx9 \"pass unless it melds; always go gin\"", "orders"),
    ("resign", seats.cmd_resign, "resign the match (your opponent wins)", "gin resign --yes", "resign"),
    ("claim", seats.cmd_claim, "claim the match when your opponent's move deadline has passed", "gin claim", "game"),
    ("vacation", seats.cmd_vacation, "pause your own move clock for DAYS days (capped per game)", "gin vacation 3",
     "vacation"),
    ("history", seats.cmd_history, "every move so far, as your seat may see it", "gin history", "game"),
    ("watch", seats.cmd_watch, "wait until it is your turn (or the match ends), then show the game",
     "gin watch --timeout 3600", "watch"),
    ("play", seats.cmd_play, "sit at one game: show the table, wait for the opponent, take moves as typed",
     "gin play 3Yx9", "play"),
    ("score", seats.cmd_score, "the score sheet, hand by hand, with the bonuses", "gin score", "game"),
    ("token", seats.cmd_token, "print the seat token of a game (keep it secret)", "gin token 3Yx9", "game"),
    ("forget", seats.cmd_forget, "remove a game and its token from the token file", "gin forget 3Yx9", "game"),
    ("register", players.cmd_register, "make your player account on the server (one token for all your games)",
     "gin register Ann --email ann@example.org", "register"),
    ("me", players.cmd_me, "your player account", "gin me", ""),
    ("rating", players.cmd_rating,
     "your ratings (Glicko-2 at two seats, OpenSkill at tables), or another player's by name",
     "gin rating Bob", "rating"),
    ("leaderboard", players.cmd_leaderboard,
     "the leaderboard: players with 5+ rated matches, highest rating first, paged",
     "gin leaderboard --limit 20 --offset 20", "leaderboard"),
    ("tournaments", tournaments.cmd_tournaments, "tournaments on the server, newest first: --status open to "
     "find one to enter", "gin tournaments --status open --entry anyone", "tournaments"),
    ("tournament", tournaments.cmd_tournament, "a tournament: show its standings and your game this round, "
     "or join, leave or withdraw with your player", "gin tournament join tR7q0tq4s8m1PZk2w9lX3A", "tournament"),
    ("games", players.cmd_games, "your player's games on the server, your turn first (and remember them here)",
     "gin games", "games"),
    ("challenge", players.cmd_challenge, "challenge a player by name, or post an open challenge",
     "gin challenge Bob --preset oklahoma --option target=150", "challenge"),
    ("challenges", players.cmd_challenges, "pending challenges: to you, open ones you may take, your own",
     "gin challenges", ""),
    ("accept", players.cmd_accept, "accept a challenge (or a rematch): the game starts, your seat is kept here",
     "gin accept c7Hq0tq4", "challenge_id"),
    ("decline", players.cmd_decline, "decline a challenge made to you, with a reason",
     "gin decline c7Hq0tq4 --reason busy",
     "decline"),
    ("cancel", players.cmd_cancel, "withdraw a challenge of yours", "gin cancel c7Hq0tq4", "challenge_id"),
    ("rematch", players.cmd_rematch, "offer a rematch when the match is over (or show the one offered)",
     "gin rematch 3Yx9", "game"),
    ("watch-link", players.cmd_watch_link, "a read-only link to share: the table, never a hand in play",
     "gin watch-link 3Yx9", "watch_link"),
    ("webhooks", webhooks.cmd_webhooks, "your seat's webhook calls: status, tries, the receiver's answer; "
     "--redeliver sends one again", "gin webhooks 3Yx9 --redeliver msg_2b8...", "webhooks"),
    ("series", players.cmd_series, "a series' standings and its games (your player's series)",
     "gin series sR7q0tq4s8m1PZk2w9lX3A", "series"),
    ("say", messages.cmd_say, "write a message to the other players of a game (plain text, up to 500 "
     "characters); theirs show as \"Bob wrote: ...\" in gin show and gin play", "gin say -g 3Yx9 Good luck!", "say"),
    ("block", messages.cmd_block, "block a player: their challenges to you are refused, you never meet in open "
     "challenges, you see none of their messages", "gin block Bob", "block"),
    ("unblock", messages.cmd_unblock, "remove a block", "gin unblock Bob", "block"),
    ("blocks", messages.cmd_blocks, "the players you block", "gin blocks", ""),
    ("review", coach.cmd_review, "the computer's review of a finished match: points given away, blunders, "
     "mistakes and the better choices", "gin review 3Yx9", "game"),
    ("hint", coach.cmd_hint, "what the computer would do at your decision now (unrated games against the "
     "house bot)", "gin hint", "game"),
]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="gin", description="Play correspondence Gin Rummy from the command line.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n  gin new --name Ann\n  gin show\n  gin draw stock && gin discard KS\n\n"
               "Cards are rank then suit: A 2..9 T J Q K and C D H S (7H, TD, 10d).\n"
               "A game is named by its id, a prefix of it, or left out when you have only one.\n\n"
               + EXIT_STATUSES)
    _common(parser, top=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, handler, help_text, example, kind in COMMANDS:
        sub = commands.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".",
                                  formatter_class=argparse.RawDescriptionHelpFormatter,
                                  epilog=f"example:\n  {example}\n\n{EXIT_STATUSES}")
        sub.set_defaults(handler=handler)
        if kind == "new":
            sub.add_argument("--name", default=os.environ.get("USER") or "Player", help="your display name")
            sub.add_argument("--preset", default="standard",
                             help="rules preset: standard, straight, oklahoma, hollywood, classic")
            sub.add_argument("--option", action="append", metavar="KEY=VALUE",
                             help="override one rule, e.g. target=150 or knock_limit=7 (repeatable)")
            sub.add_argument("--move-hours", type=_move_hours, default=UNSET, metavar="HOURS",
                             help="hours each player has per move, or 'none' for no deadline "
                                  "(default: the service's, 72)")
            sub.add_argument("--email", help="email address for notifications")
            sub.add_argument("--seats", type=int, choices=(2, 3, 4, 6, 8), default=2,
                             help="players: 2, 3 (one sits out each hand), or 4, 6 or 8 (two teams of "
                                  "2, 3 or 4; e.g. --preset tedesco_gin_teams_of_three --seats 6)")
            sub.add_argument("--vs-bot", action="store_true",
                             help="play the computer: challenge the server's house bot as your player "
                                  "(gin register first) and take your seat once it accepts")
            sub.add_argument("--timeout", type=float, default=60.0,
                             help="with --vs-bot: seconds to wait for the bot to accept (default 60)")
            sub.add_argument("--level", type=int, choices=(1, 2, 3, 4, 5),
                             help="with --vs-bot: how well the computer plays, 1 (a beginner) to 5 "
                                  "(the strongest); default 3")
        elif kind == "join":
            sub.add_argument("game_id", metavar="GAME_ID", help="the game's id (or GAME_ID:INVITE_CODE)")
            sub.add_argument("invite_code", metavar="INVITE_CODE", nargs="?", help="the invite code")
            sub.add_argument("--name", default=os.environ.get("USER") or "Player", help="your display name")
            sub.add_argument("--email", help="email address for notifications")
        elif kind == "draw":
            sub.add_argument("source", choices=["stock", "discard"], help="where to draw from")
        elif kind == "card":
            sub.add_argument("card", metavar="CARD", help="a card in your hand, e.g. 7H, TD, 10d")
        elif kind == "take":
            sub.add_argument("--count", type=_positive, default=None, metavar="N",
                             help="Mahjong gin: take the top N cards of the discard pile")
        elif kind == "meld":
            sub.add_argument("words", nargs="+", metavar="WORD", help="the cards (and for add: the meld's number)")
        elif kind == "watch":
            sub.add_argument("game_pos", metavar="GAME", nargs="?", help="game id or prefix")
            sub.add_argument("--timeout", type=float, default=None, help="give up after this many seconds")
            sub.add_argument("--wait", type=int, default=30,
                             help="the game's stream, or where the server has none, long-poll seconds per "
                                  "request (default 30); 0: plain polling with backoff, no stream")
        elif kind == "play":
            sub.add_argument("game_pos", metavar="GAME", nargs="?", help="game id or prefix")
            sub.add_argument("--timeout", type=float, default=None, help="stop waiting after this many seconds")
            sub.add_argument("--wait", type=int, default=30, help=argparse.SUPPRESS)
        elif kind == "resign":
            sub.add_argument("--yes", action="store_true", help="really resign")
        elif kind == "vacation":
            sub.add_argument("days", type=int, metavar="DAYS", help="whole days, from now")
        elif kind == "register":
            sub.add_argument("player_name", metavar="NAME", help="your player name (unique on the server)")
            sub.add_argument("--email", help="email address, kept with the account")
            sub.add_argument("--bot", action="store_true", help="the account is a program's")
        elif kind == "rating":
            sub.add_argument("player_name", metavar="NAME", nargs="?", help="a player's name (default: yours)")
        elif kind == "leaderboard":
            sub.add_argument("--limit", type=_positive, default=50, help="players per page (default 50, at most 200)")
            sub.add_argument("--offset", type=_not_negative, default=0, help="skip this many (paging)")
        elif kind == "tournaments":
            sub.add_argument("--status", choices=["open", "running", "finished", "cancelled"], help="only these")
            sub.add_argument("--format", choices=["swiss", "round_robin", "knockout"], help="only this format")
            sub.add_argument("--entry", choices=["anyone", "people", "bots", "invitation"], help="who may enter")
            sub.add_argument("--limit", type=_positive, default=50, help="tournaments per page (default 50)")
            sub.add_argument("--offset", type=_not_negative, default=0, help="skip this many (paging)")
        elif kind == "tournament":
            sub.add_argument("action", choices=tournaments.ACTIONS, help="show, join, leave or withdraw")
            sub.add_argument("tournament_id", metavar="TOURNAMENT", help="the tournament's id (gin tournaments)")
        elif kind == "games":
            sub.add_argument("--limit", type=_positive, default=50, help="games per page (default 50)")
            sub.add_argument("--offset", type=_not_negative, default=0, help="skip this many (paging)")
        elif kind == "challenge":
            sub.add_argument("to", metavar="NAME", nargs="?", help="the player to challenge (none: --open)")
            sub.add_argument("--open", action="store_true", help="an open challenge anyone may take")
            sub.add_argument("--preset", default="standard", help="rules preset (as for gin new)")
            sub.add_argument("--option", action="append", metavar="KEY=VALUE", help="override one rule (repeatable)")
            sub.add_argument("--move-hours", type=_move_hours, default=UNSET, metavar="HOURS",
                             help="hours per move, or 'none' (default: the service's, 72)")
            sub.add_argument("--opponent", choices=["any", "bot", "human"], default="any",
                             help="who may take it (default any)")
            sub.add_argument("--expires-hours", type=_positive, default=None, metavar="HOURS",
                             help="the challenge lapses after this many hours (default: the service's, 72)")
            sub.add_argument("--unrated", action="store_true", help="the match moves nobody's rating")
            sub.add_argument("--wait", type=float, default=None, metavar="SECONDS",
                             help="wait this long for an answer; accepted, the game is kept here")
        elif kind in ("challenge_id", "decline"):
            sub.add_argument("challenge_id", metavar="CHALLENGE", help="the challenge's id, or a unique prefix "
                                                                       "of one in `gin challenges`")
            if kind == "decline":
                sub.add_argument("--reason", choices=["busy", "rules", "move-time", "opponent", "other"],
                                 default="other", help="the reason code the challenger reads (default other)")
        elif kind == "watch_link":
            sub.add_argument("game_pos", metavar="GAME", nargs="?", help="game id or prefix (default: your only game)")
            sub.add_argument("--list", action="store_true", help="the game's watch links (never their keys)")
            sub.add_argument("--revoke", metavar="LINK_ID", help="revoke this watch link")
        elif kind == "webhooks":
            sub.add_argument("game_pos", metavar="GAME", nargs="?", help="game id or prefix (default: your only game)")
            sub.add_argument("--limit", type=_positive, default=20, help="calls per page, newest first (default 20)")
            sub.add_argument("--cursor", help="the next page (the command prints it)")
            sub.add_argument("--redeliver", metavar="WEBHOOK_ID", help="send this call again: same body and webhook-id")
        elif kind in ("plan", "orders"):
            sub.add_argument("words", nargs="*" if kind == "orders" else "+", metavar="[GAME] TEXT",
                             help="the game (id or prefix; default: your only game), then the plan or orders")
            if kind == "orders":
                sub.add_argument("--cancel", action="store_true", help="cancel your orders")
        elif kind == "say":
            sub.add_argument("words", nargs="+", metavar="TEXT", help="the message (quote it, or several words)")
        elif kind == "block":
            sub.add_argument("player_name", metavar="NAME", help="the player's name")
        elif kind == "series":
            sub.add_argument("series_id", metavar="SERIES", help="the series' id (POST /series answered it)")
        if kind in ("game", "resign", "vacation", "take"):
            sub.add_argument("game_pos", metavar="GAME", nargs="?", help="game id or prefix (default: your only game)")
        _common(sub, top=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.game = getattr(args, "game_opt", None) or getattr(args, "game_pos", None)
    args.style = Style(symbols=not args.plain and symbols_supported(sys.stdout))
    try:
        store = args.store = Store(config_path(args.config))
        status = args.handler(args, store)
        sys.stdout.flush()  # a reader gone (`gin show | head`) is heard here, not at the interpreter's exit
        return status
    except UsageError as exc:
        print(f"gin: {args.style.text(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except ServiceError as exc:
        hint = {"version-mismatch": " (the game changed while you moved: run `gin show`)",
                "game-not-started": " (your opponent has not joined yet: send them the `gin join ...` line "
                                    "`gin new` printed, then `gin watch` waits for them)"}.get(exc.code, "")
        print(f"gin: {args.style.text(exc.detail)} [{exc.code}]{hint}", file=sys.stderr)
        return exit_status_of(exc)
    except NetworkError as exc:
        print(f"gin: {exc} [network]", file=sys.stderr)
        return EXIT_NETWORK
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `gin show | head`: the reader has all it wanted; end quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's flush at exit then writes nowhere
        return EXIT_OK

