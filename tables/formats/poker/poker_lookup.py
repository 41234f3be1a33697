"""Fast poker ranking by lookup tables, for exhaustive counts, the benchmark and big showdowns.

The rules are those of ``tables.formats.poker.poker`` (``docs/rules/draw-poker.md`` for Mistigris and
the Tiger); this module only makes them quick. It follows the method of Cactus Kev's evaluator
(as ``treys`` does): each card is an int holding its rank's prime number (bits 0-7), its suit
(one of bits 8-11) and its rank as a bit (bits 16-28). Five cards of one suit are looked up by
their rank bits; any other five by the product of their primes, which is the same for the same
ranks whatever the order. The tables are built lazily, once per set of options, by ranking every
rank pattern with ``tables.formats.poker.poker.natural_key`` (about 0.1 s; 0.3 s with the mistigris).

A hand's *class* is a dense int, higher is better: two hands have the same class exactly when
their ``poker_strength`` keys are equal (7,462 classes for the plain game).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from tables.cards import Card, CardError, Suit
from tables.formats.poker.poker import PokerCategory, PokerOptions, natural_key

PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
"""The prime of each rank, deuce to ace."""

MISTIGRIS_CODE = 0
"""The code of the mistigris (it has no rank prime and no suit bit)."""

_SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}
_SUIT_MASK = 0xF00
_PRIME_MASK = 0xFF
_RANKS = range(2, 15)


def card_code(card: Card) -> int:
    """The int code of a card for the fast tables (``MISTIGRIS_CODE`` for the mistigris)."""
    if card.rank is None or card.suit is None:
        return MISTIGRIS_CODE
    r = int(card.rank)
    return PRIMES[r - 2] | (1 << (8 + _SUIT_INDEX[card.suit])) | (1 << (16 + r - 2))


def _prime_product(ranks: Iterable[int]) -> int:
    product = 1
    for r in ranks:
        product *= PRIMES[r - 2]
    return product


def _rank_bits(ranks: Iterable[int]) -> int:
    bits = 0
    for r in ranks:
        bits |= 1 << (r - 2)
    return bits


def _mistigris_key(ranks: Sequence[int], suited: bool, options: PokerOptions) -> tuple[int, ...]:
    """Best key of four real ranks plus the mistigris, by trying each rank it may stand for.

    ``suited``: the four real cards share a suit. Follows ``tables.formats.poker.poker.mistigris_choices``:
    any card not held, and a fifth card of fours when ``five_of_a_kind`` is on.
    """
    counts = Counter(ranks)
    best: tuple[int, ...] = ()
    for r in _RANKS:
        if counts[r] == 4:
            if options.five_of_a_kind:
                best = max(best, natural_key([*ranks, r], False, options))
            continue
        best = max(best, natural_key([*ranks, r], False, options))
        if suited and counts[r] == 0:
            best = max(best, natural_key([*ranks, r], True, options))
    return best


@dataclass(frozen=True)
class PokerLookup:
    """The fast tables for one set of ``PokerOptions``.

    ``keys[n]`` is the ``poker_strength`` key of class ``n`` (index 0 unused);
    ``categories[n]`` its ``PokerCategory``. ``rank5(a, b, c, d, e)`` takes five real card codes
    and returns the class; ``rank_codes`` and ``rank_cards`` also take the mistigris.
    """

    options: PokerOptions
    keys: tuple[tuple[int, ...], ...]
    categories: tuple[PokerCategory, ...]
    flush: tuple[int, ...]
    unsuited: dict[int, int]
    mistigris_flush: dict[int, int]
    mistigris_unsuited: dict[int, int]
    rank5: Callable[[int, int, int, int, int], int]

    @property
    def class_count(self) -> int:
        """How many distinct strengths there are (7,462 for plain poker)."""
        return len(self.keys) - 1

    def rank_codes(self, codes: Sequence[int]) -> int:
        """The class of five card codes, one of which may be ``MISTIGRIS_CODE``.

        Raises ``CardError`` when the mistigris appears and the options have none.
        """
        if MISTIGRIS_CODE not in codes:
            return self.rank5(*codes)
        if not self.options.mistigris:
            raise CardError("This evening plays without the mistigris, but a hand shows it.")
        a, b, c, d = (x for x in codes if x != MISTIGRIS_CODE)
        if a & b & c & d & _SUIT_MASK:
            return self.mistigris_flush[(a | b | c | d) >> 16]
        return self.mistigris_unsuited[(a & _PRIME_MASK) * (b & _PRIME_MASK) * (c & _PRIME_MASK) * (d & _PRIME_MASK)]

    def rank_cards(self, cards: Sequence[Card]) -> int:
        """The class of five ``Card`` values (see ``rank_codes``)."""
        return self.rank_codes([card_code(c) for c in cards])


def _make_rank5(flush: tuple[int, ...], unsuited: dict[int, int]) -> Callable[[int, int, int, int, int], int]:
    def rank5(
        a: int, b: int, c: int, d: int, e: int, _flush: tuple[int, ...] = flush, _unsuited: dict[int, int] = unsuited
    ) -> int:
        """The class (higher is better) of five real card codes."""
        if a & b & c & d & e & 0xF00:
            return _flush[(a | b | c | d | e) >> 16]
        return _unsuited[(a & 0xFF) * (b & 0xFF) * (c & 0xFF) * (d & 0xFF) * (e & 0xFF)]

    return rank5


@functools.lru_cache(maxsize=32)
def lookup_for(options: PokerOptions = PokerOptions()) -> PokerLookup:
    """The fast tables for ``options``, built on first use and kept."""
    natural_tail, wild_tail = options.tie_tails

    unsuited_keys: dict[int, tuple[int, ...]] = {}
    for ranks in combinations_with_replacement(_RANKS, 5):
        if ranks[0] != ranks[4]:
            unsuited_keys[_prime_product(ranks)] = natural_key(ranks, False, options) + natural_tail
    flush_keys = {
        _rank_bits(ranks): natural_key(ranks, True, options) + natural_tail for ranks in combinations(_RANKS, 5)
    }
    wild_unsuited: dict[int, tuple[int, ...]] = {}
    wild_flush: dict[int, tuple[int, ...]] = {}
    if options.mistigris:
        for four in combinations_with_replacement(_RANKS, 4):
            wild_unsuited[_prime_product(four)] = _mistigris_key(four, False, options) + wild_tail
        for four in combinations(_RANKS, 4):
            wild_flush[_rank_bits(four)] = _mistigris_key(four, True, options) + wild_tail

    all_keys = sorted(
        set(unsuited_keys.values()) | set(flush_keys.values()) | set(wild_unsuited.values()) | set(wild_flush.values())
    )
    number = {key: n for n, key in enumerate(all_keys, start=1)}
    flush_table = [0] * (1 << 13)
    for bits, key in flush_keys.items():
        flush_table[bits] = number[key]
    flush = tuple(flush_table)
    unsuited = {p: number[k] for p, k in unsuited_keys.items()}
    return PokerLookup(
        options=options,
        keys=((),) + tuple(all_keys),
        categories=(PokerCategory.NO_PAIR,) + tuple(PokerCategory(k[0]) for k in all_keys),
        flush=flush,
        unsuited=unsuited,
        mistigris_flush={b: number[k] for b, k in wild_flush.items()},
        mistigris_unsuited={p: number[k] for p, k in wild_unsuited.items()},
        rank5=_make_rank5(flush, unsuited),
    )
