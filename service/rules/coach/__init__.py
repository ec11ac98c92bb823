"""The coach (issue 41): every decision of a finished two-seat match weighed from the deciding
seat's information only, by play-outs over sampled deals consistent with it, and a hint at the
decision now. Pure like the rest of the engine: it reads no clock of its own (a budget's clock is
passed in) and draws its deals from a generator seeded by the caller."""
from .knowledge import PublicRecord, SeatView, seat_view
from .review import NotReviewable, Transcript, check_reviewable, decisions, hint, label, review_match, walk
from .weighing import Weighing, weigh

__all__ = ["NotReviewable", "PublicRecord", "SeatView", "Transcript", "Weighing", "check_reviewable",
           "decisions", "hint", "label", "review_match", "seat_view", "walk", "weigh"]
