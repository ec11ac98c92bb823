"""A table's mail text from the engine's own events and views (no database): a void hand, the
seat sitting out, a refusal in names."""
from __future__ import annotations

from datetime import datetime, timezone

from service.games import deals
from service.notify.mail import mail_text
from service.notify.mail.scene import Scene
from service.notify.mail.layout import WIDTH, wrap_text
from service.rules import Rules
from service.games.table_game import TableGame, redact_table_event

NAMES = {0: "Ann", 1: "Bob", 2: "Carl"}
NOW = datetime(2030, 1, 1, 12, tzinfo=timezone.utc)


def scene(table: TableGame, seat: int, events: list[dict]) -> Scene:
    shown = [{"seq": n, **redact_table_event(e, seat, reveal_all=table.dealt_over(e["hand"]))}
             for n, e in enumerate(events, 1)]
    return Scene(game_id="T" * 22, version=1, seat=seat, names=NAMES, view=table.view(seat), now=NOW,
                 events=shown, reply_address="play+secret@play.test")


def play_to_a_void(table: TableGame) -> list[dict]:
    """Never knock: pass the upcard, draw from the stock, discard; the stock runs out."""
    events = []
    while table.needs_deal:
        events += table.deal_next(deals.shuffled_deck())[1]
    while not any(e["type"] == "hand_void" for e in events):
        seat = table.table.to_move[0]
        legal = table.view(seat)["legal_actions"]
        action = next((a for a in legal if a["type"] in ("pass", "discard")), None) or \
            next(a for a in legal if a == {"type": "draw", "from": "stock"})
        events += table.apply_json(seat, action)
        while table.needs_deal:
            events += table.deal_next(deals.shuffled_deck())[1]
    return events


def test_a_void_hand_is_told_with_both_hands_to_its_players_and_not_move_by_move_to_the_one_out():
    table = TableGame.new(Rules.from_dict({"target": 50}), 3, first_dealer=0)
    events = play_to_a_void(table)
    void = next(e for e in events if e["type"] == "hand_void")
    a, b = void["seats"]
    body = wrap_text(mail_text.body(scene(table, a, events), "hand_end"))
    other = NAMES[b]
    assert f"  Hand 1 (you v {other}) is void (the stock ran out): nobody scores." in body
    hands = void["record"]["hands"]  # by the board's local seats 0 and 1: a, b
    assert f"Hand 1 (you v {other}): void.\n  you: {' '.join(hands['0'])}\n  {other}: {' '.join(hands['1'])}\n" \
        in body
    assert all(len(line) <= WIDTH for line in body.split("\n") if not line.startswith("Play in"))
    # A mail to the seat sitting out (a digest, say) tells how the hand ended, not its moves.
    out = table.table.sitting_out
    sitting = wrap_text(mail_text.body(scene(table, out, events), "hand_end"))
    assert "is void (the stock ran out)" in sitting and "discarded" not in sitting and "drew" not in sitting
    assert sitting.count("Your hand (") == 0 and "You sit out this hand, Carl" in sitting


def test_refusals_name_players_not_board_seats():
    table = TableGame.new(Rules.from_dict({"target": 50}), 3, first_dealer=0)
    while table.needs_deal:
        table.deal_next(deals.shuffled_deck())
    waiting = next(s for s in table.table.boards[0]["seats"] if s not in table.table.to_move)
    mover = table.table.to_move[0]
    seen = scene(table, waiting, [])
    local = table.table.boards[0]["seats"].index(mover)
    text = mail_text.refusal(f"it is seat {local}'s turn, in the upcard offer", seen)
    assert text == f"it is {NAMES[mover]}'s turn, during the upcard offer"
    out = table.table.sitting_out
    assert mail_text.refusal(f"seat {out} plays on no board now (sitting out this hand)", scene(table, out, [])) \
        == "you play on no board now (sitting out this hand)"


def test_a_partnership_result_names_the_sides_the_target_reacher_and_who_pays():
    from service.notify.mail.table_mail import result_lines
    names = {0: "Ann", 1: "Bob", 2: "Carl", 3: "Dan"}
    sides = [[0, 2], [1, 3]]

    def lines(seat: int, result: dict) -> list[str]:
        view = {"format": "partnership", "sides": sides, "result": result}
        return result_lines(Scene(game_id="T" * 22, version=1, seat=seat, names=names, view=view, now=NOW))

    fifty = {"winner": 0, "reason": "target", "totals": [180, 230], "target_reached_by": 1, "exactly_50_rule": True,
             "net": {"leader": 1, "points": 50}, "settlement": [{"payer": 0, "payee": 1, "points": 50}]}
    assert lines(2, fifty) == [
        "Match over: you and Ann win. Bob and Dan finished exactly 50 ahead, which loses under these rules.",
        "Final totals: Ann and Carl 180, Bob and Dan 230.", "Settlement: Ann and Carl pay Bob and Dan 50."]
    resigned = {**fifty, "reason": "resign", "exactly_50_rule": False, "winner": 1}
    assert lines(0, resigned)[0] == "Match over: Bob and Dan win (by resignation)."
    behind = {**fifty, "exactly_50_rule": False, "winner": 0, "target_reached_by": 0, "totals": [250, 180]}
    assert lines(1, behind)[0] == "Match over: Ann and Carl win."
