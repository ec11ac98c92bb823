"""The shared test vectors (tests/vectors/README.md): every line must pass."""
import pytest

from service.rules import Meld, min_deadwood, parse_cards, settle_knock

from .helpers import is_meld, layoffs_fit, load_vectors, texts

MIN_DEADWOOD = load_vectors("min_deadwood.jsonl")
KNOCKS = load_vectors("knock_scoring.jsonl")


def test_vector_files_are_complete():
    assert len(MIN_DEADWOOD) == 1550 and {len(v["hand"]) for v in MIN_DEADWOOD} == {10, 11}
    assert len(KNOCKS) == 150


def test_min_deadwood_vectors():
    wrong = [(v["hand"], v["min_deadwood"], got) for v in MIN_DEADWOOD
             if (got := min_deadwood(parse_cards(v["hand"]))) != v["min_deadwood"]]
    assert not wrong, f"{len(wrong)} lines wrong, first: {wrong[:3]}"


@pytest.mark.parametrize("vector", KNOCKS, ids=[f"{v['id']}-{v['category']}" for v in KNOCKS])
def test_knock_scoring_vector(vector):
    knocker, defender = parse_cards(vector["knocker"]), parse_cards(vector["defender"])
    result = settle_knock(knocker, vector["knocker_melds"], defender)

    assert result.defender_points == vector["defender_deadwood"]
    assert result.knocker_points == vector["knocker_deadwood"]
    assert (result.result, result.winner, result.points) == (vector["result"], vector["winner"], vector["points"])

    # The knocker's layout is the one named.
    assert sorted(map(str, result.knocker_melds)) == sorted(str(Meld(m)) for m in vector["knocker_melds"])
    assert sorted(texts(result.knocker_deadwood)) == sorted(vector["knocker_deadwood_cards"])

    # The defender's layout is legal and its parts add up to the defender's 10 cards.
    melded = [c for m in result.defender_melds for c in m]
    layoffs = list(result.defender_layoffs)
    dead = list(result.defender_deadwood)
    assert all(is_meld(list(m)) for m in result.defender_melds)
    assert sorted(melded + layoffs + dead) == sorted(defender), "defender cards lost or duplicated"
    assert result.defender_points == sum(c.points for c in dead)
    if vector["result"] == "gin":
        assert layoffs == []
    else:
        assert layoffs_fit(result.knocker_melds, layoffs), f"layoffs {texts(layoffs)} do not fit"
    # Our checker agrees the vector's own choice is legal (guards the checker itself).
    assert layoffs_fit([parse_cards(m) for m in vector["knocker_melds"]], parse_cards(vector["defender_layoffs"]))

    assert result.to_dict()["defender_points"] == vector["defender_deadwood"]


def test_layoff_checker_itself():
    # The checker must find the order and place: 9H onto the hearts run (not the nines) so 8H chains.
    melds = [parse_cards("9C 9D 9S"), parse_cards("TH JH QH")]
    assert layoffs_fit(melds, parse_cards("9H 8H"))
    assert layoffs_fit(melds, parse_cards("9H KH"))
    assert not layoffs_fit(melds, parse_cards("8H"))          # a gap
    assert not layoffs_fit(melds, parse_cards("9H 8H 9C"))    # a card twice / not a fit
    assert not layoffs_fit([parse_cards("9C 9D 9S 9H")], parse_cards("9H"))
    assert not layoffs_fit([parse_cards("2C 3C 4C")], parse_cards("2D"))
