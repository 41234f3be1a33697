"""A seat change: two guests swap seats, or a guest moves to an empty seat or a ghost's seat.

Every format's rule, over the tables as the formats store them (table 1 first, each a tuple of
player ids; at tables of four in seat order North, East, South, West, a ghost's seat holding an
id of 0 or below). What a format decides is its ``TableLimits``: how small and how large a table
may be, and whether a table's seats are fixed places (tables of four: four seats, partners at
seats 0 and 2, 1 and 3) or any chair at the table (Progressive Poker).

House rule (the rulebooks are silent on a host changing seats; ``docs/rules/progressive-poker.md``
and ``docs/rules/tables-of-four.md``, "Changing seats"): the host may swap two guests, or move a
guest to another table with room (Progressive Poker) or to an empty or ghost's seat (tables of
four, the ghost taking the guest's old seat), before a round starts or while the tables touched
have no result in. Nobody is seated twice, nobody loses their seat, every table keeps a size the
format plays, and a guest who has left is never moved.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from tables.errors import RuleError

Tables = tuple[tuple[int, ...], ...]
"""Player ids per table, table 1 first (ghosts 0 or below, at tables of four only)."""


@dataclass(frozen=True, slots=True)
class TableLimits:
    """What a format allows of a table after a seat change: at least ``smallest`` and at most
    ``largest`` players; ``fixed_seats``: a table's seats are numbered places (tables of four:
    0 North .. 3 West, a ghost in a seat nobody holds), so a move names the seat it goes to."""

    smallest: int
    largest: int
    fixed_seats: bool = False


@dataclass(frozen=True, slots=True)
class SeatChange:
    """What the host asks: ``guest`` (id) swaps with ``other`` (a guest id), or moves to
    ``table`` (1-based) and, where seats are fixed, to ``seat`` there (0-based). Exactly one of
    ``other`` and ``table`` is given."""

    guest: int
    other: int | None = None
    table: int | None = None
    seat: int | None = None

    def touched(self, tables: Sequence[Sequence[int]]) -> tuple[int, ...]:
        """The tables (1-based, in order) this change touches in ``tables``: the guest's own and
        the other guest's or the table moved to. Tables not found are left out."""
        found = [where(tables, self.guest)]
        found.append(where(tables, self.other) if self.other is not None else self.table)
        return tuple(sorted({n for n in found if n is not None and 1 <= n <= len(tables)}))


def where(tables: Sequence[Sequence[int]], player: int | None) -> int | None:
    """The table (1-based) ``player`` sits at in ``tables``, or None."""
    return next((n for n, ids in enumerate(tables, 1) if player in ids), None)


def change_seats(
    tables: Sequence[Sequence[int]],
    change: SeatChange,
    *,
    limits: TableLimits,
    left: Collection[int] = (),
) -> Tables:
    """The tables after ``change``; ``tables`` is not changed.

    Takes the tables now, the change, the format's ``limits`` and the guests who have left
    (``left``, ids). Returns new tables: a swap exchanges the two players' places; a move to a
    fixed seat exchanges the guest with whoever holds that seat (a ghost takes the guest's old
    seat; a guest there makes it a swap); a move at a table without fixed seats takes the guest
    from their table to the end of ``table``.

    Raises ``RuleError`` naming the guests (``guests``) and tables for: a guest swapped with
    themself, a guest who has left or is not seated, a swap with a guest who has left or is not
    seated, a table or seat that does not exist, a move to the table the guest sits at already,
    and a table left smaller than ``limits.smallest`` or larger than ``limits.largest``.
    Source: house rule (module docstring).
    """
    now = tuple(tuple(t) for t in tables)
    guest = change.guest
    if (change.other is None) == (change.table is None):
        raise RuleError("Name the guest to swap seats with, or the table to move to: one of the two.")
    _movable(now, guest, left, "move")
    if change.other is not None:
        return _swap(now, guest, change.other, left)
    assert change.table is not None
    if not 1 <= change.table <= len(now):
        raise RuleError(
            "There is no table {table}: the tables are 1 to {count}.", tables=(change.table,), count=len(now)
        )
    if limits.fixed_seats:
        return _to_seat(now, guest, change.table, change.seat, left)
    return _to_table(now, guest, change.table, limits)


def _movable(tables: Tables, guest: int, left: Collection[int], verb: str) -> None:
    if guest <= 0:
        raise RuleError("A ghost's seat is taken by moving a guest to it: choose a guest to move.")
    if guest in left:
        raise RuleError("{guest} has left, so cannot " + verb + " seats: nothing was changed.", guests=(guest,))
    if where(tables, guest) is None:
        raise RuleError("{guest} has no seat, so cannot " + verb + " seats: give them a seat first.", guests=(guest,))


def _swap(tables: Tables, guest: int, other: int, left: Collection[int]) -> Tables:
    if other == guest:
        raise RuleError("Choose two different guests to swap: {guest} was chosen twice.", guests=(guest,))
    if other > 0:
        _movable(tables, other, left, "swap")
    elif where(tables, other) is None:
        raise RuleError("That ghost has no seat: choose a guest or a seat that exists.")
    return _exchange(tables, guest, other)


def _exchange(tables: Tables, a: int, b: int) -> Tables:
    """``a`` and ``b`` (both seated) change places."""
    return tuple(tuple(b if p == a else a if p == b else p for p in t) for t in tables)


def _to_seat(tables: Tables, guest: int, table: int, seat: int | None, left: Collection[int]) -> Tables:
    seats = tables[table - 1]
    if seat is None or not 0 <= seat < len(seats):
        raise RuleError(
            "Table {table} has no such seat: its seats are 1 to {count}.", tables=(table,), count=len(seats)
        )
    holder = seats[seat]
    if holder == guest:
        raise RuleError("{guest} sits in that seat already: nothing was changed.", guests=(guest,))
    if holder > 0:
        return _swap(tables, guest, holder, left)
    return _exchange(tables, guest, holder)


def _to_table(tables: Tables, guest: int, table: int, limits: TableLimits) -> Tables:
    home = where(tables, guest)
    assert home is not None
    if home == table:
        raise RuleError("{guest} sits at table {table} already: nothing was changed.", guests=(guest,), tables=(table,))
    if len(tables[table - 1]) + 1 > limits.largest:
        raise RuleError(
            "Table {table} is full ({largest} players), so {guest} cannot move there: swap {guest} with a "
            "guest at table {table} instead.",
            guests=(guest,),
            tables=(table,),
            largest=limits.largest,
        )
    if len(tables[home - 1]) - 1 < limits.smallest:
        raise RuleError(
            "Table {table} would be left with fewer than {smallest} players if {guest} moved: swap {guest} "
            "with a guest at the other table instead.",
            guests=(guest,),
            tables=(home,),
            smallest=limits.smallest,
        )
    return tuple(
        (*t, guest) if n == table else tuple(p for p in t if p != guest) if n == home else t
        for n, t in enumerate(tables, 1)
    )


def seat_moves(
    before: Sequence[Sequence[int]], after: Sequence[Sequence[int]], *, fixed_seats: bool
) -> tuple[tuple[int, int, int], ...]:
    """Who sits elsewhere in ``after`` than in ``before``: (player id, table before, table after)
    for every player (ghosts included) in both whose table changed or, with ``fixed_seats``, whose
    seat changed, in the order of ``after`` (tables 1-based). Raises nothing."""
    old = {p: (n, i if fixed_seats else 0) for n, t in enumerate(before, 1) for i, p in enumerate(t)}
    return tuple(
        (p, old[p][0], n)
        for n, t in enumerate(after, 1)
        for i, p in enumerate(t)
        if p in old and old[p] != (n, i if fixed_seats else 0)
    )


def change_again(
    before: Sequence[Sequence[int]], after: Sequence[Sequence[int]], *, fixed_seats: bool
) -> SeatChange | None:
    """The host's change that turned the stored tables ``before`` into ``after``, to be made
    again on other tables (a correction of an earlier round replays every later step): the two
    guests (ids above 0) who changed places swap again, a guest who moved alone moves again to
    the same table (and, with ``fixed_seats``, the same seat). None when no guest moved (a swap
    of two chairs at one table of Progressive Poker, which moves nobody). Raises ``RuleError``
    when the stored tables are not one change of the host (more than two guests moved, or two
    who did not swap places). Source: house rule ("Changing seats" in ``docs/rules/``)."""
    moves = [m for m in seat_moves(before, after, fixed_seats=fixed_seats) if m[0] > 0]
    if not moves:
        return None
    if len(moves) == 1:
        player, _, table = moves[0]
        seat = list(after[table - 1]).index(player) if fixed_seats else None
        return SeatChange(player, table=table, seat=seat)
    if len(moves) == 2:
        (a, from_a, to_a), (b, from_b, to_b) = moves
        place = {p: (n, i) for n, t in enumerate(after, 1) for i, p in enumerate(t)}
        was = {p: (n, i) for n, t in enumerate(before, 1) for i, p in enumerate(t)}
        if place[a] == was[b] or (not fixed_seats and to_a == from_b and to_b == from_a):
            return SeatChange(a, other=b)
    raise RuleError("The stored seat change moved {count} guests: it is not one swap or one move.", count=len(moves))
