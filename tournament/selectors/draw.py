"""Reads for the draw pages: the seating, the pull list, a physical draw's progress, the choice
of who represents the other pack, and the changes of who is here since the draw.

Each costs a constant number of queries, whatever the number of guests. What the format's rules
decide is asked of its plug-in (``FormatPlugin``: ``free_seats``, ``plan_without_guest``,
``from_other_pack``, ``pull_list``, ``physical_draw_progress``; Progressive Poker's from
``docs/rules/progressive-poker.md``, the tables of four's from ``docs/rules/tables-of-four.md``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tables.errors import RuleError
from tables.formats.engine import Plan
from tables.packs import Pack
from tables.table_cards import TableCard, pack_words, rank_name, rank_plural
from tournament.models import Draw, DrawnCard, Evening, Guest
from tournament.name_keys import bare_name, name_found, name_order
from tournament.plugin import DrawGuest, PhysicalView, PullPack
from tournament.registry import format_for
from tournament.selectors.board import table_kind, table_label
from tournament.selectors.guest_boards import shared_guests
from tournament.services.draw_physical import open_physical_draw
from tournament.services.draws import live_draw, stored_plan
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
    cards = draw.cards.select_related("guest")
    for row in sorted(cards, key=lambda c: (c.rank, name_order(c.guest.name), c.guest_id, c.pk)):
        if row.rank > count:
            sitting_out.append(row.guest)
            continue
        card = TableCard(Pack(row.pack), row.rank)
        words = f"represents {pack_words(card.pack, labels)}" if row.pack != row.guest.pack else ""
        tables[row.rank - 1].lines.append(SeatLine(row.guest, card, card.name_with(labels), words))
    return SeatingView(draw, tables, sitting_out)


def pull_list_view(evening: Evening) -> tuple[Plan, list[PullPack]]:
    """The pull list to print, one ``PullPack`` per pack with the host's labels, and the plan it
    is for: the format's (``FormatPlugin.pull_list``), for the physical draw being recorded, else
    for the guests checked in now (Progressive Poker: the relaxed plan accepted for 9 to 11
    guests; tables of four: the digital draw's seat cards). Raises ``RuleError`` when the guests
    here cannot be seated. Three or four queries."""
    return format_for(evening).pull_list(evening, open_physical_draw(evening))


def drawn_card_words(evening: Evening, guest: Guest | DrawGuest, card: DrawnCard) -> str:
    """What the host reads once a card is recorded in the physical draw, with the host's pack
    labels: "Ann Smith: four of the Red pack → table 4." (a table card's rank is its
    table: Progressive Poker's physical draw). No query beyond the evening's labels."""
    if card.seat is not None:  # a seat card at tables of four: "3 N"
        return (
            f"{guest.name}: {card.rank} {'NESW'[card.seat]} → {format_for(evening).place_words(card.rank, card.seat)}."
        )
    name = TableCard(Pack(card.pack), card.rank).name_with(pack_labels(evening))
    return f"{guest.name}: {name} → table {card.rank}."


def physical_view(draw: Draw) -> PhysicalView:
    """Load the progress of a physical draw, as its format reads its cards
    (``FormatPlugin.physical_draw_progress``: table cards, or seat cards at tables of four).
    Three queries or so."""
    return format_for(draw.evening).physical_draw_progress(draw, PhysicalView(draw, stored_plan(draw)))


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


def representing_choice(evening: Evening, plan: Plan) -> Representing:
    """The choice of who represents the other pack for ``plan`` and the guests here (how many
        must: ``FormatPlugin.from_other_pack``). The guests are the ones read once per process and
    evening version (``guest_boards.shared_guests``): no query when kept. Source: docs/rules/progressive-poker.md
        ("some of the men must represent women or vice versa")."""
    guests = [g for g in shared_guests(evening).values() if g.status == Guest.Status.HERE]
    counts = Counter(Pack(g.pack) for g in guests)
    if counts[Pack.RED] + counts[Pack.BLUE] != plan.guests:
        return Representing(None, 0, [])
    short = format_for(evening).from_other_pack(plan, red=counts[Pack.RED], blue=counts[Pack.BLUE])
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
    longer checked in. Empty before any draw. Two queries, and the guests read once per process
    and evening version (``guest_boards.shared_guests``)."""
    changes = DrawChanges()
    draw = live_draw(evening)
    if draw is None:
        return changes
    plan = stored_plan(draw)
    fmt = format_for(evening)
    tables = dict(draw.cards.values_list("guest_id", "rank"))
    free = fmt.free_seats(plan)
    for guest in shared_guests(evening).values():
        if guest.status == Guest.Status.HERE and guest.pk not in tables:
            changes.latecomers.append((guest, free))
        elif guest.status != Guest.Status.HERE and guest.pk in tables:
            try:
                fmt.plan_without_guest(plan, tables[guest.pk])
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
