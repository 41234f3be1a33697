"""Thirty-One (Schnautz): ranking three-card hands.

Source: ``docs/rules/thirty-one.md``: the object is "a flush of three cards of some
suit having a pip value of thirty-one; or else ... three of a kind. The aces are worth 11, the
other court cards and the ten, 10 each. If no one can get a flush worth thirty-one, three of a
kind wins the pool. If no one has three of a kind, the highest pip value shown in one suit wins."

So, from the highest: thirty-one (an ace and two ten-cards of one suit), then three of a kind
(house rule: aces high, deuces low, as for Commerce's triplets), then the most pips in one suit.
House rules where the text is silent: a single card is a suit's pip value too (the text counts
"pip value shown in one suit" and, unlike Commerce, does not exclude a single card); a tie goes
to the elder hand, the player nearest the dealer's left, the dealer last, as the sister game
My Ship Sails says (``docs/rules/my-ship-sails.md``); with ``split_ties`` the tied players divide
the pool instead. With ``higher_card_wins_ties`` (Hoyle's reading) equal totals are first
compared card by card, highest first, among the cards counted: ``AD KD QD`` beats ``AC JC 10C``
on the king, though both are thirty-one.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.cards import Card, CardError, Rank, Suit
from tables.formats.poker.hands import HandStrength, first_difference, pips_by_suit, ranks_words
from tables.game_options import options_from_mapping
from tables.words import joined


class ThirtyOneCategory(enum.IntEnum):
    """The kinds of Thirty-One hand, lowest first."""

    PIPS = 0
    THREE_OF_A_KIND = 1
    THIRTY_ONE = 2


@dataclass(frozen=True, slots=True)
class ThirtyOneOptions:
    """Thirty-One's rule variants (the seed is silent on ties).

    ``higher_card_wins_ties``: two equal totals (or two thirty-ones) are compared by the cards
    counted, highest first, and the hand with the higher card wins (Hoyle's reading); hands
    still equal go to the elder hand or divide, as ``split_ties`` says. ``split_ties``: tied
    hands divide the pool instead of the elder hand winning (house rule).
    """

    split_ties: bool = False
    higher_card_wins_ties: bool = False

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> ThirtyOneOptions:
        """Options from a mapping; raises ``RuleError`` for an unknown name."""
        return options_from_mapping(cls, values, "Thirty-One")


def _counted(cards: Sequence[Card]) -> dict[Suit, tuple[int, tuple[int, ...]]]:
    """For each suit held: (pips, the ranks of its cards highest first)."""
    totals = pips_by_suit(cards)
    return {
        suit: (pips, tuple(sorted((int(c.rank) for c in cards if c.suit is suit and c.rank is not None), reverse=True)))
        for suit, (pips, _) in totals.items()
    }


def thirty_one_strength(cards: Sequence[Card], options: ThirtyOneOptions = ThirtyOneOptions()) -> HandStrength:
    """Rank a three-card Thirty-One hand.

    Returns a ``HandStrength`` keyed ``(2,)`` for thirty-one, ``(1, rank)`` for three of a kind,
    ``(0, pips)`` for the best suit's pips; with ``higher_card_wins_ties`` the ranks of the
    cards counted follow (highest first, three items, 0 for a missing card), so the hand with
    the higher card ranks higher. When two suits give the same best total the label names both
    (or, with ``higher_card_wins_ties``, the one with the higher card, which is the one
    counted). Raises ``CardError`` for a wrong count or the mistigris.
    """
    if len(cards) != 3 or any(c.is_mistigris for c in cards):
        raise CardError("A Thirty-One hand is three cards of the 52-card pack.")
    counted = _counted(cards)

    def order(s: Suit) -> tuple[int, tuple[int, ...]]:
        return counted[s][0], counted[s][1] if options.higher_card_wins_ties else ()

    top = max(order(s) for s in counted)
    best = sorted((s for s in counted if order(s) == top), key=lambda s: "SHDC".index(s.value))
    pips, ranks = counted[best[0]]
    tail = (ranks + (0, 0, 0))[:3] if options.higher_card_wins_ties else ()
    suit = best[0]
    if len(counted) == 1 and pips == 31:
        return HandStrength(
            (ThirtyOneCategory.THIRTY_ONE, *tail),
            "thirty-one",
            f"thirty-one in {suit.word}",
            f"three {suit.word} worth 31 ({ranks_words(ranks)}) make thirty-one",
        )
    kinds = {c.rank for c in cards if c.rank is not None}  # (no mistigris here: checked above)
    if len(kinds) == 1:
        rank = Rank(next(iter(kinds)))
        return HandStrength(
            (ThirtyOneCategory.THREE_OF_A_KIND, rank),
            "three of a kind",
            f"three {rank.plural}",
            f"three {rank.plural} make three of a kind",
        )
    suits = " or ".join(s.word for s in best)
    if len(best) == 1:
        why = f"the best suit is {suit.word}: {pips} pips in {_cards(len(ranks))} ({ranks_words(ranks)})"
    else:
        each = joined(f"{s.word} ({ranks_words(counted[s][1])})" for s in best)
        why = f"the best suits are {each}, {pips} pips each"
    return HandStrength((ThirtyOneCategory.PIPS, pips, *tail), "pips", f"{pips} in {suits}", why)


def _cards(count: int) -> str:
    return {1: "one card", 2: "two cards", 3: "three cards"}[count]


def describe_beats(winner: HandStrength, loser: HandStrength) -> str:
    """Why ``winner`` beats ``loser`` in words. Equal totals decided by the higher card (the
    option ``higher_card_wins_ties``) name the cards counted and the card that decides:
    "thirty-one in diamonds, ace-king-queen, which beats thirty-one in clubs, ace-jack-ten:
    the king beats the jack (the higher card wins ties)"."""
    if winner.key[:2] != loser.key[:2] or winner.key[0] == ThirtyOneCategory.THREE_OF_A_KIND:
        return f"{winner.label}, which beats {loser.label}"
    start = 1 if winner.key[0] == ThirtyOneCategory.THIRTY_ONE else 2
    mine, theirs = winner.key[start:], loser.key[start:]
    at = first_difference(mine, theirs)
    if at is None:
        return f"{winner.label}, which beats {loser.label}"
    return (
        f"{winner.label}, {ranks_words(r for r in mine if r)}, which beats {loser.label}, "
        f"{ranks_words(r for r in theirs if r)}: the {_word(mine[at])} beats the {_word(theirs[at])} "
        "(the higher card wins ties)"
    )


def _word(rank: int) -> str:
    return Rank(rank).word if rank else "missing card"
