"""Guests who leave or arrive after the draw and before round 1, at tables of four.

Rules: ``docs/rules/tables-of-four.md`` (ghosts fill the empty seats; a leaver's seat goes to a
ghost) through ``tables.formats.bell.guest_leaves`` and the format's ``leave_state``. House rule
(issue 22): a guest marked as left after the draw gives their seat to a new ghost, so they play
no round and no side's result ever counts for them; a late guest checked in after the draw takes
the ghost's seat nearest the foot table if there is one (``tables.formats.bell.ghost_seat_taken``;
else they wait, checked in, for a redraw or for a seat between rounds). No table opens before
round 1: a redraw seats everyone.

Each change stores a new complete ``Draw`` (the layout with the ghost or the guest in the seat,
the cards copied) and supersedes the earlier one, which is kept, as Progressive Poker's changes
before round 1 do (``services.draw_changes``). After round 1 the bell's steps handle leaving
and arriving (``formats.partnership.bell``).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models.functions import Now

from tables.errors import RuleError
from tables.formats.bell import FoursomeState, ghost_seat_taken
from tables.formats.foursome import ghost_name
from tournament.formats.partnership.state import foursome_seats_replace, seat_words
from tournament.models import Draw, DrawnCard, Evening, Guest
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.draws import live_draw, lock_for_draw
from tournament.services.versions import evening_touch


def _where(tables, player: int) -> tuple[int, int] | None:
    """(table number, seat index) of ``player`` in ``tables``, or None."""
    for number, ids in enumerate(tables, start=1):
        if player in ids:
            return number, list(ids).index(player)
    return None


def _replace(evening: Evening, old: Draw, tables, cards: list[tuple[int, str, int, int | None]]) -> Draw:
    """Supersede ``old`` by a complete draw laid out as ``tables`` with ``cards`` (guest id,
    pack, rank, seat), and seat everyone. Five queries."""
    Draw.objects.filter(pk=old.pk).update(superseded_at=Now())
    draw = Draw.objects.create(
        evening=evening,
        kind=old.kind,
        sizes=list(old.sizes),
        relaxed=old.relaxed,
        complete=True,
        layout=[list(t) for t in tables],
    )
    DrawnCard.objects.bulk_create(
        [DrawnCard(draw=draw, guest_id=g, pack=p, rank=r, seat=s, recorded_at=draw.created_at) for g, p, r, s in cards]
    )
    foursome_seats_replace(evening=evening, tables=tables)
    return draw


def foursome_draw_seat_change(*, evening: Evening, guest: Guest, leaving: bool, user=None, device: str = "") -> str:
    """After the draw and before round 1: ``guest`` leaves (``leaving``: a new ghost takes
    their seat; status "left") or is checked in late (the ghost seat nearest the foot table,
    if any; status "here"). Returns what happened in words for the host, naming the guest, the
    ghost, table and seat. A sit-out is only marked as left; a late guest with no ghost seat free is
    only checked in. Raises ``RuleError`` (nothing saved) with no draw, round 1 started, or the end."""
    with transaction.atomic():
        evening = lock_for_draw(evening)
        draw = live_draw(evening)
        if draw is None or not draw.layout:
            raise RuleError("There is no draw yet: run the draw first.")
        fmt = format_for(evening)
        state: FoursomeState = fmt.state_at_draw(draw)  # type: ignore[attr-defined]
        cards = list(draw.cards.order_by(*DrawnCard.SEATING_ORDER).values_list("guest_id", "pack", "rank", "seat"))
        status = Guest.Status.LEFT if leaving else Guest.Status.HERE
        Guest.objects.filter(pk=guest.pk).update(status=status)
        guest.status = status
        place = _where(state.tables, guest.pk)
        if leaving and place is not None:
            after = fmt.leave_state(state, guest.pk)  # type: ignore[attr-defined]
            ghost = after.tables[place[0] - 1][place[1]]
            new = _replace(evening, draw, after.tables, [c for c in cards if c[0] != guest.pk])
            words = (
                f"{guest.name} has left; {ghost_name(ghost)} takes their seat ({seat_words(place[1])}) at table "
                f"{place[0]} before round 1, so {guest.name} plays no round."
            )
            action, detail = "draw.leave", {"table": place[0], "ghost": ghost}
        elif not leaving and place is None:
            taken = ghost_seat_taken(state, guest.pk)
            if taken is None:
                audit_log(
                    evening=evening, action="guest.status", user=user, device=device, guest_id=guest.pk, status=status
                )
                evening_touch(evening=evening)
                return (
                    f"{guest.name} is checked in. No ghost's seat is free, so {guest.name} has no seat yet: "
                    "redraw before round 1 to seat everyone, or seat them between rounds."
                )
            number, index = _where(taken.tables, guest.pk) or (0, 0)
            ghost = state.tables[number - 1][index]
            new = _replace(evening, draw, taken.tables, [*cards, (guest.pk, guest.pack, number, index)])
            words = (
                f"{guest.name} is checked in and takes {ghost_name(ghost)}'s seat ({seat_words(index)}) at "
                f"table {number} for round 1."
            )
            action, detail = "draw.arrive", {"table": number, "ghost": ghost}
        else:
            audit_log(
                evening=evening, action="guest.status", user=user, device=device, guest_id=guest.pk, status=status
            )
            evening_touch(evening=evening)
            if leaving:
                return (
                    f"{guest.name} is marked as left; they hold no seat at round 1's tables. Should a later "
                    f"round seat {guest.name}, the board's Needs you asks you to give the seat to a ghost."
                )
            return f"{guest.name} is checked in; they already have a seat."
        audit_log(evening=evening, action=action, user=user, device=device, guest_id=guest.pk, draw_id=new.pk, **detail)
        evening_touch(evening=evening)
    return words
