"""Mahjong gin in the reference client and the bot: the words of `gin play` (the same as the mail
replies'), the table's melds shown, `gin play` taking several discards, laying a meld and adding on
against a real server, and the bot playing whole Mahjong gin matches to their end."""
from __future__ import annotations

import random
import subprocess
import threading
import time
from collections import Counter

import pytest

from gin_client.api import Api
from gin_client.bots import reference
from gin_client.cli.cards import UsageError, arrange
from gin_client.cli.display import Style, render_view
from gin_client.cli.seats import action_from_words
from service.notify.inbound.commands import CommandError, parse_command, resolve
from service.rules.actions import action_from_dict
from tests.rules.helpers import new_match, shuffled_deck

from .conftest import GIN, REFERENCE_BOT

TABLE = [{"cards": ["8C", "8D", "8H"], "owners": [0, 0, 0]},
         {"cards": ["3H", "4H", "5H", "6H"], "owners": [1, 1, 0, 1]}]
DRAW = {"seat": 0, "phase": "draw", "discard_pile": ["8H", "3C", "5D"], "table": TABLE, "legal_actions": []}
PLAIN = {"seat": 0, "phase": "draw", "discard_pile": ["8H", "3C", "5D"], "legal_actions": []}


@pytest.mark.parametrize("words", ["take 3", "take 2 cards", "take 1", "take 2 from the pile", "meld 8c 8d 10h", "lay 8C 8D 8H",
                                   "add 6H to 2", "add 6h to meld 1", "add 7H 2"])
def test_gin_play_reads_the_words_of_the_mail_replies(words):
    assert action_from_words(words.split(), DRAW) == resolve(parse_command(words), DRAW)
    offer = {**DRAW, "phase": "upcard_offer"}
    assert action_from_words(words.split(), offer) == resolve(parse_command(words), offer)


@pytest.mark.parametrize("words, view", [
    ("meld 8C 8D", DRAW), ("meld 8C 8D 8X", DRAW), ("add 6H", DRAW), ("add 6H to 0", DRAW),
    ("add 6H to 3", DRAW), ("take 4", DRAW), ("take 2", PLAIN), ("take 3 please", DRAW), ("take 0", DRAW), ("take 53", DRAW)])
def test_gin_play_and_the_mail_refuse_the_same_words_with_the_same_reason(words, view):
    with pytest.raises(UsageError) as typed:
        action_from_words(words.split(), view)
    with pytest.raises(CommandError) as mailed:
        resolve(parse_command(words), view)
    assert str(typed.value) in str(mailed.value), (str(typed.value), str(mailed.value))


def test_the_table_melds_are_shown_numbered_with_their_owners():
    view = {**DRAW, "game_id": "g" * 22, "status": "active", "to_move": 0, "hand": ["2C", "9S"],
            "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}], "must_use": "8H",
            "legal_actions": [{"type": "draw", "from": "discard", "count": 3}, {"type": "add_on", "card": "7H", "meld": 1},
                              {"type": "meld", "cards": ["7C", "8C", "9C"]}]}
    shown = render_view(view, 0, Style(False), view["game_id"])
    assert "Table:\n  1. 8C 8D 8H  (you)\n  2. 3H 4H 5H 6H  (Bob: 3H 4H 6H; you: 5H)" in shown, shown
    assert "8H, the deepest card taken, must go on the table first" in shown
    assert "take 3 (from the pile) | meld 7C 8C 9C | add 7H to 2" in shown
    assert "Table:" not in render_view({**view, "table": []}, 0, Style(False), view["game_id"])


# -- the bot -------------------------------------------------------------------------------------

def bot_match(seed: int) -> Counter:
    """A whole match, both seats played by the bot's own decision from each seat's view; every move
    it makes is legal (the engine applies it). The kinds of move it made."""
    rng = random.Random(seed)
    match = new_match("mahjong_gin", first_dealer=rng.randrange(2))
    used = Counter()
    for _ in range(5000):
        if match.is_over:
            break
        if match.needs_deal:
            match.deal(shuffled_deck(rng))
            continue
        seat = match.to_move
        action = reference.choose_action(match.view(seat))
        used[action["type"] + ("_several" if action.get("count", 1) > 1 else "")] += 1
        match.apply(seat, action_from_dict(action))
    assert match.is_over and match.result["reason"] == "target"
    assert used["meld"] and used["knock"] + used["discard"], used
    assert match.last_hand["result"] == "gin"
    return used


def test_the_bot_plays_mahjong_gin_matches_to_the_end_laying_adding_on_and_taking_several():
    used = Counter()
    for seed in range(6):
        used += bot_match(seed)
    assert used["add_on"] and used["draw_several"], used


def test_the_bot_takes_several_when_the_deepest_goes_down_at_once():
    view = {"seat": 0, "phase": "draw", "to_move": 0, "hand": ["8C", "8D", "2H", "4S", "6S", "TD", "QC", "KH", "3H", "9S"],
            "discard_pile": ["8H", "3C", "5D"], "table": [], "knock_limit": 0,
            "legal_actions": [{"type": "draw", "from": "stock"}, {"type": "draw", "from": "discard"},
                              {"type": "draw", "from": "discard", "count": 3}]}
    assert reference.choose_action(view) == {"type": "draw", "from": "discard", "count": 3}
    taken = {**view, "phase": "discard", "hand": view["hand"] + ["8H", "3C", "5D"], "must_use": "8H",
             "legal_actions": [{"type": "meld", "cards": ["8C", "8D", "8H"]}]}
    assert reference.choose_action(taken) == {"type": "meld", "cards": ["8C", "8D", "8H"]}


def test_two_bot_processes_finish_a_mahjong_gin_match_on_a_real_server(gin_server):
    created = Api(gin_server).create_game({"name": "A", "rules": {"preset": "mahjong_gin", "target": 50}})
    joined = Api(gin_server).join_game(created["game_id"], {"invite_code": created["invite_code"], "name": "B"})
    game_id = created["game_id"]
    done = subprocess.run([*REFERENCE_BOT, "--server", gin_server, "--wait", "0",
                           "--poll-delay", "0.02", "--max-poll-delay", "0.1", f"{game_id}:{created['token']}",
                           f"{game_id}:{joined['token']}"], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    view, _ = Api(gin_server, created["token"]).view(game_id)
    assert view["status"] == "finished" and view["result"]["reason"] == "target"
    assert "action=meld" in done.stderr


# -- gin play against a real server ------------------------------------------------------------

def words_for(action: dict) -> str:
    """An action as a person types it at `gin play` (cards in lower case on purpose)."""
    kind = action["type"]
    if kind == "draw" and action.get("count", 1) > 1:
        return f"take {action['count']}"
    if kind == "meld":
        return "meld " + " ".join(c.lower() for c in action["cards"])
    if kind == "add_on":
        return f"add {action['card'].lower()} to {action['meld'] + 1}"
    if kind == "discard":
        return f"discard {action['card'].lower()}"
    if kind == "knock":
        return "gin"
    if action == {"type": "draw", "from": "stock"}:
        return "draw stock"
    return {"take_upcard": "take", "draw": "take", "pass": "pass"}[kind]


def wait_until(predicate, timeout=30.0):
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    return predicate()


def match_against_the_bot(ann, bob) -> tuple[str, Api, threading.Event]:
    """A Mahjong gin match made by Ann's client and joined by Bob's, the bot playing Bob until
    the event is set: (game id, Ann's API, the event)."""
    created = ann.json("new", "--name", "Ann", "--preset", "mahjong_gin", "--option", "target=100")
    game_id = created["game_id"]
    bob.json("join", game_id, created["invite_code"], "--name", "Bob")
    stop = threading.Event()
    threading.Thread(target=reference.play, args=(bob.server, game_id, bob.games()[game_id]["token"]),
                     kwargs={"wait": 0, "stop": stop, "poll_delay": 0.05, "max_delay": 0.2}, daemon=True).start()
    return game_id, Api(ann.server, ann.games()[game_id]["token"]), stop


def ann_to_move(api, game_id: str) -> dict | None:
    view = api.view(game_id)[0]
    return view if view["to_move"] == 0 or view["status"] == "finished" else None


def test_gin_play_takes_several_lays_a_meld_and_adds_on_against_a_real_server(players):
    """Ann types at `gin play` (the `gin` command, a subprocess); the bot plays Bob. Ann takes
    several discards whenever she may, else does what the bot would; until she has done all three."""
    ann, bob = players
    done: set[str] = set()
    transcript: list[str] = []  # every match's screen: the three moves may come up in different matches
    for _ in range(6):  # the deals are random: a match may end before all three came up
        game_id, api, stop = match_against_the_bot(ann, bob)
        # unbuffered: what gin play printed is in the pipe even when it is stopped while waiting
        typing = subprocess.Popen([*GIN, "play", game_id],
                                  env={**ann.env(), "PYTHONUNBUFFERED": "1"}, cwd=ann.home,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  encoding="utf-8")
        shown: list[str] = []
        made_here: set[str] = set()
        reader = threading.Thread(target=lambda: shown.extend(iter(typing.stdout.readline, "")), daemon=True)
        reader.start()
        try:
            while done != {"take", "meld", "add"}:
                view = wait_until(lambda: ann_to_move(api, game_id))
                assert view, "Ann's turn never came:\n" + "".join(shown)
                if view["status"] == "finished":
                    break
                several = [a for a in view["legal_actions"] if a.get("count", 1) > 1]
                action = max(several, key=lambda a: a["count"]) if several else reference.choose_action(view)
                typing.stdin.write(words_for(action) + "\n")
                typing.stdin.flush()
                assert wait_until(lambda: api.view(game_id)[0]["version"] != view["version"]), \
                    f"{words_for(action)!r} was not played:\n" + "".join(shown[-30:])
                if action.get("count", 1) > 1:
                    made_here.add("take")
                elif action["type"] in ("meld", "add_on"):
                    made_here.add(action["type"].replace("add_on", "add"))
                done |= made_here
        finally:
            stop.set()
            # the last move's answer is printed just after the server took it: wait for it on the screen
            said = {"take": "you took ", "meld": "you laid ", "add": "you added "}
            wait_until(lambda: all(said[m] in "".join(shown).lower() for m in made_here), timeout=10)
            typing.kill()
            typing.wait(10)
            reader.join(10)
            transcript.extend(shown)
        if done == {"take", "meld", "add"}:
            break
    assert done == {"take", "meld", "add"}
    text = "".join(transcript)
    assert "Table:\n  1. " in text and "(you" in text, text[-3000:]
    assert "you laid " in text.lower() and "you added " in text.lower(), text[-3000:]


def command_for(action: dict) -> list[str] | None:
    """Mahjong gin's own moves as one-shot `gin` commands; None for the others."""
    if action["type"] == "draw" and action.get("count", 1) > 1:
        return ["take", "--count", str(action["count"])]
    if action["type"] == "meld":
        return ["meld", *(c.lower() for c in action["cards"])]
    if action["type"] == "add_on":
        return ["add", action["card"].lower(), "to", str(action["meld"] + 1)]
    return None


def test_one_shot_commands_take_several_lay_a_meld_and_add_on_against_a_real_server(players):
    """`gin take --count N`, `gin meld ...` and `gin add CARD to N` (the `gin` command, each its own
    process) make Mahjong gin's own moves; Ann's other moves go through the API, the bot plays Bob.
    A meld number the table does not have is refused before anything is sent."""
    ann, bob = players
    done: set[str] = set()
    for _ in range(6):  # the deals are random: a match may end before all three came up
        game_id, api, stop = match_against_the_bot(ann, bob)
        try:
            while done != {"take", "meld", "add"}:
                view = wait_until(lambda: ann_to_move(api, game_id))
                assert view, "Ann's turn never came"
                if view["status"] == "finished":
                    break
                several = [a for a in view["legal_actions"] if a.get("count", 1) > 1]
                action = max(several, key=lambda a: a["count"]) if several else reference.choose_action(view)
                command = command_for(action)
                if command is None:
                    api.act(game_id, action, version=view["version"])
                    continue
                if action["type"] == "add_on":  # first a meld the table does not have: refused, nothing sent
                    refused = ann.run("add", action["card"], "to", "99", "-g", game_id, check=2)
                    assert "there is no meld 99 on the table" in refused.stderr
                    assert api.view(game_id)[0]["version"] == view["version"]
                made = ann.run(*command, "-g", game_id)
                assert api.view(game_id)[0]["version"] != view["version"], made.stdout + made.stderr
                done.add({"draw": "take", "meld": "meld", "add_on": "add"}[action["type"]])
        finally:
            stop.set()
        if done == {"take", "meld", "add"}:
            break
    assert done == {"take", "meld", "add"}


def test_gin_show_groups_and_counts_a_mahjong_hand_as_the_server_does():
    """Mahjong gin counts A 15, 2-9 5, 10-K 10: `gin show` draws the hand in the server's melds and
    deadwood, and suggests the server's best discard, not the client's standard-value reckoning."""
    rng = random.Random(7)
    for _ in range(200):  # a deal where an ace or a nine makes the two reckonings differ
        match = new_match("mahjong_gin", first_dealer=0)
        match.deal(shuffled_deck(rng))
        seat = match.to_move
        match.apply(seat, action_from_dict({"type": "take_upcard"}))  # eleven cards: a discard to suggest
        view = {**match.view(seat), "game_id": "g" * 22, "status": "active",
                "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}]}
        own = arrange(view["hand"])[2]
        if own != view["arrangement"]["deadwood_points"]:
            break
    server = view["arrangement"]
    assert own != server["deadwood_points"]
    shown = render_view(view, seat, Style(False), view["game_id"])
    grouped = "  ".join("[" + " ".join(meld) + "]" for meld in server["melds"])
    assert f"Hand:      {grouped}{'  ' if grouped else ''}deadwood {' '.join(server['deadwood'])} = " \
           f"{server['deadwood_points']}" in shown, shown
    assert f"discard CARD (best {server['best_discard']}: leaves {server['deadwood_after_discard']})" in shown, shown
