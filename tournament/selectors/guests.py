"""Reads for the guests list at the door: who is listed under a filter, the counts, and what
each row may offer (a guest whom history refers to is never offered *Remove*).

A constant number of queries whatever the number of guests (500 guests: 7 queries).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournament.models import Evening, Guest
from tournament.name_keys import fold_name, name_found
from tournament.registry import format_for
from tournament.services.history import guests_with_history

#: What a row of the list shows and filters on: the rest of a guest (the private key, the
#: time registered) is not read for 500 rows (issue 26 item 3).
ROW_FIELDS = ("id", "evening_id", "name", "pack", "contact", "status", "seat__id", "seat__guest_id", "seat__table")


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
    who has history (no *Remove*), whether round 1 has started, who is here but unseated, and
    who sits the round out by the format's rules (``FormatPlugin.sitting_out``: no *Seat now*),
    and whether a guest may join after the draw (``FormatPlugin.joins_after_the_draw``)."""

    evening: Evening
    rows: list[Guest]
    counts: GuestCounts
    history: set[int]
    started: bool
    unseated: list[Guest] = field(default_factory=list)
    sitting_out: frozenset[int] = frozenset()
    joins: bool = True
    q: str = ""
    show: str = ""

    @property
    def letters(self) -> list[tuple[str, int]]:
        """(initial, first guest id with it) for the listed rows: the list's A–Z jump links."""
        seen: dict[str, int] = {}
        for g in self.rows:
            seen.setdefault((g.name[:1] or "?").upper(), g.pk)
        return list(seen.items())

    @property
    def waiting_listed(self) -> list[Guest]:
        """The listed guests not here yet ("Check in everyone listed" checks in these)."""
        return [g for g in self.rows if g.status == Guest.Status.REGISTERED]


def guest_matches(q: str, guest: Guest) -> bool:
    """True when ``guest`` is found by ``q``, a piece of their name or contact as typed: every
    word must appear in the name, case and accents ignored (``name_keys.name_found``: “ann
    sm” finds Anne Smith, “muller” Anna Müller, “ngozi adebayo” Ngozi Adébáyọ̀) or in the
    contact, case ignored."""
    contact = fold_name(guest.contact)
    return all(name_found(word, guest.name) or word in contact for word in fold_name(q).split())


def guest_list(evening: Evening, *, q: str = "", show: str = "") -> GuestList:
    """The evening's guests list under a filter (``q``: part of a name or contact, found by
    ``guest_matches``; ``show``: a status, "" for everyone), alphabetical. Returns a
    ``GuestList``. The filter runs over the rows already read (2,000 guests at most)."""
    everyone = list(evening.guests.select_related("seat").only(*ROW_FIELDS))
    here = [g for g in everyone if g.status == Guest.Status.HERE]
    counts = GuestCounts(
        all=len(everyone),
        here=len(here),
        red=sum(g.pack == "red" for g in here),
        blue=sum(g.pack == "blue" for g in here),
        waiting=sum(g.status == Guest.Status.REGISTERED for g in everyone),
    )
    rows = [g for g in everyone if (not show or g.status == show) and (not q or guest_matches(q, g))]
    started = evening.rounds.exists()
    fmt = format_for(evening)
    out = fmt.sitting_out(evening) if started else frozenset()
    return GuestList(
        evening=evening,
        rows=rows,
        counts=counts,
        history=guests_with_history(evening.pk),
        started=started,
        unseated=[g for g in here if not hasattr(g, "seat") and g.pk not in out] if started else [],
        sitting_out=out,
        joins=fmt.joins_after_the_draw,
        q=q,
        show=show,
    )
