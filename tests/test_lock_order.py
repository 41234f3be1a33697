"""The lock order of every service, read from the SQL it sends to PostgreSQL
(``tournament.services.locks``): the evening's row first, then a round, then a result; each lock
rows of one table (``FOR NO KEY UPDATE OF`` that table, or a query without a join), never
through a join; and no row of
an evening's rounds or results written before the evening is locked.

PostgreSQL only: SQLite has no row locks (Django leaves ``FOR UPDATE`` out there). CI runs it.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests import fixtures_phones
from tests.fixtures_phones import at_table
from tournament.models import Result, Round
from tournament.services import bell, captains, clock, corrections, guests, links, results
from tournament.services.state import evening_state

pytestmark = pytest.mark.django_db(transaction=True)

clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture

RANK = {"tournament_evening": 0, "tournament_round": 1, "tournament_result": 2}
LOCK = re.compile(r'FOR (?:NO KEY )?UPDATE( OF (?P<of>"\w+"(?:, "\w+")*))?')
WRITE = re.compile(r'^(?:UPDATE|DELETE FROM|INSERT INTO) "(?P<table>\w+)"')
FROM = re.compile(r' FROM "(?P<table>\w+)"')
ROW = re.compile(r'WHERE "(?P<table>\w+)"\."id" = (?P<id>\d+)')


@pytest.fixture(autouse=True)
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("Row locks are PostgreSQL's: set DATABASE_URL=postgres://... (CI does).")


def check_order(queries: list[dict]) -> None:
    """Fail, showing the SQL, when a lock joins tables or comes out of order, or a round or
    result row is written before the evening's row is locked."""
    held: set[tuple[str, str]] = set()
    highest, evening_locked = -1, False
    sql = [q["sql"] for q in queries]
    for text in sql:
        lock = LOCK.search(text)
        if lock:
            tables = [t.strip('"') for t in (lock.group("of") or "").split(", ") if t]
            if not tables and " JOIN " not in text:  # one table, no join: locks only its rows
                tables = [FROM.search(text).group("table")]
            assert len(tables) == 1, f"a lock over a join:\n{text}\n\nall:\n" + "\n".join(sql)
            row = ROW.search(text)
            key = (tables[0], row.group("id") if row else text)
            rank = RANK.get(tables[0], 3)
            if key not in held:
                assert rank >= highest, f"{tables[0]} locked after a later table in the order:\n" + "\n".join(sql)
                held.add(key)
                highest = max(highest, rank)
            evening_locked |= rank == 0
        write = WRITE.match(text)
        if write and write.group("table") in (
            "tournament_round",
            "tournament_result",
            "tournament_resultvote",
            "tournament_bell",
            "tournament_seat",
        ):
            assert evening_locked, f"{write.group('table')} written before the evening was locked:\n" + "\n".join(sql)


def run(service, **kwargs):
    with CaptureQueriesContext(connection) as queries:
        value = service(**kwargs)
    check_order(queries.captured_queries)
    return value


def test_every_service_locks_evening_then_round_then_result(playing, host):
    evening = playing
    rnd = Round.objects.get(evening=evening, number=1)
    one, two, three = at_table(evening, 2)[:3]
    report = run(captains.captain_report, guest=one, round_number=1, table=2, pool_winner=one.pk, request_id="r1")
    run(captains.captain_vote, guest=two, result_id=report.pk, verdict="confirm")
    run(results.result_record, round=rnd, table=2, pool_winner=three.pk, user=host)
    run(
        captains.captain_vote,
        guest=one,
        result_id=Result.objects.get(round=rnd, table=2, superseded_at=None).pk,
        verdict="dispute",
    )
    rnd = run(clock.round_pause, round=rnd)
    rnd = run(clock.round_resume, round=rnd)
    rnd = run(clock.round_extend, round=rnd, minutes=2)
    rnd = run(clock.round_set_time_left, round=rnd, seconds=600)
    state = evening_state(evening)
    head = state.tables[0]
    run(results.result_record, round=rnd, table=1, pool_winner=head[0], counters={g: state.counters[g] for g in head})
    for table in range(3, len(state.tables) + 1):
        run(results.result_record, round=rnd, table=table, pool_winner=state.tables[table - 1][0])
    assert run(bell.bell_ring, round_id=rnd.pk, cause="host") is not None
    run(bell.bell_undo, evening=evening)
    assert run(bell.bell_ring, round_id=rnd.pk, cause="host") is not None
    run(corrections.result_correct, evening=evening, round_number=1, table=2, pool_winner=two.pk)
    run(clock.round_start, evening=evening)
    run(guests.guest_set_status, guest=three, status="here")
    run(links.guest_revoke_key, guest=three)
    run(guests.guest_reissue_key, guest=three)
