"""Thirty-One / Schnautz ranking (tables/formats/poker/thirty_one.py), source docs/rules/thirty-one.md."""

from collections import Counter
from itertools import combinations

import pytest

from tables.cards import full_pack, parse_cards
from tables.errors import RuleError
from tables.formats.poker.thirty_one import ThirtyOneCategory as C
from tables.formats.poker.thirty_one import ThirtyOneOptions, thirty_one_strength


def s(text):
    return thirty_one_strength(parse_cards(text))


def test_thirty_one_then_three_of_a_kind_then_pips():
    assert s("AS KS QS").key == (C.THIRTY_ONE,)
    assert s("AH 10H JH").label == "thirty-one in hearts"
    assert s("AS KS QS") > s("AH AD AC") > s("2H 2D 2C")
    assert s("2H 2D 2C") > s("AH KH 9H")  # 30 pips lose to any three of a kind
    assert s("AH KH 9H").key == (C.PIPS, 30)
    assert s("AH KH 9H") > s("AS KS 8D")


def test_pips_in_one_suit():
    assert s("AS 9H 5D").key == (C.PIPS, 11)  # a single card is its suit's value
    assert s("KS QS AD").key == (C.PIPS, 20)
    assert s("AS KS 10H").key == (C.PIPS, 21)
    assert s("AC AD AS").key == (C.THREE_OF_A_KIND, 14)
    assert s("AH AD 9H").key == (C.PIPS, 20)  # a pair counts for nothing


def test_wrong_hands_and_options():
    with pytest.raises(RuleError):
        s("AS KS")
    with pytest.raises(RuleError):
        s("AS KS JK")
    with pytest.raises(RuleError, match="not an option of Thirty-One"):
        ThirtyOneOptions.from_mapping({"tiger": True})


def test_all_three_card_hands():
    hands = list(combinations(full_pack(), 3))
    counts = Counter(thirty_one_strength(h).key[0] for h in hands)
    # 31: an ace and two of the four ten-cards of its suit, 4 x C(4,2); three of a kind 13 x 4.
    assert counts == {C.THIRTY_ONE: 24, C.THREE_OF_A_KIND: 52, C.PIPS: 22_100 - 76}
    pips = Counter(
        thirty_one_strength(h).key[1]
        for h in hands
        if len(thirty_one_strength(h).key) > 1 and thirty_one_strength(h).key[0] == C.PIPS
    )
    assert max(pips) == 30 and min(pips) == 3  # 30: A K 9 of one suit; 3: two deuces and a trey
    assert pips[3] == 24  # 2-2-3 or 3-3-2 in three suits: 6 x 2 each
