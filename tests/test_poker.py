"""Poker ranking with Mistigris and the Tiger (tables/formats/poker/poker.py, tables/formats/poker/poker_lookup.py).

Worked examples from docs/rules/draw-poker.md (Mistigris, The Tiger) and the nasty cases.
"""

import random

import pytest

from tables.cards import full_pack, parse_cards
from tables.errors import RuleError
from tables.formats.poker.poker import PokerCategory, PokerOptions, poker_strength
from tables.formats.poker.poker_lookup import lookup_for

WILD = PokerOptions(mistigris=True)


def strength(text, options=PokerOptions()):
    return poker_strength(parse_cards(text), options)


def category(text, options=PokerOptions()):
    return PokerCategory(strength(text, options).key[0])


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("2C 3D 4H 5S 7C", PokerCategory.NO_PAIR),
        ("2C 2D 4H 5S 7C", PokerCategory.PAIR),
        ("2C 2D 4H 4S 7C", PokerCategory.TWO_PAIRS),
        ("2C 2D 2H 4S 7C", PokerCategory.THREES),
        ("AC 2D 3H 4S 5C", PokerCategory.STRAIGHT),
        ("10C JD QH KS AC", PokerCategory.STRAIGHT),
        ("2H 5H 9H JH KH", PokerCategory.FLUSH),
        ("2C 2D 2H 4S 4C", PokerCategory.FULL_HOUSE),
        ("9C 9D 9H 9S 4C", PokerCategory.FOURS),
        ("9H 10H JH QH KH", PokerCategory.STRAIGHT_FLUSH),
        ("QC KC AC 2C 3C", PokerCategory.FLUSH),  # no going round the corner
        ("QC KD AC 2C 3C", PokerCategory.NO_PAIR),
    ],
)
def test_usual_ranking(hand, expected):
    assert category(hand) is expected


def test_labels():
    assert strength("10S JS QS KS AS").label == "a royal flush"
    assert strength("KS KD KC 7H 7C").label == "a full house, kings over sevens"
    assert strength("AC 2D 3H 4S 5C").label == "a straight, five high"
    assert strength("2C 3D 4H 5S 7C").label == "no pair, seven high"


def test_order_within_categories():
    assert strength("AC AD 2H 3S 4C") > strength("KC KD QH JS 9C")
    assert strength("KC KD 5H 5S 2C") > strength("KH KS 4H 4C AC")
    assert strength("KC KD 5H 5S 3C") > strength("KH KS 5D 5C 2D")
    assert strength("2C 3D 4H 5S 6C") > strength("AC 2D 3H 4S 5C")
    assert strength("7C 7D 7H 2S 2C") > strength("6C 6D 6H AS AC")
    assert strength("AH 2H 3H 4H 5H") < strength("2S 3S 4S 5S 6S")
    # Equal hands in different suits are equal strengths (the label does not count).
    assert strength("2C 3D 4H 5S 7C") == strength("2D 3C 4S 5H 7D")


# --- Mistigris: the seed's worked examples ----------------------------------------------------


def test_seed_three_sevens_and_mistigris_make_fours():
    s = strength("7S 7H 7D 2C MI", WILD)
    assert s.category == "fours" and s.key[:2] == (PokerCategory.FOURS, 7)
    assert s.label == "four sevens, with mistigris"
    assert s.reason.startswith("three sevens with mistigris make fours")


def test_seed_two_pairs_and_mistigris_make_a_full():
    s = strength("KS KH 4D 4C JK", WILD)
    assert s.key == (PokerCategory.FULL_HOUSE, 13, 4)
    assert s.reason.startswith("two pairs")


def test_seed_four_hearts_and_mistigris_make_a_flush():
    s = strength("2H 5H 9H KH MI", WILD)
    assert s.key == (PokerCategory.FLUSH, 14, 13, 9, 5, 2)  # the mistigris is the ace of hearts
    assert "ace of hearts" in s.reason


def test_seed_four_hearts_in_sequence_and_mistigris_make_a_straight_flush():
    s = strength("5H 6H 7H 8H MI", WILD)
    assert s.key == (PokerCategory.STRAIGHT_FLUSH, 9)
    assert s.reason.startswith("four hearts in sequence with mistigris make a straight flush")
    # A gap inside the sequence is filled too; the top is completed as high as possible.
    assert strength("5H 6H 8H 9H MI", WILD).key == (PokerCategory.STRAIGHT_FLUSH, 9)
    assert strength("JH QH KH AH MI", WILD).label == "a royal flush, with mistigris"
    assert strength("AH 2H 3H 4H MI", WILD).key == (PokerCategory.STRAIGHT_FLUSH, 5)


def test_mistigris_makes_the_best_of_an_ordinary_hand():
    assert strength("AS KD 9C 4H MI", WILD).key[:2] == (PokerCategory.PAIR, 14)
    assert strength("9S 10D JC QH MI", WILD).key == (PokerCategory.STRAIGHT, 13)
    assert strength("9S 10D QC KH MI", WILD).key == (PokerCategory.STRAIGHT, 13)
    assert strength("AS AD 4C 4H MI", WILD).key == (PokerCategory.FULL_HOUSE, 14, 4)
    assert strength("2S 2D 2C 9H MI", WILD).key == (PokerCategory.FOURS, 2, 9)


def test_fives_option():
    # House rule (default): fours and the mistigris make fives, above a straight flush.
    fives = strength("AS AD AC AH MI", WILD)
    assert fives.key == (PokerCategory.FIVES, 14) and fives.label == "five aces, with mistigris"
    assert fives > strength("10S JS QS KS AS", WILD)
    # Without fives the mistigris cannot double a card: fours with the best kicker.
    no_fives = PokerOptions(mistigris=True, five_of_a_kind=False)
    assert strength("AS AD AC AH MI", no_fives).key == (PokerCategory.FOURS, 14, 13)
    assert strength("3S 3D 3C 3H MI", no_fives).key == (PokerCategory.FOURS, 3, 14)
    assert strength("3S 3D 3C 3H MI", no_fives) == strength("3S 3D 3C 3H AC", no_fives)


def test_mistigris_never_doubles_a_card_in_a_flush():
    # No "double-ace flush": A K Q 9 of hearts + mistigris is A K Q J 9, not A A K Q 9.
    assert strength("AH KH QH 9H MI", WILD).key == (PokerCategory.FLUSH, 14, 13, 12, 11, 9)


def test_mistigris_ties_a_natural_hand_by_default():
    wild = strength("7S 7H 7D 2C MI", WILD)
    natural = strength("7C 7S 7H 7D 2D", WILD)
    assert wild == natural and wild.label != natural.label


def test_natural_wins_ties_option():
    opts = PokerOptions(mistigris=True, natural_wins_ties=True)
    wild = strength("KS QS JS 10S MI", opts)
    natural = strength("10H JH QH KH AH", opts)
    assert natural > wild
    # ...but only a tie: a better hand with the mistigris still wins.
    assert strength("KS KD KC 2H MI", opts) > strength("QS QD QC QH 2S", opts)


def test_mistigris_refused_without_the_option():
    with pytest.raises(RuleError, match="without the mistigris"):
        strength("7S 7H 7D 2C MI")


# --- The Tiger ---------------------------------------------------------------------------------

TIGER = PokerOptions(tiger=True)


def test_tiger_beats_every_straight_and_loses_to_a_flush():
    tiger = strength("AC 2D 3H 4S 5C", TIGER)
    assert tiger.category == "the Tiger" and PokerCategory(tiger.key[0]) is PokerCategory.TIGER
    assert tiger > strength("10C JD QH KS AC", TIGER)
    assert tiger > strength("2C 3D 4H 5S 6C", TIGER)
    assert tiger < strength("2H 5H 9H JH KH", TIGER)
    assert tiger < strength("2C 2D 2H 4S 4C", TIGER)
    # Without the option it is the lowest straight.
    assert strength("AC 2D 3H 4S 5C") < strength("2C 3D 4H 5S 6C")


def test_tiger_suited_stays_the_lowest_straight_flush():
    assert category("AH 2H 3H 4H 5H", TIGER) is PokerCategory.STRAIGHT_FLUSH
    assert strength("AH 2H 3H 4H 5H", TIGER) < strength("2S 3S 4S 5S 6S", TIGER)


def test_ace_high_only():
    high = PokerOptions(ace_low_straights=False)
    assert category("AC 2D 3H 4S 5C", high) is PokerCategory.NO_PAIR
    assert category("AH 2H 3H 4H 5H", high) is PokerCategory.FLUSH
    assert category("10C JD QH KS AC", high) is PokerCategory.STRAIGHT
    both = PokerOptions(ace_low_straights=False, tiger=True)
    assert category("2C 3D 4H 5S 6C", both) is PokerCategory.TIGER
    assert category("AC 2D 3H 4S 5C", both) is PokerCategory.NO_PAIR


def test_tiger_with_mistigris():
    opts = PokerOptions(mistigris=True, tiger=True)
    # A 2 3 4 + mistigris: the Tiger (the lowest straight) beats 2-6 or a higher straight.
    assert category("AC 2D 3H 4S MI", opts) is PokerCategory.TIGER
    assert category("9C 10D JH QS MI", opts) is PokerCategory.STRAIGHT


def test_options_from_mapping():
    assert PokerOptions.from_mapping({"tiger": True}) == PokerOptions(tiger=True)
    assert PokerOptions.from_mapping(None) == PokerOptions()
    with pytest.raises(RuleError, match="“tigr” is not an option of poker"):
        PokerOptions.from_mapping({"tigr": True})
    with pytest.raises(RuleError, match="yes or no"):
        PokerOptions.from_mapping({"tiger": "yes"})


def test_wrong_count():
    with pytest.raises(RuleError):
        strength("AS KS QS JS")


# --- the fast tables agree with the readable ranking --------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        PokerOptions(),
        PokerOptions(tiger=True),
        PokerOptions(ace_low_straights=False, tiger=True),
        PokerOptions(mistigris=True),
        PokerOptions(mistigris=True, five_of_a_kind=False, natural_wins_ties=True, tiger=True),
    ],
)
def test_lookup_agrees_with_readable_ranking(options):
    table = lookup_for(options)
    pack = list(full_pack(with_mistigris=options.mistigris))
    rng = random.Random(8)
    hands = [rng.sample(pack, 5) for _ in range(3000)]
    hands += (
        [parse_cards(h) for h in ("AS AD AC AH MI", "AH 2H 3H 4H MI", "KS QS JS 10S MI")] if options.mistigris else []
    )
    for hand in hands:
        key = poker_strength(hand, options).key
        assert table.keys[table.rank_cards(hand)] == key, hand
