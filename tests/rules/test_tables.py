"""Three players in rotation and partnerships of two, three or four (004; 000's Tedesco teams),
each built from two-player hands: the text's words, per-seat views that never show another seat's
hand in play, and whole random matches scored again independently."""
import json
import random

import pytest

from service.rules import IllegalAction, Knock, Rules, TakeUpcard, full_deck, parse_cards
from service.rules.tables import Partnership, Rotation, Table

from .helpers import build_deck, card_strings, choose_action, shuffled_deck

KNOCKABLE = "AS 2S 3S 4S 5S 7C 7D 7H 3H 2C"   # takes the 8D upcard, knocks with 3H: 10 left
D_HAND = "KH QS JD TC 8H 6S 4H 2D KD QH"      # 80, lays off 6S: 74; the knock scores 64


def card(text):
    return parse_cards(text)[0]


def non_dealer_knocks(table, board):
    """Deal the board so its non-dealer can take the upcard and knock for 64 points, and do it."""
    table.deal(board, build_deck(KNOCKABLE, D_HAND, "8D"))
    seats = table.boards[board]["seats"]
    seat = seats[table.boards[board]["match"].to_move]
    table.apply(seat, TakeUpcard())
    table.apply(seat, Knock(card("3H")))
    return seat


# -- 004: "If three people play, one player must be inactive during each deal, the winner of one
#    hand plays with the inactive player."

def test_the_winner_plays_the_one_who_sat_out():
    table = Rotation(Rules(), first_pair=(0, 1), first_dealer=0)
    assert table.sitting_out == 2 and table.needs_deal == [0]
    assert table.view(2)["my_board"] is None and table.view(2)["legal_actions"] == []
    winner = non_dealer_knocks(table, 0)
    assert winner == 1 and table.last_hand["points"] == 64
    assert table.boards[0]["seats"] == [1, 2] and table.sitting_out == 0
    assert table.view(0)["sitting_out"] == 0 and table.view(0)["my_board"] is None
    table.deal(0, build_deck(KNOCKABLE, D_HAND, "8D"))
    # The newcomer (seat 2) deals; the winner who stays has the first choice.
    assert table.boards[0]["match"].dealer == table.boards[0]["seats"].index(2)
    assert table.to_move == [1]
    with pytest.raises(IllegalAction) as info:
        table.apply(0, TakeUpcard())
    assert info.value.code == "not-your-turn" and "sitting out" in info.value.message
    assert table.view(0)["scores"]["games"][0]["totals"] == [0, 64, 0]


# -- 004: "Four people playing, the game actually consists of two separate games played
#    simultaneously. Two people play as partners, alternately opposing the two other and keeping
#    a partnership score."

def test_two_games_at_once_alternating_opponents_one_partnership_score():
    table = Partnership(Rules.from_options(target=500), team_size=2)
    assert table.sides == [[0, 2], [1, 3]]
    assert [b["seats"] for b in table.boards] == [[0, 1], [2, 3]]
    assert sorted(table.needs_deal) == [0, 1]
    assert non_dealer_knocks(table, 0) == 1
    # Board 0 is decided; its players wait for the other game of the round.
    assert table.board_of(0) is None and table.board_of(1) is None and table.board_of(3) == 1
    assert table.view(0)["scores"]["games"][0]["totals"] == [0, 0]
    assert non_dealer_knocks(table, 1) == 3
    # One partnership score: both hands of seats 1 and 3 count for their side.
    assert table.view(2)["scores"]["games"][0]["totals"] == [0, 128]
    assert table.view(2)["scores"]["hands_won"] == [0, 2]
    # "alternately opposing the two other": now 0 plays 3 and 2 plays 1.
    assert [b["seats"] for b in table.boards] == [[0, 3], [1, 2]]


def test_a_team_of_three_all_winning_scores_25_more():
    # 000 on Tedesco: "Three-person teams play to 300, 25 points extra if all three teammates win."
    table = Partnership(Rules.from_options(target=300), team_size=3)
    assert [b["seats"] for b in table.boards] == [[0, 1], [2, 3], [4, 5]]
    for board in range(3):
        non_dealer_knocks(table, board)
    assert table.view(0)["scores"]["games"][0]["totals"] == [0, 3 * 64 + 25]
    assert table.sheet[-1]["team_bonus"] == 25
    # Round 1: each plays the next of the other team.
    assert [b["seats"] for b in table.boards] == [[0, 3], [2, 5], [1, 4]]


def test_teams_of_four_score_50_for_all_four():
    table = Partnership(Rules.from_options(target=500), team_size=4)
    for board in range(4):
        non_dealer_knocks(table, board)
    assert table.view(0)["scores"]["games"][0]["totals"] == [0, 4 * 64 + 50]


def test_tables_refuse_what_no_text_describes():
    with pytest.raises(ValueError):
        Partnership(Rules(), team_size=5)
    with pytest.raises(ValueError):
        Rotation(Rules(), first_pair=(1, 1))
    with pytest.raises(Exception) as info:
        Rotation(Rules.from_options("mahjong_gin"))
    assert getattr(info.value, "option", None) == "mahjong"


def test_a_resignation_ends_the_table_for_the_side():
    table = Partnership(Rules(), team_size=2)
    events = table.forfeit(2, "resign")
    assert events[-1]["type"] == "match_end" and table.result["winner"] == 1
    assert table.result["winner_seats"] == [1, 3]
    with pytest.raises(IllegalAction) as info:
        table.apply(1, TakeUpcard())
    assert info.value.code == "game-over"


# -- hidden information ------------------------------------------------------------------------

def hidden_cards(table, seat, index):
    """Cards of board `index` (each board has its own deck) in other seats' hands in play that
    `seat` may not know."""
    board = table.boards[index] if index < len(table.boards) else None
    if not board or board["match"].needs_deal:
        return set()  # no hand in play there (a void hand's cards were shown to all)
    match, hidden = board["match"], set()
    for local, other in enumerate(board["seats"]):
        if other != seat:
            hidden |= {str(c) for c in match.hands[local]} - {str(c) for c in match.known[local]}
    return hidden


def assert_view_hides_hands(table, seat):
    """The seat's view, board by board: its own board's part and each board's public part show
    none of that board's hidden cards. (Finished hands' records are shown to all.)"""
    view = table.view(seat)
    json.dumps(view)
    for index in range(len(table.boards)):
        hidden = hidden_cards(table, seat, index)
        assert not card_strings(view["boards"][index]) & hidden
        own = view["my_board"]
        if own and own["board"] == index:
            assert not card_strings({k: v for k, v in own["view"].items() if k != "last_hand"}) & hidden
    assert not card_strings(view["legal_actions"]) - {str(c) for c in table_hand(table, seat)}


def table_hand(table, seat):
    index = table.board_of(seat)
    if index is None:
        return []
    board = table.boards[index]
    return board["match"].hands[board["seats"].index(seat)]


def random_table(kind, seed, preset="standard"):
    rng = random.Random(seed)
    rules = Rules.from_options(preset)
    table = Rotation(rules, first_pair=tuple(sorted(rng.sample(range(3), 2)))) if kind == "rotation" \
        else Partnership(rules, team_size=kind)
    return table, rng


def step(table, rng, scan=False):
    events = []
    for board in table.needs_deal:
        knock_card = rng.choice(full_deck()) if table.rules.knock_card == "second_deck" else None
        events += table.deal(board, shuffled_deck(rng), knock_card)
    if table.is_over or not table.to_move:
        return events  # over, or a misdeal to deal again
    seat = rng.choice(table.to_move)
    board = table.boards[table.board_of(seat)]
    action = choose_action(board["match"], board["seats"].index(seat), rng)
    new = table.apply(seat, action)
    if scan:
        # The cards still hidden after the action (a discard is public from then on), on the
        # event's own board.
        for viewer in range(table.seats):
            for event in events + new:
                if event["type"] not in ("hand_end", "hand_void", "table_hand_end", "match_end") \
                        and "board" in event:
                    hidden = hidden_cards(table, viewer, event["board"])
                    assert not card_strings(table.redact(event, viewer)) & hidden, (event, viewer)
    return events + new


@pytest.mark.parametrize("kind", ["rotation", 2, 3])
def test_no_view_or_event_shows_another_seats_hand_in_play(kind):
    table, rng = random_table(kind, 5)
    for _ in range(400):
        if table.is_over:
            break
        step(table, rng, scan=True)
        for seat in range(table.seats):
            assert_view_hides_hands(table, seat)


# -- whole matches, scored again ------------------------------------------------------------------

def rescore(rules, sides, records, team_size=None):
    """From the table's hand records alone: each side's games (one, or Hollywood's three), the
    team bonus of a round all won by one team of three or more, then the bonuses at the close."""
    n = len(sides)
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    count = 3 if rules.scoring == "hollywood" else 1
    games = [{"points": [0] * n, "wins": [0] * n, "closed": False, "winner": None} for _ in range(count)]
    wins = [0] * n
    # A round's hands count together, in board order (whichever finished first).
    rounds = [sorted(records[i:i + team_size], key=lambda r: r["board"])
              for i in range(0, len(records), team_size)] if team_size else [[r] for r in records]
    for batch in rounds:
        credited = []
        for record in batch:
            if record["winner"] is None:
                continue
            side = side_of[record["winner"]]
            credited = [i for i in range(min(wins[side] + 1, count)) if not games[i]["closed"]]
            for i in credited:
                games[i]["points"][side] += record["points"]
                games[i]["wins"][side] += 1
            wins[side] += 1
        won = {side_of[r["winner"]] if r["winner"] is not None else None for r in batch}
        if team_size and team_size >= 3 and len(won) == 1 and None not in won:
            for i in credited:
                games[i]["points"][next(iter(won))] += rules.team_bonus * (team_size - 2)
        for game in games:
            reached = [s for s in range(n) if game["points"][s] >= rules.target]
            if not game["closed"] and reached:
                game["closed"] = True
                game["winner"] = max(reached, key=lambda s: (game["points"][s], -s))
    finals = []
    for game in games:
        assert game["closed"]
        w = game["winner"]
        totals = [game["points"][s] + rules.box_bonus * game["wins"][s] for s in range(n)]
        totals[w] += rules.game_bonus
        if all(game["wins"][s] == 0 for s in range(n) if s != w):
            totals[w] += {"double": game["points"][w], "none": 0, "plus_100": 100}[rules.shutout]
        finals.append((w, totals))
    return finals


@pytest.mark.parametrize("kind, preset, seed", [
    ("rotation", "standard", 1), ("rotation", "knock_em_down", 2), ("rotation", "wikipedia_hollywood_gin", 3),
    (2, "standard", 4), (2, "knock_em_down", 5), (2, "tedesco_gin", 6), (2, "wikipedia_oklahoma_match_play", 7),
    (3, "tedesco_gin_teams_of_three", 8), (4, "pagat", 9),
])
def test_whole_table_matches_end_and_add_up(kind, preset, seed):
    table, rng = random_table(kind, seed, preset)
    records = []
    for _ in range(20000):
        if table.is_over:
            break
        records += [e["record"] for e in step(table, rng) if e["type"] == "table_hand_end"]
    assert table.is_over and table.result["reason"] == "target"
    again = Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert again == table
    decided = [r for r in records if r["result"] != "void"]
    finals = rescore(table.rules, table.sides, decided, None if kind == "rotation" else kind)
    result = table.result
    assert [g["final"]["winner"] for g in result["games"]] == [w for w, _ in finals]
    assert [g["final"]["totals"] for g in result["games"]] == [t for _, t in finals]
    totals = [sum(t[s] for _, t in finals) for s in range(len(table.sides))]
    assert result["totals"] == totals
    for payment in result["settlement"]:
        assert totals[payment["payee"]] - totals[payment["payer"]] == payment["points"] > 0
    if table.rules.scoring == "single":
        assert result["winner"] == result["target_reached_by"] == finals[0][0]
    # Every hand is an ordinary two-player hand between a seat of each side (partnerships) or
    # the winner and the one who sat out (rotation).
    if kind == "rotation":
        for before, after in zip(decided, decided[1:]):
            if before["winner"] is not None:
                assert before["winner"] in after["seats"]
                sat_out = ({0, 1, 2} - set(before["seats"])).pop()
                assert sat_out in after["seats"]
    else:
        assert all(table.side_of(r["seats"][0]) != table.side_of(r["seats"][1]) for r in decided)


def test_on_a_tie_the_knocker_sits_out():
    # RULES.md: nobody won, so the knocker (who did not win) makes way for the one who sat out.
    table = Rotation(Rules.from_options("rummy_blog"), first_pair=(0, 1), first_dealer=0)
    table.deal(0, build_deck(KNOCKABLE, "KC KD KH QC QD QH 9C 9D 9H TS", "8D"))
    table.apply(1, TakeUpcard())
    table.apply(1, Knock(card("3H")))          # 2C 8D: 10; the defender's TS: 10, nothing laid off
    assert table.last_hand["result"] == "tie" and table.last_hand["winner"] is None
    assert table.boards[0]["seats"] == [0, 2] and table.sitting_out == 1
    assert table.view(0)["scores"]["games"][0]["totals"] == [0, 0, 0]
