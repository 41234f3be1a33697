"""Progressive Poker's physical draw and its table plan before round 1, as its plug-in answers
them (``PokerFormat``: ``physical_draw_plan``, ``physical_card``, ``physical_draw_seating``,
``physical_draw_progress``, ``pull_list``, ``from_other_pack``, and the plan's latecomers and
leavers): the table cards of ``tables.formats.poker.draw`` (a card's rank is its table) and the
plan of ``tables.formats.poker.plan``.

Rules: ``tables.formats.poker.draw.PhysicalDraw`` (from ``docs/rules/progressive-poker.md``: the
cards "selected to agree with the number required", each guest drawing from their own pack, some
representing the other when the packs are unequal). ``services.draw_physical`` locks the
evening, stores the cards and the seating; here the stored rows are rebuilt into a
``PhysicalDraw`` that accepts or refuses each card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tables.errors import RuleError
from tables.formats.engine import DrawnSeat, Plan, Seating
from tables.formats.poker.draw import (
    DealtCard,
    PhysicalDraw,
    describe_cards,
    draws_from_other_pack,
    pull_list,
    split_packs,
)
from tables.formats.poker.plan import TablePlan, free_seats, plan_tables, plan_with_latecomer, plan_without_guest
from tables.packs import Pack
from tables.table_cards import DrawError, TableCard, parse_table_card, rank_name, rank_plural
from tournament.models import Draw, Evening, Guest
from tournament.plugin import DrawGuest, PhysicalView, PullPack
from tournament.selectors.draw import pack_labels
from tournament.services.draw_physical import guests_here, not_here
from tournament.services.draws import draw_plan, live_draw, stored_plan
from tournament.services.naming import error_message


def table_plan(plan: Plan) -> TablePlan:
    """A stored or planned ``plan`` as Progressive Poker's ``TablePlan`` (head table first).
    Raises ``InvariantBroken`` for sizes the poker plan never makes."""
    if isinstance(plan, TablePlan):
        return plan
    return TablePlan(tuple(plan.sizes), relaxed=plan.relaxed)


# -- the plan before round 1 (``services.draw_changes``, ``selectors.draw.draw_changes``) ---------


def poker_free_seats(plan: Plan) -> tuple[int, ...]:
    """``tables.formats.poker.plan.free_seats``: the tables between head and booby below seven."""
    return free_seats(table_plan(plan))


def poker_plan_with_latecomer(plan: Plan, table: int) -> Plan:
    """``tables.formats.poker.plan.plan_with_latecomer`` (``PlanError`` naming the tables with a seat)."""
    return plan_with_latecomer(table_plan(plan), table)


def poker_plan_without_guest(plan: Plan, table: int) -> Plan:
    """``tables.formats.poker.plan.plan_without_guest`` (``PlanError``: the head and booby tables keep four)."""
    return plan_without_guest(table_plan(plan), table)


def poker_from_other_pack(plan: Plan, *, red: int, blue: int) -> dict[Pack, int]:
    """``tables.formats.poker.draw.draws_from_other_pack`` for the pull list of ``plan`` split by
    the packs' guests (``split_packs``)."""
    splits = split_packs(table_plan(plan), red=red, blue=blue)
    return draws_from_other_pack(splits, red=red, blue=blue)


# -- the physical draw (``services.draw_physical``) -----------------------------------------------


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
    guests = guests_here(evening, by_name=True)
    labels = {Pack.RED: evening.red_label, Pack.BLUE: evening.blue_label}
    plan = table_plan(stored_plan(draw))
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


def poker_physical_plan(here: Sequence[tuple[int, str]], *, accept_relaxed: bool) -> Plan:
    """The plan of a physical draw for the guests ``here`` (id, pack value): ``plan_tables``
    for their count, the roster checked by ``PhysicalDraw.start``. Raises ``PlanError`` (the
    relaxed offer for 9 to 11 guests) or ``DrawError``. Source: docs/rules/progressive-poker.md,
    'The seating draw' (the pull list)."""
    plan = plan_tables(len(here), accept_relaxed=accept_relaxed)
    PhysicalDraw.start(plan, [(pk, Pack(pack)) for pk, pack in here])  # checks the roster
    return plan


def poker_physical_card(draw: Draw, *, guest_id: int, card: str) -> DrawnSeat:
    """The table card ``guest_id`` drew, read from ``card`` ("3", "trey", "3 red"; without a
    pack, of the guest's own pack) and taken by ``PhysicalDraw.take`` (raises ``DrawError``
    naming the cards left). Raises ``RuleError`` for a guest not checked in."""
    state = physical_state(draw)
    guest = state.guests.get(guest_id)
    if guest is None:
        raise not_here(draw.evening, guest_id)
    parsed = parse_table_card(card, default_pack=Pack(guest.pack), labels=state.labels)
    state.value.take(guest.pk, Pack(guest.pack), parsed, labels=state.labels)
    return DrawnSeat(guest.pk, parsed.pack, parsed.rank, None, parsed.pack.value != guest.pack)


def poker_physical_seating(draw: Draw) -> Seating:
    """Every guest at their card's table (``PhysicalDraw.seating``; raises naming who has not
    drawn yet)."""
    state = physical_state(draw)
    tables = state.value.seating()
    cards = tuple(DrawnSeat(d.guest, d.card.pack, d.table, None, d.represents_other) for d in state.value.taken)
    return Seating(stored_plan(draw), tables, cards)


def pull_packs(splits, labels: dict[Pack, str], cards: dict[Pack, tuple] | None = None) -> list[PullPack]:
    """The pull list (or, with ``cards``, the cards left) as one ``PullPack`` per pack, red first."""
    cards = cards if cards is not None else pull_list(splits)
    return [
        PullPack(
            pack,
            labels[pack],
            [(rank, n, f"{n} {rank_name(rank) if n == 1 else rank_plural(rank)}") for rank, n in cards[pack]],
            describe_cards(cards[pack]),
        )
        for pack in Pack
    ]


def drawn_packs(evening: Evening) -> tuple[Draw, int, int] | None:
    """Once round 1 has started: the draw in force and how many of its guests were in each
    pack (red, blue), whoever has arrived or left since; None before round 1 or without a
    draw. The pull list is then the draw's, not a plan for the guests here now, who can no
    longer be drawn again (house rule: docs/rules/progressive-poker.md, 'The seating draw':
    from round 1 on the bell handles guests who leave or arrive). Two queries."""
    if not evening.rounds.exists():
        return None
    draw = live_draw(evening)
    if draw is None:
        return None
    packs = list(draw.cards.values_list("guest__pack", flat=True))
    red = packs.count(Pack.RED.value)
    return draw, red, len(packs) - red


def poker_pull_list(evening: Evening, open_draw: Draw | None) -> tuple[TablePlan, list[PullPack]]:
    """The pull list to print: for the physical draw being recorded (its stored plan), once
    play has begun for the draw in force (``drawn_packs``), else for the guests checked in now
    (the plan they would get, the relaxed one accepted for 9 to 11 guests), split by how many
    guests each pack has. Raises ``RuleError`` (``PlanError``) when the guests here cannot be
    seated. Rules: ``tables.formats.poker.draw.split_packs`` and ``pull_list`` (source
    ``docs/rules/progressive-poker.md``). Two to four queries."""
    drawn = None if open_draw else drawn_packs(evening)
    if drawn is not None:
        draw, red, blue = drawn
        plan = table_plan(stored_plan(draw))
    else:
        plan = table_plan(stored_plan(open_draw) if open_draw else draw_plan(evening=evening, accept_relaxed=True))
        here = list(evening.guests.filter(status=Guest.Status.HERE).values_list("pack", flat=True))
        red, blue = here.count(Pack.RED.value), len(here) - here.count(Pack.RED.value)
    splits = split_packs(plan, red=red, blue=blue)
    return plan, pull_packs(splits, pack_labels(evening), pull_list(splits))


def poker_physical_progress(draw: Draw, view: PhysicalView) -> PhysicalView:
    """``view`` filled from the stored table cards (``physical_state``): the pull list, the
    cards and guests left, the cards recorded, newest first; ``problem`` when the draw no longer
    fits the guests here. Three queries."""
    try:
        state = physical_state(draw)
    except RuleError as error:
        view.problem = error_message(error, draw.evening)
        return view
    value, labels = state.value, state.labels
    view.pull = pull_packs(value.splits, labels)
    view.left = pull_packs(value.splits, labels, value.remaining_cards())
    view.guests_left = [state.guests[g] for g in value.remaining_guests()]
    view.taken = [(state.guests[d.guest], d.card.name_with(labels)) for d in reversed(value.taken)]
    view.complete = value.complete()
    return view
