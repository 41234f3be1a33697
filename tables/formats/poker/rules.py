"""Progressive Poker behind the formats' interface (``tables.formats.engine.FormatRules``): its
entry (key, title, seating, tallies, source) and its rules (``docs/rules/progressive-poker.md``;
Foster's *Complete Hoyle*, "Progressive Poker")."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tables.cuts import Cuts
from tables.formats.engine import DrawnSeat, FormatEntry, FormatRules, Plan, Rung, Seating
from tables.formats.poker.bell import BellOptions, BellRecord, EveningState, TableResult, ring_bell
from tables.formats.poker.draw import deal, seating
from tables.formats.poker.plan import plan_tables
from tables.formats.poker.prizes import PrizeOptions, award_prizes, standings
from tables.packs import Pack
from tables.prizes import Prize
from tables.sources import PROGRESSIVE_POKER

POKER = FormatEntry(
    key="poker",
    title="Progressive Poker",
    partners=False,
    seating="four at the head and the foot table, four to seven at the tables between",
    tallies=(("counters", "counters"), ("yellow", "yellow counters")),
    source=PROGRESSIVE_POKER,
)
"""Progressive Poker's entry: no partners, four to seven a table."""


@dataclass(frozen=True, slots=True)
class PokerRules:
    """Progressive Poker behind ``FormatRules`` (Foster, "Progressive Poker"; the seeds): the
    plan ``tables.formats.poker.plan.plan_tables``, the draw ``tables.formats.poker.draw.deal``, the bell
    ``tables.formats.poker.bell.ring_bell``, the prizes ``tables.prizes.award_prizes``. Behaviour is theirs,
    unchanged: this class only gives them the format's common names."""

    entry: FormatEntry

    def plan(self, players: int, *, accept_relaxed: bool = False) -> Plan:
        """``plan_tables``: four at the head and the foot table, four to seven between (raises
        ``PlanError`` for fewer than 8 guests, and for 9 to 11 unless the relaxed plan is accepted)."""
        made = plan_tables(players, accept_relaxed=accept_relaxed)
        return Plan(made.sizes, made.relaxed)

    def draw(
        self,
        guests: Sequence[tuple[int, Pack]],
        *,
        accept_relaxed: bool = False,
        representing: Collection[int] = (),
        rng: random.Random | None = None,
    ) -> Seating:
        """``deal`` and ``seating``: every guest a table card of their pack (rank = table)."""
        made = plan_tables(len(guests), accept_relaxed=accept_relaxed)
        dealt = deal(guests, made, rng=rng, representing=representing)
        cards = tuple(DrawnSeat(c.guest, c.card.pack, c.card.rank, None, c.represents_other) for c in dealt)
        return Seating(Plan(made.sizes, made.relaxed), seating(dealt, made), cards)

    def ring(
        self,
        state: EveningState,
        reports: Sequence[TableResult],
        *,
        options: BellOptions,
        last_round: bool = False,
        cuts: Cuts | None = None,
        rng: random.Random | None = None,
        stake: int = 1,
    ) -> Rung[BellRecord, EveningState]:
        """``ring_bell`` with the round's ``TableResult`` values (``reports``), the fresh
        ``stake`` in counters and the ``BellOptions``; the record is a ``BellRecord``."""
        record = ring_bell(state, reports, stake=stake, options=options, cuts=cuts, rng=rng, last_round=last_round)
        return Rung(record, record.after)

    def prizes(
        self,
        state: EveningState,
        packs: Mapping[int, Pack],
        *,
        options: PrizeOptions,
        rng: random.Random | None = None,
        stake: int = 0,
    ) -> tuple[Prize, ...]:
        """``award_prizes`` on the standings of ``state`` (``stake``: counters of one stake); a
        guest on record with no seat has left, so is out of the booby prize's running (house
        rule)."""
        seated = {guest for table in state.tables for guest in table}
        left = frozenset(state.counters) - seated
        return award_prizes(standings(state, packs, stake=stake), options=options, rng=rng, left=left)


POKER_RULES: FormatRules[EveningState, Sequence[TableResult], BellOptions, PrizeOptions, Cuts, BellRecord] = PokerRules(
    POKER
)
"""Progressive Poker's rules, typed by its values (mypy checks that ``PokerRules`` keeps the interface)."""
