"""The physical draw: guests draw real cards from the two packs, the host records each card.

Rules: ``tables.formats.poker.draw.PhysicalDraw`` (from ``docs/rules/progressive-poker.md``: the cards "selected to
agree with the number required", each guest drawing from their own pack, some representing the
other when the packs are unequal). A physical draw is a ``Draw`` with ``kind=physical`` and
``complete=False`` holding the cards recorded so far (``DrawnCard`` rows). It does not replace
the draw in force until ``draw_physical_finish`` seats everyone.

At tables of four (``FormatPlugin.seats_named``) a card names a table and a seat ("3 N"): the
packs hold the digital draw's cards for the guests here and finishing gives the digital draw's
seating with those cards (``tables.formats.physical``; docs/rules/tables-of-four.md, "The
physical draw"); the cards are ``DrawnCard`` rows with their seat, the seating ``Draw.layout``.

Every service here locks the evening row, rebuilds the ``PhysicalDraw`` from the stored rows,
lets ``tables.formats.poker.draw`` accept or refuse, and saves only what it accepted: a refused card changes
nothing. House rule: the draw is for the guests checked in when it started; if that changes
before it is finished, the host restarts it (the page says so).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from django.db import transaction
from django.db.models.functions import Now

from tables.errors import RuleError
from tables.formats.engine import Seating
from tables.formats.physical import SeatDraw, parse_seat_card
from tables.formats.poker.draw import DealtCard, PhysicalDraw
from tables.formats.poker.plan import TablePlan, plan_tables
from tables.packs import Pack
from tables.table_cards import DrawError, TableCard, parse_table_card
from tournament.models import Draw, DrawnCard, Evening, Guest
from tournament.registry import format_for
from tournament.services.audit import audit_log
from tournament.services.draws import lock_for_draw, seats_replace, stored_plan
from tournament.services.versions import evening_touch


def open_physical_draw(evening: Evening) -> Draw | None:
    """The physical draw being recorded for this evening (not finished, not superseded), or None."""
    return evening.draws.filter(kind=Draw.Kind.PHYSICAL, complete=False, superseded_at__isnull=True).first()


@dataclass(frozen=True, slots=True)
class DrawGuest:
    """A guest here, as the physical draw needs them: id, name, pack ("red"/"blue") and the name
    folded for look-ups (lighter than a ``Guest`` row: a draw of 500 loads 500 of them)."""

    pk: int
    name: str
    pack: str
    name_key: str


@dataclass(frozen=True)
class PhysicalState:
    """A physical draw as stored, rebuilt: the ``PhysicalDraw`` value, the guests here by id
    (``DrawGuest`` values, by name), and the host's pack labels."""

    value: PhysicalDraw
    guests: dict[int, DrawGuest]
    labels: dict[Pack, str]

    @property
    def names(self) -> dict[int, str]:
        """Guest id -> name, for messages."""
        return {pk: g.name for pk, g in self.guests.items()}


def physical_state(draw: Draw) -> PhysicalState:
    """Rebuild a stored physical draw (two queries). Raises ``RuleError`` saying to restart the
    draw when the guests checked in no longer match the draw's plan or its recorded cards."""
    evening = draw.evening
    rows = evening.guests.filter(status=Guest.Status.HERE).order_by("name_key", "id")
    guests = {pk: DrawGuest(pk, *rest) for pk, *rest in rows.values_list("id", "name", "pack", "name_key")}
    labels = {Pack.RED: evening.red_label, Pack.BLUE: evening.blue_label}
    plan = stored_plan(draw)
    try:
        start = PhysicalDraw.start(plan, [(pk, Pack(g.pack)) for pk, g in guests.items()])
    except DrawError:
        raise RuleError(
            f"This physical draw was planned for {plan.guests} guests, but {len(guests)} are checked "
            f"in now. Restart the physical draw (a new pull list) for the guests here, or check "
            f"guests in or out until {plan.guests} are here."
        ) from None
    taken = []
    for guest_id, pack, rank in draw.cards.order_by("recorded_at", "id").values_list("guest_id", "pack", "rank"):
        card = TableCard(Pack(pack), rank)
        if guest_id not in guests:
            name = Guest.objects.filter(pk=guest_id).values_list("name", flat=True).first()
            raise RuleError(
                f"{name} drew the {card.name_with(labels)} but is no longer checked in: check "
                f"them in again, or restart the physical draw."
            )
        taken.append(DealtCard(guest_id, Pack(guests[guest_id].pack), card))
    value = PhysicalDraw(start.plan, start.splits, tuple(taken), start.guests)
    used = Counter(dealt.card for dealt in taken)
    if any(c.rank > plan.tables or n > value.splits[c.rank - 1].count(c.pack) for c, n in used.items()):
        raise RuleError(
            "The guests checked in have changed since this physical draw began, and the cards "
            "recorded no longer fit its pull list: restart the physical draw."
        )
    return PhysicalState(value, guests, labels)


def _lock_open(evening: Evening) -> tuple[Evening, Draw]:
    evening = lock_for_draw(evening)
    draw = open_physical_draw(evening)
    if draw is None:
        raise RuleError("No physical draw is being recorded: start one from the draw page.")
    draw.evening = evening
    return evening, draw


def draw_physical_start(*, evening: Evening, accept_relaxed: bool = False, user=None, device: str = "") -> Draw:
    """Start a physical draw for the guests checked in now: plan the tables and store an empty
    ``Draw`` (kind physical, not complete) whose pull list the host prints. A physical draw
    already being recorded is superseded (restarted); the draw in force stays until this one is
    finished. Returns the new ``Draw``.

    Raises ``RuleError`` (``PlanError`` with the relaxed offer for 9 to 11 guests) for fewer than
    8 guests here, 9 to 11 without ``accept_relaxed``, or after round 1 started.
    Source: docs/rules/progressive-poker.md, 'The seating draw' (the pull list); ``tables.formats.poker.plan``.
    """
    with transaction.atomic():
        evening = lock_for_draw(evening)
        here = list(evening.guests.filter(status=Guest.Status.HERE).order_by("id").values_list("id", "pack"))
        if format_for(evening).seats_named:
            made = _reference(evening, here).plan  # checks the roster as the digital draw does
            plan = TablePlan(made.sizes, relaxed=made.relaxed)
        else:
            plan = plan_tables(len(here), accept_relaxed=accept_relaxed)
            PhysicalDraw.start(plan, [(pk, Pack(pack)) for pk, pack in here])  # checks the roster
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
    "ace of the blue pack", or with the host's pack labels. Without a pack the card is of the
    guest's own pack. At tables of four the card names its seat too: "3 N", "table 1 West"
    (``tables.formats.physical.parse_seat_card``; a ghost's seat has no card). Returns the new
    ``DrawnCard``.

    Raises ``RuleError`` (guests named, the cards left in that pack listed) and saves nothing
    for: a card that cannot be read, a rank beyond the plan, a card not in the pull list or all
    of it already taken, a guest who already drew, a guest not checked in, a card of the other
    pack when no more of the guest's pack may draw from it, no physical draw open, or after
    round 1 started. Source: ``tables.formats.poker.draw.PhysicalDraw.take``. Queries: a constant number.
    """
    with transaction.atomic():
        evening, draw = _lock_open(evening)
        if format_for(evening).seats_named:
            return _seat_card_record(evening, draw, guest_id=guest_id, card=card, user=user, device=device)
        state = physical_state(draw)
        guest = state.guests.get(guest_id)
        if guest is None:
            other = Guest.objects.filter(evening=evening, pk=guest_id).first()
            if other is None:
                raise RuleError("That guest is not registered for this evening: pick a name from the list.")
            raise RuleError(
                f"{other.name} is not checked in, so has no card in this draw: check them in "
                f"on the guests page and restart the physical draw, or pick another name."
            )
        parsed = parse_table_card(card, default_pack=Pack(guest.pack), labels=state.labels)
        state.value.take(guest.pk, Pack(guest.pack), parsed, labels=state.labels)
        row = DrawnCard.objects.create(draw=draw, guest_id=guest.pk, pack=parsed.pack.value, rank=parsed.rank)
        audit_log(
            evening=evening,
            action="draw.physical.record",
            user=user,
            device=device,
            draw_id=draw.pk,
            guest_id=guest.pk,
            pack=parsed.pack.value,
            rank=parsed.rank,
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
    tables of four: at their card's seat, the ghosts where the digital draw seats them).
    Returns the ``Draw``. Raises ``RuleError`` naming who has not drawn yet, or as
    ``draw_physical_record``."""
    with transaction.atomic():
        evening, draw = _lock_open(evening)
        if format_for(evening).seats_named:
            return _seat_cards_finish(evening, draw, user=user, device=device)
        state = physical_state(draw)
        tables = state.value.seating()
        now = Now()  # the database's clock
        evening.draws.filter(superseded_at__isnull=True).exclude(pk=draw.pk).update(superseded_at=now)
        draw.complete = True
        draw.save(update_fields=["complete"])
        seats_replace(evening=evening, tables=tables)
        evening.stage = Evening.Stage.SEATED
        evening.save(update_fields=["stage"])
        audit_log(
            evening=evening,
            action="draw.physical.finish",
            user=user,
            device=device,
            draw_id=draw.pk,
            representing=sorted(d.guest for d in state.value.taken if d.represents_other),
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


# -- tables of four: seat cards (``tables.formats.physical``) ------------------------------------


def _reference(evening: Evening, here: list[tuple[int, str]]) -> Seating:
    """The seating the format's digital draw gives for the guests ``here`` (id, pack; in id
    order), with a fixed shuffle: its cards are the packs' cards, its ghosts' seats are kept.
    Raises ``RuleError`` as that draw does (too few guests)."""
    rules = format_for(evening).rules_of(evening)
    return rules.draw([(g, Pack(p)) for g, p in here], rng=random.Random(0))


def seat_draw_start(evening: Evening, here: list[tuple[int, str]]) -> SeatDraw:
    """A physical draw at tables of four with no card drawn yet for the guests ``here`` (id,
    pack; in id order): its packs hold the cards of the format's digital draw for them. Raises
    ``RuleError`` as that draw does (too few guests)."""
    reference = _reference(evening, here)
    return SeatDraw.start(reference, [(g, Pack(p)) for g, p in here], packs_matter=format_for(evening).plays_packs)


def seat_draw_state(draw: Draw) -> tuple[SeatDraw, dict[int, DrawGuest]]:
    """Rebuild a stored physical draw at tables of four (three queries): the ``SeatDraw`` with
    its recorded cards, and the guests here by id (``DrawGuest`` values). Raises ``RuleError``
    saying to restart the draw when the guests checked in no longer fit it (another count, a
    card drawn by a guest no longer here, a card no longer in the packs)."""
    evening = draw.evening
    rows = evening.guests.filter(status=Guest.Status.HERE).order_by("id")
    names = {pk: DrawGuest(pk, *rest) for pk, *rest in rows.values_list("id", "name", "pack", "name_key")}
    here = [(g.pk, g.pack) for g in names.values()]
    value = seat_draw_start(evening, here)
    reference = value.reference
    if list(reference.plan.sizes) != list(draw.sizes):
        raise RuleError(
            f"This physical draw was planned for {len(draw.sizes)} tables, but the {len(here)} guests checked "
            f"in now make {len(reference.plan.sizes)}: restart the physical draw for the guests here."
        )
    for guest_id, rank, seat in draw.cards.order_by("recorded_at", "id").values_list("guest_id", "rank", "seat"):
        try:
            value = value.take(guest_id, rank, seat or 0)
        except RuleError:
            raise RuleError(
                "The guests checked in have changed since this physical draw began, and the cards recorded "
                "no longer fit: restart the physical draw."
            ) from None
    return value, names


def _seat_card_record(evening: Evening, draw: Draw, *, guest_id: int, card: str, user, device: str) -> DrawnCard:
    """``draw_physical_record`` at tables of four: the card names a table and a seat ("3 N")."""
    value, names = seat_draw_state(draw)
    if guest_id not in names:
        other = Guest.objects.filter(evening=evening, pk=guest_id).first()
        if other is None:
            raise RuleError("That guest is not registered for this evening: pick a name from the list.")
        raise RuleError(
            f"{other.name} is not checked in, so has no card in this draw: check them in "
            f"on the guests page and restart the physical draw, or pick another name."
        )
    labels = {Pack.RED: evening.red_label, Pack.BLUE: evening.blue_label}
    table, seat, pack = parse_seat_card(card, labels=labels)
    value = value.take(guest_id, table, seat, pack, labels=labels)
    taken = value.taken[-1][1]
    own = dict(value.guests)[guest_id]
    row = DrawnCard.objects.create(
        draw=draw, guest_id=guest_id, pack=(taken.pack if value.packs_matter else own).value, rank=table, seat=seat
    )
    audit_log(
        evening=evening,
        action="draw.physical.record",
        user=user,
        device=device,
        draw_id=draw.pk,
        guest_id=guest_id,
        pack=row.pack,
        rank=table,
        seat=seat,
    )
    evening_touch(evening=evening)
    return row


def _seat_cards_finish(evening: Evening, draw: Draw, *, user, device: str) -> Draw:
    """``draw_physical_finish`` at tables of four: every guest at their card's seat, the ghosts
    where the digital draw seats them (``SeatDraw.seating``)."""
    value, _ = seat_draw_state(draw)
    seating = value.seating()
    evening.draws.filter(superseded_at__isnull=True).exclude(pk=draw.pk).update(superseded_at=Now())
    draw.complete = True
    draw.layout = [list(t) for t in seating.tables]
    draw.save(update_fields=["complete", "layout"])
    seats_replace(evening=evening, tables=seating.tables, by_seat=True)
    evening.stage = Evening.Stage.SEATED
    evening.save(update_fields=["stage"])
    audit_log(
        evening=evening,
        action="draw.physical.finish",
        user=user,
        device=device,
        draw_id=draw.pk,
        representing=sorted(c.guest for c in seating.cards if c.represents_other),
        ghosts=sum(1 for t in seating.tables for p in t if p < 0),
    )
    evening_touch(evening=evening)
    return draw
