"""The bell costs the same number of SQL statements for 16 players as for 500 in every format
(Progressive Poker, Progressive Euchre, Drive Whist, Bunco): issue 15 item 6. The benchmark
``bench/bench_formats.py`` times the same bells; this test holds the query counts. A bulk
insert is counted once (SQLite splits one into batches of 999 parameters; PostgreSQL, where the
raw count is checked too, sends one).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import EveningFactory
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest, Result, Seat
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.state import evening_state

pytestmark = pytest.mark.django_db
REPORTS = {
    "euchre": {"points": {"NS": 7, "EW": 3}},
    "whist": {"tricks": {"NS": 8, "EW": 5}},
    "bunco": {"points": {"NS": 21, "EW": 9}},
}


def _statements(captured: list[dict]) -> int:
    """Statements, with consecutive INSERTs into one table (a bulk insert's batches) counted once."""
    count, last = 0, None
    for query in captured:
        head = query["sql"].split("(", 1)[0] if query["sql"].startswith("INSERT") else None
        count += head is None or head != last
        last = head
    return count


def _round(fmt: str, players: int):
    """An evening of ``players`` in ``fmt``, drawn, round 1 started, a report at every table."""
    evening = EveningFactory(format=fmt, round_end=Evening.RoundEnd.CLOCK)
    Guest.objects.bulk_create(
        [
            Guest(
                evening=evening,
                name=f"Guest {i}",
                name_key=f"guest {i}",
                pack="red" if i % 2 else "blue",
                status=Guest.Status.HERE,
            )
            for i in range(players)
        ]
    )
    if fmt == "poker":
        draw_digital(evening=evening)
        rnd = round_start(evening=evening)
        state = evening_state(evening)
        head = state.tables[0]
        counters = {str(g): state.counters[g] for g in head} | {
            str(head[0]): state.counters[head[0]] + 10,
            str(head[-1]): state.counters[head[-1]] - 10,
        }
        Result.objects.bulk_create(
            [
                Result(round=rnd, table=n, pool_winner_id=ids[0], counters=counters if n == 1 else {})
                for n, ids in enumerate(state.tables, 1)
            ]
        )
        return rnd
    foursome_draw(evening=evening)
    rnd = round_start(evening=evening)
    Result.objects.bulk_create(
        [Result(round=rnd, table=n, report=REPORTS[fmt]) for n in range(1, len(foursome_state(evening).tables) + 1)]
    )
    return rnd


@pytest.mark.parametrize("fmt", ["poker", "euchre", "whist", "bunco"])
def test_the_bell_costs_the_same_statements_for_16_and_500_players(fmt):
    counts = []
    for players in (16, 500):
        rnd = _round(fmt, players)
        with CaptureQueriesContext(connection) as queries:
            assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST) is not None
        counts.append((_statements(queries.captured_queries), len(queries)))
    assert counts[0][0] == counts[1][0], counts
    # lock, state, results, names, cuts, claim, record, entries, seats, audit, version (issue 26 item 6)
    assert counts[1][0] <= (19 if fmt == "poker" else 18), counts
    if connection.vendor == "postgresql":
        assert counts[0][1] == counts[1][1], counts
    if fmt != "poker":  # the seats followed the bell: every guest where the bell's state says
        state = foursome_state(rnd.evening)
        seats = {s.guest_id: (s.table, s.position) for s in Seat.objects.filter(evening=rnd.evening)}
        assert seats == {p: (n, s) for n, t in enumerate(state.tables, 1) for s, p in enumerate(t) if p > 0}
