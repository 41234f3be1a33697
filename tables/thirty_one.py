"""Thirty-One (Schnautz): ranking three-card hands.

Source: ``004_5d1bc750ac89c154.txt`` (Thirty-One): the object is "a flush of three cards of some
suit having a pip value of thirty-one; or else ... three of a kind. The aces are worth 11, the
other court cards and the ten, 10 each. If no one can get a flush worth thirty-one, three of a
kind wins the pool. If no one has three of a kind, the highest pip value shown in one suit wins."

So, from the highest: thirty-one (an ace and two ten-cards of one suit), then three of a kind
(house rule: aces high, deuces low, as for Commerce's triplets), then the most pips in one suit.
House rules where the text is silent: a single card is a suit's pip value too (the text counts
"pip value shown in one suit" and, unlike Commerce, does not exclude a single card); a tie goes
to the elder hand, the player nearest the dealer's left, the dealer last, as the sister game
My Ship Sails says (``003_88db352551cf95c8.txt``); with ``split_ties`` the tied players divide
the pool instead.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.cards import Card, CardError, Rank
from tables.game_options import options_from_mapping
from tables.hands import HandStrength, pips_by_suit


class ThirtyOneCategory(enum.IntEnum):
    """The kinds of Thirty-One hand, lowest first."""

    PIPS = 0
    THREE_OF_A_KIND = 1
    THIRTY_ONE = 2


@dataclass(frozen=True, slots=True)
class ThirtyOneOptions:
    """Thirty-One's rule variants. ``split_ties``: tied hands divide the pool instead of the
    elder hand winning (house rule; the seed is silent on ties)."""

    split_ties: bool = False

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> ThirtyOneOptions:
        """Options from a mapping; raises ``RuleError`` for an unknown name."""
        return options_from_mapping(cls, values, "Thirty-One")


def thirty_one_strength(cards: Sequence[Card]) -> HandStrength:
    """Rank a three-card Thirty-One hand.

    Returns a ``HandStrength`` keyed ``(2,)`` for thirty-one, ``(1, rank)`` for three of a kind,
    ``(0, pips)`` for the best suit's pips. Raises ``CardError`` for a wrong count or the
    mistigris.
    """
    if len(cards) != 3 or any(c.is_mistigris for c in cards):
        raise CardError("A Thirty-One hand is three cards of the 52-card pack.")
    totals = pips_by_suit(cards)
    pips, suit = max((p, s) for s, (p, _) in totals.items())
    if len(totals) == 1 and pips == 31:
        return HandStrength((ThirtyOneCategory.THIRTY_ONE,), "thirty-one", f"thirty-one in {suit.word}",
                            f"three {suit.word} worth 31 make thirty-one")
    ranks = {c.rank for c in cards}
    if len(ranks) == 1:
        rank = Rank(next(iter(ranks)))
        return HandStrength((ThirtyOneCategory.THREE_OF_A_KIND, rank), "three of a kind",
                            f"three {rank.plural}", f"three {rank.plural} make three of a kind")
    count = totals[suit][1]
    in_cards = {1: "one card", 2: "two cards", 3: "three cards"}[count]
    return HandStrength((ThirtyOneCategory.PIPS, pips), "pips", f"{pips} in {suit.word}",
                        f"the best suit is {suit.word}: {pips} pips in {in_cards}")
