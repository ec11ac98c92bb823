"""The command-line client, run as a user would (a subprocess with its own config folder), against
a real gunicorn server: every command, its --json output, and its errors with their exit status."""
from __future__ import annotations

import json
import re
import stat
import time

import pytest

from gin_client.api import Api, ServiceError
from gin_client.bots import reference
from gin_client.cli.cards import arrange
from gin_client.cli.common import EXIT_RULES, exit_status_of
from gin_client.cli.display import Style
from gin_client.cli.seats import gin_action

from .conftest import Player


def start_game(ann, bob, *new_args):
    created = ann.json("new", "--name", "Ann", *new_args)
    game_id = created["game_id"]
    assert "token" not in created  # never printed unless asked for
    joined = bob.json("join", game_id, created["invite_code"], "--name", "Bob")
    assert joined["seat"] == 1 and "token" not in joined
    return game_id


def mover(ann, bob, game_id):
    """(player, view) of whoever is to move now (read in process: quicker than a `show` each time)."""
    for player in (ann, bob):
        view, _ = Api(player.server, player.games()[game_id]["token"]).view(game_id)
        if view.get("to_move") == view["seat"] or player is bob:
            return player, view


def command_for(view: dict) -> list[str]:
    """The bot's choice, said as a command a person would type (cards in lower case on purpose);
    it knocks whenever it may, to keep the hands short."""
    action = reference.choose_action(view, knock_at=10)
    kind = action["type"]
    if kind == "big_gin" or (kind == "knock" and gin_action(view) == action):
        return ["gin"]
    return {"take_upcard": ["take"], "pass": ["pass"]}.get(kind) or {
        "draw": ["draw", action.get("from", "")],
        "discard": ["discard", action.get("card", "").lower()],
        "knock": ["knock", action.get("discard", "").lower().replace("t", "10")],
    }[kind]


def test_two_players_play_a_hand_from_their_terminals(players):
    ann, bob = players
    created = ann.run("new", "--name", "Ann", "--preset", "standard", "--option", "target=50")
    game_id = re.search(r"Created game (\S+) ", created.stdout).group(1)
    invite = re.search(r"gin join \S+ (\S+)", created.stdout).group(1)
    # The token file: owner-only, and the token appears in no output unless asked for.
    token = ann.games()[game_id]["token"]
    assert stat.S_IMODE(ann.config.stat().st_mode) == 0o600
    assert stat.S_IMODE(ann.config.parent.stat().st_mode) == 0o700
    assert token not in created.stdout + created.stderr
    assert ann.run("token", game_id[:6]).stdout.strip() == token
    assert "waiting to join" in ann.run("list").stdout

    joined = bob.run("join", game_id, invite, "--name", "Bob")
    assert f"Joined game {game_id}" in joined.stdout and bob.games()[game_id]["token"] not in joined.stdout
    view = ann.json("show")
    assert view["status"] == "active" and len(view["hand"]) == 10 and view["rules"]["target"] == 50

    listing = ann.run("list").stdout
    assert game_id[:8] in listing and "Ann v Bob" in listing
    assert ("YOUR TURN" in listing) == (view["to_move"] == 0)

    used = set()
    hand = view["hand_number"]
    for _ in range(200):
        player, view = mover(ann, bob, game_id)
        if view["status"] == "finished" or view["hand_number"] != hand and used & {"knock", "gin"}:
            break  # (a hand that ran out of stock is void; then play the next one too)
        if not used:
            shown = player.run("show", "--plain").stdout
            assert "Your turn" in shown and "You may:" in shown
        args = command_for(view)
        done = player.run(*args, "--json")
        after = json.loads(done.stdout)
        assert after["version"] == view["version"] + 1
        used.add(args[0])
    else:
        pytest.fail("the hand did not end")
    assert {"draw", "discard"} <= used and used & {"take", "pass"} and used & {"knock", "gin"}

    history = ann.run("history").stdout
    assert "drew from the" in history and "discarded" in history and f"hand {hand} over" in history
    events = ann.json("history")["events"]
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events) and len(events) >= len(used)
    sheet = bob.run("score").stdout
    assert re.search(rf"^\s+{hand}\s", sheet, re.M)  # the finished hand is on the score sheet


def test_show_groups_melds_and_uses_symbols_unless_plain(players):
    ann, bob = players
    start_game(ann, bob)
    view = ann.json("show")
    melds, dead, points = arrange(view["hand"])
    plain = ann.run("show", "--plain").stdout
    assert f"= {points}" in plain and all(card in plain for card in view["hand"])
    for meld in melds:
        assert "[" + " ".join(meld) + "]" in plain
    assert f"on top ({len(view['discard_pile'])} card" in plain and f"Stock: {view['stock_count']}" in plain
    fancy = ann.run("show").stdout
    assert any(symbol in fancy for symbol in "♣♦♥♠")


def test_watch_returns_when_the_opponent_has_moved(players):
    ann, bob = players
    game_id = start_game(ann, bob)
    waiter, view = mover(ann, bob, game_id)
    other = bob if waiter is ann else ann
    watching = other.popen("watch", "--plain", "--timeout", "60")
    time.sleep(0.5)  # let it start waiting (not a timing assertion: it must wait in any case)
    assert watching.poll() is None
    while view["to_move"] == view["seat"]:  # a whole turn: a take is followed by a discard
        view = json.loads(waiter.run(*command_for(view), "--json").stdout)
    out, err = watching.communicate(timeout=60)
    assert watching.returncode == 0, err
    assert "Your turn" in out


def test_claim_and_vacation_commands(players):
    ann, bob = players
    game_id = start_game(ann, bob)
    waiter, view = mover(ann, bob, game_id)
    other = bob if waiter is ann else ann
    own_turn = waiter.run("claim", check=EXIT_RULES)  # only the waiting player may claim
    assert own_turn.stderr.count("\n") == 1 and "[cannot-claim-own-turn]" in own_turn.stderr
    early = other.run("claim", check=EXIT_RULES)  # the deadline is 3 days away
    assert "[deadline-not-passed]" in early.stderr
    before = waiter.json("show")["deadline"]
    paused = waiter.json("vacation", "2")
    assert paused["days_left"] == 5 and paused["on_vacation_until"]  # 7 a game by default
    assert paused["deadline"] > before  # the mover's own clock stopped: its deadline moved on
    assert "vacation day(s) left" in other.run("vacation", "1", "--plain").stdout


def test_watch_outlasts_a_server_restart(restartable_server, tmp_path):
    ann, bob = (Player(tmp_path / name, restartable_server.url) for name in ("ann", "bob"))
    game_id = start_game(ann, bob)
    waiter, view = mover(ann, bob, game_id)
    other = bob if waiter is ann else ann
    watching = other.popen("watch", "--plain", "--timeout", "90", "--wait", "2", "--retries", "0")
    time.sleep(0.5)
    restartable_server.stop()  # the watcher's long-poll fails and it keeps trying
    time.sleep(2.5)
    assert watching.poll() is None, watching.communicate()
    restartable_server.start()
    while view["to_move"] == view["seat"]:
        view = json.loads(waiter.run(*command_for(view), "--json").stdout)
    out, err = watching.communicate(timeout=90)
    assert watching.returncode == 0, err
    assert "still watching" in err and "Your turn" in out


def test_bot_gives_up_on_a_move_refused_again_and_again(gin_server, monkeypatch):
    created = Api(gin_server).create_game({"name": "A"})
    joined = Api(gin_server).join_game(created["game_id"], {"invite_code": created["invite_code"], "name": "B"})
    view, _ = Api(gin_server, created["token"]).view(created["game_id"])
    token = created["token"] if view["to_move"] == 0 else joined["token"]
    broken = reference.Decision({"type": "discard", "card": "XX"}, 0, None, "a broken policy")
    monkeypatch.setattr(reference, "decide", lambda view, knock_at=None: broken)  # a fault no server causes
    with pytest.raises(ServiceError) as refused:
        reference.play(gin_server, created["game_id"], token, wait=0, sleep=lambda seconds: None)
    assert refused.value.code == "invalid-action"


def test_errors_are_one_line_with_a_code_and_an_exit_status(players):
    ann, bob = players
    game_id = start_game(ann, bob)
    player, view = mover(ann, bob, game_id)
    idle = bob if player is ann else ann

    bad_text = player.run("discard", "ZZ", check=2)
    assert bad_text.stderr.count("\n") == 1 and "not a card: 'ZZ'" in bad_text.stderr
    wrong_turn = idle.run("draw", "stock", check=3)
    assert wrong_turn.stderr.count("\n") == 1 and "[not-your-turn]" in wrong_turn.stderr
    assert "Traceback" not in wrong_turn.stderr

    # A card that is not in the hand: get to the discard first.
    while reference.choose_action(view)["type"] in ("take_upcard", "pass", "draw"):
        player.run(*command_for(view))
        player, view = mover(ann, bob, game_id)
    missing = next(c for c in (r + s for s in "CDHS" for r in "A23456789TJQK") if c not in view["hand"])
    not_held = player.run("discard", missing.lower(), check=3)
    assert "[card-not-in-hand]" in not_held.stderr and not_held.stderr.count("\n") == 1
    named = Style(symbols=True).card(missing)  # the card as the hand shows it (8♠), never 8S beside it
    assert named in not_held.stderr and missing not in not_held.stderr, not_held.stderr
    assert player.json("show")["version"] == view["version"]  # nothing changed

    no_gin = gin_action(view) is None and player.run("gin", check=3)
    assert not no_gin or "[no-gin]" in no_gin.stderr

    # A move chosen from a view the game has moved on from (the client sends If-Match).
    api = Api(player.server, player.games()[game_id]["token"])
    with pytest.raises(ServiceError) as stale:
        api.act(game_id, reference.choose_action(view), version=view["version"] - 1)
    assert stale.value.code == "version-mismatch" and exit_status_of(stale.value) == EXIT_RULES
    assert api.view(game_id)[0]["version"] == view["version"]

    games = json.loads(player.config.read_text())
    games["games"][game_id]["token"] = "x" * 43
    player.config.write_text(json.dumps(games))
    bad_token = player.run("show", check=4)
    assert "[invalid-token]" in bad_token.stderr and "x" * 43 not in bad_token.stderr

    unknown = ann.run("show", "-g", "nosuchgame", check=2)
    assert "no game of yours" in unknown.stderr
    down = ann.run("show", "--server", f"http://127.0.0.1:{gin_free_port()}", "--retries", "0", check=5)
    assert "[network]" in down.stderr and down.stderr.count("\n") == 1


def gin_free_port() -> int:
    from gin_client.demo import free_port
    return free_port()


def test_rules_options_reach_the_server_and_bad_ones_are_refused(players):
    ann, bob = players
    created = ann.json("new", "--preset", "classic", "--option", "knock_limit=7", "--option", "big_gin=false")
    rules = created["game"]["rules"]
    assert rules["preset"] == "classic" and rules["knock_limit"] == 7 and rules["big_gin"] is False
    refused = ann.run("new", "--option", "knock_limit=99", check=None)
    assert refused.returncode in (2, 3) and "knock_limit" in refused.stderr
    assert len(ann.games()) == 1  # the refused game was not saved


def test_move_hours_sets_the_deadline_or_none(players):
    ann, bob = players
    for hours in ("6", "none"):
        game_id = ann.json("new", "--move-hours", hours)["game_id"]
        bob.run("join", game_id, ann.games()[game_id]["invite_code"])
        view = ann.json("show", "-g", game_id)
        mover_view = view if view["to_move"] == 0 else bob.json("show", "-g", game_id)
        assert (mover_view["deadline"] is None) == (hours == "none")
    refused = ann.run("new", "--move-hours", "soon", check=2).stderr
    assert refused == "gin new: argument --move-hours: a whole number of hours or 'none', not 'soon' (see gin new --help)\n"


def test_show_token_prints_it_only_when_asked(players):
    ann, _ = players
    out = ann.run("new", "--show-token").stdout
    token = next(iter(ann.games().values()))["token"]
    assert token in out
    assert ann.json("token")["token"] == token


def test_gin_command_goes_gin_when_a_hand_allows_it(players):
    ann, bob = players
    for _ in range(3):  # the bots play for gin, so nearly every hand ends in one; allow a few games
        game_id = start_game(ann, bob)
        apis = {p: Api(p.server, p.games()[game_id]["token"]) for p in (ann, bob)}
        for _ in range(1000):
            player, view = mover(ann, bob, game_id)
            if view["status"] == "finished" or gin_action(view):
                break
            apis[player].act(game_id, reference.choose_action(view, knock_at=0), version=view["version"])
        if gin_action(view):
            break
        ann.run("forget", game_id)
        bob.run("forget", game_id)
    else:
        pytest.fail("no gin came up in three matches")
    done = player.json("gin", "-g", game_id)
    assert done["last_hand"]["result"] in ("gin", "big_gin") and done["last_hand"]["knocker"] == done["seat"]
    assert done["last_hand"]["hand"] == view["hand_number"]


def test_resign_needs_yes_and_ends_the_match_and_forget_drops_the_token(players):
    ann, bob = players
    game_id = start_game(ann, bob)
    refused = ann.run("resign", check=2)
    assert "--yes" in refused.stderr and ann.json("show")["status"] == "active"
    ann.run("resign", "--yes")
    shown = bob.run("show", "--plain").stdout
    assert "The match is over: You win" in shown and "(by resignation)" in shown
    assert "over: you won" in bob.run("list").stdout
    bob.run("forget", game_id[:5])
    assert bob.games() == {}
    assert "no games yet" in bob.run("show", check=2).stderr
