"""My Ship Sails ranking (tables/formats/poker/ship.py), source docs/rules/my-ship-sails.md."""

from collections import Counter
from itertools import combinations

import pytest

from tables.cards import full_pack, parse_cards
from tables.errors import RuleError
from tables.formats.poker.ship import ShipCategory as C
from tables.formats.poker.ship import ShipOptions, ship_strength


def s(text):
    return ship_strength(parse_cards(text))


def test_a_flush_of_three_whatever_its_value():
    assert s("2H 3H 5H").key == (C.FLUSH, 10)
    assert s("2H 3H 5H") > s("AS KS 9D")  # any flush beats any two-card flush


def test_several_flushes_by_pips():
    assert s("AH KH 9H").key == (C.FLUSH, 30)
    assert s("AS QS JS") > s("AH KH 9H") and s("AS QS JS").key == (C.FLUSH, 31)  # 11+10+10


def test_two_card_flushes_by_pips():
    assert s("AS KS 9D").key == (C.TWO_CARD_FLUSH, 21)
    assert s("AS KS 9D") > s("QD JD AH")
    assert s("AS 9H 2D").key == (C.NO_FLUSH,)
    assert s("2D 3D 4S") > s("AS KH QD")


def test_wrong_hands_and_options():
    with pytest.raises(RuleError):
        s("AS KS QS JS")
    with pytest.raises(RuleError, match="not an option of My Ship Sails"):
        ShipOptions.from_mapping({"widow": True})
    assert ShipOptions.from_mapping({}) == ShipOptions()


def test_all_three_card_hands():
    counts = Counter(ship_strength(h).key[0] for h in combinations(full_pack(), 3))
    # 4 x C(13,3) flushes; 4 suits x C(13,2) x 39 two-card flushes; 4 x 13^3 three suits.
    assert counts == {C.FLUSH: 1144, C.TWO_CARD_FLUSH: 12_168, C.NO_FLUSH: 8788}
