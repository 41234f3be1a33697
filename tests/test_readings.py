"""The seed games' other readings (as options) and verdicts that name exactly what decided.

Worked examples first (each from the issue that asked for the reading, with the source named in
the option's docstring), then property tests: with an option off the old verdict stands, with
it on the new reading decides exactly the hands it speaks of, and every explanation names only
ranks and suits that are in the hand it describes.
"""

from __future__ import annotations

import random
import re
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.cards import Card, Rank, Suit, full_pack, parse_cards
from tables.errors import RuleError
from tables.formats.poker.commerce import CommerceCategory, CommerceOptions, commerce_strength
from tables.formats.poker.poker import PokerCategory, PokerOptions, poker_strength
from tables.formats.poker.ship import ship_strength
from tables.formats.poker.showdown import showdown
from tables.formats.poker.thirty_one import ThirtyOneOptions, thirty_one_strength

HIGHER = {"higher_card_wins_ties": True}


# --- Thirty-One: the hand with the higher card -------------------------------------------------


def test_thirty_one_higher_card_wins_the_tie_on_the_king():
    result = showdown("thirty_one", ["AC JC 10C", "AD KD QD"], dealer_seat=2, options=HIGHER)
    assert result.winners == (2,)
    assert result.verdict == (
        "Seat 2 wins the pool with thirty-one in diamonds, ace-king-queen, which beats thirty-one in clubs, "
        "ace-jack-ten: the king beats the jack (the higher card wins ties)."
    )


def test_thirty_one_without_the_option_the_elder_hand_wins_and_each_suit_is_named():
    result = showdown("thirty_one", ["AC JC 10C", "AD KD QD"], dealer_seat=2)
    assert result.winners == (1,)  # seat 1 is the dealer's left, the elder hand
    assert result.verdict.startswith("Seat 1 (thirty-one in clubs) and seat 2 (thirty-one in diamonds) tie;")


def test_thirty_one_higher_card_still_equal_goes_to_the_elder_hand_or_divides():
    hands = ["AC KC 3D", "AH KH 2S"]  # 21 in clubs (ace-king) and 21 in hearts (ace-king)
    elder = showdown("thirty_one", hands, dealer_seat=1, options=HIGHER)
    assert elder.winners == (2,) and "the elder hand" in elder.verdict
    divided = showdown("thirty_one", hands, dealer_seat=1, options=HIGHER | {"split_ties": True})
    assert divided.winners == (1, 2) and "divide the pool" in divided.verdict


def test_thirty_one_higher_card_compares_the_cards_counted_highest_first():
    options = ThirtyOneOptions(higher_card_wins_ties=True)
    ace_ten = thirty_one_strength(parse_cards("AH 10H 2C"), options)  # 21: ace, ten
    ace_eight_deuce = thirty_one_strength(parse_cards("AS 8S 2S"), options)  # 21: ace, eight, deuce
    assert ace_ten > ace_eight_deuce
    assert thirty_one_strength(parse_cards("AH 10H 2C")) == thirty_one_strength(parse_cards("AS 8S 2S"))


def test_thirty_one_two_suits_with_the_same_best_total_are_both_named():
    plain = thirty_one_strength(parse_cards("AH 9S 2S"))
    assert plain.label == "11 in spades or hearts"
    assert plain.reason == "the best suits are spades (nine-deuce) and hearts (ace), 11 pips each"
    # With the higher card deciding, the rules count the suit holding the ace.
    counted = thirty_one_strength(parse_cards("AH 9S 2S"), ThirtyOneOptions(higher_card_wins_ties=True))
    assert counted.label == "11 in hearts"


# --- Mistigris: the hand with the mistigris wins -----------------------------------------------

WILD_HANDS = ["MI QD JD 10D 9D", "KC QC JC 10C 9C"]


def test_mistigris_wins_ties_option():
    result = showdown("draw_poker", WILD_HANDS, dealer_seat=1, options={"mistigris": True, "mistigris_wins_ties": True})
    assert result.winners == (1,)
    assert result.verdict == (
        "Seat 1 wins the pool with a straight flush, king high, with mistigris, which beats a straight flush, "
        "king high: the hand with the mistigris wins a tie with the same natural hand (as some books read it)."
    )


def test_natural_wins_ties_option_the_other_way():
    result = showdown("draw_poker", WILD_HANDS, dealer_seat=1, options={"mistigris": True, "natural_wins_ties": True})
    assert result.winners == (2,)
    assert "a natural hand wins a tie with the same hand made with the mistigris (house rule)" in result.verdict


def test_mistigris_tie_divides_by_default_and_each_hand_speaks_for_itself():
    result = showdown("draw_poker", WILD_HANDS, dealer_seat=1, options={"mistigris": True})
    assert result.winners == (1, 2)
    assert result.verdict == (
        "Seat 1 (a straight flush, king high, with mistigris) and seat 2 (a straight flush, king high) "
        "tie and divide the pool."
    )


def test_both_readings_of_a_mistigris_tie_at_once_are_refused():
    with pytest.raises(RuleError, match="Choose one reading"):
        PokerOptions.from_mapping({"mistigris": True, "natural_wins_ties": True, "mistigris_wins_ties": True})


# --- Commerce: equal pairs decided by the odd card ---------------------------------------------

ODD = {"pair": True, "odd_card_decides_pairs": True}


def test_commerce_equal_pairs_decided_by_the_odd_card():
    result = showdown("commerce", ["9C 9D 3S", "9H 9S 10C"], dealer_seat=1, options=ODD)
    assert result.winners == (2,)
    assert result.verdict.startswith(
        "Seat 2 wins the pool with a pair of nines with a ten, which beats a pair of nines with a trey: "
        "the higher odd card decides equal pairs."
    )


def test_commerce_equal_pairs_without_the_option_go_to_the_dealer():
    result = showdown("commerce", ["9C 9D 3S", "9H 9S 10C"], dealer_seat=1, options={"pair": True})
    assert result.winners == (1,)


def test_commerce_equal_pairs_and_odd_cards_go_to_the_dealer_or_nearest_his_left():
    result = showdown("commerce", ["5C 9C 9D", "9H 9S 5D", "2C 3D 7H"], dealer_seat=3, options=ODD)
    assert result.winners == (1,)  # seat 1 is nearest the dealer's left


def test_odd_card_option_needs_the_pair():
    with pytest.raises(RuleError, match="turn on the pair too"):
        CommerceOptions.from_mapping({"odd_card_decides_pairs": True})


# --- My Ship Sails during play ------------------------------------------------------------------


def test_my_ship_sails_during_play_a_two_card_flush_does_not_end_the_deal():
    result = showdown("my_ship_sails", ["AS KS 9D", "QD JD AH", "2C 5H 8S"], dealer_seat=3, during_play=True)
    assert result.winners == () and result.worst == ()
    assert result.verdict.startswith("No winner yet: no one holds a flush of three cards")


def test_my_ship_sails_during_play_a_flush_of_three_ends_it():
    result = showdown("my_ship_sails", ["AS KS 9D", "2H 3H 5H", "2C 5C 8S"], dealer_seat=3, during_play=True)
    assert result.winners == (2,)
    assert result.verdict.startswith("My ship sails: seat 2 wins the pool with a flush of hearts, 10 pips")


def test_my_ship_sails_after_the_exchanges_a_two_card_flush_wins():
    result = showdown("my_ship_sails", ["AS KS 9D", "QD JD AH", "2C 5H 8S"], dealer_seat=3)
    assert result.winners == (1,)


def test_only_my_ship_sails_is_decided_during_play():
    with pytest.raises(RuleError, match="Only My Ship Sails"):
        showdown("draw_poker", ["AS KS QS JS 10S", "2C 3D 4H 5S 7C"], dealer_seat=1, during_play=True)


# --- verdicts that say exactly why ---------------------------------------------------------------


def test_whiskey_poker_without_money_names_no_pool_winner():
    result = showdown(
        "whiskey_poker", ["AS AD 9C 8C 2H", "2C 3D 4H 5S 7C"], dealer_seat=1, options={"with_money": False}
    )
    assert result.winners == ()
    assert "wins" not in result.verdict
    assert result.verdict == (
        "Without money there is no pool: seat 2 has the worst hand (no pair, seven high) "
        "and puts one counter in the middle."
    )


def test_a_flush_decided_by_its_fifth_card_names_it():
    result = showdown("draw_poker", ["AS JS 9S 4S 2S", "AH JH 9H 4H 3H"], dealer_seat=1)
    assert result.verdict == (
        "Seat 2 wins the pool with a flush, ace-jack-nine-four-trey, which beats a flush, "
        "ace-jack-nine-four-deuce (the trey decides)."
    )


def test_kickers_for_a_pair_and_two_pairs():
    pair = showdown("draw_poker", ["KS KD QC 7H 3S", "KH KC AC 5D 2S"], dealer_seat=1)
    assert (
        pair.verdict
        == "Seat 2 wins the pool with a pair of kings with an ace, which beats a pair of kings with a queen."
    )
    second = showdown("draw_poker", ["KS KD AC 7H 3S", "KH KC AD 9D 2S"], dealer_seat=1)
    assert second.verdict == (
        "Seat 2 wins the pool with a pair of kings with an ace and a nine, which beats "
        "a pair of kings with an ace and a seven."
    )
    two = showdown("draw_poker", ["KS KD 7C 7H QS", "KH KC 7D 7S AS"], dealer_seat=1)
    assert two.verdict == (
        "Seat 2 wins the pool with two pairs, kings and sevens, with an ace, which beats "
        "two pairs, kings and sevens, with a queen."
    )


def test_fours_read_as_four_of_a_rank():
    result = showdown("draw_poker", ["4S 4C 4D 4H QS", "5H 5D 5S 5C AH"], dealer_seat=1)
    assert result.verdict == "Seat 2 wins the pool with four fives, which beats four fours."


def test_four_in_sequence_only_for_four_in_a_row_and_the_gap_is_named():
    wild = PokerOptions(mistigris=True)
    gap = poker_strength(parse_cards("5H 6H 8H 9H MI"), wild)
    assert "in sequence" not in gap.reason
    assert gap.reason == (
        "four hearts with mistigris make a straight flush (a straight flush, nine high; "
        "the mistigris stands for the seven of hearts and fills the gap between the six and the eight)"
    )
    row = poker_strength(parse_cards("6H 7H 8H 9H MI"), wild)
    assert row.reason.startswith("four hearts in sequence with mistigris")
    assert "gap" not in row.reason
    mixed = poker_strength(parse_cards("7C 8D 10H JS MI"), wild)
    assert "fills the gap between the eight and the ten" in mixed.reason


# --- property tests: each option changes exactly the hands it speaks of -----------------------

PACK = list(full_pack())
WILD_PACK = list(full_pack(with_mistigris=True))


def _two_hands(draw, pack, size):
    cards = draw(st.permutations(pack))[: 2 * size]
    return cards[:size], cards[size:]


@st.composite
def three_card_pairs(draw):
    return _two_hands(draw, PACK, 3)


@st.composite
def poker_pairs(draw):
    return _two_hands(draw, WILD_PACK, 5)


def _winner(game, a, b, options, dealer=2):
    return showdown(game, [" ".join(map(str, a)), " ".join(map(str, b))], dealer_seat=dealer, options=options).winners


@settings(max_examples=300, deadline=None)
@given(three_card_pairs(), st.booleans())
def test_thirty_one_higher_card_changes_only_tied_totals(hands, split):
    a, b = hands
    off, on = ThirtyOneOptions(split_ties=split), ThirtyOneOptions(split_ties=split, higher_card_wins_ties=True)
    plain_a, plain_b = thirty_one_strength(a, off), thirty_one_strength(b, off)
    before = _winner("thirty_one", a, b, {"split_ties": split})
    after = _winner("thirty_one", a, b, {"split_ties": split, "higher_card_wins_ties": True})
    if plain_a != plain_b:
        assert after == before
        return
    counted_a, counted_b = thirty_one_strength(a, on).key, thirty_one_strength(b, on).key
    if counted_a == counted_b:
        assert after == before
    else:
        assert after == ((1,) if counted_a > counted_b else (2,))


@settings(max_examples=300, deadline=None)
@given(poker_pairs())
def test_mistigris_readings_change_only_ties_between_a_wild_and_a_natural_hand(hands):
    a, b = hands
    base = {"mistigris": True}
    divided = _winner("draw_poker", a, b, base)
    natural = _winner("draw_poker", a, b, base | {"natural_wins_ties": True})
    wild = _winner("draw_poker", a, b, base | {"mistigris_wins_ties": True})
    sa, sb = poker_strength(a, PokerOptions(mistigris=True)), poker_strength(b, PokerOptions(mistigris=True))
    if sa != sb or sa.wild == sb.wild:
        assert divided == natural == wild
        return
    assert divided == (1, 2)
    wild_seat = 1 if sa.wild else 2
    assert wild == (wild_seat,) and natural == (3 - wild_seat,)


def test_mistigris_readings_on_every_tied_pattern():
    """Every natural straight flush against the same straight flush made with the mistigris."""
    for top in range(6, 15):
        natural = " ".join(str(Card(Rank(r), Suit.CLUBS)) for r in range(top - 4, top + 1))
        made = " ".join(["MI"] + [str(Card(Rank(r), Suit.DIAMONDS)) for r in range(top - 4, top)])
        base = {"mistigris": True}
        assert _winner("draw_poker", parse_cards(made), parse_cards(natural), base) == (1, 2)
        assert _winner("draw_poker", parse_cards(made), parse_cards(natural), base | {"mistigris_wins_ties": True}) == (
            1,
        )
        assert _winner("draw_poker", parse_cards(made), parse_cards(natural), base | {"natural_wins_ties": True}) == (
            2,
        )


@settings(max_examples=300, deadline=None)
@given(three_card_pairs())
def test_commerce_odd_card_changes_only_equal_pairs(hands):
    a, b = hands
    before = _winner("commerce", a, b, {"pair": True})
    after = _winner("commerce", a, b, ODD)
    sa, sb = commerce_strength(a, CommerceOptions(pair=True)), commerce_strength(b, CommerceOptions(pair=True))
    if not (sa == sb and sa.key[0] == CommerceCategory.PAIR):
        assert after == before
        return
    odd = [min(set(r), key=r.count) for r in ([int(c.rank) for c in h] for h in (a, b))]
    if odd[0] == odd[1]:
        assert after == before
    else:
        assert after == ((1,) if odd[0] > odd[1] else (2,))


def test_commerce_odd_card_on_every_pair_of_equal_pairs():
    """Exhaustive: every two hands holding the same pair, the higher odd card wins."""
    checked = 0
    for rank in (Rank.NINE, Rank.ACE, Rank.TWO):
        pairs = list(combinations([Card(rank, s) for s in Suit], 2))
        for first, second in ((p, q) for p in pairs for q in pairs if not set(p) & set(q)):
            for odd_a, odd_b in ((Rank.TEN, Rank.THREE), (Rank.FOUR, Rank.KING)):
                a = [*first, Card(odd_a, Suit.CLUBS if Card(odd_a, Suit.CLUBS) not in second else Suit.SPADES)]
                b = [*second, Card(odd_b, Suit.HEARTS if Card(odd_b, Suit.HEARTS) not in first else Suit.DIAMONDS)]
                if len(set(a) | set(b)) < 6:
                    continue
                expected = (1,) if odd_a > odd_b else (2,)
                assert _winner("commerce", a, b, ODD, dealer=2) == expected
                checked += 1
    assert checked == 36  # 3 ranks x 6 ordered ways to split four cards into two pairs x 2 odd-card pairs


# --- every explanation names only what is in the hand -----------------------------------------

_RANK_WORDS = {r.word: r for r in Rank} | {r.plural: r for r in Rank}
_COUNT = re.compile(r"\b(two|three|four|five) (?=\w+s\b|\w+ cards\b|cards\b)|\bmake (fours|threes|fives)\b")
_STAND_IN = re.compile(r"stands for (?:the (\w+) of (\w+)|a fifth (\w+))")


def _named(text):
    """The ranks and suits a text names (counts such as "four hearts" are not ranks)."""
    text = _COUNT.sub("", text)
    words = re.findall(r"[a-z]+", text)
    ranks = {_RANK_WORDS[w] for w in words if w in _RANK_WORDS}
    suits = {s for s in Suit if s.word in words}
    return ranks, suits


def _check_explanation(cards, strength):
    real = [c for c in cards if not c.is_mistigris]
    ranks, suits = {c.rank for c in real}, {c.suit for c in real}
    text = f"{strength.label}. {strength.reason}"
    stand_in = _STAND_IN.search(text)
    if stand_in:
        rank_word, suit_word, fifth = stand_in.groups()
        ranks.add(_RANK_WORDS[rank_word or fifth])
        if suit_word:
            suits.add(Suit[suit_word.upper()])
    named_ranks, named_suits = _named(text)
    assert named_ranks <= ranks, (cards, text)
    assert named_suits <= suits, (cards, text)


EVERY_CATEGORY = [
    "2C 5D 9H JS KC",
    "QS QD 4C 7H 9S",
    "JS JD 4C 4H 9S",
    "8S 8D 8C 2H 9S",
    "5C 6D 7H 8S 9C",
    "2H 6H 8H 9H JH",
    "KS KD KC 3H 3S",
    "6S 6D 6C 6H AS",
    "5D 6D 7D 8D 9D",
    "AC 2D 3H 4S 5C",
]
EVERY_WILD_CATEGORY = ["AS AD AC AH MI", "5H 6H 8H 9H MI", "7C 8D 10H JS MI", "KS KD 3C 3H MI", "2C 4D 7H 9S MI"]


@pytest.mark.parametrize(
    "options", [PokerOptions(), PokerOptions(mistigris=True), PokerOptions(mistigris=True, tiger=True)]
)
def test_poker_explanations_name_only_cards_in_the_hand(options):
    rng = random.Random(14)
    pack = list(full_pack(with_mistigris=options.mistigris))
    hands = [rng.sample(pack, 5) for _ in range(3000)]
    hands += [parse_cards(h) for h in EVERY_CATEGORY]  # one hand of each kind, so none is left untried
    if options.mistigris:
        hands += [parse_cards(h) for h in EVERY_WILD_CATEGORY]
    categories = set()
    for hand in hands:
        strength = poker_strength(hand, options)
        categories.add(PokerCategory(strength.key[0]))
        _check_explanation(hand, strength)
    expected = set(PokerCategory) - ({PokerCategory.TIGER} if not options.tiger else set())
    expected -= {PokerCategory.FIVES} if not options.mistigris else set()
    assert categories == expected


def test_three_card_explanations_name_only_cards_in_the_hand():
    checks = 0
    for hand in combinations(PACK, 3):
        if sum(c.rank for c in hand) % 7:  # every seventh hand or so: 3,000-odd hands, every category
            continue
        for strength in (
            thirty_one_strength(hand),
            thirty_one_strength(hand, ThirtyOneOptions(higher_card_wins_ties=True)),
            commerce_strength(hand, CommerceOptions(flush=True, pair=True, odd_card_decides_pairs=True)),
            ship_strength(hand),
        ):
            _check_explanation(list(hand), strength)
            checks += 1
    assert checks > 10000


@settings(max_examples=200, deadline=None)
@given(poker_pairs())
def test_the_deciding_card_named_in_a_verdict_is_in_the_winning_hand(hands):
    a, b = hands
    result = showdown(
        "draw_poker", [" ".join(map(str, a)), " ".join(map(str, b))], dealer_seat=1, options={"mistigris": True}
    )
    decides = re.search(r"\(the (\w+) decides\)", result.verdict)
    if decides:
        winner = a if result.winners == (1,) else b
        stand = _STAND_IN.search(result.hand_at(result.winners[0]).reason)
        ranks = {c.rank for c in winner if not c.is_mistigris}
        if stand:
            ranks.add(_RANK_WORDS[stand.group(1) or stand.group(3)])
        assert _RANK_WORDS[decides.group(1)] in ranks
