"""Guests who leave mid-evening or arrive late, with every table kept playable.

The seeds are silent on both (``docs/rules/progressive-poker.md``, 'Guests who leave or arrive'), so
every rule here is a house rule, overridable through ``BellOptions``:

- A guest who leaves keeps their counters, yellow counters and stakes in the standings. Their
  table plays one short; if it would fall below 3 players (or always, with
  ``leave_fill="always"``) a player moves in from the largest table that can spare one
  (nearest first, the table below before the one above); who moves is decided by cut (the
  lowest cut stays). If no table can spare a player, the short table closes: its players join
  the smallest tables nearest it, and the tables below it move up one number.
- A late guest takes a stake from the banker (a guest coming back keeps what they had) and
  sits at the booby table, or at the smallest table when the booby table is full
  (``max_table``), or wherever the host says.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from tables.cuts import Cuts, Cutter
from tables.entries import BellEntry
from tables.errors import RuleError
from tables.formats.poker.bell.options import BellOptions
from tables.formats.poker.bell.ring import table_name
from tables.formats.poker.bell.state import BellRecord, EveningState, check_stake
from tables.words import once

LEAVE_RULE = "house rule: a guest who leaves keeps their counters in the standings"
CLOSE_RULE = "house rule: a table that cannot stay at 3 players closes"
ARRIVE_RULE = "house rule: a late guest takes a stake"


def _state(
    tables: list[list[int]], counters: Mapping[int, int], yellow: Mapping[int, int], stakes: Mapping[int, int]
) -> EveningState:
    return EveningState(tuple(map(tuple, tables)), counters, yellow, stakes)


def _fill_short_table(tables: list[list[int]], number: int, guest: int, cutter: Cutter, options: BellOptions) -> None:
    """Move one player into table ``number`` (which ``guest`` just left) from the largest table
    that can spare one, nearest first, the table below before the one above; the mover is the
    highest cut there. Changes ``tables`` in place and adds a "fill" entry to ``cutter.entries``;
    does nothing when no table can spare a player. Source: house rule ``leave_fill``.
    """
    count = len(tables)
    seats = tables[number - 1]
    need = max(4, len(seats) + 2)
    sources = [k for k in range(1, count + 1) if k != number and len(tables[k - 1]) >= need]
    if not sources:
        return
    source = min(sources, key=lambda k: (-len(tables[k - 1]), abs(k - number), -k))
    rule = options.house("leave_fill")
    mover = cutter.highest(tables[source - 1], table=source, why=f"who moves to table {number}", rule=rule)
    tables[source - 1].remove(mover)
    seats.append(mover)
    cutter.entries.append(
        BellEntry(
            "fill",
            mover,
            source,
            number,
            0,
            rule,
            (
                f"Guest {guest} left {table_name(number, count)} and you cut the highest card at"
                f" table {source}: go to {table_name(number, count)}."
            ),
            (
                f"Guest {guest} left {table_name(number, count)}; guest {mover} cut the highest card at"
                f" table {source}: goes to {table_name(number, count)}."
            ),
        )
    )


def _close_table(
    tables: list[list[int]], number: int, guest: int, entries: list[BellEntry], options: BellOptions
) -> list[str]:
    """Close table ``number`` (too short after ``guest`` left): its players join the smallest
    tables nearest it and the tables below it move up one number. Changes ``tables`` in place,
    adds "close" and "renumber" entries to ``entries`` and returns warnings for tables now over
    ``options.max_table`` players. Raises ``RuleError`` when fewer than 2 tables would be left.
    Source: house rule (CLOSE_RULE).
    """
    count = len(tables)
    seats = tables[number - 1]
    if count - 1 < 2:
        raise RuleError(
            "If {guest} leaves, table {table} has {size} players and no table"
            " can spare one: fewer than two tables would be left. Seat the evening again.",
            guests=(guest,),
            tables=(number,),
            size=len(seats),
        )
    left_over = list(seats)
    old_numbers = [k for k in range(1, count + 1) if k != number]
    renumber = {k: (k if k < number else k - 1) for k in old_numbers}
    del tables[number - 1]
    for mover in left_over:
        target = min(old_numbers, key=lambda k: (len(tables[renumber[k] - 1]), abs(k - number), -k))
        tables[renumber[target] - 1].append(mover)
        entries.append(
            BellEntry(
                "close",
                mover,
                number,
                renumber[target],
                0,
                CLOSE_RULE,
                (f"Table {number} closed when guest {guest} left: go to {table_name(renumber[target], count - 1)}."),
                (
                    f"Table {number} closed when guest {guest} left: guest {mover} goes to"
                    f" {table_name(renumber[target], count - 1)}."
                ),
            )
        )
    entries.extend(_renumber_entries(tables, number, renumber, left_over))
    return [
        f"Table {k} now has {len(table)} players, more than {options.max_table}."
        for k, table in enumerate(tables, start=1)
        if len(table) > options.max_table
    ]


def _renumber_entries(
    tables: list[list[int]], number: int, renumber: dict[int, int], left_over: list[int]
) -> list[BellEntry]:
    """The "renumber" entries after table ``number`` closed: one for each guest who keeps a seat
    at a table whose number went down by one. ``tables``: the tables after the close (new
    numbering); ``renumber``: old table number -> new; ``left_over``: the closed table's
    players, who got "close" entries instead. Source: house rule (CLOSE_RULE).
    """
    count = len(tables)
    entries = []
    for k, new in renumber.items():
        if new != k:
            for other in tables[new - 1]:
                if other not in left_over:
                    entries.append(
                        BellEntry(
                            "renumber",
                            other,
                            k,
                            new,
                            0,
                            CLOSE_RULE,
                            (f"Table {number} closed: your table {k} is now {table_name(new, count)}; keep your seat."),
                            (
                                f"Table {number} closed: guest {other}'s table {k} is now"
                                f" {table_name(new, count)}; keeps the seat."
                            ),
                        )
                    )
    return entries


def guest_leaves(
    state: EveningState,
    guest: int,
    *,
    options: BellOptions = BellOptions(),
    cuts: Cuts | None = None,
    rng: random.Random | None = None,
) -> BellRecord:
    """``guest`` leaves their seat between two bells; returns a record of kind "leave".

    Entries: "leave" for the guest; "cut" and "fill" when a player moves in to keep the table
    at 3 or more; "close" and "renumber" when the table closes. ``cuts``/``rng`` as for
    ``ring_bell``. Raises ``RuleError`` when the guest has no seat, or when closing the table
    would leave fewer than 2 tables. Source: house rules (module docstring), ``leave_fill``.
    """
    number = state.table_of(guest)
    count = len(state.tables)
    tables = [list(table) for table in state.tables]
    seats = tables[number - 1]
    seats.remove(guest)
    cutter = Cutter(cuts, rng)
    entries = cutter.entries
    warnings: list[str] = []
    entries.append(
        BellEntry(
            "leave",
            guest,
            number,
            None,
            0,
            LEAVE_RULE,
            (
                f"You have left {table_name(number, count)}; your {state.counters[guest]} counters"
                f"{' and your yellow counters' if state.yellow.get(guest) else ''} stay in the standings."
            ),
            (
                f"Guest {guest} has left {table_name(number, count)}; their {state.counters[guest]} counters"
                f"{' and yellow counters' if state.yellow.get(guest) else ''} stay in the standings."
            ),
        )
    )
    if len(seats) < 3 or options.leave_fill == "always":
        _fill_short_table(tables, number, guest, cutter, options)
    if len(seats) < 3:
        warnings = _close_table(tables, number, guest, entries, options)
    after = _state(tables, state.counters, state.yellow, state.stakes)
    after.check()
    return BellRecord(
        before=state,
        after=after,
        entries=tuple(entries),
        warnings=once(warnings),
        kind="leave",
        options=options.to_json(),
        guest=guest,
    )


def _arrival_table(state: EveningState, table: int | None, options: BellOptions) -> tuple[int, str]:
    """The table (1-based) a late guest sits at and the rule that chose it: ``table`` when the
    host gave one, else the booby table unless it already has ``options.max_table`` players,
    else the smallest table nearest the booby table. Raises ``RuleError`` when ``table`` is not
    one of this evening's tables. Source: house rule ``arrive_at``.
    """
    count = len(state.tables)
    if table is not None:
        if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= count:
            raise RuleError(f"There is no table {table!r} this evening: the tables are 1 to {count}.")
        return table, "house rule: the host chose the table"
    rule = options.house("arrive_at")
    if options.arrive_at == "booby" and len(state.tables[-1]) < options.max_table:
        return count, rule
    return min(range(1, count + 1), key=lambda k: (len(state.tables[k - 1]), -k)), rule


def guest_arrives(
    state: EveningState,
    guest: int,
    *,
    stake: int,
    table: int | None = None,
    options: BellOptions = BellOptions(),
) -> BellRecord:
    """A late ``guest`` joins between two bells; returns a record of kind "arrive".

    A new guest takes ``stake`` counters from the banker (one stake on their record, no yellow
    counters); a guest who left earlier and comes back keeps their counters and stakes. They
    sit at ``table`` when given, else by ``options.arrive_at`` (the booby table unless it
    already has ``max_table`` players, else the smallest table nearest the booby table).
    Raises ``RuleError`` when the guest already has a seat or the table does not exist.
    Source: house rules (module docstring).
    """
    check_stake(stake)
    if isinstance(guest, bool) or not isinstance(guest, int):
        raise RuleError(f"Guest id {guest!r} is not a whole number.")
    if guest in state.seated():
        raise RuleError(
            "{guest} already has a seat at table {table}.", guests=(guest,), tables=(state.table_of(guest),)
        )
    count = len(state.tables)
    warnings: list[str] = []
    asked = table
    table, rule = _arrival_table(state, table, options)
    if len(state.tables[table - 1]) >= options.max_table:
        warnings.append(
            f"Table {table} now has {len(state.tables[table - 1]) + 1} players, more than {options.max_table}."
        )
    tables = [list(seats) for seats in state.tables]
    tables[table - 1].append(guest)
    counters, yellow, stakes = dict(state.counters), dict(state.yellow), dict(state.stakes)
    where = table_name(table, count)
    if guest in counters:
        amount = 0
        text = f"Welcome back: you keep your {counters[guest]} counters; sit at {where}."
        about = f"Guest {guest} is back with {counters[guest]} counters: sits at {where}."
    else:
        amount = stake
        counters[guest], yellow[guest], stakes[guest] = stake, 0, 1
        text = f"Welcome: the banker gives you a stake of {stake} counters; sit at {where}."
        about = f"Guest {guest} arrived and takes a stake of {stake} counters: sits at {where}."
    entry = BellEntry("arrive", guest, None, table, amount, f"{ARRIVE_RULE}; {rule}", text, about)
    after = _state(tables, counters, yellow, stakes)
    after.check()
    return BellRecord(
        before=state,
        after=after,
        entries=(entry,),
        warnings=once(warnings),
        kind="arrive",
        stake=stake,
        options=options.to_json(),
        guest=guest,
        table=asked,
    )
