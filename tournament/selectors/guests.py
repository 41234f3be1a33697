"""Reads for the guests list at the door: who is listed under a filter, the counts, and what
each row may offer (a guest whom history refers to is never offered *Remove*).

A constant number of queries whatever the number of guests (500 guests: 7 queries).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import NamedTuple

from tournament.evening_parts import evening_part
from tournament.kept import Kept
from tournament.models import Evening, Guest
from tournament.name_keys import fold_name, initial_order, name_found, name_initial, name_order
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
    def letters(self) -> list[Initial]:
        """The listed rows' letter bar (``Initial``: letter, first guest id with it, script):
        every initial the guests' names have (``name_keys.name_initial``: "Éléonore" under E,
        "Мария" under Cyrillic М, "李明" under 李), A–Z first, then each other script's
        letters, which the bar names ("Cyrillic"), so Latin M and Cyrillic М are never taken
        for one another. The whole list's are read once with the list
        (``EveningGuests.letters``)."""
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
    letters: tuple[Initial, ...]
    seatable: bool = True  # GuestList.seatable
    rows_html: dict[Hashable, list[str]] = field(default_factory=dict, compare=False, repr=False)
    rows_bytes: dict[Hashable, list[bytes]] = field(default_factory=dict, compare=False, repr=False)
    parts_html: dict[Hashable, list[str]] = field(default_factory=dict, compare=False, repr=False)


LISTS_KEPT = 16  # evenings whose guests list's reading a process keeps
_LISTS: Kept[EveningGuests] = Kept(LISTS_KEPT)  # evening token -> its guests list's reading


class Initial(NamedTuple):
    """One link of the guests list's letter bar: the ``letter`` (``name_keys.name_initial``),
    the first listed guest with it (``pk``) and the ``script`` it is a letter of ("Latin",
    "Cyrillic", ...; the bar names a script beside Latin's)."""

    letter: str
    pk: int
    script: str


def _letters(rows) -> tuple[Initial, ...]:
    """The letter bar of ``rows`` (``GuestList.letters``): every initial the listed guests'
    names have, each once, linking to its first guest in the list's order, in the bar's
    order (``name_keys.initial_order``: A–Z, then the other scripts' letters)."""
    seen: dict[tuple[str, str], int] = {}
    for g in rows:
        seen.setdefault(name_initial(g.name), g.pk)
    ordered = sorted(seen.items(), key=lambda item: initial_order(*item[0]))
    return tuple(Initial(letter, pk, script) for (letter, script), pk in ordered)


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
