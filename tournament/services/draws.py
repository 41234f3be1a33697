"""The seating draw: plan the tables, deal a card of their pack to every guest who is here, seat them.

Rules: ``tables.plan`` and ``tables.draw`` (from ``004_5d1bc750ac89c154.txt``). A redraw before
round 1 replaces the earlier draw wholly; the earlier one is kept, marked superseded.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db import transaction
from django.utils import timezone

from tables.draw import deal, seating
from tables.errors import RuleError
from tables.packs import Pack
from tables.plan import TablePlan, plan_tables
from tournament.models import Draw, DrawnCard, Evening, Guest, Seat
from tournament.services.audit import audit_log, evening_touch


def live_draw(evening: Evening) -> Draw | None:
    """The evening's draw in force (the newest not superseded), or None before any draw."""
    return evening.draws.filter(superseded_at__isnull=True).first()


def draw_plan(*, evening: Evening, accept_relaxed: bool = False) -> TablePlan:
    """The table plan for the guests checked in now; raises ``tables.plan.PlanError`` (with the
    relaxed offer for 9 to 11 guests) when the rules cannot seat them."""
    return plan_tables(evening.guests.filter(status=Guest.Status.HERE).count(), accept_relaxed=accept_relaxed)


def _lock_for_draw(evening: Evening) -> Evening:
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if evening.rounds.exists():
        raise RuleError("Round 1 has started, so the seats can no longer be redrawn; the bell moves guests now.")
    if evening.stage == Evening.Stage.ENDED:
        raise RuleError("This evening has ended.")
    return evening


def draw_digital(
    *,
    evening: Evening,
    accept_relaxed: bool = False,
    representing: Collection[int] = (),
    user=None,
    device: str = "",
) -> Draw:
    """Deal every checked-in guest one table card of their pack (a cryptographically random
    shuffle), store the draw and seat everyone. Returns the new ``Draw``.

    ``representing``: guest ids the host chose to draw from the other pack (default: the fewest
    needed, at random). Raises ``RuleError`` (PlanError, DrawError) when fewer than 8 guests are
    here, when 9 to 11 are here and the relaxed plan was not accepted, or after round 1 started.
    Nothing is saved then.
    """
    with transaction.atomic():
        evening = _lock_for_draw(evening)
        guests = list(evening.guests.filter(status=Guest.Status.HERE).order_by("id"))
        plan = plan_tables(len(guests), accept_relaxed=accept_relaxed)
        dealt = deal([(g.pk, Pack(g.pack)) for g in guests], plan, representing=representing)
        tables = seating(dealt, plan)
        now = timezone.now()
        evening.draws.filter(superseded_at__isnull=True).update(superseded_at=now)
        draw = Draw.objects.create(
            evening=evening, kind=Draw.Kind.DIGITAL, sizes=list(plan.sizes), relaxed=plan.relaxed or "", complete=True
        )
        DrawnCard.objects.bulk_create(
            [DrawnCard(draw=draw, guest_id=c.guest, pack=c.card.pack.value, rank=c.card.rank) for c in dealt]
        )
        seats_replace(evening=evening, tables=tables)
        evening.stage = Evening.Stage.SEATED
        evening.save(update_fields=["stage"])
        audit_log(evening=evening, action="draw.digital", user=user, device=device, draw_id=draw.pk,
                  sizes=list(plan.sizes), relaxed=plan.relaxed or "")
        evening_touch(evening=evening)
    return draw


def seats_replace(*, evening: Evening, tables) -> None:
    """Store where everyone sits: ``tables`` is guest ids per table, table 1 first. Two queries."""
    Seat.objects.filter(evening=evening).delete()
    Seat.objects.bulk_create(
        [Seat(evening=evening, guest_id=guest, table=number) for number, ids in enumerate(tables, 1) for guest in ids]
    )
