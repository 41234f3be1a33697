"""Commerce: ranking three-card hands, and the dealer's payments.

Source: ``docs/rules/commerce.md`` (Commerce without and with a widow). From the highest:

* Triplets: three aces the highest, three deuces the lowest. "Pairs have no value."
* Sequence flushes: three cards of one suit in sequence, "the ace being allowed to rank as the
  top or the bottom; Q K A, or A 2 3". Q K A is the best, A 2 3 the lowest; K A 2 is no
  sequence (house rule: no going round the corner).
* The point: "the greatest number of pips on two or three cards of the same suit in one hand,
  counting the ace for eleven, and the other court-cards for ten each. A single card of a suit
  does not count for the point." A point of three cards beats an equal point of two cards;
  a hand with three different suits has no point and loses to any point.
* Optional (``CommerceOptions``): "A flush, three cards of one suit, ranking next below the
  straight flush; and a single pair outranking the point."

House rules where the text is silent: flushes compare by their point (their pips), and pairs by
the rank of the pair (aces high); with ``odd_card_decides_pairs`` (the reading some books give)
equal pairs are decided by the odd card, the higher third card winning (``9C 9D 3S`` loses to
``9H 9S 10C``); any tie that the ranking leaves, in any category, goes to
"the dealer, or the player nearest him on his left" as the text says for the point (applied by
``tables.formats.poker.showdown``).

The dealer's payments (without a widow only; "the dealer makes no extra payments" with one):
if the dealer does not win the pool he pays one white counter to the winner; if he holds "a
combination of the same rank as the one that wins the pool" he pays one white counter to every
other player instead. The point is one of the listed combinations, so a dealer holding any point
when a point wins pays everyone (``point_is_combination``, default on; off makes only triplets,
sequence flushes and the optional flush and pair count).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.cards import Card, CardError, Rank
from tables.formats.poker.hands import HandStrength, pips_by_suit, with_a
from tables.game_options import UnknownOptionError, options_from_mapping


class CommerceCategory(enum.IntEnum):
    """The kinds of Commerce hand, lowest first."""

    NO_POINT = 0
    POINT = 1
    PAIR = 2
    FLUSH = 3
    SEQUENCE_FLUSH = 4
    TRIPLETS = 5

    @property
    def words(self) -> str:
        """The category in words: "triplets", "a sequence flush", "the point"."""
        return _WORDS[self]


_WORDS = {
    CommerceCategory.NO_POINT: "no point",
    CommerceCategory.POINT: "the point",
    CommerceCategory.PAIR: "a pair",
    CommerceCategory.FLUSH: "a flush",
    CommerceCategory.SEQUENCE_FLUSH: "a sequence flush",
    CommerceCategory.TRIPLETS: "triplets",
}


@dataclass(frozen=True, slots=True)
class CommerceOptions:
    """Commerce's rule variants (``docs/rules/commerce.md``).

    ``flush``: three cards of one suit rank next below the sequence flush; ``pair``: a pair
    outranks the point; ``widow``: the game is played with a widow (counters of no value, no
    dealer's payments); ``point_is_combination``: a dealer holding a point when a point wins
    pays every other player (see the module docstring); ``odd_card_decides_pairs``: of two equal
    pairs the one with the higher odd card wins (needs ``pair``).
    """

    flush: bool = False
    pair: bool = False
    widow: bool = False
    point_is_combination: bool = True
    odd_card_decides_pairs: bool = False

    def __post_init__(self) -> None:
        if self.odd_card_decides_pairs and not self.pair:
            raise UnknownOptionError(
                "Equal pairs can be decided by the odd card only when pairs count: turn on the pair too."
            )

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> CommerceOptions:
        """Options from a mapping such as ``{"flush": True}``; raises ``RuleError`` for an
        unknown name."""
        return options_from_mapping(cls, values, "Commerce")


def sequence_top(ranks: Sequence[int]) -> int:
    """The top rank of three ranks in sequence (3 for A 2 3, 14 for Q K A), else 0."""
    low, mid, high = sorted(ranks)
    if mid == low + 1 and high == mid + 1:
        return high
    if (low, mid, high) == (2, 3, 14):
        return 3
    return 0


def commerce_strength(cards: Sequence[Card], options: CommerceOptions = CommerceOptions()) -> HandStrength:
    """Rank a three-card Commerce hand.

    Takes three real cards; returns a ``HandStrength`` keyed ``(category, ...)``: triplets by
    rank, sequence flushes by top card, flushes by pips, pairs by rank, the point by
    ``(pips, number of cards)``. Raises ``CardError`` for a wrong count or the mistigris.
    """
    if len(cards) != 3 or any(c.is_mistigris for c in cards):
        raise CardError("A Commerce hand is three cards of the 52-card pack.")
    ranks = [int(c.rank) for c in cards]  # type: ignore[arg-type]
    suits = {c.suit for c in cards}
    if len(set(ranks)) == 1:
        rank = Rank(ranks[0])
        words = f"triplets, {rank.plural}"
        return HandStrength((CommerceCategory.TRIPLETS, rank), "triplets", words, f"three {rank.plural} make triplets")
    top = sequence_top(ranks) if len(suits) == 1 else 0
    if top:
        names = "-".join(Rank(r).symbol for r in _sequence_ranks(top))
        words = f"a sequence flush, {names}"
        return HandStrength(
            (CommerceCategory.SEQUENCE_FLUSH, top),
            "a sequence flush",
            words,
            f"{names} of {next(iter(suits)).word} make a sequence flush",  # type: ignore[union-attr]
        )
    if options.flush and len(suits) == 1:
        pips = sum(c.pips for c in cards)
        suit = next(iter(suits))
        return HandStrength(
            (CommerceCategory.FLUSH, pips),
            "a flush",
            f"a flush of {suit.word}, {pips} pips",  # type: ignore[union-attr]
            f"three {suit.word} make a flush of {pips} pips",  # type: ignore[union-attr]
        )
    if options.pair and len(set(ranks)) == 2:
        return _pair_strength(ranks, options)
    return _point_strength(cards)


def _pair_strength(ranks: list[int], options: CommerceOptions) -> HandStrength:
    """The strength of a pair, from the hand's three ``ranks`` (two equal, 2..14): keyed by the
    pair's rank, then the odd card's when ``odd_card_decides_pairs``."""
    pair = Rank(max(set(ranks), key=ranks.count))
    if options.odd_card_decides_pairs:
        odd = min(set(ranks), key=ranks.count)
        return HandStrength(
            (CommerceCategory.PAIR, pair, odd),
            "a pair",
            f"a pair of {pair.plural}",
            f"two {pair.plural} make a pair, which outranks the point; the odd card is {with_a(odd)}",
        )
    return HandStrength(
        (CommerceCategory.PAIR, pair),
        "a pair",
        f"a pair of {pair.plural}",
        f"two {pair.plural} make a pair, which outranks the point",
    )


def _point_strength(cards: Sequence[Card]) -> HandStrength:
    """The point of three cards: the most pips in two or three cards of one suit, keyed
    ``(pips, number of cards)``; "no point" when the three suits differ."""
    totals = pips_by_suit(cards)
    best = max(((pips, n, suit) for suit, (pips, n) in totals.items() if n >= 2), default=None)
    if best is None:
        return HandStrength(
            (CommerceCategory.NO_POINT,),
            "no point",
            "no point",
            "three different suits: no point (a single card does not count)",
        )
    pips, n, suit = best
    count = "three" if n == 3 else "two"
    words = f"the point, {pips} in {count} {suit.word}"
    return HandStrength(
        (CommerceCategory.POINT, pips, n), "the point", words, f"{count} {suit.word} make a point of {pips}"
    )


def _sequence_ranks(top: int) -> tuple[int, int, int]:
    return (14, 2, 3) if top == 3 else (top - 2, top - 1, top)


def is_combination(strength: HandStrength, options: CommerceOptions) -> bool:
    """Whether a hand counts as a "combination" for the dealer's payments: triplets, a
    sequence flush, the optional flush and pair, and (with ``point_is_combination``) a point."""
    category = strength.key[0]
    if category == CommerceCategory.NO_POINT:
        return False
    if category == CommerceCategory.POINT:
        return options.point_is_combination
    return True


def describe_beats(winner: HandStrength, loser: HandStrength) -> str:
    """Why ``winner`` beats ``loser`` in words; equal pairs decided by the odd card say so:
    "a pair of nines with a ten, which beats a pair of nines with a trey: the higher odd card
    decides equal pairs"."""
    pairs = winner.key[0] == loser.key[0] == CommerceCategory.PAIR
    if pairs and len(winner.key) == 3 and winner.key[1] == loser.key[1]:
        return (
            f"{winner.label} with {with_a(winner.key[2])}, which beats {loser.label} with "
            f"{with_a(loser.key[2])}: the higher odd card decides equal pairs"
        )
    return f"{winner.label}, which beats {loser.label}"
