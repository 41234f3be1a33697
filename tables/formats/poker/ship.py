"""My Ship Sails (My Bird Sings): ranking three-card hands.

Source: ``docs/rules/my-ship-sails.md``: "The moment any player finds himself with a flush, three
cards of the same suit, regardless of their value ... he says: 'My Ship Sails' ... Should there
be more than one flush, the pips win, counting ace for 11, and other court-cards for 10 each. If
no player has secured a flush after two rounds of exchanges ... the highest number of pips in the
two-card flushes wins the pool. The elder hand wins ties."

So, from the highest: a flush of three (by pips), then a two-card flush (by its pips), then
(house rule) a hand of three different suits, which has no flush at all. Ties go to the elder
hand, the player nearest the dealer's left, the dealer last (applied by ``tables.formats.poker.showdown``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.cards import Card, CardError
from tables.formats.poker.hands import HandStrength, pips_by_suit
from tables.game_options import options_from_mapping


class ShipCategory(enum.IntEnum):
    """The kinds of My Ship Sails hand, lowest first."""

    NO_FLUSH = 0
    TWO_CARD_FLUSH = 1
    FLUSH = 2


@dataclass(frozen=True, slots=True)
class ShipOptions:
    """My Ship Sails has no rule variants; the class exists so that an unknown option name is
    refused like any other game's."""

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> ShipOptions:
        """Options from a mapping (it must be empty); raises ``RuleError`` for any name."""
        return options_from_mapping(cls, values, "My Ship Sails")


def ship_strength(cards: Sequence[Card]) -> HandStrength:
    """Rank a three-card My Ship Sails hand.

    Returns a ``HandStrength`` keyed ``(2, pips)`` for a flush of three, ``(1, pips)`` for the
    best two-card flush, ``(0,)`` for three different suits. Raises ``CardError`` for a wrong
    count or the mistigris.
    """
    if len(cards) != 3 or any(c.is_mistigris for c in cards):
        raise CardError("A My Ship Sails hand is three cards of the 52-card pack.")
    totals = pips_by_suit(cards)
    best = max(((n, pips, suit) for suit, (pips, n) in totals.items() if n >= 2), default=None)
    if best is None:
        return HandStrength((ShipCategory.NO_FLUSH,), "no flush", "no flush", "three different suits: no flush")
    n, pips, suit = best
    if n == 3:
        return HandStrength(
            (ShipCategory.FLUSH, pips),
            "a flush",
            f"a flush of {suit.word}, {pips} pips",
            f"three {suit.word} make a flush ({pips} pips): my ship sails",
        )
    return HandStrength(
        (ShipCategory.TWO_CARD_FLUSH, pips),
        "a two-card flush",
        f"a two-card flush of {suit.word}, {pips} pips",
        f"two {suit.word} make a two-card flush of {pips} pips",
    )
