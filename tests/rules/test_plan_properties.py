"""Plans and orders over random legal play, in every kind of variant: a settled plan's moves,
applied one by one through `apply`, give the state `settle_plan` gave; a refused plan moves
nothing; whether a plan is refused, and why, depends only on what the seat sees; the answer names
no card the seat does not see; and standing orders only ever make legal moves, never a knock with
deadwood unless a knock order was set."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules import IllegalAction, Knock, Match, Orders, Plan, order_move, parse_cards, settle_plan

from .helpers import card_strings, choose_action, new_match
from .test_mahjong import choose as mahjong_choice
from .variant_helpers import deal_next

VARIANTS = [
    ("standard", {}), ("oklahoma", {}), ("pagat", {}), ("straight", {}), ("tedesco_gin", {}),
    ("mahjong_gin", {}), ("standard", {"last_discard_rule": "take_to_finish"}), ("knock_em_down", {}),
    ("wikipedia_oklahoma_match_play", {}),
]
TEMPLATES = [
    "draw stock, discard drawn unless it melds, else {card}",
    "draw stock, discard worst",
    "draw stock, gin if possible, else knock if deadwood at most {n}, else discard drawn unless it melds, else worst",
    "draw stock, discard drawn unless it melds, else knock if possible, else worst",
    "draw stock, discard drawn unless it melds, else gin",
    "draw stock, knock {card}",
    "draw stock, gin",
    "draw stock",
    "take, discard worst",
    "take, knock if possible, else {card}",
    "take, gin if possible, else worst",
    "take 2, discard worst",
    "pass",
    "discard worst",
    "gin if possible, else knock if deadwood at most {n}, else {card}",
    "knock {card}",
]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_move(match: Match, seat: int, rng: random.Random):
    return (mahjong_choice if match.rules.mahjong else choose_action)(match, seat, rng)


def position(seed: int, variant) -> Match:
    """A match of the variant after some random legal play, with a seat to move (or over)."""
    rng = random.Random(seed)
    preset, options = variant
    match = new_match(preset, first_dealer=rng.randrange(2), **options)
    for _ in range(rng.randrange(1, 40)):
        if match.is_over:
            break
        if match.needs_deal:
            deal_next(match, rng)
            continue
        match.apply(match.to_move, random_move(match, match.to_move, rng))
    if match.needs_deal:
        deal_next(match, rng)
    return match


def other_hidden(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match as `seat` sees it, the cards it cannot see dealt again between the stock and
    the opponent's unknown cards."""
    data = match.to_dict()
    other = 1 - seat
    known = set(data["known"][other])
    hidden = [c for c in data["hands"][other] if c not in known] + data["stock"]
    rng.shuffle(hidden)
    hand = [c if c in known else hidden.pop() for c in data["hands"][other]]
    data["hands"][other], data["stock"] = hand, hidden
    return Match.from_dict(data)


def a_plan(match: Match, seat: int, rng: random.Random) -> Plan:
    """A plan of the templates: mostly one that begins as the phase does, sometimes any."""
    hand = match.hands[seat] or parse_cards("KS")
    begins = {"draw": ("draw", "take"), "upcard_offer": ("take", "pass"), "last_discard_offer": ("take", "pass")}
    fitting = [t for t in TEMPLATES if t.startswith(begins.get(match.phase, ("gin", "knock", "discard")))]
    text = rng.choice(fitting if rng.random() < 0.8 else TEMPLATES).format(card=rng.choice(hand), n=rng.randrange(11))
    try:
        return Plan.parse(text)
    except IllegalAction:
        return Plan.parse("draw stock")


def visible(match: Match, seat: int) -> set[str]:
    view = match.view(seat)
    seen = set(view["hand"]) | set(view["discard_pile"]) | set(view["opponent"]["known_cards"])
    for meld in view.get("table") or []:
        seen |= set(meld["cards"])
    return seen


@SETTINGS
@given(st.integers(0, 10**6), st.sampled_from(VARIANTS))
def test_a_settled_plan_is_its_moves_and_a_refused_one_moves_nothing(seed, variant):
    match = position(seed, variant)
    rng = random.Random(seed)
    for _ in range(6):
        if match.to_move is None:
            return
        seat = match.to_move
        plan = a_plan(match, seat, rng)
        before = match.to_dict()
        try:
            settled = settle_plan(match, seat, plan)
        except IllegalAction as exc:
            assert match.to_dict() == before
            # The same words whatever the cards the seat cannot see.
            try:
                settle_plan(other_hidden(match, seat, rng), seat, plan)
                raise AssertionError(f"{plan} refused ({exc.message}) in one deal, not in another alike")
            except IllegalAction as again:
                assert (again.code, again.message) == (exc.code, exc.message)
            continue
        assert match.to_dict() == before
        suggested = (match.view(seat)["arrangement"] or {}).get("best_discard")  # with 11 cards in hand
        if str(plan) == "discard worst" and suggested:  # the page's suggestion is the same card
            assert str(settled.actions[-1].card) == suggested
        seen = visible(match, seat) | ({str(settled.drawn)} if settled.drawn else set())
        assert card_strings(settled.to_dict()) <= seen, f"{plan}: {settled.answer()}"
        settle_plan(other_hidden(match, seat, rng), seat, plan)  # accepted there too
        for action in settled.actions:
            match.apply(seat, action)
        assert match == settled.after
        if match.needs_deal:
            deal_next(match, rng)


ORDERS = [Orders.parse(text) for text in (
    "pass unless it melds; take the pile's top if it melds, else draw stock; always go gin",
    "pass unless it melds; take the pile's top if it melds, else draw stock; always go gin; knock if possible",
    "take the pile's top if it melds, else draw stock; knock if deadwood at most 4",
    "always go gin",
    "no orders",
)]


@SETTINGS
@given(st.integers(0, 10**6), st.sampled_from(VARIANTS), st.sampled_from(ORDERS))
def test_orders_make_only_legal_moves_and_knock_only_by_a_knock_order(seed, variant, orders):
    if orders.knock is not None and not new_match(variant[0], **variant[1]).rules.knocking_allowed:
        orders = Orders(orders.upcard, orders.draw, orders.gin, None)  # check_orders refuses it there
    match = position(seed, variant)
    rng = random.Random(seed)
    for _ in range(60):
        if match.is_over:
            return
        if match.needs_deal:
            deal_next(match, rng)
            continue
        seat = match.to_move
        before = match.to_dict()
        ordered = order_move(match, 0, orders)
        assert match.to_dict() == before
        if seat != 0:
            assert ordered is None
        if ordered is None:
            match.apply(seat, random_move(match, seat, rng))
            continue
        assert orders.upcard or orders.draw or orders.gin or orders.knock
        action = ordered.action
        if isinstance(action, Knock) and orders.knock is None:
            assert match.scheme.deadwood_without(match.hands[0], action.discard) == 0  # a gin
        assert card_strings(ordered.to_dict()) <= visible(match, 0)
        match.apply(0, action)
