"""Progressive Poker's seat change after round 1 has started: a step of the evening's history,
a ``BellRecord`` of kind "seat" (``FormatPlugin.seats_changed``), and the same change made again
when a correction or an imported evening replays it.

The change itself (checked, in words, audited) is every format's: ``services.seat_changes``.
Rules: ``tables.seats.change_seats`` within ``PokerFormat.table_limits`` (house rule,
docs/rules/progressive-poker.md, "Changing seats": any table with room, 3 to 7 players).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from tables.formats.poker.bell import BellEntry, BellRecord, EveningState
from tables.seats import SeatChange, TableLimits, change_seats, seat_moves
from tournament.formats.poker.bell import bell_store, seats_follow
from tournament.formats.poker.state import poker_state
from tournament.models import Bell, Evening, Round
from tournament.registry import format_for


def poker_seat_record(state: EveningState, change: SeatChange | None, limits: TableLimits) -> BellRecord:
    """Progressive Poker's record of a seat change on ``state`` (a ``BellRecord`` of kind "seat":
    the guest, the table moved to, an entry "seat" for every guest at another table after it,
    the counters unchanged); ``change`` None (a swap at one table, which moves nobody): the
    state unchanged. Raises ``RuleError`` as ``tables.seats.change_seats``."""
    if change is None:
        return BellRecord(before=state, after=state, entries=(), kind=Bell.Kind.SEAT)
    tables = change_seats(state.tables, change, limits=limits)
    entries = [
        BellEntry(
            kind="seat",
            guest=player,
            from_table=a,
            to_table=b,
            rule="house rule: the host changes seats (docs/rules/progressive-poker.md)",
            text=f"The host changed your seat: go to table {b}.",
            about=f"Guest {player} changes seats: from table {a} to table {b}.",
        )
        for player, a, b in seat_moves(state.tables, tables, fixed_seats=False)
    ]
    return BellRecord(
        before=state,
        after=replace(state, tables=tables),
        entries=tuple(entries),
        kind=Bell.Kind.SEAT,
        guest=change.guest,
        table=change.table,
    )


def poker_seats_step(
    *,
    evening: Evening,
    last: Round,
    change: SeatChange,
    before: Sequence[Sequence[int]],
    after: Sequence[Sequence[int]],
    words: str,
    names: Mapping[int, str],
) -> Bell:
    """Progressive Poker's "seat" step on ``last`` (``FormatPlugin.seats_changed``): the record
    ``poker_seat_record`` makes, stored with its entries, the ``Seat`` rows followed. Inside the
    caller's transaction."""
    state = poker_state(evening, final=False)
    record = poker_seat_record(state, change, format_for(evening).table_limits())
    bell = bell_store(rnd=last, cause=Bell.Cause.HOST, record=record, names=names)
    seats_follow(evening=evening, before=state, after=record.after)
    return bell


def poker_seat_change_again(state: EveningState, record: BellRecord, limits: TableLimits) -> BellRecord:
    """The record of a stored poker "seat" step (``record``) replayed on ``state`` (a correction
    replays every later step): the same guest moves to the same table, or swaps with the same
    guest (the other mover's entry), within ``limits``. Raises ``RuleError`` as ``change_seats``
    does when it no longer fits."""
    others = [e.guest for e in record.entries if e.kind == "seat" and e.guest != record.guest]
    change = None
    if record.guest is not None and record.table:
        change = SeatChange(record.guest, table=record.table)
    elif record.guest is not None and others:
        change = SeatChange(record.guest, other=others[0])
    return replace(poker_seat_record(state, change, limits), options=record.options)
