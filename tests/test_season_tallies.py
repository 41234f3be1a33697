"""Every format's season tallies (``FormatPlugin.season_tallies``) are its own standings' tallies,
evening by evening, read for many evenings at once in a constant number of queries."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.module_loading import import_string

from tests.factories import EveningFactory, GuestFactory
from tournament.models import Evening
from tournament.registry import format_for
from tournament.services.clock import round_ring, round_start
from tournament.services.draws import draw_digital
from tournament.services.state import current_round

KEYS = [import_string(path).key for path in settings.HEAD_TABLE_FORMATS]


def played(host, key: str, *, guests: int = 12, rounds: int = 2, name: str = "Night") -> Evening:
    """An evening of ``key`` with ``guests`` drawn and ``rounds`` played by the format's example
    results (``FormatPlugin.example_result``), the host ringing every bell."""
    evening = EveningFactory(
        host=host, format=key, name=name, rounds_planned=rounds + 1, round_end=Evening.RoundEnd.CLOCK
    )
    for i in range(guests):
        GuestFactory(evening=evening, name=f"{name} guest {chr(65 + i)}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening, user=host)
    fmt = format_for(evening)
    for _ in range(rounds):
        evening.refresh_from_db()
        rnd = round_start(evening=evening, user=host)
        for table in range(1, len(fmt.state(evening).tables) + 1):
            fmt.example_result(evening=evening, rnd=rnd, table=table, user=host)
        evening.refresh_from_db()
        if current_round(evening) is not None and current_round(evening).state != "closed":
            round_ring(evening=evening, user=host)
    evening.refresh_from_db()
    return evening


def standing_tallies(evening: Evening) -> dict[int, dict[str, int]]:
    """The evening's own standings page's tallies, by guest, in the season's tally names."""
    fmt = format_for(evening)
    names = [name for name, _ in fmt.season_rules.columns]
    out = {}
    for line in fmt.standings(evening).lines:
        row = getattr(line, "row", None)
        if row is not None:  # Progressive Poker's line
            out[line.guest.pk] = {"yellow": row.yellow, "counters_won": row.counters_won}
        elif line.guest is not None:
            out[line.guest.pk] = {name: line.tallies.get(name, 0) for name in names}
    return out


@pytest.mark.parametrize("key", KEYS)
def test_season_tallies_are_the_evenings_standings(db, host, key):
    evenings = [played(host, key, name=f"Night {n}", rounds=n) for n in (1, 2)]
    tallies = format_for(evenings[0]).season_tallies(evenings)
    for evening in evenings:
        assert tallies[evening.pk] == standing_tallies(evening)
        assert any(any(v for v in t.values()) for t in tallies[evening.pk].values())  # something was scored


@pytest.mark.parametrize("key", KEYS)
def test_an_evening_before_its_first_bell_is_left_out(db, host, key):
    evening = EveningFactory(host=host, format=key, rounds_planned=3)
    for i in range(12):
        GuestFactory(evening=evening, name=f"Guest {i}", pack="red" if i % 2 else "blue")
    draw_digital(evening=evening, user=host)
    assert format_for(evening).season_tallies([evening]) == {}


@pytest.mark.parametrize("key", ["bunco", "poker"])
def test_constant_queries(db, host, key):
    few = [played(host, key, name="A", rounds=1)]
    many = [*few, *(played(host, key, name=f"N{n}", rounds=1) for n in range(3))]
    with CaptureQueriesContext(connection) as one:
        format_for(few[0]).season_tallies(few)
    with CaptureQueriesContext(connection) as four:
        format_for(few[0]).season_tallies(many)
    assert len(one) == len(four) <= 2


def test_poker_season_tallies_read_the_final_count(db, host):
    """An ended Progressive Poker evening counts its final count's counters (a table counted
    five counters more than the last bell's state for its first guest, five fewer for its last),
    as its own standings do."""
    from tournament.services.ending import evening_end, final_count_record, final_count_tables

    evening = played(host, "poker", rounds=2)
    evening_end(evening=evening, seen_round=2, user=host)
    evening.refresh_from_db()
    before = format_for(evening).season_tallies([evening])[evening.pk]
    moved = {}
    for table in final_count_tables(evening):
        counted = dict(table.last)
        first, last = list(counted)[0], list(counted)[-1]
        take = min(5, counted[last])
        counted[first] += take
        counted[last] -= take
        moved[first], moved[last] = take, -take
        final_count_record(evening=evening, table=table.number, counters=counted, user=host)
    evening.refresh_from_db()
    after = format_for(evening).season_tallies([evening])[evening.pk]
    assert after == standing_tallies(evening)
    assert any(moved.values())
    for guest, change in moved.items():
        assert after[guest]["counters_won"] == before[guest]["counters_won"] + change
