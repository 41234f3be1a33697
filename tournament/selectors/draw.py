"""Reads for the draw pages: the seating, the pull list, a physical draw's progress, the choice
of who represents the other pack, and the changes of who is here since the draw.

Each costs a constant number of queries, whatever the number of guests. Rules come from
``tables.formats.poker.plan`` and ``tables.formats.poker.draw`` (``docs/rules/progressive-poker.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tables.errors import RuleError
from tables.formats.physical import SeatCardOf
from tables.formats.poker.draw import describe_cards, draws_from_other_pack, pull_list, split_packs
from tables.formats.poker.plan import TablePlan, free_seats, plan_without_guest
from tables.packs import Pack
from tables.table_cards import TableCard, pack_words, rank_name, rank_plural
from tournament.models import Draw, DrawnCard, Evening, Guest
from tournament.name_keys import bare_name, name_found
from tournament.registry import format_for
from tournament.selectors.board import table_kind, table_label
from tournament.services.draw_physical import (
    DrawGuest,
    PhysicalState,
    open_physical_draw,
    physical_state,
    seat_draw_start,
    seat_draw_state,
)
from tournament.services.draws import draw_plan, live_draw, stored_plan
from tournament.services.naming import error_message


def pack_labels(evening: Evening) -> dict[Pack, str]:
    """The host's pack labels: {Pack.RED: "Red pack", Pack.BLUE: "Blue pack"} by default."""
    return {Pack.RED: evening.red_label, Pack.BLUE: evening.blue_label}


@dataclass
class SeatLine:
    """A guest at a table in the draw: their own pack and the card they drew."""

    guest: Guest
    card: TableCard
    card_name: str
    represents_words: str = ""

    @property
    def represents(self) -> bool:
        """True when the guest drew from the other pack (and represents it)."""
        return self.card.pack.value != self.guest.pack


@dataclass
class SeatingTable:
    """One table of the draw: number (= card rank), kind, its rank's name and plural, guests."""

    number: int
    kind: str
    rank: str
    plural: str
    lines: list[SeatLine] = field(default_factory=list)

    @property
    def label(self) -> str:
        """ "Table 1 · Head table", "Table 3", "Table 5 · Booby table" (``table_label``)."""
        return table_label(self.number, self.kind)


@dataclass
class SeatingView:
    """The seating of the draw in force: its ``Draw``, its tables, table 1 first, and the guests
    whose card is past the last table (a format whose draw deals cards for sitting out,
    ``FormatPlugin.card_ranks``: they sit the first round out)."""

    draw: Draw
    tables: list[SeatingTable]
    sitting_out: list[Guest] = field(default_factory=list)

    @property
    def guests(self) -> int:
        """The number of guests seated."""
        return sum(len(t.lines) for t in self.tables)


def seating_view(evening: Evening) -> SeatingView | None:
    """The seating of the draw in force (every table with its card's rank, its kind and its
    guests with their pack; the guests holding a card past the last table, who sit the first
    round out), or None before the draw. Two queries."""
    draw = live_draw(evening)
    if draw is None:
        return None
    labels = pack_labels(evening)
    count = len(draw.sizes)
    tables = [SeatingTable(n, table_kind(n, count), rank_name(n), rank_plural(n)) for n in range(1, count + 1)]
    sitting_out: list[Guest] = []
    for row in draw.cards.select_related("guest").order_by("rank", "guest__name_key", "id"):
        if row.rank > count:
            sitting_out.append(row.guest)
            continue
        card = TableCard(Pack(row.pack), row.rank)
        words = f"represents {pack_words(card.pack, labels)}" if row.pack != row.guest.pack else ""
        tables[row.rank - 1].lines.append(SeatLine(row.guest, card, card.name_with(labels), words))
    return SeatingView(draw, tables, sitting_out)


@dataclass
class PullPack:
    """One pack's part of the pull list: its label, (rank, count, words) rows and the total."""

    pack: Pack
    label: str
    rows: list[tuple[int, int, str]]
    words: str

    @property
    def total(self) -> int:
        """The number of cards to pull from this pack."""
        return sum(count for _, count, _ in self.rows)


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


def pull_list_view(evening: Evening) -> tuple[TablePlan, list[PullPack]]:
    """The pull list to print, one ``PullPack`` per pack with the host's labels: for the physical
    draw being recorded (its stored plan), else for the guests checked in now (the plan they
    would get, the relaxed one accepted for 9 to 11 guests), split by how many guests each pack
    has. Returns the plan and the packs. Raises ``RuleError`` (``PlanError``) when the guests
    here cannot be seated. Rules: ``tables.formats.poker.draw.split_packs`` and ``pull_list`` (source
    ``docs/rules/progressive-poker.md``). Three or four queries."""
    open_draw = open_physical_draw(evening)
    if format_for(evening).seats_named:  # seat cards: the digital draw's cards for the guests here
        guests = evening.guests.filter(status=Guest.Status.HERE).order_by("id")
        seats = seat_draw_start(evening, [(g, p) for g, p in guests.values_list("id", "pack")])
        return TablePlan(seats.reference.plan.sizes), seat_card_packs(seats.cards, pack_labels(evening))
    plan = stored_plan(open_draw) if open_draw else draw_plan(evening=evening, accept_relaxed=True)
    here = list(evening.guests.filter(status=Guest.Status.HERE).values_list("pack", flat=True))
    red = here.count(Pack.RED.value)
    splits = split_packs(plan, red=red, blue=len(here) - red)
    return plan, pull_packs(splits, pack_labels(evening), pull_list(splits))


def drawn_card_words(evening: Evening, guest: Guest | DrawGuest, card: DrawnCard) -> str:
    """What the host reads once a card is recorded in the physical draw, with the host's pack
    labels: "Ann Smith: four of the Red pack → table 4." (a table card's rank is its
    table: ``tables.formats.poker.draw``). No query beyond the evening's labels."""
    if card.seat is not None:  # a seat card at tables of four: "3 N"
        return (
            f"{guest.name}: {card.rank} {'NESW'[card.seat]} → {format_for(evening).place_words(card.rank, card.seat)}."
        )
    name = TableCard(Pack(card.pack), card.rank).name_with(pack_labels(evening))
    return f"{guest.name}: {name} → table {card.rank}."


@dataclass
class PhysicalView:
    """A physical draw's progress: the pull list, cards and guests left, the cards recorded
    (newest first, as (guest, card name)), and whether every card is recorded. ``problem`` holds
    the reason when the draw no longer fits the guests here (the host must restart it)."""

    draw: Draw
    plan: TablePlan
    pull: list[PullPack] = field(default_factory=list)
    left: list[PullPack] = field(default_factory=list)
    guests_left: list[DrawGuest] = field(default_factory=list)
    taken: list[tuple[DrawGuest, str]] = field(default_factory=list)
    complete: bool = False
    problem: str = ""
    seat_cards: bool = False
    """Whether the cards name table and seat ("3 N": tables of four) rather than a table."""
    cards: int = 0
    """How many cards the draw has (at tables of four: one per guest, none for a ghost's seat)."""


def physical_view(draw: Draw) -> PhysicalView:
    """Load the progress of a physical draw (three queries); at tables of four, of seat cards
    (``seat_cards_view``)."""
    plan = stored_plan(draw)
    view = PhysicalView(draw, plan)
    if format_for(draw.evening).seats_named:
        return seat_cards_view(draw, view)
    try:
        state: PhysicalState = physical_state(draw)
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


def seat_card_packs(cards: Sequence[SeatCardOf], labels: Mapping[Pack, str]) -> list[PullPack]:
    """The seat cards ``cards`` as one ``PullPack`` per pack (``rows``: table, 1, "3 N"; ``words``
    the cards in order: "1 N, 1 E, 2 N"), the pack with cards first."""
    out = []
    for pack in Pack:
        mine = [c for c in cards if c.pack is pack]
        rows = [(c.table, 1, f"{c.table} {'NESW'[c.seat]}") for c in mine]
        out.append(PullPack(pack, labels[pack], rows, ", ".join(r[2] for r in rows) or "none"))
    return out


def seat_cards_view(draw: Draw, view: PhysicalView) -> PhysicalView:
    """``physical_view`` at tables of four: the packs' seat cards, those left, the guests still to
    draw, the cards recorded ("3 North (red pack)"). ``problem`` as ``physical_view``."""
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


@dataclass
class Representing:
    """Who may represent the other pack in a digital draw: the pack with more guests than
    cards (``pack``), how many of its guests must draw from the other pack (``need``), and its
    guests here to choose from. ``need`` is 0 when each pack has cards for all its guests."""

    pack: Pack | None
    need: int
    candidates: list[Guest]
    pack_name: str = ""
    other_name: str = ""


def representing_choice(evening: Evening, plan: TablePlan) -> Representing:
    """The choice of who represents the other pack for ``plan`` and the guests here. One query.
    Source: docs/rules/progressive-poker.md ("some of the men must represent women or vice versa")."""
    guests = list(evening.guests.filter(status=Guest.Status.HERE))
    counts = Counter(Pack(g.pack) for g in guests)
    if counts[Pack.RED] + counts[Pack.BLUE] != plan.guests:
        return Representing(None, 0, [])
    splits = split_packs(plan, red=counts[Pack.RED], blue=counts[Pack.BLUE])
    short = draws_from_other_pack(splits, red=counts[Pack.RED], blue=counts[Pack.BLUE])
    pack = next((p for p in Pack if short[p]), None)
    if pack is None:
        return Representing(None, 0, [])
    labels = pack_labels(evening)
    return Representing(
        pack,
        short[pack],
        [g for g in guests if g.pack == pack.value],
        pack_words(pack, labels),
        pack_words(pack.other, labels),
    )


@dataclass
class DrawChanges:
    """Changes of who is here since the draw in force: ``latecomers`` as (guest, tables with a
    free seat) and ``leavers`` as (guest, their table, why they cannot simply leave or "")."""

    latecomers: list[tuple[Guest, tuple[int, ...]]] = field(default_factory=list)
    leavers: list[tuple[Guest, int, str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.latecomers or self.leavers)


def draw_changes(evening: Evening) -> DrawChanges:
    """Who is checked in without a card in the draw in force, and who has a card but is no
    longer checked in. Empty before any draw. Three queries."""
    changes = DrawChanges()
    draw = live_draw(evening)
    if draw is None:
        return changes
    plan = stored_plan(draw)
    tables = dict(draw.cards.values_list("guest_id", "rank"))
    free = free_seats(plan)
    for guest in evening.guests.all():
        if guest.status == Guest.Status.HERE and guest.pk not in tables:
            changes.latecomers.append((guest, free))
        elif guest.status != Guest.Status.HERE and guest.pk in tables:
            try:
                plan_without_guest(plan, tables[guest.pk])
                why = ""
            except RuleError as error:
                why = error_message(error, evening)
            changes.leavers.append((guest, tables[guest.pk], why))
    return changes


def guest_find(evening: Evening, text: str, among: list) -> Guest | DrawGuest:
    """The guest a host typed: an exact name (spaces and case ignored) among ``among`` (guests
    or ``DrawGuest`` values) or else among all the evening's guests, else the one name among
    ``among`` that starts with or contains the text, accents ignored (``name_keys``: "jose"
    is José). Raises ``RuleError`` saying to pick a
    name when none or several match."""
    key = Guest.fold_name(text or "")
    if not key:
        raise RuleError("Type the guest's name (the list suggests names as you type).")
    exact = [g for g in among if g.name_key == key]
    if not exact:
        exact = list(Guest.objects.filter(evening=evening, name_key=key)[:1])
    if exact:
        return exact[0]
    starts = [g for g in among if bare_name(g.name).startswith(bare_name(key))]
    found = starts or [g for g in among if name_found(key, g.name)]
    if len(found) == 1:
        return found[0]
    if not found:
        raise RuleError(f"No guest left to draw is called “{text}”: pick a name from the list.")
    names = ", ".join(g.name for g in found[:5]) + (" ..." if len(found) > 5 else "")
    raise RuleError(f"“{text}” could be {names}: type more of the name.")
