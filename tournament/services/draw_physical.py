"""The physical draw: guests draw real cards from the two packs, the host records each card.

A physical draw is a ``Draw`` with ``kind=physical`` and ``complete=False`` holding the cards
recorded so far (``DrawnCard`` rows). It does not replace the draw in force until
``draw_physical_finish`` seats everyone. Its cards are the format's (``FormatPlugin``:
``physical_draw_plan``, ``physical_card``, ``physical_draw_seating``): Progressive Poker's table
cards, whose rank is the table (``tournament.formats.poker.physical_draw``; docs/rules/progressive-poker.md:
the cards "selected to agree with the number required", each guest drawing from their own
pack, some representing the other when the packs are unequal), or a seat card at tables of four
("3 N": table and seat, ``tournament.formats.partnership.physical_draw``; docs/rules/tables-of-four.md, "The
physical draw"), whose seating is kept in ``Draw.layout`` (``FormatPlugin.seats_named``).

Every service here locks the evening row, has the format rebuild the draw from the stored rows
and accept or refuse, and saves only what it accepted: a refused card changes nothing. House
rule: the draw is for the guests checked in when it started; if that changes before it is
finished, the host restarts it (the page says so).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.functions import Now

from tables.errors import RuleError
from tournament.models import Draw, DrawnCard, Evening, Guest
from tournament.name_keys import name_order
from tournament.plugin import DrawGuest
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.draws import lock_for_draw, seats_replace
from tournament.services.versions import evening_touch


def open_physical_draw(evening: Evening) -> Draw | None:
    """The physical draw being recorded for this evening (not finished, not superseded), or None."""
    return evening.draws.filter(kind=Draw.Kind.PHYSICAL, complete=False, superseded_at__isnull=True).first()


def guests_here(evening: Evening, *, by_name: bool = False) -> dict[int, DrawGuest]:
    """The guests checked in now as the physical draw reads them (``DrawGuest`` by id, in the
    order of their ids, or ``by_name``: alphabetical, ``name_keys.name_order``). One query."""
    rows = evening.guests.filter(status=Guest.Status.HERE).order_by("id")
    guests = [DrawGuest(pk, *rest) for pk, *rest in rows.values_list("id", "name", "pack", "name_key")]
    if by_name:
        guests.sort(key=lambda g: (name_order(g.name), g.pk))
    return {g.pk: g for g in guests}


def not_here(evening: Evening, guest_id: int) -> RuleError:
    """The error for a card recorded for guest ``guest_id``, who is not checked in (or not of
    this evening), in words for the host. One query."""
    other = Guest.objects.filter(evening=evening, pk=guest_id).first()
    if other is None:
        return RuleError("That guest is not registered for this evening: pick a name from the list.")
    return RuleError(
        f"{other.name} is not checked in, so has no card in this draw: check them in "
        f"on the guests page and restart the physical draw, or pick another name."
    )


def _lock_open(evening: Evening) -> tuple[Evening, Draw]:
    evening = lock_for_draw(evening)
    draw = open_physical_draw(evening)
    if draw is None:
        raise RuleError("No physical draw is being recorded: start one from the draw page.")
    draw.evening = evening
    return evening, draw


def draw_physical_start(*, evening: Evening, accept_relaxed: bool = False, user=None, device: str = "") -> Draw:
    """Start a physical draw for the guests checked in now: plan the tables
    (``FormatPlugin.physical_draw_plan``) and store an empty ``Draw`` (kind physical, not
    complete) whose pull list the host prints. A physical draw already being recorded is
    superseded (restarted); the draw in force stays until this one is finished. Returns the new
    ``Draw``.

    Raises ``RuleError`` as the format's plan does (Progressive Poker: ``PlanError`` with the
    relaxed offer for 9 to 11 guests, fewer than 8 guests here, 9 to 11 without
    ``accept_relaxed``; tables of four: fewer than 4), or after round 1 started.
    Source: docs/rules/progressive-poker.md, 'The seating draw' (the pull list).
    """
    with transaction.atomic():
        evening = lock_for_draw(evening)
        here = list(evening.guests.filter(status=Guest.Status.HERE).order_by("id").values_list("id", "pack"))
        plan = format_for(evening).physical_draw_plan(evening, here, accept_relaxed=accept_relaxed)
        evening.draws.filter(kind=Draw.Kind.PHYSICAL, complete=False, superseded_at__isnull=True).update(
            superseded_at=Now()
        )
        draw = Draw.objects.create(
            evening=evening, kind=Draw.Kind.PHYSICAL, sizes=list(plan.sizes), relaxed=plan.relaxed or "", complete=False
        )
        audit_log(
            evening=evening,
            action="draw.physical.start",
            user=user,
            device=device,
            draw_id=draw.pk,
            sizes=list(plan.sizes),
            relaxed=plan.relaxed or "",
        )
        evening_touch(evening=evening)
    return draw


def draw_physical_record(*, evening: Evening, guest_id: int, card: str, user=None, device: str = "") -> DrawnCard:
    """Record that a guest drew a card, typed as the host reads it: "3", "trey", "3 red",
    "ace of the blue pack", or with the host's pack labels (Progressive Poker: without a pack
    the card is of the guest's own pack); at tables of four the card names its seat too: "3 N",
    "table 1 West" (a ghost's seat has no card). The format reads and checks it
    (``FormatPlugin.physical_card``). Returns the new ``DrawnCard``.

    Raises ``RuleError`` (guests named, the cards left in that pack listed) and saves nothing
    for: a card that cannot be read, a rank beyond the plan, a card not in the pull list or all
    of it already taken, a guest who already drew, a guest not checked in, a card of the other
    pack when no more of the guest's pack may draw from it, no physical draw open, or after
    round 1 started. Queries: a constant number.
    """
    with transaction.atomic():
        evening, draw = _lock_open(evening)
        taken = format_for(evening).physical_card(draw, guest_id=guest_id, card=card)
        row = DrawnCard.objects.create(
            draw=draw, guest_id=guest_id, pack=taken.pack.value, rank=taken.table, seat=taken.seat
        )
        seat: dict[str, Any] = {"seat": taken.seat} if taken.seat is not None else {}
        audit_log(
            evening=evening,
            action="draw.physical.record",
            user=user,
            device=device,
            draw_id=draw.pk,
            guest_id=guest_id,
            pack=row.pack,
            rank=row.rank,
            **seat,
        )
        evening_touch(evening=evening)
    return row


def draw_physical_withdraw(*, evening: Evening, guest_id: int, user=None, device: str = "") -> None:
    """Undo one guest's recorded card in the physical draw being recorded (a typing mistake).
    Raises ``RuleError`` when that guest has no card recorded, no physical draw is open, or
    after round 1 started."""
    with transaction.atomic():
        evening, draw = _lock_open(evening)
        row = draw.cards.select_related("guest").filter(guest_id=guest_id).first()
        if row is None:
            raise RuleError("That guest has no card recorded in this draw: nothing to undo.")
        audit_log(
            evening=evening,
            action="draw.physical.withdraw",
            user=user,
            device=device,
            draw_id=draw.pk,
            guest_id=guest_id,
            pack=row.pack,
            rank=row.rank,
        )
        row.delete()
        evening_touch(evening=evening)


def draw_physical_finish(*, evening: Evening, user=None, device: str = "") -> Draw:
    """Finish the physical draw once every card is recorded: it becomes the draw in force (the
    earlier draw is superseded and kept) and everyone is seated at their card's table (at
    tables of four: at their card's seat, the ghosts where the digital draw seats them; the
    format's ``physical_draw_seating``). Returns the ``Draw``. Raises ``RuleError`` naming who
    has not drawn yet, or as ``draw_physical_record``."""
    with transaction.atomic():
        evening, draw = _lock_open(evening)
        fmt = format_for(evening)
        seating = fmt.physical_draw_seating(draw)
        at_fours = fmt.seats_named  # seats North, East, South, West, the seating kept as the layout
        evening.draws.filter(superseded_at__isnull=True).exclude(pk=draw.pk).update(superseded_at=Now())
        draw.complete = True
        if at_fours:
            draw.layout = [list(t) for t in seating.tables]
        draw.save(update_fields=["complete", "layout"] if at_fours else ["complete"])
        seats_replace(evening=evening, tables=seating.tables, by_seat=at_fours)
        evening.stage = Evening.Stage.SEATED
        evening.save(update_fields=["stage"])
        ghosts: dict[str, Any] = {"ghosts": sum(1 for t in seating.tables for p in t if p < 0)} if at_fours else {}
        audit_log(
            evening=evening,
            action="draw.physical.finish",
            user=user,
            device=device,
            draw_id=draw.pk,
            representing=sorted(c.guest for c in seating.cards if c.represents_other),
            **ghosts,
        )
        evening_touch(evening=evening)
    return draw


def draw_physical_cancel(*, evening: Evening, user=None, device: str = "") -> None:
    """Abandon the physical draw being recorded (kept, marked superseded); the draw in force, if
    any, stays. Raises ``RuleError`` when none is open or after round 1 started."""
    with transaction.atomic():
        evening, draw = _lock_open(evening)
        Draw.objects.filter(pk=draw.pk).update(superseded_at=Now())
        audit_log(evening=evening, action="draw.physical.cancel", user=user, device=device, draw_id=draw.pk)
        evening_touch(evening=evening)
