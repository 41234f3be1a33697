"""The family of progressive parties, one entry a format: what ``tournament/`` asks of any format.

A host chooses the evening's format when creating it (``docs/rules/README.md``): Progressive
Poker (the seeds; Foster), Progressive Euchre, Drive Whist or Bunco. Every format shares the
two-pack draw, the head table's bell, movement between tables and prizes; ``FormatEntry`` says
how this one seats its tables, what each guest's tallies are and where its rules come from.

``rules_for(key)`` gives the format's rules behind one interface (``FormatRules``), which is
what ``tournament/`` calls for every format, Progressive Poker included:

* ``plan(players, accept_relaxed=...)``: the table plan (``Plan``: players per table);
* ``draw(guests, accept_relaxed=..., representing=..., rng=...)``: the seating draw
  (``Seating``: the tables and every guest's card);
* ``ring(state, reports, options=..., last_round=..., cuts=..., rng=...)``: the bell
  (``Rung``: the record and the state after it);
* ``prizes(state, packs, options=..., rng=..., stake=...)``: the prizes.

The values a format's state, reports, options and records take are its own (Progressive
Poker: ``tables.formats.poker.bell.EveningState``, ``TableResult``, ``BellOptions``, ``BellRecord``; tables of
four: ``tables.formats.bell.FoursomeState``, ``TableScore``, ``FoursomeOptions``,
``FoursomeBell``); the interface is the same. Progressive Poker's rules are ``tables.formats.poker.plan``,
``tables.formats.poker.draw``, ``tables.formats.poker.bell`` and ``tables.prizes`` (the seeds); the others' are
``tables.formats`` (``docs/rules/tables-of-four.md``).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from tables.cuts import Cutter
from tables.errors import RuleError
from tables.formats import BUNCO, EUCHRE, WHIST, FoursomeFormat, FoursomeOptions, prize_rules
from tables.formats.bell import FoursomeBell, FoursomeState, ring_foursome_bell
from tables.formats.foursome import Movement, Side, draw_foursomes, table_count
from tables.formats.prizes import award_foursome_prizes
from tables.formats.scoring import TableScore
from tables.packs import Pack
from tables.prizes import Prize


@dataclass(frozen=True, slots=True)
class FormatEntry:
    """One format of the family.

    ``key``: what ``Evening.format`` stores ("poker", "euchre", "whist", "bunco"); ``title``;
    ``seating``: the table plan in words; ``partners``: whether players sit as partnerships;
    ``tallies``: (tally name, words) as the standings show them; ``source``: the rules' book;
    ``foursome``: the rules of a format played at tables of four (None for Progressive Poker).
    """

    key: str
    title: str
    seating: str
    partners: bool
    tallies: tuple[tuple[str, str], ...]
    source: str
    foursome: FoursomeFormat | None = None

    @property
    def is_poker(self) -> bool:
        """Whether this is Progressive Poker (no partners, four to seven a table)."""
        return self.foursome is None


def foursome_entry(fmt: FoursomeFormat) -> FormatEntry:
    """The entry of a format at tables of four (``fmt``: its ``FoursomeFormat``): its key, title,
    tallies and source, with partners and the family's seating in words. A new game of the
    family makes its entry so and its rules as ``FoursomeRules(foursome_entry(fmt), fmt)``
    (``docs/architecture.md``, "Add a format")."""
    return FormatEntry(
        key=fmt.key,
        title=fmt.title,
        partners=True,
        tallies=fmt.tallies,
        source=fmt.source,
        foursome=fmt,
        seating="tables of four, two partnerships sitting opposite; a ghost takes a seat left empty",
    )


ENGINE: dict[str, FormatEntry] = {f.key: foursome_entry(f) for f in (EUCHRE, WHIST, BUNCO)}
"""The formats at tables of four, by stored key (Progressive Poker's entry and rules are its own:
``tables.formats.poker.rules``; the Euchre tournament's ``tables.formats.euchre_tournament``)."""


def format_entry(key: str) -> FormatEntry:
    """The format stored as ``key``; raises ``RuleError`` listing the formats otherwise."""
    try:
        return ENGINE[key]
    except KeyError:
        raise RuleError(f"“{key}” is not a format: choose {', '.join(ENGINE)}.") from None


@dataclass(frozen=True, slots=True)
class Plan:
    """A table plan: players per table, table 1 (the head) first, and what it relaxes of the
    rules when they cannot seat this count (Progressive Poker's 9 to 11 guests; else None)."""

    sizes: tuple[int, ...]
    relaxed: str | None = None

    @property
    def guests(self) -> int:
        """The number of players the plan seats (the sum of the sizes)."""
        return sum(self.sizes)

    @property
    def tables(self) -> int:
        """The number of tables (the last one's number)."""
        return len(self.sizes)


@dataclass(frozen=True, slots=True)
class DrawnSeat:
    """One guest's card of the seating draw: the card's pack and table (Progressive Poker: the
    rank, ace = 1 = the head table), its seat at a table of four (0 North .. 3 West; None for
    Progressive Poker), and whether the guest drew from the other pack."""

    guest: int
    pack: Pack
    table: int
    seat: int | None
    represents_other: bool


@dataclass(frozen=True, slots=True)
class Seating:
    """What a draw gives: the plan, the tables (ids, table 1 first; at tables of four in seat
    order North, East, South, West with ghosts as negative ids) and every guest's card."""

    plan: Plan
    tables: tuple[tuple[int, ...], ...]
    cards: tuple[DrawnSeat, ...]


StateT = TypeVar("StateT")
ReportsT = TypeVar("ReportsT", contravariant=True)
OptionsT = TypeVar("OptionsT", contravariant=True)
PrizeOptionsT = TypeVar("PrizeOptionsT", contravariant=True)
CutsT = TypeVar("CutsT", contravariant=True)
RecordT = TypeVar("RecordT")


@dataclass(frozen=True, slots=True)
class Rung(Generic[RecordT, StateT]):
    """What a bell did: the format's record of it (``RecordT``), and the state after it."""

    record: RecordT
    after: StateT


@runtime_checkable
class FormatRules(Protocol[StateT, ReportsT, OptionsT, PrizeOptionsT, CutsT, RecordT]):
    """The rules of one format behind the interface ``tournament/`` calls (module docstring),
    generic over the format's own values: its state (``StateT``: where everyone sits and their
    tallies), a round's reports (``ReportsT``), the bell's options (``OptionsT``) and the prizes'
    (``PrizeOptionsT``), the cuts a bell may be given (``CutsT``) and the bell's record
    (``RecordT``). Progressive Poker's are ``EveningState``, the ``TableResult`` values,
    ``BellOptions``, ``PrizeOptions``, ``CardsCut`` and ``BellRecord``; the tables of four's
    ``FoursomeState``, table -> ``TableScore``, ``FoursomeOptions`` (both), table -> the side
    that won the cut, and ``FoursomeBell``."""

    @property
    def entry(self) -> FormatEntry:
        """The format's entry (key, title, tallies, source)."""
        ...

    def plan(self, players: int, *, accept_relaxed: bool = False) -> Plan:
        """The table plan for ``players`` checked-in guests; ``RuleError`` when they cannot be seated."""
        ...

    def draw(
        self,
        guests: Sequence[tuple[int, Pack]],
        *,
        accept_relaxed: bool = False,
        representing: Collection[int] = (),
        rng: random.Random | None = None,
    ) -> Seating:
        """Deal the seating draw to (guest id, own pack) pairs; ``RuleError`` for a wrong pick."""
        ...

    def ring(
        self,
        state: StateT,
        reports: ReportsT,
        *,
        options: OptionsT,
        last_round: bool = False,
        cuts: CutsT | None = None,
        rng: random.Random | None = None,
        stake: int = 0,
    ) -> Rung[RecordT, StateT]:
        """Ring the bell on ``state`` with each table's report (``stake``: counters of a fresh
        stake, where the format has stakes); ``RuleError`` for a bad one."""
        ...

    def prizes(
        self,
        state: StateT,
        packs: Mapping[int, Pack],
        *,
        options: PrizeOptionsT,
        rng: random.Random | None = None,
        stake: int = 0,
    ) -> tuple[Prize, ...]:
        """The prizes for the state's tallies (each guest's ``packs``)."""
        ...


@dataclass(frozen=True, slots=True)
class FoursomeRules:
    """A format at tables of four behind ``FormatRules`` (``docs/rules/tables-of-four.md``): tables of four with
    ghosts, the partnership draw ``draw_foursomes``, the bell ``ring_foursome_bell`` (movement
    and partners from the host's ``FoursomeOptions``, else the format's), the prizes
    ``award_foursome_prizes``."""

    entry: FormatEntry
    fmt: FoursomeFormat

    def plan(self, players: int, *, accept_relaxed: bool = False) -> Plan:
        """Tables of four, ghosts in the empty seats (raises ``RuleError`` below four guests)."""
        return Plan((4,) * table_count(players))

    def draw(
        self,
        guests: Sequence[tuple[int, Pack]],
        *,
        accept_relaxed: bool = False,
        representing: Collection[int] = (),
        rng: random.Random | None = None,
    ) -> Seating:
        """``draw_foursomes``: every guest a seat card of their pack (red North and East, blue
        South and West), ghosts in the seats left."""
        tables, cards = draw_foursomes(guests, rng=rng, representing=representing)
        own = dict(guests)
        seats = tuple(DrawnSeat(g, c.pack, c.table, int(c.seat), c.pack is not own[g]) for g, c in cards.items())
        return Seating(Plan((4,) * len(tables)), tables, seats)

    def movement(self, options: FoursomeOptions) -> tuple[Movement, bool]:
        """The movement and whether partners change: the host's options, else the format's."""
        return options.movement_for(self.fmt)

    def ring(
        self,
        state: FoursomeState,
        reports: Mapping[int, TableScore],
        *,
        options: FoursomeOptions,
        last_round: bool = False,
        cuts: Mapping[int, Side] | None = None,
        rng: random.Random | None = None,
        stake: int = 0,
    ) -> Rung[FoursomeBell, FoursomeState]:
        """``ring_foursome_bell`` with each table's ``TableScore`` (``reports``: table -> score);
        the record is a ``FoursomeBell``; ``stake`` is unused (no counters at these tables).
        The last round moves players too (house rule: the
        room shows where each would go; nobody sits down again)."""
        movement, partners = self.movement(options)
        record, after = ring_foursome_bell(
            state, reports, movement=movement, partners_change=partners, cuts=cuts, rng=rng
        )
        return Rung(record, after)

    def prizes(
        self,
        state: FoursomeState,
        packs: Mapping[int, Pack],
        *,
        options: FoursomeOptions,
        rng: random.Random | None = None,
        stake: int = 0,
    ) -> tuple[Prize, ...]:
        """``award_foursome_prizes`` on every player's tallies (seated players with none count 0);
        a guest with tallies and no seat has left, so is out of the booby prize's running (house
        rule, ``tables.formats.prizes``)."""
        seated = {p for t in state.tables for p in t}
        tallies = {p: dict(state.tallies.get(p, {})) for p in seated}
        tallies |= {p: dict(t) for p, t in state.tallies.items()}
        return award_foursome_prizes(
            tallies,
            packs,
            prize_rules(self.fmt, options),
            ties=options.prize_ties,
            cutter=Cutter(None, rng),
            left=frozenset(tallies) - seated,
        )


FOURSOME_RULES: dict[
    str,
    FormatRules[
        FoursomeState, Mapping[int, TableScore], FoursomeOptions, FoursomeOptions, Mapping[int, Side], FoursomeBell
    ],
] = {key: FoursomeRules(entry, entry.foursome) for key, entry in ENGINE.items() if entry.foursome is not None}
"""The rules of each format at tables of four, typed by their values (checked as above)."""

AnyRules = FormatRules[Any, Any, Any, Any, Any, Any]
"""The rules of some format, whichever its values: what a table of every format holds (each
format's own class says its values: ``PokerRules``, ``FoursomeRules``)."""

RULES: dict[str, AnyRules] = dict(FOURSOME_RULES)
"""Every format's rules behind ``FormatRules``, by stored key."""


def rules_for(key: str) -> AnyRules:
    """The rules of the format stored as ``key`` behind ``FormatRules``; ``RuleError`` otherwise."""
    return RULES[format_entry(key).key]
