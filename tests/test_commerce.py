"""Commerce ranking (tables/formats/poker/commerce.py), source docs/rules/commerce.md."""

from collections import Counter
from itertools import combinations

import pytest

from tables.cards import full_pack, parse_cards
from tables.errors import RuleError
from tables.formats.poker.commerce import CommerceCategory as C
from tables.formats.poker.commerce import CommerceOptions, commerce_strength, sequence_top

BOTH = CommerceOptions(flush=True, pair=True)


def s(text, options=CommerceOptions()):
    return commerce_strength(parse_cards(text), options)


def test_triplets_aces_high_deuces_low():
    assert s("AS AD AC") > s("KS KD KC") > s("2S 2D 2C")
    assert s("2S 2D 2C") > s("QH KH AH")  # the lowest triplet beats the best sequence flush
    assert s("AS AD AC").label == "triplets, aces"


def test_sequence_flush_ace_top_or_bottom():
    assert s("QH KH AH").key == (C.SEQUENCE_FLUSH, 14)
    assert s("AS 2S 3S").key == (C.SEQUENCE_FLUSH, 3)
    assert s("QH KH AH") > s("JC QC KC") > s("2D 3D 4D") > s("AS 2S 3S")
    assert s("AS 2S 3S") > s("AH KH JH")  # the lowest sequence flush beats the best point
    # No going round the corner: K A 2 is a point of 23, not a sequence.
    assert s("KH AH 2H").key == (C.POINT, 23, 3)
    assert sequence_top([14, 2, 3]) == 3 and sequence_top([12, 13, 14]) == 14
    assert sequence_top([13, 14, 2]) == 0
    # A sequence in mixed suits is only a point.
    assert s("QH KH AS").key == (C.POINT, 20, 2)


def test_the_point():
    assert s("AH KH JH").key == (C.POINT, 31, 3)  # 11 + 10 + 10
    assert s("AH KH 2C").key == (C.POINT, 21, 2)
    assert s("AH 9C 2C").key == (C.POINT, 11, 2)  # the single ace does not count
    assert s("AH KS 2C").key == (C.NO_POINT,)  # a single card of a suit does not count
    assert s("5H 3H 2H") < s("9S 4S 5C")  # a point of 10 in three cards loses to 13 in two
    assert s("9S 4S 5C").key == (C.POINT, 13, 2)


def test_three_cards_beat_two_at_an_equal_point():
    three = s("9H 5H 6H")
    two = s("KS 10S 2C")
    assert three.key == (C.POINT, 20, 3) and two.key == (C.POINT, 20, 2)
    assert three > two


def test_pairs_have_no_value_by_default():
    assert s("KH KS 5S").key == (C.POINT, 15, 2)
    assert s("KH KS 5C") == s("QH 2D 3C")  # both no point


def test_optional_flush_and_pair():
    assert s("2H 5H 9H", BOTH).key == (C.FLUSH, 16)
    assert s("2H 5H 9H", BOTH) < s("AS 2S 3S", BOTH)  # next below the sequence flush
    assert s("2H 5H 9H", BOTH) > s("AC AD 2S", BOTH)
    assert s("2C 2D 3S", BOTH).key == (C.PAIR, 2)
    assert s("2C 2D 3S", BOTH) > s("AH KH JC", BOTH)  # a pair outranks the point
    assert s("AC AD 2S", BOTH) > s("KC KD AS", BOTH)
    assert CommerceOptions.from_mapping({"flush": True}) == CommerceOptions(flush=True)
    with pytest.raises(RuleError, match="not an option of Commerce"):
        CommerceOptions.from_mapping({"flushes": True})


def test_wrong_hands():
    with pytest.raises(RuleError):
        s("AS KS")
    with pytest.raises(RuleError):
        s("AS KS MI")


def _independent_category(cards, flush, pair):
    ranks = sorted(c.rank for c in cards)
    suits = Counter(c.suit for c in cards)
    one_suit = len(suits) == 1
    seq = ranks[2] - ranks[0] == 2 and len(set(ranks)) == 3 or ranks == [2, 3, 14]
    if len(set(ranks)) == 1:
        return C.TRIPLETS
    if one_suit and seq:
        return C.SEQUENCE_FLUSH
    if flush and one_suit:
        return C.FLUSH
    if pair and len(set(ranks)) == 2:
        return C.PAIR
    return C.POINT if max(suits.values()) >= 2 else C.NO_POINT


@pytest.mark.parametrize(("flush", "pair"), [(False, False), (True, True), (True, False), (False, True)])
def test_all_three_card_hands(flush, pair):
    options = CommerceOptions(flush=flush, pair=pair)
    hands = list(combinations(full_pack(), 3))
    assert len(hands) == 22_100
    counts = Counter()
    for hand in hands:
        cat = commerce_strength(hand, options).key[0]
        assert cat == _independent_category(hand, flush, pair), hand
        counts[cat] += 1
    # Counted by hand: 13 triplets x 4; 12 sequences x 4 suits; 4 x C(13,3) one-suit hands;
    # 13 x C(4,2) x 48 pairs; 4 x 13^3 hands of three suits (1,872 of them pairs).
    expected = {C.TRIPLETS: 52, C.SEQUENCE_FLUSH: 48}
    expected[C.FLUSH] = 4 * 286 - 48 if flush else 0
    expected[C.PAIR] = 13 * 6 * 48 if pair else 0
    expected[C.NO_POINT] = 4 * 13**3 - 52 - (1872 if pair else 0)  # less the triplets
    expected[C.POINT] = 22_100 - sum(expected.values())
    assert counts == {k: v for k, v in expected.items() if v}
    points = Counter(commerce_strength(h).key[1:] for h in hands if commerce_strength(h).key[0] == C.POINT)
    assert max(points) == (31, 3) and min(points) == (5, 2)  # A K J of one suit; deuce and trey
