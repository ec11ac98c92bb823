"""The rules of Gin Rummy as a pure library: no I/O, no clock, no shuffling.

    >>> from service.rules import parse_cards, min_deadwood
    >>> min_deadwood(parse_cards("AS 2S 3S 4H 4D 4C 9C TC JC KD"))
    10
"""
from .actions import (
    Action,
    AddOn,
    BigGin,
    ChooseDealer,
    Discard,
    Draw,
    Knock,
    LayMeld,
    Pass,
    Resign,
    TakeUpcard,
    action_from_dict,
)
from .cards import Card, full_deck, parse_cards
from .errors import IllegalAction, InvalidRules
from .knock import KnockResult, settle_knock
from .mahjong import MahjongMatch
from .match import Match
from .melds import Arrangement, Meld, best_arrangement, deadwood_count, min_deadwood
from .options import PRESETS, Rules
from .orders import Ordered, Orders, check_orders, order_move
from .plan_settle import Decision, Settlement, settle_plan
from .plans import Plan
from .scheme import CardScheme
from .series import Series, SeriesError
from .tables import Partnership, Rotation, Table
from .views import redact_event

__all__ = [
    "Action", "AddOn", "LayMeld", "Arrangement", "BigGin", "Card", "ChooseDealer", "Discard", "Draw", "IllegalAction", "InvalidRules",
    "Knock", "KnockResult", "Match", "Meld", "PRESETS", "Pass", "Resign", "Rules", "TakeUpcard",
    "action_from_dict", "best_arrangement", "deadwood_count", "full_deck", "min_deadwood",
    "parse_cards", "redact_event", "settle_knock",
    "CardScheme", "MahjongMatch", "Partnership", "Rotation", "Series", "SeriesError", "Table",
    "Decision", "Ordered", "Orders", "Plan", "Settlement", "check_orders", "order_move", "settle_plan",
]
