"""The seating draw: plan the tables, deal a card of their pack to every guest who is here, seat them.

Rules: the format's plan and draw (``FormatPlugin.rules_of(evening)``: ``plan`` and ``draw``, from
each format's page in ``docs/rules/``). A redraw before round 1 replaces the earlier draw wholly;
the earlier one is kept, marked superseded.

The draw in force (``live_draw``) is the newest complete draw not superseded. A physical draw
being recorded card by card (``tournament.services.draw_physical``) is a ``Draw`` with
``complete=False``: it does not replace the draw in force until it is finished. Changes of who is
here after the draw and before round 1 are in ``tournament.services.draw_changes``.

Errors from the format's draw name guests by id in ``error.subjects``; pages and commands write
them with names (``tournament.services.naming.error_message``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.db.models.functions import Now

from tables.errors import RuleError
from tables.formats.engine import Plan
from tables.packs import Pack
from tournament.models import Draw, DrawnCard, Evening, Guest, Round, Seat
from tournament.plain_inserts import insert_plain
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.locks import lock_evening
from tournament.services.versions import evening_touch


def live_draw(evening: Evening) -> Draw | None:
    """The evening's draw in force (the newest complete draw not superseded), or None before any.
    One query."""
    return evening.draws.filter(superseded_at__isnull=True, complete=True).first()


def stored_plan(draw: Draw) -> Plan:
    """The table plan a stored draw was made with (``tables.formats.engine.Plan``: its sizes and
    what it relaxed). No query."""
    return Plan(tuple(draw.sizes), relaxed=draw.relaxed or None)


def draw_plan(*, evening: Evening, accept_relaxed: bool = False) -> Plan:
    """The table plan for the guests checked in now, by the format's rules
    (``FormatPlugin.rules_of(evening).plan``). Raises ``RuleError`` when the rules cannot seat
    them (Progressive Poker: fewer than 8, or 9 to 11 unless the relaxed plan is accepted;
    tables of four: fewer than 4). One query."""
    here = evening.guests.filter(status=Guest.Status.HERE).count()
    return format_for(evening).rules_of(evening).plan(here, accept_relaxed=accept_relaxed)


def plan_offer(*, evening: Evening) -> Plan | None:
    """The plan the host may accept when the rules cannot seat the guests checked in now as
    they are: the format's plan with what it relaxes accepted (Progressive Poker's relaxed plan
    for 9 to 11 guests, docs/rules/progressive-poker.md, 'The table plan'), or None when even
    that cannot seat them. One query."""
    try:
        return draw_plan(evening=evening, accept_relaxed=True)
    except RuleError:
        return None


def lock_for_draw(evening: Evening) -> Evening:
    """Lock the evening row for a change of the draw (inside the caller's transaction) and
    return it fresh. Raises ``RuleError`` once round 1 has started or the evening has ended."""
    # Whether a round has started is read with the lock, in the same statement.
    evening = lock_evening(evening.pk, started=Exists(Round.objects.filter(evening_id=OuterRef("pk"))))
    if evening.started:  # type: ignore[attr-defined]
        raise RuleError(
            "Round 1 has started, so the seats can no longer be drawn or changed here: "
            "the bell moves guests now, and guests who leave or arrive are handled "
            "between bells."
        )
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
    """Deal every checked-in guest one card of their pack (a cryptographically random shuffle),
    store the draw and seat everyone. Returns the new ``Draw``. Every format's draw, by its
    rules (``FormatPlugin.rules.draw``): Progressive Poker's table cards (rank = table), or a
    seat card at tables of four (table and seat; ghosts in the seats left, in ``Draw.layout``).

    ``representing``: guest ids the host chose to draw from the other pack (default: the fewest
    needed, at random; when given, exactly that many, all of the pack with more guests than
    cards). Raises ``RuleError`` (PlanError, DrawError, guests in ``subjects``) when too few
    guests are here (Progressive Poker: 8; tables of four: 4), when 9 to 11 are here for
    Progressive Poker and the relaxed plan was not accepted, for a wrong pick of who represents
    the other pack, or after round 1 started. Nothing is saved then. Sources: the format's draw
    (Foster, "Progressive Poker"; ``docs/rules/tables-of-four.md``).
    Queries: a constant number (about a dozen), whatever the number of guests.
    """
    with transaction.atomic():
        evening = lock_for_draw(evening)
        guests = list(evening.guests.filter(status=Guest.Status.HERE).order_by("id").values_list("id", "pack"))
        fmt = format_for(evening)
        dealt = fmt.rules_of(evening).draw(
            [(g, Pack(p)) for g, p in guests], accept_relaxed=accept_relaxed, representing=representing
        )
        at_fours = fmt.seats_named  # seats North, East, South, West, the draw's layout kept
        evening.draws.filter(superseded_at__isnull=True).update(superseded_at=Now())  # the database's clock
        plan = dealt.plan
        draw = Draw.objects.create(
            evening=evening,
            kind=Draw.Kind.DIGITAL,
            sizes=list(plan.sizes),
            relaxed=plan.relaxed or "",
            complete=True,
            layout=[list(t) for t in dealt.tables] if at_fours else [],
        )
        cards_store(draw, dealt.cards)
        seats_replace(evening=evening, tables=dealt.tables, by_seat=at_fours)
        evening.stage = Evening.Stage.SEATED  # written with the new version (evening_touch)
        ghosts: dict[str, Any] = {"ghosts": sum(1 for t in dealt.tables for p in t if p < 0)} if at_fours else {}
        audit_log(
            evening=evening,
            action="draw.digital",
            user=user,
            device=device,
            draw_id=draw.pk,
            sizes=list(plan.sizes),
            relaxed=plan.relaxed or "",
            representing=sorted(c.guest for c in dealt.cards if c.represents_other),
            **ghosts,
        )
        evening_touch(evening=evening, fields=("stage",))
    return draw


def cards_store(draw: Draw, cards) -> None:
    """Store the cards ``cards`` (``tables.formats.engine.DrawnSeat``s: guest, pack, table,
    seat) of ``draw`` in one multi-row INSERT (``plain_inserts.insert_plain``), each with the
    draw's own time (the database's, returned by the draw's insert)."""
    insert_plain(
        DrawnCard,
        [{"guest_id": c.guest, "pack": c.pack.value, "rank": c.table, "seat": c.seat} for c in cards],
        constants={"draw_id": draw.pk, "recorded_at": draw.created_at},
    )


def seats_replace(*, evening: Evening, tables, by_seat: bool = False) -> None:
    """Store where everyone sits: ``tables`` is guest ids per table, table 1 first. With
    ``by_seat`` (tables of four) each table is in seat order North, East, South, West and the
    position is stored too; ghosts (negative ids) have no ``Seat`` row. Two queries."""
    Seat.objects.filter(evening=evening).delete()
    insert_plain(  # one INSERT, no Seat made (issue 26 item 6)
        Seat,
        [
            {"guest_id": guest, "table": number, "position": position if by_seat else None}
            for number, ids in enumerate(tables, 1)
            for position, guest in enumerate(ids)
            if guest > 0
        ],
        constants={"evening_id": evening.pk},
    )
