"""Exhaustive known answers for poker: every five-card hand of the 52- and 53-card packs.

Published counts (e.g. any table of five-card poker probabilities): straight flush 40 (4 of them
royal), fours 624, full house 3,744, flush 5,108, straight 10,200, threes 54,912, two pairs
123,552, a pair 1,098,240, no pair 1,302,540; 7,462 distinct strengths. With one fully wild card
(the mistigris, ``docs/rules/draw-poker.md``) over C(53,5) = 2,869,685 hands the published joker
table is: fives 13, straight flush 204, fours 3,120, full house 6,552, flush 7,804, straight
20,532, threes 137,280, two pairs 123,552, a pair 1,268,088, no pair 1,302,540.
"""

from collections import Counter
from itertools import combinations, pairwise
from math import comb

import pytest

from tables.cards import full_pack
from tables.formats.poker.poker import PokerCategory as C
from tables.formats.poker.poker import PokerOptions
from tables.formats.poker.poker_lookup import MISTIGRIS_CODE, card_code, lookup_for

pytestmark = pytest.mark.slow

CODES = [card_code(c) for c in full_pack()]
PUBLISHED = {
    C.STRAIGHT_FLUSH: 40,
    C.FOURS: 624,
    C.FULL_HOUSE: 3744,
    C.FLUSH: 5108,
    C.STRAIGHT: 10200,
    C.THREES: 54912,
    C.TWO_PAIRS: 123552,
    C.PAIR: 1098240,
    C.NO_PAIR: 1302540,
}


def classes(options):
    rank5 = lookup_for(options).rank5
    return [rank5(*h) for h in combinations(CODES, 5)]


def category_counts(options, hand_classes):
    cats = lookup_for(options).categories
    return Counter(cats[n] for n in hand_classes)


@pytest.fixture(scope="module")
def plain():
    return classes(PokerOptions())


def test_every_category_over_all_hands(plain):
    assert len(plain) == comb(52, 5) == 2_598_960
    assert category_counts(PokerOptions(), plain) == PUBLISHED
    table = lookup_for(PokerOptions())
    royal = next(n for n, key in enumerate(table.keys) if key == (C.STRAIGHT_FLUSH, 14))
    assert plain.count(royal) == 4


def test_distinct_strengths_and_their_sizes(plain):
    table = lookup_for(PokerOptions())
    assert table.class_count == 7462 == len(set(plain))
    sizes = Counter(plain)
    # Hands per strength class: e.g. each no-pair pattern is 4^5 - 4 = 1,020 hands.
    expected = {
        C.NO_PAIR: 1020,
        C.PAIR: 384,
        C.TWO_PAIRS: 144,
        C.THREES: 64,
        C.STRAIGHT: 1020,
        C.FLUSH: 4,
        C.FULL_HOUSE: 24,
        C.FOURS: 4,
        C.STRAIGHT_FLUSH: 4,
    }
    for n, size in sizes.items():
        assert size == expected[table.categories[n]]
    per_category = Counter(table.categories[n] for n in sizes)
    assert per_category == {
        C.NO_PAIR: 1277,
        C.PAIR: 2860,
        C.TWO_PAIRS: 858,
        C.THREES: 858,
        C.STRAIGHT: 10,
        C.FLUSH: 1277,
        C.FULL_HOUSE: 156,
        C.FOURS: 156,
        C.STRAIGHT_FLUSH: 10,
    }


def test_sorting_every_hand_gives_a_stable_documented_order(plain):
    """Documented order: by strength, lowest first; equal strengths keep pack order, i.e. the
    order of ``itertools.combinations(full_pack(), 5)`` (deuce of clubs first)."""
    order = sorted(range(len(plain)), key=plain.__getitem__)
    hands = list(combinations(full_pack(), 5))
    first, last = hands[order[0]], hands[order[-1]]
    assert " ".join(map(str, first)) == "2C 3C 4C 5C 7D"  # the worst hand: 7-5-4-3-2
    assert " ".join(map(str, last)) == "10S JS QS KS AS"  # the last royal flush
    assert all(plain[a] <= plain[b] for a, b in pairwise(order))
    # Stable: sorting again from a reversed list gives the same order of strengths and,
    # among equals, pack order.
    again = sorted(reversed(range(len(plain))), key=lambda i: (plain[i], i))
    assert again == order


def test_same_order_as_treys(plain):
    from treys import Card as TreysCard
    from treys import Evaluator

    five = Evaluator()._five
    treys_codes = [TreysCard.new(str(c).replace("10", "T")[0] + str(c)[-1].lower()) for c in full_pack()]
    assert all(ours + five(h) == 7463 for ours, h in zip(plain, combinations(treys_codes, 5), strict=True))


def test_tiger_counts():
    opts = PokerOptions(tiger=True)
    counts = category_counts(opts, classes(opts))
    assert counts == PUBLISHED | {C.STRAIGHT: 9180, C.TIGER: 1020}


def test_ace_high_only_counts():
    opts = PokerOptions(ace_low_straights=False, tiger=True)
    counts = category_counts(opts, classes(opts))
    # A-2-3-4-5 becomes no pair (1,020) or a flush (4, from the straight flushes); the Tiger
    # is then 2-3-4-5-6.
    assert counts == PUBLISHED | {
        C.STRAIGHT: 8160,
        C.TIGER: 1020,
        C.NO_PAIR: 1302540 + 1020,
        C.FLUSH: 5108 + 4,
        C.STRAIGHT_FLUSH: 36,
    }


def _brute_force_with_mistigris(options):
    """Independent check: for every four real cards, try each real card not held in place of
    the mistigris (plus a fifth card of fours when fives are allowed) with the natural ranker."""
    table = lookup_for(options)
    rank5, cats = table.rank5, table.categories
    fives = {key[1]: n for n, key in enumerate(table.keys) if key and key[0] == C.FIVES}
    counts = Counter()
    mismatches = 0
    for four in combinations(range(52), 4):
        a, b, c, d = (CODES[i] for i in four)
        best = max(rank5(a, b, c, d, CODES[x]) for x in range(52) if x not in four)
        ranks = {i // 4 for i in four}
        if len(ranks) == 1 and options.five_of_a_kind:
            best = fives[ranks.pop() + 2]
        fast = table.rank_codes((a, b, c, d, MISTIGRIS_CODE))
        mismatches += fast != best
        counts[cats[fast]] += 1
    return counts, mismatches


@pytest.mark.parametrize("fives", [True, False])
def test_53_card_pack_with_the_mistigris(fives, plain):
    opts = PokerOptions(mistigris=True, five_of_a_kind=fives)
    wild_counts, mismatches = _brute_force_with_mistigris(opts)
    assert mismatches == 0
    assert sum(wild_counts.values()) == comb(52, 4) == 270_725
    total = category_counts(opts, classes(opts)) + wild_counts
    assert sum(total.values()) == comb(53, 5) == 2_869_685
    published = {
        C.FIVES: 13,
        C.STRAIGHT_FLUSH: 204,
        C.FOURS: 3120,
        C.FULL_HOUSE: 6552,
        C.FLUSH: 7804,
        C.STRAIGHT: 20532,
        C.THREES: 137280,
        C.TWO_PAIRS: 123552,
        C.PAIR: 1268088,
        C.NO_PAIR: 1302540,
    }
    if not fives:  # four of a kind + mistigris stays fours (with the best kicker)
        published = {k: v for k, v in published.items() if k is not C.FIVES} | {C.FOURS: 3133}
    assert dict(total) == published
