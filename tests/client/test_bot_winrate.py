"""The bot against a player that acts at random, in process with the rules engine: the engine's
view has the fields the service's view has, so this is the bot's real decision function at work."""
import random

from gin_client.bots import reference
from service.rules import Match, Rules, action_from_dict, full_deck

MATCHES = 40


def play_match(seed: int, bot_seat: int, rules: Rules | None = None, max_actions: int = 20000) -> Match:
    rng = random.Random(seed)
    match = Match.new(rules or Rules.from_options(), first_dealer=rng.randrange(2))
    for _ in range(max_actions):
        if match.is_over:
            return match
        if match.needs_deal:
            deck = full_deck()
            rng.shuffle(deck)
            match.deal(deck)
            continue
        seat = match.to_move
        view = match.view(seat)
        if seat == bot_seat:
            choice = reference.choose_action(view)
            assert choice in view["legal_actions"]
        else:
            choice = rng.choice(view["legal_actions"])
        match.apply(seat, action_from_dict(choice))
    raise AssertionError(f"match {seed} did not end in {max_actions} actions")


def test_bot_beats_a_random_player(record_property):
    wins = 0
    for seed in range(MATCHES):
        match = play_match(seed, bot_seat=seed % 2)
        wins += match.winner == seed % 2
    rate = wins / MATCHES
    record_property("bot_win_rate_vs_random", rate)
    print(f"\nbot vs random: won {wins} of {MATCHES} 100-point matches ({rate:.0%})")
    assert rate >= 0.75


def test_bot_plays_other_presets_to_the_end():
    for seed, preset in enumerate(["straight", "oklahoma", "hollywood", "classic"]):
        options = {"last_discard_rule": "take_to_finish"} if preset == "classic" else {}
        match = play_match(100 + seed, bot_seat=seed % 2, rules=Rules.from_options(preset, **options))
        assert match.is_over and match.winner in (0, 1)
