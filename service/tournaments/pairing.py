"""Swiss pairings as a maximum weight matching (networkx's implementation of Edmonds' blossom
algorithm), so that anyone holding a round's stored standings can pair it again and get the same.

The rule, in order of importance (each criterion counts only among pairings equal on those above;
the weights encode the order exactly, as one integer per pair: see `_weigh`):

  1. no two players meet twice, while some pairing avoids it (fewest repeats);
  2. the bye (an odd count) goes to a player who has had none, while some pairing allows it;
  3. no player's first deals drift more than one from half its matches (first deals less second
     deals stays within -2..2, FIDE's colour rule), while possible;
  4. score groups: the sum of the squared score differences of the pairs is as small as it can be
     (a player is paired out of its score group only when its group cannot pair among itself, and
     then with the nearest score); the bye counts as a player half a point under the lowest score;
  5. the bye to the lowest-ranked player who may have it;
  6. first deals: players due opposite deals (one has dealt first more often, the other less) meet;
  7. within a score group, the top half meets the bottom half (1 v n/2+1, as the Dutch system).

The first deal of each pairing goes to the player who has dealt first less often (first deals less
second deals); if equal, to the better-ranked player in odd rounds and to the other in even rounds.
Players are ranked by score, then rating, then id. Everything here is deterministic.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

BYE = "bye"  # the bye's vertex: an odd count pairs one player with it


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees it before a round. Scores are in half points (a win 2, a draw 1)."""
    id: int
    score: int = 0
    rating: float = 0.0
    opponents: frozenset = field(default_factory=frozenset)  # ids met already (a forfeit counts)
    byes: int = 0
    first_deals: int = 0  # matches in which this player dealt first
    second_deals: int = 0

    @property
    def balance(self) -> int:
        return self.first_deals - self.second_deals

    def to_dict(self) -> dict:
        return {"id": self.id, "score": self.score, "rating": self.rating, "opponents": sorted(self.opponents),
                "byes": self.byes, "first_deals": self.first_deals, "second_deals": self.second_deals}

    @classmethod
    def from_dict(cls, data: dict) -> Entrant:
        return cls(data["id"], data["score"], data["rating"], frozenset(data["opponents"]), data["byes"],
                   data["first_deals"], data["second_deals"])


@dataclass(frozen=True)
class Pairing:
    first: int  # deals the first hand (seat 0)
    second: int | None  # None: `first` has the bye


def ranked(entrants) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))


def deal_allowed(a: Entrant, b: Entrant) -> bool:
    """Whether the pair can meet without either player's balance leaving -2..2: the one with the
    lower balance deals first (its balance rises by one), the other's falls by one."""
    low, high = sorted((a.balance, b.balance))
    return low <= 1 and high >= -1


def _due(entrant: Entrant) -> int:
    return (entrant.balance < 0) - (entrant.balance > 0)  # 1: due a first deal, -1: a second, 0: either


def _criteria(a: Entrant, b: Entrant | None, groups: dict[int, list[int]], bye_score: int, rank: int) -> tuple:
    """The pair's value on each criterion of the rule, most important first (higher is better);
    `rank`: a's place in the ranking (0 the best), for the bye."""
    if b is None:  # the bye
        return 1, int(a.byes == 0), 1, -(a.score - bye_score) ** 2, rank, 1, 0
    cost = (a.score - b.score) ** 2
    due = _due(a) * _due(b)  # -1: opposite dues, 0: one indifferent, 1: the same
    order = 0
    if a.score == b.score:  # the Dutch split: the top half against the bottom half
        group = groups[a.score]
        order = -(abs(group.index(a.id) - group.index(b.id)) - len(group) // 2) ** 2
    return int(b.id not in a.opponents), 1, int(deal_allowed(a, b)), -cost, 0, 1 - due, order


def _weigh(pairs: dict, count: int) -> dict:
    """One integer per pair whose sum over any matching orders matchings exactly as the criteria do,
    lexicographically: each criterion's scale exceeds what every lower one can add over `count` pairs.
    Each criterion is shifted to start at zero, which changes no comparison between perfect matchings
    (all have the same number of pairs)."""
    columns = list(zip(*pairs.values()))
    lows = [min(column) for column in columns]
    spans = [max(column) - low for column, low in zip(columns, lows)]
    scales, scale = [], 1
    for span in reversed(spans):
        scales.append(scale)
        scale *= span * count + 1
    scales.reverse()
    return {key: sum((value - low) * s for value, low, s in zip(values, lows, scales)) + 1
            for key, values in pairs.items()}


def first_deal(a: Entrant, b: Entrant, round_number: int) -> tuple[Entrant, Entrant]:
    """(the one dealing first, the other): the lower balance first; if equal, the better-ranked in odd rounds."""
    if a.balance != b.balance:
        return (a, b) if a.balance < b.balance else (b, a)
    better, worse = ranked([a, b])
    return (better, worse) if round_number % 2 else (worse, better)


def pair(entrants, round_number: int) -> list[Pairing]:
    """The round's pairings of these entrants (those still playing), best-ranked pairs first, the bye last."""
    players = ranked(entrants)
    if len(players) < 2:
        return [Pairing(p.id, None) for p in players]
    by_id = {p.id: p for p in players}
    groups: dict[int, list[int]] = {}
    for p in players:
        groups.setdefault(p.score, []).append(p.id)
    bye_score = players[-1].score - 1
    pairs = {}
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            pairs[(a.id, b.id)] = _criteria(a, b, groups, bye_score, i)
        if len(players) % 2:
            pairs[(a.id, BYE)] = _criteria(a, None, groups, bye_score, i)
    weights = _weigh(pairs, (len(players) + 1) // 2)
    graph = nx.Graph()
    graph.add_nodes_from([p.id for p in players] + ([BYE] if len(players) % 2 else []))
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in weights.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    rank = {p.id: index for index, p in enumerate(players)}
    result, bye = [], None
    for a, b in matching:
        if BYE in (a, b):
            bye = b if a == BYE else a
            continue
        first, second = first_deal(by_id[a], by_id[b], round_number)
        result.append(Pairing(first.id, second.id))
    result.sort(key=lambda p: min(rank[p.first], rank[p.second]))
    return result + ([Pairing(bye, None)] if bye is not None else [])
