"""Playing cards as values: ranks, suits, the card, the 52- and 53-card packs.

A ``Card`` is a small frozen value read from the text a guest types ("AS", "10H" or "TH",
"QD"), and written back the same way. The 53rd card is the mistigris, the "blank" card sold
with a pack to show its pattern (source: ``docs/rules/draw-poker.md``, 'The mistigris'); it is typed
"JK" or "MI" (or "joker", "mistigris") and has no rank and no suit until its holder names one.

Pip values (ace 11, the other court cards and the ten 10 each, the rest their number) come from
``docs/rules/commerce.md`` (the point), ``docs/rules/my-ship-sails.md`` and
``docs/rules/thirty-one.md``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass

from tables.errors import RuleError


class CardError(RuleError):
    """Something is wrong with the cards a person gave; the message names the card."""


class UnknownCardError(CardError):
    """Text that is not a card (e.g. "1H", "ZZ", "11S")."""


class DuplicateCardError(CardError):
    """The same card given twice where a single pack allows it only once."""


class Rank(enum.IntEnum):
    """A card's rank, deuce (2) to ace (14); aces rank high unless a game says otherwise."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        """Short text: "2" … "10", "J", "Q", "K", "A"."""
        return _RANK_SYMBOLS[self]

    @property
    def word(self) -> str:
        """The rank in words: "deuce", "trey", "four", … "ace" (19th-century names)."""
        return _RANK_WORDS[self]

    @property
    def plural(self) -> str:
        """The rank in plural words: "deuces", "sixes", "aces"."""
        return "sixes" if self is Rank.SIX else self.word + "s"

    @property
    def pips(self) -> int:
        """Pip value: ace 11, ten and court cards 10, others their number.

        Source: ``docs/rules/commerce.md`` (the point) and ``docs/rules/thirty-one.md``.
        """
        if self is Rank.ACE:
            return 11
        return min(int(self), 10)


_RANK_SYMBOLS = {r: str(int(r)) for r in Rank if r <= 10} | {
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_RANK_WORDS = {
    Rank.TWO: "deuce",
    Rank.THREE: "trey",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
    Rank.ACE: "ace",
}
_RANK_BY_TEXT = {r.symbol: r for r in Rank} | {"T": Rank.TEN}


class Suit(enum.StrEnum):
    """A card's suit; the value is the letter used in card text ("C", "D", "H", "S").

    Suits have no rank in any of the seed games; the enum order (clubs, diamonds, hearts,
    spades) is only used to list cards in a fixed order.
    """

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def word(self) -> str:
        """The suit in words, plural: "clubs", "diamonds", "hearts", "spades"."""
        return self.name.lower()

    @property
    def symbol(self) -> str:
        """The suit's sign: ♣ ♦ ♥ ♠."""
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT = (
    {s.value: s for s in Suit}
    | {v: s for s, v in _SUIT_SYMBOLS.items()}
    | {
        "♤": Suit.SPADES,
        "♡": Suit.HEARTS,
        "♢": Suit.DIAMONDS,
        "♧": Suit.CLUBS,
    }
)
_MISTIGRIS_TEXTS = frozenset({"JK", "MI", "JOKER", "MISTIGRIS", "MIS"})


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and a suit, or the mistigris (rank and suit both ``None``).

    ``Card.parse("10H")`` reads text; ``str(card)`` gives it back ("10H", "MI");
    ``repr(card)`` rebuilds the value (``Card.parse('10H')``); ``card.name`` is in words
    ("ten of hearts", "the mistigris"). Cards are equal when rank and suit are equal.
    """

    rank: Rank | None
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise UnknownCardError("A card needs both a rank and a suit (only the mistigris has neither).")
        if self.rank is not None and self.suit is not None:  # (both or neither, checked above)
            object.__setattr__(self, "rank", Rank(self.rank))
            object.__setattr__(self, "suit", Suit(self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card from text: "AS", "10H", "TH", "qd", "7♥", or "JK"/"MI" for the mistigris.

        Takes a string; returns a ``Card``. Raises ``UnknownCardError`` naming the text when
        it is not a card.
        """
        raw = text if isinstance(text, str) else repr(text)
        word = raw.strip().upper()
        if word in _MISTIGRIS_TEXTS:
            return MISTIGRIS
        if len(word) >= 2:
            rank = _RANK_BY_TEXT.get(word[:-1])
            suit = _SUIT_BY_TEXT.get(word[-1])
            if rank is not None and suit is not None:
                return cls(rank, suit)
        raise UnknownCardError(
            f"“{raw}” is not a card: write the rank (2–10, J, Q, K, A; T for ten) then the suit "
            "(C, D, H, S), as in AS, 10H or QD; write JK or MI for the mistigris."
        )

    @classmethod
    def mistigris(cls) -> Card:
        """The mistigris, the wild 53rd card (``docs/rules/draw-poker.md``)."""
        return MISTIGRIS

    @property
    def is_mistigris(self) -> bool:
        """True for the mistigris."""
        return self.rank is None

    @property
    def name(self) -> str:
        """The card in words: "ten of hearts", "ace of spades", "the mistigris"."""
        if self.rank is None or self.suit is None:
            return "the mistigris"
        return f"{self.rank.word} of {self.suit.word}"

    @property
    def pips(self) -> int:
        """Pip value (ace 11, ten and courts 10); 0 for the mistigris, which has none."""
        return 0 if self.rank is None else self.rank.pips

    @property
    def sort_key(self) -> tuple[int, int]:
        """Pack order: by rank (deuce first), then suit (clubs, diamonds, hearts, spades);
        the mistigris last."""
        if self.rank is None or self.suit is None:
            return (15, 0)
        return (int(self.rank), _SUIT_ORDER[self.suit])

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "MI"
        return self.rank.symbol + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_SUIT_ORDER = {s: i for i, s in enumerate(Suit)}

MISTIGRIS = Card(None, None)
"""The mistigris (``docs/rules/draw-poker.md``)."""

_SPLIT = re.compile(r"[\s,;]+")


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Read several cards: "AS KD 10H" (spaces or commas between), or a list of texts/cards.

    Returns a tuple of ``Card`` in the order given. Raises ``UnknownCardError`` naming the first
    bad text. Duplicates are not checked here (see ``check_no_duplicates``).
    """
    if isinstance(text, str):
        items: Iterable[str | Card] = [w for w in _SPLIT.split(text.strip()) if w]
    else:
        items = text
    return tuple(item if isinstance(item, Card) else Card.parse(item) for item in items)


def check_no_duplicates(cards: Iterable[Card]) -> None:
    """Raise ``DuplicateCardError`` naming the first card that appears twice.

    One pack holds each card once (and one mistigris at most), so a card shown twice at one
    table is a typing mistake.
    """
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(
                f"{card} ({card.name}) is given twice: one pack holds it only once. "
                "Check the hands and correct the card typed twice."
            )
        seen.add(card)


def full_pack(*, with_mistigris: bool = False) -> tuple[Card, ...]:
    """The pack in pack order: 52 cards (deuce of clubs … ace of spades), then the mistigris
    when ``with_mistigris`` (53 cards, ``docs/rules/draw-poker.md``)."""
    pack = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
    return pack + (MISTIGRIS,) if with_mistigris else pack


def cards_text(cards: Iterable[Card]) -> str:
    """Short text of several cards separated by spaces ("AS KD 10H")."""
    return " ".join(str(card) for card in cards)
