"""Importing an evening costs the same SQL statements for 30 guests as for 500 (issue 26 item 4):
rows are checked in Python and written one kind at a time in one insert (``tournament.exchange.rows._all_saved``). Statements are
counted with ``connection.execute_wrapper`` (no cap), a bulk insert once (SQLite splits one into
batches of 999 parameters; PostgreSQL, where the raw count is checked too, sends one).
``bench/bench_import.py`` times the same import against the export.
"""

from __future__ import annotations

import pytest
from django.db import connection

from tests.test_import import by_name
from tests.test_round_services import play_round
from tournament.exchange.export import evening_export
from tournament.exchange.importer import evening_import
from tournament.models import Bell, DrawnCard, Result, ResultVote
from tournament.services.bell import bell_ring
from tournament.services.draws import draw_digital
from tournament.services.state import current_round, evening_state

pytestmark = pytest.mark.django_db


def recorded_evening(make_evening, guests: int):
    """An evening of ``guests`` (half in each pack), drawn, two rounds rung, a third reported,
    each of its results confirmed by another guest at the table; returns its export."""
    evening = make_evening(guests // 2, guests - guests // 2, name=f"{guests} guests")
    draw_digital(evening=evening)
    for _ in range(2):
        bell_ring(round_id=play_round(evening).pk, cause=Bell.Cause.HOST)
    play_round(evening)
    tables = evening_state(evening).tables
    for result in current_round(evening).results.all():
        ResultVote.objects.create(result=result, guest_id=tables[result.table - 1][1], verdict="confirm")
    return evening_export(evening)


def statements(run) -> tuple[int, int]:
    """(statements with a bulk insert's batches counted once, raw statements) that ``run()`` sends."""
    sent: list[str] = []

    def count(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        run()
    folded, last = 0, None
    for sql in sent:
        head = sql.split("(", 1)[0] if sql.startswith("INSERT") else None
        folded += head is None or head != last
        last = head
    return folded, len(sent)


def test_an_import_of_500_guests_costs_the_statements_of_an_import_of_30(make_evening, host):
    small, large = recorded_evening(make_evening, 30), recorded_evening(make_evening, 500)
    assert len(large["guests"]) == 500 and sum(len(r["results"]) for r in large["rounds"]) == 3 * 84
    assert sum(len(r.get("votes", ())) for rnd in large["rounds"] for r in rnd["results"]) == 84
    counted, copies = {}, {}
    for size, data in (("small", small), ("large", large)):
        counted[size] = statements(
            lambda size=size, data=data: copies.update({size: evening_import(data=data, host=host)})
        )
    assert counted["small"][0] == counted["large"][0], counted
    if connection.vendor == "postgresql":
        assert counted["small"][1] == counted["large"][1], counted
    # Every guest, card, result and vote arrived, and the copy tells the same story.
    copy = copies["large"]
    assert copy.guests.count() == 500 and DrawnCard.objects.filter(draw__evening=copy).count() == 500
    assert Result.objects.filter(round__evening=copy).count() == 3 * 84
    assert ResultVote.objects.filter(result__round__evening=copy).count() == 84
    assert by_name(evening_export(copy)) == by_name(large)
