"""The showdown helper: who wins the pool in each seed game, and why, in plain words.

``showdown(game, hands_in_seat_order, dealer_seat=..., options=...)`` checks the cards shown at
one table, ranks every hand by the game's rules (``tables.formats.poker.poker``, ``tables.formats.poker.commerce``,
``tables.formats.poker.thirty_one``, ``tables.formats.poker.ship``), applies the game's tie rule and settlement, and returns
a frozen ``ShowdownResult``.

Seats are numbered 1, 2, 3 … in the order the hands are given, going to the left (clockwise);
``None`` in place of a hand means that seat shows no hand (dropped, folded, or out). The player
on the dealer's left is the elder hand.

Ties and settlement, by game (sources named on each):

* Draw Poker, Whiskey Poker: equal hands divide the pool (house rule, the usual poker custom; the
  seeds are silent). Whiskey Poker without money (``docs/rules/whiskey-poker.md``): there is no
  pool; the worst hand shown puts one counter in the middle (house rule: every hand tied for
  worst puts one in).
* Commerce (``docs/rules/commerce.md``): a tie goes to "the dealer, or the player nearest him
  on his left"; the dealer's payments without a widow (see ``tables.formats.poker.commerce``); with a widow the
  dealer pays nothing extra, and of players frozen out together the worst hand pays for the
  whiskey.
* Thirty-One (``docs/rules/thirty-one.md``) and My Ship Sails (``docs/rules/my-ship-sails.md``): the
  elder hand wins ties (for Thirty-One a house rule, optionally divided instead).

In the games where seats break ties the worst hand is decided the same way (the hand that would
lose the tie is the worse); in poker every hand tied for worst is named.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tables.cards import Card, CardError, DuplicateCardError, cards_text, parse_cards
from tables.errors import RuleError
from tables.formats.poker import commerce, poker, thirty_one
from tables.formats.poker.commerce import CommerceOptions, commerce_strength, is_combination
from tables.formats.poker.hands import HandStrength, listed
from tables.formats.poker.poker import PokerOptions, poker_strength
from tables.formats.poker.ship import ShipCategory, ShipOptions, ship_strength
from tables.formats.poker.thirty_one import ThirtyOneOptions, thirty_one_strength
from tables.words import joined


class Game(enum.StrEnum):
    """The seed games a table may play; the value is what the Django side stores."""

    DRAW_POKER = "draw_poker"
    WHISKEY_POKER = "whiskey_poker"
    COMMERCE = "commerce"
    THIRTY_ONE = "thirty_one"
    MY_SHIP_SAILS = "my_ship_sails"

    @property
    def title(self) -> str:  # type: ignore[override]  # the printed name, read as game.title by pages; str.title() is never wanted on a game
        """The game's name as printed: "Draw Poker", "My Ship Sails"."""
        return _TITLES[self]

    @property
    def hand_size(self) -> int:
        """Cards in a hand: five for the poker games, three for the others."""
        return 5 if self in (Game.DRAW_POKER, Game.WHISKEY_POKER) else 3

    @classmethod
    def parse(cls, text: str | Game) -> Game:
        """The game from its stored value ("commerce") or its title; raises ``RuleError``."""
        word = str(text).strip().lower().replace(" ", "_").replace("-", "_")
        for game in cls:
            if word in (game.value, game.title.lower().replace(" ", "_").replace("-", "_")):
                return game
        names = ", ".join(g.value for g in cls)
        raise RuleError(f"“{text}” is not a game the showdown helper knows: choose one of {names}.")


_TITLES = {
    Game.DRAW_POKER: "Draw Poker",
    Game.WHISKEY_POKER: "Whiskey Poker",
    Game.COMMERCE: "Commerce",
    Game.THIRTY_ONE: "Thirty-One",
    Game.MY_SHIP_SAILS: "My Ship Sails",
}
_OPTION_CLASSES: dict[Game, type] = {
    Game.DRAW_POKER: PokerOptions,
    Game.WHISKEY_POKER: PokerOptions,
    Game.COMMERCE: CommerceOptions,
    Game.THIRTY_ONE: ThirtyOneOptions,
    Game.MY_SHIP_SAILS: ShipOptions,
}

GameOptions = PokerOptions | CommerceOptions | ThirtyOneOptions | ShipOptions


class SeatError(RuleError):
    """A seat number that is not at the table, or a hand missing where one is needed."""


class HandSizeError(CardError):
    """A hand with the wrong number of cards for the game."""


class MistigrisError(CardError):
    """The mistigris shown in a game (or an evening) played without it."""


def options_for(game: Game | str, options: GameOptions | Mapping[str, Any] | None = None) -> GameOptions:
    """The game's options: defaults for ``None``, built from a mapping (unknown names refused),
    or checked to be the game's own options class. Raises ``RuleError``."""
    game = Game.parse(game)
    cls = _OPTION_CLASSES[game]
    if options is None or isinstance(options, Mapping):
        return cls.from_mapping(options)  # type: ignore[attr-defined, no-any-return]
    if not isinstance(options, cls):
        raise RuleError(f"{game.title} takes {cls.__name__}, not {type(options).__name__}.")
    return options


@dataclass(frozen=True, slots=True)
class ShownHand:
    """One seat's hand at the showdown: its cards, strength and the reason in words."""

    seat: int
    cards: tuple[Card, ...]
    strength: HandStrength

    @property
    def reason(self) -> str:
        """Why the hand is worth what it is ("three sevens with mistigris make fours ...")."""
        return self.strength.reason


@dataclass(frozen=True, slots=True)
class Payment:
    """Counters one player pays. ``payee`` is a seat, or ``None`` for the middle of the table;
    ``counters`` is a count (white counters where the seed says so)."""

    payer: int
    payee: int | None
    counters: int
    why: str


@dataclass(frozen=True, slots=True)
class ShowdownResult:
    """The verdict of one showdown.

    ``winners``: the seat(s) that take the pool (several only when a tie divides it; none when
    there is no pool, Whiskey Poker without money, or no winner yet, My Ship Sails during play);
    ``worst``: the seat(s) with the worst hand; ``hands``: every shown hand in seat order;
    ``payments``: the settlement the seeds state; ``verdict``: one or two plain sentences;
    ``best``: the seat(s) the bell may count as the table's winner: the pool winners, or without
    a pool the best hand (house rule: at a progressive party someone must move up); none when
    there is no winner yet.
    """

    game: Game
    dealer_seat: int
    hands: tuple[ShownHand, ...]
    winners: tuple[int, ...]
    worst: tuple[int, ...]
    payments: tuple[Payment, ...]
    verdict: str
    best: tuple[int, ...] = ()

    def hand_at(self, seat: int) -> ShownHand:
        """The hand shown at ``seat``; raises ``SeatError`` if that seat showed none."""
        for hand in self.hands:
            if hand.seat == seat:
                return hand
        raise SeatError(f"Seat {seat} showed no hand.")


# --- checking the input ----------------------------------------------------------------------


def _read_hands(
    game: Game, hands: Sequence[str | Iterable[str | Card] | None], options: GameOptions
) -> list[tuple[int, tuple[Card, ...]]]:
    wild_allowed = isinstance(options, PokerOptions) and options.mistigris
    shown: list[tuple[int, tuple[Card, ...]]] = []
    where: dict[Card, int] = {}
    for seat, hand in enumerate(hands, start=1):
        if hand is None:
            continue
        try:
            cards = parse_cards(hand)
        except CardError as error:
            raise type(error)(f"Seat {seat}: {error}") from None
        if len(cards) != game.hand_size:
            raise HandSizeError(
                f"Seat {seat} shows {len(cards)} card{'s' if len(cards) != 1 else ''}"
                f"{' (' + cards_text(cards) + ')' if cards else ''}; "
                f"a {game.title} hand has {game.hand_size}."
            )
        for card in cards:
            if card.is_mistigris and not wild_allowed:
                why = (
                    "this evening plays without it" if game.hand_size == 5 else f"{game.title} is played with 52 cards"
                )
                raise MistigrisError(f"Seat {seat} shows the mistigris, but {why}.")
            if card in where:
                first = where[card]
                at = f"seat {first} and seat {seat}" if first != seat else f"seat {seat}, twice"
                raise DuplicateCardError(
                    f"{card} ({card.name}) is shown at {at}: the pack holds it only once. "
                    "Correct the card typed by mistake."
                )
            where[card] = seat
        shown.append((seat, cards))
    if not shown:
        raise SeatError("No hand is shown: enter at least one hand.")
    return shown


def _check_dealer(dealer_seat: object, table_size: int) -> int:
    if isinstance(dealer_seat, bool) or not isinstance(dealer_seat, int) or not 1 <= dealer_seat <= table_size:
        raise SeatError(f"The dealer's seat {dealer_seat!r} is not at this table: seats are 1 to {table_size}.")
    return dealer_seat


# --- ranking and ties ------------------------------------------------------------------------


def _strength(game: Game, cards: tuple[Card, ...], options: GameOptions) -> HandStrength:
    if isinstance(options, PokerOptions):
        return poker_strength(cards, options)
    if isinstance(options, CommerceOptions):
        return commerce_strength(cards, options)
    if isinstance(options, ThirtyOneOptions):
        return thirty_one_strength(cards, options)
    return ship_strength(cards)


def seat_priority(game: Game, seat: int, dealer_seat: int, table_size: int, options: GameOptions) -> int | None:
    """How a seat fares in a tie: lower wins; ``None`` when ties divide the pool.

    Commerce: the dealer first, then the players to his left in turn
    (``docs/rules/commerce.md``). My Ship Sails and Thirty-One: the elder hand (dealer's left)
    first, the dealer last. Poker, and Thirty-One with ``split_ties``: ``None``.
    """
    if game is Game.COMMERCE:
        return (seat - dealer_seat) % table_size
    if game is Game.MY_SHIP_SAILS or (game is Game.THIRTY_ONE and not getattr(options, "split_ties", False)):
        return (seat - dealer_seat - 1) % table_size
    return None


def _seats(seats: Sequence[int]) -> str:
    return joined(f"seat {s}" for s in seats)


def _ranked(
    game: Game, shown: Sequence[ShownHand], dealer: int, table_size: int, opts: GameOptions
) -> tuple[HandStrength, tuple[int, ...], tuple[int, ...]]:
    """Rank the hands shown: returns (the best hand's strength, the seats holding the best hand,
    the seats holding the worst). Equal hands are split by ``seat_priority`` where the game's
    rules give one (Commerce, My Ship Sails, Thirty-One: see there); otherwise they tie."""

    def order(hand: ShownHand) -> tuple[HandStrength, int]:
        priority = seat_priority(game, hand.seat, dealer, table_size, opts)
        return (hand.strength, -(priority or 0))

    best = max(order(h) for h in shown)
    low = min(order(h) for h in shown)
    winners = tuple(h.seat for h in shown if order(h) == best)
    worst = tuple(h.seat for h in shown if order(h) == low)
    return best[0], winners, worst


def showdown(
    game: Game | str,
    hands_in_seat_order: Sequence[str | Iterable[str | Card] | None],
    *,
    dealer_seat: int,
    options: GameOptions | Mapping[str, Any] | None = None,
    during_play: bool = False,
) -> ShowdownResult:
    """Decide a showdown.

    Takes the game, one entry per seat in seat order (a hand as text "AS KD 10H", or a list of
    texts or ``Card``; ``None`` for a seat that shows no hand), the dealer's seat (1-based) and
    the game's options (an options object, a mapping, or ``None`` for the defaults).
    ``during_play`` (My Ship Sails only): the second round of exchanges is not over, so only a
    flush of three ends the deal ("The moment any player finds himself with a flush ... he says
    'My Ship Sails'"; two-card flushes count only "after two rounds of exchanges",
    ``docs/rules/my-ship-sails.md``); with no such flush the result names no winner yet.
    Returns a ``ShowdownResult``. Raises ``RuleError`` subclasses naming the card or seat: an
    unknown card, a card shown twice, a wrong number of cards, the mistigris where it is not
    played, a dealer seat outside the table, no hand at all, an unknown option, ``during_play``
    for a game other than My Ship Sails.
    """
    game = Game.parse(game)
    opts = options_for(game, options)
    if during_play and game is not Game.MY_SHIP_SAILS:
        raise RuleError(f"Only My Ship Sails ends during play; {game.title} is decided when the hands are shown.")
    table_size = len(hands_in_seat_order)
    dealer = _check_dealer(dealer_seat, table_size)
    shown = [
        ShownHand(seat, cards, _strength(game, cards, opts))
        for seat, cards in _read_hands(game, hands_in_seat_order, opts)
    ]
    best, winners, worst = _ranked(game, shown, dealer, table_size, opts)
    if during_play and best.key[0] != ShipCategory.FLUSH:
        return _no_winner_yet(game, dealer, shown)
    best_seats = winners
    if _no_pool(game, opts):
        verdict = ""
        winners = ()
    else:
        verdict = _verdict(game, shown, winners, dealer, table_size, opts)
        if during_play:
            verdict = f"My ship sails: {verdict[0].lower()}{verdict[1:]}"
    payments, settlement = _settle(game, shown, winners, worst, dealer, opts)
    return ShowdownResult(
        game=game,
        dealer_seat=dealer,
        hands=tuple(shown),
        winners=winners,
        worst=worst,
        payments=payments,
        verdict=" ".join(part for part in (verdict, settlement) if part),
        best=best_seats,
    )


def _no_winner_yet(game: Game, dealer: int, shown: list[ShownHand]) -> ShowdownResult:
    """My Ship Sails during play with no flush of three: the result names no winner yet and no
    payments; the exchanges go on (``docs/rules/my-ship-sails.md``)."""
    return ShowdownResult(
        game=game,
        dealer_seat=dealer,
        hands=tuple(shown),
        winners=(),
        worst=(),
        payments=(),
        verdict=(
            "No winner yet: no one holds a flush of three cards, so the exchanges go on. "
            "A two-card flush counts only when the second round of exchanges is over."
        ),
    )


def _no_pool(game: Game, opts: GameOptions) -> bool:
    """Whiskey Poker without money has no pool (``docs/rules/whiskey-poker.md``)."""
    return game is Game.WHISKEY_POKER and isinstance(opts, PokerOptions) and not opts.with_money


def _beats(winner: HandStrength, loser: HandStrength, opts: GameOptions) -> str:
    """ "X, which beats Y", naming the card that decides, in the game's own words."""
    if isinstance(opts, PokerOptions):
        return poker.describe_beats(winner, loser, opts)
    if isinstance(opts, ThirtyOneOptions):
        return thirty_one.describe_beats(winner, loser)
    if isinstance(opts, CommerceOptions):
        return commerce.describe_beats(winner, loser)
    return f"{winner.label}, which beats {loser.label}"


def _verdict(
    game: Game, shown: list[ShownHand], winners: tuple[int, ...], dealer: int, table_size: int, opts: GameOptions
) -> str:
    top = max(h.strength for h in shown)
    tied = [h for h in shown if h.strength == top]
    if len(winners) > 1:
        labels = {h.strength.label for h in tied}
        if len(labels) == 1:
            return f"{_seats(winners).capitalize()} tie with {top.label} and divide the pool."
        each = listed([f"seat {h.seat} ({h.strength.label})" for h in tied])
        return f"{each[0].upper()}{each[1:]} tie and divide the pool."
    winner = winners[0]
    if len(tied) == 1:
        others = [h for h in shown if h.seat != winner]
        if not others:
            return f"Seat {winner} wins the pool with {top.label}."
        return f"Seat {winner} wins the pool with {_beats(top, max(h.strength for h in others), opts)}."
    if game is Game.COMMERCE:
        rule = "a tie goes to the dealer, or the player nearest him on his left"
    else:
        rule = "the elder hand (nearest the dealer's left) wins ties"
    each = listed([f"seat {h.seat} ({h.strength.label})" for h in tied])
    return f"{each[0].upper()}{each[1:]} tie; {rule} (the dealer is seat {dealer}), so seat {winner} wins the pool."


def _settle(
    game: Game, shown: list[ShownHand], winners: tuple[int, ...], worst: tuple[int, ...], dealer: int, opts: GameOptions
) -> tuple[tuple[Payment, ...], str]:
    if _no_pool(game, opts):
        payments = tuple(Payment(s, None, 1, "the worst hand shown puts one counter in the middle") for s in worst)
        hands = listed([f"{h.strength.label}" for h in shown if h.seat in worst])
        one = len(worst) == 1
        return payments, (
            f"Without money there is no pool: {_seats(worst)} "
            f"{'has' if one else 'have'} the worst hand ({hands}) and put{'s' if one else ''} "
            "one counter in the middle."
        )
    if game is not Game.COMMERCE or not isinstance(opts, CommerceOptions):
        return (), ""
    if opts.widow:
        return (), (
            f"With a widow the dealer makes no extra payments; if players are frozen out "
            f"together, the worst hand ({_seats(worst)}) pays for the whiskey."
        )
    winner = winners[0]
    if winner == dealer:
        return (), "The dealer won, so he pays nothing extra."
    dealer_hand = next((h for h in shown if h.seat == dealer), None)
    top = next(h for h in shown if h.seat == winner).strength
    same = dealer_hand is not None and dealer_hand.strength.key[0] == top.key[0] and is_combination(top, opts)
    if same:
        payees = [h.seat for h in shown if h.seat != dealer]
        payments = tuple(Payment(dealer, s, 1, "the dealer holds a combination of the winning rank") for s in payees)
        return payments, (
            f"The dealer holds {dealer_hand.strength.category} too, the same rank as the winning hand, "  # type: ignore[union-attr]
            "so he pays one white counter to every other player."
        )
    return (Payment(dealer, winner, 1, "the dealer did not win the pool"),), (
        f"The dealer did not win, so he pays one white counter to seat {winner}."
    )
