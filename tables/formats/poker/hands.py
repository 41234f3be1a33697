"""A hand's strength: an ordered frozen value with a human label.

Every seed game (``tables.formats.poker.poker``, ``tables.formats.poker.commerce``, ``tables.formats.poker.thirty_one``, ``tables.formats.poker.ship``)
ranks a hand into a ``HandStrength``. Two strengths compare by their ``key`` only: the label
("fours, with mistigris") and the longer explanation take no part in the comparison, so two
hands that the rules call equal compare equal whatever words describe them. Seat order, which
several games use to break ties, is not part of a hand's strength: ``tables.formats.poker.showdown`` applies
it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from tables.cards import Card, Rank, Suit
from tables.words import joined


@dataclass(frozen=True, slots=True, order=True)
class HandStrength:
    """How good a hand is in one game.

    ``key``: a tuple of ints, higher is better; the first item is the category's number.
    ``category``: the category's short name ("fours", "the point"); ``label``: the short label
    shown to guests ("fours, with mistigris"); ``reason``: one plain sentence explaining it
    ("three sevens with mistigris make fours"); ``wild``: the hand was made with the mistigris.
    Only ``key`` takes part in ``==`` and ``<``.
    """

    key: tuple[int, ...]
    category: str = field(compare=False)
    label: str = field(compare=False)
    reason: str = field(compare=False, default="")
    wild: bool = field(compare=False, default=False)

    def __str__(self) -> str:
        return self.label


def pips_by_suit(cards: Iterable[Card]) -> dict[Suit, tuple[int, int]]:
    """For each suit held: (total pips, number of cards), pips counting ace 11, ten and court
    cards 10, others their number (``docs/rules/commerce.md``, ``docs/rules/thirty-one.md``).
    The mistigris is ignored (it has no suit)."""
    totals: dict[Suit, tuple[int, int]] = {}
    for card in cards:
        if card.suit is None:
            continue
        pips, count = totals.get(card.suit, (0, 0))
        totals[card.suit] = (pips + card.pips, count + 1)
    return totals


def ranks_words(ranks: Iterable[int]) -> str:
    """Ranks (2–14), highest first as given, in words joined by hyphens: "ace-jack-nine-four-trey"."""
    return "-".join(Rank(r).word for r in ranks)


def with_a(rank: int) -> str:
    """A rank in words with its article: "an ace", "an eight", "a queen"."""
    word = Rank(rank).word
    return ("an " if word[0] in "aeiou" else "a ") + word


def listed(words: list[str]) -> str:
    """Words joined as English lists them: "a", "a and b", "a, b and c", every one kept
    (``tables.words.joined``, the one list-joining rule)."""
    return joined(words)


def first_difference(a: tuple[int, ...], b: tuple[int, ...]) -> int | None:
    """The first index at which two keys differ (``None`` when one is a prefix of the other)."""
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return None
