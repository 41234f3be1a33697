"""Checking the tables' results before the bell applies them.

Rules: issue 4 ("Bad input" and item 3): a winner must sit at the table, a caller must sit there
and not be the winner, counters are whole numbers, 0 or more, for guests at that table; the
head table reports its pool winner and everyone's counters (``docs/rules/progressive-poker.md``: "When the pool
at the head table has been decided, the bell is struck. ... At the head table the counters are
counted."). A bad result raises ``ResultError`` naming the table and the guest; nothing is
applied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tables.errors import GuestIds
from tables.formats.poker.bell.options import BellOptions
from tables.formats.poker.bell.state import EveningState, ResultError, TableResult
from tables.words import plural


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def count_off(state: EveningState, table: int, counters: Mapping[int, int]) -> int | None:
    """How far a table's count is off, in counters: what ``counters`` (guest id -> counters
    after the deal) give the guests seated at ``table`` (1-based) minus what ``state`` (before
    the deal) says they held. 0 when the count adds up; negative when it is short; None when
    the count is not complete (someone at the table has no count), so it cannot be checked.
    Counters given for guests not at the table are not part of the sum (``check_one`` refuses
    them). Example: a table of three holding 50 each, counted 60, 50, 30 -> -10.

    The one home of the counters-add-up rule (the bell's warning, a captain's, a scorer's and
    the host's result, the final count): counters only change hands at the table during a
    deal; fresh stakes are taken at the bell (``docs/rules/progressive-poker.md``, 'The bell').
    """
    seated = state.guests_at(table)
    if any(guest not in counters for guest in seated):
        return None
    return sum(counters[guest] for guest in seated) - sum(state.counters[guest] for guest in seated)


def check_one(state: EveningState, result: TableResult) -> None:
    """Check one table's result against ``state``; ``ResultError`` with the reason if it is bad.

    Checks: the table exists; the pool winner, the callers, the guests who split the pool and
    the guests whose counters are given all sit at that table; the winner is not also listed
    as a caller or as splitting with themself; counters are whole numbers, 0 or more; the
    pool winner is not reported with 0 counters (house rule: a winner cannot have gone bust).
    """
    if not isinstance(result, TableResult):
        raise ResultError(f"{result!r} is not a table result.")
    number, count = result.table, len(state.tables)
    if not _is_whole(number) or not 1 <= number <= count:
        raise ResultError(f"There is no table {number!r} this evening: the tables are 1 to {count}.")
    seated = set(state.guests_at(number))
    _check_pool(result, seated)
    _check_counters(result, seated)


def _check_pool(result: TableResult, seated: set[int]) -> None:
    """Check a result's pool winner, callers and split: ``ResultError`` if one is wrong.

    ``seated``: the guests at ``result.table``. The winner, the callers and the guests who
    split the pool all sit there; a caller or a splitter is not the winner themself.
    """
    number, winner = result.table, result.pool_winner
    there = GuestIds(sorted(seated))
    if winner is not None and winner not in seated:
        raise ResultError(
            "{guest} is named as the pool winner but does not sit at table {table}, where {there} sit.",
            guests=(winner,),
            tables=(number,),
            there=there,
        )
    if winner is None and (result.in_call or result.tied):
        raise ResultError(
            "Table {table} lists guests in the call but no pool winner: name the winner first.", tables=(number,)
        )
    for guest in sorted(result.in_call, key=str):
        if guest == winner:
            raise ResultError(
                "{guest} won the pool at table {table}: the winner is in the call anyway;"
                " list only the guests who called the winner.",
                guests=(guest,),
                tables=(number,),
            )
        if guest not in seated:
            raise ResultError(
                "{guest} is listed in the call but does not sit at table {table}, where {there} sit.",
                guests=(guest,),
                tables=(number,),
                there=there,
            )
    for guest in sorted(result.tied, key=str):
        if guest == winner:
            raise ResultError(
                "{guest} is the pool winner at table {table}: list only the others who split the pool.",
                guests=(guest,),
                tables=(number,),
            )
        if guest not in seated:
            raise ResultError(
                "{guest} is listed as splitting the pool but does not sit at table {table}, where {there} sit.",
                guests=(guest,),
                tables=(number,),
                there=there,
            )


def _check_counters(result: TableResult, seated: set[int]) -> None:
    """Check a result's counters: ``ResultError`` if one is wrong.

    ``seated``: the guests at ``result.table``. Each counted guest sits there; each count is a
    whole number, 0 or more; the pool winner is not counted at 0 (house rule: a winner cannot
    have gone bust).
    """
    number, winner = result.table, result.pool_winner
    there = GuestIds(sorted(seated))
    for guest, value in result.counters.items():
        if guest not in seated:
            raise ResultError(
                "Counters were reported for {guest}, who does not sit at table {table}, where {there} sit.",
                guests=(guest,),
                tables=(number,),
                there=there,
            )
        if not _is_whole(value):
            raise ResultError(
                "{guest}'s counters at table {table} ({value!r}) are not a whole number.",
                guests=(guest,),
                tables=(number,),
                value=value,
            )
        if value < 0:
            raise ResultError(
                "{guest}'s counters at table {table} are {value}: counters cannot be negative.",
                guests=(guest,),
                tables=(number,),
                value=value,
            )
    if winner is not None and result.counters.get(winner) == 0:
        raise ResultError(
            "{guest} won the pool at table {table} but is reported with 0 counters: the"
            " winner of a pool cannot have lost all counters; check the count or the winner.",
            guests=(winner,),
            tables=(number,),
        )


def check_results(
    state: EveningState,
    results: Sequence[TableResult],
    *,
    options: BellOptions = BellOptions(),
    last_round: bool = False,
) -> None:
    """Check a round's results before the bell; raise ``ResultError`` with the reason if bad.

    Beyond ``check_one`` for each result: one result per table; the head table names its pool
    winner and every guest's counters (``docs/rules/progressive-poker.md``, 'A round'); with ``no_result="hold"`` every
    table names its pool winner; in the last round (``last_round_counts="require"``) every
    seated guest's counters are reported (house rule: the final counts decide the prizes).
    A bust that needs the booby table's counts is checked by ``ring_bell`` itself.
    """
    by_table: dict[int, TableResult] = {}
    for result in results:
        check_one(state, result)
        if result.table in by_table:
            raise ResultError("Table {table} has two results this round: keep one.", tables=(result.table,))
        by_table[result.table] = result
    head = by_table.get(1)
    if head is None or head.pool_winner is None:
        raise ResultError(
            "The head table (table 1) has no pool winner yet: the bell rings when the head table's pool is decided."
        )
    missing = [guest for guest in state.guests_at(1) if guest not in head.counters]
    if missing:
        raise ResultError(
            "The head table must report every guest's counters: missing {guests}.",
            guests=sorted(missing),
            tables=(1,),
        )
    if not last_round and options.no_result == "hold":
        waiting = [
            number
            for number in range(1, len(state.tables) + 1)
            if number not in by_table or by_table[number].pool_winner is None
        ]
        if waiting:
            raise ResultError(
                f"No result yet from {plural(len(waiting), 'table')} {{tables}}: the bell waits for every table"
                " (house rule of this evening: the bell waits until every table has reported).",
                tables=sorted(waiting),
            )
    if last_round and options.last_round_counts == "require":
        for number, table in enumerate(state.tables, start=1):
            counts = by_table[number].counters if number in by_table else {}
            missing = [guest for guest in table if guest not in counts]
            if missing:
                raise ResultError(
                    "The last bell needs everyone's final counters: table {table} has not reported {guests}.",
                    guests=sorted(missing),
                    tables=(number,),
                )
