"""Who is here changes after the draw and before round 1: a latecomer arrives, a guest leaves.

The host's choice, each one service: redraw (``draw_digital`` or a new physical draw), seat a
latecomer at a free seat (``draw_seat_latecomer``: a table between head and booby below seven),
take a guest out of the draw (``draw_release_guest``: a table between head and booby above
four), or let a latecomer take the seat of a guest who left (``draw_swap_guest``: no table
changes size, so it works at the head and booby tables too). The plan's limits are the format's
(``FormatPlugin.plan_with_latecomer``, ``plan_without_guest``; Progressive Poker's
``tables.formats.poker.plan``), whose messages say what to do instead. House rule (the seeds
are silent on late arrivals). What the host is told when a guest is marked before round 1
at Progressive Poker is its own (``tournament.formats.poker.draw_replans``).

Each change stores a new complete ``Draw`` with the cards copied (the latecomer's card is one of
their own pack at the chosen table) and supersedes the earlier one, which is kept: the history
shows every change. After round 1 these are refused: the bell handles arrivals and departures.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.db.models.functions import Now

from tables.errors import RuleError
from tables.formats.engine import Plan
from tables.packs import Pack
from tables.table_cards import TableCard
from tournament.models import Draw, DrawnCard, Evening, Guest
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.draws import live_draw, lock_for_draw, seats_replace, stored_plan
from tournament.services.versions import evening_touch


def live_cards(evening: Evening) -> tuple[Draw, list[DrawnCard]]:
    """The draw in force and its cards (``DrawnCard.SEATING_ORDER``). Raises ``RuleError`` when
    there is no draw yet. Two queries."""
    draw = live_draw(evening)
    if draw is None:
        raise RuleError("There is no draw yet: run the draw, and everyone checked in is seated.")
    return draw, list(draw.cards.order_by(*DrawnCard.SEATING_ORDER))


def _guest(evening: Evening, guest_id: int) -> Guest:
    guest = Guest.objects.filter(evening=evening, pk=guest_id).first()
    if guest is None:
        raise RuleError("That guest is not registered for this evening.")
    return guest


def replace_draw(
    evening: Evening,
    old: Draw,
    plan: Plan,
    cards: list[tuple[int, str, int]],
    *,
    seats: Mapping[int, int | None] | None = None,
    layout: list[list[int]] | None = None,
) -> Draw:
    """Supersede ``old`` by a complete draw of ``plan`` with ``cards`` (guest id, pack, rank);
    seat everyone; returns the new ``Draw`` (every change of the draw before round 1, here and in
    ``services.seat_changes``). At tables of four (``layout``: ids at North, East, South, West, ghosts
    negative) each card keeps its seat (``seats``: guest id -> seat) and the layout is the
    seating. Five queries."""
    Draw.objects.filter(pk=old.pk).update(superseded_at=Now())
    draw = Draw.objects.create(
        evening=evening,
        kind=old.kind,
        sizes=list(plan.sizes),
        relaxed=plan.relaxed or "",
        complete=True,
        layout=layout or [],
    )
    DrawnCard.objects.bulk_create(
        [
            DrawnCard(draw=draw, guest_id=g, pack=p, rank=r, seat=(seats or {}).get(g), recorded_at=draw.created_at)
            for g, p, r in cards
        ]
    )
    if layout:
        seats_replace(evening=evening, tables=layout, by_seat=True)
        return draw
    tables: list[list[int]] = [[] for _ in plan.sizes]
    for guest, _, rank in cards:
        tables[rank - 1].append(guest)
    seats_replace(evening=evening, tables=tables)
    return draw


def _tables_of_any_size(draw: Draw) -> None:
    """Raise ``RuleError`` for a draw at tables of four (``Draw.layout``): its tables keep four
    seats, so a guest can be neither added to one nor taken out of one here."""
    if draw.layout:
        raise RuleError(
            "These tables keep four seats each, so no table can take one more or one fewer: "
            "redraw, or let a latecomer take the seat of a guest who left."
        )


def draw_seat_latecomer(*, evening: Evening, guest_id: int, table: int, user=None, device: str = "") -> Draw:
    """Seat a checked-in guest who has no card in the draw at a free seat of ``table`` (one more
    at that table); their card is the table's rank from their own pack. Returns the new ``Draw``.

    Raises ``RuleError`` when the guest is not checked in or already has a card, when ``table``
    has no free seat (``PlanError`` naming the tables that have one, or saying to redraw), when
    there is no draw, or after round 1 started. Source: the format's ``plan_with_latecomer``
    (Progressive Poker: ``tables.formats.poker.plan.plan_with_latecomer``).
    """
    with transaction.atomic():
        evening = lock_for_draw(evening)
        guest = _guest(evening, guest_id)
        draw, cards = live_cards(evening)
        if guest.status != Guest.Status.HERE:
            raise RuleError(f"{guest.name} is not checked in: check them in first, then give them a seat.")
        if any(c.guest_id == guest.pk for c in cards):
            raise RuleError(f"{guest.name} already has a seat in this draw.")
        _tables_of_any_size(draw)
        plan = format_for(evening).plan_with_latecomer(stored_plan(draw), table)
        kept = [(c.guest_id, c.pack, c.rank) for c in cards]
        new = replace_draw(evening, draw, plan, [*kept, (guest.pk, guest.pack, table)])
        labels = {Pack.RED: evening.red_label, Pack.BLUE: evening.blue_label}
        audit_log(
            evening=evening,
            action="draw.latecomer",
            user=user,
            device=device,
            draw_id=new.pk,
            guest_id=guest.pk,
            table=table,
            card=TableCard(Pack(guest.pack), table).name_with(labels),
        )
        evening_touch(evening=evening)
    return new


def draw_release_guest(*, evening: Evening, guest_id: int, user=None, device: str = "") -> Draw:
    """Take a guest who leaves before round 1 out of the draw (their table one smaller); a guest
    still marked here is marked as left. Returns the new ``Draw``.

    Raises ``RuleError`` when the guest has no card in the draw, when their table cannot lose a
    player (``PlanError``: the head and booby tables keep four, a table between keeps four or
    more; it says to redraw, move a guest first, or let a latecomer take the seat), when there
    is no draw, or after round 1 started. Source: the format's ``plan_without_guest``
    (Progressive Poker: ``tables.formats.poker.plan.plan_without_guest``).
    """
    with transaction.atomic():
        evening = lock_for_draw(evening)
        guest = _guest(evening, guest_id)
        draw, cards = live_cards(evening)
        mine = next((c for c in cards if c.guest_id == guest.pk), None)
        if mine is None:
            raise RuleError(f"{guest.name} has no card in the draw in force: nothing to take out.")
        _tables_of_any_size(draw)
        try:
            plan = format_for(evening).plan_without_guest(stored_plan(draw), mine.rank)
        except RuleError as error:
            raise type(error)(f"{error} Or let a latecomer take {guest.name}'s seat.") from None
        new = replace_draw(evening, draw, plan, [(c.guest_id, c.pack, c.rank) for c in cards if c.guest_id != guest.pk])
        if guest.status == Guest.Status.HERE:
            Guest.objects.filter(pk=guest.pk).update(status=Guest.Status.LEFT)
        audit_log(
            evening=evening,
            action="draw.release",
            user=user,
            device=device,
            draw_id=new.pk,
            guest_id=guest.pk,
            table=mine.rank,
        )
        evening_touch(evening=evening)
    return new


def draw_swap_guest(*, evening: Evening, leaving_id: int, arriving_id: int, user=None, device: str = "") -> Draw:
    """A checked-in latecomer takes the seat (and the card) of a guest who leaves before round 1;
    no table changes size, so any table will do. The leaver, if still marked here, is marked as
    left. Returns the new ``Draw``. Raises ``RuleError`` when the leaver has no card, the
    latecomer is not checked in or already has one, there is no draw, or after round 1 started.
    House rule: a seat given up before the first deal may be taken by someone else."""
    with transaction.atomic():
        evening = lock_for_draw(evening)
        leaving, arriving = _guest(evening, leaving_id), _guest(evening, arriving_id)
        draw, cards = live_cards(evening)
        mine = next((c for c in cards if c.guest_id == leaving.pk), None)
        if mine is None:
            raise RuleError(f"{leaving.name} has no card in the draw in force, so has no seat to give up.")
        if arriving.status != Guest.Status.HERE:
            raise RuleError(f"{arriving.name} is not checked in: check them in first.")
        if any(c.guest_id == arriving.pk for c in cards):
            raise RuleError(f"{arriving.name} already has a seat in this draw.")
        swapped = [((arriving.pk if c.guest_id == leaving.pk else c.guest_id), c.pack, c.rank) for c in cards]
        seats = {(arriving.pk if c.guest_id == leaving.pk else c.guest_id): c.seat for c in cards}
        layout = [[arriving.pk if p == leaving.pk else p for p in t] for t in draw.layout or []]
        new = replace_draw(evening, draw, stored_plan(draw), swapped, seats=seats, layout=layout)
        if leaving.status == Guest.Status.HERE:
            Guest.objects.filter(pk=leaving.pk).update(status=Guest.Status.LEFT)
        audit_log(
            evening=evening,
            action="draw.swap",
            user=user,
            device=device,
            draw_id=new.pk,
            leaving_id=leaving.pk,
            arriving_id=arriving.pk,
            table=mine.rank,
        )
        evening_touch(evening=evening)
    return new
