"""Reads for the guests list at the door: who is listed under a filter, the counts, and what
each row may offer (a guest whom history refers to is never offered *Remove*).

A constant number of queries whatever the number of guests (500 guests: 7 queries).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from tournament.models import Evening, Guest
from tournament.services.history import guests_with_history


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
    who has history (no *Remove*), whether round 1 has started, and who is here but unseated."""

    evening: Evening
    rows: list[Guest]
    counts: GuestCounts
    history: set[int]
    started: bool
    unseated: list[Guest] = field(default_factory=list)
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


def guest_matches(q: str) -> Q:
    """A filter on a piece of a guest's name or contact, as typed (spaces collapsed, case
    folded, like ``Guest.fold_name``); every word must appear (“ann sm” finds Anne Smith)."""
    condition = Q()
    for word in Guest.fold_name(q).split():
        condition &= Q(name_key__contains=word) | Q(contact__icontains=word)
    return condition


def guest_list(evening: Evening, *, q: str = "", show: str = "") -> GuestList:
    """The evening's guests list under a filter (``q``: part of a name or contact; ``show``: a
    status, "" for everyone), alphabetical. Returns a ``GuestList``."""
    everyone = list(evening.guests.select_related("seat"))
    here = [g for g in everyone if g.status == Guest.Status.HERE]
    counts = GuestCounts(
        all=len(everyone),
        here=len(here),
        red=sum(g.pack == "red" for g in here),
        blue=sum(g.pack == "blue" for g in here),
        waiting=sum(g.status == Guest.Status.REGISTERED for g in everyone),
    )
    if q or show:
        query = evening.guests.filter(guest_matches(q))
        if show:
            query = query.filter(status=show)
        listed = set(query.values_list("pk", flat=True))
        rows = [g for g in everyone if g.pk in listed]
    else:
        rows = everyone
    started = evening.rounds.exists()
    return GuestList(
        evening=evening,
        rows=rows,
        counts=counts,
        history=guests_with_history(evening.pk),
        started=started,
        unseated=[g for g in here if not hasattr(g, "seat")] if started else [],
        q=q,
        show=show,
    )
