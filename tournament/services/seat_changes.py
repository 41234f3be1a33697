"""The host changes seats: two guests swap, or a guest moves to an empty seat or a ghost's seat.

Rules: ``tables.seats.change_seats`` with the format's ``FormatPlugin.table_limits`` (Progressive
Poker: any table with room, 3 to 7 players; tables of four: the seats North, East, South, West,
a ghost's seat taken by moving a guest to it). House rule (docs/rules/progressive-poker.md and
docs/rules/tables-of-four.md, "Changing seats"): a change is made before a round starts (between
rounds, or before round 1 after the draw) or while the tables it touches have no result in; never
while a bell waits for its tables.

* Before round 1 it changes the draw: a new complete ``Draw`` with the cards moved (and, at
  tables of four, the layout), the earlier one kept, superseded (as ``services.draw_changes``).
* After round 1 has started it is a step of the evening's history: a ``Bell`` of kind "seat"
  attached to the newest round (the last played, or the one in play), with the seats before and
  after in its record and an entry for every guest who sits elsewhere, stored by the format
  (``FormatPlugin.seats_changed``); undo puts the seats back (``FormatPlugin.bell_undone``).

Every change is audited ("seats.change") and refused whole with a ``RuleError`` naming the
guests, tables and rounds when it does not fit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, cast

from django.db import transaction

from tables.errors import RuleError
from tables.formats.engine import Plan
from tables.seats import SeatChange, change_seats, seat_moves
from tournament.models import Draw, Evening, Guest, Result, Round
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.draw_changes import replace_draw
from tournament.services.draws import live_draw
from tournament.services.locks import lock_evening
from tournament.services.naming import guest_names
from tournament.services.versions import evening_touch

if TYPE_CHECKING:  # Progressive Poker's record, named for the type checker only (its import's replay)
    from tables.formats.poker.bell import BellRecord
    from tournament.plugin import FormatPlugin, HasTables


def seats_change(
    *,
    evening: Evening,
    guest_id: int,
    other_id: int | None = None,
    table: int | None = None,
    seat: int | None = None,
    user=None,
    device: str = "",
) -> str:
    """Swap guest ``guest_id`` with ``other_id``, or move them to ``table`` (and, at tables of four,
    ``seat``, 0 North .. 3 West). Returns what changed in words for the host ("Ann Smith and Bob
    Jones swap seats: ..."). Inside one transaction, the evening locked.

    Raises ``RuleError`` (guests, tables and rounds named; nothing saved) for: no draw yet, the
    evening ended, a bell waiting for its tables, a touched table whose result is in for the
    round in play, and what ``tables.seats.change_seats`` refuses (a guest who has left, a swap
    with oneself, a seat or table that does not exist, a table size the format does not play).
    """
    with transaction.atomic():
        evening = lock_evening(evening.pk)
        if evening.stage == Evening.Stage.ENDED:
            raise RuleError("The evening has ended: the seats can no longer be changed.")
        fmt = format_for(evening)
        change = SeatChange(guest_id, other=other_id, table=table, seat=seat)
        _known(evening, change)
        last = evening.rounds.order_by("-number").first()
        before = [list(t) for t in fmt.state(evening).tables]
        _not_during_results(last, change, before)
        left = set(evening.guests.filter(status=Guest.Status.LEFT).values_list("pk", flat=True))
        after = [list(t) for t in change_seats(before, change, limits=fmt.table_limits(), left=left)]
        names = guest_names(evening)
        moves = seat_moves(before, after, fixed_seats=fmt.seats_named)
        words = seats_words(fmt, after, moves, names)
        if last is None:
            draw = _draw_changed(evening, fmt.seats_named, before, after)
            step: dict = {"draw_id": draw.pk}
        else:
            bell = fmt.seats_changed(
                evening=evening, last=last, change=change, before=before, after=after, words=words, names=names
            )
            step = {"round": last.number, "bell_id": bell.pk}
        audit_log(
            evening=evening,
            action="seats.change",
            user=user,
            device=device,
            guest_id=guest_id,
            other_id=other_id,
            table=table,
            seat=seat,
            moves=[list(m) for m in moves],
            words=words,
            **step,
        )
        evening_touch(evening=evening)
    return words


def _known(evening: Evening, change: SeatChange) -> None:
    """Raise ``RuleError`` for a guest id that is not the evening's (a stale page or a typo)."""
    ids = {change.guest} | ({change.other} if change.other is not None and change.other > 0 else set())
    if evening.guests.filter(pk__in=ids).count() != len(ids):
        raise RuleError("That guest is not registered for this evening: choose a name from the list.")
    if live_draw(evening) is None:
        raise RuleError("There is no draw yet: run the draw, then change seats.")


def _not_during_results(last: Round | None, change: SeatChange, tables: list[list[int]]) -> None:
    """Raise ``RuleError`` while ``last`` (the newest round) waits at its bell, or when a table the
    change touches has a live result in ``last`` while it is in play."""
    if last is None or last.state == Round.State.CLOSED:
        return
    if last.state == Round.State.RUNG:
        raise RuleError(
            "Round {round}'s bell has rung and waits for its tables: change seats after the bell has moved "
            "everyone. Nothing was changed.",
            rounds=(last.number,),
        )
    touched = change.touched(tables)
    done = sorted(
        set(
            Result.objects.filter(round=last, table__in=touched, superseded_at__isnull=True).values_list(
                "table", flat=True
            )
        )
    )
    if done:
        raise RuleError(
            "Table {tables}'s result for round {round} is in, so its seats can no longer change this round: "
            "correct the result, or change seats after the bell. Nothing was changed."
            if len(done) == 1
            else "Tables {tables}' results for round {round} are in, so their seats can no longer change this "
            "round: correct the results, or change seats after the bell. Nothing was changed.",
            tables=tuple(done),
            rounds=(last.number,),
        )


def seats_words(
    fmt: FormatPlugin, after: Sequence[Sequence[int]], moves: Sequence[tuple[int, int, int]], names: Mapping[int, str]
) -> str:
    """What a seat change did, for the host: "Ann Smith now sits at table 2, South; Ghost 1 at
    table 1, North." (``moves``: (player, table before, table after), ghosts named "Ghost N";
    the place by ``FormatPlugin.place_words``)."""
    parts = []
    for player, _, table in moves:
        seat = after[table - 1].index(player)
        name = names.get(player, "A guest") if player > 0 else f"Ghost {-player}"
        parts.append(f"{name} to {fmt.place_words(table, seat)}")
    return "Seats changed: " + "; ".join(parts) + "." if parts else "Nothing changed."


def _draw_changed(evening: Evening, by_seat: bool, before: list[list[int]], after: list[list[int]]) -> Draw:
    """Before round 1: a new complete draw with the seats ``after`` (the earlier one superseded,
    kept). A guest's card goes with their seat: two guests who swap exchange their cards; a guest
    who moves holds the card of the table (and seat) moved to, in the pack of the card they held.
    At tables of four the layout is ``after``. The new plan records what its sizes relax of the
    plan's rules (``FormatPlugin.sizes_relaxed``: a head table of five, say)."""
    draw = live_draw(evening)
    assert draw is not None
    cards = {c.guest_id: (c.pack, c.rank, c.seat) for c in draw.cards.all()}
    moved = [p for p, _, _ in seat_moves(before, after, fixed_seats=by_seat) if p in cards]
    if len(moved) == 2:  # a swap: the two cards change hands
        a, b = moved
        cards[a], cards[b] = cards[b], cards[a]
    else:
        for guest in moved:
            table, seat = next((n, t.index(guest)) for n, t in enumerate(after, 1) if guest in t)
            cards[guest] = (cards[guest][0], table, seat if by_seat else None)
    sizes = tuple(len(t) for t in after)
    plan = Plan(sizes, relaxed=format_for(evening).sizes_relaxed(sizes))  # said on the draw page
    rows = [(g, pack, rank) for g, (pack, rank, _) in cards.items()]
    seats = {g: seat for g, (_, _, seat) in cards.items()}
    # replace_draw reads the plan's sizes and relaxed words (the engine's ``Plan``).
    return replace_draw(evening, draw, plan, rows, seats=seats, layout=after if by_seat else None)


def seat_change_again(state: HasTables, movers: Sequence[tuple[int, int | None]], fmt: FormatPlugin) -> BellRecord:
    """A stored seat change made again on ``state`` from who moved (``movers``: guest id, table
    moved to; an imported evening replays it): two movers swapped, one moved to their table,
    none a swap at one table; the record is the format's (``FormatPlugin.seat_change_record``).
    Raises ``RuleError`` as ``change_seats``."""
    change = None
    if len(movers) == 2:
        change = SeatChange(movers[0][0], other=movers[1][0])
    elif len(movers) == 1:
        change = SeatChange(movers[0][0], table=movers[0][1])
    return cast("BellRecord", fmt.seat_change_record(state, change))
