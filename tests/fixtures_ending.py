"""An evening at its end, for the tests that look at the end pages (no developer text, the axe
scan, the host's guide): ``ended_evening(host, size)`` plays round 1 (``played_evening``), ends
the evening during round 2 (the host's *End the evening*), records its results (counts at the
head table only) and rings the last bell; ``count_every_table`` saves each table's final count
as filled in; ``ending_pages`` lists the end pages with their audience."""

from __future__ import annotations

from django.urls import reverse

from tests.fixtures_pages import Page
from tests.fixtures_room import played_evening
from tournament.models import Bell, Evening
from tournament.services import ending
from tournament.services.bell import bell_ring
from tournament.services.prizes import evening_standings
from tournament.services.results import result_record
from tournament.services.state import current_round, evening_state


def ended_evening(host, size: int = 30, **fields) -> Evening:
    """The evening of the module docstring, after its last bell (before the final count)."""
    evening = played_evening(host, size, **fields)
    ending.evening_end(evening=evening, seen_round=2)
    rnd = current_round(evening)
    last_results(evening)
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None
    return Evening.objects.get(pk=evening.pk)


def last_results(evening: Evening) -> None:
    """Round 2's results: the head table's counts (its first guest takes 10 from its last), a
    pool winner everywhere else (no counts: the final count takes them after the bell)."""
    rnd = current_round(evening)
    state = evening_state(evening)
    for number, ids in enumerate(state.tables, 1):
        counters = None
        if number == 1:
            counters = {g: state.counters[g] for g in ids}
            counters[ids[0]] += 10
            counters[ids[-1]] -= 10
        result_record(round=rnd, table=number, pool_winner=ids[0], counters=counters)


def count_every_table(evening: Evening) -> None:
    """Save every table's final count as the form fills it in (a count off stays agreed)."""
    for table in ending.final_count_tables(evening):
        ending.final_count_record(
            evening=evening,
            table=table.number,
            counters=table.prefill,
            agreed_off=sum(table.prefill.values()) - sum(table.last.values()),
        )


def reveal(evening: Evening, steps: int) -> Evening:
    """Tap "Reveal next prize" until ``steps`` steps of the ceremony are shown."""
    evening = Evening.objects.get(pk=evening.pk)
    while (evening.ceremony_step or 0) < steps:
        ending.ceremony_next(evening=evening, seen_step=evening.ceremony_step or 0)
        evening.refresh_from_db()
    return evening


def ending_pages(evening: Evening) -> list[Page]:
    """The end pages as they stand: the host's end page and table 1's final count, the room
    display, and the phones of the first winner of each prize and of the last guest."""
    e = evening.pk
    pages = [
        Page(reverse("host-finish", args=[e]), "host"),
        Page(reverse("host-final-count", args=[e, 1]), "host"),
        Page(reverse("host-evening", args=[e]), "host"),
        Page(reverse("room", args=[evening.public_key]), "room"),
    ]
    table = evening_standings(evening)
    guests = {p.winners[0].pk: p.winners[0] for p in table.prizes if p.winners}
    guests[table.lines[-1].guest.pk] = table.lines[-1].guest
    return pages + [Page(reverse("guest-page", args=[g.key]), "guest") for g in guests.values()]
