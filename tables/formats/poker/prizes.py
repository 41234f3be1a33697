"""Standings, prizes and the settlement at the end of a Progressive Poker evening.

Source: ``docs/rules/progressive-poker.md``, 'Prizes': "Three or four prizes are usual: one for the
most yellow counters won at the head table (ties go to the player with more ordinary counters);
one each for the lady and the gentleman (the red pack and the blue pack) who won the most
counters over the evening; and often a booby prize. Fresh stakes are charged against a player
when the evening is settled." Counters won = counters held minus every stake taken (the first
one included), so a fresh stake never changes it. The booby prize rule, and how ties are
settled, are house rules in ``PrizeOptions``. A guest may win more than one prize (house rule:
the seeds do not forbid it). A guest who left before the end is out of the booby prize's
running (house rule, ``award_prizes``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from tables.cuts import Cutter
from tables.errors import RuleError, id_words
from tables.formats.poker.bell.state import SEEDS_RULE, EveningState, check_stake
from tables.game_options import options_from_mapping
from tables.packs import Pack
from tables.prizes import Prize

NOBODY_RULE = "house rule: a pack prize whose best count of counters won is 0 or less goes to no one"
LEFT_RULE = "house rule: a guest who left before the end is out of the booby prize's running"


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One guest's line in the standings: counters and yellow counters held, stakes taken (the
    first included) and counters won (``counters - stakes * stake``, fresh stakes charged)."""

    guest: int
    pack: Pack
    counters: int
    yellow: int
    stakes: int
    counters_won: int

    @property
    def fresh_stakes(self) -> int:
        """The fresh stakes taken from the banker: every stake but the first (the one word
        "fresh stakes" on every page, document and export)."""
        return self.stakes - 1


def standings(state: EveningState, packs: Mapping[int, Pack | str], *, stake: int) -> tuple[StandingRow, ...]:
    """Every guest on record (seated or gone) with their counts, sorted by yellow counters
    (most first), then counters (most first), then guest id.

    ``packs`` maps guest id -> ``Pack`` (or "red"/"blue"); ``stake`` is the counters of one
    stake. Raises ``RuleError`` when a guest has no pack or the stake is not positive.
    Source: ``docs/rules/progressive-poker.md``, 'Prizes' (fresh stakes charged).
    """
    check_stake(stake)
    rows = []
    for guest, counters in state.counters.items():
        if guest not in packs:
            raise RuleError("{guest} has no pack: put them in the red or the blue pack.", guests=(guest,))
        pack = packs[guest]
        stakes = state.stakes.get(guest, 1)
        rows.append(
            StandingRow(
                guest=guest,
                pack=pack if isinstance(pack, Pack) else Pack.parse(pack),
                counters=counters,
                yellow=state.yellow.get(guest, 0),
                stakes=stakes,
                counters_won=counters - stakes * stake,
            )
        )
    return tuple(sorted(rows, key=lambda row: (-row.yellow, -row.counters, row.guest)))


BOOBY_RULES = ("fewest_won", "fewest_counters", "most_stakes", "none")
TIE_RULES = ("shared", "cut")


def places(rows: Sequence[StandingRow]) -> tuple[int, ...]:
    """The place of each row of ``standings`` (same order): guests level on yellow counters and
    counters share a place, and the next place skips as many ("1, 1, 3"); a 30-way tie at 0 is
    place 1 for all thirty. The one place computation every page, document and export uses.
    House rule (the rules rank only the prize winners): the prizes' own order."""
    result, place, previous = [], 0, None
    for index, row in enumerate(rows, 1):
        if (row.yellow, row.counters) != previous:
            place, previous = index, (row.yellow, row.counters)
        result.append(place)
    return tuple(result)


@dataclass(frozen=True, slots=True)
class PrizeOptions:
    """House rules for the prizes.

    booby_rule: "fewest_won" (the fewest counters won, fresh stakes charged: the default),
        "fewest_counters" (the fewest counters held at the end), "most_stakes" (the most fresh
        stakes taken; ties: fewest counters won), or "none" (no booby prize).
    ties: "shared" (every tied guest shares the prize) or "cut" (the tied guests cut cards and
        the highest cut takes it).
    """

    booby_rule: str = "fewest_won"
    ties: str = "shared"

    def __post_init__(self) -> None:
        if self.booby_rule not in BOOBY_RULES:
            raise RuleError(f"“{self.booby_rule}” is not a booby prize rule: use one of {', '.join(BOOBY_RULES)}.")
        if self.ties not in TIE_RULES:
            raise RuleError(f"“{self.ties}” is not a choice for ties: use shared or cut.")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> PrizeOptions:
        """Build options from a dict; ``RuleError`` for an unknown key or a bad value."""
        return options_from_mapping(cls, data, "the prizes")


def _best(
    rows: Sequence[StandingRow],
    score: Callable[[StandingRow], tuple[int, ...]],
    options: PrizeOptions,
    cutter: Cutter,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The rows with the highest ``score``; ties shared or cut. Returns (winners, the guests
    tied: empty without a tie)."""
    top = max(score(row) for row in rows)
    tied = tuple(sorted(row.guest for row in rows if score(row) == top))
    if len(tied) == 1:
        return tied, ()
    if options.ties == "shared":
        return tied, tied
    return (cutter.highest(tied, table=0, why="a prize", rule="house rule: ties=cut"),), tied


def _prize(key: str, title: str, winners: tuple[int, ...], why: str, rule: str, tied: tuple[int, ...]) -> Prize:
    """A ``Prize`` whose ``reason`` is ``why`` and the tie, guests by id."""
    prize = Prize(key, title, winners, why, rule, why, tied)
    return replace(prize, reason=prize.reason_for(id_words))


def award_prizes(
    rows: Sequence[StandingRow],
    *,
    options: PrizeOptions = PrizeOptions(),
    rng: random.Random | None = None,
    cuts: Mapping[int, int | Sequence[int]] | None = None,
    left: Collection[int] = (),
) -> tuple[Prize, ...]:
    """The evening's prizes from the standings ``rows``, in order: head table, red pack, blue
    pack, booby. A pack prize is left out when nobody is in that pack; the booby prize when
    ``booby_rule="none"``; everything when there are no rows. ``left``: the guests who left
    before the end, out of the booby prize's running (house rule: a leaver's count stopped
    early, so a guest who left cannot take the booby prize; they keep their counters, their
    place and their chance at the other prizes; with nobody who stayed it is not awarded). Ties are shared or cut
    (``options.ties``; cuts from ``cuts`` else ``rng``). Source: ``docs/rules/progressive-poker.md``
    (Progressive Poker); the booby rule and ties are house rules.
    """
    rows = tuple(rows)
    if not rows:
        return ()
    cutter = Cutter(cuts, rng)
    prizes = []
    winners, tied = _best(rows, lambda row: (row.yellow, row.counters), options, cutter)
    first = next(row for row in rows if row.guest == winners[0])
    prizes.append(
        _prize(
            "head_table",
            "Most yellow counters",
            winners,
            f"{first.yellow} yellow counter{'' if first.yellow == 1 else 's'} won at the head table, with {first.counters}"
            " counters.",
            SEEDS_RULE,
            tied,
        )
    )
    for pack, key in ((Pack.RED, "red_pack"), (Pack.BLUE, "blue_pack")):
        members = [row for row in rows if row.pack is pack]
        if members:
            prizes.append(_pack_prize(members, pack, key, options, cutter))
    if options.booby_rule != "none":
        stayed = tuple(row for row in rows if row.guest not in left)
        if stayed:
            prizes.append(_booby_prize(stayed, options, cutter))
        else:
            why = "Not awarded: every guest left before the end."
            prizes.append(Prize("booby", "Booby prize", (), why, LEFT_RULE, why))
    return tuple(prizes)


def _pack_prize(members: list[StandingRow], pack: Pack, key: str, options: PrizeOptions, cutter: Cutter) -> Prize:
    """A pack's prize, the most counters won (fresh stakes charged) among its ``members``; not
    awarded when nobody in the pack won a counter (house rule: nobody wins the most then).
    Ties shared or cut. Source: ``docs/rules/progressive-poker.md``."""
    winners, tied = _best(members, lambda row: (row.counters_won,), options, cutter)
    won = members[[row.guest for row in members].index(winners[0])].counters_won
    title = f"Most counters won, {pack.value} pack"
    if won <= 0:
        why = f"Not awarded: nobody in the {pack.value} pack won counters over the evening (fresh stakes charged)."
        return Prize(key, title, (), why, NOBODY_RULE, why)
    return _prize(key, title, winners, f"{won} counters won over the evening, fresh stakes charged.", SEEDS_RULE, tied)


def _booby_prize(rows: tuple[StandingRow, ...], options: PrizeOptions, cutter: Cutter) -> Prize:
    """The booby prize by ``options.booby_rule`` (not "none"): the fewest counters won, the
    fewest counters held or the most stakes taken; ties shared or cut. Source: house rule."""
    rule = f"house rule: booby_rule={options.booby_rule}"
    score, words = {
        "fewest_won": (lambda row: (-row.counters_won,), "the fewest counters won ({})"),
        "fewest_counters": (lambda row: (-row.counters,), "the fewest counters held ({})"),
        "most_stakes": (lambda row: (row.stakes, -row.counters_won), "the most stakes taken ({})"),
    }[options.booby_rule]
    winners, tied = _best(rows, score, options, cutter)
    row = next(row for row in rows if row.guest == winners[0])
    value = {"fewest_won": row.counters_won, "fewest_counters": row.counters, "most_stakes": row.stakes}[
        options.booby_rule
    ]
    said = str(value)
    if options.booby_rule == "fewest_won":  # counters won below 0 are counters lost, in words
        words = "the fewest counters won: {}, fresh stakes charged"
        if value < 0:
            words, said = "the most counters lost: {}, fresh stakes charged", str(-value)
        elif value == 0:
            said = "none"
    return _prize("booby", "Booby prize", winners, f"{words.format(said).capitalize()}.", rule, tied)


@dataclass(frozen=True, slots=True)
class Settlement:
    """What one guest receives (positive) or pays (negative) when a counter has a money value:
    ``amount = counters_won * counter_value``."""

    guest: int
    counters_won: int
    amount: Decimal


def settle(rows: Sequence[StandingRow], *, counter_value: Decimal) -> tuple[Settlement, ...]:
    """The settlement sheet: one line per guest in ``rows`` order, counters won times the value
    of one counter (a ``Decimal`` of money, 0 or more). When counters were conserved all
    evening the amounts add up to zero. Raises ``RuleError`` for a negative or non-Decimal
    value. Source: ``docs/rules/progressive-poker.md`` ("Fresh stakes are charged against a player when the
    evening is settled") and ``docs/rules/whiskey-poker.md``, 'Settling' (settling when counters have a value).
    """
    if not isinstance(counter_value, Decimal) or not counter_value.is_finite() or counter_value < 0:
        raise RuleError(f"A counter's value must be an amount of money, 0 or more (got {counter_value!r}).")
    return tuple(Settlement(row.guest, row.counters_won, row.counters_won * counter_value) for row in rows)
