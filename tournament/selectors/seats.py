"""What the host's "Change seats" page shows: every table with who sits where, the guests who
can be moved, and the places a guest can move to (``services.seat_changes``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tables.errors import RuleError
from tournament.models import Bell, Evening, Guest
from tournament.name_keys import name_order
from tournament.registry import format_for
from tournament.services.bell import round_when, step_after_bell


@dataclass(frozen=True)
class SeatPlace:
    """One place at a table: its ``words`` ("table 2, North"), who holds it (``name``; "Ghost 1"
    for a ghost) and the guest's id (None for a ghost)."""

    words: str
    name: str
    guest: int | None

    @property
    def seat(self) -> str:
        """The seat alone where seats are named ("North"), else ""."""
        return self.words.partition(", ")[2]


@dataclass
class SeatsView:
    """The page's content: ``tables`` (table number, its places), the seated guests to choose
    from as (id, "name, table 2, North"), the places to move to as (value, words), and why no
    change can be made now (``problem``, "" when one can)."""

    tables: list[tuple[int, list[SeatPlace]]] = field(default_factory=list)
    guests: list[tuple[int, str]] = field(default_factory=list)
    places: list[tuple[str, str]] = field(default_factory=list)
    problem: str = ""
    last_change: Bell | None = None
    """The evening's last live step when it is a seat change (the page offers to undo it)."""
    last_change_when: str = ""
    """When that change is for, in words: "before round 2", "during round 1" (``round_when``)."""


def seats_view(evening: Evening) -> SeatsView:
    """Load the page's content (two or three queries). Before the draw ``problem`` says to run it.
    The places to move to are every ghost's seat where seats are fixed (a guest's seat is a swap),
    else every table ("table 3, 5 players")."""
    fmt = format_for(evening)
    view = SeatsView()
    try:
        tables = fmt.state(evening).tables
    except RuleError:
        view.problem = "There is no draw yet: run the draw, then change seats."
        return view
    names = dict(evening.guests.values_list("pk", "name"))
    left = set(evening.guests.filter(status=Guest.Status.LEFT).values_list("pk", flat=True))
    for number, ids in enumerate(tables, 1):
        places = []
        for seat, player in enumerate(ids):
            words = fmt.place_words(number, seat)
            name = names.get(player, "A guest") if player > 0 else f"Ghost {-player}"
            places.append(SeatPlace(words, name, player if player > 0 else None))
            if player > 0 and player not in left:
                view.guests.append((player, f"{name}, {words}"))
            if player <= 0 and fmt.seats_named:
                view.places.append((f"{number}-{seat}", f"{words} ({name}'s seat)"))
        if not fmt.seats_named:
            view.places.append((str(number), f"table {number} ({len(ids)} players now)"))
        view.tables.append((number, places))
    view.guests.sort(key=lambda g: name_order(g[1]))
    last = Bell.objects.of_evening(evening.pk).live().newest_first().select_related("round").first()
    view.last_change = last if last is not None and last.kind == Bell.Kind.SEAT else None
    if view.last_change is not None:
        after = step_after_bell(view.last_change)
        view.last_change_when = round_when(round_number=view.last_change.round.number, after_bell=after)
    return view
