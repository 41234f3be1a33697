"""Five-card poker hands for Draw Poker and Whiskey Poker, with Mistigris and the Tiger.

Rules and where they come from:

* The usual ranking, from the lowest: no pair, a pair, two pairs, threes, a straight, a flush,
  a full house, fours, a straight flush (the ace-high one is called a royal flush). Whiskey
  Poker is settled by "the best poker hand" (``docs/rules/whiskey-poker.md``); the ranking itself
  is the ordinary Draw Poker one the seeds take for granted.
* Mistigris (``docs/rules/draw-poker.md``): the holder makes the blank card "represent any suit
  and value he pleases": three sevens and mistigris make fours; with two pairs it makes a full;
  four hearts and mistigris a flush; four hearts in sequence a straight flush.
  House rules where the text is silent (each an option in ``PokerOptions``):
  - ``five_of_a_kind`` (default on): fours and mistigris make fives, ranking above a
    straight flush. Otherwise the mistigris may only stand for a card its holder does not hold,
    so fours and mistigris are fours with the best kicker. Apart from fives, the mistigris never
    doubles a card in its holder's hand (no "double-ace flush"); it may stand for a card another
    player holds.
  - ``natural_wins_ties`` (default off): a hand made with the mistigris equals the same natural
    hand, as the text says the mistigris "represents" the card, and equal hands divide the
    pool. With the option on, the natural hand wins such a tie.
  - ``mistigris_wins_ties`` (default off): the reading some books give, the other way round:
    the hand holding the mistigris wins a tie with the same natural hand. (It cannot be on
    together with ``natural_wins_ties``.)
* The Tiger (``docs/rules/draw-poker.md``): "the lowest straight that can be made, and reckons as
  one degree better than an ordinary straight": with ``tiger`` on, the lowest straight beats
  every other straight and loses to a flush (house rule: "one degree" read as a category of its
  own; the lowest straight *flush* stays the lowest straight flush).
* ``ace_low_straights`` (default on; house rule): A-2-3-4-5 is a straight (the lowest, five
  high). With it off, the ace is high only, A-2-3-4-5 is no pair (ace high) and the lowest
  straight, so the Tiger, is 2-3-4-5-6.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tables.cards import Card, CardError, Rank, Suit, full_pack
from tables.formats.poker.hands import HandStrength, first_difference, listed, ranks_words, with_a
from tables.game_options import UnknownOptionError, options_from_mapping


class PokerCategory(enum.IntEnum):
    """The kinds of poker hand, lowest first; the number orders them."""

    NO_PAIR = 0
    PAIR = 1
    TWO_PAIRS = 2
    THREES = 3
    STRAIGHT = 4
    TIGER = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOURS = 8
    STRAIGHT_FLUSH = 9
    FIVES = 10

    @property
    def words(self) -> str:
        """The category in the words guests use: "fours", "a full house", "the Tiger"."""
        return _CATEGORY_WORDS[self]


_CATEGORY_WORDS = {
    PokerCategory.NO_PAIR: "no pair",
    PokerCategory.PAIR: "a pair",
    PokerCategory.TWO_PAIRS: "two pairs",
    PokerCategory.THREES: "threes",
    PokerCategory.STRAIGHT: "a straight",
    PokerCategory.TIGER: "the Tiger",
    PokerCategory.FLUSH: "a flush",
    PokerCategory.FULL_HOUSE: "a full house",
    PokerCategory.FOURS: "fours",
    PokerCategory.STRAIGHT_FLUSH: "a straight flush",
    PokerCategory.FIVES: "fives",
}


@dataclass(frozen=True, slots=True)
class PokerOptions:
    """The poker rule variants of an evening (all in one place; see the module docstring).

    ``mistigris``: the pack has the mistigris (53 cards); ``five_of_a_kind``: fours and
    mistigris make fives; ``natural_wins_ties``: a natural hand beats the same hand made with the
    mistigris; ``mistigris_wins_ties``: the other way round (some books' reading); ``tiger``: the lowest straight ranks above every other straight;
    ``ace_low_straights``: A-2-3-4-5 is a straight; ``with_money`` (Whiskey Poker only): the
    counters have a money value and the best hand takes the pool; without money the worst hand
    puts one counter in the middle (``docs/rules/whiskey-poker.md``).
    """

    mistigris: bool = False
    five_of_a_kind: bool = True
    natural_wins_ties: bool = False
    mistigris_wins_ties: bool = False
    tiger: bool = False
    ace_low_straights: bool = True
    with_money: bool = True

    def __post_init__(self) -> None:
        if self.natural_wins_ties and self.mistigris_wins_ties:
            raise UnknownOptionError(
                "Choose one reading of a tie between a natural hand and the same hand made with the "
                "mistigris: the natural hand wins, or the hand with the mistigris wins (or neither: they "
                "divide the pool)."
            )

    @property
    def tie_tails(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """What ends the key of a natural hand and of one made with the mistigris: ``((1,), (0,))``
        when the natural hand wins ties, ``((0,), (1,))`` when the mistigris wins, else empty
        (equal hands divide the pool)."""
        if self.natural_wins_ties:
            return (1,), (0,)
        if self.mistigris_wins_ties:
            return (0,), (1,)
        return (), ()

    @classmethod
    def from_mapping(cls, values: Mapping[str, object] | None) -> PokerOptions:
        """Options from a mapping such as ``{"tiger": True}``; raises ``RuleError`` for an
        unknown name, or for both readings of a mistigris tie at once."""
        return options_from_mapping(cls, values, "poker")


# --- the natural ranking of five real cards -------------------------------------------------


def natural_key(ranks: Sequence[int], suited: bool, options: PokerOptions) -> tuple[int, ...]:
    """The ordering key of five real cards: ``(category, tie-break ranks...)``, higher better.

    Takes the five ranks (2–14, any order) and whether all five share a suit. Tie-breaks
    compare the ranks grouped by how often they occur (fours before kicker, threes before pair)
    then by rank; a straight compares by its top card (5 for A-2-3-4-5).
    """
    counts = Counter(ranks)
    grouped = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    order = tuple(r for r, _ in grouped)
    shape = tuple(c for _, c in grouped)
    if shape == (5,):
        return (PokerCategory.FIVES, *order)
    if shape == (4, 1):
        return (PokerCategory.FOURS, *order)
    if shape == (3, 2):
        return (PokerCategory.FULL_HOUSE, *order)
    if shape == (3, 1, 1):
        return (PokerCategory.THREES, *order)
    if shape == (2, 2, 1):
        return (PokerCategory.TWO_PAIRS, *order)
    if shape == (2, 1, 1, 1):
        return (PokerCategory.PAIR, *order)
    top = _straight_top(order, options)
    if top:
        if suited:
            return (PokerCategory.STRAIGHT_FLUSH, top)
        if options.tiger and top == lowest_straight_top(options):
            return (PokerCategory.TIGER, top)
        return (PokerCategory.STRAIGHT, top)
    if suited:
        return (PokerCategory.FLUSH, *order)
    return (PokerCategory.NO_PAIR, *order)


def lowest_straight_top(options: PokerOptions) -> int:
    """The top card of the lowest straight: 5 (A-2-3-4-5) or 6 when the ace is high only."""
    return 5 if options.ace_low_straights else 6


def _straight_top(desc_ranks: tuple[int, ...], options: PokerOptions) -> int:
    """Top rank of five distinct ranks (descending) if they form a straight, else 0."""
    if desc_ranks[0] - desc_ranks[4] == 4:
        return desc_ranks[0]
    if options.ace_low_straights and desc_ranks == (14, 5, 4, 3, 2):
        return 5
    return 0


# --- the mistigris ---------------------------------------------------------------------------


def mistigris_choices(held: Sequence[Card], options: PokerOptions) -> list[Card | Rank]:
    """What the mistigris may stand for beside the four cards ``held``.

    Returns every real card its holder does not hold, plus the bare rank of fours when
    ``five_of_a_kind`` is on (fives need a fifth card of a rank whose four cards are all
    held). Source: ``docs/rules/draw-poker.md``; house rule in the module docstring.
    """
    held_set = set(held)
    choices: list[Card | Rank] = [c for c in full_pack() if c not in held_set]
    if options.five_of_a_kind:
        counts = Counter(c.rank for c in held)
        choices += [r for r, n in counts.items() if n == 4 and r is not None]
    return choices


def _key_with(held: Sequence[Card], stand_in: Card | Rank, options: PokerOptions) -> tuple[int, ...]:
    ranks = [int(c.rank) for c in held if c.rank is not None]
    if isinstance(stand_in, Card):
        ranks.append(int(stand_in.rank))  # type: ignore[arg-type]
        suited = len({c.suit for c in held} | {stand_in.suit}) == 1
    else:
        ranks.append(int(stand_in))
        suited = False
    return natural_key(ranks, suited, options)


def best_stand_in(held: Sequence[Card], options: PokerOptions) -> tuple[tuple[int, ...], Card | Rank]:
    """The best key the mistigris can make with four real cards, and what it stands for.

    Tries every choice from ``mistigris_choices`` (brute force; the fast path is
    ``tables.formats.poker.poker_lookup``). Among equal keys the highest card in pack order is named.
    """
    best: tuple[tuple[int, ...], Card | Rank] | None = None
    for choice in mistigris_choices(held, options):
        key = _key_with(held, choice, options)
        if best is None or key >= best[0]:
            best = (key, choice)
    assert best is not None
    return best


# --- words -----------------------------------------------------------------------------------


def describe_key(key: tuple[int, ...], suit: Suit | None = None) -> str:
    """A hand's key in words: "four sevens", "a full house, kings over sevens",
    "a straight, nine high", "a royal flush", "no pair, ace high"."""
    cat = PokerCategory(key[0])
    r = [Rank(x) for x in key[1:]]
    if cat is PokerCategory.FIVES:
        return f"five {r[0].plural}"
    if cat is PokerCategory.STRAIGHT_FLUSH:
        return "a royal flush" if r[0] is Rank.ACE else f"a straight flush, {r[0].word} high"
    if cat is PokerCategory.FOURS:
        return f"four {r[0].plural}"
    if cat is PokerCategory.FULL_HOUSE:
        return f"a full house, {r[0].plural} over {r[1].plural}"
    if cat is PokerCategory.FLUSH:
        return f"a flush, {r[0].word} high"
    if cat is PokerCategory.TIGER:
        return f"the Tiger ({r[0].word}-high straight)"
    if cat is PokerCategory.STRAIGHT:
        return f"a straight, {r[0].word} high"
    if cat is PokerCategory.THREES:
        return f"three {r[0].plural}"
    if cat is PokerCategory.TWO_PAIRS:
        return f"two pairs, {r[0].plural} and {r[1].plural}"
    if cat is PokerCategory.PAIR:
        return f"a pair of {r[0].plural}"
    return f"no pair, {r[0].word} high"


def _four_card_words(held: Sequence[Card], options: PokerOptions) -> str:
    """What four real cards are, in the words of the seed text: "three sevens", "two pairs",
    "four hearts", "four hearts in sequence" (said only of four cards in a row)."""
    counts = Counter(c.rank for c in held)
    grouped = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    (top, n), *_ = grouped
    if n == 4:
        return f"four {top.plural}"  # type: ignore[union-attr]
    if n == 3:
        return f"three {top.plural}"  # type: ignore[union-attr]
    if n == 2 and grouped[1][1] == 2:
        return f"two pairs ({top.plural} and {grouped[1][0].plural})"  # type: ignore[union-attr]
    if n == 2:
        return f"a pair of {top.plural}"  # type: ignore[union-attr]
    suits = {c.suit for c in held}
    ranks = sorted(int(c.rank) for c in held)  # type: ignore[arg-type]
    if len(suits) == 1:
        suit = next(iter(suits))
        return f"four {suit.word}" + (" in sequence" if _in_a_row(ranks, options) else "")  # type: ignore[union-attr]
    return listed([Rank(x).word for x in reversed(ranks)])


def _in_a_row(ranks: Sequence[int], options: PokerOptions) -> bool:
    """Whether four distinct ranks (ascending) stand in a row: 6-7-8-9, or A-2-3-4 when the ace
    is low in straights."""
    return ranks[3] - ranks[0] == 3 or (options.ace_low_straights and list(ranks) == [2, 3, 4, 14])


def _gap_filled(held: Sequence[Card], stand_in: Card | Rank, key: tuple[int, ...], options: PokerOptions) -> str:
    """ ", and fills the gap between the eight and the ten" when the mistigris completes a straight
    (or straight flush) inside the run of the four cards held, else ""."""
    if PokerCategory(key[0]) not in (PokerCategory.STRAIGHT, PokerCategory.TIGER, PokerCategory.STRAIGHT_FLUSH):
        return ""
    if not isinstance(stand_in, Card):
        return ""
    low = key[1] - 4
    run = [1 if r == 14 and low == 1 else r for r in (int(c.rank) for c in held)]  # type: ignore[arg-type]
    fill = 1 if stand_in.rank == Rank.ACE and low == 1 else int(stand_in.rank)  # type: ignore[arg-type]
    below = [r for r in run if r < fill]
    above = [r for r in run if r > fill]
    if not below or not above:
        return ""
    word = {1: Rank.ACE}.get
    lower, upper = (word(r) or Rank(r) for r in (max(below), min(above)))
    return f" and fills the gap between the {lower.word} and the {upper.word}"


# --- the public ranking ----------------------------------------------------------------------


def poker_strength(cards: Sequence[Card], options: PokerOptions = PokerOptions()) -> HandStrength:
    """Rank five cards (one may be the mistigris) for Draw or Whiskey Poker.

    Takes exactly five distinct cards (checked by ``tables.formats.poker.showdown``; here a wrong count
    raises ``CardError``). Returns a ``HandStrength`` whose key is ``(category, tie-breaks...)``,
    followed by ``options.tie_tails`` when a tie between a natural hand and one made with the
    mistigris is not divided. Raises ``CardError`` if the mistigris appears and the evening
    plays without it.
    """
    if len(cards) != 5:
        raise CardError(f"A poker hand has five cards, not {len(cards)}.")
    natural_tail, wild_tail = options.tie_tails
    held = [c for c in cards if not c.is_mistigris]
    if len(held) == 5:
        key = _ints(natural_key([int(c.rank) for c in held], len({c.suit for c in held}) == 1, options))  # type: ignore[arg-type]
        words = describe_key(key)
        return HandStrength(key + natural_tail, PokerCategory(key[0]).words, words, words)
    if not options.mistigris:
        raise CardError("This evening plays without the mistigris, but a hand shows it.")
    if len(held) != 4:
        raise CardError("There is only one mistigris in the pack.")
    key, stand_in = best_stand_in(held, options)
    key = _ints(key)
    words = describe_key(key)
    category = PokerCategory(key[0]).words
    if isinstance(stand_in, Card):
        stands_for = f"the mistigris stands for the {stand_in.name}{_gap_filled(held, stand_in, key, options)}"
    else:
        stands_for = f"the mistigris stands for a fifth {stand_in.word}"
    reason = f"{_four_card_words(held, options)} with mistigris make {category} ({words}; {stands_for})"
    return HandStrength(key + wild_tail, category, f"{words}, with mistigris", reason, wild=True)


# How many items after the category name the cards that make the hand; the rest are odd cards
# (kickers). No pair and the flush list every card; straights, full houses and fives have none.
_MADE = {PokerCategory.PAIR: 1, PokerCategory.TWO_PAIRS: 2, PokerCategory.THREES: 1, PokerCategory.FOURS: 1}
_EVERY_CARD = (PokerCategory.NO_PAIR, PokerCategory.FLUSH)


def describe_beats(winner: HandStrength, loser: HandStrength, options: PokerOptions = PokerOptions()) -> str:
    """Why ``winner`` beats ``loser``, in words that name the card that decides.

    Returns e.g. "a flush, ace-jack-nine-four-trey, which beats a flush,
    ace-jack-nine-four-deuce (the trey decides)", "a pair of kings with an ace, which beats a
    pair of kings with a queen", "four fives, which beats four fours", or, for a natural hand
    against the same hand made with the mistigris, the house rule that decided. Both strengths
    must come from ``poker_strength`` with ``options``, and ``winner > loser``.
    """
    tails = len(options.tie_tails[0])
    win, lose = winner.key[: len(winner.key) - tails], loser.key[: len(loser.key) - tails]
    if win == lose:
        rule = (
            "a natural hand wins a tie with the same hand made with the mistigris (house rule)"
            if options.natural_wins_ties
            else "the hand with the mistigris wins a tie with the same natural hand (as some books read it)"
        )
        return f"{winner.label}, which beats {loser.label}: {rule}"
    at = first_difference(win, lose)
    if at is None or at == 0 or winner.label != loser.label:
        return f"{winner.label}, which beats {loser.label}"
    category = PokerCategory(win[0])
    words_win, words_lose = _detailed(win, at, winner.wild), _detailed(lose, at, loser.wild)
    decides = ""
    if category in _EVERY_CARD:
        decides = f" (the {Rank(win[at]).word} decides)"
    return f"{words_win}, which beats {words_lose}{decides}"


def _detailed(key: tuple[int, ...], upto: int, wild: bool) -> str:
    """A key in words down to item ``upto``: every card for no pair and flushes, else the
    made cards with the odd cards that decide ("a pair of kings with an ace and a nine")."""
    category = PokerCategory(key[0])
    mark = ", with mistigris" if wild else ""
    if category in _EVERY_CARD:
        head = "no pair" if category is PokerCategory.NO_PAIR else "a flush"
        return f"{head}, {ranks_words(key[1:])}{mark}"
    made = _MADE.get(category, len(key) - 1)
    odd = [with_a(r) for r in key[1 + made : upto + 1]]
    base = describe_key(key)
    if not odd:
        return base + mark
    joiner = ", with " if category is PokerCategory.TWO_PAIRS else " with "
    return f"{base}{joiner}{listed(odd)}{mark}"


def _ints(key: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(x) for x in key)
