"""Reads for the guests list at the door: who is listed under a filter, the counts, and what
each row may offer (a guest whom history refers to is never offered *Remove*).

A constant number of queries whatever the number of guests (500 guests: 7 queries).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from tournament.evening_parts import evening_part
from tournament.kept import Kept
from tournament.models import Evening, Guest
from tournament.name_keys import fold_name, name_found, name_order
from tournament.registry import format_for
from tournament.services.history import guests_with_history

#: What a row of the list shows and filters on, read as values (500 guests: no 1,000 model
#: objects; issue 26 item 3).
ROW_FIELDS = ("id", "name", "pack", "contact", "status", "seat__table")


@dataclass(frozen=True, slots=True)
class SeatAt:
    """Where a listed guest sits: ``table`` (1 is the head table)."""

    table: int


@dataclass(frozen=True, slots=True)
class GuestRow:
    """One guest as the list shows them: ``pk``, ``name``, ``pack`` ("red" | "blue"),
    ``contact``, ``status`` (a ``Guest.Status`` value) and ``seat`` (a ``SeatAt``, None when
    not seated), read as values, not as a ``Guest``."""

    pk: int
    name: str
    pack: str
    contact: str
    status: str
    seat: SeatAt | None

    def get_status_display(self) -> str:
        """The status in the host's words ("Here", "Not here yet", ...), as ``Guest``'s."""
        return str(Guest.Status(self.status).label)


@dataclass(frozen=True)
class GuestCounts:
    """How many guests are registered in all, here, and here per pack."""

    all: int
    here: int
    red: int
    blue: int
    waiting: int


@dataclass
class GuestList:
    """The guests list as a page shows it: the rows under the filter, the evening's counts,
    who has history (no *Remove*), whether round 1 has started, whether the draw is made
    (``drawn``: *Seat now* is offered from then on, issue 22), who is here but unseated, and
    who sits the round out by the format's rules (``FormatPlugin.sitting_out``: no *Seat now*),
    and whether a guest may join after the draw (``FormatPlugin.joins_after_the_draw``)."""

    evening: Evening
    rows: list[GuestRow]
    counts: GuestCounts
    history: set[int]
    started: bool
    drawn: bool = False
    unseated: list[GuestRow] = field(default_factory=list)
    sitting_out: frozenset[int] = frozenset()
    joins: bool = True
    seatable: bool = True
    """Whether a guest here without a seat can be given one now (*Seat now*): after the draw,
    not once the evening has ended, nor after round 1 where the format's schedule is fixed
    (``joins``); otherwise no *Seat now* and no warning the host cannot act on (house rule)."""
    q: str = ""
    show: str = ""
    reading: EveningGuests | None = None  # what the rows were filtered from

    @property
    def letters(self) -> list[tuple[str, int]]:
        """(initial, first guest id with it) for the listed rows: the list's A–Z jump links.
        The initial is the name's first letter as the list sorts it (``name_order``: "Éléonore"
        under E, "Мария" under M beside Latin M, never a second look-alike "M"); a name with
        no letter for it in A–Z under its own first character. The whole list's are read once
        with the list (``EveningGuests.letters``)."""
        if self.reading is not None and self.unfiltered:
            return list(self.reading.letters)
        return list(_letters(self.rows))

    @property
    def unfiltered(self) -> bool:
        """True when every guest is listed (no search, no status chosen)."""
        return not self.q and not self.show

    @property
    def waiting_listed(self) -> list[GuestRow]:
        """The listed guests not here yet ("Check in everyone listed" checks in these)."""
        return [g for g in self.rows if g.status == Guest.Status.REGISTERED]


def guest_matches(q: str, guest: Guest | GuestRow) -> bool:
    """True when ``guest`` is found by ``q``, a piece of their name or contact as typed: every
    word must appear in the name, case and accents ignored (``name_keys.name_found``: “ann
    sm” finds Anne Smith, “muller” Anna Müller, “ngozi adebayo” Ngozi Adébáyọ̀) or in the
    contact, case ignored."""
    contact = fold_name(guest.contact)
    return all(name_found(word, guest.name) or word in contact for word in fold_name(q).split())


def _rows(guests) -> list[GuestRow]:
    return [
        GuestRow(pk, name, pack, contact, status, SeatAt(table) if table is not None else None)
        for pk, name, pack, contact, status, table in guests.values_list(*ROW_FIELDS)
    ]


def guest_row(evening: Evening, guest_id: int) -> GuestRow | None:
    """The evening's guest ``guest_id`` as the list shows them (a ``GuestRow``), or None when
    no such guest is on its list (removed meanwhile). One query."""
    found = _rows(evening.guests.filter(pk=guest_id))
    return found[0] if found else None


@dataclass(frozen=True)
class EveningGuests:
    """What the guests list reads of an evening at one version, whatever the filter: every
    guest alphabetical (``everyone``), the counts, who has history, whether round 1 has started
    and the draw is made, who is here but unseated, who sits the round out, whether a guest may
    join after the draw, and the A–Z jump links of the whole list (``letters``). ``rows_html``
    is the guests list's rows written once per door (``templatetags.guest_rows``), kept with
    this reading, and ``rows_bytes`` the same encoded once (``guest_rows.RowsSplice``);
    ``parts_html``: the page's unbound registration forms written once (``guest_rows.KeptFormsNode``)."""

    version: int
    everyone: tuple[GuestRow, ...]
    counts: GuestCounts
    history: set[int]
    started: bool
    drawn: bool
    unseated: tuple[GuestRow, ...]
    sitting_out: frozenset[int]
    joins: bool
    letters: tuple[tuple[str, int], ...]
    seatable: bool = True  # GuestList.seatable
    rows_html: dict[Hashable, list[str]] = field(default_factory=dict, compare=False, repr=False)
    rows_bytes: dict[Hashable, list[bytes]] = field(default_factory=dict, compare=False, repr=False)
    parts_html: dict[Hashable, list[str]] = field(default_factory=dict, compare=False, repr=False)


LISTS_KEPT = 16  # evenings whose guests list's reading a process keeps
_LISTS: Kept[EveningGuests] = Kept(LISTS_KEPT)  # evening token -> its guests list's reading


def _letters(rows) -> tuple[tuple[str, int], ...]:
    """(initial, first guest id with it) for ``rows`` (``GuestList.letters``)."""
    seen: dict[str, int] = {}
    for g in rows:
        key = name_order(g.name)[0]
        initial = key[:1].upper() if key[:1].isalpha() and key[:1].isascii() else (g.name[:1] or "?").upper()
        seen.setdefault(initial, g.pk)
    return tuple(seen.items())


def evening_guests(evening: Evening) -> EveningGuests:
    """The guests list's reading of ``evening`` (``EveningGuests``), computed: about seven
    queries whatever the number of guests."""
    everyone = tuple(sorted(_rows(evening.guests.all()), key=lambda g: (name_order(g.name), g.pk)))
    here = [g for g in everyone if g.status == Guest.Status.HERE]
    counts = GuestCounts(
        all=len(everyone),
        here=len(here),
        red=sum(g.pack == "red" for g in here),
        blue=sum(g.pack == "blue" for g in here),
        waiting=sum(g.status == Guest.Status.REGISTERED for g in everyone),
    )
    drawn = evening.stage != Evening.Stage.REGISTRATION
    fmt = format_for(evening)
    out = fmt.sitting_out(evening) if drawn else frozenset()
    started = evening.rounds.exists()
    seatable = drawn and evening.stage != Evening.Stage.ENDED and (not started or fmt.joins_after_the_draw)
    return EveningGuests(
        version=evening.version,
        everyone=everyone,
        counts=counts,
        history=guests_with_history(evening.pk),
        started=started,
        drawn=drawn,
        unseated=tuple(g for g in here if g.seat is None and g.pk not in out) if seatable else (),
        sitting_out=out,
        joins=fmt.joins_after_the_draw,
        letters=_letters(everyone),
        seatable=seatable,
    )


def guest_list(evening: Evening, *, q: str = "", show: str = "", kept: bool = False) -> GuestList:
    """The evening's guests list under a filter (``q``: part of a name or contact, found by
    ``guest_matches``; ``show``: a status, "" for everyone), alphabetical. Returns a
    ``GuestList``. The filter runs over the rows already read (2,000 guests at most).
    ``kept``: read the evening once per process and version (``evening_part``: one query when
    kept), for a page that only reads; a request that has just changed the evening reads it
    afresh (the default), since its ``evening`` is the one read before the change."""
    reading = evening_part(_LISTS, evening, evening_guests) if kept else evening_guests(evening)
    everyone = reading.everyone
    rows = [g for g in everyone if (not show or g.status == show) and (not q or guest_matches(q, g))]
    return GuestList(
        evening=evening,
        rows=rows,
        counts=reading.counts,
        history=reading.history,
        started=reading.started,
        drawn=reading.drawn,
        unseated=list(reading.unseated),
        sitting_out=reading.sitting_out,
        joins=reading.joins,
        seatable=reading.seatable,
        q=q,
        show=show,
        reading=reading,
    )
