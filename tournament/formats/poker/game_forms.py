"""Progressive Poker's table games as its pages read them: what the showdown helper and the game
pages read from a form, and the options in words.

``ShowdownEntry`` is the state of the showdown helper's form (one hand text per seat, the
dealer's seat, the seat the card grid fills): the whole state travels in the form, so the page
works without JavaScript (each tap on the grid is a plain form post) and with it (the same
grid filled in the browser). ``OPTION_WORDS`` names every game option in the field's words for
the host's game page and the rules pages; the rules themselves live in ``tables/``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from django import forms

from tables import sources
from tables.cards import MISTIGRIS, Card, CardError, Rank, Suit
from tables.formats.poker.poker import PokerOptions
from tables.formats.poker.showdown import Game, GameOptions, options_for
from tournament.whole_numbers import ascii_whole_number

# The options each game's page offers, in the order shown. ``with_money`` is Whiskey Poker's
# alone (``docs/rules/whiskey-poker.md``); Draw Poker always has a pool.
GAME_OPTION_NAMES: dict[Game, tuple[str, ...]] = {
    Game.DRAW_POKER: (
        "mistigris",
        "five_of_a_kind",
        "natural_wins_ties",
        "mistigris_wins_ties",
        "tiger",
        "ace_low_straights",
    ),
    Game.WHISKEY_POKER: (
        "with_money",
        "mistigris",
        "five_of_a_kind",
        "natural_wins_ties",
        "mistigris_wins_ties",
        "tiger",
        "ace_low_straights",
    ),
    Game.COMMERCE: ("flush", "pair", "odd_card_decides_pairs", "widow", "point_is_combination"),
    Game.THIRTY_ONE: ("higher_card_wins_ties", "split_ties"),
    Game.MY_SHIP_SAILS: (),
}

# option name -> (label, what it does, where it comes from)
OPTION_WORDS: dict[str, tuple[str, str, str]] = {
    "mistigris": (
        "Mistigris",
        "The pack has a 53rd card, the blank, which its holder makes any card he pleases.",
        sources.MISTIGRIS,
    ),
    "five_of_a_kind": (
        "Fives",
        ("Fours and the mistigris make fives, the best hand of all; off: they stay fours with the best odd card."),
        "house rule",
    ),
    "natural_wins_ties": (
        "Natural hand wins ties",
        ("A natural hand beats the same hand made with the mistigris; off: the two divide the pool."),
        "house rule",
    ),
    "mistigris_wins_ties": (
        "Mistigris wins ties",
        (
            "The hand holding the mistigris beats the same natural hand "
            "(the reading some books give); off: the two divide the pool."
        ),
        "the reading some rule books give, where the rule text is silent",
    ),
    "tiger": (
        "The Tiger",
        "The lowest straight beats every other straight (and still loses to a flush).",
        sources.THE_TIGER,
    ),
    "ace_low_straights": (
        "Ace low in straights",
        ("A-2-3-4-5 is a straight, the lowest; off: the ace is high only and the lowest straight is 2-3-4-5-6."),
        "house rule",
    ),
    "with_money": (
        "With money",
        (
            "The best hand takes the pool; off: there is no pool and the worst hand shown "
            "puts one counter in the middle."
        ),
        sources.WHISKEY_POKER,
    ),
    "flush": ("Flush", "Three cards of one suit rank next below the sequence flush.", sources.COMMERCE),
    "pair": ("Pair", "A pair outranks the point.", sources.COMMERCE),
    "widow": (
        "With a widow",
        (
            "Counters of no value; the dealer makes no extra payments; of players frozen out "
            "together the worst hand pays for the whiskey."
        ),
        sources.COMMERCE,
    ),
    "point_is_combination": (
        "The point counts for the dealer's payments",
        ("When a point wins and the dealer holds a point too, he pays every other player."),
        "house rule",
    ),
    "odd_card_decides_pairs": (
        "Odd card decides equal pairs",
        (
            "Of two equal pairs, the one with the higher odd "
            "card wins (still equal: the dealer, or the player nearest him on his left). Needs the pair."
        ),
        "the reading some rule books give, where the rule text is silent",
    ),
    "higher_card_wins_ties": (
        "Higher card wins ties",
        (
            "Equal totals (or two thirty-ones) are compared card by card, "
            "highest first, among the cards counted: ace-king-queen beats ace-jack-ten. Still equal: "
            "the elder hand wins, or the pool is divided if that option is on."
        ),
        "Hoyle's reading, where the rule text is silent",
    ),
    "split_ties": (
        "Tied hands divide the pool",
        "Off: the elder hand (nearest the dealer's left) wins ties.",
        "house rule",
    ),
}


# How an option that is on by default reads when the host turns it off.
_OFF_WORDS = {
    "with_money": "without money",
    "ace_low_straights": "ace high only",
    "point_is_combination": "the point not a combination for payments",
}


@dataclass(frozen=True)
class OptionRow:
    """One option as a page shows it: name, label, meaning, source, value now, default."""

    name: str
    label: str
    meaning: str
    source: str
    value: bool
    default: bool


def option_rows(game: Game, options: GameOptions | None = None) -> list[OptionRow]:
    """The options ``game``'s pages show, with ``options``' values (the defaults for None)."""
    defaults = options_for(game)
    options = options or defaults
    return [
        OptionRow(name, *OPTION_WORDS[name], value=getattr(options, name), default=getattr(defaults, name))
        for name in GAME_OPTION_NAMES[game]
    ]


def options_summary(game: Game, options: GameOptions) -> str:
    """The options that differ from the defaults, in words ("Mistigris · The Tiger"), or
    "the usual rules"."""
    words = [
        row.label if row.value else _OFF_WORDS.get(row.name, f"no {row.label[0].lower()}{row.label[1:]}")
        for row in option_rows(game, options)
        if row.value != row.default
    ]
    return " · ".join(words) or "the usual rules"


def options_from_post(game: Game, data: Mapping[str, str]) -> dict[str, bool]:
    """The options of ``game`` ticked on the host's game form (checkboxes named
    ``opt-<game>-<option>``): the shown options unticked are False, and any other posted
    ``opt-<game>-...`` name is passed on, so that the options class refuses it by name."""
    prefix = f"opt-{game.value}-"
    chosen = {name: False for name in GAME_OPTION_NAMES[game]}
    for key in data:
        if key.startswith(prefix):
            chosen[key[len(prefix) :]] = True
    return chosen


# --- the showdown helper's form ---------------------------------------------------------------

_SPLIT = re.compile(r"[\s,;]+")


def read_cards_leniently(text: str) -> list[Card]:
    """The cards in ``text`` that can be read, skipping words that are not cards (for marking
    the grid; the showdown itself reports bad words)."""
    cards = []
    for word in _SPLIT.split(text or ""):
        if word:
            with contextlib.suppress(CardError):
                cards.append(Card.parse(word))
    return cards


def card_grid(*, with_mistigris: bool) -> list[tuple[Suit, list[Card]]]:
    """The card grid: one block per suit (spades, hearts, diamonds, clubs), ace down to deuce;
    the mistigris in a block of its own (suit ``None``) when the evening plays it."""
    order = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    grid: list[tuple[Suit, list[Card]]] = [(s, [Card(r, s) for r in sorted(Rank, reverse=True)]) for s in order]
    if with_mistigris:
        grid.append((None, [MISTIGRIS]))  # type: ignore[arg-type]
    return grid


def plays_mistigris(options: GameOptions) -> bool:
    """True when the evening's game is poker played with the mistigris."""
    return isinstance(options, PokerOptions) and options.mistigris


@dataclass
class ShowdownEntry:
    """The showdown helper's form: ``hands`` (text per seat, seat 1 first), ``dealer`` (text),
    ``active`` (the seat the grid fills, 1-based), ``problem`` (what a tap could not do) and
    ``during_play`` (My Ship Sails: the second round of exchanges is not over yet)."""

    hands: list[str]
    dealer: str = ""
    active: int = 1
    problem: str = ""
    during_play: bool = False
    seats: int = field(init=False)

    def __post_init__(self) -> None:
        self.seats = len(self.hands)
        self.active = self.active if 1 <= self.active <= self.seats else 1

    @classmethod
    def from_post(cls, data: Mapping[str, str], seats: int) -> ShowdownEntry:
        """Read ``hand-1`` … ``hand-N``, ``dealer`` and ``seat`` from posted data (missing or bad
        values give empty hands, no dealer, seat 1)."""
        active = ascii_whole_number(data.get("seat", "1")) or 1
        hands = [" ".join(str(data.get(f"hand-{n}", "")).split())[:120] for n in range(1, seats + 1)]
        return cls(
            hands=hands,
            dealer=str(data.get("dealer", "")).strip()[:10],
            active=active,
            during_play=data.get("during_play") == "1",
        )

    def used(self) -> dict[Card, int]:
        """Every readable card entered, with the seat holding it (the first, if given twice)."""
        where: dict[Card, int] = {}
        for seat, text in enumerate(self.hands, start=1):
            for card in read_cards_leniently(text):
                where.setdefault(card, seat)
        return where

    def count(self, seat: int) -> int:
        """How many words the seat's hand has."""
        return len([w for w in _SPLIT.split(self.hands[seat - 1]) if w])

    def pick(self, text: str, hand_size: int) -> None:
        """Add the card ``text`` to the active seat's hand (the next seat with room, if that one
        is full), then move on when the hand is full. Sets ``problem`` instead when the card is
        unknown, already entered, or every hand is full."""
        try:
            card = Card.parse(text)
        except CardError as error:
            self.problem = str(error)
            return
        holder = self.used().get(card)
        if holder is not None:
            self.problem = f"{card} ({card.name}) is already in seat {holder}'s hand."
            return
        seat = self._next_with_room(self.active, hand_size)
        if seat is None:
            self.problem = f"Every hand has its {hand_size} cards: clear a hand to change it."
            return
        self.hands[seat - 1] = f"{self.hands[seat - 1]} {card}".strip()
        self.active = seat
        if self.count(seat) >= hand_size:
            self.active = self._next_with_room(seat, hand_size) or seat

    def unpick(self, seat: int) -> None:
        """Take the last card off ``seat``'s hand, and make it the seat the grid fills."""
        if 1 <= seat <= self.seats:
            words = [w for w in _SPLIT.split(self.hands[seat - 1]) if w]
            self.hands[seat - 1] = " ".join(words[:-1])
            self.active = seat

    def _next_with_room(self, start: int, hand_size: int) -> int | None:
        for step in range(self.seats):
            seat = (start - 1 + step) % self.seats + 1
            if self.count(seat) < hand_size:
                return seat
        return None


class GameChoiceForm(forms.Form):
    """The host's game page: the ``game`` chosen (read by ``tables.formats.poker.showdown.Game.parse``)."""

    game = forms.CharField(max_length=40, error_messages={"required": "Choose the game the tables play."})
