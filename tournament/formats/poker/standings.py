"""Progressive Poker's standings, prizes and settlement sheet of an evening (reads).

The standings are derived from the stored records: the evening's state after its last live bell
(``Bell.state_after``; the draw's seating before the first bell), with every guest on record,
seated or gone. Prizes follow ``tables.formats.poker.prizes`` with the evening's house rules
(``Evening.options["prizes"]``, see ``PrizeOptions``); the settlement sheet
``tables.formats.poker.prizes.settle`` when a counter has a money value (``Evening.counter_value``).
Rules: ``docs/rules/progressive-poker.md`` (prizes; fresh stakes charged at the settlement).
The product asks for them through the plug-in (``FormatPlugin.standings``,
``services.prizes.evening_standings``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal

from tables.errors import RuleError
from tables.formats.poker.bell import EveningState
from tables.formats.poker.prizes import PrizeOptions, Settlement, StandingRow, places, settle, standings
from tables.packs import Pack
from tables.prizes import Prize
from tournament.formats.poker.state import poker_state
from tournament.kept import Kept
from tournament.models import Evening, Guest
from tournament.name_keys import name_order
from tournament.registry import format_for
from tournament.services.naming import namer
from tournament.services.prizes import not_played, played_guests, prize_seed
from tournament.services.versions import evening_token


def prize_options(evening: Evening) -> PrizeOptions:
    """The evening's prize options (house rules) from ``evening.options["prizes"]``; raises
    ``RuleError`` for an unknown option or value."""
    return PrizeOptions.from_mapping(dict((evening.options or {}).get("prizes", {})))


@dataclass(frozen=True)
class StandingLine:
    """One line of the standings page: place (ties share a place), the guest, their row."""

    place: int
    guest: Guest
    row: StandingRow


@dataclass(frozen=True)
class PrizeLine:
    """One prize as shown: the prize (title with the host's pack labels), its winners, the
    reason in plain words with guests named."""

    prize: Prize
    title: str
    winners: tuple[Guest, ...]
    reason: str


@dataclass(frozen=True)
class SettlementLine:
    """One guest's line of the settlement sheet: counters won and the amount (positive: the
    guest receives it; negative: the guest pays it)."""

    guest: Guest
    line: Settlement


@dataclass(frozen=True)
class EveningStandings:
    """Standings, prizes and (when counters have a value) the settlement, of one evening."""

    lines: tuple[StandingLine, ...]
    prizes: tuple[PrizeLine, ...]
    settlement: tuple[SettlementLine, ...]
    total: Decimal | None
    did_not_play: tuple[Guest, ...] = ()
    """The guests who took part in no rung round (``services.prizes.not_played``): no place, no
    prize, nothing to settle."""


def poker_standings(evening: Evening, guests: Mapping[int, Guest] | None = None) -> EveningStandings:
    """The evening's standings, prizes and settlement sheet, in three or four queries whatever
    its size (one fewer with ``guests``: guest id -> guest, every guest of the evening, when the
    caller has read them). Before the draw everything is empty. Prize ties under ``ties="cut"``
    are cut with a generator seeded by the evening's public key, so the page shows the same cut
    every time (house rule: one cut per evening, not one per page view). Raises ``RuleError``
    for bad prize options stored on the evening. ``FormatPlugin.standings``."""
    options = prize_options(evening)
    if guests is None:
        guests = {g.pk: g for g in evening.guests.all()}
    try:
        state = poker_state(evening)
    except RuleError:
        return EveningStandings((), (), (), None)
    fmt = format_for(evening)
    played = played_guests(evening)
    state = players_only(state, played)  # a guest who never played holds no place, wins no prize
    packs = {g: Pack(guests[g].pack) for g in state.counters if g in guests}
    rows = standings(state, packs, stake=evening.counters_per_stake)
    lines = sorted(  # guests sharing a place by name (``name_keys.name_order``)
        (
            StandingLine(place=place, guest=guests[row.guest], row=row)
            for place, row in zip(places(rows), rows, strict=True)
        ),
        key=lambda line: (line.place, name_order(line.guest.name), line.guest.pk),
    )
    names = {pk: g.name for pk, g in guests.items()}
    prizes = fmt.rules_of(evening).prizes(
        state,
        packs,
        options=options,
        rng=random.Random(prize_seed(evening)),
        stake=evening.counters_per_stake,
    )
    prize_lines = tuple(
        PrizeLine(
            prize=p,
            title=_title(evening, p),
            winners=tuple(sorted((guests[g] for g in p.winners), key=lambda g: (name_order(g.name), g.pk))),
            reason=p.reason_for(namer(names)),
        )
        for p in prizes
    )
    settlement: tuple[SettlementLine, ...] = ()
    total = None
    if evening.counter_value is not None:
        sheet = settle(rows, counter_value=Decimal(evening.counter_value))
        settlement = tuple(SettlementLine(guest=guests[s.guest], line=s) for s in sheet)
        total = sum((s.amount for s in sheet), Decimal(0))
    return EveningStandings(tuple(lines), prize_lines, settlement, total, not_played(guests, played))


def players_only(state: EveningState, played: frozenset[int] | None) -> EveningState:
    """``state`` with only the guests who ``played`` (``FormatPlugin.played_guests``; None: all,
    before the first bell), for the standings and prizes: a guest seated now who played no rung
    round leaves their seat empty here, and their counters, yellow counters and stakes are left
    out. House rule: a place and a prize are for a guest who played."""
    if played is None:
        return state
    return replace(
        state,
        tables=tuple(tuple(g for g in table if g in played) for table in state.tables),
        counters={g: c for g, c in state.counters.items() if g in played},
        yellow={g: y for g, y in state.yellow.items() if g in played},
        stakes={g: s for g, s in state.stakes.items() if g in played},
    )


def board_standings(
    evening: Evening, state: EveningState, guests: Mapping[int, Guest]
) -> tuple[tuple[int, int, StandingRow], ...]:
    """The board's standings (``PokerFormat.standing_rows``): (place, guest id, row) for every
    guest of ``state`` among ``guests``, ordered by yellow counters, then counters won (fresh
    stakes charged), guests level sharing a place (``tables.formats.poker.prizes.standings``,
    ``places``); a guest who never played holds no place (``players_only``). Each guest's pack
    as registered. Kept by this process under all they are computed from (the state, who has
    played, each of its guests' pack and name, the counters a stake gives: the rows name guests
    by id only), so the first draw after a change that leaves those as they were (a table's
    result, a guest who has not played checked in) computes none (issue 26 item 3). One query
    (``FormatPlugin.played_guests``)."""
    played = played_guests(evening)
    shown = tuple((g, guests[g].pack, guests[g].name) for g in state.counters if g in guests)
    key = (state, played, shown, evening.counters_per_stake)
    token = evening_token(evening.pk, evening.public_key)
    return _BOARD_ROWS.get(token, key, lambda: _board_rows(state, played, guests, evening.counters_per_stake))


_BOARD_ROWS: Kept[tuple[tuple[int, int, StandingRow], ...]] = Kept(16)  # evening token -> its board's standings


def _board_rows(
    state: EveningState, played: frozenset[int] | None, guests: Mapping[int, Guest], stake: int
) -> tuple[tuple[int, int, StandingRow], ...]:
    """``board_standings``' rows, computed."""
    state = players_only(state, played)
    packs = {g: Pack(guests[g].pack) for g in state.counters if g in guests}
    rows = standings(state, packs, stake=stake)
    ranked = zip(places(rows), rows, strict=True)
    return tuple(
        (place, row.guest, row)
        for place, row in sorted(ranked, key=lambda pr: (pr[0], name_order(guests[pr[1].guest].name), pr[1].guest))
    )


def _title(evening: Evening, prize: Prize) -> str:
    """A prize's title as the host's pages show it: the packs' prizes by the host's labels."""
    if prize.key == "red_pack":
        return f"Most counters won, {evening.red_label}"
    if prize.key == "blue_pack":
        return f"Most counters won, {evening.blue_label}"
    return prize.title
