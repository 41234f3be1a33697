"""The physical draw at tables of four, as the partnership family's plug-in answers it
(``PartnershipFormat``: ``physical_draw_plan``, ``physical_card``, ``physical_draw_seating``,
``physical_draw_progress``, ``pull_list``): a card names a table and a seat ("3 N"); the packs
hold the digital draw's cards for the guests here, and finishing gives the digital draw's
seating with those cards, the ghosts where it seats them (``tables.formats.physical``;
docs/rules/tables-of-four.md, "The physical draw"). ``services.draw_physical`` locks the
evening and stores the cards (``DrawnCard`` rows with their seat) and the seating
(``Draw.layout``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tables.errors import RuleError
from tables.formats.engine import DrawnSeat, Plan, Seating
from tables.formats.physical import SeatCardOf, SeatDraw, parse_seat_card
from tables.packs import Pack
from tournament.models import Draw, Evening, Guest
from tournament.plugin import DrawGuest, PhysicalView, PullPack
from tournament.registry import format_for
from tournament.selectors.draw import pack_labels
from tournament.services.draw_physical import guests_here, not_here
from tournament.services.naming import error_message


def seat_reference(evening: Evening, here: Sequence[tuple[int, str]]) -> Seating:
    """The seating the format's digital draw gives for the guests ``here`` (id, pack; in id
    order), with a fixed shuffle: its cards are the packs' cards, its ghosts' seats are kept.
    Raises ``RuleError`` as that draw does (too few guests)."""
    rules = format_for(evening).rules_of(evening)
    return rules.draw([(g, Pack(p)) for g, p in here], rng=random.Random(0))


def seat_draw_start(evening: Evening, here: Sequence[tuple[int, str]]) -> SeatDraw:
    """A physical draw at tables of four with no card drawn yet for the guests ``here`` (id,
    pack; in id order): its packs hold the cards of the format's digital draw for them. Raises
    ``RuleError`` as that draw does (too few guests)."""
    reference = seat_reference(evening, here)
    return SeatDraw.start(reference, [(g, Pack(p)) for g, p in here], packs_matter=format_for(evening).plays_packs)


def seat_draw_state(draw: Draw) -> tuple[SeatDraw, dict[int, DrawGuest]]:
    """Rebuild a stored physical draw at tables of four (three queries): the ``SeatDraw`` with
    its recorded cards, and the guests here by id (``DrawGuest`` values). Raises ``RuleError``
    saying to restart the draw when the guests checked in no longer fit it (another count, a
    card drawn by a guest no longer here, a card no longer in the packs)."""
    evening = draw.evening
    names = guests_here(evening)
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


def seat_physical_plan(evening: Evening, here: Sequence[tuple[int, str]]) -> Plan:
    """The plan of a physical draw for the guests ``here``: the digital draw's (which checks the
    roster as it does). Raises ``RuleError`` below four guests."""
    made = seat_reference(evening, here).plan
    return Plan(made.sizes, made.relaxed)


def seat_physical_card(draw: Draw, *, guest_id: int, card: str) -> DrawnSeat:
    """The seat card ``guest_id`` drew, read from ``card`` ("3 N", "table 1 West";
    ``tables.formats.physical.parse_seat_card``) and taken by ``SeatDraw.take``; its pack is
    the guest's own where the packs do not matter. Raises ``RuleError``."""
    evening = draw.evening
    value, names = seat_draw_state(draw)
    if guest_id not in names:
        raise not_here(evening, guest_id)
    labels = {Pack.RED: evening.red_label, Pack.BLUE: evening.blue_label}
    table, seat, pack = parse_seat_card(card, labels=labels)
    value = value.take(guest_id, table, seat, pack, labels=labels)
    taken = value.taken[-1][1]
    own = dict(value.guests)[guest_id]
    stored = taken.pack if value.packs_matter else own
    return DrawnSeat(guest_id, stored, table, seat, stored is not own)


def seat_physical_seating(draw: Draw) -> Seating:
    """Every guest at their card's seat, the ghosts where the digital draw seats them
    (``SeatDraw.seating``; raises naming who has not drawn yet)."""
    value, _ = seat_draw_state(draw)
    return value.seating()


def seat_card_packs(cards: Sequence[SeatCardOf], labels: Mapping[Pack, str]) -> list[PullPack]:
    """The seat cards ``cards`` as one ``PullPack`` per pack (``rows``: table, 1, "3 N"; ``words``
    the cards in order: "1 N, 1 E, 2 N"), the pack with cards first."""
    out = []
    for pack in Pack:
        mine = [c for c in cards if c.pack is pack]
        rows = [(c.table, 1, f"{c.table} {'NESW'[c.seat]}") for c in mine]
        out.append(PullPack(pack, labels[pack], rows, ", ".join(r[2] for r in rows) or "none"))
    return out


def seat_pull_list(evening: Evening) -> tuple[Plan, list[PullPack]]:
    """The seat cards to take out of each pack: the digital draw's cards for the guests here
    (two queries); once round 1 has started, the draw in force's cards, whoever came or left
    since (three queries; house rule: the guests here now cannot be drawn again, so a pull list
    for them would be a draw that cannot happen). Raises ``RuleError`` below four guests."""
    draw = evening.draws.filter(superseded_at__isnull=True, complete=True).first()
    if draw is not None and evening.rounds.exists():
        drawn = draw.cards.filter(seat__isnull=False).values_list("rank", "seat", "pack")
        cards = [SeatCardOf(table, seat or 0, Pack(pack)) for table, seat, pack in sorted(drawn)]
        return Plan(tuple(draw.sizes)), seat_card_packs(cards, pack_labels(evening))
    guests = evening.guests.filter(status=Guest.Status.HERE).order_by("id")
    seats = seat_draw_start(evening, [(g, p) for g, p in guests.values_list("id", "pack")])
    return Plan(seats.reference.plan.sizes), seat_card_packs(seats.cards, pack_labels(evening))


def seat_cards_progress(draw: Draw, view: PhysicalView) -> PhysicalView:
    """``view`` at tables of four: the packs' seat cards, those left, the guests still to draw,
    the cards recorded ("3 North (red pack)"); ``problem`` when the draw no longer fits the
    guests here."""
    try:
        value, guests = seat_draw_state(draw)
    except RuleError as error:
        view.problem = error_message(error, draw.evening)
        return view
    labels = pack_labels(draw.evening)
    view.seat_cards = True
    view.pull = seat_card_packs(value.cards, labels)
    view.left = seat_card_packs(value.remaining(), labels)
    view.guests_left = [guests[g] for g in value.remaining_guests()]
    view.taken = [(guests[g], card.words(labels)) for g, card in reversed(value.taken)]
    view.complete = value.complete()
    view.cards = len(value.cards)
    return view
